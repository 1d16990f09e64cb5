// Sia's normalised-goodput matrix over (job, configuration) (docs/sia.md §3.3;
// `S:sia-simulator/sia.py:600-719`, `S:sia-simulator/cluster.py:373-432`).
//
// One row per job, one column per configuration (sia_configurations.hpp), float32 as in the
// reference. For job i every entry starts at Z = 1e-4 (ZERO_ALLOC_GAIN). For each GPU type t:
//  * Kmax = the job's replica cap on t, or its largest over all types (share_max_replicas);
//    replica cap_t = min(max(scale_up_factor · most replicas profiled on t, 1), max_replicas_cap,
//    max_batch_size // min_local_bsz on t) (`cluster.py:375-379`);
//  * t is *empty* when the job has no model on t and either projection is off or no type has a
//    model, or when no configuration of t has 1 <= K <= Kmax;
//  * otherwise G[i, c] = goodput_t(N_c, K_c) on t's configurations with 1 <= K_c <= Kmax, from
//    t's own model or, without one, projected from the *first* type in cluster order that has a
//    model (sia_projection.hpp).
// Row normalisation: gmin = the smallest entry > Z of the non-empty types (1 if all are empty);
// the whole row is multiplied by 1/gmin (in float32), so the slowest valid configuration has
// S = 1. Then each empty type's 1-GPU column is set to 1, and every entry <= Z is reset to Z.
// A new job (no model anywhere) thus has S = 1 on the 1-GPU configuration of every type.
#pragma once

#include <string>
#include <vector>

#include "sia_configurations.hpp"
#include "sia_options.hpp"
#include "sia_projection.hpp"

namespace adaptsim {

/// Sia's floor of the goodput matrix (ZERO_ALLOC_GAIN, `sia.py:19`).
inline constexpr float kSiaZeroGain = 1e-4f;

/// What Sia knows of one active job in one round. Per-type vectors are indexed like the cluster's
/// node groups (one group per GPU type).
struct SiaJob {
  int id = 0;               ///< stable across rounds (keys the previous configuration)
  std::string application;  ///< picks δ of the policy's table (restart_penalty = policy_table)
  std::vector<SiaGoodputFunction> goodput;  ///< per type; empty = no model on the type yet
  std::vector<double> min_size_throughput;  ///< per type: thr1 (samples/s, > 0)
  std::vector<int> max_profiled_replicas;   ///< per type: most replicas observed; 0 = none
  std::vector<int> batch_replica_limit;     ///< per type: max_batch_size // min_local_bsz
  double age_s = 0;                         ///< now − submission time
  int num_restarts = 0;
  double used_gpu_seconds = 0;        ///< for restart_factor = gpu_seconds
  double wasted_gpu_seconds = 0;      ///< GPU-seconds lost to restarts (gpu_seconds)
  double engine_restart_delay_s = 0;  ///< the engine's checkpoint-restore delay of the model
  bool scaling_underway = false;      ///< still restoring: keeps its previous configuration
};

/// A row-major float32 matrix.
struct SiaMatrix {
  int rows = 0, cols = 0;
  std::vector<float> values;

  float& at(int row, int col) { return values[static_cast<std::size_t>(row) * cols + col]; }
  float at(int row, int col) const { return values[static_cast<std::size_t>(row) * cols + col]; }
};

/// The job's replica cap on each type (before sharing), `cluster.py:375-379`.
std::vector<int> SiaMaxReplicas(const SiaJob& job, const SiaOptions& options);

/// The normalised-goodput matrix S (jobs × configurations). Throws InputError(file "sia",
/// field "jobs") when a job's per-type vectors do not have one entry per group or a thr1 is not
/// positive and finite.
SiaMatrix BuildSiaGoodputMatrix(const std::vector<SiaNodeGroup>& groups,
                                const std::vector<SiaConfiguration>& configurations,
                                const std::vector<SiaJob>& jobs, const SiaOptions& options);

}  // namespace adaptsim
