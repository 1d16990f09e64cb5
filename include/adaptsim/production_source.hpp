// A production job log as a task's trace (docs/production.md, "Running a log"): how the log is
// read (production_log.hpp) and the seeded rule that turns its jobs into simulated ones
// (production_trace.hpp), as one part of the task configuration, with its canonical JSON. Its
// options are declared once, in VisitProductionSourceFields (adaptsim/config_field.hpp): the list
// drives the canonical JSON (and so the task id), the keys a sweep's `[production]` table accepts
// and their type checks, and the `adaptsim run` production flags with their --help.
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "adaptsim/config_field.hpp"
#include "adaptsim/production_log.hpp"
#include "adaptsim/production_trace.hpp"

namespace adaptsim {

/// The log formats by their names in a task's JSON, a sweep spec and `--log-format`.
constexpr std::array<std::pair<ProductionLogFormat, std::string_view>, 2> EnumChoices(
    ProductionLogFormat) {
  return {{{ProductionLogFormat::kPhilly, "philly"}, {ProductionLogFormat::kItp, "itp"}}};
}

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

  /// Canonical JSON of the fields of VisitProductionSourceFields, every option explicit (defaults
  /// included, so a task id covers them all) except the sample's, written only when sample_jobs
  /// >= 1 (so earlier task ids are unchanged): {"format": "philly"|"itp", "window_start": str,
  /// "window_start_s": s, "window_length_s": s, "virtual_clusters": [str], "min_duration_s": s,
  /// "pollux_filter": bool, "skip_unsimulable": bool, ["sample_jobs", "sample_start_hour",
  /// "sample_hours": int,] "model_seed": uint, "mapping": [{"max_gpu_time_h": h | "inf",
  /// "models": [str]}], "mode_mix": [p_static, p_accordion, p_gns], "accordion_min_duration_s": s}.
  nlohmann::json ToJson() const;
  /// Inverse of ToJson(); every key is required but the sample's. Throws InputError(context, 0,
  /// "production.KEY", ...) for a missing, unknown or mistyped key, an unknown format and
  /// out-of-range values (ProductionLogOptions::Validate; the mapping's models are checked when
  /// the task runs, against its catalogue).
  static ProductionSource FromJson(const nlohmann::json& json, const std::string& context);

  /// The reader's options for a cluster of `cluster_gpus` GPUs.
  ProductionLogOptions LogOptions(int cluster_gpus) const;
  /// The rule's options with skip_unsupported = select.skip_unsimulable.
  ProductionTraceOptions TraceOptions() const;
};

/// The options of a production source, declared once (docs/production.md, "Running a log"):
/// calls `visit(field, member)` for each, in the order of the docs' table; `S` may be const.
/// `field.flag` is the `adaptsim run` flag (each needs --production-log); `field.required` means
/// required with a log. Ranges are the ones the reader and the rule check
/// (ProductionLogOptions::Validate, CheckRule in production_source.cpp); checks across options
/// (Philly-only options, the mapping's order, mode_mix summing to 1) stay in FromJson.
template <typename S, typename V>
requires std::same_as<std::remove_const_t<S>, ProductionSource>
void VisitProductionSourceFields(S& source, V&& visit) {
  auto& select = source.select;
  auto& rule = source.rule;
  visit(ConfigField{.key = "format",
                    .unit = "",
                    .doc = "format of the log (never guessed from the file name)",
                    .flag = "--log-format",
                    .required = true},
        source.format);
  visit(ConfigField{.key = "window_start",
                    .unit = "",
                    .doc = "Philly: window start 'YYYY-MM-DD HH:MM:SS' (overrides window_start_s)",
                    .default_doc = "\"\" = window_start_s decides"},
        select.window_start);
  visit(ConfigField{.key = "window_start_s",
                    .unit = "s",
                    .doc = "window start from the log's origin (Philly: first timestamp; ITP: "
                           "collection start)",
                    .range = AtLeast(0)},
        select.window_start_s);
  visit(
      ConfigField{.key = "window_length_s",
                  .unit = "s",
                  .doc = "window length; jobs arriving in [start, start + length) (0 = to the end)",
                  .range = AtLeast(0)},
      select.window_length_s);
  visit(
      ConfigField{.key = "virtual_clusters",
                  .unit = "",
                  .doc = "Philly: keep these virtual clusters (each must occur in the log; none = "
                         "all); one per --virtual-cluster",
                  .flag = "--virtual-cluster"},
      select.virtual_clusters);
  visit(ConfigField{.key = "min_duration_s",
                    .unit = "s",
                    .doc = "keep jobs lasting at least this long",
                    .range = AtLeast(0)},
        select.min_duration_s);
  visit(ConfigField{.key = "pollux_filter",
                    .unit = "",
                    .doc = "the Pollux artifact's filter: duration >= 60 s and GPU time < 1000 h"},
        select.pollux_filter);
  visit(ConfigField{.key = "skip_unsimulable",
                    .unit = "",
                    .doc = "skip and count jobs that cannot be simulated (more GPUs than the "
                           "cluster, zero duration, no model for the GPU count, under one step) "
                           "instead of failing"},
        select.skip_unsimulable);
  visit(ConfigField{.key = "sample_jobs",
                    .unit = "count",
                    .doc = "Philly: draw this many jobs as the Pollux artifact samples a workload, "
                           "from every day, arriving at their time of day (0 = off)",
                    .range = WholeWithin(0, 1 << 30),
                    .encoding = Encoding::kUnlessDefault},
        select.sample_jobs);
  visit(ConfigField{.key = "sample_start_hour",
                    .unit = "",
                    .doc = "with sample_jobs: first hour of the day sampled (0-23)",
                    .range = WholeWithin(0, 23),
                    .encoding = Encoding::kOptional,
                    .written_with = "sample_jobs"},
        select.sample_start_hour);
  visit(ConfigField{.key = "sample_hours",
                    .unit = "",
                    .doc = "with sample_jobs: hours of the day sampled from the start hour (1-24)",
                    .range = WholeWithin(1, 24),
                    .encoding = Encoding::kOptional,
                    .written_with = "sample_jobs"},
        select.sample_hours);
  visit(ConfigField{.key = "model_seed",
                    .unit = "id",
                    .doc = "seed of the model-assignment rule (independent of the task's seed)"},
        rule.seed);
  visit(ConfigField{.key = "mapping",
                    .unit = "",
                    .doc = "GPU-time buckets HOURS=MODEL[,MODEL...]: jobs with GPU time below "
                           "HOURS draw from these catalogue models; increasing bounds, the last "
                           "inf; one per --gpu-time-bucket",
                    .flag = "--gpu-time-bucket",
                    .default_doc = "Pollux's buckets"},
        rule.buckets);
  visit(ConfigField{.key = "mode_mix",
                    .unit = "",
                    .doc = "shares static,accordion,gns of the jobs' adaptation modes (sum 1)"},
        rule.mode_mix);
  visit(ConfigField{.key = "accordion_min_duration_s",
                    .unit = "s",
                    .doc = "accordion jobs shorter than this become static",
                    .range = AtLeast(0)},
        rule.accordion_min_duration_s);
}

// The value conversions of the production options' own types (the plain ones are in
// config_field.hpp), for ReadFieldJson / WriteFieldJson.

/// A list of strings.
void ReadFieldJson(const ConfigField& field, const nlohmann::json& value,
                   std::vector<std::string>& member, const std::string& context,
                   const std::string& label);
nlohmann::json WriteFieldJson(const std::vector<std::string>& member);
/// The GPU-time mapping: [{"max_gpu_time_h": hours | "inf", "models": [str]}, ...] (a bound may
/// also be an infinite number, as TOML writes it).
void ReadFieldJson(const ConfigField& field, const nlohmann::json& value,
                   std::vector<GpuTimeBucket>& member, const std::string& context,
                   const std::string& label);
nlohmann::json WriteFieldJson(const std::vector<GpuTimeBucket>& member);
/// Three shares in [0, 1] (their sum is checked by FromJson).
void ReadFieldJson(const ConfigField& field, const nlohmann::json& value,
                   std::array<double, 3>& member, const std::string& context,
                   const std::string& label);
nlohmann::json WriteFieldJson(const std::array<double, 3>& member);

/// Every key of ProductionSource's JSON, from VisitProductionSourceFields: the keys FromJson
/// accepts and a sweep's `[production]` table may hold (docs/sweeps.md §1.1).
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
