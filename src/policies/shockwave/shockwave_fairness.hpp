// Shockwave's finish-time-fairness targets and fallback priorities (docs/policies.md §8.3-§8.4),
// shared by `shockwave` (reference `scheduler/shockwave.py` of uw-mad-dash/shockwave@8a44f4a) and
// `shockwave_tj` (the Sia artifact's copy, `S:sia-simulator/shockwave.py`, docs/sia.md §11), whose
// formulas for these three quantities are the same.
#pragma once

#include <utility>
#include <vector>

namespace adaptsim {

/// F̄ = 0.9 Σ_i ω_i F̂_i + 0.1 F̂_last over the finish-time estimates `series` = (round r_i, F̂_i)
/// (rounds increasing, not empty), ω_i = (r_{i+1} − r_i)/(now − r_1) with r_{last+1} = `now`
/// (ω = 1 for a single entry at `now`) (`shockwave.py:480-501`; Sia's `shockwave.py:299-320`).
/// Units of F̂.
double ShockwaveMomentumAverage(const std::vector<std::pair<int, double>>& series, int now);

/// L_b = ln β_b, with ln 1e-6 for β_b = 0 (`logapx_origin`, `scheduler.py:405-423`; Sia's
/// `multi_simulator_unaware.py:62-63`).
std::vector<double> ShockwaveLogValues(const std::vector<double>& bases);

/// π_j of the infeasible fallback (`relax_finish_time_constraints`, `shockwave.py:830-911`; Sia's
/// `shockwave.py:365-452`): 1 when ρ̂ <= ρ_max, else ρ̂^λ, or ρ̂^100 when the remaining time is
/// below one round (`remaining_s` < `round_s`); capped at 1e200 (an adaptsim guard keeping ρ̂^100
/// finite).
double ShockwaveFallbackPriority(double rho, double remaining_s, double round_s, double rhomax,
                                 double lambda);

}  // namespace adaptsim
