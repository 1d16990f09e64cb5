// A production job log as a task's trace (docs/production.md, "Running a log"): how the log is
// read (production_log.hpp) and the seeded rule that turns its jobs into simulated ones
// (production_trace.hpp), as one part of the task configuration, with its canonical JSON.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "adaptsim/production_log.hpp"
#include "adaptsim/production_trace.hpp"

namespace adaptsim {

/// Everything that decides which simulated jobs a production log gives, apart from the log's bytes
/// (TaskConfig::trace_path / trace_hash) and the cluster size (TaskConfig's num_gpus, which is
/// the reader's `cluster_gpus`).
struct ProductionSource {
  ProductionLogFormat format = ProductionLogFormat::kPhilly;
  /// Window, virtual clusters, minimum duration, the artifact's filter, skip_unsimulable.
  /// `cluster_gpus` is not read from here (the task's num_gpus is the cluster).
  ProductionLogOptions select;
  /// The model-assignment rule: `seed` (the model seed, independent of the task's policy seed),
  /// `buckets` (the GPU-time mapping), `mode_mix`, `accordion_min_duration_s`. Its
  /// `skip_unsupported` is not read from here: select.skip_unsimulable decides both kinds of skip
  /// (ProductionLogOptions and ProductionTraceOptions).
  ProductionTraceOptions rule;

  /// Canonical JSON, every option explicit (defaults included, so a task id covers them all):
  /// {"format": "philly"|"itp", "window_start": str, "window_start_s": s, "window_length_s": s,
  ///  "virtual_clusters": [str], "min_duration_s": s, "pollux_filter": bool,
  ///  "skip_unsimulable": bool, "model_seed": uint, "mapping": [{"max_gpu_time_h": h | "inf",
  ///  "models": [str]}], "mode_mix": [p_static, p_accordion, p_gns],
  ///  "accordion_min_duration_s": s}.
  nlohmann::json ToJson() const;
  /// Inverse of ToJson(); every key is required. Throws InputError(context, 0, "production.KEY",
  /// ...) for a missing, unknown or mistyped key, an unknown format and out-of-range values
  /// (ProductionLogOptions::Validate; the mapping's models are checked when the task runs, against
  /// its catalogue).
  static ProductionSource FromJson(const nlohmann::json& json, const std::string& context);

  /// The reader's options for a cluster of `cluster_gpus` GPUs.
  ProductionLogOptions LogOptions(int cluster_gpus) const;
  /// The rule's options with skip_unsupported = select.skip_unsimulable.
  ProductionTraceOptions TraceOptions() const;
};

/// Every key of ProductionSource's JSON (ToJson writes the sample's three only when it is on):
/// the keys FromJson accepts and a sweep's `[production]` table may hold (docs/sweeps.md §1.1).
const std::set<std::string, std::less<>>& ProductionSourceKeys();

/// A short label of the selection and model seed for listings (`adaptsim sweep --dry-run`), e.g.
/// "philly 2017-11-20 00:00:00 +86400s vc=11cb48 model_seed=1".
std::string ProductionLabel(const ProductionSource& source);

/// "philly" → kPhilly, "itp" → kItp; anything else throws InputError(context, line, field, ...).
ProductionLogFormat ParseProductionLogFormat(const std::string& text, const std::string& context,
                                             int line, const std::string& field);

/// The counts stored in a result's input statistics (docs/results-format.md): the reader's
/// ProductionLogStats (rows_read, outside_window, other_virtual_cluster, below_min_duration,
/// pollux_filtered, skipped_too_many_gpus, skipped_zero_duration, selected), the rule's skips
/// (skipped_unsupported, skipped_no_work) and `simulated_jobs` (jobs handed to the engine).
std::map<std::string, std::int64_t> ProductionInputStatistics(const ProductionLogStats& stats,
                                                              std::int64_t skipped_unsupported,
                                                              std::int64_t skipped_no_work,
                                                              std::int64_t simulated_jobs);

}  // namespace adaptsim
