// Names of the task statuses, as the results file stores them.
#include "adaptsim/task_status.hpp"

#include <stdexcept>
#include <string>

namespace adaptsim {

std::string_view ToString(TaskStatus status) {
  switch (status) {
    case TaskStatus::kOk:
      return "ok";
    case TaskStatus::kTimeout:
      return "timeout";
    case TaskStatus::kFailed:
      return "failed";
    case TaskStatus::kCancelled:
      break;
  }
  return "cancelled";
}

TaskStatus ParseTaskStatus(std::string_view text) {
  std::string known;
  for (TaskStatus status : kTaskStatuses) {
    if (ToString(status) == text) return status;
    known += (known.empty() ? "" : ", ") + std::string(ToString(status));
  }
  throw std::invalid_argument("unknown task status '" + std::string(text) + "' (expected one of " +
                              known + ")");
}

}  // namespace adaptsim
