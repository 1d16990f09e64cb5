// Progress output and the end-of-sweep table printed by rank 0 (no MPI here).
#pragma once

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "adaptsim/store.hpp"

namespace adaptsim {

/// Collects one line per finished task; prints the summary table.
class SweepReport {
 public:
  /// Remembers the task's table row (not its full result).
  void Add(const TaskRecord& record);
  /// Columns policy (display name, plus the options that vary between that policy's tasks),
  /// gpus, seed, status, makespan_s, mean_jct_s, worst_ftf_rho, unfair_fraction_1_05,
  /// utilization (plus the scenario, "120 jobs · 32 GPUs", per row when the sweep has several
  /// traces, with the trace's name when two traces share that label; ScenarioLabels),
  /// in sweep order.
  void PrintTable(std::FILE* out) const;

  std::size_t done() const { return rows_.size(); }
  std::size_t failures() const { return failures_; }

 private:
  struct Row {
    int task_index = 0;
    std::string trace;
    std::string policy;
    nlohmann::json options;
    double round_duration_s = 0;
    int num_gpus = 0;
    std::uint64_t seed = 0;
    TaskStatus status = TaskStatus::kOk;
    SummaryMetrics metrics;
  };
  std::vector<Row> rows_;
  std::size_t failures_ = 0;
};

/// Progress of a running sweep on rank 0: done/total, running, failed (incl. timeout), ETA.
/// On a terminal one status line is rewritten in place (failures get a line of their own);
/// otherwise (batch logs) one line per completion. Nothing when quiet.
class Progress {
 public:
  /// `total` tasks to run now with Σ expected cost `total_cost`.
  Progress(std::FILE* out, std::size_t total, double total_cost, bool quiet);
  /// Tasks running right now (queued tasks excluded); shown in the next status line.
  void SetRunning(int running) { running_ = running; }
  /// A task finished with `cost` (its ExpectedCost); prints.
  void Finished(const TaskRecord& record, double cost);
  /// Ends the in-place line on a terminal.
  void Close();
  std::size_t done() const { return done_; }
  std::size_t failed() const { return failed_; }

 private:
  std::string Status() const;
  std::FILE* out_;
  std::size_t total_;
  double total_cost_;
  bool quiet_;
  bool tty_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::size_t done_ = 0;
  std::size_t failed_ = 0;
  int running_ = 0;
  double done_cost_ = 0;
};

}  // namespace adaptsim
