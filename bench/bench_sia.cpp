// Benchmark: one Sia round (docs/sia.md §3: goodput matrix, utility, ILP on CBC, placement) on
// one core, on the paper's heterogeneous cluster (6 aws + 2 dgx-ext + 3 rtx nodes, 64 GPUs)
// scaled k times, with the jobs of a Sia workload (default Helios/Saturn workload-1, 160 jobs;
// for k > 1 the matching workloads/scale/scale_<k>x file). Every job is active; thr1 comes from
// the per-type profiles, and each job's goodput estimate is synthetic — thr1_t · K^a_j /
// (1 + 0.05·(N − 1)) with a_j in [0.6, 0.95] from the job's index — because the goodput models
// come from the engine (docs/sia.md §5): the figures are the policy's own cost, without the
// Pollux goodput evaluations the engine will add. A job has a model on the types it has
// "run" on (a third of the jobs none, a third one type, a third all), max profiled replicas from
// its index, and the previous round's configuration from the round before. Prints, per cluster,
// the time of each round's Optimize — thread CPU time (one core; what the machine's other load
// does not inflate) and wall time — as median, p90 and max, and CBC's nodes.
// Usage: bench_sia [scales=1,2,4,8,16,32] [rounds=20] [workload.csv] [mip_relative_gap]
//   scales: comma-separated k (64·k GPUs); a workload path applies to every k.
//   ADAPTSIM_DATA selects the reference data (default ../shared/data, relative to the cwd).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "adaptsim/gpu_type_profiles.hpp"
#include "adaptsim/pollux_workload.hpp"
#include "bench_main.hpp"
#include "policies/sia/sia_policy.hpp"
#include "policies/sia/sia_projection.hpp"

namespace {

using namespace adaptsim;

using bench::Quantiles;
using bench::ThreadCpuMs;

void RunScale(const std::string& data, int scale, int rounds, int argc, char** argv) {
  const std::string workload_path = argc > 3 && *argv[3] ? argv[3]
                                    : scale == 1 ? data + "/sia/workloads/saturn/workload-1.csv"
                                                 : data + "/sia/workloads/scale/scale_" +
                                                       std::to_string(scale) + "x/workload-1.csv";
  const std::vector<SiaNodeGroup> groups = {
      {"aws", 4, 6 * scale, 16}, {"dgx-ext", 8, 2 * scale, 2}, {"rtx", 8, 3 * scale, 3}};
  const PolluxWorkload workload = ReadPolluxWorkload(workload_path);
  GpuTypeApplications apps(data + "/sia/traces");
  std::vector<SiaJob> jobs;
  for (std::size_t j = 0; j < workload.jobs.size(); ++j) {
    const PolluxJobSpec& spec = workload.jobs[j];
    SiaJob job;
    job.id = static_cast<int>(j);
    job.application = spec.application;
    const double exponent = 0.6 + 0.35 * static_cast<double>(j % 7) / 6.0;
    for (std::size_t t = 0; t < groups.size(); ++t) {
      const PolluxApplication& app = apps.Get(spec.application, groups[t].gpu_type);
      const double thr1 = SiaMinimumSizeThroughput(app);
      job.min_size_throughput.push_back(thr1);
      const bool has_model = j % 3 == 2 || (j % 3 == 1 && t == j % groups.size());
      job.goodput.push_back(has_model ? SiaGoodputFunction([thr1, exponent](int n, int k) {
        return thr1 * std::pow(k, exponent) / (1 + 0.05 * (n - 1));
      })
                                      : SiaGoodputFunction());
      job.max_profiled_replicas.push_back(has_model ? 1 << (j % 5) : 0);
      job.batch_replica_limit.push_back(app.max_batch_size() / app.min_local_bsz());
    }
    job.age_s = 600 + 60.0 * static_cast<double>(j % 50);
    job.num_restarts = static_cast<int>(j % 3);
    job.engine_restart_delay_s = 30;
    jobs.push_back(std::move(job));
  }
  SiaOptions options;
  if (argc > 4) options.mip_relative_gap = std::atof(argv[4]);
  SiaPolicy policy{options};
  std::vector<double> times_ms, cpu_ms;
  std::size_t allocated = 0;
  for (int round = 0; round < rounds; ++round) {
    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = ThreadCpuMs();
    const std::vector<SiaAllocation> allocations = policy.Optimize(groups, jobs);
    cpu_ms.push_back(ThreadCpuMs() - cpu_start);
    times_ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
    allocated = std::count_if(allocations.begin(), allocations.end(),
                              [](const SiaAllocation& a) { return a.configuration.has_value(); });
    for (SiaJob& job : jobs) job.age_s += 60;
  }
  const auto stats = policy.Statistics();
  std::printf(
      "bench_sia: %d GPUs, %zu jobs, %d rounds: Optimize CPU %s; wall %s; CBC nodes %.0f, not "
      "optimal %.0f; %zu jobs allocated in the last round\n",
      64 * scale, jobs.size(), rounds, Quantiles(cpu_ms).c_str(), Quantiles(times_ms).c_str(),
      stats.at("sia_ilp_nodes"), stats.at("sia_ilp_not_optimal"), allocated);
  std::fflush(stdout);
}

int RunBenchmark(int argc, char** argv) {
  const char* env = std::getenv("ADAPTSIM_DATA");
  const std::string data = env != nullptr && *env ? env : "../shared/data";
  std::istringstream scales(argc > 1 ? argv[1] : "1,2,4,8,16,32");
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 20;
  for (std::string scale; std::getline(scales, scale, ',');) {
    RunScale(data, std::atoi(scale.c_str()), rounds, argc, argv);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return adaptsim::bench::RunGuarded("bench_sia", [&] { return RunBenchmark(argc, argv); });
}
