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
  std::set<JobId> active;
  for (const ActiveJobView& job : state.jobs) active.insert(job.id);
  for (const auto& [id, x] : allocation.time_fraction) {
    if (!active.count(id)) {
      throw PolicyError("", method,
                        std::string(method) + " gave a time fraction to job " + std::to_string(id) +
                            round +
                            ", which is not an active job (not arrived yet, finished, or not in "
                            "the trace)");
    }
    if (!std::isfinite(x) || x < -kTimeFractionTolerance || x > 1.0 + kTimeFractionTolerance) {
      char value[32];
      std::snprintf(value, sizeof(value), "%.10g", x);
      throw PolicyError("", method,
                        std::string(method) + " gave job " + std::to_string(id) +
                            " the time fraction " + value + round +
                            "; a time fraction is a number in [0, 1]");
    }
  }
}

GavelMechanism::GavelMechanism(std::unique_ptr<AllocationPolicy> policy,
                               const SimulationOptions& options)
    : policy_(std::move(policy)),
      traits_(policy_->Traits()),
      half_round_s_(options.round_duration_s / 2.0),
      reset_interval_s_(options.allocation_reset_interval_s) {}

GavelMechanism::Entry* GavelMechanism::Find(JobId id) {
  auto it =
      std::find_if(entries_.begin(), entries_.end(), [id](const Entry& e) { return e.id == id; });
  return it == entries_.end() ? nullptr : &*it;
}

void GavelMechanism::OnJobArrived(const ActiveJobView& job) {
  entries_.push_back({job.id, half_round_s_, 0.0});  // `add_job`, `scheduler.py:738-744`
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
  if (Entry* entry = Find(outcome.id); entry != nullptr) {  // `:4652-4661`
    entry->time_received_s += outcome.execution_time_s;
    worker_time_s_ += outcome.execution_time_s;
  }
}

// Deficits accrue with the allocation in force before the re-solve (`:3498-3551`).
void GavelMechanism::ResetTimeRunSoFar(double now_s) {
  const double elapsed_s = now_s - last_reset_s_;
  worker_time_s_ = 0.0;
  for (Entry& entry : entries_) {
    double time_received = entry.time_received_s - half_round_s_;
    auto it = allocation_.find(entry.id);
    double should_have_received = (it == allocation_.end()) ? 0.0 : it->second * elapsed_s;
    entry.deficit_s += should_have_received - time_received;
    entry.time_received_s = half_round_s_;
    worker_time_s_ += entry.time_received_s;
  }
  last_reset_s_ = now_s;
}

std::vector<double> GavelMechanism::Priorities() const {
  std::vector<double> priorities(entries_.size(), 0.0);
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    auto it = allocation_.find(entries_[i].id);
    if (it == allocation_.end()) continue;
    const double x = it->second;
    double priority = x * 1e9;
    double fraction = worker_time_s_ == 0.0 ? 0.0 : entries_[i].time_received_s / worker_time_s_;
    if (x != 0.0 && fraction > 0.0) priority = x / fraction;
    priorities[i] = priority;
  }
  return priorities;
}

RoundPlan GavelMechanism::PlanRound(const ClusterState& state) {
  const double now_s = state.now_s;
  bool gate_open = (now_s - last_reset_s_ >= reset_interval_s_) || last_reset_s_ == 0.0;
  if (need_to_update_allocation_ && gate_open) {
    ResetTimeRunSoFar(now_s);
    Allocation allocation = policy_->ComputeAllocation(state);
    CheckAllocation(allocation, state);
    allocation_ = std::move(allocation.time_fraction);
    for (auto& [id, x] : allocation_) x = std::clamp(x, 0.0, 1.0);
    need_to_update_allocation_ = false;
    ++num_solves_;
  }
  std::vector<double> priorities = Priorities();
  // Zero throughput ⇒ priority 0 (`:3705-3718`); throughputs come from the view.
  std::map<JobId, const ActiveJobView*> views;
  for (const ActiveJobView& job : state.jobs) views[job.id] = &job;

  struct Candidate {
    std::size_t index;
    double priority, deficit, x;
  };
  std::vector<Candidate> queue;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    auto it = allocation_.find(entries_[i].id);
    double x = it == allocation_.end() ? 0.0 : it->second;
    const ActiveJobView* view = views.at(entries_[i].id);
    if (view->throughput_steps_per_s == 0.0) priorities[i] = 0.0;
    queue.push_back({i, priorities[i], entries_[i].deficit_s, x});
  }
  std::stable_sort(queue.begin(), queue.end(), [](const Candidate& a, const Candidate& b) {
    if (a.priority != b.priority) return a.priority > b.priority;
    if (a.deficit != b.deficit) return a.deficit > b.deficit;
    return a.x > b.x;
  });

  RoundPlan plan;
  int gpus_left = state.num_gpus;
  for (const Candidate& candidate : queue) {
    if (gpus_left == 0) continue;
    const ActiveJobView* view = views.at(entries_[candidate.index].id);
    if (view->throughput_steps_per_s <= 0.0) continue;
    if (traits_.skip_nonpositive_priority && candidate.priority <= 0.0) continue;
    if (view->scale_factor > gpus_left) {
      if (traits_.stop_at_first_misfit) break;
      continue;
    }
    gpus_left -= view->scale_factor;
    // Quirk Q1: a job without an allocation takes its GPUs in selection but is not placed
    // (`:1362-1366`), so its GPUs idle this round.
    if (allocation_.count(view->id) != 0) plan.jobs.push_back({view->id, {}});
  }
  return plan;
}

std::map<std::string, double> GavelMechanism::Statistics() const {
  return {{"allocation_solves", static_cast<double>(num_solves_)}};
}

std::unique_ptr<RoundScheduler> MakeRoundScheduler(PolicyInstance policy,
                                                   const SimulationOptions& options) {
  if (auto* allocation = std::get_if<std::unique_ptr<AllocationPolicy>>(&policy)) {
    return std::make_unique<GavelMechanism>(std::move(*allocation), options);
  }
  auto* scheduler = std::get_if<std::unique_ptr<RoundScheduler>>(&policy);
  ADAPTSIM_CHECK(scheduler != nullptr && *scheduler != nullptr);
  return std::move(*scheduler);
}

}  // namespace adaptsim
