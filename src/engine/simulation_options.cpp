#include <cmath>

#include "adaptsim/error.hpp"
#include "adaptsim/simulator.hpp"

namespace adaptsim {

const char* IdleRoundStartName(IdleRoundStart value) {
  return value == IdleRoundStart::kArrival ? "arrival" : "reference";
}

IdleRoundStart ParseIdleRoundStart(const std::string& name) {
  if (name == "reference") return IdleRoundStart::kReference;
  if (name == "arrival") return IdleRoundStart::kArrival;
  throw InputError("simulation options", 0, "idle_round_start",
                   "expected \"reference\" or \"arrival\", got \"" + name + "\"");
}

void SimulationOptions::Validate() const {
  auto fail = [](const char* field, const std::string& message) {
    throw InputError("simulation options", 0, field, message);
  };
  if (num_gpus < 1) fail("num_gpus", "must be >= 1, got " + std::to_string(num_gpus));
  if (!(round_duration_s > 0) || !std::isfinite(round_duration_s)) {
    fail("round_duration_s", "must be a positive number of seconds");
  }
  if (!(restart_overhead_s >= 0) || restart_overhead_s >= round_duration_s) {
    fail("restart_overhead_s", "must be in [0, round_duration_s)");
  }
  if (!(restart_slack_s >= 0)) fail("restart_slack_s", "must be >= 0");
  if (!(deadline_factor >= 1.0) || !std::isfinite(deadline_factor)) {
    fail("deadline_factor", "must be a finite number >= 1 (1.5 shipped, 1.0 comparison runs)");
  }
  if (!(allocation_reset_interval_s >= 0)) fail("allocation_reset_interval_s", "must be >= 0");
  if (max_failed_attempts < 1) fail("max_failed_attempts", "must be >= 1");
  if (max_rounds < 0) fail("max_rounds", "must be >= 0 (0 = no limit)");
  if (!(max_wall_time_s >= 0)) fail("max_wall_time_s", "must be >= 0 (0 = no limit)");
}

}  // namespace adaptsim
