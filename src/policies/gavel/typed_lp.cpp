#include "typed_lp.hpp"

#include <algorithm>
#include <cmath>

#include "adaptsim/clp_solver.hpp"
#include "adaptsim/error.hpp"
#include "baseline_inputs.hpp"

namespace adaptsim::internal {
namespace {

// Relative slack on the floors of frozen jobs and re-imposed optima: keeps the follow-up LPs
// feasible under CLP's 1e-9 primal tolerance.
constexpr double kFloorSlack = 1e-9;

// Columns x_ik (index i·n + k, bounds [0, 1], upper 0 where T_ik = 0, objective `weights` if
// given); rows: the capacity of each type (rows 0 … n−1), then Σ_k x_ik <= 1 per job (n … n+m−1).
LpProblem BaseSet(const TypedLpInputs& in, const std::vector<double>* weights) {
  LpProblem lp;
  const int m = in.num_jobs, n = in.num_types;
  for (int i = 0; i < m; ++i) {
    for (int k = 0; k < n; ++k) {
      lp.AddColumn(0.0, in.T(i, k) > 0.0 ? 1.0 : 0.0, weights ? (*weights)[i * n + k] : 0.0);
    }
  }
  for (int k = 0; k < n; ++k) {
    const int row = lp.AddRow(-kLpInfinity, in.capacities[k]);
    for (int i = 0; i < m; ++i) lp.AddEntry(row, i * n + k, in.scale_factors[i]);
  }
  for (int i = 0; i < m; ++i) {
    const int row = lp.AddRow(-kLpInfinity, 1.0);
    for (int k = 0; k < n; ++k) lp.AddEntry(row, i * n + k, 1.0);
  }
  return lp;
}

// t_i(x) >= floor (floor > 0; a non-positive floor adds nothing); returns the row or −1.
int AddFloor(const TypedLpInputs& in, LpProblem& lp, int i, double floor) {
  if (!(floor > 0.0)) return -1;
  const int row = lp.AddRow(floor, kLpInfinity);
  for (int k = 0; k < in.num_types; ++k) {
    if (in.T(i, k) > 0.0) lp.AddEntry(row, i * in.num_types + k, in.T(i, k));
  }
  return row;
}

// The warm start of `lp` (built by BaseSet, then the rows extra_rows[i] >= 0 and the column
// extra_column >= 0) from in.warm_start: known jobs keep their statuses, new ones start at x = 0
// with basic slacks.
LpBasis WarmBasis(const TypedLpInputs& in, const LpProblem& lp, const std::vector<int>& extra_rows,
                  int extra_column) {
  const TypedLpWarmStart& warm = *in.warm_start;
  const int m = in.num_jobs, n = in.num_types;
  LpBasis basis;
  basis.column_status.assign(lp.num_cols, 3);  // at lower bound
  basis.row_status.assign(lp.num_rows, 1);     // basic slack
  for (int k = 0; k < n && k < static_cast<int>(warm.capacity_rows.size()); ++k) {
    basis.row_status[k] = warm.capacity_rows[k];
  }
  for (int i = 0; i < m; ++i) {
    const auto it = warm.jobs.find(in.ids[i]);
    if (it == warm.jobs.end()) continue;
    for (int k = 0; k < n; ++k) basis.column_status[i * n + k] = it->second.columns[k];
    basis.row_status[n + i] = it->second.job_row;
    if (extra_rows[i] >= 0) basis.row_status[extra_rows[i]] = it->second.extra_row;
  }
  if (extra_column >= 0) basis.column_status[extra_column] = warm.extra_column;
  return basis;
}

void RememberBasis(const TypedLpInputs& in, const LpBasis& basis,
                   const std::vector<int>& extra_rows, int extra_column) {
  TypedLpWarmStart& warm = *in.warm_start;
  const int m = in.num_jobs, n = in.num_types;
  warm.jobs.clear();
  warm.capacity_rows.assign(basis.row_status.begin(), basis.row_status.begin() + n);
  for (int i = 0; i < m; ++i) {
    TypedLpWarmStart::Job& job = warm.jobs[in.ids[i]];
    job.columns.assign(basis.column_status.begin() + i * n,
                       basis.column_status.begin() + (i + 1) * n);
    job.job_row = basis.row_status[n + i];
    job.extra_row = extra_rows[i] >= 0 ? basis.row_status[extra_rows[i]] : 1;
  }
  if (extra_column >= 0) warm.extra_column = basis.column_status[extra_column];
}

// Solves `lp` (BaseSet plus extra_rows/extra_column, see WarmBasis), warm-started when the inputs
// carry a warm start.
LpSolution Solve(const TypedLpInputs& in, const LpProblem& lp, LpMethod method, const char* what,
                 const std::vector<int>& extra_rows, int extra_column,
                 bool geometric_scaling = false) {
  LpOptions options;
  options.method = method;
  options.geometric_scaling = geometric_scaling;
  options.max_iterations = in.max_iterations;
  const bool warm = in.warm_start != nullptr && method != LpMethod::kBarrierNoCrossover &&
                    static_cast<int>(in.ids.size()) == in.num_jobs;
  LpBasis basis;
  if (warm) {
    basis = WarmBasis(in, lp, extra_rows, extra_column);
    options.warm_start = &basis;
  }
  LpSolution solution = SolveWithClp(lp, options);
  if (warm && solution.status == LpStatus::kOptimal) {
    RememberBasis(in, solution.basis, extra_rows, extra_column);
  }
  if (solution.status != LpStatus::kOptimal) {
    throw InputError("policy " + in.policy, 0, "solver",
                     std::string("CLP returned status ") + ToString(solution.status) + " for " +
                         what + " (" + std::to_string(in.num_jobs) + " jobs, " +
                         std::to_string(in.num_types) + " GPU types)");
  }
  return solution;
}

std::vector<double> ClippedAllocation(const TypedLpInputs& in, const LpSolution& solution) {
  const std::size_t cells = static_cast<std::size_t>(in.num_jobs) * in.num_types;
  std::vector<double> x(solution.x.begin(), solution.x.begin() + static_cast<long>(cells));
  for (double& value : x) value = std::clamp(value, 0.0, 1.0);
  return x;
}

// An interior-point answer may exceed a row of B by its tolerance (~1e-9): scale each job's row
// to Σ_k x_ik <= 1, then each type's column to its capacity (scaling down keeps the rows).
void RepairBaseSet(const TypedLpInputs& in, std::vector<double>& x) {
  const int m = in.num_jobs, n = in.num_types;
  for (int i = 0; i < m; ++i) {
    double row = 0.0;
    for (int k = 0; k < n; ++k) row += x[i * n + k];
    if (row > 1.0) {
      for (int k = 0; k < n; ++k) x[i * n + k] /= row;
    }
  }
  for (int k = 0; k < n; ++k) {
    double used = 0.0;
    for (int i = 0; i < m; ++i) used += in.scale_factors[i] * x[i * n + k];
    if (used > in.capacities[k]) {
      for (int i = 0; i < m; ++i) x[i * n + k] *= in.capacities[k] / used;
    }
  }
}

}  // namespace

TypedLpInputs TypedInputs(const ClusterState& state, const Cluster& cluster,
                          const std::string& policy) {
  TypedLpInputs in;
  in.num_jobs = static_cast<int>(state.jobs.size());
  in.num_types = cluster.num_types();
  in.policy = policy;
  for (const ActiveJobView& job : state.jobs) {
    for (int k = 0; k < in.num_types; ++k) in.throughputs.push_back(ThroughputOn(job, k));
    in.scale_factors.push_back(job.scale_factor);
  }
  for (int k = 0; k < in.num_types; ++k) in.capacities.push_back(cluster.count(k));
  for (const ActiveJobView& job : state.jobs) in.ids.push_back(job.id);
  return in;
}

Allocation TypedAllocation(const ClusterState& state, const std::vector<double>& x,
                           const Cluster& cluster) {
  const int n = cluster.num_types();
  std::map<JobId, std::vector<double>> fractions;
  for (std::size_t i = 0; i < state.jobs.size(); ++i) {
    fractions.emplace(state.jobs[i].id,
                      std::vector<double>(x.begin() + static_cast<long>(i * n),
                                          x.begin() + static_cast<long>((i + 1) * n)));
  }
  return ToAllocation(std::move(fractions), n);
}

double TypedLpInputs::EffectiveThroughput(const std::vector<double>& x, int i) const {
  double t = 0.0;
  for (int k = 0; k < num_types; ++k) t += T(i, k) * x[static_cast<std::size_t>(i) * num_types + k];
  return t;
}

TypedLpPoint MaxMargin(const TypedLpInputs& in, const std::vector<double>& slopes,
                       const std::vector<double>& offsets, const std::vector<double>& scales,
                       double margin_max) {
  LpProblem lp = BaseSet(in, nullptr);
  lp.maximize = true;
  const int margin = lp.AddColumn(-kLpInfinity, margin_max, 1.0);
  std::vector<int> rows(in.num_jobs, -1);
  for (int i = 0; i < in.num_jobs; ++i) {  // (a_i t_i − c_i μ) / u_i >= b_i / u_i
    if (!(scales[i] > 0.0) && !(offsets[i] > 0.0)) continue;
    const double unit = scales[i] > 0.0 ? scales[i] : offsets[i];  // row scaling for CLP
    const int row = rows[i] = lp.AddRow(offsets[i] / unit, kLpInfinity);
    for (int k = 0; k < in.num_types; ++k) {
      if (in.T(i, k) > 0.0) lp.AddEntry(row, i * in.num_types + k, slopes[i] * in.T(i, k) / unit);
    }
    lp.AddEntry(row, margin, -scales[i] / unit);
  }
  const LpSolution solution = Solve(in, lp, LpMethod::kDualSimplex, "the margin μ", rows, margin);
  return {ClippedAllocation(in, solution), solution.x[margin], 1};
}

TypedLpPoint MaxDemandScale(const TypedLpInputs& in, const std::vector<double>& demands,
                            double lambda_max) {
  // λ = σ λ' with σ = min_i max_k T_ik / d_i >= λ*, so that CLP sees λ' in [0, 1] whatever the
  // units of d (the OSSP's λ* is ~1e-4 s⁻¹).
  double unit = kLpInfinity;
  for (int i = 0; i < in.num_jobs; ++i) {
    if (!(demands[i] > 0.0)) continue;
    double fastest = 0.0;
    for (int k = 0; k < in.num_types; ++k) fastest = std::max(fastest, in.T(i, k));
    unit = std::min(unit, fastest / demands[i]);
  }
  if (!(unit > 0.0 && unit < kLpInfinity)) unit = 1.0;
  std::vector<double> scales(in.num_jobs);
  for (int i = 0; i < in.num_jobs; ++i) scales[i] = std::max(0.0, demands[i]) * unit;
  TypedLpPoint point = MaxMargin(in, std::vector<double>(in.num_jobs, 1.0),
                                 std::vector<double>(in.num_jobs, 0.0), scales, lambda_max / unit);
  point.value = std::max(0.0, point.value) * unit;  // λ >= 0: x = 0 is feasible
  return point;
}

TypedLpPoint MaxWeightedSum(const TypedLpInputs& in, const std::vector<double>& weights,
                            const std::vector<double>& floors, LpMethod method) {
  LpProblem lp = BaseSet(in, &weights);
  lp.maximize = true;
  std::vector<int> rows(in.num_jobs, -1);
  for (int i = 0; i < in.num_jobs && !floors.empty(); ++i) rows[i] = AddFloor(in, lp, i, floors[i]);
  const LpSolution solution = Solve(in, lp, method, "the weighted sum", rows, -1);
  TypedLpPoint point{ClippedAllocation(in, solution), solution.objective, 1};
  if (method == LpMethod::kBarrierNoCrossover) RepairBaseSet(in, point.x);
  return point;
}

namespace {

// cap_i = max_{x ∈ B} t_i(x), job i alone: a fractional knapsack over its row, the types in
// decreasing T_ik, each up to x_ik <= min(1, C_k / s_i), until Σ_k x_ik = 1.
std::vector<double> SingleJobMaxima(const TypedLpInputs& in) {
  const int n = in.num_types;
  std::vector<double> caps(in.num_jobs, 0.0);
  std::vector<int> order(n);
  for (int i = 0; i < in.num_jobs; ++i) {
    for (int k = 0; k < n; ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return in.T(i, a) > in.T(i, b); });
    double left = 1.0;
    for (int k : order) {
      const double share = std::min(
          left, std::min(1.0, static_cast<double>(in.capacities[k]) / in.scale_factors[i]));
      caps[i] += in.T(i, k) * share;
      left -= share;
    }
  }
  return caps;
}

// Whether the jobs not yet frozen whose cap is at most `bound` can all be at their caps while
// every other unfrozen job is at least `bound`, the frozen ones held at their levels:
// max z <= 1 s.t. t_i(x) >= z min(cap_i, bound) (unfrozen), t_i(x) >= level_i (frozen), x ∈ B,
// and z = 1 to CLP's tolerance. Always feasible (x and z of the previous LP shrink to z = 0).
bool CapsReachable(const TypedLpInputs& in, const std::vector<bool>& frozen,
                   const std::vector<double>& levels, const std::vector<double>& caps, double bound,
                   LpSolution& solution) {
  const int m = in.num_jobs, n = in.num_types;
  LpProblem lp = BaseSet(in, nullptr);
  lp.maximize = true;
  const int z = lp.AddColumn(0.0, 1.0, 1.0);
  std::vector<int> rows(m, -1);
  for (int i = 0; i < m; ++i) {
    if (frozen[i]) {
      rows[i] = AddFloor(in, lp, i, levels[i] * (1.0 - kFloorSlack));
      continue;
    }
    const double target = std::min(caps[i], bound);
    rows[i] = lp.AddRow(0.0, kLpInfinity);  // t_i / target − z >= 0
    for (int k = 0; k < n; ++k) {
      if (in.T(i, k) > 0.0) lp.AddEntry(rows[i], i * n + k, in.T(i, k) / target);
    }
    lp.AddEntry(rows[i], z, -1.0);
  }
  solution = Solve(in, lp, LpMethod::kDualSimplex, "a max-min cap probe", rows, z,
                   /*geometric_scaling=*/true);
  return solution.x[z] >= 1.0 - kFloorSlack;
}

}  // namespace

WaterFillingPoint LexicographicMaxMin(const TypedLpInputs& in) {
  const int m = in.num_jobs, n = in.num_types;
  WaterFillingPoint point;
  point.levels.assign(m, 0.0);
  std::vector<bool> frozen(m, false);
  const std::vector<double> caps = SingleJobMaxima(in);
  int remaining = m;
  LpSolution solution;
  while (remaining > 0) {
    LpProblem lp = BaseSet(in, nullptr);
    lp.maximize = true;
    const int z = lp.AddColumn(0.0, kLpInfinity, 1.0);
    std::vector<int> level_row(m, -1), rows(m, -1);
    for (int i = 0; i < m; ++i) {
      if (frozen[i]) {
        rows[i] = AddFloor(in, lp, i, point.levels[i] * (1.0 - kFloorSlack));
        continue;
      }
      level_row[i] = lp.AddRow(0.0, kLpInfinity);  // t_i − z >= 0
      for (int k = 0; k < n; ++k) {
        if (in.T(i, k) > 0.0) lp.AddEntry(level_row[i], i * n + k, in.T(i, k));
      }
      lp.AddEntry(level_row[i], z, -1.0);
      rows[i] = level_row[i];
    }
    // Geometric scaling: with CLP 1.17's automatic scaling the dual simplex aborts on an internal
    // assertion (ClpPackedMatrix.cpp:5222, `elValue`) on a 676-job level LP of the 900-job trace
    // on 128 V100 + 64 P100 + 64 K80.
    solution = Solve(in, lp, LpMethod::kDualSimplex, "a max-min level", rows, z,
                     /*geometric_scaling=*/true);
    ++point.lp_solves;
    const double level = solution.x[z];
    if (point.lp_solves == 1) point.value = level;
    // A row with a non-zero dual is tight in every optimal solution (complementary slackness):
    // its job cannot exceed this level. The duals of the level rows sum to 1 (z's column), so
    // at least one job freezes; the fallback only guards against round-off.
    int newly = 0;
    bool all_at_cap = true;
    for (int i = 0; i < m; ++i) {
      if (level_row[i] >= 0 && std::abs(solution.row_duals[level_row[i]]) > 1e-9) {
        frozen[i] = true, point.levels[i] = level, ++newly;
        all_at_cap = all_at_cap && level >= caps[i] * (1.0 - kFloorSlack);
      }
    }
    if (newly == 0) {
      for (int i = 0; i < m; ++i) {
        if (!frozen[i]) frozen[i] = true, point.levels[i] = level, ++newly;
      }
    }
    // A job whose cap is at most the level cannot exceed it either (ties in cap: the dual marks
    // one of them).
    for (int i = 0; i < m; ++i) {
      if (!frozen[i] && caps[i] <= level * (1.0 + kFloorSlack)) {
        frozen[i] = true, point.levels[i] = std::min(level, caps[i]), ++newly;
      }
    }
    remaining -= newly;
    if (remaining == 0 || !all_at_cap) continue;
    // The step froze jobs at their caps only, as in the uncontended part, where water filling
    // would freeze the jobs one distinct cap per LP. Instead: the largest distinct cap c_j of the
    // unfrozen jobs such that those with cap <= c_j can all be at their caps while the others are
    // at least c_j (monotone in j), found by bisection. If y is such a point, every one of those
    // jobs has level cap_i in the lexicographic max-min point L: else take such a job i with the
    // smallest L_i < cap_i; every job below L_i in L is at its cap (or L would be
    // lexicographically below y), and job i adds one more entry L_i where y has a larger one.
    std::vector<double> distinct;
    for (int i = 0; i < m; ++i) {
      if (!frozen[i]) distinct.push_back(caps[i]);
    }
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    int lo = 0, hi = static_cast<int>(distinct.size());  // caps[0, lo) reachable, [hi, r) not
    LpSolution probe, reached;
    while (lo < hi) {
      const int mid = lo + (hi - lo + 1) / 2;  // try c_mid = distinct[mid − 1]
      ++point.lp_solves;
      if (CapsReachable(in, frozen, point.levels, caps, distinct[mid - 1], probe)) {
        lo = mid;
        if (mid == static_cast<int>(distinct.size())) reached = std::move(probe);
      } else {
        hi = mid - 1;
      }
    }
    for (int i = 0; i < m && lo > 0; ++i) {
      if (!frozen[i] && caps[i] <= distinct[lo - 1]) {
        frozen[i] = true, point.levels[i] = caps[i], --remaining;
      }
    }
    if (remaining == 0) solution = std::move(reached);  // every job at its cap
  }
  point.x = ClippedAllocation(in, solution);
  return point;
}

}  // namespace adaptsim::internal
