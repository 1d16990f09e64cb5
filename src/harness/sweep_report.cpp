#include "harness/sweep_report.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

namespace adaptsim {
namespace {

std::string TraceName(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

}  // namespace

void SweepReport::Add(const TaskRecord& record) {
  const TaskConfig& config = record.config;
  rows_.push_back({record.task_index, TraceName(config.trace_path), config.policy,
                   config.simulation.num_gpus, config.seed, record.result.status,
                   record.result.summary});
  if (record.result.status == "failed") ++failures_;
}

void SweepReport::PrintProgress(std::FILE* out, const TaskRecord& record, std::size_t total) const {
  const TaskConfig& config = record.config;
  std::fprintf(out, "adaptsim: [%zu/%zu] %s gpus=%d seed=%llu %s: %s (%.1f s, rank %d), %zu failed",
               done(), total, config.policy.c_str(), config.simulation.num_gpus,
               static_cast<unsigned long long>(config.seed), TraceName(config.trace_path).c_str(),
               record.result.status.c_str(), record.result.wall_time_s, record.rank, failures_);
  if (record.result.status == "failed") std::fprintf(out, ": %s", record.result.message.c_str());
  std::fprintf(out, "\n");
  std::fflush(out);
}

void SweepReport::PrintTable(std::FILE* out) const {
  std::vector<Row> rows = rows_;
  std::sort(rows.begin(), rows.end(),
            [](const Row& a, const Row& b) { return a.task_index < b.task_index; });
  std::set<std::string> traces;
  for (const Row& row : rows) traces.insert(row.trace);
  bool show_trace = traces.size() > 1;
  if (show_trace) std::fprintf(out, "%-40s ", "trace");
  std::fprintf(out, "%-20s %5s %6s %-8s %12s %12s %13s %20s %11s\n", "policy", "gpus", "seed",
               "status", "makespan_s", "mean_jct_s", "worst_ftf_rho", "unfair_fraction_1_05",
               "utilization");
  for (const Row& row : rows) {
    const SummaryMetrics& m = row.metrics;
    if (show_trace) std::fprintf(out, "%-40.40s ", row.trace.c_str());
    std::fprintf(out, "%-20s %5d %6llu %-8s %12.1f %12.1f %13.4f %20.4f %11.4f\n",
                 row.policy.c_str(), row.num_gpus, static_cast<unsigned long long>(row.seed),
                 row.status.c_str(), m.makespan_s, m.mean_jct_s, m.worst_ftf_rho,
                 m.unfair_fraction_1_05, m.utilization);
  }
  std::fprintf(out, "%zu tasks, %zu failed\n", rows.size(), failures_);
  std::fflush(out);
}

}  // namespace adaptsim
