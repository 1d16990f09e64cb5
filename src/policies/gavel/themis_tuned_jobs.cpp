// Themis+TunedJobs on the interval engine (themis_tuned_jobs.hpp; docs/sia.md §10).
#include "themis_tuned_jobs.hpp"

#include <algorithm>

#include "adaptsim/error.hpp"
#include "finish_time_fairness.hpp"
#include "typed_lp.hpp"

namespace adaptsim {

ThemisTunedJobsRound ThemisTunedJobsFractions(const std::vector<TunedJobRoundView>& views,
                                              const std::vector<int>& capacities,
                                              ThemisFacePoint face_point) {
  const int m = static_cast<int>(views.size());
  const int n = static_cast<int>(capacities.size());
  internal::TypedLpInputs in;
  in.num_jobs = m;
  in.num_types = n;
  in.policy = "themis_tj";
  in.capacities = capacities;
  int total_gpus = 0;
  for (int c : capacities) total_gpus += c;
  // 1-2. Isolated throughput and expected isolated time (isolated.py:13-50;
  // finish_time_fairness.py:95).
  ThemisTunedJobsRound round;
  std::vector<ThemisJob> jobs;
  std::vector<double> isolated_x;
  for (const TunedJobRoundView& view : views) {
    in.scale_factors.push_back(view.scale_factor);
    double isolated = 0.0;
    for (int t = 0; t < n; ++t) {
      const double share =
          capacities[t] / static_cast<double>(std::max(m * view.scale_factor, total_gpus));
      in.throughputs.push_back(view.throughputs[t]);
      isolated_x.push_back(share);
      isolated += view.throughputs[t] * share;
    }
    round.expected_isolated_s.push_back(view.prestart_overhead_s + view.total_steps / isolated);
    jobs.push_back({0.0, view.remaining_steps, view.time_since_arrival_s,
                    round.expected_isolated_s.back(), view.scale_factor});
  }

  // 3. min max ρ: ρ* and the Dinkelbach vertex, then (centred) the barrier's point of the face.
  const ThemisSeveralTypesSolution solution = ThemisSolveSeveralTypes(in, jobs, isolated_x);
  round.rho = solution.rho;
  round.lp_solves = solution.lp_solves;
  round.x = solution.x;
  if (face_point == ThemisFacePoint::kCentred) {
    std::vector<double> floors(m);
    for (int i = 0; i < m; ++i) {  // t_i >= d_i(ρ*) (1 − 1e-9), as ThemisSolveSeveralTypes
      floors[i] = (1.0 - 1e-9) * jobs[i].remaining_steps /
                  (solution.rho * jobs[i].expected_isolated_s - jobs[i].time_since_arrival_s);
    }
    try {
      const internal::TypedLpPoint centred =
          internal::MaxWeightedSum(in, std::vector<double>(in.throughputs.size(), 0.0), floors,
                                   LpMethod::kBarrierNoCrossover);
      ++round.lp_solves;
      if (ThemisWorstRho(in, jobs, centred.x) <= solution.rho * (1.0 + 1e-6)) {
        round.x = centred.x;
      } else {
        round.vertex_fallback = true;
      }
    } catch (const InputError&) {
      round.vertex_fallback = true;
    }
  }
  for (double& share : round.x) share = std::clamp(share, 0.0, 1.0);  // :138
  return round;
}

ThemisTunedJobsPolicy::ThemisTunedJobsPolicy(const ThemisTunedJobsOptions& options)
    : TunedJobsRoundPolicy(options.round_s), options_(options) {
  ValidateOptions(options_, {"policy", "themis_tj"});
}

std::vector<double> ThemisTunedJobsPolicy::Fractions(const std::vector<TunedJobRoundView>& views,
                                                     const std::vector<int>& capacities) {
  ++rounds_;
  if (views.empty()) return {};
  const ThemisTunedJobsRound round =
      ThemisTunedJobsFractions(views, capacities, options_.face_point);
  lp_solves_ += round.lp_solves;
  vertex_fallbacks_ += round.vertex_fallback ? 1 : 0;
  return round.x;
}

std::map<std::string, double> ThemisTunedJobsPolicy::Statistics() const {
  return {{"themis_tj_rounds", static_cast<double>(rounds_)},
          {"themis_tj_lp_solves", static_cast<double>(lp_solves_)},
          {"themis_tj_vertex_fallbacks", static_cast<double>(vertex_fallbacks_)}};
}

}  // namespace adaptsim
