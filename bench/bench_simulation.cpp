// Whole-simulation benchmark: wall time and peak RSS of `RunTask` on the reference traces.
// Usage: bench_simulation [DATA_DIR] [POLICY ...]   (DATA_DIR defaults to $ADAPTSIM_DATA or
// ../shared/data). Each configuration runs 5 times; the median wall time is reported.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "adaptsim/task.hpp"

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

}  // namespace

int main(int argc, char** argv) {
  const char* env = std::getenv("ADAPTSIM_DATA");
  std::string data = argc > 1 ? argv[1] : (env != nullptr ? env : "../shared/data");
  std::vector<std::string> policies;
  for (int i = 2; i < argc; ++i) policies.emplace_back(argv[i]);
  if (policies.empty()) policies = {"gandiva_fair", "max_min_fairness", "fifo"};
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
