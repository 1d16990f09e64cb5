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

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

namespace adaptsim {

/// Counter-based stream: Philox4x32-10 with key = the 64-bit seed and counter = (stream id,
/// block low, block high, substream), so (seed, stream, substream) names an independent stream.
class PhiloxRandom {
 public:
  PhiloxRandom(std::uint64_t seed, std::uint32_t stream, std::uint32_t substream = 0);
  /// Uniform in [0, 1) with 32 random bits.
  double Uniform();
  /// Uniform integer in [0, n), n ≥ 1.
  int Below(int n);

 private:
  std::uint32_t Next();
  std::array<std::uint32_t, 2> key_;
  std::array<std::uint32_t, 4> counter_;
  std::array<std::uint32_t, 4> block_{};
  int used_ = 4;
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
  /// Throws InputError(field=...) when out of range.
  void Validate() const;
};

/// The problem as data plus the objective function.
struct GaProblem {
  int num_jobs = 0;
  int num_nodes = 0;
  GaState base_state;              ///< the current allocation
  std::vector<int> max_replicas;   ///< per job
  std::vector<int> min_replicas;   ///< per job
  std::vector<int> node_capacity;  ///< per node: replicas that fit (1 GPU per replica)
  std::function<GaObjectives(const GaState&)> evaluate;
};

struct GaResult {
  std::vector<GaState> front;  ///< non-dominated states of the final population
  std::vector<GaObjectives> values;
  std::int64_t evaluations = 0;
};

/// Runs the GA from `initial` (≥ 1 state of the problem's shape).
GaResult RunPolluxGa(const GaProblem& problem, const std::vector<GaState>& initial,
                     const GaOptions& options, PhiloxRandom& random);

/// The repair operator on one state (exposed for tests).
void RepairState(const GaProblem& problem, const GaOptions& options, PhiloxRandom& random,
                 GaState& state);

/// Non-dominated sorting of `values` (minimisation): fronts of indices, ascending within a front.
std::vector<std::vector<int>> NonDominatedFronts(const std::vector<GaObjectives>& values);

/// pymoo 0.4.2 calc_crowding_distance: boundary and ≤ 2-point fronts get 1e14, duplicates 0.
std::vector<double> CrowdingDistance(const std::vector<GaObjectives>& values);

}  // namespace adaptsim
