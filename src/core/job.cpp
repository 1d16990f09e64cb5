#include "adaptsim/job.hpp"

namespace adaptsim {

std::string_view ToString(AdaptationMode mode) {
  switch (mode) {
    case AdaptationMode::kStatic:
      return "static";
    case AdaptationMode::kAccordion:
      return "accordion";
    case AdaptationMode::kGns:
      return "gns";
  }
  return "static";
}

std::optional<AdaptationMode> ParseAdaptationMode(std::string_view text) {
  if (text == "static") return AdaptationMode::kStatic;
  if (text == "accordion") return AdaptationMode::kAccordion;
  if (text == "gns") return AdaptationMode::kGns;
  return std::nullopt;
}

std::string JobTypeName(std::string_view model, int batch_size) {
  return std::string(model) + " (batch size " + std::to_string(batch_size) + ")";
}

}  // namespace adaptsim
