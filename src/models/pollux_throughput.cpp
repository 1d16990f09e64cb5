// Pollux throughput model (docs/pollux.md §1.2; goodput.py:71-79, 232-257).
#include "adaptsim/pollux_throughput.hpp"

#include <cstdio>

namespace adaptsim::models {

std::array<double, 7> PolluxPerfParams::ToArray() const {
  return {alpha_c, beta_c, alpha_n, beta_n, alpha_r, beta_r, gamma};
}

PolluxPerfParams PolluxPerfParams::FromArray(const std::array<double, 7>& v) {
  return {v[0], v[1], v[2], v[3], v[4], v[5], v[6]};
}

double GradTime(const PolluxPerfParams& p, double atomic_bsz) {
  return GradTimeT(p.alpha_c, p.beta_c, atomic_bsz);
}

double SyncTime(const PolluxPerfParams& p, int num_nodes, int num_replicas) {
  switch (SyncRegimeOf(num_nodes, num_replicas)) {
    case SyncRegime::kInterNode:
      return SyncTimeT(p.alpha_n, p.beta_n, num_replicas);
    case SyncRegime::kIntraNode:
      return SyncTimeT(p.alpha_r, p.beta_r, num_replicas);
    case SyncRegime::kNone:
      break;
  }
  return SyncTimeT(kPolluxEpsilon, kPolluxEpsilon, num_replicas);
}

double OptimTime(const PolluxPerfParams& p, int num_nodes, int num_replicas, double atomic_bsz) {
  return std::exp(
      LogOptimTimeT(GradTime(p, atomic_bsz), SyncTime(p, num_nodes, num_replicas), p.gamma));
}

double IterationTime(const PolluxPerfParams& p, int num_nodes, int num_replicas, double atomic_bsz,
                     int accum_steps) {
  return accum_steps * GradTime(p, atomic_bsz) + OptimTime(p, num_nodes, num_replicas, atomic_bsz);
}

double ThroughputSamplesPerS(const PolluxPerfParams& p, int num_nodes, int num_replicas,
                             double atomic_bsz, int accum_steps) {
  double total_batch = num_replicas * atomic_bsz * (accum_steps + 1);
  return total_batch / IterationTime(p, num_nodes, num_replicas, atomic_bsz, accum_steps);
}

std::string Describe(const PolluxPerfParams& p) {
  std::string text;
  std::array<double, 7> values = p.ToArray();
  for (std::size_t i = 0; i < values.size(); ++i) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%s%s=%.6g", i ? " " : "", kPerfParamNames[i], values[i]);
    text += buffer;
  }
  return text;
}

}  // namespace adaptsim::models
