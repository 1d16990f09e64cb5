// Optimus+Oracle on the Pollux workloads (A:simulator/optimus.py:10-89).
#include "optimus.hpp"

#include <algorithm>
#include <cmath>

#include "adaptsim/pollux_application.hpp"
#include "adaptsim/pollux_workload.hpp"
#include "tuned_jobs.hpp"

namespace adaptsim {

BatchConfig OptimusPolicy::ChooseBatch(const IntervalJobView& job,
                                       const std::vector<int>& placement) {
  return TunedJobBatch(job, placement);
}

double OptimusStepTime(const IntervalJobView& job, int num_replicas, int per_node) {
  constexpr double kEps = 1e-8;
  const PolluxApplication& app = *job.app;
  const double local = std::ceil(static_cast<double>(job.spec->batch_size) / num_replicas - kEps);
  int s = static_cast<int>(std::ceil(local / app.max_local_bsz() - kEps)) - 1;
  if (num_replicas == 1) s = std::max(1, s);
  int m = static_cast<int>(std::ceil(local / (s + 1) - kEps));
  m = std::min(m, app.max_batch_size() / (num_replicas * (s + 1)));
  const StepTimes t = app.Throughput(PackedPlacement(num_replicas, per_node), m);
  return t.step_time_s + (t.step_time_s - t.sync_time_s) * s;
}

namespace {

struct OptimusJob {
  const IntervalJobView* view;
  double remaining;  // iterations
  int max_replicas;
  int replicas = 0;
  double gain = 0.0;
};

void UpdateGain(OptimusJob& job, int free_gpus, int per_node) {
  if (job.replicas + 1 > job.max_replicas || free_gpus < 1) {
    job.gain = 0.0;
  } else {
    job.gain = (OptimusStepTime(*job.view, job.replicas, per_node) -
                OptimusStepTime(*job.view, job.replicas + 1, per_node)) *
               job.remaining;
  }
}

}  // namespace

IntervalDecision OptimusPolicy::Optimize(const IntervalClusterView& cluster) {
  std::vector<OptimusJob> jobs;
  for (const IntervalJobView& view : cluster.jobs) {
    const PolluxApplication& app = *view.app;
    const int completion_epoch = app.completion_epoch();
    const double target = view.spec->batch_size;
    const double remaining =
        completion_epoch <= view.epoch
            ? 1.0
            : app.Iteration(target, completion_epoch) - app.Iteration(target, view.epoch);
    const int max_replicas = app.name() == "ncf" ? 1 : view.spec->batch_size / app.min_local_bsz();
    jobs.push_back({&view, remaining, max_replicas});
  }
  const int per_node = cluster.gpus_per_node;
  int free_gpus = cluster.num_nodes * cluster.gpus_per_node;
  for (OptimusJob& job : jobs) {  // min_replicas = 1 for every job
    if (free_gpus < 1) continue;
    job.replicas = 1;
    free_gpus -= 1;
    UpdateGain(job, free_gpus, per_node);
  }
  while (free_gpus > 0) {
    auto best = std::max_element(jobs.begin(), jobs.end(), [](const auto& a, const auto& b) {
      return a.gain < b.gain;  // first maximum
    });
    if (best == jobs.end() || !(best->gain > 0)) break;
    best->replicas += 1;
    UpdateGain(*best, free_gpus, per_node);
    free_gpus -= 1;
  }
  // Placements (optimus.py:55-73): keep unchanged allocations, then ascending GPU count.
  IntervalDecision decision;
  std::map<int, int> free_per_node;
  for (int node = 0; node < cluster.num_nodes; ++node) free_per_node[node] = cluster.gpus_per_node;
  for (const OptimusJob& job : jobs) {
    if (!job.view->allocation.empty() &&
        static_cast<int>(job.view->allocation.size()) == job.replicas) {
      decision.allocations[job.view->index] = job.view->allocation;
      for (int node : job.view->allocation) --free_per_node[node];
    }
  }
  std::erase_if(free_per_node, [](const auto& entry) { return entry.second <= 0; });
  std::vector<const OptimusJob*> order;
  for (const OptimusJob& job : jobs) order.push_back(&job);
  std::stable_sort(order.begin(), order.end(),
                   [](const auto* a, const auto* b) { return a->replicas < b->replicas; });
  for (const OptimusJob* job : order) {
    if (job->replicas > 0 && decision.allocations.count(job->view->index) == 0) {
      decision.allocations[job->view->index] = TakeMostFreeGpus(free_per_node, job->replicas);
    }
  }
  return decision;
}

}  // namespace adaptsim
