// Sia's normalised-goodput matrix (sia_goodput_matrix.hpp).
#include "sia_goodput_matrix.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "adaptsim/error.hpp"

namespace adaptsim {

namespace {

void CheckJob(const SiaJob& job, std::size_t num_groups) {
  auto fail = [&](const std::string& message) {
    throw InputError("sia", 0, "jobs", "job " + std::to_string(job.id) + ": " + message);
  };
  if (job.goodput.size() != num_groups || job.min_size_throughput.size() != num_groups ||
      job.max_profiled_replicas.size() != num_groups ||
      job.batch_replica_limit.size() != num_groups) {
    fail("needs one goodput model, thr1, replica count and batch replica limit per GPU type (" +
         std::to_string(num_groups) + ")");
  }
  for (double thr1 : job.min_size_throughput) {
    if (!(thr1 > 0) || !std::isfinite(thr1)) fail("minimum-size throughput must be > 0");
  }
  for (double seconds :
       {job.age_s, job.used_gpu_seconds, job.wasted_gpu_seconds, job.engine_restart_delay_s}) {
    if (!(seconds >= 0) || !std::isfinite(seconds)) {
      fail("age, GPU-seconds and restart delay must be finite and >= 0");
    }
  }
  if (job.num_restarts < 0) fail("num_restarts must be >= 0");
}

}  // namespace

std::vector<int> SiaMaxReplicas(const SiaJob& job, const SiaOptions& options) {
  std::vector<int> caps;
  for (std::size_t t = 0; t < job.max_profiled_replicas.size(); ++t) {
    const long long scaled =
        static_cast<long long>(options.scale_up_factor) * job.max_profiled_replicas[t];
    caps.push_back(static_cast<int>(std::min<long long>(
        {std::max<long long>(scaled, 1), options.max_replicas_cap, job.batch_replica_limit[t]})));
  }
  return caps;
}

SiaMatrix BuildSiaGoodputMatrix(const std::vector<SiaNodeGroup>& groups,
                                const std::vector<SiaConfiguration>& configurations,
                                const std::vector<SiaJob>& jobs, const SiaOptions& options) {
  const int num_groups = static_cast<int>(groups.size());
  if (groups.empty()) throw InputError("sia", 0, "cluster", "no GPU type");
  SiaMatrix matrix;
  matrix.rows = static_cast<int>(jobs.size());
  matrix.cols = static_cast<int>(configurations.size());
  matrix.values.assign(static_cast<std::size_t>(matrix.rows) * matrix.cols, kSiaZeroGain);
  for (int i = 0; i < matrix.rows; ++i) {
    const SiaJob& job = jobs[i];
    CheckJob(job, groups.size());
    const std::vector<int> caps = SiaMaxReplicas(job, options);
    const int shared_cap = *std::max_element(caps.begin(), caps.end());
    // The source of projections: the first type in cluster order with a model (`sia.py:447-448`).
    int source = -1;
    for (int t = 0; t < num_groups && source < 0; ++t) {
      if (job.goodput[t]) source = t;
    }
    std::vector<char> empty(num_groups, 0);
    for (int t = 0; t < num_groups; ++t) {
      if (!job.goodput[t] && (!options.project_throughputs || source < 0)) {
        empty[t] = 1;  // `sia.py:639-650`
        continue;
      }
      // Replica bounds: min_replicas is 0 for every type, raised to 1 (`sia.py:622-630`).
      const int max_replicas = std::max(1, options.share_max_replicas ? shared_cap : caps[t]);
      bool any_valid = false;
      for (int c = 0; c < matrix.cols; ++c) {
        const SiaConfiguration& config = configurations[c];
        if (config.group != t || config.num_gpus > max_replicas) continue;
        any_valid = true;
        float value = 0;
        if (job.goodput[t]) {
          value = static_cast<float>(job.goodput[t](config.num_nodes, config.num_gpus));
        } else {
          // `cluster.py:271` with `sia.py:485`: ratio[t][d] = thr1_t / thr1_d.
          const double ratio = job.min_size_throughput[t] / job.min_size_throughput[source];
          value = SiaProjectGoodput(job.goodput[source], groups[source].gpus_per_node,
                                    config.num_gpus, ratio);
        }
        if (!std::isfinite(value)) {
          throw InputError("sia", 0, "jobs",
                           "job " + std::to_string(job.id) + ": goodput estimate on '" +
                               groups[t].gpu_type + "' is not finite");
        }
        matrix.at(i, c) = value;
      }
      if (!any_valid) empty[t] = 1;  // `sia.py:670-671`
    }
    // gmin over the non-empty types' entries > Z (`sia.py:674-685`). A non-empty type whose
    // entries are all <= Z contributes nothing (the reference would fail on an empty minimum).
    float gmin = std::numeric_limits<float>::infinity();
    for (int c = 0; c < matrix.cols; ++c) {
      const float value = matrix.at(i, c);
      if (!empty[configurations[c].group] && value > kSiaZeroGain) gmin = std::min(gmin, value);
    }
    // 1.0 / float32 is a float64 in numpy 1.23; the row is scaled in float32 (`sia.py:688-705`).
    const float scale = std::isinf(gmin) ? 1.0f : static_cast<float>(1.0 / gmin);
    for (int c = 0; c < matrix.cols; ++c) matrix.at(i, c) *= scale;
    // Empty types: the 1-GPU configuration gets S = 1 (`sia.py:709-715`); then the floor
    // (`sia.py:718-719`).
    for (int c = 0; c < matrix.cols; ++c) {
      const SiaConfiguration& config = configurations[c];
      if (empty[config.group] && config.num_gpus == 1) matrix.at(i, c) = 1.0f;
      if (matrix.at(i, c) <= kSiaZeroGain) matrix.at(i, c) = kSiaZeroGain;
    }
  }
  return matrix;
}

}  // namespace adaptsim
