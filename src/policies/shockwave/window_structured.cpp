// The structured window solver (window_structured.hpp; docs/shockwave.md).
#include "window_structured.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <queue>
#include <utility>

#include "adaptsim/error.hpp"

namespace adaptsim {
namespace {

constexpr double kShortfallTolerance_s = 1e-6;
constexpr std::size_t kDenseLevels = 32;
constexpr int kImprovePasses = 8;

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

/// The candidate of the local search for job j (see Improve): n with one more round for j, rounds
/// taken from the other jobs with the smallest utility loss per GPU (never below `floor`) until a
/// layout exists, then refilled; nullopt when no layout exists even with every other job at its
/// floor.
std::optional<std::vector<int>> ReferenceCandidate(const WindowProblem& problem,
                                                   const Tables& tables, const Filler& filler,
                                                   const std::vector<int>& gpus,
                                                   const std::vector<int>& n,
                                                   const std::vector<int>& floor, int j) {
  const int num_jobs = static_cast<int>(n.size());
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
  if (!LayoutFeasible(gpus, m, problem.num_gpus, problem.num_rounds)) return std::nullopt;
  return filler.Fill(std::move(m));
}

bool CanGrow(const WindowProblem& problem, const Tables& tables, const std::vector<int>& n, int j) {
  return n[j] < problem.num_rounds && tables.utility[j][n[j] + 1] - tables.utility[j][n[j]] > 0.0;
}

/// Local improvement of a filled solution: for each job, grant one more round, make room by
/// taking rounds from the other jobs with the smallest utility loss per GPU (never below
/// `floor`), refill, and keep the result when Φ improves. Repeats until no move improves.
/// Catches the knapsack effects of the greedy fill (a gang of 8 blocked by small jobs).
/// The reference implementation: O(N) work per victim and a full fill per candidate, O(N²·T)
/// per pass (LocalSearch below computes the same result sparsely).
std::vector<int> Improve(const WindowProblem& problem, const Tables& tables, const Filler& filler,
                         std::vector<int> n, const std::vector<int>& floor) {
  std::vector<int> gpus;
  for (const WindowJob& job : problem.jobs) gpus.push_back(job.gpus);
  const int num_jobs = static_cast<int>(n.size());
  double value = WindowObjective(problem, n);
  for (int pass = 0; pass < kImprovePasses; ++pass) {
    bool improved = false;
    for (int j = 0; j < num_jobs; ++j) {
      if (!CanGrow(problem, tables, n, j)) continue;
      std::optional<std::vector<int>> m =
          ReferenceCandidate(problem, tables, filler, gpus, n, floor, j);
      if (!m) continue;
      const double candidate = WindowObjective(problem, *m);
      if (candidate > value + 1e-12 * std::abs(value)) {
        n = std::move(*m);
        value = candidate;
        improved = true;
      }
    }
    if (!improved) break;
  }
  return n;
}

/// Whether every gang is a power of two dividing G. Then a layout with row sums n exists iff
/// LayoutFeasible(n) (docs/shockwave.md, "Exact feasibility"), so any layout found by other
/// means decides feasibility exactly as LayoutFeasible would.
bool PowerOfTwoGangs(const WindowProblem& problem) {
  for (const WindowJob& job : problem.jobs) {
    if ((job.gpus & (job.gpus - 1)) != 0 || problem.num_gpus % job.gpus != 0) return false;
  }
  return true;
}

/// Improve computed sparsely, with the same result. A candidate differs from the current n in a
/// few jobs only (j, its victims, the jobs the refill grows), so it is evaluated against
/// structures built once per accepted n: a layout x of n with its free capacities, the jobs by
/// utility loss per GPU (victim order), the jobs of each gang size by marginal gain per GPU (the
/// fill's heap order) and the jobs by shortfall s_j(n_j) (the max term). Feasibility of each
/// step is decided by a certificate — a layout, obtained from x by moving the changed jobs only —
/// or, for the candidate's final state after the refill, by not being needed: the refill stops
/// when no GPU-round is left. When a certificate cannot be found although the aggregate bound
/// holds (exact feasibility would need the full greedy layout), the candidate is evaluated by
/// ReferenceCandidate instead. Φ of a candidate is estimated from the changed terms; only
/// estimates within a rounding margin of the acceptance threshold are recomputed exactly by
/// WindowObjective, so the comparison is bit-identical to Improve's. Requires PowerOfTwoGangs.
/// Cost per candidate: O(T · changed jobs + gang sizes) plus the skipped list entries.
class LocalSearch {
 public:
  LocalSearch(const WindowProblem& problem, const Tables& tables, const Filler& filler,
              const std::vector<int>& floor)
      : problem_(problem),
        tables_(tables),
        filler_(filler),
        floor_(floor),
        rounds_(problem.num_rounds),
        capacity_(static_cast<long>(problem.num_gpus) * problem.num_rounds) {
    for (const WindowJob& job : problem.jobs) {
      gpus_.push_back(job.gpus);
      if (std::find(sizes_.begin(), sizes_.end(), job.gpus) == sizes_.end()) {
        sizes_.push_back(job.gpus);
      }
    }
    std::sort(sizes_.begin(), sizes_.end());
    for (int w : gpus_) {
      size_rank_.push_back(
          static_cast<int>(std::find(sizes_.begin(), sizes_.end(), w) - sizes_.begin()));
    }
    modified_.assign(gpus_.size(), 0);
  }

  std::vector<int> Run(std::vector<int> n) {
    double value = WindowObjective(problem_, n);
    if (!std::isfinite(value)) return Improve(problem_, tables_, filler_, std::move(n), floor_);
    const int num_jobs = static_cast<int>(n.size());
    for (int pass = 0; pass < kImprovePasses; ++pass) {
      bool improved = false;
      Prepare(n);
      for (int j = 0; j < num_jobs; ++j) {
        if (!CanGrow(problem_, tables_, n, j)) continue;
        const double threshold = value + 1e-12 * std::abs(value);
        std::optional<std::vector<int>> m;
        const Verdict verdict = Evaluate(j, threshold);
        if (verdict == Verdict::kUnknown) {
          m = ReferenceCandidate(problem_, tables_, filler_, gpus_, n, floor_, j);
        } else if (verdict == Verdict::kMaybeBetter) {
          m = m_;
        }
        Undo();
        if (!m) continue;
        const double candidate = WindowObjective(problem_, *m);
        if (candidate > threshold) {
          n = std::move(*m);
          value = candidate;
          improved = true;
          Prepare(n);
        }
      }
      if (!improved) break;
    }
    return n;
  }

 private:
  enum class Verdict { kWorse, kMaybeBetter, kUnknown };
  using Entry = std::pair<double, int>;  // (key, job)

  double Utility(int i, int n) const { return tables_.utility[i][n]; }
  double Gain(int i, int n) const { return (Utility(i, n + 1) - Utility(i, n)) / gpus_[i]; }
  double Loss(int i, int n) const { return (Utility(i, n) - Utility(i, n - 1)) / gpus_[i]; }

  void Prepare(const std::vector<int>& n) {
    const int num_jobs = static_cast<int>(n.size());
    n_ = n;
    m_ = n;
    BalancedLayoutInto(gpus_, n, problem_.num_gpus, rounds_, x_);
    free_.assign(rounds_, problem_.num_gpus);
    members_.assign(rounds_, {});
    slot_.assign(n.size() * rounds_, -1);
    used_ = 0;
    utility_sum_ = 0.0;
    utility_abs_ = 0.0;
    by_loss_.clear();
    by_gain_.assign(sizes_.size(), {});
    by_shortfall_.clear();
    for (int i = 0; i < num_jobs; ++i) {
      for (int t = 0; t < rounds_; ++t) {
        if (!x_[i][t]) continue;
        free_[t] -= gpus_[i];
        slot_[static_cast<std::size_t>(i) * rounds_ + t] = static_cast<int>(members_[t].size());
        members_[t].push_back(i);
      }
      used_ += static_cast<long>(gpus_[i]) * n[i];
      utility_sum_ += Utility(i, n[i]);
      utility_abs_ += std::abs(Utility(i, n[i]));
      if (n[i] > floor_[i]) by_loss_.push_back({Loss(i, n[i]), i});
      if (n[i] < rounds_ && Utility(i, n[i] + 1) - Utility(i, n[i]) > 0.0) {
        by_gain_[size_rank_[i]].push_back({Gain(i, n[i]), i});
      }
      by_shortfall_.push_back({tables_.shortfall[i][n[i]], i});
    }
    std::sort(by_loss_.begin(), by_loss_.end());
    for (std::vector<Entry>& list : by_gain_) {
      // The fill's heap order: larger gain first, the smaller index among equal gains.
      std::sort(list.begin(), list.end(), [](const Entry& a, const Entry& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
      });
    }
    std::sort(by_shortfall_.begin(), by_shortfall_.end(), std::greater<Entry>());
  }

  void Change(int i, int value) {
    if (!modified_[i]) modified_[i] = 1, changed_.push_back(i);
    m_[i] = value;
  }

  /// Sets x[i][t] and keeps free capacities and round members in step (no undo record).
  void Set(int i, int t, bool on) {
    x_[i][t] = on ? 1 : 0;
    free_[t] += on ? -gpus_[i] : gpus_[i];
    std::vector<int>& members = members_[t];
    int& slot = slot_[static_cast<std::size_t>(i) * rounds_ + t];
    if (on) {
      slot = static_cast<int>(members.size());
      members.push_back(i);
    } else {
      const int last = members.back();
      members[slot] = last;
      slot_[static_cast<std::size_t>(last) * rounds_ + t] = slot;
      members.pop_back();
    }
  }

  void Flip(int i, int t, bool on) {
    Set(i, t, on);
    flips_.push_back({i, t});
  }

  /// The round without job i with the most free GPUs (earliest among equals), if it fits i.
  int RoomFor(int i) const {
    int best = -1;
    for (int t = 0; t < rounds_; ++t) {
      if (x_[i][t] || free_[t] < gpus_[i]) continue;
      if (best < 0 || free_[t] > free_[best]) best = t;
    }
    return best;
  }

  /// A round without job i that fits i, made if needed by moving other jobs b out of a round t
  /// without i, each into a round t' without b that has room for it (row sums and capacities
  /// stay valid, so moves of a failed attempt are kept); -1 if no round could be cleared. Only a
  /// certificate: -1 does not mean that no layout exists.
  int MakeRoom(int i) {
    const int direct = RoomFor(i);
    if (direct >= 0) return direct;
    for (int t = 0; t < rounds_; ++t) {
      if (x_[i][t]) continue;
      scratch_ = members_[t];
      for (int b : scratch_) {
        if (free_[t] >= gpus_[i]) break;
        int to = -1;
        for (int r = 0; r < rounds_; ++r) {
          if (r == t || x_[b][r] || free_[r] < gpus_[b]) continue;
          if (to < 0 || free_[r] > free_[to]) to = r;
        }
        if (to < 0) continue;
        Flip(b, t, false);
        Flip(b, to, true);
      }
      if (free_[t] >= gpus_[i]) return t;
    }
    return -1;
  }

  void Undo() {
    for (auto it = flips_.rbegin(); it != flips_.rend(); ++it) {
      const auto [i, t] = *it;
      Set(i, t, x_[i][t] == 0);
    }
    flips_.clear();
    for (int i : changed_) m_[i] = n_[i], modified_[i] = 0;
    changed_.clear();
  }

  /// The next victim: smallest (loss per GPU at m, index) over jobs other than j above their
  /// floor; -1 if none. `cursor` walks by_loss_ (unchanged jobs keep their loss at n).
  int NextVictim(int j, std::size_t& cursor) const {
    while (cursor < by_loss_.size() &&
           (by_loss_[cursor].second == j || modified_[by_loss_[cursor].second])) {
      ++cursor;
    }
    Entry best{std::numeric_limits<double>::infinity(), -1};
    if (cursor < by_loss_.size()) best = by_loss_[cursor];
    for (int i : changed_) {
      if (i == j || m_[i] <= floor_[i]) continue;
      const Entry e{Loss(i, m_[i]), i};
      if (best.second < 0 || e < best) best = e;
    }
    return best.second;
  }

  /// Removes one round of victim v from x, preferring a round without j with the most free GPUs.
  void Release(int v, int j) {
    int best = -1;
    for (int t = 0; t < rounds_; ++t) {
      if (!x_[v][t]) continue;
      const bool without_j = !x_[j][t];
      if (best < 0 || (without_j && x_[j][best]) ||
          (without_j == !x_[j][best] && free_[t] > free_[best])) {
        best = t;
      }
    }
    Flip(v, best, false);
  }

  Verdict Evaluate(int j, double threshold) {
    // Grant j one more round; take rounds from victims while the aggregate bound fails.
    Change(j, m_[j] + 1);
    long used = used_ + gpus_[j];
    std::size_t loss_cursor = 0;
    while (true) {
      if (used <= capacity_) {
        const int t = MakeRoom(j);
        if (t < 0) return Verdict::kUnknown;
        Flip(j, t, true);
        break;
      }
      const int v = NextVictim(j, loss_cursor);
      if (v < 0) return Verdict::kWorse;  // no layout even with every other job at its floor
      Change(v, m_[v] - 1);
      used -= gpus_[v];
      Release(v, j);
    }
    // Refill (Filler::Fill restricted to the jobs that can still fit): changed jobs in a heap,
    // unchanged ones from the per-size gain lists.
    std::priority_queue<Entry> heap;
    for (int i : changed_) Push(heap, i);
    std::vector<std::size_t> cursor(sizes_.size(), 0);
    while (used < capacity_) {
      const long slack = capacity_ - used;
      while (!heap.empty() && gpus_[heap.top().second] > slack) heap.pop();
      Entry best{0.0, -1};
      int from = -1;  // -1: heap, else the size rank
      if (!heap.empty()) best = {heap.top().first, heap.top().second};
      for (std::size_t c = 0; c < sizes_.size() && sizes_[c] <= slack; ++c) {
        const std::vector<Entry>& list = by_gain_[c];
        while (cursor[c] < list.size() && modified_[list[cursor[c]].second]) ++cursor[c];
        if (cursor[c] == list.size()) continue;
        const Entry& e = list[cursor[c]];
        if (best.second < 0 || e.first > best.first ||
            (e.first == best.first && e.second < best.second)) {
          best = e, from = static_cast<int>(c);
        }
      }
      if (best.second < 0) break;
      if (from < 0) {
        heap.pop();
      } else {
        ++cursor[from];
      }
      const int i = best.second;
      const int t = MakeRoom(i);
      if (t < 0) return Verdict::kUnknown;
      Flip(i, t, true);
      Change(i, m_[i] + 1);
      used += gpus_[i];
      Push(heap, i);
    }
    return Estimate(threshold) ? Verdict::kMaybeBetter : Verdict::kWorse;
  }

  void Push(std::priority_queue<Entry>& heap, int i) const {
    if (m_[i] >= rounds_) return;
    const double gain = Gain(i, m_[i]);
    if (gain > 0.0) heap.push({gain, -i});
  }

  /// Φ(m) from the tables, summed in WindowObjective's order (the same doubles, so the same
  /// result).
  double ExactObjective() const {
    double utility = 0.0, level = 0.0;
    for (std::size_t i = 0; i < m_.size(); ++i) {
      const double s = tables_.shortfall[i][m_[i]];
      if (s > problem_.jobs[i].max_shortfall_s + kShortfallTolerance_s) {
        return -std::numeric_limits<double>::infinity();
      }
      utility += tables_.utility[i][m_[i]];
      level = std::max(level, s);
    }
    return utility - problem_.k * level;
  }

  /// Whether Φ(m) may exceed `threshold`: false only when the estimate from the changed terms is
  /// below it by more than the rounding error of WindowObjective's sum, or a cap is violated.
  bool Estimate(double threshold) const {
    double utility = utility_sum_, magnitude = utility_abs_, level = 0.0;
    for (int i : changed_) {
      const double s = tables_.shortfall[i][m_[i]];
      if (s > problem_.jobs[i].max_shortfall_s + kShortfallTolerance_s) return false;
      utility += Utility(i, m_[i]) - Utility(i, n_[i]);
      magnitude += std::abs(Utility(i, m_[i])) + std::abs(Utility(i, n_[i]));
      level = std::max(level, s);
    }
    for (const Entry& e : by_shortfall_) {
      if (modified_[e.second]) continue;
      level = std::max(level, e.first);
      break;
    }
    if (std::all_of(changed_.begin(), changed_.end(), [&](int i) { return m_[i] == n_[i]; })) {
      return false;  // m = n: Φ(m) = Φ(n) < threshold
    }
    const double estimate = utility - problem_.k * level;
    const double eps = std::numeric_limits<double>::epsilon();
    const double margin =
        8.0 * eps * static_cast<double>(n_.size() + changed_.size() + 4) *
        (magnitude + std::abs(utility) + problem_.k * level + std::abs(threshold));
    return estimate >= threshold - margin && ExactObjective() > threshold;
  }

  const WindowProblem& problem_;
  const Tables& tables_;
  const Filler& filler_;
  const std::vector<int>& floor_;
  const int rounds_;
  const long capacity_;
  std::vector<int> gpus_, sizes_, size_rank_;
  // Built by Prepare for the current n.
  std::vector<int> n_;
  WindowSchedule x_;
  std::vector<int> free_;
  std::vector<std::vector<int>> members_;  ///< jobs in round t, any order
  std::vector<int> slot_;                  ///< position of job i in members_[t], at i·T + t
  std::vector<int> scratch_;
  long used_ = 0;
  double utility_sum_ = 0.0, utility_abs_ = 0.0;
  std::vector<Entry> by_loss_, by_shortfall_;
  std::vector<std::vector<Entry>> by_gain_;
  // The candidate being evaluated, undone by Undo.
  std::vector<int> m_;
  std::vector<char> modified_;
  std::vector<int> changed_;
  std::vector<std::pair<int, int>> flips_;
};

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
  if (gpus_by_type.empty()) return;
  int total = 0;
  for (int c : gpus_by_type) {
    Require(c >= 1, "gpus_by_type", "every GPU type needs >= 1 GPU");
    total += c;
  }
  Require(total == num_gpus, "gpus_by_type", "the types' GPUs must sum to num_gpus");
  for (const WindowJob& job : jobs) {
    Require(job.speed.size() == gpus_by_type.size(), "jobs.speed", "one speed per GPU type");
    for (double r : job.speed) {
      Require(r >= 0.0 && std::isfinite(r), "jobs.speed", "speeds must be finite and >= 0");
    }
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

double PlannedEpochs(const WindowProblem& problem, const WindowJob& job, double n) {
  const double by_time = problem.round_s * n / job.mean_epoch_s;
  const double by_work = problem.bases.back() * job.epochs - job.progress;
  return std::max(0.0, std::min(by_time, by_work));
}

double Shortfall(const WindowProblem& problem, const WindowJob& job, double n) {
  return std::max(0.0, job.remaining_s - job.mean_epoch_s * PlannedEpochs(problem, job, n));
}

double WeightedLogUtility(const WindowProblem& problem, const WindowJob& job, double n) {
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

namespace {

/// Φ of rounds (int) or effective rounds (double) per job.
template <class Rounds>
double ObjectiveOf(const WindowProblem& problem, const std::vector<Rounds>& rounds) {
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

}  // namespace

double WindowObjective(const WindowProblem& problem, const std::vector<int>& rounds) {
  return ObjectiveOf(problem, rounds);
}

double WindowObjective(const WindowProblem& problem, const std::vector<double>& effective_rounds) {
  return ObjectiveOf(problem, effective_rounds);
}

WindowSolution SolveWindowStructured(const WindowProblem& problem,
                                     const WindowStructuredOptions& options) {
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
  if (options.reference || !PowerOfTwoGangs(problem)) {
    best_n = Improve(problem, tables, filler, std::move(best_n), floor);
  } else {
    best_n = LocalSearch(problem, tables, filler, floor).Run(std::move(best_n));
  }
  best = WindowObjective(problem, best_n);
  solution.rounds = best_n;
  solution.objective = best;
  solution.bound = utility_bound - problem.k * levels[lo];
  const double gap = (solution.bound - best) / std::max(1e-10, std::abs(best));
  solution.status = gap <= 1e-9 ? WindowStatus::kOptimal : WindowStatus::kFeasible;
  RankedLayoutOptions layout;
  layout.sequential_check = options.reference;
  solution.x = RankedLayout(gpus, best_n, priority, problem.num_gpus, rounds, layout);
  solution.solve_time_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return solution;
}

}  // namespace adaptsim
