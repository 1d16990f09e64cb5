// Benchmark: Pollux on a Pollux workload (default workload-6, 16 nodes × 4 GPUs, 60 s interval)
// on one core. Prints wall time, the GA's and the model fits' shares, the GA's cost per scheduling
// interval, and the mean JCT. cpu_s is the process CPU time (one thread; robust on a shared
// machine, where the wall figures are not). Usage: bench_pollux [workload.csv] [seed] [key=value
// ...], each key a keyword of adaptsim.run (e.g. interval_s=120, policy=optimus) or else a policy
// option (docs/python.md), or `max_rounds` (the run budget: stop after that many intervals, a
// short run for profilers such as callgrind).
//   ADAPTSIM_DATA selects the reference data (default ../shared/data, relative to the cwd).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <string>

#include "adaptsim/task.hpp"
#include "adaptsim/task_fields.hpp"
#include "bench_main.hpp"

static int RunBenchmark(int argc, char** argv) {
  namespace fs = std::filesystem;
  const char* env = std::getenv("ADAPTSIM_DATA");
  const std::string data = env != nullptr && *env ? env : "../shared/data";
  nlohmann::json arguments = {
      {"trace", argc > 1 && *argv[1] ? argv[1] : data + "/pollux/workloads/workload-6.csv"},
      {"throughputs", data + "/pollux/traces"},
      {"policy", "pollux"},
      {"gpus", 64},
      {"seed", argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 0}};
  adaptsim::RunBudget budget;
  for (int i = 3; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto eq = arg.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = arg.substr(0, eq), value = arg.substr(eq + 1);
    if (key == "max_rounds") {
      budget.max_rounds = std::stoll(value);
      continue;
    }
    const nlohmann::json parsed = nlohmann::json::parse(value, nullptr, false);
    arguments[key] = parsed.is_discarded() ? nlohmann::json(value) : parsed;
  }
  const std::string trace = arguments["trace"];
  if (!fs::exists(trace)) {
    std::fprintf(stderr, "bench_pollux: %s not found (set ADAPTSIM_DATA)\n", trace.c_str());
    return 1;
  }
  const adaptsim::TaskConfig task = adaptsim::TaskConfigFromArguments(
      arguments, adaptsim::ArgumentNames::kKeyword, "bench_pollux");
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t start_cpu = std::clock();
  adaptsim::SimulationResult result = adaptsim::RunTask(task, budget);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double cpu = static_cast<double>(std::clock() - start_cpu) / CLOCKS_PER_SEC;
  std::printf("workload %s policy %s seed %llu\n", task.trace_path.c_str(), task.policy.c_str(),
              static_cast<unsigned long long>(task.seed));
  std::printf("status %s intervals %d jobs %d\n", std::string(ToString(result.status)).c_str(),
              result.summary.num_rounds, result.summary.num_jobs);
  std::printf("mean_jct_s %.3f p99_jct_s %.1f makespan_s %.1f restarts_per_job %.2f\n",
              result.summary.mean_jct_s, result.summary.p99_jct_s, result.summary.makespan_s,
              result.summary.restarts_per_job);
  std::printf("wall_s %.2f cpu_s %.2f", wall, cpu);
  for (const auto& [name, value] : result.policy_statistics) {
    std::printf(" %s %.6g", name.c_str(), value);
  }
  if (result.policy_statistics.count("pollux_ga_wall_s")) {
    std::printf(" ga_share %.3f fit_share %.3f ga_ms_per_interval %.3f",
                result.policy_statistics["pollux_ga_wall_s"] / wall,
                result.policy_statistics["pollux_fit_wall_s"] / wall,
                1e3 * result.policy_statistics["pollux_ga_wall_s"] /
                    std::max(result.policy_statistics["pollux_rounds"], 1.0));
  }
  std::printf("\n");
  return 0;
}

int main(int argc, char** argv) {
  return adaptsim::bench::RunGuarded("bench_pollux", [&] { return RunBenchmark(argc, argv); });
}
