// The field list of the result records, declared once. A Visit*Fields function calls
// `visit(name, units, field)` for every field of a record, in a fixed order; `R` may be const
// (reading fields) or not (filling them). The HDF5 columns (src/store/columns.hpp, column name =
// field name, docs/results-format.md), the MPI transfer (src/sweep/result_serialization.hpp),
// `adaptsim run --json` and the equality of stored and read records in the tests all iterate
// these lists, so a field added here reaches all of them. A job's engine-specific fields
// (JobResult::extras) have one list per engine (VisitJobExtrasFields); ForEachJobExtrasKind
// enumerates the engines.
//
// Units vocabulary (docs/results-format.md): "s" seconds of simulated time (wall_time_s: wall
// clock), "1" dimensionless ratio, "percent", "count", "id", "gpus", "samples" (batch size in
// samples per iteration), "steps/s" iterations per second, "GPU-h" GPU-hours, "" text or
// enumeration.
#pragma once

#include <concepts>
#include <cstddef>
#include <limits>
#include <type_traits>
#include <utility>
#include <variant>

#include "adaptsim/result.hpp"

namespace adaptsim {

template <typename M, typename V>
void VisitMetricFields(M& m, V&& visit) {
  visit("makespan_s", "s", m.makespan_s);
  visit("mean_jct_s", "s", m.mean_jct_s);
  visit("geometric_mean_jct_s", "s", m.geometric_mean_jct_s);
  visit("harmonic_mean_jct_s", "s", m.harmonic_mean_jct_s);
  visit("p99_jct_s", "s", m.p99_jct_s);
  visit("mean_ftf_rho", "1", m.mean_ftf_rho);
  visit("worst_ftf_rho", "1", m.worst_ftf_rho);
  visit("unfair_fraction_1_05", "1", m.unfair_fraction_1_05);
  visit("unfair_fraction_1_10", "1", m.unfair_fraction_1_10);
  visit("mean_ftf_rho_type_weighted", "1", m.mean_ftf_rho_type_weighted);
  visit("worst_ftf_rho_type_weighted", "1", m.worst_ftf_rho_type_weighted);
  visit("unfair_fraction_type_weighted", "1", m.unfair_fraction_type_weighted);
  visit("utilization", "1", m.utilization);
  visit("lease_extension_percent", "percent", m.lease_extension_percent);
  visit("restarts_per_job", "1", m.restarts_per_job);
  visit("mean_contention", "count", m.mean_contention);
  visit("max_contention", "count", m.max_contention);
  visit("gpu_hours_per_job", "GPU-h", m.gpu_hours_per_job);
  visit("num_rounds", "count", m.num_rounds);
  visit("num_jobs", "count", m.num_jobs);
  visit("num_deadline_completions", "count", m.num_deadline_completions);
  visit("num_failed_jobs", "count", m.num_failed_jobs);
}

/// The summary of a failed task, whose metrics are absent (docs/results-format.md): every
/// floating-point metric NaN (missing to pandas, h5py and the readers), every count 0.
inline SummaryMetrics AbsentMetrics() {
  SummaryMetrics metrics;
  VisitMetricFields(metrics, [](const char*, const char*, auto& field) {
    if constexpr (std::is_floating_point_v<std::remove_reference_t<decltype(field)>>) {
      field = std::numeric_limits<double>::quiet_NaN();
    }
  });
  return metrics;
}

/// The engine-neutral fields of a job (JobResult without `extras`).
template <typename R, typename V>
void VisitJobFields(R& job, V&& visit) {
  visit("job_id", "id", job.id);
  visit("workload", "", job.workload);
  visit("requested_gpus", "gpus", job.requested_gpus);
  visit("initial_batch_size", "samples", job.initial_batch_size);
  visit("final_batch_size", "samples", job.final_batch_size);
  visit("arrival_s", "s", job.arrival_time_s);
  visit("completion_s", "s", job.completion_time_s);
  visit("jct_s", "s", job.jct_s);
  visit("ftf_rho", "1", job.ftf_rho);
  visit("ftf_rho_themis", "1", job.ftf_rho_themis);
  visit("ftf_rho_type_weighted", "1", job.ftf_rho_type_weighted);
  visit("exclusive_time_s", "s", job.exclusive_time_s);
  visit("restarts", "count", job.restarts);
  visit("outcome", "", job.outcome);
}

/// The fields of the round engine's job extras.
template <typename E, typename V>
requires std::same_as<std::remove_const_t<E>, RoundJobExtras>
void VisitJobExtrasFields(E& extras, V&& visit) {
  visit("mode", "", extras.mode);
  visit("rounds_run", "count", extras.rounds_run);
}

/// The fields of the interval engine's job extras.
template <typename E, typename V>
requires std::same_as<std::remove_const_t<E>, IntervalJobExtras>
void VisitJobExtrasFields(E& extras, V&& visit) {
  visit("application", "", extras.application);
}

/// Calls `f(E{})` for every alternative E of JobExtras, in the variant's order.
template <typename F>
void ForEachJobExtrasKind(F&& f) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (f(std::variant_alternative_t<I, JobExtras>{}), ...);
  }
  (std::make_index_sequence<std::variant_size_v<JobExtras>>{});
}

/// The alternative of JobExtras whose kEngine is `engine`, default-constructed; false (and
/// `extras` unchanged) when no engine has that name.
inline bool MakeJobExtras(std::string_view engine, JobExtras& extras) {
  bool found = false;
  ForEachJobExtrasKind([&](auto probe) {
    if (!found && decltype(probe)::kEngine == engine) {
      extras = probe;
      found = true;
    }
  });
  return found;
}

/// Visits the engine-specific fields of `job` (those of the alternative it holds).
template <typename R, typename V>
void VisitJobExtrasFieldsOf(R& job, V&& visit) {
  std::visit([&](auto& extras) { VisitJobExtrasFields(extras, visit); }, job.extras);
}

/// The scalar fields of a round; running_job_ids and worker_ids (lists) are handled apart (the
/// store writes the ids as a CSR pair and does not store the worker ids).
template <typename R, typename V>
void VisitRoundFields(R& round, V&& visit) {
  visit("round_index", "id", round.round_index);
  visit("start_s", "s", round.start_s);
  visit("end_s", "s", round.end_s);
  visit("busy_gpus", "gpus", round.busy_gpus);
  visit("active_jobs", "count", round.active_jobs);
}

/// The fields of a run's row per GPU type (docs/mechanism.md §12.9).
template <typename R, typename V>
void VisitGpuTypeFields(R& type, V&& visit) {
  visit("gpu_type", "", type.gpu_type);
  visit("gpus", "gpus", type.gpus);
  visit("utilization", "1", type.utilization);
  visit("busy_gpu_hours", "GPU-h", type.busy_gpu_hours);
  visit("mean_ftf_rho", "1", type.mean_ftf_rho);
}

template <typename R, typename V>
void VisitThroughputFields(R& sample, V&& visit) {
  visit("job_id", "id", sample.job_id);
  visit("completion_round", "id", sample.completion_round);
  visit("steps_per_s", "steps/s", sample.steps_per_s);
  visit("batch_size", "samples", sample.batch_size);
}

}  // namespace adaptsim
