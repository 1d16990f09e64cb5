// Whole-simulation benchmark: wall time and peak RSS of `RunTask` on the reference traces.
// Usage: bench_simulation [DATA_DIR] [POLICY ...]   (DATA_DIR defaults to $ADAPTSIM_DATA or
// ../shared/data). Each configuration runs 5 times; the median wall time is reported.
// POLICY `shockwave` (or `shockwave:general`) instead runs Shockwave once on each of its four
// experiments with the reference configuration JSON (tacc_32gpus, scale_{64,128,256}gpus) and
// reports the distribution of per-re-solve wall times (docs/performance.md).
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "adaptsim/metrics.hpp"
#include "adaptsim/simulator.hpp"
#include "adaptsim/task.hpp"
#include "adaptsim/throughput.hpp"
#include "adaptsim/trace.hpp"
#include "bench_main.hpp"
#include "policies/shockwave/shockwave.hpp"

namespace {

struct Config {
  const char* label;
  const char* trace;
  const char* throughputs;
  int gpus;
};

const Config kConfigs[] = {
    {"120 jobs / 32 GPUs",
     "shockwave/traces/120_0.2_5_100_40_25_0,0.5,0.5_0.6,0.3,0.09,0.01_multigpu_dynamic.trace",
     "shockwave/throughputs/tacc_throughputs.json", 32},
    {"900 jobs / 256 GPUs",
     "shockwave/traces/900_0.2_5_1000_5_15_0,0.5,0.5_0.6,0.3,0.09,0.01_multigpu_dynamic.trace",
     "shockwave/throughputs/wisr_throughputs.json", 256},
};

double PeakRssMiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0;
}

struct ShockwaveRun {
  const char* label;
  const char* trace;
  const char* throughputs;
  const char* config;
  int gpus;
};

const ShockwaveRun kShockwaveRuns[] = {
    {"120 jobs / 32 GPUs", kConfigs[0].trace, kConfigs[0].throughputs,
     "shockwave/configurations/tacc_32gpus.json", 32},
    {"220 jobs / 64 GPUs",
     "shockwave/traces/220_0.2_5_100_25_4_0,0.5,0.5_0.6,0.3,0.09,0.01_multigpu_dynamic.trace",
     "shockwave/throughputs/wisr_throughputs.json", "shockwave/configurations/scale_64gpus.json",
     64},
    {"460 jobs / 128 GPUs",
     "shockwave/traces/460_0.2_5_100_10_1_0,0.5,0.5_0.6,0.3,0.09,0.01_multigpu_dynamic.trace",
     "shockwave/throughputs/wisr_throughputs.json", "shockwave/configurations/scale_128gpus.json",
     128},
    {"900 jobs / 256 GPUs", kConfigs[1].trace, kConfigs[1].throughputs,
     "shockwave/configurations/scale_256gpus.json", 256},
};

double Percentile(std::vector<double> values, double q) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  return values[static_cast<std::size_t>(q * (values.size() - 1) + 0.5)];
}

void BenchShockwave(const std::string& data, adaptsim::ShockwaveSolver solver) {
  std::printf(
      "| configuration | solver | wall s | CPU s | re-solves | re-solve p50 / p90 / max s | "
      "makespan s | peak RSS MiB |\n|---|---|---|---|---|---|---|---|\n");
  for (const ShockwaveRun& run : kShockwaveRuns) {
    adaptsim::Trace trace = adaptsim::ReadTrace(data + "/" + run.trace);
    adaptsim::ThroughputTable table =
        adaptsim::ThroughputTable::ReadJson(data + "/" + run.throughputs);
    adaptsim::ShockwaveConfig config = adaptsim::ReadShockwaveConfig(data + "/" + run.config);
    config.solver = solver;
    adaptsim::ShockwavePolicy policy(config);
    adaptsim::SimulationOptions options;
    options.num_gpus = run.gpus;
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpu_start = std::clock();
    adaptsim::SimulationResult result = adaptsim::Simulate(trace, table, policy, options);
    adaptsim::ComputeMetrics(result, options.num_gpus);
    const double cpu_s = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    const double wall_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::vector<double>& t = policy.ResolveTimes();
    std::printf("| %s | %s | %.2f | %.2f | %zu | %.4f / %.4f / %.4f | %.1f | %.1f |\n", run.label,
                solver == adaptsim::ShockwaveSolver::kGeneral ? "general" : "structured", wall_s,
                cpu_s, t.size(), Percentile(t, 0.5), Percentile(t, 0.9), Percentile(t, 1.0),
                result.summary.makespan_s, PeakRssMiB());
    std::fflush(stdout);
  }
}

}  // namespace

static int RunBenchmark(int argc, char** argv) {
  const char* env = std::getenv("ADAPTSIM_DATA");
  std::string data = argc > 1 ? argv[1] : (env != nullptr ? env : "../shared/data");
  std::vector<std::string> policies;
  for (int i = 2; i < argc; ++i) policies.emplace_back(argv[i]);
  if (policies.empty()) policies = {"gandiva_fair", "max_min_fairness", "fifo"};
  if (policies[0] == "shockwave" || policies[0] == "shockwave:general") {
    BenchShockwave(data, policies[0] == "shockwave" ? adaptsim::ShockwaveSolver::kStructured
                                                    : adaptsim::ShockwaveSolver::kGeneral);
    return 0;
  }
  std::printf("| policy | configuration | median wall s | rounds | makespan s | peak RSS MiB |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (const std::string& policy : policies) {
    for (const Config& config : kConfigs) {
      adaptsim::TaskConfig task;
      task.trace_path = data + "/" + config.trace;
      task.throughputs_path = data + "/" + config.throughputs;
      task.policy = policy;
      task.simulation.num_gpus = config.gpus;
      std::vector<double> times;
      adaptsim::SimulationResult result;
      for (int repeat = 0; repeat < 5; ++repeat) {
        auto start = std::chrono::steady_clock::now();
        result = adaptsim::RunTask(task);
        times.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      }
      std::sort(times.begin(), times.end());
      std::printf("| %s | %s | %.3f | %d | %.1f | %.1f |\n", policy.c_str(), config.label, times[2],
                  result.summary.num_rounds, result.summary.makespan_s, PeakRssMiB());
    }
  }
  return 0;
}

int main(int argc, char** argv) {
  return adaptsim::bench::RunGuarded("bench_simulation", [&] { return RunBenchmark(argc, argv); });
}
