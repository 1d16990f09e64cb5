// The window problem on several GPU types (window_heterogeneous.hpp; docs/shockwave.md,
// "Shockwave on mixed GPUs").
#include "window_heterogeneous.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <queue>
#include <set>
#include <tuple>

#include "adaptsim/error.hpp"

namespace adaptsim {
namespace {

constexpr double kShortfallTolerance_s = 1e-6;
constexpr int kBisectionSteps = 20;
/// Levels tried above the smallest feasible one, as fractions of the way to the level without
/// minimums.
constexpr std::array<double, 4> kLevelFractions = {0.125, 0.25, 0.5, 1.0};
/// The local search evaluates Φ in O(N) for each of its O(N² T K) candidate moves per pass; it runs
/// when N² T K is at most this (small windows), else the greedy result stands.
constexpr double kFullNeighbourhoodSize = 2e6;
constexpr int kMaxImprovePasses = 50;
/// Levels of the ejection chain of the local search's eviction move, and the largest window
/// (N T K) it runs on.
constexpr int kEjectionDepth = 2;
constexpr double kEjectionSize = 600;

/// A partial layout with per-(round, type) free capacity and each job's effective rounds.
class TypedLayout {
 public:
  explicit TypedLayout(const WindowProblem& problem)
      : problem_(problem),
        num_jobs_(static_cast<int>(problem.jobs.size())),
        num_rounds_(problem.num_rounds),
        num_types_(static_cast<int>(problem.gpus_by_type.size())),
        y_(num_jobs_, std::vector<int>(num_rounds_, -1)),
        free_(num_rounds_, problem.gpus_by_type),
        effective_(num_jobs_, 0.0),
        count_(num_jobs_, 0) {}

  int num_jobs() const { return num_jobs_; }
  int num_rounds() const { return num_rounds_; }
  int num_types() const { return num_types_; }
  const TypedWindowSchedule& y() const { return y_; }
  const std::vector<double>& effective() const { return effective_; }
  int count(int j) const { return count_[j]; }
  int free(int t, int k) const { return free_[t][k]; }
  int gpus(int j) const { return problem_.jobs[j].gpus; }
  double speed(int j, int k) const { return problem_.jobs[j].speed[k]; }

  /// The job can run on type k at all.
  bool Eligible(int j, int k) const {
    return speed(j, k) > 0.0 && gpus(j) <= problem_.gpus_by_type[k];
  }
  /// The round without j with the most free GPUs of type k (earliest among equals) that fits
  /// j's gang, or -1.
  int BestRound(int j, int k) const {
    int best = -1;
    for (int t = 0; t < num_rounds_; ++t) {
      if (y_[j][t] >= 0 || free_[t][k] < gpus(j)) continue;
      if (best < 0 || free_[t][k] > free_[best][k]) best = t;
    }
    return best;
  }
  void Place(int j, int t, int k) {
    y_[j][t] = k;
    free_[t][k] -= gpus(j);
    effective_[j] += speed(j, k);
    ++count_[j];
  }
  void Unplace(int j, int t) {
    const int k = y_[j][t];
    y_[j][t] = -1;
    free_[t][k] += gpus(j);
    effective_[j] -= speed(j, k);
    --count_[j];
  }

 private:
  const WindowProblem& problem_;
  int num_jobs_, num_rounds_, num_types_;
  TypedWindowSchedule y_;
  std::vector<std::vector<int>> free_;
  std::vector<double> effective_;
  std::vector<int> count_;
};

/// Φ(e) under changes of single jobs' effective rounds: the utility sum and the shortfalls (a
/// multiset for the maximum), O(log N) per change.
class Tracker {
 public:
  Tracker(const WindowProblem& problem, const std::vector<double>& effective)
      : problem_(problem), utility_(effective.size()), shortfall_(effective.size()) {
    for (std::size_t j = 0; j < effective.size(); ++j) {
      utility_[j] = WeightedLogUtility(problem, problem.jobs[j], effective[j]);
      shortfall_[j] = Shortfall(problem, problem.jobs[j], effective[j]);
      total_ += utility_[j];
      levels_.insert(shortfall_[j]);
      violations_ += Violates(j) ? 1 : 0;
    }
  }
  void Set(int j, double effective) {
    violations_ -= Violates(j) ? 1 : 0;
    total_ -= utility_[j];
    levels_.erase(levels_.find(shortfall_[j]));
    utility_[j] = WeightedLogUtility(problem_, problem_.jobs[j], effective);
    shortfall_[j] = Shortfall(problem_, problem_.jobs[j], effective);
    total_ += utility_[j];
    levels_.insert(shortfall_[j]);
    violations_ += Violates(j) ? 1 : 0;
  }
  double utility(int j) const { return utility_[j]; }
  /// Whether s_j is within 1e-9 s of the largest shortfall (only such a job can lower it).
  bool AtMax(int j) const { return shortfall_[j] >= *levels_.rbegin() - 1e-9; }
  bool Violates(int j) const {
    return shortfall_[j] > problem_.jobs[j].max_shortfall_s + kShortfallTolerance_s;
  }
  double Value() const {
    if (violations_ > 0) return -std::numeric_limits<double>::infinity();
    return total_ - problem_.k * std::max(0.0, *levels_.rbegin());
  }

 private:
  const WindowProblem& problem_;
  std::vector<double> utility_, shortfall_;
  std::multiset<double> levels_;
  double total_ = 0.0;
  int violations_ = 0;
};

class Solver {
 public:
  explicit Solver(const WindowProblem& problem) : problem_(problem) {
    for (const WindowJob& job : problem.jobs) {
      // A job whose progress is already at the last base has a constant utility (docs/shockwave.md,
      // "A job with no work left"): it is never planned, as on one type.
      constant_.push_back(job.progress >= problem.bases.back() * job.epochs);
    }
  }

  /// The smallest effective rounds with s_j <= min(level, cap_j); negative if impossible.
  double Need(int j, double level) const {
    const WindowJob& job = problem_.jobs[j];
    const double bound = std::min(level, job.max_shortfall_s);
    if (job.remaining_s <= bound + kShortfallTolerance_s) return 0.0;
    const double by_work = job.mean_epoch_s * (problem_.bases.back() * job.epochs - job.progress);
    if (by_work < job.remaining_s - bound - kShortfallTolerance_s) return -1.0;
    return std::max(0.0, (job.remaining_s - bound - kShortfallTolerance_s) / problem_.round_s);
  }

  /// Minimum phase: every job reaches Need(level), largest requirement (w_j · need_j) first, each
  /// on its fastest type with room. nullopt-like false when some job cannot.
  bool Minimum(double level, TypedLayout& layout) const {
    const int num_jobs = layout.num_jobs();
    std::vector<std::pair<double, int>> order;
    std::vector<double> need(num_jobs, 0.0);
    for (int j = 0; j < num_jobs; ++j) {
      need[j] = Need(j, level);
      if (need[j] < 0.0) return false;
      if (need[j] > 0.0) order.push_back({-need[j] * layout.gpus(j), j});
    }
    std::sort(order.begin(), order.end());
    std::vector<int> types(layout.num_types()), candidates;
    for (const auto& entry : order) {
      const int j = entry.second;
      // Fastest type first; on each type the rounds with the most free GPUs (earliest among
      // equals), as many as the job still needs: the same as taking them one at a time.
      std::iota(types.begin(), types.end(), 0);
      std::stable_sort(types.begin(), types.end(),
                       [&](int a, int b) { return layout.speed(j, a) > layout.speed(j, b); });
      for (int k : types) {
        if (layout.effective()[j] >= need[j]) break;
        if (!layout.Eligible(j, k)) continue;
        candidates.clear();
        for (int t = 0; t < layout.num_rounds(); ++t) {
          if (layout.y()[j][t] < 0 && layout.free(t, k) >= layout.gpus(j)) candidates.push_back(t);
        }
        std::stable_sort(candidates.begin(), candidates.end(),
                         [&](int a, int b) { return layout.free(a, k) > layout.free(b, k); });
        for (int t : candidates) {
          if (layout.effective()[j] >= need[j]) break;
          layout.Place(j, t, k);
        }
      }
      if (layout.effective()[j] < need[j]) return false;
    }
    return true;
  }

  /// Greedy fill by marginal utility per GPU over (job, type) pairs. The best pair of a job is its
  /// fastest type that still has a round for it (u_j increases), so the heap holds one entry per
  /// job: (gain per GPU, -job, -type, the job's round count when computed).
  void Fill(TypedLayout& layout) const {
    using Entry = std::tuple<double, int, int, int>;
    std::priority_queue<Entry> heap;
    // dead[j·K + k]: type k has no round left for j (never revived: the fill only takes room).
    std::vector<char> dead(static_cast<std::size_t>(layout.num_jobs()) * layout.num_types(), 0);
    const auto push = [&](int j) {
      if (constant_[j] || layout.count(j) >= layout.num_rounds()) return;
      int best = -1;
      for (int k = 0; k < layout.num_types(); ++k) {
        if (dead[j * layout.num_types() + k] || !layout.Eligible(j, k)) continue;
        if (best < 0 || layout.speed(j, k) > layout.speed(j, best)) best = k;
      }
      if (best < 0) return;
      const WindowJob& job = problem_.jobs[j];
      const double e = layout.effective()[j];
      const double gain = (WeightedLogUtility(problem_, job, e + layout.speed(j, best)) -
                           WeightedLogUtility(problem_, job, e)) /
                          layout.gpus(j);
      if (gain > 0.0) heap.push({gain, -j, -best, layout.count(j)});
    };
    for (int j = 0; j < layout.num_jobs(); ++j) push(j);
    while (!heap.empty()) {
      const auto [gain, mj, mk, version] = heap.top();
      heap.pop();
      const int j = -mj, k = -mk;
      if (version != layout.count(j)) {
        push(j);
        continue;
      }
      const int t = layout.BestRound(j, k);
      if (t < 0) {
        dead[j * layout.num_types() + k] = 1;
      } else {
        layout.Place(j, t, k);
      }
      push(j);
    }
  }

  /// A change of the layout, for undoing: (job, round, type placed; -1 = unplaced from type).
  struct Op {
    int job, round, type;
    bool placed;
  };
  void Apply(TypedLayout& layout, Tracker& tracker, std::vector<Op>& log, int j, int t,
             int k) const {
    if (k >= 0) {
      layout.Place(j, t, k);
    } else {
      k = layout.y()[j][t];
      layout.Unplace(j, t);
    }
    tracker.Set(j, layout.effective()[j]);
    log.push_back({j, t, k, layout.y()[j][t] >= 0});
  }
  void Undo(TypedLayout& layout, Tracker& tracker, std::vector<Op>& log, std::size_t to) const {
    while (log.size() > to) {
      const Op op = log.back();
      log.pop_back();
      if (op.placed) {
        layout.Unplace(op.job, op.round);
      } else {
        layout.Place(op.job, op.round, op.type);
      }
      tracker.Set(op.job, layout.effective()[op.job]);
    }
  }

  /// Inserts job i into (t, k), evicting the jobs there with the least utility loss per GPU until
  /// it fits; each evicted job goes to its fastest type with room in a round it does not use, or,
  /// with depth > 0, to the best place found by the same move one level down (an ejection chain).
  /// false (nothing changed) when i cannot fit even after evicting everyone.
  bool InsertWithEviction(TypedLayout& layout, Tracker& tracker, std::vector<Op>& log, int i, int t,
                          int k, int depth) const {
    std::vector<std::pair<double, int>> occupants;  // (utility loss per GPU, job)
    for (int j = 0; j < layout.num_jobs(); ++j) {
      if (j == i || layout.y()[j][t] != k) continue;
      const double e = layout.effective()[j];
      const double loss = (tracker.utility(j) -
                           WeightedLogUtility(problem_, problem_.jobs[j], e - layout.speed(j, k))) /
                          layout.gpus(j);
      occupants.push_back({loss, j});
    }
    std::sort(occupants.begin(), occupants.end());
    int room = layout.free(t, k);
    std::vector<int> evicted;
    for (const auto& [loss, j] : occupants) {
      if (room >= layout.gpus(i)) break;
      room += layout.gpus(j);
      evicted.push_back(j);
    }
    if (room < layout.gpus(i)) return false;
    for (int j : evicted) Apply(layout, tracker, log, j, t, -1);
    Apply(layout, tracker, log, i, t, k);
    for (int j : evicted) {
      int best_k = -1, best_t = -1;
      for (int kk = 0; kk < layout.num_types(); ++kk) {
        if (!layout.Eligible(j, kk)) continue;
        if (best_k >= 0 && layout.speed(j, kk) <= layout.speed(j, best_k)) continue;
        const int tt = layout.BestRound(j, kk);
        if (tt >= 0) best_k = kk, best_t = tt;
      }
      if (best_k >= 0) {
        Apply(layout, tracker, log, j, best_t, best_k);
        continue;
      }
      if (depth == 0) continue;
      // One level down: the best (round, type) for j among eviction moves (j stays out if none
      // beats that).
      double best = tracker.Value();
      int best_round = -1, best_type = -1;
      for (int tt = 0; tt < layout.num_rounds(); ++tt) {
        if (layout.y()[j][tt] >= 0) continue;
        for (int kk = 0; kk < layout.num_types(); ++kk) {
          if (!layout.Eligible(j, kk)) continue;
          const std::size_t mark = log.size();
          if (!InsertWithEviction(layout, tracker, log, j, tt, kk, depth - 1)) continue;
          const double value = tracker.Value();
          Undo(layout, tracker, log, mark);
          if (value > best) best = value, best_round = tt, best_type = kk;
        }
      }
      if (best_round >= 0) {
        InsertWithEviction(layout, tracker, log, j, best_round, best_type, depth - 1);
      }
    }
    return true;
  }

  /// The eviction move of Improve: kept if Φ improves, else undone.
  /// If i already runs in round t (on another type) it moves.
  bool TryInsertWithEviction(TypedLayout& layout, Tracker& tracker, int i, int t, int k) const {
    const double before = tracker.Value();
    std::vector<Op> log;
    if (layout.y()[i][t] >= 0) Apply(layout, tracker, log, i, t, -1);
    if (!InsertWithEviction(layout, tracker, log, i, t, k, kEjectionDepth)) {
      Undo(layout, tracker, log, 0);
      return false;
    }
    if (tracker.Value() > before + 1e-12 * std::max(1.0, std::abs(before))) return true;
    Undo(layout, tracker, log, 0);
    return false;
  }

  /// Local search on Φ (see the header); returns the number of accepted moves.
  int Improve(TypedLayout& layout) const {
    const int num_jobs = layout.num_jobs(), rounds = layout.num_rounds(),
              types = layout.num_types();
    if (static_cast<double>(num_jobs) * num_jobs * rounds * types > kFullNeighbourhoodSize)
      return 0;
    Tracker tracker(problem_, layout.effective());
    // The ejection chain costs O((T K)^depth) per candidate: small windows only.
    const bool ejection = static_cast<double>(num_jobs) * rounds * types <= kEjectionSize;
    int accepted = 0;
    // Applies a move (which changes the effective rounds of jobs a and b), keeps it if Φ improves.
    const auto try_move = [&](int a, int b, auto apply, auto undo) {
      const double before = tracker.Value();
      apply();
      tracker.Set(a, layout.effective()[a]);
      if (b >= 0) tracker.Set(b, layout.effective()[b]);
      if (tracker.Value() > before + 1e-12 * std::max(1.0, std::abs(before))) {
        ++accepted;
        return true;
      }
      undo();
      tracker.Set(a, layout.effective()[a]);
      if (b >= 0) tracker.Set(b, layout.effective()[b]);
      return false;
    };
    // Necessary condition for a move changing jobs a and b (b = -1: only a) by da, db effective
    // rounds: it raises the utility sum, or one of them holds the largest shortfall (only then can
    // the k·M term fall), or it repairs a violated cap.
    const auto promising = [&](int a, double da, int b, double db) {
      const std::vector<double>& e = layout.effective();
      double gain = WeightedLogUtility(problem_, problem_.jobs[a], e[a] + da) - tracker.utility(a);
      if (b >= 0) {
        gain += WeightedLogUtility(problem_, problem_.jobs[b], e[b] + db) - tracker.utility(b);
      }
      return gain > 0.0 || tracker.AtMax(a) || (b >= 0 && tracker.AtMax(b)) ||
             tracker.Violates(a) || (b >= 0 && tracker.Violates(b));
    };
    for (int pass = 0; pass < kMaxImprovePasses; ++pass) {
      const int accepted_before = accepted;
      for (int j = 0; j < num_jobs; ++j) {
        if (constant_[j]) continue;
        for (int t = 0; t < rounds; ++t) {
          const int k = layout.y()[j][t];
          if (k < 0) {
            // Add a round (capacity freed by earlier moves).
            for (int kk = 0; kk < types; ++kk) {
              if (!layout.Eligible(j, kk) || layout.free(t, kk) < layout.gpus(j)) continue;
              if (try_move(
                      j, -1, [&] { layout.Place(j, t, kk); }, [&] { layout.Unplace(j, t); })) {
                break;
              }
            }
            continue;
          }
          // Move the round to another type in the same round.
          for (int kk = 0; kk < types; ++kk) {
            if (kk == k || !layout.Eligible(j, kk) || layout.free(t, kk) < layout.gpus(j)) continue;
            if (!promising(j, layout.speed(j, kk) - layout.speed(j, k), -1, 0.0)) continue;
            if (try_move(
                    j, -1, [&] { layout.Unplace(j, t), layout.Place(j, t, kk); },
                    [&] { layout.Unplace(j, t), layout.Place(j, t, k); })) {
              break;
            }
          }
          const int kj = layout.y()[j][t];
          for (int i = 0; i < num_jobs; ++i) {
            if (i == j || constant_[i]) continue;
            const int ki = layout.y()[i][t];
            if (ki < 0) {
              // Give j's round (t, kj) to i.
              if (!layout.Eligible(i, kj) || layout.free(t, kj) + layout.gpus(j) < layout.gpus(i) ||
                  !promising(j, -layout.speed(j, kj), i, layout.speed(i, kj))) {
                continue;
              }
              if (try_move(
                      j, i, [&] { layout.Unplace(j, t), layout.Place(i, t, kj); },
                      [&] { layout.Unplace(i, t), layout.Place(j, t, kj); })) {
                break;
              }
            } else if (ki != kj && layout.Eligible(i, kj) && layout.Eligible(j, ki) &&
                       layout.free(t, kj) + layout.gpus(j) >= layout.gpus(i) &&
                       layout.free(t, ki) + layout.gpus(i) >= layout.gpus(j) &&
                       promising(j, layout.speed(j, ki) - layout.speed(j, kj), i,
                                 layout.speed(i, kj) - layout.speed(i, ki))) {
              // Exchange types in round t.
              if (try_move(
                      j, i,
                      [&] {
                        layout.Unplace(j, t), layout.Unplace(i, t);
                        layout.Place(j, t, ki), layout.Place(i, t, kj);
                      },
                      [&] {
                        layout.Unplace(j, t), layout.Unplace(i, t);
                        layout.Place(j, t, kj), layout.Place(i, t, ki);
                      })) {
                break;
              }
            }
          }
        }
      }
      // Insert job i into (t, k) (moving it there if it runs on another type in t), evicting the
      // jobs there with the least utility loss per GPU until it fits, then re-place each evicted
      // job (InsertWithEviction: an ejection chain).
      for (int i = 0; i < num_jobs && ejection; ++i) {
        if (constant_[i]) continue;
        for (int t = 0; t < rounds; ++t) {
          for (int k = 0; k < types; ++k) {
            if (!layout.Eligible(i, k) || layout.y()[i][t] == k ||
                layout.free(t, k) >= layout.gpus(i)) {
              continue;
            }
            if (TryInsertWithEviction(layout, tracker, i, t, k)) {
              ++accepted;
              break;  // i now runs on (t, k)
            }
          }
        }
      }
      if (accepted == accepted_before) break;
    }
    return accepted;
  }

  TypedWindowSolution Solve() const {
    TypedWindowSolution solution;
    double top = 0.0;  // the level at which no job needs a round
    for (const WindowJob& job : problem_.jobs) top = std::max(top, job.remaining_s);
    TypedLayout probe(problem_);
    if (!Minimum(top, probe)) {
      solution.status = WindowStatus::kInfeasible;
      return solution;
    }
    // The smallest level the minimum phase meets (bisection; feasibility is monotone in the
    // level for the phase's fixed order up to ties).
    double low = 0.0, high = top;
    {
      TypedLayout at_zero(problem_);
      if (Minimum(0.0, at_zero)) high = 0.0;
    }
    for (int step = 0; step < kBisectionSteps && high - low > kShortfallTolerance_s; ++step) {
      const double mid = 0.5 * (low + high);
      TypedLayout layout(problem_);
      (Minimum(mid, layout) ? high : low) = mid;
      ++solution.nodes;
    }
    std::vector<double> levels = {high};
    for (double f : kLevelFractions) levels.push_back(high + (top - high) * f);
    double best = -std::numeric_limits<double>::infinity();
    for (double level : levels) {
      TypedLayout layout(problem_);
      if (!Minimum(level, layout)) continue;
      Fill(layout);
      ++solution.nodes;
      const double value = WindowObjective(problem_, layout.effective());
      if (value > best) {
        best = value;
        solution.y = layout.y();
      }
    }
    if (solution.y.empty()) {
      solution.status = WindowStatus::kInfeasible;
      return solution;
    }
    TypedLayout layout(problem_);
    for (int j = 0; j < layout.num_jobs(); ++j) {
      for (int t = 0; t < layout.num_rounds(); ++t) {
        if (solution.y[j][t] >= 0) layout.Place(j, t, solution.y[j][t]);
      }
    }
    Improve(layout);
    solution.y = layout.y();
    solution.effective_rounds = layout.effective();
    solution.objective = WindowObjective(problem_, solution.effective_rounds);
    solution.status = WindowStatus::kOptimal;
    std::vector<double> priority;
    for (const WindowJob& job : problem_.jobs) priority.push_back(job.weight);
    RankTypedRounds(solution.y, priority);
    return solution;
  }

 private:
  const WindowProblem& problem_;
  std::vector<char> constant_;
};

}  // namespace

double EffectiveRounds(const WindowJob& job, const std::vector<int>& row) {
  double e = 0.0;
  for (int k : row) {
    if (k >= 0) e += job.speed[k];
  }
  return e;
}

bool TypedLayoutValid(const WindowProblem& problem, const TypedWindowSchedule& y) {
  const int types = static_cast<int>(problem.gpus_by_type.size());
  if (y.size() != problem.jobs.size()) return false;
  std::vector<std::vector<int>> used(problem.num_rounds, std::vector<int>(types, 0));
  for (std::size_t j = 0; j < y.size(); ++j) {
    if (static_cast<int>(y[j].size()) != problem.num_rounds) return false;
    for (int t = 0; t < problem.num_rounds; ++t) {
      const int k = y[j][t];
      if (k < 0) continue;
      if (k >= types || !(problem.jobs[j].speed[k] > 0.0)) return false;
      used[t][k] += problem.jobs[j].gpus;
    }
  }
  for (int t = 0; t < problem.num_rounds; ++t) {
    for (int k = 0; k < types; ++k) {
      if (used[t][k] > problem.gpus_by_type[k]) return false;
    }
  }
  return true;
}

TypedWindowSolution SolveWindowHeterogeneous(const WindowProblem& problem) {
  problem.Validate();
  if (problem.gpus_by_type.empty()) {
    throw InputError("window_problem", 0, "gpus_by_type",
                     "the solver for several GPU types needs the GPUs of each type");
  }
  return Solver(problem).Solve();
}

void RankTypedRounds(TypedWindowSchedule& y, const std::vector<double>& priority) {
  if (y.empty()) return;
  const int rounds = static_cast<int>(y.front().size());
  std::vector<double> weight(rounds, 0.0);
  for (std::size_t j = 0; j < y.size(); ++j) {
    const int n =
        static_cast<int>(std::count_if(y[j].begin(), y[j].end(), [](int k) { return k >= 0; }));
    if (n == 0) continue;
    for (int t = 0; t < rounds; ++t) {
      if (y[j][t] >= 0) weight[t] += priority[j] / n;
    }
  }
  std::vector<int> order(rounds);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return weight[a] > weight[b]; });
  for (std::vector<int>& row : y) {
    std::vector<int> permuted(rounds);
    for (int t = 0; t < rounds; ++t) permuted[t] = row[order[t]];
    row = std::move(permuted);
  }
}

}  // namespace adaptsim
