// Shockwave's window problem: exact layout feasibility for power-of-two gangs (exhaustive check
// against brute force), the G = 8, T = 2 counterexample, the structured solver's math, and the
// 200-instance cross-check structured vs general (CBC).
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "policies/shockwave/shockwave_window_milp.hpp"
#include "policies/shockwave/window_structured.hpp"
#include "shockwave_window_support.hpp"

namespace adaptsim {
namespace {

using adaptsim::testing::Uniform;
using adaptsim::testing::WindowProblemBase;

// Brute force: is there a 0/1 matrix with row sums n and Σ_j w_j x_jt <= G for every t?
bool BruteForceFeasible(const std::vector<int>& w, const std::vector<int>& n, int G, int T) {
  std::vector<int> residual(T, G);
  std::function<bool(std::size_t)> place = [&](std::size_t j) -> bool {
    if (j == w.size()) return true;
    // Every subset of rounds of size n[j].
    for (int mask = 0; mask < (1 << T); ++mask) {
      if (__builtin_popcount(mask) != n[j]) continue;
      bool fits = true;
      for (int t = 0; t < T; ++t) fits = fits && (!(mask >> t & 1) || residual[t] >= w[j]);
      if (!fits) continue;
      for (int t = 0; t < T; ++t) residual[t] -= (mask >> t & 1) ? w[j] : 0;
      const bool ok = place(j + 1);
      for (int t = 0; t < T; ++t) residual[t] += (mask >> t & 1) ? w[j] : 0;
      if (ok) return true;
    }
    return false;
  };
  return place(0);
}

bool ValidLayout(const WindowSchedule& x, const std::vector<int>& w, const std::vector<int>& n,
                 int G, int T) {
  if (x.size() != w.size()) return false;
  for (int t = 0; t < T; ++t) {
    int load = 0;
    for (std::size_t j = 0; j < w.size(); ++j) load += x[j][t] ? w[j] : 0;
    if (load > G) return false;
  }
  for (std::size_t j = 0; j < w.size(); ++j) {
    if (std::count(x[j].begin(), x[j].end(), 1) != n[j]) return false;
  }
  return true;
}

// The counterexample: the aggregate bound Σ w n <= G T holds (10 <= 16) but the 8-GPU
// job fills one round, so the 1-GPU job cannot get two distinct rounds.
TEST(ShockwaveWindowLayout, AggregateCapacityIsNotSufficient) {
  EXPECT_FALSE(LayoutFeasible({8, 1}, {1, 2}, 8, 2));
  EXPECT_FALSE(BruteForceFeasible({8, 1}, {1, 2}, 8, 2));
  EXPECT_TRUE(LayoutFeasible({8, 1}, {1, 1}, 8, 2));
  EXPECT_TRUE(LayoutFeasible({8, 1, 1}, {0, 2, 2}, 8, 2));
  EXPECT_FALSE(LayoutFeasible({8, 1, 1}, {1, 1, 2}, 8, 2));
}

// Exhaustive: every multiset of up to 4 gangs with sizes dividing G ∈ {2, 4, 8}, every T <= 4 and
// every n ∈ [0, T]^jobs. The greedy layout is feasible exactly when brute force finds a layout,
// and what it returns is a valid layout.
TEST(ShockwaveWindowLayout, GreedyLayoutIsExactForPowerOfTwoGangs) {
  int checked = 0, infeasible = 0;
  for (int G : {2, 4, 8}) {
    std::vector<int> sizes;
    for (int s = 1; s <= G; s *= 2) sizes.push_back(s);
    for (int T = 1; T <= 4; ++T) {
      for (int jobs = 1; jobs <= (T <= 3 ? 4 : 3); ++jobs) {
        std::vector<int> size_index(jobs, 0);
        std::function<void(int, int)> sizes_rec = [&](int j, int from) {
          if (j == jobs) {
            std::vector<int> w;
            for (int i : size_index) w.push_back(sizes[i]);
            std::vector<int> n(jobs, 0);
            std::function<void(int)> rounds_rec = [&](int i) {
              if (i == jobs) {
                const bool expected = BruteForceFeasible(w, n, G, T);
                ASSERT_EQ(LayoutFeasible(w, n, G, T), expected);
                if (expected) {
                  EXPECT_TRUE(ValidLayout(BalancedLayout(w, n, G, T), w, n, G, T));
                  std::vector<double> pi(jobs, 1.0);
                  EXPECT_TRUE(ValidLayout(RankedLayout(w, n, pi, G, T), w, n, G, T));
                } else {
                  ++infeasible;
                }
                ++checked;
                return;
              }
              for (int v = 0; v <= T; ++v) n[i] = v, rounds_rec(i + 1);
            };
            rounds_rec(0);
            return;
          }
          for (int s = from; s < static_cast<int>(sizes.size()); ++s) {
            size_index[j] = s;
            sizes_rec(j + 1, s);
          }
        };
        sizes_rec(0, 0);
      }
    }
  }
  EXPECT_EQ(checked, 28183);  // the enumeration above, all of it
  EXPECT_GT(infeasible, 1000) << infeasible;
  RecordProperty("infeasible_cases", infeasible);
}

WindowProblem Base(int G, int T, double k) {
  return WindowProblemBase(G, T, k);
}

// One job, one GPU: R = 1000 s, ē = 60 s, E = 100, c = 0. Four rounds (480 s) plan 8 epochs;
// Φ = f(0.08)/(1·4) - k (1000 - 480) with f(0.08) = ln 1e-6 + 0.4 (ln 0.2 - ln 1e-6).
TEST(ShockwaveWindowStructured, SingleJobTakesEveryRound) {
  WindowProblem p = Base(1, 4, 1e-3);
  p.jobs.push_back({1, 100.0, 0.0, 60.0, 1000.0, 1.0});
  WindowSolution s = SolveWindowStructured(p);
  ASSERT_TRUE(s.HasSolution());
  EXPECT_EQ(s.rounds, std::vector<int>{4});
  const double f = std::log(1e-6) + 0.4 * (std::log(0.2) - std::log(1e-6));
  EXPECT_NEAR(s.objective, f / 4.0 - 1e-3 * 520.0, 1e-12);
}

// Finish-time caps that need more rounds than exist make the problem infeasible; both solvers
// agree.
TEST(ShockwaveWindowStructured, UnreachableFinishTimeIsInfeasible) {
  WindowProblem p = Base(2, 3, 1e-3);
  p.jobs.push_back({2, 100.0, 0.0, 60.0, 1000.0, 1.0, 100.0});  // needs s <= 100: 900 s > 360 s
  EXPECT_EQ(SolveWindowStructured(p).status, WindowStatus::kInfeasible);
  EXPECT_EQ(SolveWindowGeneral(p, {}).status, WindowStatus::kInfeasible);
  p.jobs[0].max_shortfall_s = -5.0;
  EXPECT_EQ(SolveWindowStructured(p).status, WindowStatus::kInfeasible);
}

// Two 1-GPU jobs on one GPU, two rounds, k = 1: the job with the larger remaining time gets both
// rounds' worth of the max term: min over splits of max(R1 - 120 n1, R2 - 120 n2).
TEST(ShockwaveWindowStructured, MaxRemainingTermDrivesTheSplit) {
  WindowProblem p = Base(1, 2, 1.0);
  p.jobs.push_back({1, 1000.0, 0.0, 1.0, 5000.0, 1.0});
  p.jobs.push_back({1, 1000.0, 0.0, 1.0, 4000.0, 1.0});
  WindowSolution s = SolveWindowStructured(p);
  ASSERT_TRUE(s.HasSolution());
  EXPECT_EQ(s.rounds, (std::vector<int>{2, 0}));
}

// A job with no work left (docs/shockwave.md, "A job with no work left"): its progress is at the
// last base (c_j = E_j), its forecast is the reference's 1 s and its weight the fallback's
// urgent ρ̂^100 — here 1e92, what job 86 of the 460-job trace reaches at 128 GPUs. Its utility and
// shortfall do not depend on the rounds it gets, so its weight cannot change the optimum, and
// with every GPU wanted by the other jobs the optimum gives it no round, as the reference's
// planner does. Both solvers must return the plan they find with weight 1.
TEST(ShockwaveWindowStructured, JobWithNoWorkLeftGetsNoRounds) {
  WindowProblem p = Base(2, 4, 1e-3);
  p.jobs.push_back({1, 50.0, 10.0, 60.0, 2400.0, 1.0});
  p.jobs.push_back({1, 30.0, 5.0, 80.0, 2000.0, 3.0});
  p.jobs.push_back({1, 40.0, 36.0, 30.0, 150.0, 2.0});
  p.jobs.push_back({1, 14.0, 14.0, 51.0, 1.0, 1.0});
  const WindowJob& done = p.jobs.back();
  for (int n = 0; n <= p.num_rounds; ++n) {
    EXPECT_EQ(PlannedEpochs(p, done, n), 0.0) << n;
    EXPECT_EQ(WeightedLogUtility(p, done, n), 0.0) << n;
    EXPECT_EQ(Shortfall(p, done, n), 1.0) << n;
  }
  MilpOptions options;
  options.relative_gap = 1e-6;
  const WindowSolution expected = SolveWindowGeneral(p, options);
  ASSERT_EQ(expected.status, WindowStatus::kOptimal);
  ASSERT_EQ(SolveWindowStructured(p).rounds, expected.rounds);
  EXPECT_EQ(expected.rounds.back(), 0);
  p.jobs.back().weight = 1e92;
  for (const WindowSolution& s : {SolveWindowStructured(p), SolveWindowGeneral(p, options)}) {
    ASSERT_TRUE(s.HasSolution());
    EXPECT_EQ(s.rounds, expected.rounds);
    EXPECT_NEAR(s.objective, expected.objective, 1e-12);
  }
}

WindowProblem RandomInstance(Uniform& u) {
  const int G = u.Next() < 0.5 ? 4 : 8;
  const int T = u.Int(2, 6);
  const double ks[] = {0.0, 1e-4, 1e-3, 1e-2, 1.0};
  WindowProblem p = Base(G, T, ks[u.Int(0, 4)]);
  const int jobs = u.Int(2, 8);
  for (int j = 0; j < jobs; ++j) {
    WindowJob job;
    const int sizes[] = {1, 1, 1, 2, 2, 4, 8};
    do job.gpus = sizes[u.Int(0, 6)];
    while (job.gpus > G);
    job.epochs = u.Int(2, 200);
    job.progress = std::floor(u.Next() * job.epochs);
    job.mean_epoch_s = 5.0 + u.Next() * 300.0;
    job.remaining_s = (job.epochs - job.progress) * job.mean_epoch_s * (0.6 + 0.8 * u.Next());
    job.weight = u.Next() < 0.15 ? std::pow(1.0 + u.Next(), 5.0) : 1.0;
    if (u.Next() < 0.3) job.max_shortfall_s = job.remaining_s - 120.0 * T * u.Next() * 0.8;
    p.jobs.push_back(job);
  }
  return p;
}

// Cross-check on 240 random instances (fixed Philox seeds): same feasibility verdict, and the
// structured objective equals CBC's within the relative gap (1e-3) — never worse beyond it.
TEST(ShockwaveWindowCrossCheck, StructuredMatchesGeneralOnRandomInstances) {
  Uniform u(20230417u);
  MilpOptions options;
  options.relative_gap = 1e-6;
  options.max_nodes = 200000;
  int feasible = 0, structured_better = 0;
  double worst = 0.0;
  for (int instance = 0; instance < 240; ++instance) {
    WindowProblem p = RandomInstance(u);
    WindowSolution s = SolveWindowStructured(p);
    WindowSolution g = SolveWindowGeneral(p, options);
    ASSERT_NE(g.status, WindowStatus::kLimitReached) << "instance " << instance;
    ASSERT_EQ(s.HasSolution(), g.HasSolution()) << "instance " << instance;
    if (!s.HasSolution()) continue;
    ++feasible;
    EXPECT_TRUE(ValidLayout(
        s.x,
        [&] {
          std::vector<int> w;
          for (const WindowJob& j : p.jobs) w.push_back(j.gpus);
          return w;
        }(),
        s.rounds, p.num_gpus, p.num_rounds));
    const double tolerance = 1e-3 * std::abs(g.objective) + 1e-9;
    const double shortfall = g.objective - s.objective;
    worst = std::max(worst, shortfall / std::max(1e-12, std::abs(g.objective)));
    EXPECT_LE(shortfall, tolerance)
        << "instance " << instance << ": structured " << s.objective << " general " << g.objective;
    if (shortfall < -tolerance) ++structured_better;
  }
  RecordProperty("feasible_instances", feasible);
  RecordProperty("worst_relative_shortfall", std::to_string(worst));
  EXPECT_GE(feasible, 150);
  // CBC was asked for gap 1e-6: the structured solver must not beat it beyond the tolerance.
  EXPECT_EQ(structured_better, 0);
}

// Σ_j (π_j / n_j) Σ_t t x_jt, the ranking objective (`rank_in_schedule_jobs`,
// `shockwave.py:714-793`).
double RankingObjective(const WindowSchedule& x, const std::vector<int>& n,
                        const std::vector<double>& pi) {
  double value = 0.0;
  for (std::size_t j = 0; j < x.size(); ++j) {
    if (n[j] <= 0) continue;
    for (std::size_t t = 0; t < x[j].size(); ++t) value += x[j][t] ? pi[j] * t / n[j] : 0.0;
  }
  return value;
}

// The structured ranking (RankedLayout: density order, then exchange passes) against CBC's exact
// ranking MILP on 200 random instances with a feasible layout: priorities 1 .. 1e12 (the
// fallback's ρ̂^λ and ρ̂^100 weights), gangs {1, 2, 4, 8}, G ∈ {8, 16, 32}, T ∈ 3..8. The
// structured layout must be valid, and its objective within 2 % of CBC's on average and never
// more than 25 % worse (it is a heuristic; the urgent jobs' rounds, which dominate, are exact).
TEST(ShockwaveWindowCrossCheck, RankedLayoutIsCloseToTheRankingMilp) {
  Uniform u(777u);
  MilpOptions options;
  options.relative_gap = 1e-6;
  options.max_nodes = 200000;
  int checked = 0;
  double sum_ratio = 0.0, worst = 0.0;
  while (checked < 200) {
    const int G = 8 << u.Int(0, 2);
    const int T = u.Int(3, 8);
    const int jobs = u.Int(3, 12);
    std::vector<int> w, n;
    std::vector<double> pi;
    for (int j = 0; j < jobs; ++j) {
      const int sizes[] = {1, 1, 1, 2, 2, 4, 8};
      w.push_back(sizes[u.Int(0, 6)]);
      n.push_back(u.Next() < 0.3 ? T : u.Int(0, T));
      const double r = u.Next();
      pi.push_back(r < 0.5    ? 1.0
                   : r < 0.85 ? std::pow(1.0 + u.Next(), 12.0)
                              : std::pow(1.0 + u.Next(), 40.0));
    }
    if (!LayoutFeasible(w, n, G, T)) continue;
    const WindowSchedule s = RankedLayout(w, n, pi, G, T);
    const WindowSchedule g = SolveRankingGeneral(w, n, pi, G, T, options);
    ASSERT_TRUE(ValidLayout(s, w, n, G, T)) << "instance " << checked;
    ASSERT_TRUE(ValidLayout(g, w, n, G, T)) << "instance " << checked;
    const double vs = RankingObjective(s, n, pi), vg = RankingObjective(g, n, pi);
    const double ratio = vg > 0.0 ? vs / vg : (vs > 0.0 ? 2.0 : 1.0);
    sum_ratio += ratio;
    worst = std::max(worst, ratio);
    EXPECT_GE(vs, vg * (1.0 - 1e-6) - 1e-9) << "instance " << checked << " beats CBC";
    ++checked;
  }
  RecordProperty("mean_ratio", std::to_string(sum_ratio / checked));
  RecordProperty("worst_ratio", std::to_string(worst));
  EXPECT_LE(sum_ratio / checked, 1.02);
  EXPECT_LE(worst, 1.25);
}

// The sparse local search against its reference implementation on 300 random instances with
// many jobs (fixed Philox seed; G ∈ {8, 16, 32, 64}, T ∈ 4..20, 10–120 jobs with gangs
// {1, 2, 4, 8}, offered work up to 3× the window, fallback-like weights up to ~1e12, finish-time
// caps on some instances): the same rounds n_j, the same layout, objective and status, bit for
// bit.
TEST(ShockwaveWindowStructured, SparseLocalSearchEqualsReference) {
  Uniform u(1234567u);
  WindowStructuredOptions reference;
  reference.reference = true;
  int feasible = 0;
  for (int instance = 0; instance < 300; ++instance) {
    const int gpus_options[] = {8, 16, 32, 64};
    const int G = gpus_options[u.Int(0, 3)];
    const int T = u.Int(4, 20);
    const double ks[] = {0.0, 1e-3, 1.0, 1e5};
    WindowProblem p = Base(G, T, ks[u.Int(0, 3)]);
    const int jobs = u.Int(10, 120);
    const bool capped = u.Next() < 0.3;
    const double load = 0.3 + 2.7 * u.Next();  // offered GPU-rounds / G T
    const double round_work = load * G * T / jobs;
    for (int j = 0; j < jobs; ++j) {
      WindowJob job;
      const int sizes[] = {1, 1, 1, 1, 2, 2, 4, 8};
      job.gpus = sizes[u.Int(0, 7)];
      job.epochs = u.Int(2, 200);
      job.progress = std::floor(u.Next() * job.epochs * 0.9);
      job.mean_epoch_s = 5.0 + u.Next() * 300.0;
      // Remaining work of about round_work / w_j rounds of 120 s, spread by a factor 4.
      job.remaining_s = 120.0 * round_work / job.gpus * (0.25 + 1.75 * u.Next());
      const double r = u.Next();
      job.weight = r < 0.5 ? 1.0 : (r < 0.9 ? std::pow(1.0 + u.Next(), 5.0) : 1e12 * u.Next());
      if (capped && u.Next() < 0.3) job.max_shortfall_s = job.remaining_s * (0.5 + u.Next());
      p.jobs.push_back(job);
    }
    const WindowSolution fast = SolveWindowStructured(p);
    const WindowSolution slow = SolveWindowStructured(p, reference);
    ASSERT_EQ(fast.status, slow.status) << "instance " << instance;
    if (!fast.HasSolution()) continue;
    ++feasible;
    EXPECT_EQ(fast.rounds, slow.rounds) << "instance " << instance;
    EXPECT_EQ(fast.x, slow.x) << "instance " << instance;
    EXPECT_EQ(fast.objective, slow.objective) << "instance " << instance;
    EXPECT_EQ(fast.nodes, slow.nodes) << "instance " << instance;
  }
  RecordProperty("feasible", std::to_string(feasible));
  EXPECT_GE(feasible, 200);
}

// RankedLayout's grouped check of the jobs still to place (one TakeMany per (gang, n) group)
// against the job-by-job greedy check on 400 random instances (fixed Philox seed; G ∈ {8, 16,
// 32, 64}, T ∈ 3..20, 5–150 jobs with gangs {1, 2, 4, 8}, n_j from a greedy layout that exists,
// priorities 1 to ~1e12): the same layout, bit for bit.
TEST(ShockwaveWindowLayout, GroupedCheckEqualsSequentialCheck) {
  Uniform u(987654321u);
  RankedLayoutOptions sequential;
  sequential.sequential_check = true;
  int checked = 0;
  for (int instance = 0; instance < 400; ++instance) {
    const int gpus_options[] = {8, 16, 32, 64};
    const int G = gpus_options[u.Int(0, 3)];
    const int T = u.Int(3, 20);
    const int jobs = u.Int(5, 150);
    std::vector<int> w, n;
    std::vector<double> pi;
    const double fill = 0.5 + 0.7 * u.Next();  // target share of the window's GPU-rounds
    long used = 0;
    for (int j = 0; j < jobs; ++j) {
      const int sizes[] = {1, 1, 1, 1, 2, 2, 4, 8};
      w.push_back(sizes[u.Int(0, 7)]);
      const int room = static_cast<int>((fill * G * T - used) / w.back());
      n.push_back(std::clamp(u.Int(0, T), 0, std::max(0, std::min(T, room))));
      used += static_cast<long>(w.back()) * n.back();
      const double r = u.Next();
      pi.push_back(r < 0.4 ? 1.0 : (r < 0.8 ? std::pow(1.0 + u.Next(), 12.0) : 1e12 * u.Next()));
    }
    while (!LayoutFeasible(w, n, G, T)) {
      const int j = u.Int(0, jobs - 1);
      if (n[j] > 0) --n[j];
    }
    const WindowSchedule grouped = RankedLayout(w, n, pi, G, T);
    const WindowSchedule reference = RankedLayout(w, n, pi, G, T, sequential);
    ASSERT_TRUE(ValidLayout(grouped, w, n, G, T)) << "instance " << instance;
    EXPECT_EQ(grouped, reference) << "instance " << instance;
    ++checked;
  }
  EXPECT_EQ(checked, 400);
}

}  // namespace
}  // namespace adaptsim
