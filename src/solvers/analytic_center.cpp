#include "adaptsim/analytic_center.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace adaptsim::internal {
namespace {

constexpr double kFixedTolerance = 1e-12;

struct Problem {
  std::vector<double> lower;  // free coordinates only
  std::vector<double> weights;
  double capacity = 0.0;  // left after the fixed coordinates
};

// Barrier value, −∞ outside the open set.
double Barrier(const Problem& p, const std::vector<double>& x) {
  double value = 0.0, used = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double a = x[i], b = 1.0 - x[i], c = x[i] - p.lower[i];
    if (!(a > 0.0 && b > 0.0 && c > 0.0)) return -std::numeric_limits<double>::infinity();
    value += std::log(a) + std::log(b) + std::log(c);
    used += p.weights[i] * x[i];
  }
  const double slack = p.capacity - used;
  if (!(slack > 0.0)) return -std::numeric_limits<double>::infinity();
  return value + std::log(slack);
}

// Newton direction Δ = H⁻¹ g with H = D + s sᵀ / r² (Sherman–Morrison); returns λ² = gᵀΔ.
double NewtonStep(const Problem& p, const std::vector<double>& x, std::vector<double>& step) {
  const std::size_t m = x.size();
  double used = 0.0;
  for (std::size_t i = 0; i < m; ++i) used += p.weights[i] * x[i];
  const double r = p.capacity - used;
  std::vector<double> g(m), dinv(m);
  double sds = 0.0, sdg = 0.0;
  for (std::size_t i = 0; i < m; ++i) {
    const double a = x[i], b = 1.0 - x[i], c = x[i] - p.lower[i];
    g[i] = 1.0 / a - 1.0 / b + 1.0 / c - p.weights[i] / r;
    dinv[i] = 1.0 / (1.0 / (a * a) + 1.0 / (b * b) + 1.0 / (c * c));
    sds += p.weights[i] * dinv[i] * p.weights[i];
    sdg += p.weights[i] * dinv[i] * g[i];
  }
  const double factor = sdg / (r * r + sds);
  double decrement = 0.0;
  for (std::size_t i = 0; i < m; ++i) {
    step[i] = dinv[i] * g[i] - dinv[i] * p.weights[i] * factor;
    decrement += g[i] * step[i];
  }
  return decrement;
}

}  // namespace

BoxKnapsackCenterResult BoxKnapsackAnalyticCenter(const std::vector<double>& lower,
                                                  const std::vector<double>& weights,
                                                  double capacity, int max_newton_steps) {
  const std::size_t m = lower.size();
  BoxKnapsackCenterResult result;
  result.x.assign(m, 0.0);
  Problem p;
  p.capacity = capacity;
  std::vector<std::size_t> free_index;
  for (std::size_t i = 0; i < m; ++i) {
    if (lower[i] >= 1.0 - kFixedTolerance) {
      result.x[i] = 1.0;
      p.capacity -= weights[i];
    } else {
      free_index.push_back(i);
      p.lower.push_back(lower[i]);
      p.weights.push_back(weights[i]);
    }
  }
  // Strictly feasible start: l + θ (1 − l) with θ at most half of the capacity headroom.
  double used = 0.0, headroom = 0.0;
  std::vector<double> x(free_index.size());
  for (std::size_t k = 0; k < x.size(); ++k) {
    const double lo = std::max(0.0, p.lower[k]);
    used += p.weights[k] * lo;
    headroom += p.weights[k] * (1.0 - lo);
  }
  if (free_index.empty()) return result;
  if (!(p.capacity - used > 0.0)) {
    for (std::size_t k = 0; k < x.size(); ++k) {
      result.x[free_index[k]] = std::clamp(p.lower[k], 0.0, 1.0);
    }
    result.interior = false;
    return result;
  }
  const double theta = std::min(0.5, 0.5 * (p.capacity - used) / headroom);
  for (std::size_t k = 0; k < x.size(); ++k) {
    const double lo = std::max(0.0, p.lower[k]);
    x[k] = lo + theta * (1.0 - lo);
  }
  std::vector<double> step(x.size()), trial(x.size());
  double value = Barrier(p, x);
  for (int it = 0; it < max_newton_steps; ++it) {
    const double decrement = NewtonStep(p, x, step);
    result.newton_steps = it + 1;
    if (!(decrement > 1e-24)) break;
    // Damped phase: Armijo backtracking. Quadratic phase (λ² < 1e-6): the full step, which
    // keeps improving the gradient after f stops changing at double precision.
    const bool quadratic = decrement < 1e-6;
    double t = 1.0, trial_value = 0.0;
    for (int backtrack = 0; backtrack < 80; ++backtrack, t *= 0.5) {
      for (std::size_t k = 0; k < x.size(); ++k) trial[k] = x[k] + t * step[k];
      trial_value = Barrier(p, trial);
      if (quadratic ? std::isfinite(trial_value) : trial_value >= value + 0.25 * t * decrement) {
        break;
      }
    }
    if (!std::isfinite(trial_value) || (!quadratic && !(trial_value > value))) break;
    x.swap(trial);
    value = trial_value;
    if (decrement < 1e-28) break;
  }
  for (std::size_t k = 0; k < x.size(); ++k) result.x[free_index[k]] = x[k];
  return result;
}

}  // namespace adaptsim::internal
