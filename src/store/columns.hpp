// The column lists of the results file, written once and used by both the writer and the readers
// (private to src/store). A Visit*Columns function calls `visit(name, units, field)` for every
// column of a record, in file order; `R` may be const (writing) or not (reading).
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "adaptsim/job.hpp"
#include "adaptsim/result.hpp"
#include "adaptsim/store.hpp"
#include "hdf5_io.hpp"

namespace adaptsim::store {

// Units vocabulary (docs/results-format.md): "s" seconds of simulated time (wall_time_s: wall
// clock), "1" dimensionless ratio, "percent", "count", "id", "gpus", "samples" (batch size in
// samples per iteration), "steps/s" iterations per second.

template <typename M, typename V>
void VisitMetrics(M& m, V&& visit) {
  visit("makespan_s", "s", m.makespan_s);
  visit("mean_jct_s", "s", m.mean_jct_s);
  visit("geometric_mean_jct_s", "s", m.geometric_mean_jct_s);
  visit("harmonic_mean_jct_s", "s", m.harmonic_mean_jct_s);
  visit("p99_jct_s", "s", m.p99_jct_s);
  visit("mean_ftf_rho", "1", m.mean_ftf_rho);
  visit("worst_ftf_rho", "1", m.worst_ftf_rho);
  visit("unfair_fraction_1_05", "1", m.unfair_fraction_1_05);
  visit("unfair_fraction_1_10", "1", m.unfair_fraction_1_10);
  visit("utilization", "1", m.utilization);
  visit("lease_extension_percent", "percent", m.lease_extension_percent);
  visit("restarts_per_job", "1", m.restarts_per_job);
  visit("num_rounds", "count", m.num_rounds);
  visit("num_jobs", "count", m.num_jobs);
  visit("num_deadline_completions", "count", m.num_deadline_completions);
  visit("num_failed_jobs", "count", m.num_failed_jobs);
}

template <typename R, typename V>
void VisitSummaryColumns(R& row, V&& visit) {
  visit("task_id", "", row.task_id);
  visit("task_index", "id", row.task_index);
  visit("status", "", row.status);
  visit("message", "", row.message);
  visit("policy", "", row.policy);
  visit("trace", "", row.trace);
  visit("throughputs", "", row.throughputs);
  visit("num_gpus", "gpus", row.num_gpus);
  visit("seed", "id", row.seed);
  visit("round_duration_s", "s", row.round_duration_s);
  visit("deadline_factor", "1", row.deadline_factor);
  visit("policy_options", "", row.policy_options);
  VisitMetrics(row.metrics, visit);
  visit("wall_time_s", "s", row.wall_time_s);
  visit("rank", "id", row.rank);
}

template <typename R, typename V>
void VisitJobColumns(R& job, V&& visit) {
  visit("job_id", "id", job.id);
  visit("model", "", job.model);
  visit("initial_batch_size", "samples", job.initial_batch_size);
  visit("final_batch_size", "samples", job.final_batch_size);
  visit("scale_factor", "gpus", job.scale_factor);
  visit("mode", "", job.mode);
  visit("arrival_s", "s", job.arrival_time_s);
  visit("completion_s", "s", job.completion_time_s);
  visit("jct_s", "s", job.jct_s);
  visit("ftf_rho", "1", job.ftf_rho);
  visit("ftf_rho_themis", "1", job.ftf_rho_themis);
  visit("exclusive_time_s", "s", job.exclusive_time_s);
  visit("rounds_run", "count", job.rounds_run);
  visit("restarts", "count", job.restarts);
  visit("outcome", "", job.outcome);
}

/// The scalar columns of `rounds`; the CSR pair running_job_ids/running_offsets is written apart.
template <typename R, typename V>
void VisitRoundColumns(R& round, V&& visit) {
  visit("round_index", "id", round.round_index);
  visit("start_s", "s", round.start_s);
  visit("end_s", "s", round.end_s);
  visit("busy_gpus", "gpus", round.busy_gpus);
  visit("active_jobs", "count", round.active_jobs);
}

template <typename R, typename V>
void VisitThroughputColumns(R& sample, V&& visit) {
  visit("job_id", "id", sample.job_id);
  visit("completion_round", "id", sample.completion_round);
  visit("steps_per_s", "steps/s", sample.steps_per_s);
  visit("batch_size", "samples", sample.batch_size);
}

// Field <-> stored value. Integers are stored as int64 (seeds as uint64), enums as strings.
inline std::int64_t ToStored(int v) {
  return v;
}
inline std::int64_t ToStored(std::int64_t v) {
  return v;
}
inline std::uint64_t ToStored(std::uint64_t v) {
  return v;
}
inline double ToStored(double v) {
  return v;
}
inline std::string ToStored(const std::string& v) {
  return v;
}
inline std::string ToStored(AdaptationMode v) {
  return std::string(adaptsim::ToString(v));
}
inline std::string ToStored(JobOutcome v) {
  return std::string(adaptsim::ToString(v));
}

inline void FromStored(std::int64_t s, int& f) {
  f = static_cast<int>(s);
}
inline void FromStored(std::int64_t s, std::int64_t& f) {
  f = s;
}
inline void FromStored(std::uint64_t s, std::uint64_t& f) {
  f = s;
}
inline void FromStored(double s, double& f) {
  f = s;
}
inline void FromStored(const std::string& s, std::string& f) {
  f = s;
}
void FromStored(const std::string& s, AdaptationMode& f);
void FromStored(const std::string& s, JobOutcome& f);

struct Column {
  std::string name;
  std::string units;
  ColumnData data;
};
using Table = std::vector<Column>;

/// Column-major copy of `records` (one Column per visited field, even when `records` is empty).
template <typename Record, typename Visit>
Table ToTable(const std::vector<Record>& records, Visit visit) {
  Table table;
  const Record probe{};
  visit(probe, [&](const char* name, const char* units, const auto& field) {
    using S = decltype(ToStored(field));
    table.push_back({name, units, std::vector<S>{}});
  });
  for (const Record& record : records) {
    std::size_t i = 0;
    visit(record, [&](const char*, const char*, const auto& field) {
      using S = decltype(ToStored(field));
      std::get<std::vector<S>>(table[i++].data).push_back(ToStored(field));
    });
  }
  return table;
}

/// Reads every visited column of `group` back into records. Throws StoreError for a missing
/// column, a column of another type, or columns of unequal length.
template <typename Record, typename Visit>
std::vector<Record> ReadTable(hid_t group, Visit visit) {
  std::map<std::string, ColumnData> columns;
  Record probe{};
  std::size_t rows = 0;
  visit(probe, [&](const char* name, const char*, auto&) {
    columns[name] = ReadColumn(group, name);
    rows = std::visit([](const auto& v) { return v.size(); }, columns[name]);
  });
  std::vector<Record> records(rows);
  for (std::size_t r = 0; r < rows; ++r) {
    visit(records[r], [&](const char* name, const char*, auto& field) {
      using S = decltype(ToStored(field));
      const auto* values = std::get_if<std::vector<S>>(&columns[name]);
      if (values == nullptr || values->size() != rows) Fail(std::string("bad column ") + name);
      FromStored((*values)[r], field);
    });
  }
  return records;
}

void WriteTable(hid_t group, const Table& table, bool extendible);
void AppendRows(hid_t group, const Table& table);

/// The /summary row of a record.
SummaryRow MakeSummaryRow(const TaskRecord& record);

}  // namespace adaptsim::store
