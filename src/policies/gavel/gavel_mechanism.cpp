#include "gavel_mechanism.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <set>
#include <string>

#include "adaptsim/error.hpp"

namespace adaptsim {

void CheckAllocation(const Allocation& allocation, const ClusterState& state) {
  const char* method = "compute_allocation";
  const std::string round = " in round " + std::to_string(state.round_index);
  const int num_types = state.cluster != nullptr ? state.cluster->num_types() : 1;
  std::set<JobId> active;
  for (const ActiveJobView& job : state.jobs) active.insert(job.id);
  auto check_job = [&](JobId id) {
    if (active.count(id)) return;
    throw PolicyError("", method,
                      std::string(method) + " gave a time fraction to job " + std::to_string(id) +
                          round +
                          ", which is not an active job (not arrived yet, finished, or not in "
                          "the trace)");
  };
  auto check_fraction = [&](JobId id, double x, const std::string& on_type) {
    if (std::isfinite(x) && x >= -kTimeFractionTolerance && x <= 1.0 + kTimeFractionTolerance) {
      return;
    }
    char value[32];
    std::snprintf(value, sizeof(value), "%.10g", x);
    throw PolicyError("", method,
                      std::string(method) + " gave job " + std::to_string(id) +
                          " the time fraction " + value + on_type + round +
                          "; a time fraction is a number in [0, 1]");
  };
  if (allocation.time_fraction_by_type.empty()) {
    for (const auto& [id, x] : allocation.time_fraction) {
      check_job(id);
      if (num_types > 1) {
        throw PolicyError("", method,
                          std::string(method) + " gave job " + std::to_string(id) +
                              " one time fraction" + round +
                              "; on a cluster of several GPU types (" + state.cluster->ToString() +
                              ") a job has one per type");
      }
      check_fraction(id, x, "");
    }
    return;
  }
  for (const auto& [id, fractions] : allocation.time_fraction_by_type) {
    check_job(id);
    if (fractions.size() != static_cast<std::size_t>(num_types)) {
      throw PolicyError("", method,
                        std::string(method) + " gave job " + std::to_string(id) + " a list of " +
                            std::to_string(fractions.size()) + " time fractions" + round +
                            "; the cluster has " + std::to_string(num_types) + " GPU types (" +
                            (state.cluster != nullptr ? state.cluster->ToString()
                                                      : std::to_string(state.num_gpus)) +
                            "), one fraction each");
    }
    for (int k = 0; k < num_types; ++k) {
      check_fraction(id, fractions[k],
                     num_types > 1 ? " on GPU type " + state.cluster->name(k) : std::string());
    }
  }
}

GavelMechanism::GavelMechanism(std::unique_ptr<AllocationPolicy> policy,
                               const SimulationOptions& options, std::uint64_t seed)
    : policy_(std::move(policy)),
      traits_(policy_->Traits()),
      half_round_s_(options.round_duration_s / 2.0),
      reset_interval_s_(options.allocation_reset_interval_s),
      type_shuffler_(seed + 5),
      worker_time_s_(1, 0.0) {}

GavelMechanism::Entry* GavelMechanism::Find(JobId id) {
  auto it =
      std::find_if(entries_.begin(), entries_.end(), [id](const Entry& e) { return e.id == id; });
  return it == entries_.end() ? nullptr : &*it;
}

void GavelMechanism::OnJobArrived(const ActiveJobView& job) {
  // `add_job`, `scheduler.py:738-744`: the T_r/2 prior on every type.
  entries_.push_back({job.id, std::vector<double>(num_types_, half_round_s_),
                      std::vector<double>(num_types_, 0.0)});
  need_to_update_allocation_ = true;
}

void GavelMechanism::OnJobRemoved(JobId id) {
  std::erase_if(entries_, [id](const Entry& e) { return e.id == id; });
  need_to_update_allocation_ = true;  // `_remove_job`, `:903`
}

void GavelMechanism::OnMicroTaskDone(const MicroTaskOutcome& outcome) {
  if (!outcome.succeeded) {
    need_to_update_allocation_ = true;  // `:4569`
    return;
  }
  Entry* entry = Find(outcome.id);
  if (entry == nullptr) return;
  // `:4652-4661`: only the type the job ran on.
  const auto k = static_cast<std::size_t>(outcome.gpu_type);
  ADAPTSIM_CHECK(k < num_types_);
  entry->time_received_s[k] += outcome.execution_time_s;
  worker_time_s_[k] += outcome.execution_time_s;
}

// The number of GPU types is the cluster's, known at the first round.
void GavelMechanism::Resize(std::size_t num_types) {
  if (num_types == num_types_) return;
  num_types_ = num_types;
  worker_time_s_.resize(num_types, 0.0);
  for (Entry& entry : entries_) {
    entry.time_received_s.resize(num_types, half_round_s_);
    entry.deficit_s.resize(num_types, 0.0);
  }
}

// Deficits accrue with the allocation in force before the re-solve (`:3498-3551`), per type.
void GavelMechanism::ResetTimeRunSoFar(double now_s) {
  const double elapsed_s = now_s - last_reset_s_;
  std::fill(worker_time_s_.begin(), worker_time_s_.end(), 0.0);
  for (Entry& entry : entries_) {  // W_k sums in entry order, as per type
    auto it = allocation_.find(entry.id);
    for (std::size_t k = 0; k < num_types_; ++k) {
      double time_received = entry.time_received_s[k] - half_round_s_;
      double should_have_received = (it == allocation_.end()) ? 0.0 : it->second[k] * elapsed_s;
      entry.deficit_s[k] += should_have_received - time_received;
      entry.time_received_s[k] = half_round_s_;
      worker_time_s_[k] += entry.time_received_s[k];
    }
  }
  last_reset_s_ = now_s;
}

// Calls the policy and keeps x_ik clipped to [0, 1] (`:3356-3357`).
void GavelMechanism::Solve(const ClusterState& state) {
  Allocation solved = policy_->ComputeAllocation(state);
  CheckAllocation(solved, state);
  allocation_.clear();
  if (!solved.time_fraction_by_type.empty()) {
    for (auto& [id, fractions] : solved.time_fraction_by_type) {
      for (double& x : fractions) x = std::clamp(x, 0.0, 1.0);
      allocation_.emplace(id, std::move(fractions));
    }
    return;
  }
  for (const auto& [id, x] : solved.time_fraction) {
    allocation_.emplace(id, std::vector<double>{std::clamp(x, 0.0, 1.0)});
  }
}

// `:1288-1301`: the literal ["v100", "p100", "k80"] without unregistered types, i.e. reverse
// name order, shuffled in place for the policies that declare it; one shuffle per round.
std::vector<int> GavelMechanism::TypeOrder(int num_types) {
  std::vector<int> order(num_types);
  std::iota(order.rbegin(), order.rend(), 0);
  if (traits_.shuffle_gpu_type_order) type_shuffler_.Shuffle(order);
  return order;
}

RoundPlan GavelMechanism::PlanRound(const ClusterState& state) {
  const int num_types = state.cluster != nullptr ? state.cluster->num_types() : 1;
  Resize(static_cast<std::size_t>(num_types));
  const double now_s = state.now_s;
  bool gate_open = (now_s - last_reset_s_ >= reset_interval_s_) || last_reset_s_ == 0.0;
  if (need_to_update_allocation_ && gate_open) {
    ResetTimeRunSoFar(now_s);
    Solve(state);
    need_to_update_allocation_ = false;
    ++num_solves_;
  }
  // Per entry (arrival order), looked up once per round: its view and its x_i· (null without an
  // allocation).
  std::map<JobId, const ActiveJobView*> view_of;
  for (const ActiveJobView& job : state.jobs) view_of.emplace(job.id, &job);
  std::vector<const ActiveJobView*> views(entries_.size());
  std::vector<const std::vector<double>*> fractions(entries_.size(), nullptr);
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    views[i] = view_of.at(entries_[i].id);
    if (auto it = allocation_.find(entries_[i].id); it != allocation_.end()) {
      fractions[i] = &it->second;
    }
  }
  auto throughput = [](const ActiveJobView& view, int k) {
    return view.throughput_by_type_steps_per_s.empty() ? view.throughput_steps_per_s
                                                       : view.throughput_by_type_steps_per_s[k];
  };

  struct Candidate {
    std::size_t index;
    int type;
    double priority, deficit, x;
  };
  RoundPlan plan;
  plan.gpu_type_order = TypeOrder(num_types);
  std::vector<Candidate> queue;
  queue.reserve(entries_.size() * static_cast<std::size_t>(num_types));
  for (int k : plan.gpu_type_order) {
    const auto block = static_cast<std::ptrdiff_t>(queue.size());
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      const Entry& entry = entries_[i];
      const double x = fractions[i] == nullptr ? 0.0 : (*fractions[i])[k];
      // Priority (`:3667-3724`): x / (t / W), x · 1e9 when t / W is 0; 0 without an allocation,
      // for x = 0 and for a zero throughput on the type.
      double priority = 0.0;
      if (fractions[i] != nullptr && throughput(*views[i], k) != 0.0) {
        priority = x * 1e9;
        const double fraction =
            worker_time_s_[k] == 0.0 ? 0.0 : entry.time_received_s[k] / worker_time_s_[k];
        if (x != 0.0 && fraction > 0.0) priority = x / fraction;
      }
      queue.push_back({i, k, priority, entry.deficit_s[k], x});
    }
    std::stable_sort(queue.begin() + block, queue.end(),
                     [](const Candidate& a, const Candidate& b) {
                       if (a.priority != b.priority) return a.priority > b.priority;
                       if (a.deficit != b.deficit) return a.deficit > b.deficit;
                       return a.x > b.x;
                     });
  }

  std::vector<int> gpus_left(num_types);
  for (int k = 0; k < num_types; ++k) {
    gpus_left[k] = state.cluster != nullptr ? state.cluster->count(k) : state.num_gpus;
  }
  std::vector<bool> taken(entries_.size(), false);
  for (const Candidate& candidate : queue) {
    const int k = candidate.type;
    if (gpus_left[k] == 0 || taken[candidate.index]) continue;
    const ActiveJobView* view = views[candidate.index];
    if (throughput(*view, k) <= 0.0) continue;
    if (traits_.skip_nonpositive_priority && candidate.priority <= 0.0) continue;
    if (view->scale_factor > gpus_left[k]) {
      if (traits_.stop_at_first_misfit) break;  // ends the selection on every type
      continue;
    }
    gpus_left[k] -= view->scale_factor;
    taken[candidate.index] = true;
    // Quirk Q1: a job without an allocation takes its GPUs in selection but is not placed
    // (`:1362-1366`), so its GPUs idle this round.
    if (fractions[candidate.index] != nullptr) plan.jobs.push_back({view->id, {}, k});
  }
  return plan;
}

std::map<std::string, double> GavelMechanism::Statistics() const {
  return {{"allocation_solves", static_cast<double>(num_solves_)}};
}

std::unique_ptr<RoundScheduler> MakeRoundScheduler(PolicyInstance policy,
                                                   const SimulationOptions& options,
                                                   std::uint64_t seed) {
  if (auto* allocation = std::get_if<std::unique_ptr<AllocationPolicy>>(&policy)) {
    return std::make_unique<GavelMechanism>(std::move(*allocation), options, seed);
  }
  auto* scheduler = std::get_if<std::unique_ptr<RoundScheduler>>(&policy);
  ADAPTSIM_CHECK(scheduler != nullptr && *scheduler != nullptr);
  return std::move(*scheduler);
}

}  // namespace adaptsim
