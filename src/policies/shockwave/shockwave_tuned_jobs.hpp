// Shockwave+TunedJobs as the Sia artifact drives it (docs/sia.md §11; `S:sia-simulator/
// shockwave.py`, `cluster_unaware.py`, `multi_simulator_unaware.py --policy=shockwave`):
// Shockwave's planner (Zheng et al., NSDI'23; docs/policies.md §8) on the interval engine's
// TunedJobs jobs, each rigid at the workload CSV's num_replicas K and batch_size B, in 360 s
// rounds.
//
// The artifact runs Shockwave heterogeneity-unaware, on one virtual GPU type: the cluster's GPUs as
// virtual nodes of g_min GPUs (g_min the smallest node of the cluster; `cluster_unaware.py:41-51`,
// `multi_simulator_unaware.py:43-47`), K' = min(K, the GPUs of the smallest type) and B' = B
// (32768 for ncf) (`cluster_unaware.py:60-75`). Each round, R the round length, G the cluster's
// GPUs, the m active jobs in workload order and now = the round's start:
//  1. per job (the round view of TunedJobs, adaptsim/job_mapping.hpp): total and current
//     iterations S_j, c_j at B', the iteration time ē_j = the mean over the node groups of
//     ShockwaveTunedJobIterationTime at (K', B'), and the remaining time R_j = (S_j − c_j)·ē_j
//     (`shockwave.py:950-1008`, `cluster_unaware.py:595-632`);
//  2. the finish-time estimate F̂_j = (now − submission + R_j)/σ, σ = min(1, G/m), appended to the
//     job's series every round (`:123-188`), and its momentum average F̄_j (`:299-320`);
//  3. the window problem over T = future_rounds rounds (window_structured.hpp with iterations for
//     epochs: E_j = S_j, c_j, ē_j, R_j, gang K'_j, one capacity G), finish-time rows
//     now + T·R − submission + s_j/σ <= ρ_max F̄_j (`:503-585`), solved by CBC
//     (shockwave_window_milp.hpp; the reference's Gurobi with gap 1e-3);
//  4. if infeasible: weights π_j = ShockwaveFallbackPriority(ρ̂_j) with ρ̂_j = (now − submission +
//     R_j/σ)/F̄_j, the relaxed problem, and the ranking MILP (`:365-501, 609-640`);
//  5. the jobs of the window's first round, then the idle GPUs to the others by R_j descending
//     (`:669-719`; the artifact re-solves every round, REOPT_ROUNDS = 1, `:19, 881-885`);
//  6. workers on the virtual type: Gavel's assignment (GavelAssignWorkers; `:721-827`), each job
//     keeping its previous workers when free;
//  7. the repair onto one real type (`cluster_unaware.py:273-348`): the type holding most of the
//     job's virtual GPUs (ties: the first in the job's worker order), then per type in cluster
//     order, jobs by K' descending, each on the virtual nodes with most free GPUs (lowest id among
//     equals), none when the type has fewer than K' free GPUs (the job then loses its workers).
// Job side (ChooseBatch): the fixed batch B' on the placement held (GavelTunedJobBatch).
// Deterministic (CBC single-threaded, node and gap limits only).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "adaptsim/interval_policy.hpp"
#include "adaptsim/policy_options.hpp"
#include "shockwave_config.hpp"
#include "window_structured.hpp"

namespace adaptsim {

/// Options of `shockwave_tj`.
struct ShockwaveTunedJobsOptions {
  /// Length of the rounds, s: the Sia paper runs Shockwave, Gavel and Themis in 360 s rounds
  /// (§4.3; `multi_simulator_unaware.py --interval`). The engine runs this policy in these rounds
  /// whatever the task's interval_s (IntervalPolicy::RoundDurationS).
  double round_s = 360.0;
  /// T, the planning window in rounds (`multi_simulator_unaware.py:152`, --nfuture 5).
  int future_rounds = 5;
  /// Weight of the makespan term k · max remaining time, 1/s: the Sia paper's 0.1 (§4.3); the
  /// artifact's code has 1e-9 (`multi_simulator_unaware.py:66`).
  double k = 0.1;
  /// Exponent λ of the fallback priority ρ̂^λ: the Sia paper's 10 (§4.3); the artifact's code has
  /// 12 (`multi_simulator_unaware.py:67`).
  double lambda = 10.0;
  /// ρ_max of the finish-time rows (`multi_simulator_unaware.py:68`).
  double rhomax = 1.0;
  /// Relative MIP gap of CBC (the artifact's Gurobi MIPGap, `multi_simulator_unaware.py:59`).
  double solver_rel_gap = 1e-3;
  /// CBC node limit per MILP call (the artifact's Gurobi stops at 15 s instead, which depends on
  /// the machine).
  std::int64_t solver_max_nodes = 20000;
  /// The window solver: kGeneral, the MILP on CBC (default, as the artifact's Gurobi), or
  /// kStructured, the structured solver of `shockwave` (window_structured.hpp: its layouts are
  /// exact only for power-of-two gangs, a greedy heuristic for the workloads' 6, 10, 12, 14 GPUs).
  ShockwaveSolver solver = ShockwaveSolver::kGeneral;

  template <typename Self, typename V>
  static void VisitOptions(Self& self, V&& visit) {
    visit(Option("round_s", "s, length of the rounds; replaces the task's interval_s", Above(0)),
          self.round_s);
    visit(Option("future_rounds", "T, the planning window in rounds", Within(1, 1000)),
          self.future_rounds);
    visit(Option("k",
                 "weight of the makespan term k · max remaining time, 1/s (paper 0.1, artifact "
                 "1e-9)",
                 AtLeast(0)),
          self.k);
    visit(Option("lambda", "exponent of the fairness weight rho^lambda (paper 10, artifact 12)",
                 AtLeast(0)),
          self.lambda);
    visit(Option("rhomax", "rho_max, bound of the finish-time fairness rows", Above(0)),
          self.rhomax);
    visit(Option("solver_rel_gap", "relative MIP gap of CBC", AtLeast(0)), self.solver_rel_gap);
    visit(Option("solver_max_nodes", "CBC node limit per MILP call", AtLeast(1)),
          self.solver_max_nodes);
    visit(Option("solver", "the window MILP's solver",
                 Choices<ShockwaveSolver>{
                     {"general", ShockwaveSolver::kGeneral, "CBC on the whole MILP"},
                     {"structured", ShockwaveSolver::kStructured,
                      "shockwave's solver; greedy layouts unless gangs are powers of two"}}),
          self.solver);
  }
};

/// One job of a round, as the planner sees it (step 1).
struct ShockwaveTunedJob {
  int gpus = 1;                                      ///< K'
  double total_steps = 1.0;                          ///< S_j, iterations
  double current_step = 0.0;                         ///< c_j, iterations
  double iteration_s = 1.0;                          ///< ē_j, s
  double submission_s = 0.0;                         ///< submission time, s
  std::vector<std::pair<int, double>> share_series;  ///< (round, F̂_j), step 2
  double RemainingS() const { return (total_steps - current_step) * iteration_s; }
};

/// Steps 3-5 of one round for `jobs` (their series already holding this round's estimate) at
/// round `round_index` (now = round_index·R): the positions of the jobs run in the window's first
/// round, planned ones first (in job order), then the work-conserving fill. `statistics` counts
/// the solver's calls (keys of ShockwaveTunedJobsPolicy::Statistics). Throws InputError from the
/// window problem's checks.
std::vector<int> ShockwaveTunedJobsRound(const std::vector<ShockwaveTunedJob>& jobs,
                                         int round_index, int num_gpus,
                                         const ShockwaveTunedJobsOptions& options,
                                         std::map<std::string, double>& statistics);

/// The window problem of step 3 (before any fallback), for tests.
WindowProblem ShockwaveTunedJobsProblem(const std::vector<ShockwaveTunedJob>& jobs, int round_index,
                                        int num_gpus, const ShockwaveTunedJobsOptions& options);

class ShockwaveTunedJobsPolicy final : public IntervalPolicy {
 public:
  /// Throws InputError("policy", "shockwave_tj.<option>") for an option out of range.
  explicit ShockwaveTunedJobsPolicy(const ShockwaveTunedJobsOptions& options);
  BatchConfig ChooseBatch(const IntervalJobView& job, const std::vector<int>& placement) override;
  /// Throws InputError(field "cluster") when a node size is not a multiple of the smallest.
  IntervalDecision Optimize(const IntervalClusterView& cluster) override;
  bool SupportsGpuTypes() const override { return true; }
  /// Every job runs on its workload num_replicas (TunedJobs; capped to the smallest type).
  bool FixedReplicas() const override { return true; }
  std::optional<double> RoundDurationS() const override { return options_.round_s; }
  /// shockwave_tj_rounds, _fallbacks (infeasible finish-time rows), _solver_calls,
  /// _solver_failures (no solution), _solver_limits (CBC's node limit before the gap),
  /// _solver_nodes (branch-and-bound nodes), _unplaced (jobs planned but without a free type).
  std::map<std::string, double> Statistics() const override { return statistics_; }

 private:
  ShockwaveTunedJobsOptions options_;
  std::map<int, std::vector<std::pair<int, double>>> share_series_;  ///< job index -> (round, F̂)
  std::map<int, std::vector<int>> previous_workers_;  ///< job index -> virtual workers
  std::map<std::string, double> statistics_;
};

/// B' of a TunedJobs job under Shockwave: the CSV's batch_size, 32768 for ncf
/// (`cluster_unaware.py:70-73`).
int ShockwaveTunedJobBatchSize(const PolluxJobSpec& spec);

}  // namespace adaptsim
