// Window layouts (window_layout.hpp; docs/shockwave.md).
#include "adaptsim/window_layout.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <numeric>

namespace adaptsim {
namespace {

constexpr int kExchangePasses = 20;

/// Free capacities of the rounds, with the rounds kept ordered by (free capacity descending,
/// index ascending): "the n rounds with most room, earliest first among equals" is the prefix.
class RoundOrder {
 public:
  explicit RoundOrder(std::vector<int> residual)
      : residual_(std::move(residual)), order_(residual_.size()), scratch_(residual_.size()) {
    std::iota(order_.begin(), order_.end(), 0);
    std::sort(order_.begin(), order_.end(), Less());
  }

  /// Puts a gang of `w` GPUs into the `n` rounds with most room (marking them in `row` when
  /// given); false, and no change, if fewer than n rounds have room for it.
  bool Take(int w, int n, char* row) {
    if (n <= 0) return true;
    if (n > static_cast<int>(order_.size()) || residual_[order_[n - 1]] < w) return false;
    for (int i = 0; i < n; ++i) {
      residual_[order_[i]] -= w;
      if (row != nullptr) row[order_[i]] = 1;
    }
    // The prefix stays ordered (all lowered by w); merge it back into the suffix.
    std::merge(order_.begin(), order_.begin() + n, order_.begin() + n, order_.end(),
               scratch_.begin(), Less());
    order_.swap(scratch_);
    return true;
  }

  /// The first n rounds of the order if they all have room for w (else fewer).
  std::vector<int> Largest(int w, int n) const {
    std::vector<int> chosen;
    for (int t : order_) {
      if (static_cast<int>(chosen.size()) == n || residual_[t] < w) break;
      chosen.push_back(t);
    }
    return chosen;
  }

 private:
  struct LessFn {
    const std::vector<int>* residual;
    bool operator()(int a, int b) const {
      const int ra = (*residual)[a], rb = (*residual)[b];
      return ra != rb ? ra > rb : a < b;
    }
  };
  LessFn Less() const { return LessFn{&residual_}; }

  std::vector<int> residual_;
  std::vector<int> order_;
  std::vector<int> scratch_;
};

/// Jobs by gang size descending, then n descending, then index (a counting sort: gang sizes
/// take few values and n ∈ [0, T]; n > T is kept after n = T, where any order fails alike).
std::vector<int> GreedyOrder(const std::vector<int>& gpus, const std::vector<int>& rounds,
                             int num_rounds) {
  std::vector<int> sizes;
  for (int w : gpus) {
    if (std::find(sizes.begin(), sizes.end(), w) == sizes.end()) sizes.push_back(w);
  }
  std::sort(sizes.begin(), sizes.end(), std::greater<int>());
  const int width = num_rounds + 2;
  std::vector<int> key(gpus.size()), start(sizes.size() * width + 1, 0);
  for (std::size_t j = 0; j < gpus.size(); ++j) {
    const int size_rank =
        static_cast<int>(std::find(sizes.begin(), sizes.end(), gpus[j]) - sizes.begin());
    const int n = std::clamp(rounds[j], 0, num_rounds + 1);
    key[j] = size_rank * width + (num_rounds + 1 - n);
    ++start[key[j] + 1];
  }
  for (std::size_t b = 1; b < start.size(); ++b) start[b] += start[b - 1];
  std::vector<int> order(gpus.size());
  for (std::size_t j = 0; j < gpus.size(); ++j) order[start[key[j]]++] = static_cast<int>(j);
  return order;
}

std::vector<int> EarliestFit(const std::vector<int>& residual, int w, int n) {
  std::vector<int> chosen;
  for (int t = 0; t < static_cast<int>(residual.size()) && static_cast<int>(chosen.size()) < n;
       ++t) {
    if (residual[t] >= w) chosen.push_back(t);
  }
  return chosen;
}

/// Ranking cost of job j per unit of round index: π_j / n_j (`shockwave.py:714-793`).
double RankCost(const std::vector<double>& priority, const std::vector<int>& rounds, int j) {
  return rounds[j] > 0 ? priority[j] / rounds[j] : 0.0;
}

/// Step 1 of RankedLayout: density order with a greedy-layout check of the jobs still to place.
WindowSchedule DensityLayout(const std::vector<int>& gpus, const std::vector<int>& rounds,
                             const std::vector<double>& priority, int num_gpus, int num_rounds) {
  const int num_jobs = static_cast<int>(gpus.size());
  std::vector<int> order(num_jobs);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const double da = RankCost(priority, rounds, a), db = RankCost(priority, rounds, b);
    return da != db ? da > db : gpus[a] > gpus[b];
  });
  const std::vector<int> greedy = GreedyOrder(gpus, rounds, num_rounds);
  WindowSchedule x(num_jobs, std::vector<char>(num_rounds, 0));
  std::vector<int> residual(num_rounds, num_gpus);
  std::vector<char> placed(num_jobs, 0);
  for (int j : order) {
    if (rounds[j] <= 0) continue;
    std::vector<int> chosen = EarliestFit(residual, gpus[j], rounds[j]);
    bool ok = static_cast<int>(chosen.size()) == rounds[j];
    if (ok) {
      std::vector<int> after = residual;
      for (int t : chosen) after[t] -= gpus[j];
      RoundOrder rest(std::move(after));
      for (int i : greedy) {
        if (placed[i] || i == j || rounds[i] <= 0) continue;
        if (!rest.Take(gpus[i], rounds[i], nullptr)) {
          ok = false;
          break;
        }
      }
    }
    if (!ok) chosen = RoundOrder(residual).Largest(gpus[j], rounds[j]);
    if (static_cast<int>(chosen.size()) < rounds[j]) {
      return BalancedLayout(gpus, rounds, num_gpus, num_rounds);
    }
    for (int t : chosen) residual[t] -= gpus[j], x[j][t] = 1;
    placed[j] = 1;
  }
  return x;
}

/// Members of round t by cost per GPU ascending (index among equals).
std::vector<int> RoundMembers(const WindowSchedule& x, int t, const std::vector<double>& density) {
  std::vector<int> members;
  for (int b = 0; b < static_cast<int>(x.size()); ++b) {
    if (x[b][t]) members.push_back(b);
  }
  std::stable_sort(members.begin(), members.end(),
                   [&](int p, int q) { return density[p] < density[q]; });
  return members;
}

double MinCost(const std::vector<int>& jobs, const std::vector<double>& priority,
               const std::vector<int>& rounds) {
  double cheapest = std::numeric_limits<double>::infinity();
  for (int j : jobs) cheapest = std::min(cheapest, RankCost(priority, rounds, j));
  return cheapest;
}

/// Step 2 of RankedLayout, one pass (see the header). Keeps row sums and per-round capacity.
/// Returns whether anything moved.
bool ExchangePass(WindowSchedule& x, const std::vector<int>& gpus, const std::vector<int>& rounds,
                  const std::vector<double>& priority, int num_gpus) {
  const int num_jobs = static_cast<int>(gpus.size());
  const int num_rounds = x.empty() ? 0 : static_cast<int>(x[0].size());
  std::vector<int> free(num_rounds, num_gpus);
  std::vector<double> density(num_jobs);
  for (int j = 0; j < num_jobs; ++j) {
    density[j] = RankCost(priority, rounds, j) / gpus[j];
    for (int t = 0; t < num_rounds; ++t) free[t] -= x[j][t] ? gpus[j] : 0;
  }
  std::vector<int> by_density(num_jobs);
  std::iota(by_density.begin(), by_density.end(), 0);
  std::stable_sort(by_density.begin(), by_density.end(),
                   [&](int a, int b) { return density[a] > density[b]; });
  bool moved = false;
  for (int t = 0; t + 1 < num_rounds; ++t) {
    std::vector<int> members = RoundMembers(x, t, density);
    double cheapest = MinCost(members, priority, rounds);
    for (int a : by_density) {
      if (rounds[a] <= 0 || x[a][t]) continue;
      const double cost_a = RankCost(priority, rounds, a);
      // An eviction costs at least the cheapest member's cost: then no gain is possible.
      if (free[t] < gpus[a] && !(cost_a > cheapest)) continue;
      int later = num_rounds - 1;
      while (later > t && !x[a][later]) --later;
      if (later <= t) continue;
      std::vector<int> evict;
      int freed = free[t], into_later = 0;
      double evict_cost = 0.0;
      for (int b : members) {
        if (freed >= gpus[a]) break;
        if (x[b][later] || into_later + gpus[b] > free[later] + gpus[a]) continue;
        evict.push_back(b);
        freed += gpus[b];
        into_later += gpus[b];
        evict_cost += RankCost(priority, rounds, b);
      }
      if (freed < gpus[a] || !(cost_a > evict_cost * (1.0 + 1e-12))) continue;
      x[a][t] = 1, x[a][later] = 0;
      free[t] -= gpus[a], free[later] += gpus[a];
      for (int b : evict) {
        x[b][t] = 0, x[b][later] = 1;
        free[t] += gpus[b], free[later] -= gpus[b];
      }
      members = RoundMembers(x, t, density);
      cheapest = MinCost(members, priority, rounds);
      moved = true;
    }
  }
  return moved;
}

}  // namespace

bool BalancedLayoutInto(const std::vector<int>& gpus, const std::vector<int>& rounds, int num_gpus,
                        int num_rounds, WindowSchedule& x) {
  x.resize(gpus.size());
  for (std::vector<char>& row : x) row.assign(num_rounds, 0);
  RoundOrder order(std::vector<int>(num_rounds, num_gpus));
  for (int j : GreedyOrder(gpus, rounds, num_rounds)) {
    if (rounds[j] > 0 && !order.Take(gpus[j], rounds[j], x[j].data())) return false;
  }
  return true;
}

WindowSchedule BalancedLayout(const std::vector<int>& gpus, const std::vector<int>& rounds,
                              int num_gpus, int num_rounds) {
  WindowSchedule x;
  if (!BalancedLayoutInto(gpus, rounds, num_gpus, num_rounds, x)) return {};
  return x;
}

bool LayoutFeasible(const std::vector<int>& gpus, const std::vector<int>& rounds, int num_gpus,
                    int num_rounds) {
  long total = 0;
  for (std::size_t j = 0; j < gpus.size(); ++j) total += static_cast<long>(gpus[j]) * rounds[j];
  if (total > static_cast<long>(num_gpus) * num_rounds) return false;
  RoundOrder order(std::vector<int>(num_rounds, num_gpus));
  for (int j : GreedyOrder(gpus, rounds, num_rounds)) {
    if (rounds[j] > 0 && !order.Take(gpus[j], rounds[j], nullptr)) return false;
  }
  return true;
}

WindowSchedule RankedLayout(const std::vector<int>& gpus, const std::vector<int>& rounds,
                            const std::vector<double>& priority, int num_gpus, int num_rounds) {
  WindowSchedule x = DensityLayout(gpus, rounds, priority, num_gpus, num_rounds);
  if (x.empty()) return x;
  for (int pass = 0; pass < kExchangePasses; ++pass) {
    if (!ExchangePass(x, gpus, rounds, priority, num_gpus)) break;
  }
  return x;
}

}  // namespace adaptsim
