// Sia's per-round ILP on CBC (sia_ilp.hpp).
#include "sia_ilp.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <map>
#include <utility>

#include "adaptsim/cbc_solver.hpp"
#include "adaptsim/clp_solver.hpp"
#include "adaptsim/error.hpp"

namespace adaptsim {
namespace {

// w[i,c] = s·(a[i,c] − 100·λ_n) in hundredths (an integer), the cost the ILP minimises first.
double PrimaryCost(float utility, const SiaOptions& options) {
  const double hundredths = std::nearbyint(100.0 * static_cast<double>(utility));
  // λ_n in hundredths, exact when it is a multiple of 0.01 (1.1 · 100 = 110.00000000000001).
  double lambda = 100.0 * options.lambda_n;
  if (std::abs(lambda - std::nearbyint(lambda)) < 1e-9) lambda = std::nearbyint(lambda);
  const double sign = options.p < 0 ? 1.0 : -1.0;
  return sign * (hundredths - lambda);
}

// Reduced-cost tightening from the objective's LP relaxation (docs/sia.md §3.5, step 4): with z
// the LP optimum, duals y and reduced costs d = w − yᵀA, every integer point has
// Σ w·x − z >= d_v·x_v for a variable at 0 in the LP (d_v >= 0), so a point with objective at
// most P (the floor of the LP point, feasible) has x_v <= (P − z)/d_v. The lexicographic optimum
// has objective <= P, so lowering the bounds to that removes no optimum. Skipped if the LP is not
// solved or its duals fail the optimality signs.
void TightenByReducedCosts(MilpProblem& problem, const std::vector<double>& primary) {
  LpProblem lp = problem;
  lp.name = "sia_lp_relaxation";
  lp.objective = primary;
  const LpSolution relaxation = SolveWithClp(lp);
  if (relaxation.status != LpStatus::kOptimal) return;
  std::vector<double> reduced = primary;
  for (const MilpEntry& e : problem.entries) {
    reduced[e.col] -= e.value * relaxation.row_duals[e.row];
  }
  double floor_objective = 0;
  for (int v = 0; v < problem.num_cols; ++v) {
    floor_objective += primary[v] * std::floor(relaxation.x[v] + 1e-9);
    if (relaxation.x[v] < 1e-9 && reduced[v] < -1e-6) return;  // not an optimal dual
  }
  const double gap = floor_objective - relaxation.objective + 1e-6;
  // P >= z holds exactly; a negative gap is CLP's rounding (an x within 1e-9 above an integer's
  // fraction, summed over many columns) and would give upper bounds below 0: skip.
  if (gap < 0) return;
  for (int v = 0; v < problem.num_cols; ++v) {
    if (relaxation.x[v] < 1e-9 && reduced[v] > 1e-9) {
      problem.col_upper[v] = std::min(problem.col_upper[v], std::floor(gap / reduced[v]));
    }
  }
}

}  // namespace

double SiaIlpCost(float utility, int column, int num_columns, int num_jobs,
                  const SiaOptions& options) {
  const double scale = static_cast<double>(num_jobs) * num_columns + 1;
  return scale * PrimaryCost(utility, options) - (num_columns - column);
}

double SiaReferenceObjective(const SiaMatrix& utility,
                             const std::vector<std::optional<int>>& chosen,
                             const SiaOptions& options) {
  double objective = options.lambda_n * utility.rows;
  for (int i = 0; i < utility.rows; ++i) {
    if (chosen[i]) objective += static_cast<double>(utility.at(i, *chosen[i])) - options.lambda_n;
  }
  return objective;
}

std::vector<std::vector<int>> SiaCandidateColumns(
    const SiaMatrix& utility, const std::vector<SiaConfiguration>& configurations,
    const std::vector<int>& free_gpus, const SiaOptions& options) {
  std::vector<std::vector<int>> candidates(utility.rows);
  for (int i = 0; i < utility.rows; ++i) {
    // best[t] = the least primary cost among the kept columns of type t so far (ascending size).
    std::vector<double> best(free_gpus.size(), std::numeric_limits<double>::infinity());
    for (int c = 0; c < utility.cols; ++c) {
      const SiaConfiguration& config = configurations[c];
      const double cost = PrimaryCost(utility.at(i, c), options);
      if (cost > 0 || config.num_gpus > free_gpus[config.group]) continue;
      if (cost >= best[config.group]) continue;  // a smaller configuration is at least as good
      best[config.group] = cost;
      candidates[i].push_back(c);
    }
  }
  return candidates;
}

SiaIlpResult SolveSiaIlp(const SiaMatrix& utility,
                         const std::vector<SiaConfiguration>& configurations,
                         const std::vector<SiaNodeGroup>& groups,
                         const std::vector<std::optional<int>>& forced, const SiaOptions& options,
                         CbcSession* session) {
  if (static_cast<int>(configurations.size()) != utility.cols ||
      static_cast<int>(forced.size()) != utility.rows) {
    throw InputError("sia", 0, "forced", "one configuration per column and one entry per job");
  }
  for (const std::optional<int>& column : forced) {
    if (column && (*column < 0 || *column >= utility.cols)) {
      throw InputError("sia", 0, "forced", "configuration out of range");
    }
  }
  SiaIlpResult result;
  result.chosen.assign(utility.rows, std::nullopt);
  // Forced jobs are fixed: they take their GPUs first.
  std::vector<int> free_gpus;
  for (const SiaNodeGroup& group : groups) free_gpus.push_back(group.total_gpus());
  for (int i = 0; i < utility.rows; ++i) {
    if (forced[i])
      free_gpus[configurations[*forced[i]].group] -= configurations[*forced[i]].num_gpus;
  }
  if (std::any_of(free_gpus.begin(), free_gpus.end(), [](int gpus) { return gpus < 0; })) {
    result.status = MilpStatus::kInfeasible;
    result.objective = SiaReferenceObjective(utility, result.chosen, options);
    return result;
  }
  const std::vector<std::vector<int>> candidates =
      SiaCandidateColumns(utility, configurations, free_gpus, options);
  // Classes of interchangeable jobs: free jobs with the same candidate columns and costs, in
  // order of their first job.
  std::map<std::vector<std::pair<int, double>>, int> class_of;
  std::vector<std::vector<int>> members;  // per class: its jobs in row order
  std::vector<std::vector<std::pair<int, double>>> class_columns;
  for (int i = 0; i < utility.rows; ++i) {
    if (forced[i]) {
      result.chosen[i] = forced[i];
      continue;
    }
    if (candidates[i].empty()) continue;
    std::vector<std::pair<int, double>> key;
    for (int c : candidates[i]) key.emplace_back(c, PrimaryCost(utility.at(i, c), options));
    auto [it, inserted] = class_of.emplace(key, static_cast<int>(members.size()));
    if (inserted) {
      members.emplace_back();
      class_columns.push_back(std::move(key));
    }
    members[it->second].push_back(i);
  }
  // The aggregated ILP: y[k,c] = number of class k's jobs in configuration c.
  // M exceeds the tie-break term's range: at most min(J, free GPUs) jobs are allocated, each
  // contributing at most C.
  int total_free = 0;
  for (int gpus : free_gpus) total_free += gpus;
  const double scale = static_cast<double>(std::min(utility.rows, total_free)) * utility.cols + 1;
  MilpProblem problem;
  problem.name = "sia_ilp";
  for (const std::vector<int>& jobs : members) {
    problem.AddRow(-kMilpInfinity, static_cast<double>(jobs.size()));
  }
  const int first_capacity_row = problem.num_rows;
  for (int gpus : free_gpus) problem.AddRow(-kMilpInfinity, gpus);
  std::vector<std::pair<int, int>> variable;  // (class, column) of each ILP column
  std::vector<double> primary;                // w of each ILP column
  for (std::size_t k = 0; k < members.size(); ++k) {
    for (const auto& [c, cost] : class_columns[k]) {
      const SiaConfiguration& config = configurations[c];
      const int most =
          std::min(static_cast<int>(members[k].size()), free_gpus[config.group] / config.num_gpus);
      const int column = problem.AddColumn(0.0, most, scale * cost - (utility.cols - c), true);
      problem.AddEntry(static_cast<int>(k), column, 1.0);
      problem.AddEntry(first_capacity_row + config.group, column, config.num_gpus);
      variable.emplace_back(static_cast<int>(k), c);
      primary.push_back(cost);
    }
  }
  if (problem.num_cols == 0) {
    result.status = MilpStatus::kOptimal;
  } else {
    TightenByReducedCosts(problem, primary);
    MilpOptions milp;
    milp.relative_gap = options.mip_relative_gap;
    milp.max_nodes = options.mip_max_nodes;
    const MilpSolution solution =
        session != nullptr ? session->Solve(problem, milp) : SolveWithCbc(problem, milp);
    result.status = solution.status;
    result.nodes = solution.nodes;
    if (solution.HasSolution()) {
      // Within a class, earlier jobs take lower columns (variables are in ascending column
      // order per class); the rest stay unallocated.
      std::vector<std::size_t> next(members.size(), 0);
      for (std::size_t v = 0; v < variable.size(); ++v) {
        const auto [k, c] = variable[v];
        for (long count = std::lround(solution.x[v]); count > 0; --count) {
          result.chosen[members[k][next[k]++]] = c;
        }
      }
    } else {
      for (int i = 0; i < utility.rows; ++i) result.chosen[i] = std::nullopt;
    }
  }
  result.objective = SiaReferenceObjective(utility, result.chosen, options);
  return result;
}

}  // namespace adaptsim
