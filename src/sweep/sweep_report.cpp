#include "sweep_report.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "adaptsim/error.hpp"
#include "adaptsim/labels.hpp"

namespace adaptsim {
namespace {

std::string TraceName(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

/// `text` padded with spaces to `width` characters (UTF-8: "·" is one character, two bytes).
std::string Padded(const std::string& text, std::size_t width) {
  std::size_t characters = 0;
  for (unsigned char c : text) characters += (c & 0xC0) != 0x80;
  return text + std::string(width > characters ? width - characters : 0, ' ');
}

}  // namespace

void SweepReport::Add(const TaskRecord& record) {
  const TaskKeys& config = record.keys;
  rows_.push_back({record.task_index, TraceName(config.trace_path), config.policy,
                   config.policy_options, config.round_duration_s, config.num_gpus, config.seed,
                   record.result.status, record.result.summary});
  if (record.result.status != TaskStatus::kOk) ++failures_;
}

void SweepReport::PrintTable(std::FILE* out) const {
  std::vector<Row> rows = rows_;
  std::sort(rows.begin(), rows.end(),
            [](const Row& a, const Row& b) { return a.task_index < b.task_index; });
  std::set<std::string> traces;
  std::vector<LabelledTask> tasks;
  std::vector<ScenarioOf> scenarios;
  for (const Row& row : rows) {
    traces.insert(row.trace);
    tasks.push_back({row.policy, row.trace + "|" + std::to_string(row.num_gpus), row.options});
    scenarios.push_back(
        {row.metrics.num_jobs, row.num_gpus, std::filesystem::path(row.trace).stem().string()});
  }
  std::map<std::string, std::set<std::string>> varied = VariedOptions(tasks);
  const Labels& labels = BuiltinLabels();
  const std::vector<std::string> scenario_labels = labels.ScenarioLabels(scenarios);
  bool show_trace = traces.size() > 1;
  if (show_trace) std::fprintf(out, "%-30s ", "scenario");
  std::fprintf(out, "%-36s %5s %6s %-8s %12s %12s %13s %20s %11s\n", "policy", "gpus", "seed",
               "status", "makespan_s", "mean_jct_s", "worst_ftf_rho", "unfair_fraction_1_05",
               "utilization");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& row = rows[i];
    const SummaryMetrics& m = row.metrics;
    std::string label =
        labels.PolicyLabel(row.policy, row.options, varied[row.policy], row.round_duration_s);
    if (show_trace) std::fprintf(out, "%s ", Padded(scenario_labels[i], 30).c_str());
    std::fprintf(out, "%-36s %5d %6llu %-8s ", label.c_str(), row.num_gpus,
                 static_cast<unsigned long long>(row.seed),
                 std::string(ToString(row.status)).c_str());
    if (row.status == TaskStatus::kFailed) {  // no metrics (docs/results-format.md)
      std::fprintf(out, "%12s %12s %13s %20s %11s\n", "-", "-", "-", "-", "-");
      continue;
    }
    std::fprintf(out, "%12.1f %12.1f %13.4f %20.4f %11.4f\n", m.makespan_s, m.mean_jct_s,
                 m.worst_ftf_rho, m.unfair_fraction_1_05, m.utilization);
  }
  std::fprintf(out, "%zu tasks, %zu failed or timed out\n", rows.size(), failures_);
  std::fflush(out);
}

Progress::Progress(std::FILE* out, std::size_t total, double total_cost, bool quiet)
    : out_(out),
      total_(total),
      total_cost_(total_cost),
      quiet_(quiet),
      tty_(::isatty(::fileno(out)) != 0) {}

std::string Progress::Status() const {
  char text[160];
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::string eta = "?";
  if (done_cost_ > 0) {
    long seconds =
        static_cast<long>(elapsed * std::max(0.0, total_cost_ - done_cost_) / done_cost_);
    char buffer[32];
    std::snprintf(buffer, sizeof(buffer), "%ld:%02ld:%02ld", seconds / 3600, seconds / 60 % 60,
                  seconds % 60);
    eta = buffer;
  }
  std::snprintf(text, sizeof(text), "[%zu/%zu] running %d, failed %zu, elapsed %.0f s, ETA %s",
                done_, total_, running_, failed_, elapsed, eta.c_str());
  return text;
}

void Progress::Finished(const TaskRecord& record, double cost) {
  ++done_;
  done_cost_ += cost;
  bool bad = record.result.status != TaskStatus::kOk;
  if (bad) ++failed_;
  if (quiet_) return;
  const TaskKeys& config = record.keys;
  char task[512];
  std::snprintf(task, sizeof(task), "%s %s gpus=%d seed=%llu %s %s (%.1f s, rank %d)",
                std::string(ToString(record.result.status)).c_str(), config.policy.c_str(),
                config.num_gpus, static_cast<unsigned long long>(config.seed),
                TraceName(config.trace_path).c_str(),
                config.policy_options.empty() ? "" : config.policy_options.dump().c_str(),
                record.result.wall_time_s, record.rank);
  // Names and messages quote input files: printed with control characters escaped.
  std::string line = PrintableText(task);
  std::string message = PrintableText(record.result.message);
  if (tty_) {
    if (bad) std::fprintf(out_, "\r\033[K%s: %s\n", line.c_str(), message.c_str());
    std::fprintf(out_, "\r\033[Kadaptsim: %s", Status().c_str());
  } else {
    std::fprintf(out_, "adaptsim: %s %s", Status().c_str(), line.c_str());
    if (bad) std::fprintf(out_, ": %s", message.c_str());
    std::fprintf(out_, "\n");
  }
  std::fflush(out_);
}

void Progress::Close() {
  if (tty_ && !quiet_ && done_ > 0) std::fprintf(out_, "\n");
}

}  // namespace adaptsim
