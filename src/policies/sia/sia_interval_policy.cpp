// The Sia policy on the interval engine (sia_interval_policy.hpp).
#include "sia_interval_policy.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>
#include <utility>

#include "adaptsim/gpu_type_profiles.hpp"
#include "adaptsim/pollux_application.hpp"
#include "adaptsim/pollux_goodput.hpp"
#include "adaptsim/pollux_workload.hpp"

namespace adaptsim {

namespace {

constexpr int kNcfBatchSize = 32768;  // `S:sia-simulator/applications.py` ncf, as Pollux's

int Sum(const std::vector<int>& values) {
  int total = 0;
  for (int v : values) total += v;
  return total;
}

}  // namespace

SiaIntervalPolicy::SiaIntervalPolicy(const SiaOptions& options) : round_(options) {}

// `job.py:388-410`: per type, the first observation of each (N, K, m); one gradient statistic.
void SiaIntervalPolicy::Observe(const IntervalJobView& job, const StepObservation& observation) {
  Agent& agent = agents_[job.index];
  agent.grad = models::PolluxGradParams{observation.grad_sqr, observation.grad_var};
  TypeModel& model = agent.by_group[job.gpu_group];
  for (const models::ThroughputSample& s : model.samples) {
    if (s.num_nodes == observation.num_nodes && s.num_replicas == observation.num_replicas &&
        s.atomic_bsz == observation.atomic_bsz) {
      return;
    }
  }
  models::ThroughputSample sample;
  sample.num_nodes = observation.num_nodes;
  sample.num_replicas = observation.num_replicas;
  sample.atomic_bsz = observation.atomic_bsz;
  sample.accum_step_time_s = observation.step_time_s - observation.sync_time_s;
  sample.optim_step_time_s = observation.step_time_s;
  model.samples.push_back(sample);
  model.max_profiled_replicas = std::max(model.max_profiled_replicas, observation.num_replicas);
  model.perf = fit_memo_->Fit(model.samples, job.spec->name);
  ++fits_;
}

// `job.py:317-386` on the type the job holds.
BatchConfig SiaIntervalPolicy::ChooseBatch(const IntervalJobView& job,
                                           const std::vector<int>& placement) {
  const PolluxApplication& app = *job.app;
  const int num_nodes = static_cast<int>(placement.size());
  const int num_replicas = Sum(placement);
  const int max_local = std::min(app.max_local_bsz(), app.MaxLocalBszAt(placement));
  const TypeModel* model = nullptr;
  const Agent* agent = nullptr;
  if (auto it = agents_.find(job.index); it != agents_.end()) {
    agent = &it->second;
    if (auto m = agent->by_group.find(job.gpu_group); m != agent->by_group.end()) {
      model = &m->second;
    }
  }
  const int fixed_total = app.name() == "ncf" ? kNcfBatchSize : app.fixed_batch_size();
  models::GoodputChoice choice;
  if (fixed_total > 0 || model == nullptr || !model->perf || !agent->grad) {
    const int target = fixed_total > 0
                           ? fixed_total
                           : std::max(app.init_batch_size(), app.min_local_bsz() * num_replicas);
    choice = models::FixedBatch(target, num_replicas, app.init_batch_size(), max_local);
  } else {
    const models::GoodputFunction goodput(*model->perf, *agent->grad, app.init_batch_size());
    choice = goodput.Optimize(num_nodes, num_replicas,
                              {app.max_batch_size(), app.min_local_bsz(), max_local},
                              /*accumulation=*/true);
  }
  // The memory correction (`job.py:375-381`): at most the largest per-GPU batch profiled with as
  // many replicas on this type, when the step-time file has such rows (the accumulation steps are
  // kept).
  if (const int profiled = app.MaxLocalBszAtReplicas(num_replicas); profiled > 0) {
    choice.atomic_bsz = std::min(choice.atomic_bsz, profiled);
  }
  return {choice.atomic_bsz, choice.accum_steps};
}

double SiaIntervalPolicy::MinimumSizeThroughput(const PolluxApplication& app) {
  auto it = thr1_.find(&app);
  if (it == thr1_.end()) it = thr1_.emplace(&app, SiaMinimumSizeThroughput(app)).first;
  return it->second;
}

IntervalDecision SiaIntervalPolicy::Optimize(const IntervalClusterView& cluster) {
  std::vector<SiaNodeGroup> groups;
  for (const IntervalNodeGroup& group : cluster.node_groups) {
    const int max_physical =
        group.gpu_type.empty()
            ? 0
            : SiaGpuTypeNodeShape(group.gpu_type, "sia", 0, "cluster").max_physical_nodes;
    groups.push_back({group.gpu_type, group.gpus_per_node, group.num_nodes, max_physical});
  }
  const int num_groups = static_cast<int>(groups.size());
  std::vector<SiaJob> jobs;
  for (const IntervalJobView& view : cluster.jobs) {
    SiaJob job;
    job.id = view.index;
    job.application = view.spec->application;
    Agent* agent = nullptr;
    if (auto it = agents_.find(view.index); it != agents_.end()) agent = &it->second;
    for (int g = 0; g < num_groups; ++g) {
      const PolluxApplication& app = *view.apps_by_group[g];
      TypeModel* model = nullptr;
      if (agent != nullptr) {
        if (auto m = agent->by_group.find(g); m != agent->by_group.end()) model = &m->second;
      }
      if (model != nullptr && model->perf && agent->grad) {
        // The estimate's largest batch is the job's TunedJobs batch (the workload's batch_size;
        // ncf 32768), `S:sia-simulator/job.py:249` with `cluster.py:52-54, 66-68`; the executed
        // batch (ChooseBatch) may grow to the application's largest.
        const int tuned_batch = app.name() == "ncf" ? kNcfBatchSize : view.spec->batch_size;
        const models::GoodputFunction goodput(*model->perf, *agent->grad, app.init_batch_size());
        const models::BatchBounds bounds{tuned_batch, app.min_local_bsz(), app.max_local_bsz()};
        // The estimate's values are kept while its inputs stay the same bit for bit (the model,
        // the gradient statistics, M0 and the bounds): rounds in between re-use them.
        std::vector<std::uint64_t> key;
        for (double value : model->perf->ToArray())
          key.push_back(std::bit_cast<std::uint64_t>(value));
        for (double value : {agent->grad->sqr, agent->grad->var}) {
          key.push_back(std::bit_cast<std::uint64_t>(value));
        }
        for (int value : {app.init_batch_size(), bounds.max_batch_size, bounds.min_atomic_bsz,
                          bounds.max_atomic_bsz}) {
          key.push_back(static_cast<std::uint64_t>(static_cast<std::int64_t>(value)));
        }
        if (!model->goodput_values || model->goodput_key != key) {
          model->goodput_key = std::move(key);
          model->goodput_values = std::make_shared<std::map<std::pair<int, int>, double>>();
        }
        job.goodput.push_back([goodput, bounds, values = model->goodput_values](int num_nodes,
                                                                                int num_replicas) {
          auto [it, inserted] = values->try_emplace({num_nodes, num_replicas}, 0.0);
          if (inserted) {
            it->second =
                goodput.Optimize(num_nodes, num_replicas, bounds, /*accumulation=*/true).goodput;
          }
          return it->second;
        });
      } else {
        job.goodput.emplace_back();
      }
      job.min_size_throughput.push_back(MinimumSizeThroughput(app));
      job.max_profiled_replicas.push_back(model != nullptr ? model->max_profiled_replicas : 0);
      // The engine's cap (an isolated run's fair share) bounds the replicas as the batch does
      // (`S:sia-simulator/ftf_simulator.py:349-350`).
      const int batch_limit = app.max_batch_size() / app.min_local_bsz();
      job.batch_replica_limit.push_back(
          view.max_replicas > 0 ? std::min(batch_limit, view.max_replicas) : batch_limit);
    }
    job.age_s = view.age_s;
    job.num_restarts = view.num_restarts;
    job.used_gpu_seconds = view.attained_service_gpu_s;
    job.engine_restart_delay_s = view.restart_delay_s;
    job.scaling_underway = view.restart_left_s > 0;
    jobs.push_back(std::move(job));
  }
  const std::vector<SiaAllocation> allocations = round_.Optimize(groups, jobs);
  IntervalDecision decision;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const SiaAllocation& allocation = allocations[i];
    if (!allocation.configuration) continue;
    const int first_node = cluster.node_groups[allocation.configuration->group].first_node;
    std::vector<int> nodes;
    for (int node : allocation.nodes) nodes.push_back(first_node + node);
    std::sort(nodes.begin(), nodes.end());
    decision.allocations[jobs[i].id] = std::move(nodes);
  }
  return decision;
}

void SiaIntervalPolicy::ShareCachesWith(IntervalPolicy& donor) {
  if (auto* other = dynamic_cast<SiaIntervalPolicy*>(&donor)) fit_memo_ = other->fit_memo_;
}

std::map<std::string, double> SiaIntervalPolicy::Statistics() const {
  std::map<std::string, double> statistics = round_.Statistics();
  statistics["sia_fits"] = static_cast<double>(fits_);
  return statistics;
}

}  // namespace adaptsim
