// Gavel's LP policies on clusters of several GPU types (docs/policies.md §3.7): each reduction or
// custom solve against a plain CLP solve of the reference's problem on random instances, the
// properties Gavel (OSDI'20 §4) states for each objective, and runs through the round engine on
// the 120-job trace on 16 V100 + 8 P100 + 8 K80.
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "adaptsim/catalogue_throughput.hpp"
#include "adaptsim/clp_solver.hpp"
#include "adaptsim/cluster.hpp"
#include "adaptsim/gavel.hpp"
#include "adaptsim/metrics.hpp"
#include "adaptsim/registry.hpp"
#include "adaptsim/simulator.hpp"
#include "adaptsim/trace.hpp"
#include "policies/gavel/finish_time_fairness.hpp"
#include "policies/gavel/gandiva_fair.hpp"
#include "policies/gavel/max_min_fairness.hpp"
#include "policies/gavel/max_sum_throughput.hpp"
#include "policies/gavel/min_total_duration.hpp"
#include "policies/gavel/typed_lp.hpp"
#include "test_support.hpp"

namespace adaptsim {
namespace {

using internal::TypedLpInputs;

// --- Random instances ---

// m jobs on 1–6 GPUs of each of k80, p100, v100: T_ik in [0.5, 20] steps/s (10 % zeros off the
// reference type), s_i in {1, 2, 4} up to G (a type may have fewer, as in the reference), N_i,
// τ_i; contended: more jobs than GPUs; tied: T_ik from three values per type, so many jobs tie
// (degenerate LPs, equal single-job maxima).
struct Instance {
  Cluster cluster;
  std::vector<std::unique_ptr<JobSpec>> specs;
  std::vector<std::vector<double>> throughputs;  // per job, per type
  ClusterState state;
  TypedLpInputs in;
};

std::unique_ptr<Instance> RandomInstance(std::mt19937_64& rng, bool contended, bool tied = false) {
  auto instance = std::make_unique<Instance>();
  std::uniform_int_distribution<int> count(1, 6), jobs(1, 12), scale(0, 2);
  std::uniform_real_distribution<double> throughput(0.5, 20.0), unit(0.0, 1.0);
  instance->cluster =
      Cluster::FromCounts({{"k80", count(rng)}, {"p100", count(rng)}, {"v100", count(rng)}});
  const Cluster& cluster = instance->cluster;
  const int m = contended ? cluster.num_gpus() + jobs(rng) : jobs(rng);
  const int reference = cluster.reference_type();
  instance->state.num_gpus = cluster.num_gpus();
  instance->state.cluster = &instance->cluster;
  instance->throughputs.resize(m);
  for (int i = 0; i < m; ++i) {
    auto spec = std::make_unique<JobSpec>();
    spec->id = i;
    spec->scale_factor = std::min(1 << scale(rng), cluster.num_gpus());
    std::vector<double>& t = instance->throughputs[i];
    for (int k = 0; k < cluster.num_types(); ++k) {
      const double value =
          tied ? 2.0 + 3.0 * k + std::uniform_int_distribution<int>(0, 2)(rng) : throughput(rng);
      t.push_back(k != reference && unit(rng) < 0.1 ? 0.0 : value);
    }
    ActiveJobView view;
    view.id = i;
    view.spec = spec.get();
    view.scale_factor = spec->scale_factor;
    view.throughput_steps_per_s = t[reference];
    view.remaining_steps = static_cast<std::int64_t>(1000 + 100000 * unit(rng));
    view.total_steps = view.remaining_steps;
    view.time_since_arrival_s = 5000.0 * unit(rng);
    instance->state.jobs.push_back(view);
    instance->specs.push_back(std::move(spec));
  }
  for (int i = 0; i < m; ++i) {  // after the vector stopped growing
    instance->state.jobs[i].throughput_by_type_steps_per_s = instance->throughputs[i];
  }
  instance->in = internal::TypedInputs(instance->state, cluster, "test");
  return instance;
}

// --- Plain CLP formulations of the reference's problems (`policy.py:58-65`: x >= 0, capacity
// per type, Σ_k x_ik <= 1; no bound where T_ik = 0), written out independently of typed_lp.cpp ---

struct PlainLp {
  LpProblem lp;
  int m = 0, n = 0;
};

PlainLp PlainBaseSet(const TypedLpInputs& in) {
  PlainLp plain;
  plain.m = in.num_jobs, plain.n = in.num_types;
  for (int c = 0; c < plain.m * plain.n; ++c) plain.lp.AddColumn(0.0, kLpInfinity, 0.0);
  for (int k = 0; k < plain.n; ++k) {
    const int row = plain.lp.AddRow(-kLpInfinity, in.capacities[k]);
    for (int i = 0; i < plain.m; ++i) plain.lp.AddEntry(row, i * plain.n + k, in.scale_factors[i]);
  }
  for (int i = 0; i < plain.m; ++i) {
    const int row = plain.lp.AddRow(-kLpInfinity, 1.0);
    for (int k = 0; k < plain.n; ++k) plain.lp.AddEntry(row, i * plain.n + k, 1.0);
  }
  return plain;
}

// Row Σ_k coefficient_ik x_ik − scale · extra >= lower (extra < 0: no extra column).
void AddThroughputRow(PlainLp& plain, const std::vector<double>& coefficients, int i, double lower,
                      int extra = -1, double scale = 0.0) {
  const int row = plain.lp.AddRow(lower, kLpInfinity);
  for (int k = 0; k < plain.n; ++k) {
    plain.lp.AddEntry(row, i * plain.n + k, coefficients[i * plain.n + k]);
  }
  if (extra >= 0) plain.lp.AddEntry(row, extra, -scale);
}

LpSolution SolvePlain(const PlainLp& plain) {
  LpSolution solution = SolveWithClp(plain.lp);
  EXPECT_EQ(solution.status, LpStatus::kOptimal);
  return solution;
}

// max z s.t. Σ_k a_ik x_ik >= z.
double PlainMaxMin(const TypedLpInputs& in, const std::vector<double>& a) {
  PlainLp plain = PlainBaseSet(in);
  plain.lp.maximize = true;
  const int z = plain.lp.AddColumn(0.0, kLpInfinity, 1.0);
  for (int i = 0; i < plain.m; ++i) AddThroughputRow(plain, a, i, 0.0, z, 1.0);
  return SolvePlain(plain).objective;
}

// Feasible: Σ_k T_ik x_ik >= floor_i for all i (the reference's constant-objective probe).
bool PlainFeasible(const TypedLpInputs& in, const std::vector<double>& floors) {
  PlainLp plain = PlainBaseSet(in);
  for (int i = 0; i < plain.m; ++i) AddThroughputRow(plain, in.throughputs, i, floors[i]);
  const LpSolution solution = SolveWithClp(plain.lp);
  EXPECT_TRUE(solution.status == LpStatus::kOptimal || solution.status == LpStatus::kInfeasible);
  return solution.status == LpStatus::kOptimal;
}

// x ∈ B: 0 <= x <= 1, Σ_k x_ik <= 1, Σ_i s_i x_ik <= C_k (to 1e-9).
void ExpectInBaseSet(const TypedLpInputs& in, const std::vector<double>& x) {
  ASSERT_EQ(x.size(), static_cast<std::size_t>(in.num_jobs * in.num_types));
  std::vector<double> used(in.num_types, 0.0);
  for (int i = 0; i < in.num_jobs; ++i) {
    double row = 0.0;
    for (int k = 0; k < in.num_types; ++k) {
      const double v = x[i * in.num_types + k];
      EXPECT_GE(v, 0.0);
      EXPECT_LE(v, 1.0);
      row += v;
      used[k] += in.scale_factors[i] * v;
    }
    EXPECT_LE(row, 1.0 + 1e-9) << "job " << i;
  }
  for (int k = 0; k < in.num_types; ++k) {
    EXPECT_LE(used[k], in.capacities[k] * (1.0 + 1e-9)) << "type " << k;
  }
}

std::vector<double> Flatten(const Allocation& allocation, int n) {
  std::vector<double> x;
  for (const auto& [id, fractions] : allocation.time_fraction_by_type) {
    EXPECT_EQ(static_cast<int>(fractions.size()), n);
    x.insert(x.end(), fractions.begin(), fractions.end());
  }
  return x;
}

// Themis's inputs as the policy derives them on its first call (cumiso = 0): E_i = N_i / iso_i.
std::vector<ThemisJob> ThemisJobs(const Instance& instance, const std::vector<double>& isolated) {
  std::vector<ThemisJob> jobs;
  for (std::size_t i = 0; i < instance.state.jobs.size(); ++i) {
    const ActiveJobView& view = instance.state.jobs[i];
    const double remaining = static_cast<double>(view.remaining_steps);
    jobs.push_back({view.throughput_steps_per_s, remaining, view.time_since_arrival_s,
                    remaining / isolated[i], view.scale_factor});
  }
  return jobs;
}

// iso_i = Σ_k T_ik C_k / max(m s_i, G) (`isolated.py:72-113`) and x^iso.
std::vector<double> IsolatedThroughputs(const Instance& instance, std::vector<double>* x) {
  std::vector<double> isolated;
  const int m = static_cast<int>(instance.state.jobs.size());
  for (int i = 0; i < m; ++i) {
    const auto shares =
        CapacityProportionalShares(instance.cluster, m, instance.state.jobs[i].scale_factor);
    double t = 0.0;
    for (int k = 0; k < instance.cluster.num_types(); ++k) t += instance.in.T(i, k) * shares[k];
    isolated.push_back(t);
    if (x) x->insert(x->end(), shares.begin(), shares.end());
  }
  return isolated;
}

// The reference's Themis problem by plain bisection on ρ over CLP feasibility LPs.
double PlainThemisRho(const TypedLpInputs& in, const std::vector<ThemisJob>& jobs) {
  auto feasible = [&](double rho) {
    std::vector<double> floors;
    for (const ThemisJob& job : jobs) {
      const double denominator = rho * job.expected_isolated_s - job.time_since_arrival_s;
      if (!(denominator > 0.0)) return false;
      floors.push_back(job.remaining_steps / denominator);
    }
    return PlainFeasible(in, floors);
  };
  double lo = 0.0, hi = 1.0;
  for (const ThemisJob& job : jobs) {
    lo = std::max(lo, job.time_since_arrival_s / job.expected_isolated_s);
  }
  hi = std::max(1.0, 2.0 * lo);
  while (!feasible(hi)) lo = hi, hi *= 2.0;
  for (int it = 0; it < 60; ++it) (feasible((lo + hi) / 2.0) ? hi : lo) = (lo + hi) / 2.0;
  return hi;
}

constexpr int kInstances = 40;

// --- Max-min fairness ---

// The aware policy's point on `instance`: its smallest level is the plain LP's z*, and it is
// max-min fair (Gavel §4.1).
void ExpectAwareMaxMin(const Instance& instance) {
  TypedLpInputs in = instance.in;
  in.throughputs = MaxMinFairnessCoefficients(instance.state, instance.cluster);
  const double optimum = PlainMaxMin(in, in.throughputs);
  const internal::WaterFillingPoint point = internal::LexicographicMaxMin(in);
  EXPECT_NEAR(point.value, optimum, 1e-6 * optimum);
  // The policy's allocation is that point, in B, with the smallest level z*.
  MaxMinFairnessPolicy policy({}, /*heterogeneity_aware=*/true);
  const std::vector<double> x = Flatten(policy.ComputeAllocation(instance.state), in.num_types);
  ExpectInBaseSet(in, x);
  std::vector<double> value(in.num_jobs);
  for (int i = 0; i < in.num_jobs; ++i) {
    value[i] = in.EffectiveThroughput(x, i);
    EXPECT_NEAR(value[i], point.levels[i], 1e-6 * point.levels[i]) << "job " << i;
  }
  EXPECT_NEAR(*std::min_element(value.begin(), value.end()), optimum, 1e-6 * optimum);
  // Max-min fair (Gavel §4.1): no job's normalised throughput can be raised without lowering
  // one that is not larger. Per job j: maximise v_j with every other job at or below v_j held
  // at its value; the optimum is v_j.
  for (int j = 0; j < in.num_jobs; ++j) {
    PlainLp plain = PlainBaseSet(in);
    plain.lp.maximize = true;
    for (int k = 0; k < in.num_types; ++k) plain.lp.objective[j * in.num_types + k] = in.T(j, k);
    for (int i = 0; i < in.num_jobs; ++i) {
      if (i != j && value[i] <= value[j] * (1.0 + 1e-9)) {
        AddThroughputRow(plain, in.throughputs, i, value[i] * (1.0 - 1e-9));
      }
    }
    EXPECT_LE(SolvePlain(plain).objective, value[j] * (1.0 + 1e-6) + 1e-9) << "job " << j;
  }
}

TEST(HeterogeneousMaxMinFairness, AwareOptimumIsThePlainLpOptimumAndLexicographic) {
  std::mt19937_64 rng(24);
  for (int trial = 0; trial < kInstances; ++trial) {
    SCOPED_TRACE("instance " + std::to_string(trial));
    ExpectAwareMaxMin(*RandomInstance(rng, trial % 2 == 0));
  }
}

// Tied throughputs: many jobs share a single-job maximum, so water filling's LPs are degenerate
// and the uncontended jobs freeze at their maxima in bulk (typed_lp.cpp, the bisection over caps).
TEST(HeterogeneousMaxMinFairness, AwareWithTiedThroughputsIsThePlainLpOptimumAndLexicographic) {
  std::mt19937_64 rng(25);
  for (int trial = 0; trial < kInstances; ++trial) {
    SCOPED_TRACE("instance " + std::to_string(trial));
    ExpectAwareMaxMin(*RandomInstance(rng, trial % 3 == 0, /*tied=*/true));
  }
}

TEST(HeterogeneousMaxMinFairness, AgnosticIsTheOneTypeFormOnAllGpusSplitByCapacity) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < kInstances; ++trial) {
    SCOPED_TRACE("instance " + std::to_string(trial));
    auto instance = RandomInstance(rng, trial % 2 == 0);
    TypedLpInputs in = instance->in;
    // The reference sets every T_ik := 1 (`max_min_fairness.py:33-37`).
    std::fill(in.throughputs.begin(), in.throughputs.end(), 1.0);
    MaxMinFairnessPolicy policy({}, /*heterogeneity_aware=*/false);
    const std::vector<double> x = Flatten(policy.ComputeAllocation(instance->state), in.num_types);
    ExpectInBaseSet(in, x);
    // The coefficients with T := 1 (p_i = Σ_k C_k / G = 1): a_ik = s_i.
    std::vector<double> ones(in.throughputs.size());
    for (int i = 0; i < in.num_jobs; ++i) {
      for (int k = 0; k < in.num_types; ++k) {
        ones[i * in.num_types + k] = instance->state.jobs[i].scale_factor;
      }
    }
    const double optimum = PlainMaxMin(in, ones);
    double smallest = kLpInfinity;
    for (int i = 0; i < in.num_jobs; ++i) {
      double y = 0.0;
      for (int k = 0; k < in.num_types; ++k) {
        const double v = x[i * in.num_types + k];
        y += v;
        EXPECT_NEAR(v / instance->cluster.count(k),
                    x[i * in.num_types] / instance->cluster.count(0),
                    1e-12);  // split in proportion to C_k
      }
      smallest = std::min(smallest, instance->state.jobs[i].scale_factor * y);
    }
    EXPECT_NEAR(smallest, optimum, 1e-6 * optimum);
  }
}

// --- Finish-time fairness ---

TEST(HeterogeneousFinishTimeFairness, AwareRhoIsThePlainBisectionOptimumAndTheMinimum) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < kInstances; ++trial) {
    SCOPED_TRACE("instance " + std::to_string(trial));
    auto instance = RandomInstance(rng, trial % 2 == 0);
    std::vector<double> start;
    const std::vector<ThemisJob> jobs =
        ThemisJobs(*instance, IsolatedThroughputs(*instance, &start));
    const ThemisSeveralTypesSolution solution = ThemisSolveSeveralTypes(instance->in, jobs, start);
    const double plain = PlainThemisRho(instance->in, jobs);
    EXPECT_NEAR(solution.rho, plain, 1e-6 * plain);
    ExpectInBaseSet(instance->in, solution.x);
    // x attains ρ*, and no x ∈ B has max ρ below ρ* (1 − 1e-6).
    EXPECT_LE(ThemisWorstRho(instance->in, jobs, solution.x), solution.rho * (1.0 + 1e-9));
    std::vector<double> floors;
    for (const ThemisJob& job : jobs) {
      floors.push_back(
          job.remaining_steps /
          (solution.rho * (1.0 - 1e-6) * job.expected_isolated_s - job.time_since_arrival_s));
    }
    EXPECT_FALSE(PlainFeasible(instance->in, floors));
    EXPECT_LT(solution.lp_solves, 30);
    // The policy's first call solves this problem.
    FinishTimeFairnessPolicy policy({}, /*heterogeneity_aware=*/true);
    const std::vector<double> x =
        Flatten(policy.ComputeAllocation(instance->state), instance->in.num_types);
    EXPECT_NEAR(ThemisWorstRho(instance->in, jobs, x), plain, 1e-6 * plain);
  }
}

TEST(HeterogeneousFinishTimeFairness, AgnosticIsTheOneTypeFormWithReferenceThroughputs) {
  std::mt19937_64 rng(13);
  for (int trial = 0; trial < kInstances; ++trial) {
    SCOPED_TRACE("instance " + std::to_string(trial));
    auto instance = RandomInstance(rng, trial % 2 == 0);
    // The reference sets T_ik := T_i,v100 for the LP and iso_i (`finish_time_fairness.py:37-45`).
    TypedLpInputs in = instance->in;
    for (int i = 0; i < in.num_jobs; ++i) {
      for (int k = 0; k < in.num_types; ++k) {
        in.throughputs[i * in.num_types + k] = instance->state.jobs[i].throughput_steps_per_s;
      }
    }
    Instance agnostic_view;  // iso_i with the replaced throughputs
    agnostic_view.cluster = instance->cluster;
    agnostic_view.state = instance->state;
    agnostic_view.in = in;
    const std::vector<ThemisJob> jobs =
        ThemisJobs(agnostic_view, IsolatedThroughputs(agnostic_view, nullptr));
    const double plain = PlainThemisRho(in, jobs);
    FinishTimeFairnessPolicy policy({}, /*heterogeneity_aware=*/false);
    const std::vector<double> x = Flatten(policy.ComputeAllocation(instance->state), in.num_types);
    ExpectInBaseSet(in, x);
    EXPECT_NEAR(ThemisWorstRho(in, jobs, x), plain, 1e-6 * plain);
  }
}

// --- Min total duration ---

// The reference's bisection (`min_total_duration.py:107-131`) with a CLP feasibility LP per probe.
double PlainOsspHorizon(const TypedLpInputs& in, const std::vector<double>& remaining) {
  double hi = 1e6, lo = 100.0, last_hi = hi, found = -1.0;
  while (found < 0.0) {
    while (1.05 * lo < hi) {
      const double t = (lo + hi) / 2.0;
      std::vector<double> floors;
      for (double n : remaining) floors.push_back(n / t);
      if (PlainFeasible(in, floors)) {
        found = t, hi = t;
      } else {
        lo = t;
      }
    }
    hi = last_hi * 10.0, lo = last_hi, last_hi *= 10.0;
  }
  return found;
}

TEST(HeterogeneousMinTotalDuration, AwareHorizonIsTheReferenceBisectionOverClp) {
  std::mt19937_64 rng(17);
  for (int trial = 0; trial < kInstances; ++trial) {
    SCOPED_TRACE("instance " + std::to_string(trial));
    auto instance = RandomInstance(rng, trial % 2 == 0);
    std::vector<double> remaining;
    for (const ActiveJobView& job : instance->state.jobs) {
      remaining.push_back(static_cast<double>(job.remaining_steps));
    }
    const OsspSeveralTypesSolution solution = OsspSolveSeveralTypes(instance->in, remaining);
    EXPECT_EQ(solution.replay.horizon_s, PlainOsspHorizon(instance->in, remaining));
    // T* is the threshold: feasible at T*(1 + 1e-6), infeasible at T*(1 − 1e-6) — unless T* is
    // the 50 s floor below the first probe (min_total_duration.hpp), where every T replays alike.
    auto floors = [&](double horizon) {
      std::vector<double> f;
      for (double n : remaining) f.push_back(n / horizon);
      return f;
    };
    EXPECT_TRUE(PlainFeasible(instance->in, floors(solution.minimal_horizon_s * (1 + 1e-6))));
    if (solution.minimal_horizon_s > 50.0 * (1.0 + 1e-12)) {
      EXPECT_FALSE(PlainFeasible(instance->in, floors(solution.minimal_horizon_s * (1 - 1e-6))));
    }
    // The point lies in F(T_found).
    ExpectInBaseSet(instance->in, solution.x);
    for (int i = 0; i < instance->in.num_jobs; ++i) {
      EXPECT_GE(instance->in.EffectiveThroughput(solution.x, i),
                remaining[i] / solution.replay.horizon_s * (1.0 - 1e-9));
    }
  }
}

TEST(HeterogeneousMinTotalDuration, AgnosticHorizonIsTheOneTypeFormOnAllGpus) {
  std::mt19937_64 rng(19);
  for (int trial = 0; trial < kInstances; ++trial) {
    SCOPED_TRACE("instance " + std::to_string(trial));
    auto instance = RandomInstance(rng, trial % 2 == 0);
    TypedLpInputs in = instance->in;  // T_ik := T_i,v100 (`min_total_duration.py:32-40`)
    OsspInputs one_type;
    one_type.num_gpus = instance->cluster.num_gpus();
    std::vector<double> remaining;
    for (int i = 0; i < in.num_jobs; ++i) {
      const ActiveJobView& job = instance->state.jobs[i];
      for (int k = 0; k < in.num_types; ++k) {
        in.throughputs[i * in.num_types + k] = job.throughput_steps_per_s;
      }
      remaining.push_back(static_cast<double>(job.remaining_steps));
      one_type.throughputs.push_back(job.throughput_steps_per_s);
      one_type.remaining_steps.push_back(remaining.back());
      one_type.scale_factors.push_back(job.scale_factor);
    }
    const double horizon = OsspReplayBisection(OsspMinimalHorizon(one_type)).horizon_s;
    EXPECT_EQ(horizon, PlainOsspHorizon(in, remaining));
    MinTotalDurationPolicy policy({}, /*heterogeneity_aware=*/false);
    const std::vector<double> x = Flatten(policy.ComputeAllocation(instance->state), in.num_types);
    ExpectInBaseSet(in, x);
    for (int i = 0; i < in.num_jobs; ++i) {
      EXPECT_GE(in.EffectiveThroughput(x, i), remaining[i] / horizon * (1.0 - 1e-9));
    }
  }
}

// --- Max sum throughput ---

TEST(HeterogeneousMaxSumThroughput, SumIsThePlainLpOptimum) {
  std::mt19937_64 rng(23);
  for (int trial = 0; trial < kInstances; ++trial) {
    SCOPED_TRACE("instance " + std::to_string(trial));
    auto instance = RandomInstance(rng, trial % 2 == 0);
    PlainLp plain = PlainBaseSet(instance->in);
    plain.lp.maximize = true;
    plain.lp.objective = instance->in.throughputs;
    const double optimum = SolvePlain(plain).objective;
    MaxSumThroughputPolicy policy({});
    const std::vector<double> x =
        Flatten(policy.ComputeAllocation(instance->state), instance->in.num_types);
    ExpectInBaseSet(instance->in, x);
    double sum = 0.0;
    for (int i = 0; i < instance->in.num_jobs; ++i) {
      sum += instance->in.EffectiveThroughput(x, i);
    }
    EXPECT_NEAR(sum, optimum, 1e-6 * optimum);
  }
}

// --- Through the engine: the 120-job trace on 16 V100 + 8 P100 + 8 K80 ---

SimulationResult RunMixed(const std::string& policy) {
  const Cluster cluster = Cluster::Parse("v100=16,p100=8,k80=8");
  SimulationOptions simulation;
  simulation.num_gpus = cluster.num_gpus();
  RoundSimulation run(
      ReadTrace(testing::CanonicalTracePath()),
      models::LoadClusterThroughputs(testing::TaccThroughputsPath(), cluster),
      MakeRoundScheduler(MakePolicy(policy, nlohmann::json::object(), "policy_options", 0),
                         simulation, /*seed=*/0),
      simulation);
  SimulationResult result = run.Run({});
  ComputeMetrics(result, simulation.num_gpus);
  // Every job left the cluster: completed, cut at 1.5 × its V100 time (docs/mechanism.md §12.6),
  // or removed on the zero-step failure path when the batch-size rescale left it no work (§8.2,
  // job 35 of every reference run); no round used more GPUs of a type than the type has, nor a
  // worker twice.
  EXPECT_EQ(result.status, TaskStatus::kOk) << policy << ": " << result.message;
  EXPECT_EQ(result.jobs.size(), 120u);
  for (const JobResult& job : result.jobs) {
    EXPECT_NE(job.outcome, JobOutcome::kUnfinished) << policy << " job " << job.id;
  }
  for (const RoundResult& round : result.rounds) {
    std::vector<int> used(cluster.num_types(), 0);
    std::vector<bool> taken(cluster.num_gpus(), false);
    for (const std::vector<int>& workers : round.worker_ids) {
      for (int w : workers) {
        EXPECT_FALSE(taken.at(w)) << policy << " round " << round.round_index << " worker " << w;
        taken[w] = true;
        ++used[cluster.TypeOfWorker(w)];
      }
    }
    for (int k = 0; k < cluster.num_types(); ++k) EXPECT_LE(used[k], cluster.count(k));
  }
  return result;
}

TEST(HeterogeneousPolicyRuns, AwareAndAgnosticFinishEveryJobWithinCapacity) {
  ADAPTSIM_REQUIRE_DATA();
  std::map<std::string, SummaryMetrics> summary;
  for (const char* policy : {"max_min_fairness", "max_min_fairness_perf", "finish_time_fairness",
                             "finish_time_fairness_perf", "min_total_duration",
                             "min_total_duration_perf", "max_sum_throughput_perf"}) {
    summary[policy] = RunMixed(policy).summary;
  }
  // Where Gavel (OSDI'20 §7.2) states the gain of heterogeneity awareness on the objective a
  // policy optimises: makespan for OSSP, the worst finish-time fairness for Themis, average JCT
  // for LAS (max-min fairness).
  EXPECT_LE(summary["min_total_duration_perf"].makespan_s,
            summary["min_total_duration"].makespan_s);
  EXPECT_LE(summary["finish_time_fairness_perf"].worst_ftf_rho,
            summary["finish_time_fairness"].worst_ftf_rho);
  EXPECT_LE(summary["max_min_fairness_perf"].mean_jct_s, summary["max_min_fairness"].mean_jct_s);
}

}  // namespace
}  // namespace adaptsim
