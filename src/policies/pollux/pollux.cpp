// Pollux policy (A:simulator/pollux.py; job side A:simulator/simulator.py:22-98, 321-336).
#include "pollux.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>

#include "adaptsim/error.hpp"
#include "adaptsim/policy_options.hpp"
#include "adaptsim/pollux_application.hpp"
#include "adaptsim/pollux_workload.hpp"

namespace adaptsim {
namespace {

constexpr std::uint32_t kPolluxGaStream = 0x506f6c78;  // "Polx"
constexpr int kNcfBatchSize = 32768;                   // simulator.py:191-192

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

models::BatchBounds BoundsOf(const PolluxApplication& app) {
  return {app.max_batch_size(), app.min_local_bsz(), app.max_local_bsz()};
}

}  // namespace

PolluxPolicy::PolluxPolicy(const PolluxOptions& options, const PolluxVariant& variant)
    : options_(options), variant_(variant) {
  ValidateOptions(options_, {"pollux", "pollux"});
}

// Job.update_params (simulator.py:85-98): first observation of a key wins, then a full refit.
void PolluxPolicy::Observe(const IntervalJobView& job, const StepObservation& observation) {
  Agent& agent = agents_[job.index];
  agent.grad = {observation.grad_sqr, observation.grad_var};
  for (const models::ThroughputSample& s : agent.samples) {
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
  agent.samples.push_back(sample);
  agent.max_profiled_replicas = std::max(agent.max_profiled_replicas, observation.num_replicas);
  const auto start = std::chrono::steady_clock::now();
  agent.perf = fit_memo_->Fit(agent.samples, job.spec->name);
  fit_wall_s_ += Seconds(start);
  ++fits_;
}

// Job.update_local_bsz (simulator.py:64-83), before the engine's cap.
BatchConfig PolluxPolicy::ChooseBatch(const IntervalJobView& job,
                                      const std::vector<int>& placement) {
  const PolluxApplication& app = *job.app;
  const int num_nodes = static_cast<int>(placement.size());
  int num_replicas = 0;
  for (int r : placement) num_replicas += r;
  models::BatchBounds bounds = BoundsOf(app);
  if (variant_.placement_local_bsz_limit) {
    bounds.max_atomic_bsz = std::min(bounds.max_atomic_bsz, app.MaxLocalBszAt(placement));
  }
  const Agent* agent = nullptr;
  if (auto it = agents_.find(job.index); it != agents_.end()) agent = &it->second;
  // A fixed total batch: the artifact's ncf, or a synthetic job without batch-size adaptation
  // (fixed_batch_size() is 0 for every profiled application).
  const int fixed_total = app.name() == "ncf" ? kNcfBatchSize : app.fixed_batch_size();
  if (fixed_total > 0 || agent == nullptr || !agent->perf) {
    const int target = fixed_total > 0
                           ? fixed_total
                           : std::max(app.init_batch_size(), app.min_local_bsz() * num_replicas);
    const models::GoodputChoice fixed =
        models::FixedBatch(target, num_replicas, app.init_batch_size(), bounds.max_atomic_bsz);
    return {fixed.atomic_bsz, fixed.accum_steps};
  }
  const models::GoodputFunction goodput(*agent->perf, agent->grad, app.init_batch_size());
  const models::GoodputChoice best =
      goodput.Optimize(num_nodes, num_replicas, bounds, /*accumulation=*/true);
  return {best.atomic_bsz, best.accum_steps};
}

int PolluxPolicy::MaxReplicas(const IntervalJobView& job, int total_gpus) const {
  const PolluxApplication& app = *job.app;
  if (app.name() == "ncf") return 1;
  auto it = agents_.find(job.index);
  const int profiled = it == agents_.end() ? 0 : it->second.max_profiled_replicas;
  const int own_cap = app.max_replicas() > 0 ? app.max_replicas() : total_gpus;  // 0 = none
  // The engine's cap (an isolated run's fair share, `S:sia-simulator/ftf_simulator.py:261-264`).
  const int engine_cap = job.max_replicas > 0 ? job.max_replicas : total_gpus;
  return std::min({std::max(2 * profiled, 1), total_gpus, own_cap, engine_cap,
                   app.max_batch_size() / app.min_local_bsz()});
}

// _adapt_prev_states (pollux.py:60-86): rows of surviving jobs are matched by POSITION in the old
// and the new row order (numpy fancy assignment), not by job identity; new jobs get zero rows.
std::vector<GaState> PolluxPolicy::InitialStates(const std::vector<int>& rows, const GaState& base,
                                                 int num_nodes) const {
  if (previous_front_.empty()) return {base};
  std::vector<int> src, dst;
  for (std::size_t i = 0; i < previous_rows_.size(); ++i) {
    if (std::find(rows.begin(), rows.end(), previous_rows_[i]) != rows.end()) src.push_back(i);
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (std::find(previous_rows_.begin(), previous_rows_.end(), rows[i]) != previous_rows_.end()) {
      dst.push_back(i);
    }
  }
  std::vector<GaState> states;
  for (const GaState& previous : previous_front_) {
    GaState state(rows.size() * num_nodes, 0);
    for (std::size_t k = 0; k < src.size(); ++k) {
      std::copy_n(previous.begin() + src[k] * num_nodes, num_nodes,
                  state.begin() + dst[k] * num_nodes);
    }
    states.push_back(std::move(state));
  }
  return states;
}

namespace {

// The per-round objective of pollux.py:242-337 over a J×N state. A job's speedup and its term of
// the power mean depend only on (nodes, replicas, row changed) within the round, so both are
// memoised per job (same inputs, same doubles); one evaluation is then a pass over the state and
// J table look-ups, summed in job order as the artifact does.
class PolluxObjective {
 public:
  /// Rows of at least this many nodes skip blocks of kBlock entries that are 0 in the state and
  /// the base (the states of large clusters are mostly 0).
  static constexpr int kSkippedRowNodes = 64, kBlock = 64;

  /// `max_nodes`: the most nodes a state's row can use (the repair's max nodes per job).
  PolluxObjective(int num_nodes, int gpus_per_node, double p, int max_nodes)
      : nodes_(num_nodes),
        gpus_per_node_(gpus_per_node),
        p_(p),
        node_slots_(std::min(num_nodes, max_nodes) + 1),
        active_(num_nodes) {}

  /// `max_replicas`: the most replicas a repaired row of the job holds. A row beyond the table
  /// (nodes or replicas) is computed without the memo: the same doubles.
  /// `speedup`: the job's (kept by the caller for the round), or null without a model.
  void AddJob(models::SpeedupFunction* speedup, int fair_replicas, double factor,
              const int* base_row, int max_replicas) {
    speedups_.push_back(speedup);
    fair_replicas_.push_back(fair_replicas);
    factors_.push_back(factor);
    base_state_.insert(base_state_.end(), base_row, base_row + nodes_);
    const std::size_t replica_slots = static_cast<std::size_t>(std::max(max_replicas, 0)) + 1;
    replica_slots_.push_back(replica_slots);
    memo_start_.push_back(memo_.size());
    memo_.resize(memo_.size() + 2 * node_slots_ * replica_slots);
    rows_.emplace_back();
  }

  GaObjectives operator()(const GaState& state) {
    const int J = static_cast<int>(speedups_.size()), N = nodes_;
    // One pass over the state: each row's nodes, replicas and whether it differs from the current
    // allocation, and the nodes in use.
    int* __restrict active = active_.data();
    std::fill_n(active, N, 0);
    for (int j = 0; j < J; ++j) {
      const int* __restrict row = state.data() + static_cast<std::size_t>(j) * N;
      const int* __restrict base = base_state_.data() + static_cast<std::size_t>(j) * N;
      int nodes = 0, replicas = 0, difference = 0;
      auto visit = [&](int begin, int end) {
        for (int n = begin; n < end; ++n) {
          nodes += row[n] > 0;
          replicas += row[n];
          difference |= row[n] ^ base[n];
          active[n] |= row[n] > 0;
        }
      };
      int n = 0;
      if (N >= kSkippedRowNodes) {  // long rows: blocks that are 0 in the row and the base add 0
        for (; n + kBlock <= N; n += kBlock) {
          if (BlockIsZero(row + n, base + n)) continue;
          visit(n, n + kBlock);
        }
      }
      visit(n, N);
      rows_[j] = {nodes, replicas, difference != 0};
    }
    int active_nodes = 0;
    for (int n = 0; n < N; ++n) active_nodes += active[n];
    return (*this)({rows_, active_nodes});
  }

  /// The same objectives from the summary of a repaired state (GaProblem::evaluate_summary).
  GaObjectives operator()(const GaStateSummary& state) {
    const int J = static_cast<int>(speedups_.size()), N = nodes_;
    const double dominant_share = 1.0 / (N * gpus_per_node_);
    const double total = static_cast<double>(state.active_nodes) * gpus_per_node_;
    double power_sum = 0.0, utility = 0.0;
    for (int j = 0; j < J; ++j) {
      const GaRowSummary& r = state.rows[j];
      const Memo& memo = Lookup(j, r.nodes, r.replicas, r.changed, dominant_share);
      power_sum += memo.term;
      if (r.replicas > 0 && total > 0) {
        utility += memo.speedup / r.replicas * (r.replicas / total);
      }
    }
    const double mean = p_ == 0 ? std::exp(power_sum / J) : std::pow(power_sum / J, 1.0 / p_);
    return {-mean, -utility};
  }

 private:
  /// Whether a[0 .. kBlock) and b[0 .. kBlock) are all 0, with vector loads.
  static bool BlockIsZero(const int* a, const int* b) {
    using Vector = int __attribute__((vector_size(32)));
    using Lanes = long long __attribute__((vector_size(32)));
    Vector any{};
    for (int k = 0; k < kBlock; k += 8) {
      Vector va, vb;
      std::memcpy(&va, a + k, sizeof va);
      std::memcpy(&vb, b + k, sizeof vb);
      any |= va | vb;
    }
    const Lanes lanes = reinterpret_cast<Lanes>(any);
    return (lanes[0] | lanes[1] | lanes[2] | lanes[3]) == 0;
  }
  struct Memo {
    double speedup = -1.0;  ///< < 0: not computed yet (a speedup is ≥ 0)
    double term = 0.0;      ///< the job's term of the power mean
  };

  const Memo& Lookup(int j, int nodes, int replicas, bool changed, double dominant_share) {
    const std::size_t replica_slots = replica_slots_[j];
    if (static_cast<std::size_t>(nodes) >= node_slots_ ||
        static_cast<std::size_t>(replicas) >= replica_slots) {
      unmemoised_.speedup = Speedup(j, nodes, replicas);
      unmemoised_.term = Term(j, unmemoised_.speedup, changed, dominant_share);
      return unmemoised_;
    }
    Memo& memo = memo_[memo_start_[j] +
                       2 * (static_cast<std::size_t>(nodes) * replica_slots + replicas) + changed];
    if (memo.speedup < 0) {
      const Memo& sibling = (&memo)[changed ? -1 : 1];  // same (nodes, replicas), other `changed`
      memo.speedup = sibling.speedup >= 0 ? sibling.speedup : Speedup(j, nodes, replicas);
      memo.term = Term(j, memo.speedup, changed, dominant_share);
    }
    return memo;
  }

  double Term(int j, double speedup, bool changed, double dominant_share) const {
    double scaled = speedup * dominant_share * nodes_;
    if (changed) scaled *= factors_[j];
    return p_ == 0 ? std::log(std::max(scaled, 1e-3)) : std::pow(scaled + 1e-3, p_);
  }

  double Speedup(int j, int nodes, int replicas) {
    return speedups_[j] ? (*speedups_[j])(nodes, replicas)
                        : static_cast<double>(replicas) / fair_replicas_[j];
  }

  int nodes_, gpus_per_node_;
  double p_;
  std::size_t node_slots_;                  ///< nodes 0 .. min(N, max nodes per job)
  std::vector<std::size_t> replica_slots_;  ///< per job: replicas 0 .. its max replicas
  std::vector<std::size_t> memo_start_;     ///< per job: its first memo entry
  Memo unmemoised_;                         ///< a row outside the table
  std::vector<models::SpeedupFunction*> speedups_;
  std::vector<int> fair_replicas_;
  std::vector<double> factors_;
  GaState base_state_;              ///< J×N, the current allocation
  std::vector<Memo> memo_;          ///< per job [nodes][replicas][changed]
  std::vector<int> active_;         ///< per node, scratch of one evaluation
  std::vector<GaRowSummary> rows_;  ///< per job, scratch of one evaluation
};

}  // namespace

namespace {

// The bits of everything a job's rebased speedup function is built from: the model, the
// gradient statistics, M0, the batch bounds and the rebasing point.
std::array<std::uint64_t, 15> SpeedupInputsOf(const models::PolluxPerfParams& perf,
                                              const models::PolluxGradParams& grad,
                                              int init_batch_size,
                                              const models::BatchBounds& bounds, int fair_nodes,
                                              int fair_replicas) {
  std::array<std::uint64_t, 15> bits{};
  const std::array<double, 7> params = perf.ToArray();
  for (int i = 0; i < 7; ++i) bits[i] = std::bit_cast<std::uint64_t>(params[i]);
  bits[7] = std::bit_cast<std::uint64_t>(grad.sqr);
  bits[8] = std::bit_cast<std::uint64_t>(grad.var);
  const std::array<int, 6> counts = {
      init_batch_size, bounds.max_batch_size, bounds.min_atomic_bsz, bounds.max_atomic_bsz,
      fair_nodes,      fair_replicas};
  for (int i = 0; i < 6; ++i) bits[9 + i] = static_cast<std::uint64_t>(counts[i]);
  return bits;
}

}  // namespace

IntervalDecision PolluxPolicy::Optimize(const IntervalClusterView& cluster) {
  return Optimize(cluster, cluster.num_nodes * cluster.gpus_per_node);
}

IntervalDecision PolluxPolicy::Optimize(const IntervalClusterView& cluster, int max_replicas_cap) {
  const int N = cluster.num_nodes, total_gpus = N * cluster.gpus_per_node;
  std::vector<const IntervalJobView*> jobs;
  for (const IntervalJobView& job : cluster.jobs) jobs.push_back(&job);
  std::stable_sort(jobs.begin(), jobs.end(), [](const auto* a, const auto* b) {
    if (a->attained_service_gpu_s != b->attained_service_gpu_s) {
      return a->attained_service_gpu_s < b->attained_service_gpu_s;
    }
    return a->spec->submission_time_s < b->spec->submission_time_s;
  });
  const int J = static_cast<int>(jobs.size());
  const double dominant_share = 1.0 / total_gpus;
  const int fair_replicas = static_cast<int>(std::ceil(1.0 / dominant_share / J));
  const int fair_nodes = static_cast<int>(std::ceil(N * dominant_share));
  GaProblem problem;
  problem.num_jobs = J;
  problem.num_nodes = N;
  problem.base_state.assign(static_cast<std::size_t>(J) * N, 0);
  problem.node_capacity.assign(N, cluster.gpus_per_node);
  problem.min_replicas.assign(J, 0);
  PolluxObjective objective(N, cluster.gpus_per_node, options_.p, options_.ga.max_nodes_per_job);
  std::vector<int> rows;
  const double delta = cluster.restart_delay_s;  // the engine's (IntervalSimulationOptions)
  for (int j = 0; j < J; ++j) {
    const IntervalJobView& job = *jobs[j];
    rows.push_back(job.index);
    for (int node : job.allocation) ++problem.base_state[j * N + node];
    problem.max_replicas.push_back(std::min(MaxReplicas(job, total_gpus), max_replicas_cap));
    models::SpeedupFunction* speedup = nullptr;
    auto it = agents_.find(job.index);
    if (it != agents_.end() && it->second.perf) {
      Agent& agent = it->second;
      const models::BatchBounds bounds = BoundsOf(*job.app);
      const std::array<std::uint64_t, 15> inputs = SpeedupInputsOf(
          *agent.perf, agent.grad, job.app->init_batch_size(), bounds, fair_nodes, fair_replicas);
      if (!agent.speedup || agent.speedup_inputs != inputs) {
        const models::GoodputFunction goodput(*agent.perf, agent.grad, job.app->init_batch_size());
        agent.speedup.emplace(goodput, bounds, /*accumulation=*/true);
        agent.speedup->Rebase(fair_nodes, fair_replicas);
        agent.speedup_inputs = inputs;
      }
      speedup = &*agent.speedup;
    }
    const double factor = std::max(job.age_s - job.num_restarts * delta, 0.0) / (job.age_s + delta);
    objective.AddJob(speedup, fair_replicas, factor,
                     problem.base_state.data() + static_cast<std::size_t>(j) * N,
                     problem.max_replicas.back());
  }
  problem.evaluate = [&objective](const GaState& state) { return objective(state); };
  problem.evaluate_summary = [&objective](const GaStateSummary& state) { return objective(state); };
  PhiloxRandom random(options_.seed, kPolluxGaStream, round_++);
  const auto start = std::chrono::steady_clock::now();
  GaResult result =
      RunPolluxGa(problem, InitialStates(rows, problem.base_state, N), options_.ga, random);
  ga_wall_s_ += Seconds(start);
  evaluations_ += result.evaluations;
  std::size_t best = 0;
  for (std::size_t i = 1; i < result.values.size(); ++i) {
    if (result.values[i][0] < result.values[best][0]) best = i;
  }
  IntervalDecision decision;
  const GaState& state = result.front[best];
  for (int j = 0; j < J; ++j) {
    std::vector<int> allocation;
    for (int n = 0; n < N; ++n) allocation.insert(allocation.end(), state[j * N + n], n);
    if (!allocation.empty()) decision.allocations[rows[j]] = std::move(allocation);
  }
  previous_front_ = std::move(result.front);
  previous_rows_ = std::move(rows);
  return decision;
}

void PolluxPolicy::ShareCachesWith(IntervalPolicy& donor) {
  if (auto* other = dynamic_cast<PolluxPolicy*>(&donor)) fit_memo_ = other->fit_memo_;
}

std::map<std::string, double> PolluxPolicy::Statistics() const {
  return {{"pollux_rounds", static_cast<double>(round_)},
          {"pollux_model_fits", static_cast<double>(fits_)},
          {"pollux_ga_evaluations", static_cast<double>(evaluations_)},
          {"pollux_ga_wall_s", ga_wall_s_},
          {"pollux_fit_wall_s", fit_wall_s_}};
}

}  // namespace adaptsim
