// PolluxSched's NSGA-II (A:simulator/pollux.py:115-200, 339-438; P:pymoo 0.4.2).
#include "pollux_ga.hpp"

#include <Random123/philox.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>
#include <unordered_set>

#include "adaptsim/error.hpp"

namespace adaptsim {

PhiloxRandom::PhiloxRandom(std::uint64_t seed, std::uint32_t stream, std::uint32_t substream)
    : key_{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)},
      counter_{stream, 0, 0, substream} {}

std::uint32_t PhiloxRandom::Next() {
  if (used_ == 4) {
    r123::Philox4x32 generator;
    r123::Philox4x32::ctr_type ctr = {{counter_[0], counter_[1], counter_[2], counter_[3]}};
    r123::Philox4x32::key_type key = {{key_[0], key_[1]}};
    r123::Philox4x32::ctr_type out = generator(ctr, key);
    for (int i = 0; i < 4; ++i) block_[i] = out[i];
    if (++counter_[1] == 0) ++counter_[2];
    used_ = 0;
  }
  return block_[used_++];
}

double PhiloxRandom::Uniform() {
  return Next() * (1.0 / 4294967296.0);
}

int PhiloxRandom::Below(int n) {
  ADAPTSIM_CHECK(n >= 1);
  return static_cast<int>((static_cast<std::uint64_t>(Next()) * static_cast<std::uint64_t>(n)) >>
                          32);
}

void GaOptions::Validate() const {
  const std::string context = "pollux";
  if (population_size < 2) throw InputError(context, 0, "pollux.population", "must be >= 2");
  if (generations < 1) throw InputError(context, 0, "pollux.generations", "must be >= 1");
  if (!(crossover_probability >= 0 && crossover_probability <= 1)) {
    throw InputError(context, 0, "pollux.crossover_probability", "must be in [0, 1]");
  }
  if (max_mating_iterations < 1) {
    throw InputError(context, 0, "pollux.max_mating_iterations", "must be >= 1");
  }
  if (max_nodes_per_job < 1) throw InputError(context, 0, "pollux.max_nodes_per_job", ">= 1");
}

namespace {

bool Dominates(const GaObjectives& a, const GaObjectives& b) {
  return a[0] <= b[0] && a[1] <= b[1] && (a[0] < b[0] || a[1] < b[1]);
}

struct StateHash {
  std::size_t operator()(const GaState& state) const {
    std::size_t h = 1469598103934665603ull;
    for (int v : state) h = (h ^ static_cast<std::size_t>(v + 1)) * 1099511628211ull;
    return h;
  }
};

}  // namespace

std::vector<std::vector<int>> NonDominatedFronts(const std::vector<GaObjectives>& values) {
  // Two objectives: sweep in lexicographic order; a point joins the first front whose last member
  // (the one with the smallest second objective so far) does not dominate it.
  std::vector<int> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return values[a] < values[b]; });
  std::vector<std::vector<int>> fronts;
  std::vector<int> last;
  for (int index : order) {
    std::size_t k = 0;
    while (k < fronts.size() && Dominates(values[last[k]], values[index])) ++k;
    if (k == fronts.size()) {
      fronts.emplace_back();
      last.push_back(index);
    }
    fronts[k].push_back(index);
    last[k] = index;
  }
  for (auto& front : fronts) std::sort(front.begin(), front.end());
  return fronts;
}

std::vector<double> CrowdingDistance(const std::vector<GaObjectives>& values) {
  constexpr double kInfinity = 1e14;
  const std::size_t n = values.size();
  std::vector<double> crowding(n, 0.0);
  if (n <= 2) return std::vector<double>(n, kInfinity);
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
    for (std::size_t i = 0; i < sorted.size(); ++i) {
      if (norm == 0) continue;  // NaN distances count 0
      const double to_last = i == 0 ? std::numeric_limits<double>::infinity()
                                    : (values[sorted[i]][m] - values[sorted[i - 1]][m]) / norm;
      const double to_next = i + 1 == sorted.size()
                                 ? std::numeric_limits<double>::infinity()
                                 : (values[sorted[i + 1]][m] - values[sorted[i]][m]) / norm;
      crowding[sorted[i]] += (to_last + to_next) / 2.0;
    }
  }
  for (double& c : crowding)
    if (std::isinf(c)) c = kInfinity;
  return crowding;
}

namespace {

// Buffers reused across the mutations and repairs of one GA run (no allocation per offspring).
struct GaScratch {
  std::vector<char> distributed;  ///< per job
  std::vector<int> order;         ///< per node
  std::vector<int> free;          ///< per node
  std::vector<int> holders;       ///< per node
};

void Repair(const GaProblem& problem, const GaOptions& options, PhiloxRandom& random,
            GaState& state, GaScratch& scratch) {
  const int J = problem.num_jobs, N = problem.num_nodes;
  auto at = [&](int j, int n) -> int& { return state[static_cast<std::size_t>(j) * N + n]; };
  // (1) At most one distributed job per node; later rows lose that node (pollux.py:385-390).
  if (options.interference_avoidance) {
    std::vector<char>& distributed = scratch.distributed;
    distributed.assign(J, 0);
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
  // (2)-(3) Max replicas and max nodes per job, over a random node order (pollux.py:391-403).
  std::vector<int>& order = scratch.order;
  order.resize(N);
  for (int j = 0; j < J; ++j) {
    int total = 0, nodes = 0;
    for (int n = 0; n < N; ++n) total += at(j, n), nodes += at(j, n) > 0;
    if (total <= problem.max_replicas[j] && nodes <= options.max_nodes_per_job) continue;
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
  // (4) Node capacity, earlier rows first (pollux.py:404-412).
  for (int n = 0; n < N; ++n) {
    int used = 0;
    for (int j = 0; j < J; ++j) {
      const int take = std::min(at(j, n), std::max(problem.node_capacity[n] - used, 0));
      used += take;
      at(j, n) = take;
    }
  }
  // (5) min_replicas (pollux.py:416-419).
  for (int j = 0; j < J; ++j) {
    int total = 0;
    for (int n = 0; n < N; ++n) total += at(j, n);
    if (total < problem.min_replicas[j]) {
      for (int n = 0; n < N; ++n) at(j, n) = 0;
    }
  }
}

}  // namespace

void RepairState(const GaProblem& problem, const GaOptions& options, PhiloxRandom& random,
                 GaState& state) {
  GaScratch scratch;
  Repair(problem, options, random, state, scratch);
}

namespace {

// pollux.py:354-374.
void Mutate(const GaProblem& problem, PhiloxRandom& random, GaState& state, GaScratch& scratch) {
  const int J = problem.num_jobs, N = problem.num_nodes;
  auto at = [&](int j, int n) -> int& { return state[static_cast<std::size_t>(j) * N + n]; };
  for (int j = 0; j < J; ++j) {
    if (random.Uniform() < 0.1) {
      std::copy_n(problem.base_state.begin() + static_cast<std::size_t>(j) * N, N,
                  state.begin() + static_cast<std::size_t>(j) * N);
    }
  }
  for (int j = 0; j < J; ++j) {
    if (random.Uniform() >= 0.1) continue;
    for (int n = 0; n < N; ++n)
      if (random.Uniform() < 0.1) at(j, n) = 0;
  }
  std::vector<int>& free = scratch.free;
  std::vector<int>& holders = scratch.holders;
  free.resize(N);
  holders.assign(N, 0);
  for (int n = 0; n < N; ++n) {
    int used = 0;
    for (int j = 0; j < J; ++j) used += at(j, n), holders[n] += at(j, n) > 0;
    free[n] = problem.node_capacity[n] - used;
  }
  // Each entry is read once, at its own (n, j), before it is written, so it still holds its value
  // from before this step: no copy of the state is needed.
  for (int n = 0; n < N; ++n) {
    if (free[n] < 1) continue;  // no job can add a replica: p1 = p2 = 0
    const double p1 = 1.0 / J;
    for (int j = 0; j < J; ++j) {
      const int current = at(j, n);
      const double p2 = current > 0 ? 1.0 / holders[n] : 0.0;
      if (random.Uniform() < p1 + p2 - p1 * p2) {
        const int high = problem.node_capacity[n];  // max replicas of a 1-GPU job on node n
        at(j, n) = current >= high ? current : current + random.Below(high - current + 1);
      }
    }
  }
}

struct Individual {
  GaState state;
  GaObjectives f{};
  int rank = 0;
  double crowding = 0.0;
};

// Rank-and-crowding survival (P:pymoo/algorithms/nsga2.py RankAndCrowdingSurvival).
std::vector<Individual> Survive(std::vector<Individual> pop, int n_survive, PhiloxRandom& random) {
  std::vector<GaObjectives> values;
  for (const Individual& ind : pop) values.push_back(ind.f);
  std::vector<Individual> survivors;
  const auto fronts = NonDominatedFronts(values);
  for (std::size_t k = 0; k < fronts.size(); ++k) {
    if (static_cast<int>(survivors.size()) >= n_survive) break;
    const std::vector<int>& front = fronts[k];
    std::vector<GaObjectives> front_values;
    for (int i : front) front_values.push_back(values[i]);
    const std::vector<double> crowding = CrowdingDistance(front_values);
    std::vector<int> order(front.size());
    std::iota(order.begin(), order.end(), 0);
    if (survivors.size() + front.size() > static_cast<std::size_t>(n_survive)) {
      // randomized_argsort, descending crowding: shuffle, then a stable sort.
      for (int i = static_cast<int>(order.size()) - 1; i > 0; --i) {
        std::swap(order[i], order[random.Below(i + 1)]);
      }
      std::stable_sort(order.begin(), order.end(),
                       [&](int a, int b) { return crowding[a] > crowding[b]; });
      order.resize(n_survive - survivors.size());
    }
    for (int i : order) {
      Individual ind = std::move(pop[front[i]]);  // each index is in exactly one front
      ind.rank = static_cast<int>(k);
      ind.crowding = crowding[i];
      survivors.push_back(std::move(ind));
    }
  }
  return survivors;
}

// Binary tournament: dominance, then larger crowding, then a coin (nsga2.py binary_tournament).
int Tournament(const std::vector<Individual>& pop, int a, int b, PhiloxRandom& random) {
  if (Dominates(pop[a].f, pop[b].f)) return a;
  if (Dominates(pop[b].f, pop[a].f)) return b;
  if (pop[a].crowding > pop[b].crowding) return a;
  if (pop[b].crowding > pop[a].crowding) return b;
  return random.Uniform() < 0.5 ? a : b;
}

// Parents for `matings` matings: tournaments over concatenated random permutations
// (P:pymoo/operators/selection/tournament_selection.py).
std::vector<int> SelectParents(const std::vector<Individual>& pop, int matings,
                               PhiloxRandom& random) {
  const int needed = matings * 2 * 2;
  std::vector<int> candidates;
  const int n = static_cast<int>(pop.size());
  while (static_cast<int>(candidates.size()) < needed) {
    std::vector<int> perm(n);
    std::iota(perm.begin(), perm.end(), 0);
    for (int i = n - 1; i > 0; --i) std::swap(perm[i], perm[random.Below(i + 1)]);
    candidates.insert(candidates.end(), perm.begin(), perm.end());
  }
  std::vector<int> parents(matings * 2);
  for (int i = 0; i < matings * 2; ++i) {
    parents[i] = Tournament(pop, candidates[2 * i], candidates[2 * i + 1], random);
  }
  return parents;
}

// Offspring by crossover, mutation, repair and duplicate elimination (P:pymoo/model/mating.py).
std::vector<Individual> Mate(const GaProblem& problem, const GaOptions& options,
                             const std::vector<Individual>& pop, PhiloxRandom& random,
                             GaScratch& scratch) {
  const int J = problem.num_jobs, N = problem.num_nodes;
  std::unordered_set<GaState, StateHash> seen;
  seen.reserve(pop.size() + 2 * static_cast<std::size_t>(options.population_size));
  for (const Individual& ind : pop) seen.insert(ind.state);
  std::vector<Individual> offspring;
  for (int iteration = 0; iteration < options.max_mating_iterations &&
                          static_cast<int>(offspring.size()) < options.population_size;
       ++iteration) {
    const int remaining = options.population_size - static_cast<int>(offspring.size());
    const int matings = (remaining + 1) / 2;
    const std::vector<int> parents = SelectParents(pop, matings, random);
    std::vector<GaState> children;
    for (int m = 0; m < matings; ++m) {
      GaState a = pop[parents[2 * m]].state, b = pop[parents[2 * m + 1]].state;
      if (random.Uniform() < options.crossover_probability) {
        // Single point over jobs: rows j < point are swapped (pollux.py:339-352).
        const std::size_t split = static_cast<std::size_t>(random.Below(J)) * N;
        std::swap_ranges(a.begin(), a.begin() + split, b.begin());
      }
      children.push_back(std::move(a));
      children.push_back(std::move(b));
    }
    std::vector<GaState> fresh;
    for (GaState& child : children) {
      Mutate(problem, random, child, scratch);
      Repair(problem, options, random, child, scratch);
      if (seen.insert(child).second) fresh.push_back(std::move(child));
    }
    if (static_cast<int>(fresh.size()) > remaining) {  // random subset (mating.py)
      for (int i = static_cast<int>(fresh.size()) - 1; i > 0; --i) {
        std::swap(fresh[i], fresh[random.Below(i + 1)]);
      }
      fresh.resize(remaining);
    }
    for (GaState& state : fresh) offspring.push_back({std::move(state)});
  }
  return offspring;
}

}  // namespace

GaResult RunPolluxGa(const GaProblem& problem, const std::vector<GaState>& initial,
                     const GaOptions& options, PhiloxRandom& random) {
  ADAPTSIM_CHECK(!initial.empty());
  GaResult result;
  std::vector<Individual> pop;
  std::unordered_set<GaState, StateHash> seen;
  GaScratch scratch;
  for (GaState state : initial) {
    ADAPTSIM_CHECK(state.size() == static_cast<std::size_t>(problem.num_jobs) * problem.num_nodes);
    Repair(problem, options, random, state, scratch);
    if (seen.insert(state).second) pop.push_back({std::move(state)});
  }
  for (Individual& ind : pop) ind.f = problem.evaluate(ind.state);
  result.evaluations += static_cast<std::int64_t>(pop.size());
  const int initial_size = static_cast<int>(pop.size());
  pop = Survive(std::move(pop), initial_size, random);
  for (int generation = 1; generation < options.generations; ++generation) {
    std::vector<Individual> offspring = Mate(problem, options, pop, random, scratch);
    for (Individual& ind : offspring) ind.f = problem.evaluate(ind.state);
    result.evaluations += static_cast<std::int64_t>(offspring.size());
    pop.insert(pop.end(), std::make_move_iterator(offspring.begin()),
               std::make_move_iterator(offspring.end()));
    pop = Survive(std::move(pop), options.population_size, random);
  }
  std::vector<GaObjectives> values;
  for (const Individual& ind : pop) values.push_back(ind.f);
  const std::vector<std::vector<int>> fronts = NonDominatedFronts(values);
  for (int i : fronts.front()) {
    result.front.push_back(pop[i].state);
    result.values.push_back(pop[i].f);
  }
  return result;
}

}  // namespace adaptsim
