// General window solver on CBC (shockwave_window_milp.hpp).
#include "shockwave_window_milp.hpp"

#include <algorithm>
#include <cmath>

#include "adaptsim/cbc_solver.hpp"

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

void AddJobRows(const WindowProblem& problem, int j, MilpProblem& milp, int p_col, int lambda0,
                int z0, int s_col, int m_col) {
  const WindowJob& job = problem.jobs[j];
  const int rounds = problem.num_rounds;
  const int bases = static_cast<int>(problem.bases.size());
  int row = milp.AddRow(-kMilpInfinity, 0.0);  // (C2) ē p - Δ Σ_t x <= 0
  milp.AddEntry(row, p_col, job.mean_epoch_s);
  for (int t = 0; t < rounds; ++t) milp.AddEntry(row, j * rounds + t, -problem.round_s);
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

WindowMilp BuildWindowMilp(const WindowProblem& problem) {
  WindowMilp window;
  MilpProblem& milp = window.milp;
  milp.maximize = true;
  const int num_jobs = static_cast<int>(problem.jobs.size());
  const int rounds = problem.num_rounds;
  const int bases = static_cast<int>(problem.bases.size());
  const double scale = static_cast<double>(num_jobs) * rounds;
  for (const WindowJob& job : problem.jobs) {
    // A job with constant utility gains nothing from a round and takes GPUs from the others:
    // x = 0 loses no optimum (the structured solver does not plan it either).
    const double upper = UtilityIsConstant(problem, job) ? 0.0 : 1.0;
    for (int t = 0; t < rounds; ++t) milp.AddColumn(0.0, upper, 0.0, true);
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
  for (int t = 0; t < rounds; ++t) {  // (C1)
    const int row = milp.AddRow(-kMilpInfinity, problem.num_gpus);
    for (int j = 0; j < num_jobs; ++j) milp.AddEntry(row, j * rounds + t, problem.jobs[j].gpus);
  }
  for (int j = 0; j < num_jobs; ++j) {
    AddJobRows(problem, j, milp, p0 + j, lambda0 + j * bases, z0 + j * bases, s0 + j, m_col);
  }
  window.objective_scale = NormaliseObjective(milp);
  return window;
}

WindowSolution SolveWindowGeneral(const WindowProblem& problem, const MilpOptions& options) {
  problem.Validate();
  WindowSolution solution;
  for (const WindowJob& job : problem.jobs) {
    if (job.max_shortfall_s + kCapTolerance_s < 0.0) {
      solution.status = WindowStatus::kInfeasible;
      return solution;
    }
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
