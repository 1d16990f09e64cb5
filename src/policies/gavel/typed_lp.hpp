// The LPs of the heterogeneity-aware Gavel policies on a cluster of several GPU types
// (docs/policies.md §3.7): time fractions x_ik per (job i, GPU type k) in the base set
//
//   B = { x >= 0 :  Σ_k x_ik <= 1 ∀ i,   Σ_i s_i x_ik <= C_k ∀ k }
//
// (`scheduler/policies/policy.py:58-65`), job i's effective throughput t_i(x) = Σ_k T_ik x_ik.
// Where T_ik = 0 the column is fixed at x_ik = 0: no objective or floor below depends on such an
// x_ik, so the optimal values are those of the reference's LP (which leaves them free), and the
// capacity they would hold stays usable. Every LP is solved by COIN-OR CLP (clp_solver.hpp),
// deterministically. Shapes: m jobs, n types; matrices m×n row-major (index i·n + k).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "adaptsim/cluster_state.hpp"
#include "adaptsim/lp_problem.hpp"
#include "adaptsim/policy.hpp"

namespace adaptsim::internal {

/// The simplex bases of a policy's previous LPs, per job id, to start the next LP from
/// (CLP's status codes, lp_problem.hpp LpBasis): consecutive calls differ by a few jobs, so the
/// dual simplex then needs a fraction of the pivots. Only the speed depends on it: every LP is
/// solved to optimality, and the point returned on a non-unique face is the one the sequence of
/// calls leads to, which the task's configuration determines.
struct TypedLpWarmStart {
  struct Job {
    std::vector<int> columns;  ///< x_ik, n
    int job_row = 1;           ///< Σ_k x_ik <= 1
    int extra_row = 1;         ///< the job's floor, level or margin row, if it had one
  };
  std::map<JobId, Job> jobs;
  std::vector<int> capacity_rows;  ///< n
  int extra_column = 1;            ///< λ, μ or z
};

/// One policy call on several GPU types.
struct TypedLpInputs {
  int num_jobs = 0;                 ///< m
  int num_types = 0;                ///< n
  std::vector<double> throughputs;  ///< T_ik >= 0 (steps/s, or a policy's coefficients), m×n
  std::vector<int> scale_factors;   ///< s_i >= 1, m
  std::vector<int> capacities;      ///< C_k >= 1, n
  int max_iterations = 100000;      ///< CLP iteration limit per LP
  std::string policy;               ///< names the policy in errors
  std::vector<JobId> ids;           ///< job ids, m (keys of warm_start)
  TypedLpWarmStart* warm_start = nullptr;  ///< read and updated by every LP; null: cold starts

  double T(int i, int k) const { return throughputs[static_cast<std::size_t>(i) * num_types + k]; }
  /// t_i(x) = Σ_k T_ik x_ik.
  double EffectiveThroughput(const std::vector<double>& x, int i) const;
};

/// m, n, T_ik, s_i and C_k of `state` on `cluster` (jobs in state order, types in worker-id
/// order); `policy` names the policy in errors.
TypedLpInputs TypedInputs(const ClusterState& state, const Cluster& cluster,
                          const std::string& policy);

/// x (m×n, jobs in state order) as the allocation of `state`'s jobs.
Allocation TypedAllocation(const ClusterState& state, const std::vector<double>& x,
                           const Cluster& cluster);

/// A point of B and the optimal value of the LP that produced it.
struct TypedLpPoint {
  std::vector<double> x;  ///< m×n, clipped to [0, 1]
  double value = 0.0;     ///< the LP's optimal value
  int lp_solves = 0;
};

/// max μ  s.t.  a_i t_i(x) − c_i μ >= b_i  ∀ i with c_i > 0 or b_i > 0,  x ∈ B,
/// μ <= margin_max (`slopes` a, `offsets` b, `scales` c, m each). The common form of the OSSP
/// threshold and of Themis's Dinkelbach step. Throws InputError(field "solver") unless CLP proves
/// optimality.
TypedLpPoint MaxMargin(const TypedLpInputs& in, const std::vector<double>& slopes,
                       const std::vector<double>& offsets, const std::vector<double>& scales,
                       double margin_max);

/// max λ  s.t.  t_i(x) >= λ d_i ∀ i,  x ∈ B,  0 <= λ <= lambda_max (d_i <= 0: no floor): the
/// OSSP threshold λ* = 1/T* (`min_total_duration.py:55-78`). MaxMargin with a = 1, b = 0, c = d.
TypedLpPoint MaxDemandScale(const TypedLpInputs& in, const std::vector<double>& demands,
                            double lambda_max);

/// max Σ_ik w_ik x_ik  s.t.  t_i(x) >= floor_i ∀ i (floor_i <= 0: no floor),  x ∈ B.
/// `weights` m×n. kDualSimplex gives a vertex; kBarrierNoCrossover a centred point of a
/// non-unique optimal face. Throws InputError(field "solver") unless CLP proves optimality.
TypedLpPoint MaxWeightedSum(const TypedLpInputs& in, const std::vector<double>& weights,
                            const std::vector<double>& floors, LpMethod method);

/// The lexicographic max-min point of v_i(x) = t_i(x) over B ("water filling", Gavel OSDI'20
/// §4.1 and its `max_min_fairness_water_filling.py`): maximise the smallest v, freeze the jobs
/// that cannot exceed it (positive dual of their row), maximise the smallest of the others with
/// the frozen ones held at their level, until every job is frozen; jobs that reach their
/// single-job maximum freeze in bulk (a bisection over those maxima, docs/policies.md §3.7). The
/// levels are unique; the point x is CLP's vertex of the last LP. value = the smallest level z*
/// (the reference's max-min optimum); lp_solves counts every LP. Throws InputError(field
/// "solver") unless CLP proves optimality.
struct WaterFillingPoint : TypedLpPoint {
  std::vector<double> levels;  ///< v_i, m
};
WaterFillingPoint LexicographicMaxMin(const TypedLpInputs& in);

}  // namespace adaptsim::internal
