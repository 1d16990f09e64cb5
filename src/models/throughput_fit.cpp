// Ceres fit of Pollux's throughput model (docs/pollux.md §1.4-1.6; goodput.py:148-229).
#include "adaptsim/throughput_fit.hpp"

#include <cmath>
#include <limits>
#include <set>

#include <ceres/ceres.h>

#include "adaptsim/error.hpp"

namespace adaptsim::models {
namespace {

enum Index { kAlphaC, kBetaC, kAlphaN, kBetaN, kAlphaR, kBetaR, kGamma };

constexpr double kGammaMax = 10.0;
constexpr double kGammaRegularizer = 1e-3;  // goodput.py:221-223
constexpr double kRatioRegularizer = 1e-2;  // goodput.py:224-227
constexpr double kScaleFloor = 1e-12;       // lower bound of t_k: F within ~1e-12 of exact

// (log T_grad(m) - log t_accum) / sqrt(n · t): with the scale residual sqrt(t) below, the
// series contributes ½ Σ r² = MSE / (2t) + t / 2, whose minimum over t is sqrt(MSE) = RMSLE.
struct AccumResidual {
  double inverse_count, atomic_bsz, log_time;
  template <typename T>
  bool operator()(const T* alpha_c, const T* beta_c, const T* scale, T* residual) const {
    using std::log;
    using std::sqrt;
    T error = log(GradTimeT(*alpha_c, *beta_c, atomic_bsz)) - log_time;
    residual[0] = error * sqrt(inverse_count / *scale);
    return true;
  }
};

// (log T_optim(N, K, m) - log t_optim) / sqrt(n · t) for a sample with K > 1.
struct OptimResidual {
  double inverse_count, atomic_bsz, log_time;
  int num_replicas;
  template <typename T>
  bool operator()(const T* alpha_c, const T* beta_c, const T* bottleneck, const T* retro,
                  const T* gamma, const T* scale, T* residual) const {
    using std::sqrt;
    T grad = GradTimeT(*alpha_c, *beta_c, atomic_bsz);
    T sync = SyncTimeT(*bottleneck, *retro, num_replicas);
    residual[0] = (LogOptimTimeT(grad, sync, *gamma) - log_time) * sqrt(inverse_count / *scale);
    return true;
  }
};

// The same for K == 1: the sync time is the artifact's constant default (np.select, 1e-8).
struct SingleReplicaOptimResidual {
  double inverse_count, atomic_bsz, log_time;
  template <typename T>
  bool operator()(const T* alpha_c, const T* beta_c, const T* gamma, const T* scale,
                  T* residual) const {
    using std::sqrt;
    T grad = GradTimeT(*alpha_c, *beta_c, atomic_bsz);
    T sync = SyncTimeT(T(kPolluxEpsilon), T(kPolluxEpsilon), 1);
    residual[0] = (LogOptimTimeT(grad, sync, *gamma) - log_time) * sqrt(inverse_count / *scale);
    return true;
  }
};

// sqrt(t): ½ r² = t / 2.
struct ScaleResidual {
  template <typename T>
  bool operator()(const T* scale, T* residual) const {
    using std::sqrt;
    residual[0] = sqrt(*scale);
    return true;
  }
};

// sqrt(2e-3) (γ - 1): Ceres minimises ½Σr², so ½ r² = 1e-3 (γ - 1)².
struct GammaResidual {
  template <typename T>
  bool operator()(const T* gamma, T* residual) const {
    residual[0] = std::sqrt(2.0 * kGammaRegularizer) * (*gamma - 1.0);
    return true;
  }
};

// sqrt(2e-2) β/α.
struct RatioResidual {
  template <typename T>
  bool operator()(const T* alpha, const T* beta, T* residual) const {
    residual[0] = std::sqrt(2.0 * kRatioRegularizer) * (*beta / *alpha);
    return true;
  }
};

void ValidateSamples(const std::vector<ThroughputSample>& samples, const std::string& context) {
  if (samples.empty()) throw InputError(context, 0, "", "no throughput samples to fit");
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const ThroughputSample& s = samples[i];
    std::string where = "sample " + std::to_string(i);
    auto bad_time = [](double t) { return !(std::isfinite(t) && t > 0); };
    if (s.num_nodes < 1 || s.num_replicas < s.num_nodes) {
      throw InputError(context, 0, where, "need 1 <= num_nodes <= num_replicas");
    }
    if (!(std::isfinite(s.atomic_bsz) && s.atomic_bsz > 0)) {
      throw InputError(context, 0, where, "atomic batch size must be positive");
    }
    if (bad_time(s.optim_step_time_s) || (s.accum_step_time_s && bad_time(*s.accum_step_time_s))) {
      throw InputError(context, 0, where, "step times must be positive and finite");
    }
  }
}

struct Rmsle {
  double accum = 0, optim = 0;
  int num_accum = 0, num_optim = 0;
};

Rmsle ComputeRmsle(const PolluxPerfParams& p, const std::vector<ThroughputSample>& samples,
                   double floor) {
  double sum_accum = 0, sum_optim = 0;
  Rmsle r;
  for (const ThroughputSample& s : samples) {
    if (s.accum_step_time_s) {
      double e = std::log(GradTime(p, s.atomic_bsz)) - std::log(*s.accum_step_time_s);
      sum_accum += e * e;
      ++r.num_accum;
    }
    double e = std::log(OptimTime(p, s.num_nodes, s.num_replicas, s.atomic_bsz)) -
               std::log(s.optim_step_time_s);
    sum_optim += e * e;
    ++r.num_optim;
  }
  if (r.num_accum > 0) r.accum = std::sqrt(sum_accum / r.num_accum + floor);
  r.optim = std::sqrt(sum_optim / r.num_optim + floor);
  return r;
}

bool AnySample(const std::vector<ThroughputSample>& samples,
               bool (*predicate)(const ThroughputSample&)) {
  for (const ThroughputSample& s : samples) {
    if (predicate(s)) return true;
  }
  return false;
}

bool HasMultiNode(const std::vector<ThroughputSample>& samples) {
  return AnySample(samples, [](const ThroughputSample& s) { return s.num_nodes > 1; });
}

void ApplyPrior(PolluxPerfParams& p, const std::vector<ThroughputSample>& samples) {
  if (HasMultiNode(samples)) return;
  p.alpha_n = std::max(p.alpha_n, 1.1 * p.alpha_r);
  p.beta_n = std::max(p.beta_n, 1.1 * p.beta_r);
}

// The free variables of one solve: θ (7 scalar blocks) and the two series scales t_accum,
// t_optim (the reweighting variables; at the optimum t_k = RMSLE_k).
struct Variables {
  std::array<double, 7> theta;
  std::array<double, 2> scale;  // accum, optim
};

void AddDataResiduals(const std::vector<ThroughputSample>& samples, const Rmsle& counts,
                      Variables& x, ceres::Problem& problem) {
  double* v = x.theta.data();
  double* accum_scale = &x.scale[0];
  double* optim_scale = &x.scale[1];
  for (const ThroughputSample& s : samples) {
    if (s.accum_step_time_s) {
      problem.AddResidualBlock(
          new ceres::AutoDiffCostFunction<AccumResidual, 1, 1, 1, 1>(new AccumResidual{
              1.0 / counts.num_accum, s.atomic_bsz, std::log(*s.accum_step_time_s)}),
          nullptr, v + kAlphaC, v + kBetaC, accum_scale);
    }
    double log_time = std::log(s.optim_step_time_s);
    double inverse_count = 1.0 / counts.num_optim;
    SyncRegime regime = SyncRegimeOf(s.num_nodes, s.num_replicas);
    if (regime == SyncRegime::kNone) {
      problem.AddResidualBlock(
          new ceres::AutoDiffCostFunction<SingleReplicaOptimResidual, 1, 1, 1, 1, 1>(
              new SingleReplicaOptimResidual{inverse_count, s.atomic_bsz, log_time}),
          nullptr, v + kAlphaC, v + kBetaC, v + kGamma, optim_scale);
      continue;
    }
    int pair = regime == SyncRegime::kInterNode ? kAlphaN : kAlphaR;
    problem.AddResidualBlock(
        new ceres::AutoDiffCostFunction<OptimResidual, 1, 1, 1, 1, 1, 1, 1>(
            new OptimResidual{inverse_count, s.atomic_bsz, log_time, s.num_replicas}),
        nullptr, v + kAlphaC, v + kBetaC, v + pair, v + pair + 1, v + kGamma, optim_scale);
  }
  for (int k = 0; k < 2; ++k) {
    if (k == 0 && counts.num_accum == 0) continue;
    problem.AddResidualBlock(
        new ceres::AutoDiffCostFunction<ScaleResidual, 1, 1>(new ScaleResidual), nullptr,
        &x.scale[k]);
    problem.SetParameterLowerBound(&x.scale[k], 0, kScaleFloor);
  }
}

void AddRegularizers(const std::array<bool, 7>& frozen, Variables& x, ceres::Problem& problem) {
  double* v = x.theta.data();
  problem.AddResidualBlock(new ceres::AutoDiffCostFunction<GammaResidual, 1, 1>(new GammaResidual),
                           nullptr, v + kGamma);
  for (int alpha : {kAlphaN, kAlphaR}) {
    if (frozen[alpha] && frozen[alpha + 1]) continue;  // a constant term: nothing to optimise
    problem.AddResidualBlock(
        new ceres::AutoDiffCostFunction<RatioResidual, 1, 1, 1>(new RatioResidual), nullptr,
        v + alpha, v + alpha + 1);
  }
}

// G(θ, t) = Σ_k (MSE_k(θ) / (2 t_k) + t_k / 2) + ½ Σ reg², whose minimum over t is F(θ), so
// min G = min F. `constant` parameters are frozen (SetParameterBlockConstant), never bounded.
void BuildProblem(const std::vector<ThroughputSample>& samples, const Rmsle& counts,
                  const std::array<bool, 7>& constant, Variables& x, ceres::Problem& problem) {
  double* v = x.theta.data();
  for (int i = 0; i < 7; ++i) problem.AddParameterBlock(v + i, 1);
  AddDataResiduals(samples, counts, x, problem);
  AddRegularizers(constant, x, problem);
  for (int i = 0; i < 7; ++i) {
    problem.SetParameterLowerBound(v + i, 0, i == kGamma ? 1.0 : kPolluxEpsilon);
    if (i == kGamma) problem.SetParameterUpperBound(v + i, 0, kGammaMax);
    if (constant[i]) problem.SetParameterBlockConstant(v + i);
  }
}

// One bounded NLLS solve of G from (and into) `x`.
void SolveJoint(const std::vector<ThroughputSample>& samples, const Rmsle& counts,
                const std::array<bool, 7>& constant, int max_iterations, Variables& x) {
  ceres::Problem problem;
  BuildProblem(samples, counts, constant, x, problem);
  ceres::Solver::Options solver;
  solver.linear_solver_type = ceres::DENSE_QR;
  solver.max_num_iterations = max_iterations;
  solver.function_tolerance = 1e-15;
  solver.gradient_tolerance = 1e-15;
  solver.parameter_tolerance = 1e-14;
  solver.num_threads = 1;
  solver.logging_type = ceres::SILENT;
  ceres::Solver::Summary summary;
  ceres::Solve(solver, &problem, &summary);
}

// The free parameters resting on a bound with ∂G/∂θ pushing outward. Ceres's projected
// trust-region steps crawl along an active bound, so the next solve freezes them (an active set;
// a parameter is released as soon as its gradient points back inside).
std::array<bool, 7> ActiveBounds(const std::vector<ThroughputSample>& samples, const Rmsle& counts,
                                 const std::array<bool, 7>& pinned, Variables& x) {
  ceres::Problem problem;
  BuildProblem(samples, counts, pinned, x, problem);
  ceres::Problem::EvaluateOptions evaluate;
  std::vector<int> index;
  for (int i = 0; i < 7; ++i) {
    if (pinned[i]) continue;
    evaluate.parameter_blocks.push_back(&x.theta[i]);
    index.push_back(i);
  }
  std::array<bool, 7> active = {};
  if (index.empty()) return active;
  double cost = 0;
  std::vector<double> gradient;
  problem.Evaluate(evaluate, &cost, nullptr, &gradient, nullptr);
  for (std::size_t k = 0; k < index.size(); ++k) {
    int i = index[k];
    double lower = i == kGamma ? 1.0 : kPolluxEpsilon, value = x.theta[i];
    bool at_lower = value <= lower * (1 + 1e-9) && gradient[k] > 0;
    bool at_upper = i == kGamma && value >= kGammaMax * (1 - 1e-12) && gradient[k] < 0;
    active[i] = at_lower || at_upper;
  }
  return active;
}

double RelativeChange(double before, double after) {
  return std::abs(after - before) / std::max(std::abs(before), kScaleFloor);
}

}  // namespace

void FitOptions::Validate() const {
  const std::string ctx = "fit options";
  if (max_outer_iterations < 1) throw InputError(ctx, 0, "max_outer_iterations", "must be >= 1");
  if (!(weight_tolerance > 0)) throw InputError(ctx, 0, "weight_tolerance", "must be > 0");
  if (max_inner_iterations < 1) throw InputError(ctx, 0, "max_inner_iterations", "must be >= 1");
  std::array<double, 7> v = initial.ToArray();
  for (int i = 0; i < 6; ++i) {
    if (!(std::isfinite(v[i]) && v[i] >= kPolluxEpsilon)) {
      throw InputError(ctx, 0, std::string("initial.") + kPerfParamNames[i], "must be >= 1e-8");
    }
  }
  if (!(initial.gamma >= 1.0 && initial.gamma <= kGammaMax)) {
    throw InputError(ctx, 0, "initial.gamma", "must be in [1, 10]");
  }
}

std::array<std::optional<double>, 7> PinnedParameters(
    const std::vector<ThroughputSample>& samples) {
  std::array<std::optional<double>, 7> pinned;
  std::set<double> batch_sizes;
  double sum_accum = 0, sum_optim = 0;
  int num_accum = 0;
  for (const ThroughputSample& s : samples) {
    batch_sizes.insert(s.atomic_bsz);
    sum_optim += s.optim_step_time_s;
    if (s.accum_step_time_s) {
      sum_accum += *s.accum_step_time_s;
      ++num_accum;
    }
  }
  if (batch_sizes.size() == 1) {
    pinned[kAlphaC] = (num_accum ? sum_accum / num_accum : sum_optim / samples.size()) / 2.0;
  }
  if (!HasMultiNode(samples)) pinned[kAlphaN] = pinned[kBetaN] = kPolluxEpsilon;
  if (!AnySample(samples, [](const ThroughputSample& s) {
        return s.num_nodes == 1 && s.num_replicas > 1;
      })) {
    pinned[kAlphaR] = pinned[kBetaR] = kPolluxEpsilon;
  }
  if (!AnySample(samples, [](const ThroughputSample& s) { return s.num_replicas > 2; })) {
    pinned[kBetaN] = pinned[kBetaR] = kPolluxEpsilon;
  }
  return pinned;
}

double FitObjective(const PolluxPerfParams& p, const std::vector<ThroughputSample>& samples) {
  Rmsle r = ComputeRmsle(p, samples, 0.0);
  double ratio_n = p.beta_n / p.alpha_n, ratio_r = p.beta_r / p.alpha_r;
  return r.accum + r.optim + kGammaRegularizer * (p.gamma - 1) * (p.gamma - 1) +
         kRatioRegularizer * (ratio_n * ratio_n + ratio_r * ratio_r);
}

FitSummary FitPerfParams(const std::vector<ThroughputSample>& samples, const FitOptions& options,
                         const std::string& context) {
  options.Validate();
  ValidateSamples(samples, context);
  FitSummary best;
  std::array<double, 7> values = options.initial.ToArray();
  std::array<std::optional<double>, 7> pinned = PinnedParameters(samples);
  for (int i = 0; i < 7; ++i) {
    best.frozen[i] = pinned[i].has_value();
    if (pinned[i]) values[i] = *pinned[i];
  }
  best.objective = std::numeric_limits<double>::infinity();
  Variables x{values, {}};
  std::array<bool, 7> constant = best.frozen;
  int outer = 0;
  bool converged = false;
  double previous_objective = std::numeric_limits<double>::infinity();
  while (outer < options.max_outer_iterations && !converged) {
    // Reweighting: restart the scales at the RMSLEs of the current θ.
    Rmsle weights = ComputeRmsle(PolluxPerfParams::FromArray(x.theta), samples, kScaleFloor);
    x.scale = {std::max(weights.accum, kScaleFloor), weights.optim};
    SolveJoint(samples, weights, constant, options.max_inner_iterations, x);
    ++outer;
    PolluxPerfParams fitted = PolluxPerfParams::FromArray(x.theta);
    Rmsle next = ComputeRmsle(fitted, samples, kScaleFloor);
    std::array<bool, 7> active = ActiveBounds(samples, next, best.frozen, x);
    std::array<bool, 7> next_constant;
    for (int i = 0; i < 7; ++i) next_constant[i] = best.frozen[i] || active[i];
    bool weights_settled = RelativeChange(weights.optim, next.optim) < options.weight_tolerance &&
                           (next.num_accum == 0 ||
                            RelativeChange(weights.accum, next.accum) < options.weight_tolerance);
    ApplyPrior(fitted, samples);
    double objective = FitObjective(fitted, samples);
    // Flat optima (e.g. one sample: F = |e1| + |e2| with e2 - e1 fixed) keep moving the weights
    // without changing F; a pass that no longer lowers F also ends the loop.
    bool objective_settled = previous_objective - objective <= options.weight_tolerance * objective;
    converged = next_constant == constant && (weights_settled || objective_settled);
    constant = next_constant;
    previous_objective = objective;
    if (objective < best.objective) {
      best.params = fitted;
      best.objective = objective;
    }
  }
  Rmsle final_rmsle = ComputeRmsle(best.params, samples, 0.0);
  best.rmsle_accum = final_rmsle.accum;
  best.rmsle_optim = final_rmsle.optim;
  best.outer_iterations = outer;
  best.converged = converged;
  return best;
}

}  // namespace adaptsim::models
