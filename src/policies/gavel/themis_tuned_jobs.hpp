// Themis+TunedJobs as the Sia artifact runs it (docs/sia.md §10):
// Gavel's heterogeneity-aware finish-time-fairness program `finish_time_fairness_perf`
// (`S:sia-simulator/policies/finish_time_fairness.py:43-138`, offered by
// `simulator_config.py:74` as the alternative to Gavel's max-sum-throughput), driven by
// `gavel.py` in 360 s rounds on TunedJobs jobs (each rigid at its workload CSV's num_replicas K
// and batch_size B). The Sia artifact has no Themis file of its own; this is that configuration.
//
// Each round, with the round length R (option round_s, 360 s), for the m active jobs and the
// round view of each (adaptsim/job_mapping.hpp: X[j,t] it/s, K_j, total iterations S_j,
// remaining N_j, time since arrival τ_j, pre-start overhead o_j = R − sub mod R + restart delay):
//  1. isolated throughput iso_j = Σ_t X[j,t]·C_t / max(m·K_j, G), C_t the GPUs of type t,
//     G = Σ_t C_t (`policies/isolated.py:13-50`);
//  2. expected isolated time E_j = o_j + S_j / iso_j (`finish_time_fairness.py:95`; the Sia
//     artifact's form, not Gavel's cumulative one, which it computes but does not use);
//  3. x = argmin_x max_j ρ_j(x), ρ_j(x) = (τ_j + N_j / Σ_t X[j,t] x[j,t]) / E_j over x ≥ 0,
//     Σ_j K_j x[j,t] ≤ C_t, Σ_t x[j,t] ≤ 1 (rows by job name, columns by type name;
//     `policy.py:26-65`), clipped to [0, 1], not rounded (`:138`). ρ* by the round engine's
//     Dinkelbach iteration on CLP LPs (finish_time_fairness.hpp, ThemisSolveSeveralTypes); the
//     optimal face {x ∈ B : ρ_j(x) ≤ ρ*} is not a point, and the reference's is ECOS's interior
//     point (`gavel.py:22`): option face_point "centred" (default) takes CLP's barrier without
//     crossover on the face (a centred point, as gavel_tj does for its LP), "vertex" the
//     Dinkelbach vertex maximising Σ_j t_j/d_j;
//  4. Gavel's time-sharing (gavel_rounds.hpp): priorities x/(job_time/cluster_time), selection,
//     worker placement, accounting.
// Job side (ChooseBatch): the fixed batch B on the placement held (GavelTunedJobBatch).
// No randomness; CLP is deterministic; the result depends only on the inputs.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "adaptsim/interval_policy.hpp"
#include "adaptsim/job_mapping.hpp"
#include "adaptsim/policy_options.hpp"
#include "tuned_jobs_round_policy.hpp"

namespace adaptsim {

/// Which point of Themis's optimal face the round uses (step 3).
enum class ThemisFacePoint { kCentred, kVertex };

/// Options of `themis_tj`.
struct ThemisTunedJobsOptions {
  /// Length of the time-sharing rounds, s: the Sia paper runs Gavel, Themis and Shockwave in
  /// 360 s rounds (§4.3; `S:sia-simulator/run_experiment.sh:5` for Gavel). The engine runs this
  /// policy in these rounds whatever the task's interval_s (IntervalPolicy::RoundDurationS).
  double round_s = 360.0;
  /// "centred" (default): CLP barrier without crossover on the optimal face, like the
  /// reference's ECOS; "vertex": the Dinkelbach vertex (finish_time_fairness_perf's point).
  ThemisFacePoint face_point = ThemisFacePoint::kCentred;

  template <typename Self, typename V>
  static void VisitOptions(Self& self, V&& visit) {
    visit(Option("round_s", "s, length of the time-sharing rounds; replaces the task's interval_s",
                 Above(0)),
          self.round_s);
    visit(Option("face_point",
                 "point of the optimal face: centred (CLP barrier, like ECOS) or vertex",
                 Choices<ThemisFacePoint>{{"centred", ThemisFacePoint::kCentred},
                                          {"vertex", ThemisFacePoint::kVertex}}),
          self.face_point);
  }
};

/// Steps 1-3 of one round: the fractions of Themis's optimal face.
struct ThemisTunedJobsRound {
  std::vector<double> x;                    ///< m×n, the inputs' order, clipped to [0, 1]
  std::vector<double> expected_isolated_s;  ///< E_j, s
  double rho = 0.0;                         ///< ρ* = max_j ρ_j(x) of the Dinkelbach vertex
  int lp_solves = 0;
  bool vertex_fallback = false;  ///< centred requested, the vertex used (see face_point)
};

/// Steps 1-3 for `views` (one per job; throughputs[t] per column t) on `capacities` (C_t GPUs per
/// column). Throws InputError(field "solver") if CLP fails on the Dinkelbach LPs.
ThemisTunedJobsRound ThemisTunedJobsFractions(const std::vector<TunedJobRoundView>& views,
                                              const std::vector<int>& capacities,
                                              ThemisFacePoint face_point);

class ThemisTunedJobsPolicy final : public TunedJobsRoundPolicy {
 public:
  /// Throws InputError("policy", "themis_tj.<option>") for an option out of range.
  explicit ThemisTunedJobsPolicy(const ThemisTunedJobsOptions& options);
  /// themis_tj_rounds: rounds decided; themis_tj_lp_solves: LPs solved;
  /// themis_tj_vertex_fallbacks: rounds where the centred point failed and the vertex was used.
  std::map<std::string, double> Statistics() const override;

 private:
  /// Steps 1-3 (ThemisTunedJobsFractions); none without jobs.
  std::vector<double> Fractions(const std::vector<TunedJobRoundView>& views,
                                const std::vector<int>& capacities) override;

  ThemisTunedJobsOptions options_;
  std::int64_t rounds_ = 0;
  std::int64_t lp_solves_ = 0;
  std::int64_t vertex_fallbacks_ = 0;
};

}  // namespace adaptsim
