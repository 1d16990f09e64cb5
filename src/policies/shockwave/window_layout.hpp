// Laying out Shockwave's window plan: which of the T window rounds each job gets, given the
// number of rounds n_j it was granted (docs/policies.md §8.4-§8.5; reference
// `scheduler/shockwave.py` of uw-mad-dash/shockwave@8a44f4a).
//
// Jobs have gang sizes w_j (GPUs); a layout is a 0/1 matrix x_jt with row sums n_j and
// Σ_j w_j x_jt <= G in every round. For gang sizes that are powers of two dividing G the greedy
// layout below decides feasibility exactly (docs/shockwave.md, "Exact feasibility"; exhaustive
// test in tests/test_shockwave_window.cpp). All functions are pure and allocation-light:
// O(N log N + Σ_j T) per greedy layout, no sorting of rounds per job.
#pragma once

#include <vector>

namespace adaptsim {

/// x[j][t] ∈ {0,1}, jobs × rounds.
using WindowSchedule = std::vector<std::vector<char>>;

/// Greedy layout (gangs by decreasing size, then decreasing n, then index; each into the n_j
/// rounds with the largest free capacity, earliest first among equals). Returns an empty schedule
/// iff it fails, which for power-of-two gangs dividing `num_gpus` means no layout exists.
WindowSchedule BalancedLayout(const std::vector<int>& gpus, const std::vector<int>& rounds,
                              int num_gpus, int num_rounds);
/// BalancedLayout written into `x` (resized to jobs × rounds, storage reused); false if it
/// fails (x then holds a partial layout).
bool BalancedLayoutInto(const std::vector<int>& gpus, const std::vector<int>& rounds, int num_gpus,
                        int num_rounds, WindowSchedule& x);
/// Whether BalancedLayout succeeds (aggregate bound first); true for no work at all.
bool LayoutFeasible(const std::vector<int>& gpus, const std::vector<int>& rounds, int num_gpus,
                    int num_rounds);

/// Options of RankedLayout.
struct RankedLayoutOptions {
  /// Check step 1's "jobs still to place keep a greedy layout" job by job, O(N·T) per job,
  /// instead of per (gang size, n) group (same verdicts); for tests and benchmarks.
  bool sequential_check = false;
};

/// A layout with row sums n_j that approximately minimises the reference's ranking objective
/// Σ_{n_j > 0} (π_j / n_j) Σ_t t y_jt (`rank_in_schedule_jobs`, `shockwave.py:714-793`):
/// 1. jobs by π_j / n_j take their earliest rounds while the jobs still to place keep a greedy
///    layout (otherwise the rounds with most room; BalancedLayout when that order fails);
/// 2. exchange passes until none improves (at most 20): for each round t, jobs absent from t
///    (highest π_j / (n_j w_j) first) move in from their latest round t' > t, evicting to t' the
///    cheapest jobs of t absent from t' when t is full, if that lowers the objective.
/// Step 2 matters: step 1 alone falls back to BalancedLayout in most canonical re-solves, which
/// put the fallback's urgent ρ̂^100 jobs at the end of the window (docs/shockwave.md). Checked
/// against CBC's ranking MILP on 200 random instances (tests/test_shockwave_window.cpp).
/// Empty iff no layout exists.
WindowSchedule RankedLayout(const std::vector<int>& gpus, const std::vector<int>& rounds,
                            const std::vector<double>& priority, int num_gpus, int num_rounds,
                            const RankedLayoutOptions& options = {});

}  // namespace adaptsim
