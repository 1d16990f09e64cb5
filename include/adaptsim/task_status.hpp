// How a task's simulation ended. Results files store the status as its name (ToString), and
// readers parse it back (ParseTaskStatus); docs/results-format.md and docs/sweeps.md list the
// values.
#pragma once

#include <ostream>
#include <string_view>

namespace adaptsim {

enum class TaskStatus {
  kOk,        ///< "ok": every job left the cluster
  kTimeout,   ///< "timeout": a budget (rounds, intervals or wall time) stopped the run
  kFailed,    ///< "failed": bad input, an internal error, or no progress possible
  kCancelled  ///< "cancelled": abandoned on a signal before it finished; never stored
};

/// Every value, in declaration order.
inline constexpr TaskStatus kTaskStatuses[] = {TaskStatus::kOk, TaskStatus::kTimeout,
                                               TaskStatus::kFailed, TaskStatus::kCancelled};

/// The stored name: "ok", "timeout", "failed" or "cancelled".
std::string_view ToString(TaskStatus status);

/// Inverse of ToString. Throws std::invalid_argument naming `text` and the known names when
/// `text` is none of them.
TaskStatus ParseTaskStatus(std::string_view text);

/// Writes ToString(status) (test messages, logs).
inline std::ostream& operator<<(std::ostream& out, TaskStatus status) {
  return out << ToString(status);
}

}  // namespace adaptsim
