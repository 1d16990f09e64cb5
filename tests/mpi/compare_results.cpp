// Checks that results files of the same sweep run with different rank counts hold the same data:
// identical /summary rows (matched by task_id; `rank` and the measured `wall_time_s` aside) and
// identical per-task tables. Usage: adaptsim_compare_results A.h5 B.h5 [C.h5 ...]
// Exit codes: 0 same, 1 different (the first difference is printed), 77 a file is missing.
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "adaptsim/result_fields.hpp"
#include "adaptsim/store.hpp"

namespace {

using adaptsim::SimulationResult;
using adaptsim::SummaryRow;

/// Appends " value" for every visited field (enumerations by their stored name).
struct Fields {
  std::ostringstream& out;
  template <typename T>
  void operator()(const char* /*name*/, const char* /*units*/, const T& field) const {
    if constexpr (std::is_enum_v<T>) {
      out << ' ' << adaptsim::ToString(field);
    } else {
      out << ' ' << field;
    }
  }
};

/// Canonical text of everything in a task that must not depend on the rank count: every field
/// of the field lists (adaptsim/result_fields.hpp) but `rank` and `wall_time_s`.
std::string Dump(const SummaryRow& row, const adaptsim::StoredTask& task) {
  std::ostringstream out;
  out.precision(17);
  out << "summary " << row.task_id << ' ' << row.task_index << ' ' << adaptsim::ToString(row.status)
      << ' ' << row.message << ' ' << row.policy << ' ' << row.trace << ' ' << row.throughputs
      << ' ' << row.num_gpus << ' ' << row.cluster << ' ' << row.seed << ' ' << row.round_duration_s
      << ' ' << row.deadline_factor;
  adaptsim::VisitMetricFields(row.metrics, Fields{out});
  out << '\n';
  const SimulationResult& r = task.result;
  out << "task " << adaptsim::ToString(task.status) << ' ' << task.message << ' '
      << task.config_json << ' ' << r.lease_extensions << ' ' << r.lease_extension_opportunities
      << '\n';
  for (const auto& j : r.jobs) {
    out << "job";
    adaptsim::VisitJobFields(j, Fields{out});
    out << " " << j.extras.index();
    adaptsim::VisitJobExtrasFieldsOf(j, Fields{out});
    out << '\n';
  }
  for (const auto& round : r.rounds) {
    out << "round";
    adaptsim::VisitRoundFields(round, Fields{out});
    out << " :";
    for (int id : round.running_job_ids) out << ' ' << id;
    out << '\n';
  }
  for (const auto& s : r.throughput_timeline) {
    out << "throughput";
    adaptsim::VisitThroughputFields(s, Fields{out});
    out << '\n';
  }
  for (double busy : r.gpu_busy_time_s) out << "busy " << busy << '\n';
  for (const auto& type : r.gpu_types) {
    out << "gpu_type";
    adaptsim::VisitGpuTypeFields(type, Fields{out});
    out << '\n';
  }
  for (const auto& [name, value] : r.policy_statistics) {
    // Measured times (solver times, `optimize_cpu_time_*_s`, Pollux's `pollux_ga_wall_s` and
    // `pollux_fit_wall_s`) are informational and differ between runs: every such statistic has
    // "time" or "wall" in its name.
    const bool measured =
        name.find("time") != std::string::npos || name.find("wall") != std::string::npos;
    if (!measured) out << "statistic " << name << ' ' << value << '\n';
  }
  for (const auto& [name, value] : r.input_statistics)
    out << "input " << name << ' ' << value << '\n';
  return out.str();
}

std::map<std::string, std::string> Load(const std::string& path) {
  std::map<std::string, std::string> tasks;
  for (const SummaryRow& row : adaptsim::ReadSummary(path)) {
    if (row.status != adaptsim::TaskStatus::kOk)
      throw std::runtime_error(path + ": task " + row.task_id + " is " +
                               std::string(adaptsim::ToString(row.status)) + ": " + row.message);
    tasks[row.task_id] = Dump(row, adaptsim::ReadTask(path, row.task_id));
  }
  if (tasks.empty()) throw std::runtime_error(path + ": no tasks");
  return tasks;
}

/// Prints the first line where `a` and `b` differ.
void ReportDifference(const std::string& a, const std::string& b) {
  std::istringstream sa(a), sb(b);
  std::string la, lb;
  while (true) {
    bool more_a = static_cast<bool>(std::getline(sa, la));
    bool more_b = static_cast<bool>(std::getline(sb, lb));
    if (!more_a && !more_b) return;
    if (la != lb || more_a != more_b) {
      std::printf("  first: %s\n  other: %s\n", la.c_str(), lb.c_str());
      return;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s A.h5 B.h5 [C.h5 ...]\n", argv[0]);
    return 2;
  }
  for (int i = 1; i < argc; ++i) {
    if (!std::filesystem::exists(argv[i])) {
      std::printf("%s not found (sweep skipped?); skipping\n", argv[i]);
      return 77;
    }
  }
  try {
    auto reference = Load(argv[1]);
    for (int i = 2; i < argc; ++i) {
      auto other = Load(argv[i]);
      for (const auto& [id, text] : reference) {
        auto it = other.find(id);
        if (it == other.end() || it->second != text) {
          std::printf("task %s differs between %s and %s\n", id.c_str(), argv[1], argv[i]);
          if (it != other.end()) ReportDifference(text, it->second);
          return 1;
        }
      }
      if (other.size() != reference.size()) {
        std::printf("%s has %zu tasks, %s has %zu\n", argv[1], reference.size(), argv[i],
                    other.size());
        return 1;
      }
    }
    std::printf("%d files, %zu tasks each: identical (rank, wall_time_s aside)\n", argc - 1,
                reference.size());
    return 0;
  } catch (const std::exception& error) {
    std::printf("error: %s\n", error.what());
    return 1;
  }
}
