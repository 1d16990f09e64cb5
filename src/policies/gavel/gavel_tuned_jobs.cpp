// Gavel+TunedJobs on the interval engine (gavel_tuned_jobs.hpp; docs/sia.md, "Baselines:
// Gavel+TunedJobs").
#include "gavel_tuned_jobs.hpp"

#include <algorithm>
#include <cmath>

#include "adaptsim/error.hpp"
#include "adaptsim/pollux_workload.hpp"
#include "max_sum_throughput.hpp"
#include "typed_lp.hpp"

namespace adaptsim {

namespace {

// numpy's ndarray.round(decimals=5): rint(x·1e5)/1e5, half to even.
double NumpyRound5(double x) {
  return std::nearbyint(x * 1e5) / 1e5;
}

}  // namespace

GavelTunedJobsPolicy::GavelTunedJobsPolicy(const GavelTunedJobsOptions& options)
    : TunedJobsRoundPolicy(options.round_s), options_(options) {
  ValidateOptions(options_, {"policy", "gavel_tj"});
}

std::vector<double> GavelTunedJobsPolicy::Fractions(const std::vector<TunedJobRoundView>& views,
                                                    const std::vector<int>& capacities) {
  ++rounds_;
  // The LP (max_sum_throughput.py:39-90), rows and columns in the matrix order.
  internal::TypedLpInputs in;
  in.num_jobs = static_cast<int>(views.size());
  in.num_types = static_cast<int>(capacities.size());
  in.policy = "gavel_tj";
  for (const TunedJobRoundView& view : views) {
    in.throughputs.insert(in.throughputs.end(), view.throughputs.begin(), view.throughputs.end());
    in.scale_factors.push_back(view.scale_factor);
  }
  in.capacities = capacities;
  const internal::TypedLpPoint point = internal::MaxSumThroughputTyped(in);
  ++lp_solves_;
  std::vector<double> x = point.x;
  for (double& value : x) value = std::clamp(NumpyRound5(value), 0.0, 1.0);
  return x;
}

std::map<std::string, double> GavelTunedJobsPolicy::Statistics() const {
  return {{"gavel_tj_rounds", static_cast<double>(rounds_)},
          {"gavel_tj_lp_solves", static_cast<double>(lp_solves_)}};
}

}  // namespace adaptsim
