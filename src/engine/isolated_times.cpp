// Sia's isolated times (docs/sia.md §12; `S:sia-simulator/ftf_simulator.py:433-630`).
#include "adaptsim/isolated_times.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>

namespace adaptsim {

IsolatedCaps IsolatedReplicaCaps(double fair_share, bool fixed_replicas, int num_replicas) {
  if (!(fair_share > 0.0)) throw std::invalid_argument("IsolatedReplicaCaps: fair share <= 0");
  if (fixed_replicas) return {0, num_replicas};  // :542-544
  if (fair_share < 1.0) return {0, 1};           // :527-538
  return {std::max(static_cast<int>(std::floor(fair_share)), 1),
          std::max(static_cast<int>(std::ceil(fair_share)), 1)};  // :540-541
}

std::optional<IntervalNodeGroup> IsolatedGroup(const IntervalNodeGroup& group, int cap,
                                               int& job_cap) {
  job_cap = 0;
  if (cap <= 0) return std::nullopt;                                           // :435-436
  const int nodes = std::min(group.num_nodes, cap / group.gpus_per_node + 1);  // :441-445
  if (group.max_physical_nodes > 0 && nodes > group.max_physical_nodes) {
    return std::nullopt;  // :448-450
  }
  job_cap = std::min(nodes * group.gpus_per_node, cap);  // :446-447
  IntervalNodeGroup isolated = group;
  isolated.num_nodes = nodes;
  isolated.first_node = 0;
  return isolated;
}

double InterpolateIsolatedTime(double lower_jct_s, double upper_jct_s, double fair_share,
                               bool fixed_replicas, int num_replicas) {
  if (fixed_replicas) {  // interpolate_jct_gavel, :621-630
    return num_replicas > fair_share ? upper_jct_s * (num_replicas / fair_share) : upper_jct_s;
  }
  if (fair_share < 1.0) return upper_jct_s / fair_share;  // :608-609
  const double lower = std::max(std::floor(fair_share), 1.0);
  const double upper = std::max(std::ceil(fair_share), 1.0);
  if (upper > lower) return lower_jct_s + (upper_jct_s - lower_jct_s) * (fair_share - lower);
  return lower_jct_s;  // :610-619
}

namespace {

// What an isolated run's time depends on besides the policy and the engine's options.
using RunKey = std::tuple<int, int, std::string, int, int, double>;  // group, cap, app, K, B, t0

}  // namespace

IsolatedRunReport IsolatedTimes(const PolluxWorkload& workload,
                                const IntervalProfileLookup& profiles,
                                const IntervalPolicyFactory& make_policy,
                                const IntervalSimulationOptions& options,
                                const std::vector<double>& mean_contention,
                                const RunBudget& budget) {
  if (mean_contention.size() != workload.jobs.size()) {
    throw std::invalid_argument("IsolatedTimes: one mean contention per job");
  }
  const std::vector<IntervalNodeGroup> groups = options.Groups();
  int total_gpus = 0;
  for (const IntervalNodeGroup& group : groups) total_gpus += group.num_nodes * group.gpus_per_node;
  const std::unique_ptr<IntervalPolicy> probe = make_policy();
  const bool fixed_replicas = probe->FixedReplicas();
  // The run's interval: the policy's own rounds, else the engine's (SimulateIntervals).
  const double interval_s = probe->RoundDurationS().value_or(options.interval_s);

  IsolatedRunReport report;
  std::map<RunKey, double> jcts;
  // The JCT of `spec` alone on group g with cap `cap`; 0 when there is no run.
  auto alone = [&](const PolluxJobSpec& spec, int g, int cap) -> double {
    int job_cap = 0;
    const std::optional<IntervalNodeGroup> group = IsolatedGroup(groups[g], cap, job_cap);
    if (!group) return 0.0;
    // A job of fixed replicas runs on K GPUs or none: a type whose isolated cluster cannot hold
    // K does not run it (the artifact asserts K fits, ftf_simulator.py:73).
    if (fixed_replicas && job_cap < spec.num_replicas) return 0.0;
    const double offset_s = std::fmod(spec.submission_time_s, interval_s);  // :486
    const RunKey key{g, job_cap, spec.application, spec.num_replicas, spec.batch_size, offset_s};
    if (auto it = jcts.find(key); it != jcts.end()) return it->second;
    PolluxWorkload one{workload.path, {spec}};
    one.jobs.front().submission_time_s = offset_s;
    IntervalSimulationOptions isolated = options;
    isolated.WithNodeGroups({*group});
    isolated.max_replicas_per_job = job_cap;
    isolated.isolated_ftf = IsolatedFtf::kOff;
    const std::unique_ptr<IntervalPolicy> policy = make_policy();
    policy->ShareCachesWith(*probe);  // one fit memo for all the task's isolated runs
    const SimulationResult result = SimulateIntervals(one, profiles, *policy, isolated, {}, budget);
    ++report.runs;
    if (result.status != TaskStatus::kOk && report.status == TaskStatus::kOk) {
      report.status = result.status;
      report.message =
          "isolated run of job " + spec.name + " on " + group->gpu_type + ": " + result.message;
    }
    const double jct_s = result.jobs.front().jct_s;
    jcts.emplace(key, jct_s);
    return jct_s;
  };

  for (std::size_t j = 0; j < workload.jobs.size(); ++j) {
    const PolluxJobSpec& spec = workload.jobs[j];
    const double fair_share = total_gpus / std::max(mean_contention[j], 1.0);  // :521
    const IsolatedCaps caps = IsolatedReplicaCaps(fair_share, fixed_replicas, spec.num_replicas);
    std::vector<double>& times = report.time_s.emplace_back(groups.size(), 0.0);
    for (int g = 0; g < static_cast<int>(groups.size()); ++g) {
      const double upper_s = alone(spec, g, caps.upper);
      if (!(upper_s > 0.0)) continue;  // the job cannot run alone on this type
      const double lower_s = caps.lower == caps.upper ? upper_s : alone(spec, g, caps.lower);
      times[g] =
          InterpolateIsolatedTime(lower_s, upper_s, fair_share, fixed_replicas, spec.num_replicas);
    }
  }
  return report;
}

}  // namespace adaptsim
