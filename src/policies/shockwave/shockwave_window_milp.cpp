// General window solver on CBC (shockwave_window_milp.hpp).
#include "shockwave_window_milp.hpp"

#include <algorithm>
#include <cmath>

#include "adaptsim/cbc_solver.hpp"
#include "adaptsim/error.hpp"

namespace adaptsim {
namespace {

constexpr double kCapTolerance_s = 1e-6;

/// True when (C3)-(C4) pin the job's λ to the last base: its progress already is β_last·E_j, so
/// p_j = 0 and its log utility is the constant π_j L_last/(N T) whatever its rounds (a job with no
/// work left; docs/shockwave.md, "A job with no work left").
bool UtilityIsConstant(const WindowProblem& problem, const WindowJob& job) {
  return job.progress >= problem.bases.back() * job.epochs;
}

/// Divides the objective by max(1, max |c|); returns the factor.
double NormaliseObjective(MilpProblem& milp) {
  double largest = 1.0;
  for (double c : milp.objective) largest = std::max(largest, std::abs(c));
  for (double& c : milp.objective) c /= largest;
  return largest;
}

WindowStatus FromMilp(MilpStatus status) {
  switch (status) {
    case MilpStatus::kOptimal:
      return WindowStatus::kOptimal;
    case MilpStatus::kFeasible:
      return WindowStatus::kFeasible;
    case MilpStatus::kInfeasible:
      return WindowStatus::kInfeasible;
    case MilpStatus::kLimitReached:
      return WindowStatus::kLimitReached;
    case MilpStatus::kError:
      return WindowStatus::kError;
  }
  return WindowStatus::kError;
}

/// The rows of job j; `x_speed` lists its round columns with their speeds (C2: ē p <= Δ Σ r x).
void AddJobRows(const WindowProblem& problem, int j,
                const std::vector<std::pair<int, double>>& x_speed, MilpProblem& milp, int p_col,
                int lambda0, int z0, int s_col, int m_col) {
  const WindowJob& job = problem.jobs[j];
  const int bases = static_cast<int>(problem.bases.size());
  int row = milp.AddRow(-kMilpInfinity, 0.0);  // (C2) ē p - Δ Σ_t r x <= 0
  milp.AddEntry(row, p_col, job.mean_epoch_s);
  for (const auto& [col, r] : x_speed) milp.AddEntry(row, col, -problem.round_s * r);
  row = milp.AddRow(job.progress / job.epochs, job.progress / job.epochs);  // (C3)
  milp.AddEntry(row, p_col, -1.0 / job.epochs);
  for (int b = 0; b < bases; ++b) milp.AddEntry(row, lambda0 + b, problem.bases[b]);
  row = milp.AddRow(1.0, 1.0);  // (C4)
  for (int b = 0; b < bases; ++b) milp.AddEntry(row, lambda0 + b, 1.0);
  row = milp.AddRow(-kMilpInfinity, 2.0);  // (C5) Σ z <= 2
  for (int b = 0; b < bases; ++b) milp.AddEntry(row, z0 + b, 1.0);
  for (int b = 0; b < bases; ++b) {  // λ <= z
    row = milp.AddRow(-kMilpInfinity, 0.0);
    milp.AddEntry(row, lambda0 + b, 1.0);
    milp.AddEntry(row, z0 + b, -1.0);
  }
  for (int l = 0; l + 2 < bases; ++l) {  // non-adjacent pairs
    for (int r = l + 2; r < bases; ++r) {
      row = milp.AddRow(-kMilpInfinity, 1.0);
      milp.AddEntry(row, z0 + l, 1.0);
      milp.AddEntry(row, z0 + r, 1.0);
    }
  }
  row = milp.AddRow(job.remaining_s, kMilpInfinity);  // s + ē p >= R
  milp.AddEntry(row, s_col, 1.0);
  milp.AddEntry(row, p_col, job.mean_epoch_s);
  row = milp.AddRow(0.0, kMilpInfinity);  // M - s >= 0
  milp.AddEntry(row, m_col, 1.0);
  milp.AddEntry(row, s_col, -1.0);
}

}  // namespace

namespace {

/// The window MILP with `types` x columns per (job, round) at (j·T + t)·types + k: one type gives
/// the one-type MILP (C1) exactly; several add per-type capacity and one type per (job, round).
WindowMilp BuildMilp(const WindowProblem& problem, int types) {
  WindowMilp window;
  MilpProblem& milp = window.milp;
  milp.maximize = true;
  const bool typed = !problem.gpus_by_type.empty();
  const int num_jobs = static_cast<int>(problem.jobs.size());
  const int rounds = problem.num_rounds;
  const int bases = static_cast<int>(problem.bases.size());
  const double scale = static_cast<double>(num_jobs) * rounds;
  const auto runs_on = [&](const WindowJob& job, int k) {
    return !typed || (job.speed[k] > 0.0 && job.gpus <= problem.gpus_by_type[k]);
  };
  for (const WindowJob& job : problem.jobs) {
    // A job with constant utility gains nothing from a round and takes GPUs from the others:
    // x = 0 loses no optimum (the structured solver does not plan it either).
    const double upper = UtilityIsConstant(problem, job) ? 0.0 : 1.0;
    for (int t = 0; t < rounds; ++t) {
      for (int k = 0; k < types; ++k) milp.AddColumn(0.0, runs_on(job, k) ? upper : 0.0, 0.0, true);
    }
  }
  const int p0 = milp.num_cols;
  for (int j = 0; j < num_jobs; ++j) milp.AddColumn(0.0, kMilpInfinity, 0.0, false);
  const int lambda0 = milp.num_cols;
  for (const WindowJob& job : problem.jobs) {
    // A pinned job's term is a constant: kept out of the MILP, so that its weight (the fallback's
    // ρ̂^100 reaches 1e92) does not set the normalisation and erase every other coefficient.
    const bool constant = UtilityIsConstant(problem, job);
    if (constant) window.objective_constant += job.weight * problem.log_values.back() / scale;
    for (int b = 0; b < bases; ++b) {
      milp.AddColumn(0.0, 1.0, constant ? 0.0 : job.weight * problem.log_values[b] / scale, false);
    }
  }
  const int z0 = milp.num_cols;
  for (int i = 0; i < num_jobs * bases; ++i) milp.AddBinary(0.0);
  const int s0 = milp.num_cols;
  for (int j = 0; j < num_jobs; ++j) {
    const double cap = problem.jobs[j].max_shortfall_s;
    milp.AddColumn(0.0, std::isfinite(cap) ? std::max(0.0, cap + kCapTolerance_s) : kMilpInfinity,
                   0.0, false);
  }
  const int m_col = milp.AddColumn(0.0, kMilpInfinity, -problem.k, false);
  const auto x_col = [&](int j, int t, int k) { return (j * rounds + t) * types + k; };
  for (int t = 0; t < rounds; ++t) {  // (C1), per type
    for (int k = 0; k < types; ++k) {
      const int row =
          milp.AddRow(-kMilpInfinity, typed ? problem.gpus_by_type[k] : problem.num_gpus);
      for (int j = 0; j < num_jobs; ++j) milp.AddEntry(row, x_col(j, t, k), problem.jobs[j].gpus);
    }
  }
  if (types > 1) {
    for (int j = 0; j < num_jobs; ++j) {  // one type per (job, round)
      for (int t = 0; t < rounds; ++t) {
        const int row = milp.AddRow(-kMilpInfinity, 1.0);
        for (int k = 0; k < types; ++k) milp.AddEntry(row, x_col(j, t, k), 1.0);
      }
    }
  }
  std::vector<std::pair<int, double>> x_speed;
  for (int j = 0; j < num_jobs; ++j) {
    x_speed.clear();
    for (int t = 0; t < rounds; ++t) {
      for (int k = 0; k < types; ++k) {
        x_speed.push_back({x_col(j, t, k), typed ? problem.jobs[j].speed[k] : 1.0});
      }
    }
    AddJobRows(problem, j, x_speed, milp, p0 + j, lambda0 + j * bases, z0 + j * bases, s0 + j,
               m_col);
  }
  window.objective_scale = NormaliseObjective(milp);
  return window;
}

bool CapsImpossible(const WindowProblem& problem) {
  for (const WindowJob& job : problem.jobs) {
    if (job.max_shortfall_s + kCapTolerance_s < 0.0) return true;
  }
  return false;
}

}  // namespace

WindowMilp BuildWindowMilp(const WindowProblem& problem) {
  return BuildMilp(problem, 1);
}

WindowMilp BuildTypedWindowMilp(const WindowProblem& problem) {
  return BuildMilp(problem, static_cast<int>(problem.gpus_by_type.size()));
}

TypedWindowSolution SolveTypedWindowGeneral(const WindowProblem& problem,
                                            const MilpOptions& options) {
  problem.Validate();
  TypedWindowSolution solution;
  if (problem.gpus_by_type.empty()) {
    throw InputError("window_problem", 0, "gpus_by_type",
                     "the MILP for several GPU types needs the GPUs of each type");
  }
  if (CapsImpossible(problem)) {
    solution.status = WindowStatus::kInfeasible;
    return solution;
  }
  const WindowMilp window = BuildTypedWindowMilp(problem);
  const MilpSolution result = SolveWithCbc(window.milp, options);
  solution.status = FromMilp(result.status);
  solution.nodes = result.nodes;
  if (!result.HasSolution()) return solution;
  const int rounds = problem.num_rounds;
  const int types = static_cast<int>(problem.gpus_by_type.size());
  solution.y.assign(problem.jobs.size(), std::vector<int>(rounds, -1));
  for (std::size_t j = 0; j < problem.jobs.size(); ++j) {
    for (int t = 0; t < rounds; ++t) {
      for (int k = 0; k < types; ++k) {
        if (result.x[(j * rounds + t) * types + k] >= 0.5) solution.y[j][t] = k;
      }
    }
    solution.effective_rounds.push_back(EffectiveRounds(problem.jobs[j], solution.y[j]));
  }
  solution.objective = WindowObjective(problem, solution.effective_rounds);
  return solution;
}

WindowSolution SolveWindowGeneral(const WindowProblem& problem, const MilpOptions& options) {
  problem.Validate();
  WindowSolution solution;
  if (CapsImpossible(problem)) {
    solution.status = WindowStatus::kInfeasible;
    return solution;
  }
  const WindowMilp window = BuildWindowMilp(problem);
  const MilpSolution result = SolveWithCbc(window.milp, options);
  solution.status = FromMilp(result.status);
  solution.nodes = result.nodes;
  solution.solve_time_s = result.solve_time_s;
  if (!result.HasSolution()) return solution;
  const int rounds = problem.num_rounds;
  solution.x.assign(problem.jobs.size(), std::vector<char>(rounds, 0));
  solution.rounds.assign(problem.jobs.size(), 0);
  for (std::size_t j = 0; j < problem.jobs.size(); ++j) {
    for (int t = 0; t < rounds; ++t) {
      if (result.x[j * rounds + t] >= 0.5) solution.x[j][t] = 1, ++solution.rounds[j];
    }
  }
  solution.objective = WindowObjective(problem, solution.rounds);
  solution.bound = result.bound * window.objective_scale + window.objective_constant;
  return solution;
}

WindowSchedule SolveRankingGeneral(const std::vector<int>& gpus, const std::vector<int>& rounds,
                                   const std::vector<double>& priority, int num_gpus,
                                   int num_rounds, const MilpOptions& options) {
  const int num_jobs = static_cast<int>(gpus.size());
  MilpProblem milp;
  bool any = false;
  for (int j = 0; j < num_jobs; ++j) {
    for (int t = 0; t < num_rounds; ++t) {
      const double cost = rounds[j] > 0 ? priority[j] * t / rounds[j] : 0.0;
      milp.AddBinary(cost);
      any = any || rounds[j] > 0;
    }
  }
  if (!any) return WindowSchedule(num_jobs, std::vector<char>(num_rounds, 0));
  for (int j = 0; j < num_jobs; ++j) {
    const int row = milp.AddRow(rounds[j], rounds[j]);
    for (int t = 0; t < num_rounds; ++t) milp.AddEntry(row, j * num_rounds + t, 1.0);
  }
  for (int t = 0; t < num_rounds; ++t) {
    const int row = milp.AddRow(-kMilpInfinity, num_gpus);
    for (int j = 0; j < num_jobs; ++j) milp.AddEntry(row, j * num_rounds + t, gpus[j]);
  }
  NormaliseObjective(milp);
  const MilpSolution result = SolveWithCbc(milp, options);
  if (!result.HasSolution()) return {};
  WindowSchedule y(num_jobs, std::vector<char>(num_rounds, 0));
  for (int j = 0; j < num_jobs; ++j) {
    for (int t = 0; t < num_rounds; ++t) y[j][t] = result.x[j * num_rounds + t] >= 0.5 ? 1 : 0;
  }
  return y;
}

}  // namespace adaptsim
