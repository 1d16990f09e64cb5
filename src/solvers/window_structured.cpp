// The structured window solver (window_structured.hpp; docs/shockwave.md).
#include "adaptsim/window_structured.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <queue>
#include <utility>

#include "adaptsim/error.hpp"

namespace adaptsim {
namespace {

constexpr double kShortfallTolerance_s = 1e-6;
constexpr std::size_t kDenseLevels = 32;

void Require(bool ok, const std::string& field, const std::string& message) {
  if (!ok) throw InputError("window_problem", 0, field, message);
}

/// Per-job tables over n = 0..T of u_j(n) and s_j(n).
struct Tables {
  std::vector<std::vector<double>> utility;
  std::vector<std::vector<double>> shortfall;
};

Tables BuildTables(const WindowProblem& problem) {
  Tables tables;
  for (const WindowJob& job : problem.jobs) {
    std::vector<double> u(problem.num_rounds + 1), s(problem.num_rounds + 1);
    for (int n = 0; n <= problem.num_rounds; ++n) {
      u[n] = WeightedLogUtility(problem, job, n);
      s[n] = Shortfall(problem, job, n);
    }
    tables.utility.push_back(std::move(u));
    tables.shortfall.push_back(std::move(s));
  }
  return tables;
}

/// Greedy fill of the rounds above `lower` by marginal utility per GPU, under exact layout
/// feasibility (incremental placement first, the full greedy layout when that fails).
class Filler {
 public:
  Filler(const WindowProblem& problem, const Tables& tables) : problem_(problem), tables_(tables) {
    for (const WindowJob& job : problem.jobs) gpus_.push_back(job.gpus);
  }

  std::vector<int> Fill(std::vector<int> n) const {
    const int num_jobs = static_cast<int>(n.size());
    const int rounds = problem_.num_rounds;
    WindowSchedule x = BalancedLayout(gpus_, n, problem_.num_gpus, rounds);
    std::vector<int> residual = Residual(x);
    long used = 0;
    for (int j = 0; j < num_jobs; ++j) used += static_cast<long>(gpus_[j]) * n[j];
    const long capacity = static_cast<long>(problem_.num_gpus) * rounds;
    std::priority_queue<std::pair<double, int>> heap;
    for (int j = 0; j < num_jobs; ++j) Push(heap, j, n[j]);
    while (!heap.empty()) {
      const int j = -heap.top().second;
      heap.pop();
      if (used + gpus_[j] > capacity) continue;
      if (!PlaceOne(x, residual, j)) {
        ++n[j];
        if (!LayoutFeasible(gpus_, n, problem_.num_gpus, rounds)) {
          --n[j];
          continue;
        }
        BalancedLayoutInto(gpus_, n, problem_.num_gpus, rounds, x);
        residual = Residual(x);
      } else {
        ++n[j];
      }
      used += gpus_[j];
      Push(heap, j, n[j]);
    }
    return n;
  }

 private:
  void Push(std::priority_queue<std::pair<double, int>>& heap, int j, int n) const {
    if (n >= problem_.num_rounds) return;
    const double gain = (tables_.utility[j][n + 1] - tables_.utility[j][n]) / gpus_[j];
    if (gain > 0.0) heap.push({gain, -j});
  }

  std::vector<int> Residual(const WindowSchedule& x) const {
    std::vector<int> residual(problem_.num_rounds, problem_.num_gpus);
    for (std::size_t j = 0; j < x.size(); ++j) {
      for (int t = 0; t < problem_.num_rounds; ++t) residual[t] -= x[j][t] ? gpus_[j] : 0;
    }
    return residual;
  }

  bool PlaceOne(WindowSchedule& x, std::vector<int>& residual, int j) const {
    int best = -1;
    for (int t = 0; t < problem_.num_rounds; ++t) {
      if (x[j][t] || residual[t] < gpus_[j]) continue;
      if (best < 0 || residual[t] > residual[best]) best = t;
    }
    if (best < 0) return false;
    x[j][best] = 1;
    residual[best] -= gpus_[j];
    return true;
  }

  const WindowProblem& problem_;
  const Tables& tables_;
  std::vector<int> gpus_;
};

/// Local improvement of a filled solution: for each job, grant one more round, make room by
/// taking rounds from the other jobs with the smallest utility loss per GPU (never below
/// `floor`), refill, and keep the result when Φ improves. Repeats until no move improves.
/// Catches the knapsack effects of the greedy fill (a gang of 8 blocked by small jobs).
std::vector<int> Improve(const WindowProblem& problem, const Tables& tables, const Filler& filler,
                         std::vector<int> n, const std::vector<int>& floor) {
  std::vector<int> gpus;
  for (const WindowJob& job : problem.jobs) gpus.push_back(job.gpus);
  const int num_jobs = static_cast<int>(n.size());
  double value = WindowObjective(problem, n);
  for (int pass = 0; pass < 8; ++pass) {
    bool improved = false;
    for (int j = 0; j < num_jobs; ++j) {
      if (n[j] >= problem.num_rounds ||
          tables.utility[j][n[j] + 1] - tables.utility[j][n[j]] <= 0.0) {
        continue;
      }
      std::vector<int> m = n;
      ++m[j];
      while (!LayoutFeasible(gpus, m, problem.num_gpus, problem.num_rounds)) {
        int victim = -1;
        double least = std::numeric_limits<double>::infinity();
        for (int i = 0; i < num_jobs; ++i) {
          if (i == j || m[i] <= floor[i]) continue;
          const double loss = (tables.utility[i][m[i]] - tables.utility[i][m[i] - 1]) / gpus[i];
          if (loss < least) least = loss, victim = i;
        }
        if (victim < 0) break;
        --m[victim];
      }
      if (!LayoutFeasible(gpus, m, problem.num_gpus, problem.num_rounds)) continue;
      m = filler.Fill(std::move(m));
      const double candidate = WindowObjective(problem, m);
      if (candidate > value + 1e-12 * std::abs(value)) {
        n = std::move(m);
        value = candidate;
        improved = true;
      }
    }
    if (!improved) break;
  }
  return n;
}

/// Continuous relaxation of the fill above `lower` with the aggregate capacity G·T only.
double RelaxationBound(const WindowProblem& problem, const Tables& tables,
                       const std::vector<int>& lower) {
  struct Item {
    double density;
    double gain;
    int gpus;
  };
  std::vector<Item> items;
  double value = 0.0;
  double capacity = static_cast<double>(problem.num_gpus) * problem.num_rounds;
  for (std::size_t j = 0; j < lower.size(); ++j) {
    const int w = problem.jobs[j].gpus;
    value += tables.utility[j][lower[j]];
    capacity -= static_cast<double>(w) * lower[j];
    for (int n = lower[j]; n < problem.num_rounds; ++n) {
      const double gain = tables.utility[j][n + 1] - tables.utility[j][n];
      if (gain > 0.0) items.push_back({gain / w, gain, w});
    }
  }
  std::sort(items.begin(), items.end(),
            [](const Item& a, const Item& b) { return a.density > b.density; });
  for (const Item& item : items) {
    if (capacity <= 0.0) break;
    const double take = std::min(1.0, capacity / item.gpus);
    value += take * item.gain;
    capacity -= take * item.gpus;
  }
  return value;
}

/// Smallest n >= floor[j] with s_j(n) <= level, for every job.
std::vector<int> LowerBoundsAt(const Tables& tables, const std::vector<int>& floor, double level) {
  std::vector<int> lower(floor);
  for (std::size_t j = 0; j < floor.size(); ++j) {
    const std::vector<double>& s = tables.shortfall[j];
    while (lower[j] + 1 < static_cast<int>(s.size()) && s[lower[j]] > level) ++lower[j];
  }
  return lower;
}

}  // namespace

void WindowProblem::Validate() const {
  Require(num_gpus >= 1, "num_gpus", "must be >= 1");
  Require(num_rounds >= 1, "num_rounds", "must be >= 1");
  Require(round_s > 0.0 && std::isfinite(round_s), "round_s", "must be > 0");
  Require(k >= 0.0 && std::isfinite(k), "k", "must be >= 0");
  Require(bases.size() >= 2 && bases.size() == log_values.size(), "bases",
          "need >= 2 bases and one log value per base");
  for (std::size_t b = 1; b < bases.size(); ++b) {
    Require(bases[b] > bases[b - 1] && log_values[b] > log_values[b - 1], "bases",
            "bases and log values must increase");
  }
  for (const WindowJob& job : jobs) {
    Require(job.gpus >= 1 && job.gpus <= num_gpus, "jobs.gpus", "gang size outside [1, G]");
    Require(job.epochs > 0.0 && job.mean_epoch_s > 0.0 && job.remaining_s >= 0.0 &&
                job.progress >= 0.0 && job.weight > 0.0,
            "jobs", "epochs, mean epoch and weight must be > 0; progress, remaining >= 0");
    Require(std::isfinite(job.remaining_s) && std::isfinite(job.weight) &&
                !std::isnan(job.max_shortfall_s),
            "jobs", "non-finite job data");
  }
}

std::string ToString(WindowStatus status) {
  switch (status) {
    case WindowStatus::kOptimal:
      return "optimal";
    case WindowStatus::kFeasible:
      return "feasible";
    case WindowStatus::kInfeasible:
      return "infeasible";
    case WindowStatus::kLimitReached:
      return "limit_reached";
    case WindowStatus::kError:
      return "error";
  }
  return "error";
}

double PlannedEpochs(const WindowProblem& problem, const WindowJob& job, int n) {
  const double by_time = problem.round_s * n / job.mean_epoch_s;
  const double by_work = problem.bases.back() * job.epochs - job.progress;
  return std::max(0.0, std::min(by_time, by_work));
}

double Shortfall(const WindowProblem& problem, const WindowJob& job, int n) {
  return std::max(0.0, job.remaining_s - job.mean_epoch_s * PlannedEpochs(problem, job, n));
}

double WeightedLogUtility(const WindowProblem& problem, const WindowJob& job, int n) {
  const std::vector<double>& beta = problem.bases;
  const std::vector<double>& value = problem.log_values;
  double x = (job.progress + PlannedEpochs(problem, job, n)) / job.epochs;
  x = std::clamp(x, beta.front(), beta.back());
  std::size_t b = 0;
  while (b + 2 < beta.size() && x > beta[b + 1]) ++b;
  const double f = value[b] + (value[b + 1] - value[b]) * (x - beta[b]) / (beta[b + 1] - beta[b]);
  const double scale = static_cast<double>(problem.jobs.size()) * problem.num_rounds;
  return job.weight * f / scale;
}

double WindowObjective(const WindowProblem& problem, const std::vector<int>& rounds) {
  double utility = 0.0, level = 0.0;
  for (std::size_t j = 0; j < problem.jobs.size(); ++j) {
    const WindowJob& job = problem.jobs[j];
    const double s = Shortfall(problem, job, rounds[j]);
    if (s > job.max_shortfall_s + kShortfallTolerance_s) {
      return -std::numeric_limits<double>::infinity();
    }
    utility += WeightedLogUtility(problem, job, rounds[j]);
    level = std::max(level, s);
  }
  return utility - problem.k * level;
}

WindowSolution SolveWindowStructured(const WindowProblem& problem) {
  const auto start = std::chrono::steady_clock::now();
  problem.Validate();
  WindowSolution solution;
  const int num_jobs = static_cast<int>(problem.jobs.size());
  const int rounds = problem.num_rounds;
  const Tables tables = BuildTables(problem);
  std::vector<int> gpus, floor(num_jobs, 0);
  std::vector<double> priority;
  for (const WindowJob& job : problem.jobs)
    gpus.push_back(job.gpus), priority.push_back(job.weight);
  // Finish-time caps (C6) give lower bounds on n_j.
  for (int j = 0; j < num_jobs; ++j) {
    const double cap = problem.jobs[j].max_shortfall_s + kShortfallTolerance_s;
    while (floor[j] <= rounds && tables.shortfall[j][floor[j]] > cap) ++floor[j];
    if (floor[j] > rounds) {
      solution.status = WindowStatus::kInfeasible;
      return solution;
    }
  }
  if (!LayoutFeasible(gpus, floor, problem.num_gpus, rounds)) {
    solution.status = WindowStatus::kInfeasible;
    return solution;
  }
  // Candidate max-remaining levels: the values s_j(n) reachable above the floors.
  double min_level = 0.0;
  std::vector<double> levels;
  for (int j = 0; j < num_jobs; ++j) {
    min_level = std::max(min_level, tables.shortfall[j][rounds]);
    for (int n = floor[j]; n <= rounds; ++n) levels.push_back(tables.shortfall[j][n]);
  }
  levels.push_back(min_level);
  std::sort(levels.begin(), levels.end());
  levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
  levels.erase(levels.begin(), std::lower_bound(levels.begin(), levels.end(), min_level));
  // Bisection for the smallest feasible level (feasibility is monotone in the level).
  std::size_t lo = 0, hi = levels.size() - 1;
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    if (LayoutFeasible(gpus, LowerBoundsAt(tables, floor, levels[mid]), problem.num_gpus, rounds)) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  const double utility_bound = RelaxationBound(problem, tables, floor);
  const Filler filler(problem, tables);
  double best = -std::numeric_limits<double>::infinity();
  std::vector<int> best_n, previous;
  // Levels are evaluated consecutively from the smallest feasible one; beyond kDenseLevels
  // distinct levels only every stride-th is (large windows with thousands of levels).
  std::size_t evaluated = 0;
  for (std::size_t i = lo; i < levels.size(); ++i) {
    if (utility_bound - problem.k * levels[i] < best) break;
    std::vector<int> lower = LowerBoundsAt(tables, floor, levels[i]);
    if (lower == previous) continue;
    previous = lower;
    if (++evaluated > kDenseLevels &&
        (evaluated - kDenseLevels) % ((levels.size() - lo) / kDenseLevels + 1) != 0) {
      continue;
    }
    std::vector<int> n = filler.Fill(std::move(lower));
    ++solution.nodes;
    const double value = WindowObjective(problem, n);
    if (value > best) best = value, best_n = std::move(n);
  }
  best_n = Improve(problem, tables, filler, std::move(best_n), floor);
  best = WindowObjective(problem, best_n);
  solution.rounds = best_n;
  solution.objective = best;
  solution.bound = utility_bound - problem.k * levels[lo];
  const double gap = (solution.bound - best) / std::max(1e-10, std::abs(best));
  solution.status = gap <= 1e-9 ? WindowStatus::kOptimal : WindowStatus::kFeasible;
  solution.x = RankedLayout(gpus, best_n, priority, problem.num_gpus, rounds);
  solution.solve_time_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return solution;
}

}  // namespace adaptsim
