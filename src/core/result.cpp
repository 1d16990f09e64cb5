// Names of the result enumerations, as the results file stores them.
#include "adaptsim/result.hpp"

namespace adaptsim {

std::string_view ToString(JobOutcome outcome) {
  switch (outcome) {
    case JobOutcome::kCompleted:
      return "completed";
    case JobOutcome::kDeadline:
      return "deadline";
    case JobOutcome::kFailed:
      return "failed";
    case JobOutcome::kUnfinished:
      break;
  }
  return "unfinished";
}

}  // namespace adaptsim
