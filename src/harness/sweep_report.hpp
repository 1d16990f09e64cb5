// Progress lines and the end-of-sweep table printed by rank 0 (no MPI here).
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "adaptsim/store.hpp"

namespace adaptsim {

/// Collects one line per finished task; prints progress and the summary table.
class SweepReport {
 public:
  /// Remembers the task's table row (not its full result).
  void Add(const TaskRecord& record);
  /// "adaptsim: [done/total] <task>: <status> (<wall> s, rank r), <failures> failed".
  void PrintProgress(std::FILE* out, const TaskRecord& record, std::size_t total) const;
  /// Columns policy, gpus, seed, status, makespan_s, mean_jct_s, worst_ftf_rho,
  /// unfair_fraction_1_05, utilization (plus trace when the sweep has several), in sweep order.
  void PrintTable(std::FILE* out) const;

  std::size_t done() const { return rows_.size(); }
  std::size_t failures() const { return failures_; }

 private:
  struct Row {
    int task_index = 0;
    std::string trace;
    std::string policy;
    int num_gpus = 0;
    std::uint64_t seed = 0;
    std::string status;
    SummaryMetrics metrics;
  };
  std::vector<Row> rows_;
  std::size_t failures_ = 0;
};

}  // namespace adaptsim
