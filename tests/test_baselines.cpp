// Unit tests of the Shockwave-paper baselines on the cases where the reference's answer is unique
// and known (docs/policies.md §6, §7.1), closed form vs CLP agreement, and bad input.
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "adaptsim/analytic_center.hpp"
#include "adaptsim/cbc_solver.hpp"
#include "adaptsim/clp_solver.hpp"
#include "adaptsim/error.hpp"
#include "adaptsim/linear_sum_assignment.hpp"
#include "adaptsim/registry.hpp"
#include "policies/gavel/allox.hpp"
#include "policies/gavel/finish_time_fairness.hpp"
#include "policies/gavel/isolated.hpp"
#include "policies/gavel/isolated_plus.hpp"
#include "policies/gavel/max_min_fairness.hpp"
#include "policies/gavel/max_sum_throughput.hpp"
#include "policies/gavel/min_total_duration.hpp"

namespace adaptsim {
namespace {

AllocationPolicy& AsAllocation(PolicyInstance& policy) {
  return *std::get<std::unique_ptr<AllocationPolicy>>(policy);
}

// A snapshot of m jobs (ids 0…m−1) on one GPU type; owns the JobSpecs the views point to.
struct Snapshot {
  std::vector<std::unique_ptr<JobSpec>> specs;
  ClusterState state;

  Snapshot(int gpus, const std::vector<double>& throughputs, const std::vector<int>& scale_factors,
           const std::vector<std::int64_t>& remaining, const std::vector<double>& since_arrival) {
    state.num_gpus = gpus;
    for (std::size_t i = 0; i < throughputs.size(); ++i) {
      specs.push_back(std::make_unique<JobSpec>());
      specs.back()->id = static_cast<JobId>(i);
      specs.back()->scale_factor = scale_factors[i];
      ActiveJobView view;
      view.id = static_cast<JobId>(i);
      view.spec = specs.back().get();
      view.scale_factor = scale_factors[i];
      view.throughput_steps_per_s = throughputs[i];
      view.remaining_steps = remaining.empty() ? 1000 : remaining[i];
      view.total_steps = view.remaining_steps;
      view.time_since_arrival_s = since_arrival.empty() ? 0.0 : since_arrival[i];
      state.jobs.push_back(view);
    }
  }
};

std::vector<double> Values(const Allocation& allocation) {
  std::vector<double> x;
  for (const auto& [id, value] : allocation.time_fraction) x.push_back(value);
  return x;
}

void ExpectVectorNear(const std::vector<double>& actual, const std::vector<double>& expected,
                      double tolerance) {
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_NEAR(actual[i], expected[i], tolerance) << "index " << i;
  }
}

// ---- MST (docs/policies.md §6.1, §6.7) ----

TEST(MaxSumThroughput, SymmetricTieSplitToy) {
  const std::vector<double> t = {10, 10, 10, 5, 5};
  const std::vector<int> s = {1, 1, 1, 1, 1};
  ExpectVectorNear(MaxSumThroughputClosedForm(t, s, 2, 1e-9), {2.0 / 3, 2.0 / 3, 2.0 / 3, 0, 0},
                   1e-15);
  // CLP barrier without crossover returns the same centred point (dual simplex would not).
  ExpectVectorNear(MaxSumThroughputClp(t, s, 2, 1000), {2.0 / 3, 2.0 / 3, 2.0 / 3, 0, 0}, 1e-6);
}

TEST(MaxSumThroughput, KnapsackToyWithScaleFactors) {
  const std::vector<double> t = {40, 12, 30, 9};
  const std::vector<int> s = {4, 1, 2, 1};
  ExpectVectorNear(MaxSumThroughputClosedForm(t, s, 4, 1e-9), {0.25, 1, 1, 0}, 1e-15);
  ExpectVectorNear(MaxSumThroughputClp(t, s, 4, 1000), {0.25, 1, 1, 0}, 1e-6);
}

TEST(MaxSumThroughput, PolicyPathsAgreeAndAliasIsRegistered) {
  Snapshot snap(3, {7, 7, 3, 9, 2, 7}, {1, 2, 1, 1, 1, 2}, {}, {});
  auto closed = MakePolicy("max_sum_throughput_perf", nlohmann::json::object());
  auto clp = MakePolicy("max_sum_throughput", {{"solver", "clp"}});
  // ratios 7, 3.5, 3, 9, 2, 3.5: job 3 (1 GPU), job 0 (1 GPU), then the tie {1, 5} splits 1 GPU.
  const std::vector<double> expected = {1, 0.25, 0, 1, 0, 0.25};
  ExpectVectorNear(Values(AsAllocation(closed).ComputeAllocation(snap.state)), expected, 1e-15);
  ExpectVectorNear(Values(AsAllocation(clp).ComputeAllocation(snap.state)), expected, 1e-6);
}

// ---- Gavel max-min fairness, contended (docs/policies.md §3.3, §6.3) ----

TEST(MaxMinFairness, ContendedIsUniqueCOverMS) {
  Snapshot snap(4, {1, 1, 1, 1, 1, 1}, {1, 2, 1, 4, 1, 1}, {}, {});
  for (auto& spec : snap.specs) spec->priority_weight = 1.0;
  MaxMinFairnessPolicy policy(MaxMinFairnessOptions{});
  std::vector<double> x = Values(policy.ComputeAllocation(snap.state));
  const std::vector<int> s = {1, 2, 1, 4, 1, 1};
  for (std::size_t i = 0; i < s.size(); ++i) EXPECT_DOUBLE_EQ(x[i], 4.0 / (6.0 * s[i]));
}

// ---- Themis (docs/policies.md §6.4) ----

TEST(FinishTimeFairness, CapacityBindingToyIsUniqueAndPathsAgree) {
  Snapshot snap(1, {10, 10, 10}, {1, 1, 1}, {1000, 2000, 3000}, {0, 0, 0});
  for (const char* solver : {"closed_form", "clp"}) {
    auto policy = MakePolicy("finish_time_fairness", {{"solver", solver}});
    ExpectVectorNear(Values(AsAllocation(policy).ComputeAllocation(snap.state)),
                     {1.0 / 3, 1.0 / 3, 1.0 / 3}, 1e-9);
  }
  std::vector<ThemisJob> jobs;
  for (double n : {1000.0, 2000.0, 3000.0}) jobs.push_back({10, n, 0, 3 * n / 10, 1});
  const ThemisOptimum closed = ThemisSolveClosedForm(jobs, 1);
  const ThemisOptimum clp = ThemisSolveClp(jobs, 1, 1000);
  EXPECT_TRUE(closed.unique);
  EXPECT_TRUE(clp.unique);
  EXPECT_NEAR(closed.rho, 1.0, 1e-14);
  EXPECT_NEAR(clp.rho, 1.0, 1e-8);  // CLP path: primal tolerance 1e-9
  EXPECT_GT(clp.lp_solves, 10);
}

TEST(FinishTimeFairness, NonUniqueFacePinsBottleneckAndRespectsBounds) {
  // The long-waiting job 0 pins ρ* = ρ_floor; the others lie inside [ℓ_i, 1] with Σ s x <= C.
  Snapshot snap(8, {10, 10, 20, 5}, {1, 2, 1, 1}, {1000, 500, 4000, 300}, {5000, 0, 10, 100});
  for (const char* rule : {"analytic_center", "lower", "fill", "clp_barrier"}) {
    auto policy = MakePolicy("finish_time_fairness", {{"face_rule", rule}});
    std::vector<double> x = Values(AsAllocation(policy).ComputeAllocation(snap.state));
    EXPECT_NEAR(x[0], 1.0, 1e-9) << rule;
    double used = x[0] + 2 * x[1] + x[2] + x[3];
    EXPECT_LE(used, 8.0 + 1e-7) << rule;
  }
}

TEST(FinishTimeFairness, CumulativeIsolatedTimeAccruesBetweenCalls) {
  // First call, one job alone on 1 GPU: iso = 10 steps/s. Second call: 500 steps later,
  // cumiso_0 = (1000 − 500)/10 = 50 s, so E_0 = 50 + 500/10 = 100 and ρ_0(1) = (100 + 50)/100 = 1.5
  // pins ρ*. Job 1 (E_1 = 100, ρ_1 = 1/x) then has ℓ_1 = 1/1.5; without the accrued 50 s it would
  // be 1/3.
  Snapshot first(1, {10}, {1}, {1000}, {0});
  FinishTimeFairnessOptions options;
  options.face_rule = ThemisFaceRule::kLower;
  FinishTimeFairnessPolicy policy(options);
  EXPECT_DOUBLE_EQ(Values(policy.ComputeAllocation(first.state))[0], 1.0);
  Snapshot second(2, {10, 10}, {1, 1}, {500, 1000}, {100, 0});
  std::vector<double> x = Values(policy.ComputeAllocation(second.state));
  EXPECT_NEAR(x[0], 1.0, 1e-12);
  EXPECT_NEAR(x[1], 1.0 / 1.5, 1e-12);
  std::vector<ThemisJob> jobs = {{10, 500, 100, 100, 1}, {10, 1000, 0, 100, 1}};
  EXPECT_NEAR(ThemisSolveClosedForm(jobs, 2).rho, 1.5, 1e-12);
}

TEST(FinishTimeFairness, NegativeRemainingStepsFallsBackToIsolated) {
  // N < 0 (zero-step failure path) makes the reference's cvxpy problem non-DCP → Isolated.
  Snapshot snap(2, {10, 10, 10}, {1, 2, 1}, {100, -5, 300}, {10, 10, 10});
  FinishTimeFairnessPolicy policy(FinishTimeFairnessOptions{});
  ExpectVectorNear(Values(policy.ComputeAllocation(snap.state)), {2.0 / 3, 1.0 / 3, 2.0 / 3},
                   1e-15);
}

// ---- OSSP (docs/policies.md §3.1, §6.2, §7.1 check 1) ----

TEST(MinTotalDuration, ToyHorizonAndBisectionReplay) {
  OsspInputs in{{10, 20, 5}, {36000, 120000, 9000}, {1, 2, 1}, 2};
  EXPECT_DOUBLE_EQ(OsspMinimalHorizon(in), 8700.0);
  EXPECT_NEAR(OsspMinimalHorizonClp(in, 1000), 8700.0, 1e-6);
  const BisectionReplay replay = OsspReplayBisection(8700.0);
  EXPECT_EQ(replay.horizon_s, 8888.18359375);
  EXPECT_EQ(replay.probes, 12);
  // Widening: T* above 1e6 continues in [1e6, 1e7].
  const BisectionReplay wide = OsspReplayBisection(2.5e6);
  EXPECT_GE(wide.horizon_s, 2.5e6);
  EXPECT_LE(wide.horizon_s, 2.5e6 * 1.05);
}

TEST(MinTotalDuration, EveryFaceRuleIsFeasibleForTFound) {
  Snapshot snap(2, {10, 20, 5}, {1, 2, 1}, {36000, 120000, 9000}, {});
  const std::vector<double> lower = {36000 / 8888.18359375 / 10, 120000 / 8888.18359375 / 20,
                                     9000 / 8888.18359375 / 5};  // [0.4050, 0.6751, 0.2025]
  for (const char* rule : {"analytic_center", "clp_barrier", "vertex"}) {
    for (const char* solver : {"closed_form", "clp"}) {
      auto policy = MakePolicy("min_total_duration", {{"face_rule", rule}, {"solver", solver}});
      std::vector<double> x = Values(AsAllocation(policy).ComputeAllocation(snap.state));
      for (int i = 0; i < 3; ++i) EXPECT_GE(x[i], lower[i] - 1e-9) << rule << " job " << i;
      EXPECT_LE(x[0] + 2 * x[1] + x[2], 2.0 + 1e-9) << rule;
    }
  }
  auto vertex = MakePolicy("min_total_duration", {{"face_rule", "vertex"}});
  ExpectVectorNear(Values(AsAllocation(vertex).ComputeAllocation(snap.state)), lower, 1e-15);
}

TEST(AnalyticCenter, SymmetricBoxIsCentredAndStationary) {
  // Identical coordinates stay identical; with ample capacity x solves the 1-D stationarity
  // 1/x − 1/(1−x) + 1/(x−l) − s/(C − Σ s x) = 0.
  auto result = internal::BoxKnapsackAnalyticCenter({0.2, 0.2, 0.2}, {1, 1, 1}, 100.0);
  ASSERT_TRUE(result.interior);
  const double x = result.x[0];
  EXPECT_DOUBLE_EQ(result.x[1], x);
  EXPECT_NEAR(1 / x - 1 / (1 - x) + 1 / (x - 0.2) - 1 / (100 - 3 * x), 0.0, 1e-9);
  // A pinned coordinate (l = 1) stays at 1.
  EXPECT_EQ(internal::BoxKnapsackAnalyticCenter({1.0, 0.1}, {1, 1}, 1.5).x[0], 1.0);
}

// ---- AlloX and its assignment solver (docs/policies.md §3.4, §6.5, §7.1 check 3) ----

// The AlloX cost matrix q[i, ℓ n + j] = (ℓ+1) P_i + τ_i.
std::vector<double> AlloXCost(const std::vector<double>& p, const std::vector<double>& tau,
                              std::int64_t n) {
  const std::int64_t m = static_cast<std::int64_t>(p.size());
  std::vector<double> q(m * n * m);
  for (std::int64_t i = 0; i < m; ++i) {
    for (std::int64_t c = 0; c < n * m; ++c) q[i * n * m + c] = (c / n + 1) * p[i] + tau[i];
  }
  return q;
}

TEST(LinearSumAssignment, IdentityOnConstantMatrices) {
  EXPECT_EQ(internal::LinearSumAssignment(std::vector<double>(9, 1.0), 3, 3),
            (std::vector<std::int64_t>{0, 1, 2}));
  EXPECT_EQ(internal::LinearSumAssignment(std::vector<double>(15, 0.0), 3, 5),
            (std::vector<std::int64_t>{0, 1, 2}));
}

TEST(LinearSumAssignment, WorkedAlloXExampleMatchesScipy) {
  // docs/policies.md §6.5: worker 0 runs rows (2, 0), worker 1 (4, 1), worker 2 (5), worker 3 (3).
  auto q = AlloXCost({889, 442, 42, 705, 169, 484}, {600, 500, 400, 300, 200, 100}, 4);
  EXPECT_EQ(internal::LinearSumAssignment(q, 6, 24), (std::vector<std::int64_t>{0, 1, 4, 3, 5, 2}));
}

TEST(LinearSumAssignment, TiedAlloXInstancesMatchScipy) {
  // Expected columns from scipy.optimize.linear_sum_assignment (SciPy 1.10.1).
  struct Case {
    std::vector<double> p, tau;
    std::vector<std::int64_t> expected;
  };
  const std::vector<Case> cases = {
      {{250, 400, 400, 250, 400, 250, 250}, {0, 0, 0, 0, 120, 120, 0}, {4, 1, 2, 3, 0, 5, 6}},
      {{250, 250, 100, 250, 100, 250, 250}, {0, 60, 0, 120, 0, 120, 60}, {0, 1, 6, 2, 4, 5, 3}},
      {{250, 400, 400, 400, 400, 250, 250}, {120, 120, 60, 60, 120, 60, 0}, {3, 1, 2, 0, 4, 5, 6}},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(internal::LinearSumAssignment(AlloXCost(c.p, c.tau, 3), 7, 21), c.expected);
  }
  const std::vector<double> dense = {0.16,  0.613, 0.044, 0.036, 0.515, 0.466, 0.917, 0.629,
                                     0.514, 0.497, 0.248, 0.012, 0.192, 0.692, 0.201, 0.37,
                                     0.004, 0.83,  0.154, 0.268, 0.88,  0.51,  0.847, 0.64};
  EXPECT_EQ(internal::LinearSumAssignment(dense, 4, 6), (std::vector<std::int64_t>{3, 5, 4, 0}));
}

TEST(AlloX, OneGpuJobsKeepTheirWorkerAndMultiGpuJobsGetOneOverS) {
  // 2 GPUs; jobs 0 and 1 are the oldest. Job 1 (2 GPUs) gets 1/2 and is re-entered every call.
  Snapshot snap(2, {1, 1, 1}, {1, 2, 1}, {100, 50, 400}, {300, 200, 100});
  AlloXPolicy policy(AlloXOptions{});
  std::vector<double> x = Values(policy.ComputeAllocation(snap.state));
  ExpectVectorNear(x, {1.0, 0.5, 0.0}, 0.0);
  // Second call: job 0 holds a worker (x == 1.0), n = 1; job 1 keeps 0.5 from the copy.
  std::vector<double> again = Values(policy.ComputeAllocation(snap.state));
  EXPECT_EQ(again[0], 1.0);
  EXPECT_EQ(again[1], 0.5);
}

// The structured optimum used above exact_assignment_max_cells (allox.hpp) against SciPy's
// assignment on random instances: the k jobs at the last position are the k shortest of the
// considered jobs in both; SciPy's other runners are jobs of the position before (so both are
// optima of the same assignment problem); the structured rule takes the shortest of those.
TEST(AlloX, StructuredOptimumAgreesWithTheAssignmentUpToTheTieAtTheLastPosition) {
  std::mt19937 rng(7);
  int instances_with_a_partial_last_position = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int gpus = 1 + static_cast<int>(rng() % 6), jobs = 1 + static_cast<int>(rng() % 24);
    std::vector<double> throughputs(jobs, 1.0), since_arrival(jobs);
    std::vector<int> scale_factors(jobs, 1);
    std::vector<std::int64_t> remaining(jobs);
    for (int i = 0; i < jobs; ++i) {
      remaining[i] = 100 + 37 * i + static_cast<std::int64_t>(rng() % 1000) * 1000;  // distinct
      since_arrival[i] = 10.0 * (jobs - i);  // job 0 is the oldest
    }
    Snapshot snap(gpus, throughputs, scale_factors, remaining, since_arrival);
    AlloXPolicy exact(AlloXOptions{});
    AlloXOptions options;
    options.exact_assignment_max_cells = 0;
    AlloXPolicy structured(options);
    std::vector<double> x_exact = Values(exact.ComputeAllocation(snap.state));
    std::vector<double> x_structured = Values(structured.ComputeAllocation(snap.state));
    // Considered rows: the oldest m' = min(m, max(floor(0.2 m), n)) jobs, by N/T descending.
    const int rows = std::min(jobs, std::max(static_cast<int>(0.2 * jobs), gpus));
    std::vector<int> order(rows);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](int a, int b) { return remaining[a] > remaining[b]; });
    const int last = (rows - 1) / gpus, at_last = rows - last * gpus;
    std::set<int> top(order.begin() + last * gpus, order.end());
    std::set<int> before(order.begin() + std::max(0, (last - 1) * gpus),
                         order.begin() + last * gpus);
    std::set<int> run_exact, run_structured;
    for (int i = 0; i < jobs; ++i) {
      if (x_exact[i] > 0) run_exact.insert(i);
      if (x_structured[i] > 0) run_structured.insert(i);
    }
    ASSERT_EQ(run_exact.size(), static_cast<std::size_t>(std::min(rows, gpus)));
    ASSERT_EQ(run_structured.size(), run_exact.size());
    for (int i : top) {
      EXPECT_TRUE(run_exact.count(i) && run_structured.count(i)) << "trial " << trial;
    }
    for (int i : run_exact) EXPECT_TRUE(top.count(i) || before.count(i)) << "trial " << trial;
    std::set<int> expected = top;
    if (last > 0) {
      expected.insert(order.begin() + last * gpus - (gpus - at_last), order.begin() + last * gpus);
      ++instances_with_a_partial_last_position;
    }
    EXPECT_EQ(run_structured, expected) << "trial " << trial;
    if (last == 0) {
      EXPECT_EQ(run_exact, run_structured);  // every considered job runs
    }
  }
  EXPECT_GT(instances_with_a_partial_last_position, 50);
}

// LinearSumAssignmentOfKeptColumns against the full solve on random small-integer matrices (many
// ties): whenever it answers, the answer is the full matrix's; when omitted columns are cheap it
// must decline, and when they are dominated by a margin and the columns 0 … rows−1 are kept it must
// answer (omitting one of those can reorder the scan: declined unless no search gets that far).
TEST(LinearSumAssignment, KeptColumnsGiveTheFullResultOrNone) {
  std::mt19937 rng(11);
  int answered = 0, declined = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const std::int64_t rows = 1 + rng() % 6, cols = rows + rng() % 8;
    const int mode = trial % 3;        // 0: dominated; 1: cheap; 2: dominated, from any column
    const bool dominated = mode != 1;  // omitted columns cost 100 more than any kept one
    std::vector<double> full(rows * cols);
    std::vector<std::int64_t> kept, omitted;
    for (std::int64_t c = 0; c < cols; ++c) {
      const bool prefix = c < rows && mode != 2;
      (prefix || rng() % 2 == 0 || c == cols - 1 ? kept : omitted).push_back(c);
    }
    for (std::int64_t i = 0; i < rows; ++i) {
      for (std::int64_t c = 0; c < cols; ++c) full[i * cols + c] = static_cast<double>(rng() % 4);
    }
    for (std::int64_t c : omitted) {
      for (std::int64_t i = 0; i < rows; ++i) full[i * cols + c] += dominated ? 100.0 : 0.0;
    }
    std::vector<double> kept_cost, bound_cost;
    for (std::int64_t i = 0; i < rows; ++i) {
      for (std::int64_t c : kept) kept_cost.push_back(full[i * cols + c]);
      for (std::int64_t c : omitted) bound_cost.push_back(full[i * cols + c]);
    }
    for (auto shift : {internal::LsapCostShift::kMinimum, internal::LsapCostShift::kNone}) {
      const auto expected = internal::LinearSumAssignment(full, rows, cols, shift);
      const auto reduced =
          internal::LinearSumAssignmentOfKeptColumns(kept_cost, rows, kept, bound_cost, shift);
      if (mode == 0) {
        ASSERT_TRUE(reduced.has_value()) << "trial " << trial;
      }
      if (reduced) {
        EXPECT_EQ(*reduced, expected) << "trial " << trial;
        ++answered;
      } else {
        ++declined;
      }
    }
  }
  EXPECT_GT(answered, 2000);
  EXPECT_GT(declined, 500);
  EXPECT_THROW(internal::LinearSumAssignmentOfKeptColumns({1, 2}, 1, {1, 0}, {}), InputError);
}

// AlloX's assignment on its reduced columns against the full rows × (n·rows) matrix, on random
// mixed clusters with many ties (equal processing times across jobs and types, equal ages), both
// cost shifts; zero processing times (ties across levels) and negative ones (a job past its step
// count) may fall back on the full matrix, positive ones must not.
TEST(AlloX, ReducedAssignmentEqualsTheFullMatrixOnMixedClusters) {
  std::mt19937 rng(23);
  int with_several_levels = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const int num_types = 1 + static_cast<int>(rng() % 3);
    std::vector<int> slot_types;
    for (int t = 0; t < num_types; ++t) slot_types.insert(slot_types.end(), rng() % 5, t);
    if (slot_types.empty()) slot_types.push_back(0);
    const std::int64_t rows = 1 + rng() % 24;
    const bool degenerate = trial % 5 == 0;
    std::vector<double> processing(rows * num_types), since_arrival(rows);
    const double choices[] = {250.0, 400.0, 100.0, 1e-3, 3.0e4};
    for (std::int64_t i = 0; i < rows; ++i) {
      for (int t = 0; t < num_types; ++t) processing[i * num_types + t] = choices[rng() % 5];
      since_arrival[i] = 60.0 * static_cast<double>(rng() % 3);
    }
    if (degenerate) processing[rng() % processing.size()] = rng() % 2 == 0 ? 0.0 : -21.5;
    if (rows > static_cast<std::int64_t>(slot_types.size())) ++with_several_levels;
    for (auto shift : {internal::LsapCostShift::kMinimum, internal::LsapCostShift::kNone}) {
      const internal::AlloXAssignment full =
          internal::AssignAlloXSlots(processing, since_arrival, slot_types, shift, false);
      const internal::AlloXAssignment reduced =
          internal::AssignAlloXSlots(processing, since_arrival, slot_types, shift, true);
      EXPECT_TRUE(full.full_matrix);
      EXPECT_EQ(reduced.columns, full.columns) << "trial " << trial;
      if (!degenerate) {
        EXPECT_FALSE(reduced.full_matrix) << "trial " << trial;
      }
    }
  }
  EXPECT_GT(with_several_levels, 300);
}

// ---- Isolated / isolated_plus (docs/policies.md §4, §7.1 check 2) ----

TEST(Isolated, ClosedForms) {
  Snapshot snap(4, {1, 1, 1}, {1, 2, 4}, {}, {});
  ExpectVectorNear(Values(IsolatedPolicy().ComputeAllocation(snap.state)),
                   {1.0, 4.0 / 6.0, 4.0 / 12.0}, 1e-15);
  ExpectVectorNear(Values(IsolatedPlusPolicy().ComputeAllocation(snap.state)), {1.0, 1.0, 1.0},
                   0.0);
  EXPECT_TRUE(IsolatedPlusPolicy().Traits().stop_at_first_misfit);
  EXPECT_FALSE(IsolatedPolicy().Traits().stop_at_first_misfit);
  Snapshot crowded(4, {1, 1, 1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1, 1, 2}, {}, {});
  EXPECT_DOUBLE_EQ(Values(IsolatedPlusPolicy().ComputeAllocation(crowded.state))[7], 0.5);
  EXPECT_DOUBLE_EQ(Values(IsolatedPolicy().ComputeAllocation(crowded.state))[7], 0.25);
}

// ---- bad input ----

TEST(BaselinesBadInput, OptionsOutOfRange) {
  EXPECT_THROW(MakePolicy("allox", {{"alpha", -0.1}}), InputError);
  EXPECT_THROW(MakePolicy("allox", {{"beta", 1}}), InputError);
  EXPECT_THROW(MakePolicy("min_total_duration", {{"face_rule", "random"}}), InputError);
  EXPECT_THROW(MakePolicy("finish_time_fairness", {{"face_rule", "vertex"}}), InputError);
  EXPECT_THROW(MakePolicy("finish_time_fairness", {{"solver", "gurobi"}}), InputError);
  EXPECT_THROW(MakePolicy("max_sum_throughput_perf", {{"tie_tolerance", -1}}), InputError);
  EXPECT_THROW(MakePolicy("min_total_duration", {{"max_iterations", 0}}), InputError);
  EXPECT_THROW(MakePolicy("isolated", {{"alpha", 1}}), InputError);
  try {
    MakePolicy("min_total_duration", {{"face_rule", "random"}});
  } catch (const InputError& error) {
    EXPECT_EQ(error.field(), "min_total_duration.face_rule");
  }
}

TEST(BaselinesBadInput, ZeroThroughputAndOversizedJob) {
  Snapshot zero(4, {10, 0}, {1, 1}, {100, 100}, {0, 0});
  Snapshot big(4, {10, 10}, {1, 8}, {100, 100}, {0, 0});
  for (const char* name :
       {"min_total_duration", "finish_time_fairness", "max_sum_throughput_perf", "allox"}) {
    auto policy = MakePolicy(name, nlohmann::json::object());
    EXPECT_THROW(AsAllocation(policy).ComputeAllocation(zero.state), InputError) << name;
    EXPECT_THROW(AsAllocation(policy).ComputeAllocation(big.state), InputError) << name;
  }
  for (const char* name : {"isolated", "isolated_plus"}) {
    auto policy = MakePolicy(name, nlohmann::json::object());
    EXPECT_THROW(AsAllocation(policy).ComputeAllocation(big.state), InputError) << name;
  }
}

TEST(ClpSolver, ReportsInfeasibleAndIterationLimit) {
  LpProblem lp;  // x >= 2, x <= 1
  lp.AddColumn(2.0, kLpInfinity, 1.0);
  lp.AddEntry(lp.AddRow(-kLpInfinity, 1.0), 0, 1.0);
  EXPECT_EQ(SolveWithClp(lp).status, LpStatus::kInfeasible);
  LpProblem bad = lp;
  bad.AddEntry(5, 0, 1.0);
  EXPECT_THROW(SolveWithClp(bad), InputError);
  LpOptions options;
  options.max_iterations = 0;
  EXPECT_THROW(SolveWithClp(lp, options), InputError);
}

TEST(SolverInput, EmptyBoundsAndNonFiniteCoefficientsAreErrorsNamingTheModel) {
  // An empty bound interval reaches CLP's assertion `lowerValue <= upperValue` (an abort); the
  // adapters refuse it first, naming the model and the column or row.
  const auto message = [](const auto& solve) -> std::string {
    try {
      solve();
    } catch (const InputError& error) {
      return error.what();
    }
    return "no error";
  };
  MilpProblem milp;
  milp.name = "tiny_ilp";
  milp.AddBinary(-1.0);
  milp.AddBinary(-2.0);
  milp.AddEntry(milp.AddRow(-kMilpInfinity, 1.0), 0, 1.0);
  milp.AddEntry(0, 1, 1.0);
  EXPECT_EQ(SolveWithCbc(milp).status, MilpStatus::kOptimal);
  MilpProblem inverted = milp;
  inverted.col_upper[1] = -1.0;  // [0, -1]
  const std::string text = message([&] { SolveWithCbc(inverted); });
  EXPECT_NE(text.find("tiny_ilp"), std::string::npos) << text;
  EXPECT_NE(text.find("column 1 has empty bounds [0, -1]"), std::string::npos) << text;
  LpProblem lp = milp;  // the relaxation, unnamed: "lp"
  lp.name.clear();
  lp.col_lower[0] = 1.0 + 1e-12;
  lp.col_upper[0] = 1.0;
  EXPECT_NE(message([&] { SolveWithClp(lp); }).find("lp"), std::string::npos);
  EXPECT_NE(message([&] { SolveWithClp(lp); }).find("column 0 has empty bounds"),
            std::string::npos);
  lp.col_lower[0] = kLpInfinity;
  lp.col_upper[0] = kLpInfinity;
  EXPECT_THROW(SolveWithClp(lp), InputError);
  lp = milp;
  lp.row_lower[0] = 2.0;  // 2 <= x0 + x1 <= 1
  EXPECT_NE(message([&] { SolveWithClp(lp); }).find("row 0 has empty bounds [2, 1]"),
            std::string::npos);
  lp = milp;
  lp.entries[1].value = std::numeric_limits<double>::infinity();
  EXPECT_NE(message([&] { SolveWithClp(lp); }).find("row 0, column 1 is not finite"),
            std::string::npos);
  inverted = milp;
  inverted.objective[0] = std::nan("");
  EXPECT_THROW(SolveWithCbc(inverted), InputError);
  // A fixed column (lower == upper) is a valid model.
  lp = milp;
  lp.col_lower[1] = lp.col_upper[1] = 1.0;
  EXPECT_EQ(SolveWithClp(lp).status, LpStatus::kOptimal);
}

}  // namespace
}  // namespace adaptsim
