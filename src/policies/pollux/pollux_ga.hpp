// The genetic algorithm of PolluxSched (docs/pollux.md §3.5-3.6; `A:simulator/pollux.py:115-200,
// 339-438`), an NSGA-II as in pymoo 0.4.2 (`P:pymoo/algorithms/nsga2.py`,
// `P:pymoo/model/{algorithm,mating,crossover}.py`) with the artifact's custom operators, written
// out here because pymoo's Python loop cannot be reused and pagmo2's NSGA-II has fixed operators.
//
// Encoding: a state is a J×N row-major matrix of replicas of job j on node n; row order is the
// priority order of the repair (least attained service first). Both objectives are minimised.
// One run: the initial states (repaired, duplicates removed) are ranked; then generations − 1
// times: binary tournaments (Pareto dominance, then larger crowding distance, then a coin) pick
// ceil(remaining/2) parent pairs; each pair gives 2 children by single-point crossover over job
// rows with probability `crossover_probability` (else copies); every child is mutated and
// repaired; duplicates (of the population, the offspring so far, each other) are dropped and the
// mating repeats (at most `max_mating_iterations` times) until `population_size` offspring
// exist; rank-and-crowding survival keeps `population_size` of parents ∪ offspring. The result is
// the final population's non-dominated set.
//
// Mutation (pollux.py:354-374): (1) each row reset to the base state w.p. 0.1; (2) each row,
// w.p. 0.1, zeroes each entry w.p. 0.1; (3) with p1 = 1/#jobs (nodes with a free GPU) and
// p2 = 1/#jobs already on the node (if the job is on it), each entry w.p. p1 + p2 − p1·p2 becomes
// U{current .. gpus on the node}.
// Repair (pollux.py:376-420), in order: interference avoidance (on each node, the first
// distributed job keeps it; that job's later rows lose their replicas there), max replicas per
// job (keeps a random subset of nodes' replicas), max nodes per job, node capacity in row order,
// min replicas.
// Randomness: PhiloxRandom only (Random123 Philox4x32-10 keyed by the task seed), so a rerun is
// identical. Not thread-safe.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "adaptsim/error.hpp"
#include "adaptsim/policy_options.hpp"

namespace adaptsim {

/// Philox4x32-10 (Salmon et al., SC'11; Random123's r123::Philox4x32) on kPhiloxBatchBlocks
/// consecutive counters: block b has counter (c0, c1 + b, c2 + carry, c3), i.e. the 64-bit
/// (c2:c1) advanced by b, and its 4 words go to out[4b .. 4b+3]. `path`: the instructions (the
/// same words on every path); kWidest takes AVX-512, else AVX2 when the CPU has them, else the
/// portable code (Random123 itself), and a path the CPU lacks falls back to the portable code.
inline constexpr std::size_t kPhiloxBatchBlocks = 32;
enum class PhiloxPath { kPortable, kAvx2, kAvx512, kWidest };
/// Whether PhiloxBlocks runs `path` on this CPU (kPortable and kWidest always).
bool PhiloxPathSupported(PhiloxPath path);
void PhiloxBlocks(const std::array<std::uint32_t, 4>& counter,
                  const std::array<std::uint32_t, 2>& key, std::uint32_t* out,
                  PhiloxPath path = PhiloxPath::kWidest);

/// Counter-based stream: Philox4x32-10 with key = the 64-bit seed and counter = (stream id,
/// block low, block high, substream), so (seed, stream, substream) names an independent stream.
/// Blocks are computed kPhiloxBatchBlocks at a time (PhiloxBlocks); the draws are the blocks'
/// words in order, exactly as r123::Philox4x32 called once per block would give them.
class PhiloxRandom {
 public:
  PhiloxRandom(std::uint64_t seed, std::uint32_t stream, std::uint32_t substream = 0);
  /// Uniform in [0, 1) with 32 random bits.
  double Uniform() { return Next() * (1.0 / 4294967296.0); }
  /// Uniform integer in [0, n), n ≥ 1.
  int Below(int n) {
    ADAPTSIM_CHECK(n >= 1);
    return static_cast<int>((static_cast<std::uint64_t>(Next()) * static_cast<std::uint64_t>(n)) >>
                            32);
  }
  /// Fisher–Yates from the back: for i = n−1 .. 1, swap(values[i], values[Below(i + 1)]) (the
  /// draws of numpy's shuffle as the artifact's operators use it).
  void Shuffle(std::span<int> values) {
    for (int i = static_cast<int>(values.size()) - 1; i > 0;) {
      const std::span<const std::uint32_t> words = Buffered();
      const int count = std::min(static_cast<int>(words.size()), i);
      for (int k = 0; k < count; ++k, --i) {
        std::swap(values[i],
                  values[(std::uint64_t{words[k]} * static_cast<std::uint64_t>(i + 1)) >> 32]);
      }
      Skip(count);
    }
  }
  /// The next 32 random bits (word 0..3 of block 0, 1, ... of the stream).
  std::uint32_t Next() {
    if (used_ == end_) Refill();
    return buffer_[used_++];
  }
  /// The buffered words not drawn yet, at least one (refilled first when all are drawn); they are
  /// the next draws of Next(), in order, and Skip(k) draws the first k of them.
  std::span<const std::uint32_t> Buffered() {
    if (used_ == end_) Refill();
    return {buffer_.data() + used_, end_ - used_};
  }
  /// As Buffered(), with at least `count` words (the next blocks are computed ahead as needed): a
  /// loop that draws at most `count` words reads them without a check per draw.
  std::span<const std::uint32_t> Reserve(std::size_t count) {
    if (end_ - used_ < count) Extend(count);
    return {buffer_.data() + used_, end_ - used_};
  }
  void Skip(std::size_t count) { used_ += count; }
  /// The number of words w with w·2⁻³² < p: `Uniform() < p` is exactly `Next() < Threshold(p)`
  /// (both sides are scaled by 2³², which is exact), with one draw either way.
  static std::uint64_t Threshold(double p) {
    if (!(p > 0)) return 0;  // also NaN: Uniform() < NaN is false
    if (p >= 1) return std::uint64_t{1} << 32;
    return static_cast<std::uint64_t>(std::ceil(p * 4294967296.0));
  }

 private:
  static constexpr std::size_t kBatchWords = 4 * kPhiloxBatchBlocks;
  static constexpr std::size_t kReserveSpan = 16;  ///< Extend: buffer words per reserved word
  void Refill();                                   ///< all drawn: the next batch at the front
  void Extend(std::size_t count);  ///< batches up to `count` (undrawn words moved when no room)
  void AppendBatch();              ///< the next kPhiloxBatchBlocks blocks at buffer_[end_]
  std::array<std::uint32_t, 2> key_;
  std::array<std::uint32_t, 4> counter_;  ///< of the next block to compute
  std::vector<std::uint32_t> buffer_;     ///< words [used_, end_) are the next draws
  std::size_t used_ = 0, end_ = 0;        ///< not ints: stores to a state's ints cannot alias them
};

using GaState = std::vector<int>;            ///< J×N, row-major
using GaObjectives = std::array<double, 2>;  ///< minimised

struct GaOptions {
  int population_size = 100;           ///< pollux.py:165-166
  int generations = 100;               ///< pymoo n_gen (the initial population counts as 1)
  double crossover_probability = 0.9;  ///< pymoo Crossover default prob
  int max_mating_iterations = 100;     ///< pymoo n_max_iterations
  bool interference_avoidance =
      true;                    ///< repair step 1 (README "Impact of Interference Avoidance")
  int max_nodes_per_job = 16;  ///< repair step 3

  /// The GA's options of the `pollux` policy (max_mating_iterations and max_nodes_per_job are
  /// the artifact's constants, not options).
  template <typename Self, typename V>
  static void VisitOptions(Self& self, V&& visit) {
    visit(Option("interference_avoidance",
                 "forbid two distributed jobs on one node (the artifact's default)"),
          self.interference_avoidance);
    visit(Option("population", "genetic algorithm population size", Within(2, 1e6)),
          self.population_size);
    visit(Option("generations", "genetic algorithm generations (the initial population counts)",
                 Within(1, 1e6)),
          self.generations);
    visit(Option("crossover_probability", "probability that two parents cross over", Within(0, 1)),
          self.crossover_probability);
  }
  /// max_mating_iterations and max_nodes_per_job >= 1 (ValidateOptions checks the rest).
  void CheckOptions(const OptionContext& where) const;
};

/// One row j of a repaired state as an objective reads it: the nodes with replicas of job j, its
/// replicas, and whether the row differs from row j of the base state.
struct GaRowSummary {
  int nodes = 0;
  int replicas = 0;
  bool changed = false;
};

/// A repaired state as an objective reads it: its rows (J, in row order) and the number of nodes
/// with some replica.
struct GaStateSummary {
  std::span<const GaRowSummary> rows;
  int active_nodes = 0;
};

/// The problem as data plus the objective function. States, the base state and the replica caps
/// are counts (≥ 0; checked).
struct GaProblem {
  int num_jobs = 0;
  int num_nodes = 0;
  GaState base_state;              ///< the current allocation
  std::vector<int> max_replicas;   ///< per job
  std::vector<int> min_replicas;   ///< per job
  std::vector<int> node_capacity;  ///< per node: replicas that fit (1 GPU per replica)
  std::function<GaObjectives(const GaState&)> evaluate;
  /// Optional: the objectives of a repaired state from its summary, which the repair computes as
  /// it goes (no pass over the state); must equal `evaluate` of the state. When set, the GA calls
  /// it instead of `evaluate`.
  std::function<GaObjectives(const GaStateSummary&)> evaluate_summary;
};

struct GaResult {
  std::vector<GaState> front;  ///< non-dominated states of the final population
  std::vector<GaObjectives> values;
  std::int64_t evaluations = 0;
};

/// How a run ends.
struct GaRunControl {
  /// Stop early once the population holds every state the repair can return (see RunPolluxGa);
  /// false runs every generation (same result, for tests).
  bool stop_when_exhausted = true;
  /// Store the run's states with one byte an entry when every count fits (node capacities, base
  /// and initial entries ≤ 127), else with ints; false: ints always (same result, for tests).
  bool narrow_entries = true;
};

/// Runs the GA from `initial` (≥ 1 state of the problem's shape). Once the population holds
/// every state the repair can return (CountRepairedStates of them), the rest of the run cannot
/// change the result or the evaluation count and is skipped: `random` is then left where the run
/// stopped, not where the remaining generations' draws would have left it.
GaResult RunPolluxGa(const GaProblem& problem, const std::vector<GaState>& initial,
                     const GaOptions& options, PhiloxRandom& random, GaRunControl control = {});

/// The number of states each of whose rows j has entries ≤ the node capacities, at most
/// max_replicas[j] replicas on at most max_nodes_per_job nodes, and no replica or at least
/// min_replicas[j]: the repair returns only such states (each of its steps keeps or makes these
/// bounds hold). Counted row by row (rows are independent here), at most `bound` + 1.
std::uint64_t CountRepairedStates(const GaProblem& problem, const GaOptions& options,
                                  std::uint64_t bound);

/// The mutation operator on one state, before its repair (exposed for tests).
void MutateState(const GaProblem& problem, PhiloxRandom& random, GaState& state);

/// The repair operator on one state (exposed for tests).
void RepairState(const GaProblem& problem, const GaOptions& options, PhiloxRandom& random,
                 GaState& state);

/// Non-dominated sorting of `values` (minimisation): fronts of indices, ascending within a front.
std::vector<std::vector<int>> NonDominatedFronts(const std::vector<GaObjectives>& values);

/// NonDominatedFronts into reusable buffers: front k is members[starts[k] .. starts[k + 1]),
/// rank[i] is the front of point i, and (without NaN) order lists the points in lexicographic
/// order of (f0, f1, index).
struct FrontSorting {
  struct Key {
    double f0, f1;
    int index;
  };
  std::vector<int> members, starts, order, rank;
  bool has_nan = false;           ///< some objective is NaN (order is then std::stable_sort's own)
  std::vector<int> last;          ///< scratch
  std::vector<Key> keys, merged;  ///< scratch
};
/// `sorted_prefix`, if not empty, lists the points 0 .. k−1 in lexicographic order of (f0, f1,
/// index) (as `order` of an earlier sorting gives them): only the other points are sorted, then
/// merged with them (the same order as sorting all). Ignored when some objective is NaN.
void SortFronts(std::span<const GaObjectives> values, FrontSorting& sorting,
                std::span<const int> sorted_prefix = {});

/// pymoo 0.4.2 calc_crowding_distance: boundary and ≤ 2-point fronts get 1e14, duplicates 0.
std::vector<double> CrowdingDistance(const std::vector<GaObjectives>& values);

/// CrowdingDistance into `crowding` (resized), with reusable buffers.
struct CrowdingScratch {
  std::vector<int> unique, sorted;
  std::vector<char> first;
};
void CrowdingDistances(std::span<const GaObjectives> values, CrowdingScratch& scratch,
                       std::vector<double>& crowding);

/// CrowdingDistances of one front of a non-dominated sorting without NaN, given `lexicographic`,
/// its points in order of (f0, f1, index): the same doubles without sorting. No point of a front
/// dominates another, so distinct points differ in both objectives and their order by f1 is the
/// reverse of their order by f0. `unique` is scratch.
void FrontCrowdingDistances(std::span<const GaObjectives> values,
                            std::span<const int> lexicographic, std::vector<int>& unique,
                            std::vector<double>& crowding);

}  // namespace adaptsim
