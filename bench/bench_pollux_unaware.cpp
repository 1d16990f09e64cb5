// Benchmark: one round of Pollux heterogeneity-unaware (docs/pollux.md §7: the Pollux GA on
// virtual 4-GPU nodes, the fix repair, the mapping back) on one core, on the Sia paper's
// heterogeneous cluster (6 aws + 2 dgx-ext + 3 rtx nodes, 64 GPUs = 16 virtual nodes) scaled k
// times, with the jobs of a Sia workload (default Helios/Saturn workload-1 at k = 1, else
// workloads/scale/scale_<k>x/workload-1.csv, as bench_sia). The active jobs are those submitted
// in the hour before the workload's median submission time (about the contention of a run whose
// JCT is about an hour, as Pollux's is on these workloads), or every job (`all`, bench_sia's
// setting). Each job has a throughput model as the engine would give it: jobs are fed the
// profile's step times at 1, 2 and 4 GPUs of one type (a third each on aws, dgx-ext and rtx; a
// quarter of the jobs none, so the GA sees jobs without a model too) and the gradient statistics
// at M0. Rounds follow each other as in a run (each round starts from the previous round's
// allocation; ages grow by 60 s). Prints, per cluster, the time of each round's Optimize —
// thread CPU time and wall time — as median, p90 and max, the GA's evaluations per round, and
// the GPUs the fix repair dropped.
// Usage: bench_pollux_unaware [scales=1,2,4,8,16,32] [rounds=5] [active=window|all] [seed=0]
//   ADAPTSIM_DATA selects the reference data (default ../shared/data, relative to the cwd).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "adaptsim/gpu_type_profiles.hpp"
#include "adaptsim/pollux_workload.hpp"
#include "bench_main.hpp"
#include "policies/pollux/pollux_unaware.hpp"

namespace {

using namespace adaptsim;

using bench::Quantiles;
using bench::ThreadCpuMs;

void RunScale(const std::string& data, int scale, int rounds, bool all_active, std::uint64_t seed) {
  const std::string workload_path = scale == 1 ? data + "/sia/workloads/saturn/workload-1.csv"
                                               : data + "/sia/workloads/scale/scale_" +
                                                     std::to_string(scale) + "x/workload-1.csv";
  std::vector<IntervalNodeGroup> groups = {{"aws", 6 * scale, 4, 0},
                                           {"dgx-ext", 2 * scale, 8, 6 * scale},
                                           {"rtx", 3 * scale, 8, 8 * scale}};
  const PolluxWorkload workload = ReadPolluxWorkload(workload_path);
  GpuTypeApplications apps(data + "/sia/traces");
  std::vector<double> submissions;
  for (const PolluxJobSpec& spec : workload.jobs) submissions.push_back(spec.submission_time_s);
  std::sort(submissions.begin(), submissions.end());
  const double now = submissions[submissions.size() / 2];

  PolluxOptions options;
  options.seed = seed;
  PolluxUnawarePolicy policy(options);
  IntervalClusterView cluster;
  cluster.now_s = now;
  cluster.node_groups = groups;
  cluster.num_nodes = 11 * scale;
  cluster.gpus_per_node = 4;
  cluster.interval_s = 60;
  cluster.restart_delay_s = 30;
  for (std::size_t j = 0; j < workload.jobs.size(); ++j) {
    const PolluxJobSpec& spec = workload.jobs[j];
    if (spec.submission_time_s > now) continue;
    if (!all_active && spec.submission_time_s < now - 3600) continue;
    IntervalJobView view;
    view.index = static_cast<int>(j);
    view.spec = &spec;
    for (const IntervalNodeGroup& group : groups) {
      view.apps_by_group.push_back(&apps.Get(spec.application, group.gpu_type));
    }
    view.age_s = now - spec.submission_time_s;
    view.attained_service_gpu_s = static_cast<double>(j % 11) * 240.0;
    view.num_restarts = static_cast<int>(j % 3);
    view.restart_delay_s = 30;
    const int group = static_cast<int>(j % 3);
    view.app = view.apps_by_group[group];
    view.gpu_group = group;
    if (j % 4 != 3) {  // a model from measurements at 1, 2 and 4 GPUs on one node
      const PolluxApplication& app = *view.app;
      const GradientStats grad = app.GradStats(app.init_batch_size(), 0);
      for (int k : {1, 2, 4}) {
        const std::vector<int> placement = {k};
        const int m = std::clamp(app.init_batch_size() / k, app.min_local_bsz(),
                                 std::min(app.max_local_bsz(), app.MaxLocalBszAt(placement)));
        const StepTimes times = app.Throughput(placement, m);
        policy.Observe(view, {1, k, m, times.step_time_s, times.sync_time_s, grad.sqr, grad.var});
      }
    }
    view.app = view.apps_by_group[0];
    view.gpu_group = -1;
    cluster.jobs.push_back(std::move(view));
  }

  std::vector<double> cpu_ms, wall_ms;
  double evaluations = 0;
  for (int round = 0; round < rounds; ++round) {
    const double before = policy.Statistics().at("pollux_ga_evaluations");
    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = ThreadCpuMs();
    const IntervalDecision decision = policy.Optimize(cluster);
    cpu_ms.push_back(ThreadCpuMs() - cpu_start);
    wall_ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
    evaluations += policy.Statistics().at("pollux_ga_evaluations") - before;
    for (IntervalJobView& job : cluster.jobs) {  // the next round starts from this allocation
      const auto it = decision.allocations.find(job.index);
      job.allocation = it == decision.allocations.end() ? std::vector<int>{} : it->second;
      job.age_s += 60;
      if (!job.allocation.empty()) {
        job.attained_service_gpu_s += 60.0 * static_cast<double>(job.allocation.size());
      }
    }
    cluster.now_s += 60;
  }
  const auto stats = policy.Statistics();
  std::printf(
      "bench_pollux_unaware: %d GPUs (%d virtual nodes), %zu active jobs of %zu, %d rounds: "
      "Optimize CPU %s; wall %s; GA evaluations per round %.0f; dropped GPUs %.0f in %.0f "
      "allocations\n",
      64 * scale, 16 * scale, cluster.jobs.size(), workload.jobs.size(), rounds,
      Quantiles(cpu_ms).c_str(), Quantiles(wall_ms).c_str(), evaluations / rounds,
      stats.at("pollux_unaware_dropped_gpus"), stats.at("pollux_unaware_fixed_allocations"));
  std::fflush(stdout);
}

int RunBenchmark(int argc, char** argv) {
  const char* env = std::getenv("ADAPTSIM_DATA");
  const std::string data = env != nullptr && *env ? env : "../shared/data";
  std::istringstream scales(argc > 1 ? argv[1] : "1,2,4,8,16,32");
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 5;
  const bool all_active = argc > 3 && std::string(argv[3]) == "all";
  const std::uint64_t seed = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 0;
  for (std::string scale; std::getline(scales, scale, ',');) {
    RunScale(data, std::atoi(scale.c_str()), rounds, all_active, seed);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return adaptsim::bench::RunGuarded("bench_pollux_unaware",
                                     [&] { return RunBenchmark(argc, argv); });
}
