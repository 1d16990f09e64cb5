// Window layouts (window_layout.hpp; docs/shockwave.md).
#include "window_layout.hpp"

#include <algorithm>
#include <bit>
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

/// The earliest n rounds with room for a gang of w (fewer if there are not n), into `chosen`.
void EarliestFitInto(const std::vector<int>& residual, int w, int n, std::vector<int>& chosen) {
  chosen.clear();
  for (int t = 0; t < static_cast<int>(residual.size()) && static_cast<int>(chosen.size()) < n;
       ++t) {
    if (residual[t] >= w) chosen.push_back(t);
  }
}

/// Ranking cost of job j per unit of round index: π_j / n_j (`shockwave.py:714-793`).
double RankCost(const std::vector<double>& priority, const std::vector<int>& rounds, int j) {
  return rounds[j] > 0 ? priority[j] / rounds[j] : 0.0;
}

/// RoundOrder::Take(w, n) k times in a row on the free capacities `free`, computed at once:
/// whether all k succeed, and `free` lowered to the same multiset of capacities (which rounds
/// hold which value may differ; the greedy's later verdicts depend on the multiset only, as Take
/// depends on the order of the values only).
/// Why: a round with free capacity f offers the values f, f - w, ..., its "tokens" while >= w;
/// each Take lowers the n rounds with the largest current values, i.e. takes the largest
/// available token of n distinct rounds. The k Takes together take the k·n largest tokens with at
/// most k per round (a token left while a smaller one is taken would contradict the choice of
/// that step), and they all succeed iff Σ_t min(k, ⌊f_t/w⌋) >= k·n (largest value first is
/// largest remaining token count first, the optimal order for picking n distinct rounds k
/// times). Checked against the sequential greedy in tests/test_shockwave_window.cpp.
/// O(T log G); `tokens` is scratch space.
bool TakeMany(std::vector<int>& free, int w, int n, int k, std::vector<int>& tokens) {
  const int num_rounds = static_cast<int>(free.size());
  if (n > num_rounds) return false;
  // Gang sizes are powers of two in practice: divide by shifting then.
  const int shift = (w & (w - 1)) == 0 ? std::countr_zero(static_cast<unsigned>(w)) : -1;
  const auto divide = [&](int v) { return shift >= 0 ? v >> shift : v / w; };
  const long need = static_cast<long>(k) * n;
  tokens.resize(num_rounds);
  long available = 0;
  int top = 0;
  for (int t = 0; t < num_rounds; ++t) {
    tokens[t] = std::min(k, divide(free[t]));
    available += tokens[t];
    top = std::max(top, free[t]);
  }
  if (available < need) return false;
  if (available == need) {  // every token is taken
    for (int t = 0; t < num_rounds; ++t) free[t] -= tokens[t] * w;
    return true;
  }
  // Tokens of round t: f - i·w for i < tokens_t, all >= w. The largest x with at least k·n
  // tokens >= x is the value of the smallest token taken.
  auto at_least = [&](int x) {
    long count = 0;
    for (int t = 0; t < num_rounds; ++t) {
      if (tokens[t] > 0 && free[t] >= x) count += std::min(tokens[t], divide(free[t] - x) + 1);
    }
    return count;
  };
  int lo = w, hi = top;
  while (lo < hi) {
    const int mid = lo + (hi - lo + 1) / 2;
    if (at_least(mid) >= need) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  long rest = need;
  for (int t = 0; t < num_rounds; ++t) {
    int taken =
        tokens[t] > 0 && free[t] > lo ? std::min(tokens[t], divide(free[t] - lo - 1) + 1) : 0;
    rest -= taken;
    tokens[t] -= taken;  // tokens left
    free[t] -= taken * w;
  }
  for (int t = 0; t < num_rounds && rest > 0; ++t) {
    if (tokens[t] > 0 && free[t] == lo) free[t] -= w, --rest;
  }
  return rest == 0;
}

/// The jobs not yet placed by DensityLayout, counted by (gang size, n): the greedy layout of
/// them (GreedyOrder: size descending, then n descending) is one TakeMany per group.
class UnplacedGroups {
 public:
  UnplacedGroups(const std::vector<int>& gpus, const std::vector<int>& rounds, int num_rounds)
      : gpus_(gpus), rounds_(rounds), width_(num_rounds + 2) {
    for (int w : gpus) {
      if (std::find(sizes_.begin(), sizes_.end(), w) == sizes_.end()) sizes_.push_back(w);
    }
    std::sort(sizes_.begin(), sizes_.end(), std::greater<int>());
    count_.assign(sizes_.size() * width_, 0);
    for (std::size_t j = 0; j < gpus.size(); ++j) Add(static_cast<int>(j), 1);
  }

  void Add(int j, int delta) {
    if (rounds_[j] > 0) count_[Slot(j)] += delta;
  }

  /// Whether the greedy layout of the counted jobs succeeds on `free` (consumed).
  bool Fit(std::vector<int>& free) const {
    for (std::size_t c = 0; c < sizes_.size(); ++c) {
      for (int n = width_ - 1; n >= 1; --n) {
        const int k = count_[c * width_ + n];
        if (k > 0 && !TakeMany(free, sizes_[c], n, k, tokens_)) return false;
      }
    }
    return true;
  }

 private:
  std::size_t Slot(int j) const {
    const std::size_t c = std::find(sizes_.begin(), sizes_.end(), gpus_[j]) - sizes_.begin();
    return c * width_ + std::min(rounds_[j], width_ - 1);
  }

  const std::vector<int>& gpus_;
  const std::vector<int>& rounds_;
  const int width_;
  std::vector<int> sizes_;
  std::vector<int> count_;
  mutable std::vector<int> tokens_;  // TakeMany's scratch
};

/// Step 1 of RankedLayout: density order with a greedy-layout check of the jobs still to place.
/// The check is skipped when the earliest rounds are also the rounds with most room (either
/// verdict then places j there) and, unless `sequential_check`, computed per (gang, n) group
/// (UnplacedGroups) instead of job by job: same verdicts, O(groups · T log G) instead of O(N T).
WindowSchedule DensityLayout(const std::vector<int>& gpus, const std::vector<int>& rounds,
                             const std::vector<double>& priority, int num_gpus, int num_rounds,
                             bool sequential_check) {
  const int num_jobs = static_cast<int>(gpus.size());
  std::vector<int> order(num_jobs);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const double da = RankCost(priority, rounds, a), db = RankCost(priority, rounds, b);
    return da != db ? da > db : gpus[a] > gpus[b];
  });
  const std::vector<int> greedy = GreedyOrder(gpus, rounds, num_rounds);
  UnplacedGroups unplaced(gpus, rounds, num_rounds);
  WindowSchedule x(num_jobs, std::vector<char>(num_rounds, 0));
  std::vector<int> residual(num_rounds, num_gpus);
  std::vector<char> placed(num_jobs, 0);
  // Scratch buffers: rounds by (free desc, index), the earliest and the roomiest rounds for j.
  std::vector<int> by_room(num_rounds), earliest, largest, after;
  std::vector<char> in_earliest(num_rounds);
  for (int j : order) {
    if (rounds[j] <= 0) continue;
    EarliestFitInto(residual, gpus[j], rounds[j], earliest);
    // RoundOrder(residual).Largest(w_j, n_j).
    std::iota(by_room.begin(), by_room.end(), 0);
    std::sort(by_room.begin(), by_room.end(), [&](int a, int b) {
      return residual[a] != residual[b] ? residual[a] > residual[b] : a < b;
    });
    largest.clear();
    for (int t : by_room) {
      if (static_cast<int>(largest.size()) == rounds[j] || residual[t] < gpus[j]) break;
      largest.push_back(t);
    }
    bool ok = static_cast<int>(earliest.size()) == rounds[j];
    std::fill(in_earliest.begin(), in_earliest.end(), 0);
    for (int t : earliest) in_earliest[t] = 1;
    const bool same =
        largest.size() == earliest.size() &&
        std::all_of(largest.begin(), largest.end(), [&](int t) { return in_earliest[t]; });
    if (ok && !same) {
      after = residual;
      for (int t : earliest) after[t] -= gpus[j];
      if (sequential_check) {
        RoundOrder rest(after);
        for (int i : greedy) {
          if (placed[i] || i == j || rounds[i] <= 0) continue;
          if (!rest.Take(gpus[i], rounds[i], nullptr)) {
            ok = false;
            break;
          }
        }
      } else {
        unplaced.Add(j, -1);
        ok = unplaced.Fit(after);
        unplaced.Add(j, 1);
      }
    }
    const std::vector<int>& chosen = ok ? earliest : largest;
    if (static_cast<int>(chosen.size()) < rounds[j]) {
      return BalancedLayout(gpus, rounds, num_gpus, num_rounds);
    }
    for (int t : chosen) residual[t] -= gpus[j], x[j][t] = 1;
    placed[j] = 1;
    unplaced.Add(j, -1);
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
      // RoundMembers(x, t, density) updated in place: order (density, index) ascending.
      const auto by_density_then_index = [&](int p, int q) {
        return density[p] != density[q] ? density[p] < density[q] : p < q;
      };
      for (int b : evict) {
        members.erase(std::lower_bound(members.begin(), members.end(), b, by_density_then_index));
      }
      members.insert(std::upper_bound(members.begin(), members.end(), a, by_density_then_index), a);
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
                            const std::vector<double>& priority, int num_gpus, int num_rounds,
                            const RankedLayoutOptions& options) {
  WindowSchedule x =
      DensityLayout(gpus, rounds, priority, num_gpus, num_rounds, options.sequential_check);
  if (x.empty()) return x;
  for (int pass = 0; pass < kExchangePasses; ++pass) {
    if (!ExchangePass(x, gpus, rounds, priority, num_gpus)) break;
  }
  return x;
}

}  // namespace adaptsim
