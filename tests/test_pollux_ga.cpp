// The Pollux GA's building blocks against plain transcriptions: the batched Philox stream against
// Random123 called once per block, the integer thresholds against Uniform() < p, and the one-pass
// repair and the mutation against the operators of A:simulator/pollux.py:354-420 written out
// step by step (draw for draw: the same states and the same next draw), the sweep-based
// non-dominated sorting and crowding against pymoo's definitions written out plainly, and the
// duplicate-free offspring of a GA run.
#include <Random123/philox.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <set>
#include <vector>

#include "policies/pollux/pollux_ga.hpp"

namespace adaptsim {
namespace {

std::array<std::uint32_t, 4> Random123Block(std::array<std::uint32_t, 4> counter,
                                            std::array<std::uint32_t, 2> key) {
  r123::Philox4x32 generator;
  const r123::Philox4x32::ctr_type out =
      generator({{counter[0], counter[1], counter[2], counter[3]}}, {{key[0], key[1]}});
  return {out[0], out[1], out[2], out[3]};
}

TEST(PhiloxRandom, BlocksMatchRandom123AcrossTheCounterCarry) {
  const std::vector<std::array<std::uint32_t, 4>> counters = {
      {0, 0, 0, 0},
      {0x506f6c78, 17, 0, 3},
      {1, 0xFFFFFFFC, 0, 9},           // c1 wraps inside the batch: carry into c2
      {3, 0xFFFFFFF6, 5, 2},           // ... in the batch's second set of 8 blocks
      {4, 0xFFFFFFE9, 7, 1},           // ... in its second set of 16 blocks
      {2, 0xFFFFFFFA, 0xFFFFFFFF, 1},  // the 64-bit (c2:c1) wraps to 0
      {0xFFFFFFFF, 0x7FFFFFFF, 0x12345678, 0xFFFFFFFF}};
  const std::vector<std::array<std::uint32_t, 2>> keys = {{0, 0}, {42, 0}, {0xDEADBEEF, 7}};
  for (const auto& counter : counters) {
    for (const auto& key : keys) {
      for (PhiloxPath path :
           {PhiloxPath::kPortable, PhiloxPath::kAvx2, PhiloxPath::kAvx512, PhiloxPath::kWidest}) {
        if (!PhiloxPathSupported(path)) continue;
        std::array<std::uint32_t, 4 * kPhiloxBatchBlocks> words{};
        PhiloxBlocks(counter, key, words.data(), path);
        std::array<std::uint32_t, 4> c = counter;
        for (std::size_t b = 0; b < kPhiloxBatchBlocks; ++b) {
          const auto expected = Random123Block(c, key);
          for (int i = 0; i < 4; ++i) {
            EXPECT_EQ(words[4 * b + i], expected[i])
                << "block " << b << " word " << i << " path " << static_cast<int>(path);
          }
          if (++c[1] == 0) ++c[2];
        }
      }
    }
  }
}

TEST(PhiloxRandom, DrawsAreTheStreamsWordsInOrderWhateverTheAccessPath) {
  const std::uint64_t seed = 0x0123456789ABCDEFull;
  const std::uint32_t stream = 5, substream = 11;
  PhiloxRandom one_by_one(seed, stream, substream), buffered(seed, stream, substream);
  std::vector<std::uint32_t> expected;
  for (std::uint32_t block = 0; block < 400; ++block) {
    const auto words =
        Random123Block({stream, block, 0, substream},
                       {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)});
    expected.insert(expected.end(), words.begin(), words.end());
  }
  for (std::uint32_t word : expected) EXPECT_EQ(one_by_one.Next(), word);
  // Buffered() shows the next words; Skip(k) draws k of them; chunks of 1..7 across refills.
  std::size_t drawn = 0;
  for (std::size_t chunk = 1; drawn < expected.size(); chunk = chunk % 7 + 1) {
    const std::span<const std::uint32_t> words = buffered.Buffered();
    ASSERT_GE(words.size(), 1u);
    const std::size_t take = std::min({chunk, words.size(), expected.size() - drawn});
    for (std::size_t i = 0; i < take; ++i) EXPECT_EQ(words[i], expected[drawn + i]);
    buffered.Skip(take);
    drawn += take;
  }
  // Reserve(k) shows at least k next words (computing blocks ahead, across refills and after a
  // partial use of the buffer); Skip draws some of them, and Next continues the stream.
  PhiloxRandom reserved(seed, stream, substream);
  drawn = 0;
  for (std::size_t count = 1; drawn + count < expected.size(); count = (count * 7 + 3) % 157) {
    const std::span<const std::uint32_t> words = reserved.Reserve(count);
    ASSERT_GE(words.size(), count);
    for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(words[i], expected[drawn + i]);
    const std::size_t take = count / 2 + 1;
    reserved.Skip(take);
    drawn += take;
    ASSERT_EQ(reserved.Next(), expected[drawn++]);
  }
  // Uniform and Below are functions of the next word.
  PhiloxRandom a(seed, stream), b(seed, stream);
  for (int i = 0; i < 100; ++i) {
    const std::uint32_t w = a.Next();
    EXPECT_EQ(b.Uniform(), w * (1.0 / 4294967296.0));
    const std::uint32_t v = a.Next();
    EXPECT_EQ(b.Below(i + 1), static_cast<int>((std::uint64_t{v} * (i + 1)) >> 32));
  }
}

TEST(PhiloxRandom, ThresholdIsTheUniformComparison) {
  const double two32 = 4294967296.0;
  std::vector<double> probabilities = {0.0,
                                       -0.5,
                                       std::numeric_limits<double>::quiet_NaN(),
                                       std::numeric_limits<double>::denorm_min(),
                                       1e-300,
                                       1.0 / two32,
                                       3.0 / two32,
                                       0.1,
                                       1.0 / 3.0,
                                       0.5,
                                       1.0 - 1.0 / (2 * two32),
                                       1.0 - 1.0 / two32,
                                       1.0,
                                       2.0,
                                       std::numeric_limits<double>::infinity()};
  PhiloxRandom random(9, 9);
  for (int i = 0; i < 200; ++i) probabilities.push_back(random.Uniform());
  for (int j = 1; j <= 40; ++j) {  // the mutation's p1 + p2 − p1·p2
    for (int h = 1; h <= j; ++h) {
      const double p1 = 1.0 / j, p2 = 1.0 / h;
      probabilities.push_back(p1 + p2 - p1 * p2);
    }
  }
  for (double p : probabilities) {
    const std::uint64_t threshold = PhiloxRandom::Threshold(p);
    std::vector<std::uint64_t> words = {0, 1, 0xFFFFFFFFull, 0x80000000ull};
    for (std::uint64_t w : {threshold, threshold - 1, threshold + 1}) {
      if (w <= 0xFFFFFFFFull) words.push_back(w);
    }
    if (p > 0 && p < 1) {
      const double scaled = p * two32;
      for (double w : {std::floor(scaled), std::ceil(scaled), std::floor(scaled) - 1}) {
        if (w >= 0 && w <= 0xFFFFFFFFull) words.push_back(static_cast<std::uint64_t>(w));
      }
    }
    for (int i = 0; i < 20; ++i) words.push_back(random.Next());
    for (std::uint64_t w : words) {
      const bool uniform_below = static_cast<std::uint32_t>(w) * (1.0 / two32) < p;
      EXPECT_EQ(w < threshold, uniform_below) << "p " << p << " word " << w;
    }
  }
}

// pollux.py:354-374 transcribed entry by entry with Uniform() < p.
void ReferenceMutate(const GaProblem& problem, PhiloxRandom& random, GaState& state) {
  const int J = problem.num_jobs, N = problem.num_nodes;
  auto at = [&](int j, int n) -> int& { return state[static_cast<std::size_t>(j) * N + n]; };
  for (int j = 0; j < J; ++j) {
    if (random.Uniform() < 0.1) {
      for (int n = 0; n < N; ++n) at(j, n) = problem.base_state[j * N + n];
    }
  }
  for (int j = 0; j < J; ++j) {
    if (random.Uniform() >= 0.1) continue;
    for (int n = 0; n < N; ++n)
      if (random.Uniform() < 0.1) at(j, n) = 0;
  }
  const GaState before = state;
  for (int n = 0; n < N; ++n) {
    int used = 0, holders = 0;
    for (int j = 0; j < J; ++j) used += before[j * N + n], holders += before[j * N + n] > 0;
    if (problem.node_capacity[n] - used < 1) continue;
    const double p1 = 1.0 / J;
    for (int j = 0; j < J; ++j) {
      const int current = before[j * N + n];
      const double p2 = current > 0 ? 1.0 / holders : 0.0;
      if (random.Uniform() < p1 + p2 - p1 * p2) {
        const int high = problem.node_capacity[n];
        at(j, n) = current >= high ? current : current + random.Below(high - current + 1);
      }
    }
  }
}

// pollux.py:376-420 transcribed as five passes over the whole state.
void ReferenceRepair(const GaProblem& problem, const GaOptions& options, PhiloxRandom& random,
                     GaState& state) {
  const int J = problem.num_jobs, N = problem.num_nodes;
  auto at = [&](int j, int n) -> int& { return state[static_cast<std::size_t>(j) * N + n]; };
  if (options.interference_avoidance) {
    std::vector<char> distributed(J);
    for (int j = 0; j < J; ++j) {
      int nodes = 0;
      for (int n = 0; n < N; ++n) nodes += at(j, n) > 0;
      distributed[j] = nodes > 1;
    }
    for (int n = 0; n < N; ++n) {
      int count = 0;
      for (int j = 0; j < J; ++j) {
        count += distributed[j] && at(j, n) > 0;
        if (count > 1) at(j, n) = 0;
      }
    }
  }
  for (int j = 0; j < J; ++j) {
    int total = 0, nodes = 0;
    for (int n = 0; n < N; ++n) total += at(j, n), nodes += at(j, n) > 0;
    if (total <= problem.max_replicas[j] && nodes <= options.max_nodes_per_job) continue;
    std::vector<int> order(N);
    std::iota(order.begin(), order.end(), 0);
    for (int i = N - 1; i > 0; --i) std::swap(order[i], order[random.Below(i + 1)]);
    int kept = 0, kept_nodes = 0;
    for (int n : order) {
      int take = std::min(at(j, n), problem.max_replicas[j] - kept);
      if (take > 0 && kept_nodes >= options.max_nodes_per_job) take = 0;
      kept += take;
      kept_nodes += take > 0;
      at(j, n) = take;
    }
  }
  for (int n = 0; n < N; ++n) {
    int used = 0;
    for (int j = 0; j < J; ++j) {
      const int take = std::min(at(j, n), std::max(problem.node_capacity[n] - used, 0));
      used += take;
      at(j, n) = take;
    }
  }
  for (int j = 0; j < J; ++j) {
    int total = 0;
    for (int n = 0; n < N; ++n) total += at(j, n);
    if (total < problem.min_replicas[j]) {
      for (int n = 0; n < N; ++n) at(j, n) = 0;
    }
  }
}

struct RandomInstance {
  GaProblem problem;
  GaOptions options;
  GaState state;
};

// Random shapes and bounds, including empty nodes, tight replica and node caps, min_replicas
// and interference avoidance on and off. Beyond 20 nodes, one entry in `sparsity` of the state
// (on average) has replicas, as in the states of large clusters.
RandomInstance MakeInstance(PhiloxRandom& random, int max_jobs = 30, int max_nodes = 20) {
  RandomInstance instance;
  GaProblem& problem = instance.problem;
  problem.num_jobs = 1 + random.Below(max_jobs);
  problem.num_nodes = 1 + random.Below(max_nodes);
  const int sparsity = max_nodes > 20 ? 1 + random.Below(40) : 2;
  const int J = problem.num_jobs, N = problem.num_nodes;
  for (int n = 0; n < N; ++n) problem.node_capacity.push_back(random.Below(9));
  for (int j = 0; j < J; ++j) {
    problem.max_replicas.push_back(1 + random.Below(12));
    problem.min_replicas.push_back(random.Below(4) == 0 ? random.Below(4) : 0);
  }
  for (int i = 0; i < J * N; ++i) {
    problem.base_state.push_back(random.Below(3) == 0 ? random.Below(5) : 0);
    instance.state.push_back(random.Below(sparsity) == 0 ? random.Below(9) : 0);
  }
  instance.options.interference_avoidance = random.Below(4) != 0;
  instance.options.max_nodes_per_job = 1 + random.Below(N + 2);
  return instance;
}

// `apply` and `reference` on 3000 random instances: the same states and the same next draw.
template <typename Apply, typename Reference>
void ExpectSameAsReference(std::uint64_t seed, Apply apply, Reference reference, int max_jobs = 30,
                           int max_nodes = 20) {
  PhiloxRandom instances(seed, 1);
  int changed = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const RandomInstance instance = MakeInstance(instances, max_jobs, max_nodes);
    GaState expected = instance.state, actual = instance.state;
    PhiloxRandom reference_random(trial, seed), random(trial, seed);
    reference(instance, reference_random, expected);
    apply(instance, random, actual);
    ASSERT_EQ(actual, expected) << "trial " << trial;
    ASSERT_EQ(random.Next(), reference_random.Next()) << "trial " << trial << ": draws differ";
    changed += actual != instance.state;
  }
  EXPECT_GT(changed, 1000);  // the instances exercise the operator
}

TEST(PolluxGaOperators, OnePassRepairEqualsTheFivePassesDrawForDraw) {
  ExpectSameAsReference(
      1,
      [](const RandomInstance& i, PhiloxRandom& random, GaState& state) {
        RepairState(i.problem, i.options, random, state);
      },
      [](const RandomInstance& i, PhiloxRandom& random, GaState& state) {
        ReferenceRepair(i.problem, i.options, random, state);
      });
}

TEST(PolluxGaOperators, MutationEqualsTheArtifactsOperatorDrawForDraw) {
  ExpectSameAsReference(
      3,
      [](const RandomInstance& i, PhiloxRandom& random, GaState& state) {
        MutateState(i.problem, random, state);
      },
      [](const RandomInstance& i, PhiloxRandom& random, GaState& state) {
        ReferenceMutate(i.problem, random, state);
      });
}

TEST(PolluxGaOperators, MutationEqualsTheArtifactsOperatorForManyJobs) {
  // Up to 100 jobs: the step that skips jobs without replicas on a node (up to 64 jobs) and the
  // one beyond it.
  ExpectSameAsReference(
      4,
      [](const RandomInstance& i, PhiloxRandom& random, GaState& state) {
        MutateState(i.problem, random, state);
      },
      [](const RandomInstance& i, PhiloxRandom& random, GaState& state) {
        ReferenceMutate(i.problem, random, state);
      },
      100);
}

TEST(PolluxGaOperators, RepairAndMutationEqualTheArtifactsOperatorsOnManyNodes) {
  // Up to 200 nodes with sparse states: the repair at the listed nodes of long rows, the
  // mutation over listed holders with more than 64 jobs; both against the transcriptions.
  ExpectSameAsReference(
      5,
      [](const RandomInstance& i, PhiloxRandom& random, GaState& state) {
        RepairState(i.problem, i.options, random, state);
      },
      [](const RandomInstance& i, PhiloxRandom& random, GaState& state) {
        ReferenceRepair(i.problem, i.options, random, state);
      },
      100, 200);
  ExpectSameAsReference(
      6,
      [](const RandomInstance& i, PhiloxRandom& random, GaState& state) {
        MutateState(i.problem, random, state);
      },
      [](const RandomInstance& i, PhiloxRandom& random, GaState& state) {
        ReferenceMutate(i.problem, random, state);
      },
      200, 200);
}

// Every row of every state of a small problem with its bounds (the set CountRepairedStates
// counts), enumerated.
std::set<GaState> BoundedStates(const GaProblem& problem, const GaOptions& options) {
  const int J = problem.num_jobs, N = problem.num_nodes;
  std::set<GaState> states;
  GaState state(static_cast<std::size_t>(J) * N, 0);
  auto within = [&](int j) {
    int total = 0, nodes = 0;
    for (int n = 0; n < N; ++n) total += state[j * N + n], nodes += state[j * N + n] > 0;
    return total <= problem.max_replicas[j] && nodes <= options.max_nodes_per_job &&
           (total == 0 || total >= problem.min_replicas[j]);
  };
  while (true) {  // odometer over entries 0 .. capacity
    bool all = true;
    for (int j = 0; j < J; ++j) all = all && within(j);
    if (all) states.insert(state);
    std::size_t i = 0;
    while (i < state.size() && state[i] == std::max(problem.node_capacity[i % N], 0))
      state[i++] = 0;
    if (i == state.size()) return states;
    ++state[i];
  }
}

TEST(PolluxGa, RepairReturnsOnlyTheCountedStates) {
  PhiloxRandom random(15, 2);
  int small = 0;
  for (int trial = 0; trial < 300; ++trial) {
    GaProblem problem;
    problem.num_jobs = 1 + random.Below(2);
    problem.num_nodes = 1 + random.Below(4);
    const int J = problem.num_jobs, N = problem.num_nodes;
    for (int n = 0; n < N; ++n) problem.node_capacity.push_back(random.Below(4));
    for (int j = 0; j < J; ++j) {
      problem.max_replicas.push_back(random.Below(6));
      problem.min_replicas.push_back(random.Below(3) == 0 ? random.Below(4) : 0);
    }
    problem.base_state.assign(static_cast<std::size_t>(J) * N, 0);
    GaOptions options;
    options.interference_avoidance = random.Below(2) == 0;
    options.max_nodes_per_job = 1 + random.Below(N + 1);
    const std::set<GaState> states = BoundedStates(problem, options);
    ASSERT_EQ(CountRepairedStates(problem, options, states.size() + 5), states.size())
        << "trial " << trial;
    ASSERT_EQ(CountRepairedStates(problem, options, states.size() - 1), states.size())
        << "trial " << trial << ": saturates at bound + 1";
    small += states.size() <= 100;
    for (int k = 0; k < 50; ++k) {  // repaired random states are among them
      GaState state(static_cast<std::size_t>(J) * N);
      for (int& x : state) x = random.Below(6);
      RepairState(problem, options, random, state);
      ASSERT_TRUE(states.count(state)) << "trial " << trial;
    }
  }
  EXPECT_GT(small, 100);
  // A large problem saturates without enumerating.
  GaProblem large;
  large.num_jobs = 3;
  large.num_nodes = 512;
  large.node_capacity.assign(512, 4);
  large.max_replicas = {2048, 1, 0};
  large.min_replicas = {0, 0, 0};
  EXPECT_EQ(CountRepairedStates(large, GaOptions{}, 100), 101u);
}

TEST(PolluxGa, StopsOnceThePopulationHoldsEveryRepairedStateWithTheSameResult) {
  // One job with at most one replica on 5 nodes of 2 GPUs: 6 states. The base state is the empty
  // one, so the first generations find the others.
  GaProblem problem;
  problem.num_jobs = 1;
  problem.num_nodes = 5;
  problem.node_capacity.assign(5, 2);
  problem.max_replicas = {1};
  problem.min_replicas = {0};
  problem.base_state.assign(5, 0);
  problem.evaluate = [](const GaState& s) {
    int first = -1;
    for (int n = 0; n < 5; ++n)
      if (s[n] > 0 && first < 0) first = n;
    return GaObjectives{first < 0 ? 0.0 : -1.0, first < 0 ? 0.0 : (first % 3) * 0.5};
  };
  ASSERT_EQ(CountRepairedStates(problem, GaOptions{}, 100), 6u);
  for (std::uint64_t seed = 0; seed < 5; ++seed) {
    PhiloxRandom full_random(seed, 1), stopped_random(seed, 1);
    const GaResult full =
        RunPolluxGa(problem, {problem.base_state}, GaOptions{}, full_random, {false});
    const GaResult stopped =
        RunPolluxGa(problem, {problem.base_state}, GaOptions{}, stopped_random);
    EXPECT_EQ(stopped.front, full.front);
    EXPECT_EQ(stopped.values, full.values);
    EXPECT_EQ(stopped.evaluations, full.evaluations);
    EXPECT_EQ(full.evaluations, 6);
    // The shortened run drew less: it did stop early.
    EXPECT_NE(stopped_random.Next(), full_random.Next()) << "seed " << seed;
  }
}

// An objective of a repaired state's summary that tells summaries apart: each row's nodes,
// replicas and change flag weighted by the row, and the nodes in use.
GaObjectives SummaryObjective(const GaStateSummary& summary) {
  double weighted = 0;
  for (std::size_t j = 0; j < summary.rows.size(); ++j) {
    const GaRowSummary& r = summary.rows[j];
    weighted += (1.0 + j) * (r.nodes * 1e4 + r.replicas * 10.0 + (r.changed ? 1 : 0));
  }
  return {-weighted, static_cast<double>(summary.active_nodes)};
}

TEST(PolluxGa, TheRepairsSummaryEqualsTheStates) {
  // The GA with evaluate_summary (the repair's summary) and with evaluate (the summary computed
  // here from the state) evaluates the same values in the same order, on random problems of up
  // to 100 nodes (NonzeroMask's blocks and tails), with and without interference avoidance.
  PhiloxRandom instances(11, 1);
  int distributed = 0;
  for (int trial = 0; trial < 60; ++trial) {
    RandomInstance instance = MakeInstance(instances, 30, trial % 2 == 0 ? 20 : 100);
    GaProblem& problem = instance.problem;
    const int J = problem.num_jobs, N = problem.num_nodes;
    std::vector<GaObjectives> from_states, from_summaries;
    problem.evaluate = [&](const GaState& s) {
      std::vector<GaRowSummary> rows(J);
      std::vector<char> active(N, 0);
      for (int j = 0; j < J; ++j) {
        for (int n = 0; n < N; ++n) {
          const int v = s[static_cast<std::size_t>(j) * N + n];
          rows[j].nodes += v > 0;
          rows[j].replicas += v;
          rows[j].changed = rows[j].changed || v != problem.base_state[j * N + n];
          active[n] = active[n] || v > 0;
        }
        distributed += rows[j].nodes > 1;
      }
      const GaObjectives f =
          SummaryObjective({rows, static_cast<int>(std::count(active.begin(), active.end(), 1))});
      from_states.push_back(f);
      return f;
    };
    GaOptions options = instance.options;
    options.population_size = 20;
    options.generations = 8;
    PhiloxRandom state_random(trial, 2), summary_random(trial, 2);
    const GaResult by_state = RunPolluxGa(problem, {instance.state}, options, state_random);
    GaProblem summarised = problem;
    summarised.evaluate_summary = [&](const GaStateSummary& summary) {
      from_summaries.push_back(SummaryObjective(summary));
      return from_summaries.back();
    };
    const GaResult by_summary = RunPolluxGa(summarised, {instance.state}, options, summary_random);
    ASSERT_EQ(from_summaries, from_states) << "trial " << trial;
    EXPECT_EQ(by_summary.front, by_state.front) << "trial " << trial;
  }
  EXPECT_GT(distributed, 100);  // rows on several nodes occur
}

TEST(PolluxGa, NarrowEntriesGiveTheSameRun) {
  // States stored with one byte an entry (the default when the counts fit) and with ints: the same
  // evaluated values in the same order, the same front and the same draws, on random problems of
  // up to 100 nodes, with and without interference avoidance.
  PhiloxRandom instances(13, 1);
  for (int trial = 0; trial < 40; ++trial) {
    RandomInstance instance = MakeInstance(instances, 30, trial % 2 == 0 ? 20 : 100);
    std::vector<GaObjectives> values[2];
    GaResult results[2];
    std::uint32_t next_draw[2];
    for (int narrow = 0; narrow < 2; ++narrow) {
      GaProblem problem = instance.problem;
      problem.evaluate_summary = [&values, narrow](const GaStateSummary& summary) {
        values[narrow].push_back(SummaryObjective(summary));
        return values[narrow].back();
      };
      GaOptions options = instance.options;
      options.population_size = 20;
      options.generations = 8;
      PhiloxRandom random(trial, 3);
      GaRunControl control;
      control.narrow_entries = narrow == 1;
      results[narrow] = RunPolluxGa(problem, {instance.state}, options, random, control);
      next_draw[narrow] = random.Next();
    }
    ASSERT_FALSE(values[0].empty());
    ASSERT_EQ(values[1], values[0]) << "trial " << trial;
    EXPECT_EQ(results[1].front, results[0].front) << "trial " << trial;
    EXPECT_EQ(results[1].evaluations, results[0].evaluations) << "trial " << trial;
    EXPECT_EQ(next_draw[1], next_draw[0]) << "trial " << trial;
  }
}

TEST(PolluxGa, OffspringOfAGenerationAreDistinct) {
  // A large state space, so that every generation finds population_size new states: the
  // evaluations are then the initial state followed by one batch per generation.
  GaProblem problem;
  problem.num_jobs = 8;
  problem.num_nodes = 8;
  problem.base_state.assign(64, 0);
  problem.max_replicas.assign(8, 16);
  problem.min_replicas.assign(8, 0);
  problem.node_capacity.assign(8, 8);
  std::vector<GaState> trajectory;
  problem.evaluate = [&trajectory](const GaState& s) {
    trajectory.push_back(s);
    double used = 0, spread = 0;
    for (int j = 0; j < 8; ++j) {
      int nodes = 0;
      for (int n = 0; n < 8; ++n) used += s[j * 8 + n], nodes += s[j * 8 + n] > 0;
      spread += nodes;
    }
    return GaObjectives{-used, spread};
  };
  GaOptions options;
  options.population_size = 40;
  options.generations = 25;
  PhiloxRandom random(5, 1);
  const GaResult result = RunPolluxGa(problem, {problem.base_state}, options, random);
  ASSERT_EQ(result.evaluations, 1 + (options.generations - 1) * options.population_size);
  ASSERT_EQ(static_cast<std::int64_t>(trajectory.size()), result.evaluations);
  for (std::size_t begin = 1; begin < trajectory.size(); begin += options.population_size) {
    const std::set<GaState> batch(trajectory.begin() + begin,
                                  trajectory.begin() + begin + options.population_size);
    EXPECT_EQ(batch.size(), static_cast<std::size_t>(options.population_size))
        << "generation " << begin / options.population_size + 1;
  }
  // The final front is non-dominated and made of evaluated states.
  for (std::size_t i = 0; i < result.front.size(); ++i) {
    EXPECT_NE(std::find(trajectory.begin(), trajectory.end(), result.front[i]), trajectory.end());
    for (std::size_t k = 0; k < result.values.size(); ++k) {
      const auto& a = result.values[k];
      const auto& b = result.values[i];
      EXPECT_FALSE(a[0] <= b[0] && a[1] <= b[1] && (a[0] < b[0] || a[1] < b[1]));
    }
  }
}

// Non-dominated sorting by definition (P:pymoo/util/nds/fast_non_dominated_sort.py): a front is
// the points dominated by no point left, in index order.
std::vector<std::vector<int>> ReferenceFronts(const std::vector<GaObjectives>& values) {
  auto dominates = [](const GaObjectives& a, const GaObjectives& b) {
    return a[0] <= b[0] && a[1] <= b[1] && (a[0] < b[0] || a[1] < b[1]);
  };
  std::vector<char> left(values.size(), 1);
  std::vector<std::vector<int>> fronts;
  for (std::size_t done = 0; done < values.size();) {
    std::vector<int> front;
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (!left[i]) continue;
      bool dominated = false;
      for (std::size_t k = 0; k < values.size(); ++k) {
        dominated = dominated || (left[k] && dominates(values[k], values[i]));
      }
      if (!dominated) front.push_back(static_cast<int>(i));
    }
    for (int i : front) left[i] = 0;
    done += front.size();
    fronts.push_back(std::move(front));
  }
  return fronts;
}

// P:pymoo/algorithms/nsga2.py calc_crowding_distance written out: duplicates (the later copies)
// count 0, the rest are sorted stably per objective, boundaries get 1e14.
std::vector<double> ReferenceCrowding(const std::vector<GaObjectives>& values) {
  const std::size_t n = values.size();
  if (n <= 2) return std::vector<double>(n, 1e14);
  std::vector<double> crowding(n, 0.0);
  std::vector<int> unique;
  for (std::size_t i = 0; i < n; ++i) {
    bool duplicate = false;
    for (int u : unique) duplicate = duplicate || values[u] == values[i];
    if (!duplicate) unique.push_back(static_cast<int>(i));
  }
  for (int m = 0; m < 2; ++m) {
    std::vector<int> sorted = unique;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [&](int a, int b) { return values[a][m] < values[b][m]; });
    const double norm = values[sorted.back()][m] - values[sorted.front()][m];
    if (norm == 0) continue;
    for (std::size_t i = 0; i < sorted.size(); ++i) {
      const double inf = std::numeric_limits<double>::infinity();
      const double to_last =
          i == 0 ? inf : (values[sorted[i]][m] - values[sorted[i - 1]][m]) / norm;
      const double to_next =
          i + 1 == sorted.size() ? inf : (values[sorted[i + 1]][m] - values[sorted[i]][m]) / norm;
      crowding[sorted[i]] += (to_last + to_next) / 2.0;
    }
  }
  for (double& c : crowding)
    if (std::isinf(c)) c = 1e14;
  return crowding;
}

// Populations with many ties and duplicates (values on a coarse grid, ±0), and some NaN.
std::vector<GaObjectives> RandomObjectives(PhiloxRandom& random, bool with_nan) {
  const int n = 1 + random.Below(220), grid = 1 + random.Below(12);
  std::vector<GaObjectives> values(n);
  for (GaObjectives& v : values) {
    for (double& x : v) {
      x = random.Below(grid) - grid / 2.0;
      if (x == 0 && random.Below(2)) x = -0.0;
      if (with_nan && random.Below(30) == 0) x = std::numeric_limits<double>::quiet_NaN();
    }
  }
  return values;
}

TEST(PolluxGa, NonDominatedSortingEqualsTheDefinition) {
  PhiloxRandom random(11, 2);
  for (int trial = 0; trial < 400; ++trial) {
    const std::vector<GaObjectives> values = RandomObjectives(random, false);
    ASSERT_EQ(NonDominatedFronts(values), ReferenceFronts(values)) << "trial " << trial;
  }
}

TEST(PolluxGa, CrowdingEqualsPymoosDefinition) {
  PhiloxRandom random(12, 2);
  int with_duplicates = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const std::vector<GaObjectives> values = RandomObjectives(random, trial % 4 == 0);
    const std::vector<double> expected = ReferenceCrowding(values),
                              actual = CrowdingDistance(values);
    ASSERT_EQ(actual.size(), expected.size());
    for (std::size_t i = 0; i < actual.size(); ++i) {  // bit for bit (NaN where NaN)
      ASSERT_TRUE(actual[i] == expected[i] || (std::isnan(actual[i]) && std::isnan(expected[i])))
          << "trial " << trial << " point " << i << ": " << actual[i] << " vs " << expected[i];
    }
    with_duplicates += std::count(expected.begin(), expected.end(), 0.0) > 0;
  }
  EXPECT_GT(with_duplicates, 100);  // the populations exercise the duplicate rule
}

// The lexicographic order (f0, f1, index) written out: a stable sort by the objectives.
std::vector<int> LexicographicOrder(const std::vector<GaObjectives>& values, int count) {
  std::vector<int> order(count);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return values[a][0] < values[b][0] ||
           (values[a][0] == values[b][0] && values[a][1] < values[b][1]);
  });
  return order;
}

TEST(PolluxGa, SortingWithASortedPrefixEqualsSortingAll) {
  PhiloxRandom random(13, 2);
  for (int trial = 0; trial < 400; ++trial) {
    const std::vector<GaObjectives> values = RandomObjectives(random, false);
    const int n = static_cast<int>(values.size());
    const std::vector<int> prefix = LexicographicOrder(values, random.Below(n + 1));
    FrontSorting all, merged;
    SortFronts(values, all);
    SortFronts(values, merged, prefix);
    ASSERT_EQ(all.order, LexicographicOrder(values, n)) << "trial " << trial;
    ASSERT_EQ(merged.order, all.order) << "trial " << trial;
    ASSERT_EQ(merged.members, all.members) << "trial " << trial;
    ASSERT_EQ(merged.starts, all.starts) << "trial " << trial;
    ASSERT_EQ(merged.rank, all.rank) << "trial " << trial;
  }
}

TEST(PolluxGa, FrontCrowdingEqualsPymoosDefinition) {
  PhiloxRandom random(14, 2);
  int fronts = 0, with_duplicates = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const std::vector<GaObjectives> values = RandomObjectives(random, false);
    FrontSorting sorting;
    SortFronts(values, sorting);
    for (std::size_t k = 0; k + 1 < sorting.starts.size(); ++k) {
      // The front's points in index order, and their positions in lexicographic order.
      std::vector<GaObjectives> front;
      std::vector<int> position(values.size(), -1), lexicographic;
      for (int p = sorting.starts[k]; p < sorting.starts[k + 1]; ++p) {
        position[sorting.members[p]] = static_cast<int>(front.size());
        front.push_back(values[sorting.members[p]]);
      }
      for (int i : sorting.order) {
        if (position[i] >= 0) lexicographic.push_back(position[i]);
      }
      std::vector<int> unique;
      std::vector<double> actual;
      FrontCrowdingDistances(front, lexicographic, unique, actual);
      const std::vector<double> expected = ReferenceCrowding(front);
      ASSERT_EQ(actual, expected) << "trial " << trial << " front " << k;
      ++fronts;
      with_duplicates += front.size() > 2 && std::count(expected.begin(), expected.end(), 0.0) > 0;
    }
  }
  EXPECT_GT(fronts, 1000);
  EXPECT_GT(with_duplicates, 50);  // fronts with equal points exercise the duplicate rule
}

}  // namespace
}  // namespace adaptsim
