// A training job as described by one trace line (docs/mechanism.md §1.1).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace adaptsim {

/// Job identifier: the 0-based line index of the job in its trace file.
using JobId = int;

/// Dynamic batch-size adaptation of a job (docs/mechanism.md §3).
enum class AdaptationMode { kStatic, kAccordion, kGns };

std::string_view ToString(AdaptationMode mode);
/// Parses "static" | "accordion" | "gns"; std::nullopt otherwise.
std::optional<AdaptationMode> ParseAdaptationMode(std::string_view text);

/// The reference's job-type string "<Model> (batch size <B>)" (`scheduler/job.py:129-137`).
std::string JobTypeName(std::string_view model, int batch_size);

/// One job of a trace. Units: seconds and iterations (steps); one iteration consumes
/// `batch_size` samples.
struct JobSpec {
  JobId id = 0;
  std::string model;           ///< "ResNet-18", "ResNet-50", "Transformer", "LM", "Recommendation"
  int initial_batch_size = 0;  ///< B0, samples per iteration
  int scale_factor = 1;        ///< GPUs the job needs (gang), one of {1, 2, 4, 8}
  AdaptationMode mode = AdaptationMode::kStatic;
  std::int64_t total_steps = 0;       ///< total work S, iterations at B0 (trace field 6)
  double priority_weight = 1.0;       ///< trace field 9
  double slo_s = -1.0;                ///< trace field 10, -1 = none (unused by the simulator)
  std::int64_t trace_duration_s = 0;  ///< trace field 11 (overwritten by the profile, §3.1)
  double arrival_time_s = 0.0;        ///< trace field 12
  std::string command;  ///< trace fields 2-5: physical runs only, kept for round trips
  std::string working_directory;
  std::string num_steps_arg;
  bool needs_data_dir = false;
};

}  // namespace adaptsim
