// Benchmark: Gavel+TunedJobs (`gavel_tj`, docs/sia.md §8) through a whole run on the interval
// engine, one core: a Sia workload (default Philly workload-1, 160 jobs) on the paper's
// heterogeneous cluster (6 aws + 2 dgx-ext + 3 rtx nodes, 64 GPUs) scaled k times, with the
// engine's per-model restart delays and slowdowns. Prints the time of each round's Optimize —
// thread CPU time (one core; what the machine's other load does not inflate) and wall time — as
// median, p90 and max (the Sia paper's Fig. 9 figure is the policy time per round, "Policy
// optimization took …ms", `S:sia-simulator/cluster.py:221`), the number of rounds, the whole
// run's wall time, and the run's mean JCT and makespan.
// Usage: bench_gavel_tj [scales=1] [workload.csv]
//   scales: comma-separated k (64·k GPUs); a workload path applies to every k, else Philly
//   workload-1 for k = 1 and workloads/scale/scale_<k>x/workload-1.csv for k > 1.
//   ADAPTSIM_DATA selects the reference data (default ../shared/data, relative to the cwd).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "adaptsim/gpu_type_profiles.hpp"
#include "adaptsim/interval_simulator.hpp"
#include "adaptsim/pollux_workload.hpp"
#include "bench_main.hpp"
#include "policies/gavel/gavel_tuned_jobs.hpp"

namespace {

using namespace adaptsim;
using bench::ThreadCpuMs;

// The policy, each Optimize timed.
class TimedPolicy : public IntervalPolicy {
 public:
  explicit TimedPolicy(IntervalPolicy& policy) : policy_(policy) {}
  BatchConfig ChooseBatch(const IntervalJobView& job, const std::vector<int>& placement) override {
    return policy_.ChooseBatch(job, placement);
  }
  IntervalDecision Optimize(const IntervalClusterView& cluster) override {
    const double cpu = ThreadCpuMs();
    const auto wall = std::chrono::steady_clock::now();
    IntervalDecision decision = policy_.Optimize(cluster);
    cpu_ms.push_back(ThreadCpuMs() - cpu);
    wall_ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall).count());
    return decision;
  }
  bool SupportsGpuTypes() const override { return policy_.SupportsGpuTypes(); }
  std::optional<double> RoundDurationS() const override { return policy_.RoundDurationS(); }

  std::vector<double> cpu_ms, wall_ms;

 private:
  IntervalPolicy& policy_;
};

double Quantile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  return values[static_cast<std::size_t>(q * static_cast<double>(values.size() - 1))];
}

void RunScale(const std::string& data, int scale, const std::string& given) {
  const std::string workload_path = !given.empty() ? given
                                    : scale == 1   ? data + "/sia/workloads/philly/workload-1.csv"
                                                   : data + "/sia/workloads/scale/scale_" +
                                                       std::to_string(scale) + "x/workload-1.csv";
  const PolluxWorkload workload = ReadPolluxWorkload(workload_path);
  GpuTypeApplications apps(data + "/sia/traces");
  IntervalSimulationOptions options;
  std::vector<IntervalNodeGroup> groups;
  for (const auto& [type, nodes] :
       {std::pair<std::string, int>{"aws", 6}, {"dgx-ext", 2}, {"rtx", 3}}) {
    groups.push_back(
        {type, nodes * scale, SiaGpuTypeNodeShape(type, "bench", 0, "cluster").gpus_per_node, 0});
  }
  options.WithNodeGroups(std::move(groups));
  options.restart_delay_s_by_application = SiaRestartDelays();
  options.slowdown_by_application = SiaSlowdowns();
  options.restart_on_node_move = false;
  const IntervalProfileLookup profiles =
      [&](const PolluxJobSpec& spec, const IntervalNodeGroup& g) -> const PolluxApplication& {
    return apps.Get(spec.application, g.gpu_type, workload.path, spec.line);
  };
  GavelTunedJobsPolicy gavel(GavelTunedJobsOptions{});
  TimedPolicy timed(gavel);
  const auto start = std::chrono::steady_clock::now();
  const SimulationResult result = SimulateIntervals(workload, profiles, timed, options);
  const double run_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  double jct_sum = 0, first_submit = 1e300, last_completion = 0;
  int completed = 0;
  for (const JobResult& job : result.jobs) {
    first_submit = std::min(first_submit, job.arrival_time_s);
    if (job.outcome != JobOutcome::kCompleted) continue;
    jct_sum += job.jct_s;
    last_completion = std::max(last_completion, job.completion_time_s);
    ++completed;
  }
  std::printf(
      "%5d GPUs %5zu jobs (%d done) %4zu rounds | Optimize cpu ms median %8.2f p90 %8.2f max "
      "%8.2f | wall ms median %8.2f max %8.2f | run %.2f s | mean JCT %.3f h, makespan %.2f h "
      "(from the first submission)\n",
      64 * scale, workload.jobs.size(), completed, timed.cpu_ms.size(), Quantile(timed.cpu_ms, 0.5),
      Quantile(timed.cpu_ms, 0.9), Quantile(timed.cpu_ms, 1.0), Quantile(timed.wall_ms, 0.5),
      Quantile(timed.wall_ms, 1.0), run_s, completed > 0 ? jct_sum / completed / 3600 : 0.0,
      (last_completion - first_submit) / 3600);
}

}  // namespace

int main(int argc, char** argv) {
  return adaptsim::bench::RunGuarded("bench_gavel_tj", [&] {
    const char* env = std::getenv("ADAPTSIM_DATA");
    const std::string data = env != nullptr ? env : "../shared/data";
    std::vector<int> scales = {1};
    if (argc > 1 && *argv[1]) {
      scales.clear();
      std::stringstream list(argv[1]);
      for (std::string item; std::getline(list, item, ',');) scales.push_back(std::stoi(item));
    }
    const std::string workload = argc > 2 ? argv[2] : "";
    for (int scale : scales) RunScale(data, scale, workload);
    return 0;
  });
}
