// The Sia policy's round (docs/sia.md §3): configurations, the normalised-goodput matrix with the
// bootstrapped projection (its arithmetic on the check vectors of docs/sia.md §2), the utility
// matrix, the ILP on CBC against brute force on tiny instances, the tie-break and the placement.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "adaptsim/cbc_solver.hpp"
#include "adaptsim/gpu_type_profiles.hpp"
#include "policies/sia/sia_configurations.hpp"
#include "policies/sia/sia_goodput_matrix.hpp"
#include "policies/sia/sia_ilp.hpp"
#include "policies/sia/sia_placement.hpp"
#include "policies/sia/sia_policy.hpp"
#include "policies/sia/sia_projection.hpp"
#include "policies/sia/sia_utility.hpp"
#include "test_support.hpp"

namespace adaptsim {
namespace {

using testing::DataPath;

// The paper's heterogeneous 64-GPU cluster (`simulator_config.py:9-15`).
std::vector<SiaNodeGroup> Heterogeneous(int scale = 1) {
  return {{"aws", 4, 6 * scale, 16}, {"dgx-ext", 8, 2 * scale, 2}, {"rtx", 8, 3 * scale, 3}};
}

// A job with no model anywhere; thr1 of bert on (aws, dgx-ext, rtx) from the check vectors.
SiaJob NewJob(int id, const std::string& app = "bert") {
  SiaJob job;
  job.id = id;
  job.application = app;
  job.goodput.assign(3, {});
  job.min_size_throughput = {13.02, 140.44, 26.85};
  job.max_profiled_replicas = {0, 0, 0};
  job.batch_replica_limit = {96, 96, 96};  // bert: 384 // 4
  return job;
}

int Column(const std::vector<SiaConfiguration>& configs, int group, int gpus) {
  for (std::size_t c = 0; c < configs.size(); ++c) {
    if (configs[c].group == group && configs[c].num_gpus == gpus) return static_cast<int>(c);
  }
  return -1;
}

TEST(SiaConfigurations, TheReferenceColumns) {
  const std::vector<SiaConfiguration> het = SiaConfigurations(Heterogeneous());
  const std::vector<SiaConfiguration> expected = {
      {0, 1, 1},  {0, 1, 2}, {0, 1, 4}, {0, 2, 8},  {0, 3, 12}, {0, 4, 16}, {0, 5, 20},
      {0, 6, 24}, {1, 1, 1}, {1, 1, 2}, {1, 1, 4},  {1, 1, 8},  {1, 2, 16}, {2, 1, 1},
      {2, 1, 2},  {2, 1, 4}, {2, 1, 8}, {2, 2, 16}, {2, 3, 24}};
  EXPECT_EQ(het, expected);
  EXPECT_EQ(SiaConfigurations({{"aws", 4, 16, 16}}).size(), 18u);
  // Scaled 8x: node counts are capped by the profiled physical nodes (18 / 5 / 6 columns).
  const std::vector<SiaConfiguration> scaled = SiaConfigurations(Heterogeneous(8));
  std::vector<int> per_group(3, 0);
  for (const SiaConfiguration& c : scaled) ++per_group[c.group];
  EXPECT_EQ(per_group, (std::vector<int>{18, 5, 6}));
  EXPECT_THROW(SiaConfigurations({{"aws", 6, 2, 0}}), InputError);
  EXPECT_THROW(SiaConfigurations({{"aws", 4, 2, 0}, {"aws", 4, 1, 0}}), InputError);
}

TEST(SiaGoodputMatrix, ANewJobHasSpeedupOneOnEveryTypesOneGpuConfiguration) {
  const auto groups = Heterogeneous();
  const auto configs = SiaConfigurations(groups);
  const SiaMatrix s = BuildSiaGoodputMatrix(groups, configs, {NewJob(0)}, SiaOptions{});
  for (int c = 0; c < s.cols; ++c) {
    EXPECT_EQ(s.at(0, c), configs[c].num_gpus == 1 ? 1.0f : kSiaZeroGain) << c;
  }
}

TEST(SiaGoodputMatrix, ProjectionFromTheFirstModelledTypeFollowsTheReferenceArithmetic) {
  ADAPTSIM_REQUIRE_DATA();
  // thr1 from the profiles, as the engine will pass it.
  GpuTypeApplications apps(DataPath("sia/traces"));
  SiaJob job = NewJob(0);
  const char* types[3] = {"aws", "dgx-ext", "rtx"};
  for (int t = 0; t < 3; ++t) {
    job.min_size_throughput[t] = SiaMinimumSizeThroughput(apps.Get("bert", types[t]));
  }
  // A bert job that has run on aws at 1 GPU only: a model on aws, none elsewhere.
  std::vector<std::pair<int, int>> calls;
  job.goodput[0] = [&](int nodes, int replicas) {
    calls.emplace_back(nodes, replicas);
    return 7.25 * std::pow(replicas, 0.8) / (1 + 0.05 * (nodes - 1));
  };
  job.max_profiled_replicas = {1, 0, 0};  // Kmax = 2 (shared)
  const auto groups = Heterogeneous();
  const auto configs = SiaConfigurations(groups);
  const SiaMatrix s = BuildSiaGoodputMatrix(groups, configs, {job}, SiaOptions{});
  // Valid columns: K <= 2 on every type. gmin = goodput_aws(1,1) (the projections are larger:
  // thr1 of aws is bert's smallest), so S = projected / gmin, in float32 as sia.py computes it.
  const float gmin = static_cast<float>(7.25);
  const float scale = static_cast<float>(1.0 / gmin);
  for (int t = 1; t < 3; ++t) {
    const double ratio = job.min_size_throughput[t] / job.min_size_throughput[0];
    for (int k : {1, 2}) {
      const float projected = static_cast<float>(job.goodput[0](1, k)) * static_cast<float>(ratio);
      EXPECT_EQ(s.at(0, Column(configs, t, k)), projected * scale) << types[t] << " K=" << k;
    }
  }
  // The check vector: S(dgx-ext, 1 GPU) = thr1 ratio 10.79 (stated from thr1 rounded to 2
  // decimals, 140.44 / 13.02; the unrounded ratio is 10.785).
  EXPECT_NEAR(s.at(0, Column(configs, 1, 1)), 10.79, 0.01);
  EXPECT_EQ(s.at(0, Column(configs, 0, 1)), 1.0f);
  EXPECT_EQ(s.at(0, Column(configs, 0, 4)), kSiaZeroGain);  // above Kmax
  // Projections evaluate the aws model at aws's node size: K GPUs on ceil(K/4) aws nodes.
  EXPECT_TRUE(std::find(calls.begin(), calls.end(), std::make_pair(1, 2)) != calls.end());
  // With a larger cap, rtx (2,16) is projected from aws at (4,16).
  calls.clear();
  job.max_profiled_replicas = {8, 0, 0};
  BuildSiaGoodputMatrix(groups, configs, {job}, SiaOptions{});
  EXPECT_TRUE(std::find(calls.begin(), calls.end(), std::make_pair(4, 16)) != calls.end());
}

TEST(SiaGoodputMatrix, TheSourceIsTheFirstTypeInClusterOrderWithAModel) {
  SiaJob job = NewJob(0);
  job.max_profiled_replicas = {0, 2, 2};
  std::vector<std::pair<int, int>> dgx_calls;
  job.goodput[1] = [&](int nodes, int replicas) {
    dgx_calls.emplace_back(nodes, replicas);
    return 100.0 * replicas;
  };
  job.goodput[2] = [](int, int replicas) { return 1.0 * replicas; };
  const auto groups = Heterogeneous();
  const auto configs = SiaConfigurations(groups);
  const SiaMatrix s = BuildSiaGoodputMatrix(groups, configs, {job}, SiaOptions{});
  // aws is projected from dgx-ext (not rtx): 100·K·thr1_aws/thr1_dgx, over gmin = rtx's 1.
  const float ratio = static_cast<float>(13.02 / 140.44);
  EXPECT_EQ(s.at(0, Column(configs, 0, 4)), static_cast<float>(400.0) * ratio);
  EXPECT_TRUE(std::find(dgx_calls.begin(), dgx_calls.end(), std::make_pair(1, 4)) !=
              dgx_calls.end());
  EXPECT_EQ(s.at(0, Column(configs, 2, 1)), 1.0f);
  EXPECT_EQ(s.at(0, Column(configs, 2, 8)), kSiaZeroGain);  // Kmax = 2·2 = 4
}

TEST(SiaGoodputMatrix, WithoutProjectionTypesWithoutAModelOnlyOfferOneGpu) {
  SiaJob job = NewJob(0);
  job.goodput[0] = [](int, int replicas) { return 2.0 * replicas; };
  job.max_profiled_replicas = {4, 0, 0};
  SiaOptions options;
  options.project_throughputs = false;
  options.share_max_replicas = false;
  const auto groups = Heterogeneous();
  const auto configs = SiaConfigurations(groups);
  const SiaMatrix s = BuildSiaGoodputMatrix(groups, configs, {job}, options);
  EXPECT_EQ(s.at(0, Column(configs, 0, 8)), 8.0f);  // aws up to 2·4 replicas, S = K
  EXPECT_EQ(s.at(0, Column(configs, 0, 12)), kSiaZeroGain);
  EXPECT_EQ(s.at(0, Column(configs, 1, 1)), 1.0f);
  EXPECT_EQ(s.at(0, Column(configs, 1, 2)), kSiaZeroGain);
  // The replica cap: min(max(2·profiled, 1), 64, max batch // min local batch).
  job.batch_replica_limit = {3, 96, 96};
  EXPECT_EQ(SiaMaxReplicas(job, options), (std::vector<int>{3, 1, 1}));
  EXPECT_THROW(BuildSiaGoodputMatrix(groups, configs,
                                     {NewJob(0),
                                      [] {
                                        SiaJob bad = NewJob(1);
                                        bad.goodput.pop_back();
                                        return bad;
                                      }()},
                                     options),
               InputError);
}

TEST(SiaUtility, PowerRoundingClipAndReallocationFactor) {
  SiaMatrix s{1, 5, {1.0f, 2.0f, 4.0f, kSiaZeroGain, 40000.0f}};
  SiaJob job = NewJob(0);
  SiaOptions options;
  options.restart_penalty = SiaRestartPenalty::kPolicyTable;
  SiaMatrix a = SiaUtilityMatrix(s, {job}, {std::nullopt}, options);
  // p = −0.5: 1 → 1.00, 2 → 0.71, 4 → 0.50, Z → 100, 40000 → 0.00 (0.5 hundredths, half to
  // even).
  EXPECT_EQ(a.values, (std::vector<float>{1.0f, 0.71f, 0.5f, 100.0f, 0.0f}));
  SiaOptions harsh;
  harsh.p = -1;
  EXPECT_EQ(SiaUtilityMatrix(s, {job}, {std::nullopt}, harsh).at(0, 3), 3000.0f);  // clip
  // r = max(age − restarts·δ, 0)/(age + δ), δ(bert) = 120 from Sia's table.
  job.age_s = 1000;
  job.num_restarts = 2;
  EXPECT_DOUBLE_EQ(SiaReallocationFactor(job, options), (1000.0 - 240.0) / 1120.0);
  a = SiaUtilityMatrix(s, {job}, {2}, options);
  const float r = static_cast<float>((1000.0 - 240.0) / 1120.0);
  EXPECT_EQ(a.at(0, 2), 0.5f);  // the previous configuration keeps its value
  EXPECT_EQ(a.at(0, 1), std::nearbyint(std::pow(2.0f * r, -0.5f) * 100.0f) / 100.0f);
  job.age_s = 100;  // younger than δ: no penalty
  EXPECT_EQ(SiaReallocationFactor(job, options), 1.0);
  SiaOptions engine;
  engine.restart_penalty = SiaRestartPenalty::kEngineDelay;
  job.engine_restart_delay_s = 50;
  EXPECT_DOUBLE_EQ(SiaReallocationFactor(job, engine), 0.0);  // 100 − 2·50 = 0
  engine.restart_factor = SiaRestartFactor::kGpuSeconds;
  job.used_gpu_seconds = 99;
  job.wasted_gpu_seconds = 50;
  EXPECT_DOUBLE_EQ(SiaReallocationFactor(job, engine), 100.0 / 200.0);
  EXPECT_EQ(SiaPolicyRestartPenalty("yolov3"), 45);
  EXPECT_EQ(SiaPolicyRestartPenalty("deepspeech2"), 25);
  EXPECT_EQ(SiaPolicyRestartPenalty("ncf"), 30);
}

// Calls visit(x) for every feasible assignment x (none or one column per job; forced jobs keep
// their column; every type's capacity respected).
template <typename Visit>
void ForEachFeasibleAssignment(const SiaMatrix& a, const std::vector<SiaConfiguration>& configs,
                               const std::vector<SiaNodeGroup>& groups,
                               const std::vector<std::optional<int>>& forced, Visit&& visit) {
  std::vector<std::optional<int>> x(a.rows);
  std::vector<int> used(groups.size(), 0);
  auto recurse = [&](auto&& self, int i) -> void {
    if (i == a.rows) {
      visit(x);
      return;
    }
    for (int c = -1; c < a.cols; ++c) {
      if (forced[i] && c != *forced[i]) continue;
      if (c < 0) {
        x[i] = std::nullopt;
        self(self, i + 1);
        continue;
      }
      const SiaConfiguration& config = configs[c];
      if (used[config.group] + config.num_gpus > groups[config.group].total_gpus()) continue;
      used[config.group] += config.num_gpus;
      x[i] = c;
      self(self, i + 1);
      used[config.group] -= config.num_gpus;
    }
  };
  recurse(recurse, 0);
}

// The least ILP cost (SiaIlpCost summed) over every feasible assignment and the assignments
// that attain it.
struct BruteForce {
  double best_cost = std::numeric_limits<double>::infinity();
  std::vector<std::vector<std::optional<int>>> optima;
};

double IlpCost(const SiaMatrix& a, const std::vector<std::optional<int>>& x,
               const SiaOptions& options) {
  double cost = 0;
  for (int i = 0; i < a.rows; ++i) {
    if (x[i]) cost += SiaIlpCost(a.at(i, *x[i]), *x[i], a.cols, a.rows, options);
  }
  return cost;
}

BruteForce SolveByEnumeration(const SiaMatrix& a, const std::vector<SiaConfiguration>& configs,
                              const std::vector<SiaNodeGroup>& groups,
                              const std::vector<std::optional<int>>& forced,
                              const SiaOptions& options) {
  BruteForce result;
  ForEachFeasibleAssignment(a, configs, groups, forced, [&](const auto& x) {
    const double cost = IlpCost(a, x, options);
    if (cost < result.best_cost - 1e-6) {
      result.best_cost = cost;
      result.optima.clear();
    }
    if (std::abs(cost - result.best_cost) <= 1e-6) result.optima.push_back(x);
  });
  return result;
}

// The best reference objective Σ A·x + λ_n(J − Σx) (least for p < 0, greatest otherwise) by brute
// force on A's float values, without adaptsim's integer scaling or tie-break.
double BestReferenceObjective(const SiaMatrix& a, const std::vector<SiaConfiguration>& configs,
                              const std::vector<SiaNodeGroup>& groups,
                              const std::vector<std::optional<int>>& forced,
                              const SiaOptions& options) {
  const double sign = options.p < 0 ? 1.0 : -1.0;
  double best = std::numeric_limits<double>::infinity();
  ForEachFeasibleAssignment(a, configs, groups, forced, [&](const auto& x) {
    best = std::min(best, sign * SiaReferenceObjective(a, x, options));
  });
  return sign * best;
}

TEST(SiaIlp, EqualsBruteForceOnTinyInstances) {
  // Two types: 2 aws nodes of 4 GPUs (configurations 1, 2, 4, 8) and 1 rtx node of 8 (1, 2, 4,
  // 8): 8 columns, capacities 8 and 8. Utilities are multiples of 0.01, drawn from a small set
  // so that many entries tie exactly.
  const std::vector<SiaNodeGroup> groups = {{"aws", 4, 2, 16}, {"rtx", 8, 1, 3}};
  const std::vector<SiaConfiguration> configs = SiaConfigurations(groups);
  ASSERT_EQ(configs.size(), 8u);
  const float values[] = {0.0f, 0.35f, 0.5f, 0.71f, 1.0f, 1.1f, 1.5f, 100.0f, 3000.0f};
  std::mt19937 rng(20231023);  // fixed: the instances are part of the test
  int instances = 0, unique = 0;
  for (double p : {-0.5, 0.5}) {
    for (double lambda_n : {1.1, 0.5, -1.0}) {
      for (int trial = 0; trial < 12; ++trial) {
        SiaOptions options;
        options.p = p;
        options.lambda_n = lambda_n;
        const int jobs = 1 + static_cast<int>(rng() % 4);
        SiaMatrix a{jobs, static_cast<int>(configs.size()), {}};
        for (int k = 0; k < a.rows * a.cols; ++k) {
          a.values.push_back(values[rng() % (sizeof(values) / sizeof(values[0]))]);
        }
        std::vector<std::optional<int>> forced(jobs);
        if (trial % 3 == 0) forced[0] = static_cast<int>(rng() % 4);  // a job restoring
        const SiaIlpResult ilp = SolveSiaIlp(a, configs, groups, forced, options);
        ASSERT_EQ(ilp.status, MilpStatus::kOptimal);
        const BruteForce brute = SolveByEnumeration(a, configs, groups, forced, options);
        EXPECT_NEAR(IlpCost(a, ilp.chosen, options), brute.best_cost, 1e-6)
            << "p " << p << " lambda " << lambda_n;
        EXPECT_NEAR(ilp.objective, BestReferenceObjective(a, configs, groups, forced, options),
                    1e-5);
        if (brute.optima.size() == 1) {
          EXPECT_EQ(ilp.chosen, brute.optima.front());
          ++unique;
        }
        ++instances;
      }
    }
  }
  EXPECT_EQ(instances, 72);
  EXPECT_GT(unique, 36);  // the tie-break makes most optima unique
}

TEST(SiaIlp, CandidateColumnsKeepEveryLexicographicOptimumAndEqualJobsTakeColumnsInRowOrder) {
  // Instances with repeated rows (interchangeable jobs): every brute-force optimum (least
  // SiaIlpCost, i.e. the objective then the tie-break) uses candidate columns only, CBC's
  // assignment is one of them, and within equal rows earlier jobs take lower columns and are
  // allocated first — which makes the optimum unique here whenever the brute force's optima
  // differ only by exchanges of equal jobs.
  const std::vector<SiaNodeGroup> groups = {{"aws", 4, 2, 16}, {"rtx", 8, 1, 3}};
  const std::vector<SiaConfiguration> configs = SiaConfigurations(groups);
  const float values[] = {0.0f, 0.5f, 0.71f, 1.0f, 1.1f, 100.0f};
  std::mt19937 rng(20231024);  // fixed: the instances are part of the test
  int instances = 0, canonical_unique = 0;
  for (double p : {-0.5, 0.5}) {
    for (int trial = 0; trial < 16; ++trial) {
      SiaOptions options;
      options.p = p;
      const int distinct = 1 + static_cast<int>(rng() % 2);
      std::vector<std::vector<float>> rows(distinct);
      for (auto& row : rows) {
        for (std::size_t c = 0; c < configs.size(); ++c) {
          row.push_back(values[rng() % (sizeof(values) / sizeof(values[0]))]);
        }
      }
      const int jobs = 2 + static_cast<int>(rng() % 3);
      SiaMatrix a{jobs, static_cast<int>(configs.size()), {}};
      std::vector<int> row_of(jobs);
      for (int i = 0; i < jobs; ++i) {
        row_of[i] = static_cast<int>(rng() % distinct);
        a.values.insert(a.values.end(), rows[row_of[i]].begin(), rows[row_of[i]].end());
      }
      const std::vector<std::optional<int>> forced(jobs);
      const SiaIlpResult ilp = SolveSiaIlp(a, configs, groups, forced, options);
      ASSERT_EQ(ilp.status, MilpStatus::kOptimal);
      const BruteForce brute = SolveByEnumeration(a, configs, groups, forced, options);
      const auto candidates = SiaCandidateColumns(a, configs, {8, 8}, options);
      for (const auto& optimum : brute.optima) {
        for (int i = 0; i < jobs; ++i) {
          if (!optimum[i]) continue;
          EXPECT_NE(std::find(candidates[i].begin(), candidates[i].end(), *optimum[i]),
                    candidates[i].end());
        }
      }
      EXPECT_NE(std::find(brute.optima.begin(), brute.optima.end(), ilp.chosen),
                brute.optima.end());
      // The canonical optima: equal rows in row order take non-decreasing columns, allocated
      // before unallocated.
      const auto rank = [&](const std::optional<int>& c) { return c ? *c : a.cols; };
      std::vector<std::vector<std::optional<int>>> canonical;
      for (const auto& optimum : brute.optima) {
        bool ordered = true;
        for (int i = 0; i < jobs; ++i) {
          for (int j = i + 1; j < jobs; ++j) {
            if (row_of[i] == row_of[j] && rank(optimum[i]) > rank(optimum[j])) ordered = false;
          }
        }
        if (ordered) canonical.push_back(optimum);
      }
      ASSERT_FALSE(canonical.empty());
      if (canonical.size() == 1) {
        EXPECT_EQ(ilp.chosen, canonical.front());
        ++canonical_unique;
      }
      ++instances;
    }
  }
  EXPECT_EQ(instances, 32);
  EXPECT_GT(canonical_unique, 16);
}

TEST(SiaIlp, ForcedJobsBeyondCapacityAreInfeasible) {
  const std::vector<SiaNodeGroup> groups = {{"aws", 4, 2, 16}, {"rtx", 8, 1, 3}};
  const std::vector<SiaConfiguration> configs = SiaConfigurations(groups);
  SiaMatrix a{2, static_cast<int>(configs.size()), {}};
  a.values.assign(a.rows * a.cols, 1.0f);
  const SiaIlpResult result = SolveSiaIlp(a, configs, groups, {7, 7}, SiaOptions{});  // 2 x 8 rtx
  EXPECT_EQ(result.status, MilpStatus::kInfeasible);
  EXPECT_EQ(result.chosen, (std::vector<std::optional<int>>{std::nullopt, std::nullopt}));
}

TEST(SiaIlp, TiesPreferAllocationThenLowerColumnsAndRepeatExactly) {
  // Two new jobs: S = 1 (A = 1.00) on every type's 1-GPU configuration, an exact tie across
  // types. Both go to the first type's 1-GPU configuration.
  const auto groups = Heterogeneous();
  const auto configs = SiaConfigurations(groups);
  const SiaOptions options;
  const std::vector<SiaJob> jobs = {NewJob(0), NewJob(1)};
  const SiaMatrix a = SiaUtilityMatrix(BuildSiaGoodputMatrix(groups, configs, jobs, options), jobs,
                                       {std::nullopt, std::nullopt}, options);
  const SiaIlpResult first = SolveSiaIlp(a, configs, groups, {std::nullopt, std::nullopt}, options);
  EXPECT_EQ(first.chosen, (std::vector<std::optional<int>>{0, 0}));
  EXPECT_NEAR(first.objective, 2.0, 1e-9);
  for (int repeat = 0; repeat < 3; ++repeat) {
    EXPECT_EQ(SolveSiaIlp(a, configs, groups, {std::nullopt, std::nullopt}, options).chosen,
              first.chosen);
  }
  // A tie between allocating (A = λ_n = 1.10) and not: allocated.
  SiaMatrix tie{1, static_cast<int>(configs.size()), {}};
  tie.values.assign(configs.size(), 100.0f);
  tie.at(0, 13) = 1.1f;
  EXPECT_EQ(SolveSiaIlp(tie, configs, groups, {std::nullopt}, options).chosen.front(), 13);
}

TEST(SiaIlp, CbcSurvivesARootMadeInfeasibleByAHeuristicsOptimum) {
  // A Sia round of newTrace workload 2 (p = -0.5, the 64-GPU cluster), reduced to 15 jobs of 5
  // columns each: per job, (GPU type, GPUs, cost M·w − (C − c)). CBC 2.10's feasibility pump
  // finds the optimum before the root's cut loop; under that cutoff the root is infeasible,
  // probing leaves a column with bounds [1, -1e50], and CBC's computeLargestAway then ran CLP's
  // primal simplex on them: an assertion in ClpNonLinearCost aborted the process
  // (src/solvers/cbc_solver.cpp). The optimum is checked against an exact dynamic program.
  const std::vector<std::vector<std::array<int, 3>>> jobs = {
      {{0, 4, -20895}, {1, 1, -5159}, {1, 8, -20600}, {2, 1, -578}, {2, 2, -7441}},
      {{0, 4, -20609}, {1, 1, -9163}, {1, 2, -15740}, {2, 2, -6869}, {2, 4, -13160}},
      {{0, 2, -9170}, {0, 8, -19750}, {0, 16, -20034}, {0, 24, -20604}, {2, 1, -6298}},
      {{0, 4, -15175}, {0, 12, -18605}, {2, 4, -18594}, {2, 8, -21739}, {2, 16, -22024}},
      {{0, 2, -10314}, {0, 4, -16033}, {1, 1, -12309}, {2, 1, -11160}, {2, 8, -24313}},
      {{0, 4, -15461}, {1, 2, -25464}, {2, 1, -9158}, {2, 2, -15735}, {2, 4, -20310}},
      {{0, 2, -13174}, {0, 12, -21465}, {0, 16, -22036}, {2, 4, -20882}, {2, 8, -24027}},
      {{0, 2, -8312}, {1, 1, -19173}, {1, 2, -24034}, {1, 16, -27463}, {2, 16, -21738}},
      {{1, 1, -21747}, {1, 2, -25464}, {2, 1, -8586}, {2, 2, -15449}, {2, 4, -20024}},
      {{0, 8, -20322}, {1, 2, -22604}, {1, 4, -24891}, {2, 1, -9730}, {2, 8, -22883}},
      {{1, 1, -16885}, {1, 2, -21746}, {2, 1, -11160}, {2, 2, -17165}, {2, 4, -21168}},
      {{0, 2, -9742}, {0, 4, -16033}, {1, 2, -21746}, {2, 2, -16879}, {2, 4, -21168}},
      {{0, 2, -9456}, {1, 1, -15741}, {1, 2, -21174}, {1, 4, -22889}, {2, 4, -20596}},
      {{1, 1, -13739}, {1, 2, -20888}, {1, 4, -21459}, {2, 2, -15449}, {2, 4, -19166}},
      {{1, 1, -13739}, {1, 2, -20888}, {2, 1, -8586}, {2, 2, -15163}, {2, 4, -19166}},
  };
  const std::array<int, 3> capacity = {24, 16, 24};  // aws 24, dgx-ext 16, rtx 24 GPUs
  MilpProblem problem;
  problem.name = "sia_ilp_newtrace_round";
  for (const auto& columns : jobs) {
    ASSERT_EQ(columns.size(), 5u);
    problem.AddRow(-kMilpInfinity, 1.0);
  }
  for (int gpus : capacity) problem.AddRow(-kMilpInfinity, gpus);
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    for (const auto& [type, gpus, cost] : jobs[i]) {
      const int column = problem.AddBinary(cost);
      problem.AddEntry(static_cast<int>(i), column, 1.0);
      problem.AddEntry(static_cast<int>(jobs.size()) + type, column, gpus);
    }
  }
  MilpOptions milp;  // as SolveSiaIlp: proven optimum, its node limit
  milp.relative_gap = 0.0;
  milp.max_nodes = SiaOptions{}.mip_max_nodes;
  const MilpSolution solution = SolveWithCbc(problem, milp);
  // Exact optimum: the least cost per used-GPU vector (aws, dgx-ext, rtx), job by job.
  std::map<std::array<int, 3>, std::int64_t> least = {{{0, 0, 0}, 0}};
  for (const auto& columns : jobs) {
    std::map<std::array<int, 3>, std::int64_t> next = least;
    for (const auto& [used, cost] : least) {
      for (const auto& [type, gpus, column_cost] : columns) {
        std::array<int, 3> after = used;
        after[type] += gpus;
        if (after[type] > capacity[type]) continue;
        auto [it, inserted] = next.emplace(after, cost + column_cost);
        if (!inserted) it->second = std::min(it->second, cost + column_cost);
      }
    }
    least = std::move(next);
  }
  std::int64_t optimum = 0;
  for (const auto& [used, cost] : least) optimum = std::min(optimum, cost);
  ASSERT_EQ(solution.status, MilpStatus::kOptimal);
  EXPECT_EQ(solution.objective, static_cast<double>(optimum));
  EXPECT_EQ(optimum, -333059);
}

TEST(SiaPlacement, RoundRobinPointerAsTheReference) {
  const std::vector<SiaNodeGroup> groups = {{"aws", 4, 6, 16}, {"rtx", 8, 3, 3}};
  std::vector<std::optional<SiaConfiguration>> jobs = {
      SiaConfiguration{0, 1, 1}, SiaConfiguration{0, 2, 8}, std::nullopt,
      SiaConfiguration{0, 1, 2}, SiaConfiguration{0, 1, 4}, SiaConfiguration{0, 1, 1},
      SiaConfiguration{1, 2, 16}};
  const auto nodes = SiaPlaceJobs(groups, jobs);
  // aws in descending size: 8 → nodes 0, 1; 4 → node 2; 2 → node 3; 1 (job 0) → node 4;
  // 1 (job 5) → node 5.
  EXPECT_EQ(nodes[1], (std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1}));
  EXPECT_EQ(nodes[4], (std::vector<int>{2, 2, 2, 2}));
  EXPECT_EQ(nodes[3], (std::vector<int>{3, 3}));
  EXPECT_EQ(nodes[0], (std::vector<int>{4}));
  EXPECT_EQ(nodes[5], (std::vector<int>{5}));
  EXPECT_TRUE(nodes[2].empty());
  EXPECT_EQ(nodes[6], (std::vector<int>{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1}));
  jobs.push_back(SiaConfiguration{1, 1, 16});
  EXPECT_THROW(SiaPlaceJobs(groups, jobs), InputError);
}

TEST(SiaPolicy, RoundsKeepRestoringJobsAndScaleUpByAtMostTwice) {
  SiaPolicy policy{SiaOptions{}};
  const auto groups = Heterogeneous();
  // Round 1: three new jobs, each one GPU of aws (the tie-break's first column).
  std::vector<SiaJob> jobs = {NewJob(0), NewJob(1), NewJob(2, "cifar10")};
  auto round = policy.Optimize(groups, jobs);
  for (const SiaAllocation& allocation : round) {
    ASSERT_TRUE(allocation.configuration);
    EXPECT_EQ(*allocation.configuration, (SiaConfiguration{0, 1, 1}));
    EXPECT_EQ(allocation.nodes.size(), 1u);
  }
  // Round 2: job 0 has a model on aws (perfect scaling) after 1 replica: it may grow to 2 GPUs
  // of aws; projected types offer up to 2 as well; job 1 is still restoring and keeps its GPU.
  jobs[0].goodput[0] = [](int, int replicas) { return 10.0 * replicas; };
  jobs[0].max_profiled_replicas = {1, 0, 0};
  jobs[0].age_s = 60;
  jobs[1].scaling_underway = true;
  jobs[1].age_s = 60;
  round = policy.Optimize(groups, jobs);
  ASSERT_TRUE(round[0].configuration);
  EXPECT_LE(round[0].configuration->num_gpus, 2);
  EXPECT_EQ(*round[1].configuration, (SiaConfiguration{0, 1, 1}));
  EXPECT_EQ(policy.Statistics().at("sia_rounds"), 2);
  EXPECT_EQ(policy.Statistics().at("sia_ilp_not_optimal"), 0);
}

}  // namespace
}  // namespace adaptsim
