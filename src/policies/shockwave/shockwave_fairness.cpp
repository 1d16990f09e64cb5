// Shockwave's finish-time-fairness targets and fallback priorities (shockwave_fairness.hpp).
#include "shockwave_fairness.hpp"

#include <algorithm>
#include <cmath>

#include "adaptsim/error.hpp"

namespace adaptsim {
namespace {

constexpr double kLogOrigin = 1e-6;     // logapx_origin {0.0: 1e-6}, `scheduler.py:405-423`
constexpr double kUrgentPower = 100.0;  // priority_M, `shockwave.py:845`
constexpr double kMaxPriority = 1e200;  // keeps ρ̂^100 finite (adaptsim guard)
constexpr double kMomentum = 0.9;       // `finish_time_momentumed_average`, `shockwave.py:480`

}  // namespace

double ShockwaveMomentumAverage(const std::vector<std::pair<int, double>>& series, int now) {
  ADAPTSIM_CHECK(!series.empty());
  // Window of entry i: rounds until the next entry (until `now` for the last one).
  const auto window = [&](std::size_t i) {
    const int next = i + 1 < series.size() ? series[i + 1].first : now;
    return static_cast<double>(next - series[i].first);
  };
  double total = 0.0, largest = 0.0;
  for (std::size_t i = 0; i < series.size(); ++i) {
    total += window(i);
    largest = std::max(largest, window(i));
  }
  double average = 0.0;
  if (largest == 0.0) {
    ADAPTSIM_CHECK(series.size() == 1);
    average = series[0].second;
  } else {
    for (std::size_t i = 0; i < series.size(); ++i) average += window(i) / total * series[i].second;
  }
  return kMomentum * average + (1.0 - kMomentum) * series.back().second;
}

std::vector<double> ShockwaveLogValues(const std::vector<double>& bases) {
  std::vector<double> values;
  for (double b : bases) values.push_back(std::log(b == 0.0 ? kLogOrigin : b));
  return values;
}

double ShockwaveFallbackPriority(double rho, double remaining_s, double round_s, double rhomax,
                                 double lambda) {
  if (!(rho > rhomax)) return 1.0;
  return std::min(std::pow(rho, remaining_s < round_s ? kUrgentPower : lambda), kMaxPriority);
}

}  // namespace adaptsim
