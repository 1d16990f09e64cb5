#include "adaptsim/result_detail.hpp"

namespace adaptsim {

std::string_view ToString(ResultDetail detail) {
  switch (detail) {
    case ResultDetail::kSummary:
      return "summary";
    case ResultDetail::kPerJob:
      return "per_job";
    case ResultDetail::kFull:
      break;
  }
  return "full";
}

std::optional<ResultDetail> ParseResultDetail(std::string_view text) {
  for (ResultDetail detail : {ResultDetail::kSummary, ResultDetail::kPerJob, ResultDetail::kFull}) {
    if (ToString(detail) == text) return detail;
  }
  return std::nullopt;
}

}  // namespace adaptsim
