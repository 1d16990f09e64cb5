// Sia's bootstrapped throughput projection across GPU types (docs/sia.md §3.2; Sia SOSP'23 §3.1;
// `S:sia-simulator/cluster.py:227-303`, `S:sia-simulator/sia.py:423-507`).
//
// A job whose model exists on some GPU type d but not on type t gets, on t, d's goodput scaled by
// the ratio of the two types' minimum-size throughputs:
//
//   goodput_t(N, K) = goodput_d(ceil(K / g_d), K) · thr1_t / thr1_d,
//
// with g_d the GPUs per node of d (the node count is re-derived for d's node size) and thr1 the
// application's throughput on one GPU of the type:
//
//   thr1 = max(local_bsz) / max(step_time) over the rows of placement "1" of placements-<t>.csv
//
// (the two maxima taken independently, `cluster.py:280-303`). As in the reference the goodput is
// a float32, and the product is taken in float32 (numpy 1.23 multiplies a float32 array by a
// float64 scalar in float32, `S:sia-simulator/requirements.txt:1`).
#pragma once

#include <functional>

namespace adaptsim {

class PolluxApplication;

/// A job's goodput estimate on one GPU type: absolute goodput (samples/s × statistical
/// efficiency, the Pollux model's optimum over batch sizes) at (nodes, replicas), 1 <= nodes <=
/// replicas. An empty function means the job has no model on that type yet.
using SiaGoodputFunction = std::function<double(int num_nodes, int num_replicas)>;

/// thr1 of `app` (samples/s), from its step-time file's placement "1" rows; for a synthetic
/// application (a trace job, docs/sia.md §9) max_local_bsz / its step time on one GPU at that
/// batch. Throws InputError (the step-time file, field "placement") when the file has no
/// placement "1" row.
double SiaMinimumSizeThroughput(const PolluxApplication& app);

/// The projected goodput on a type t of `num_gpus` GPUs from `source` (the model of type d with
/// `source_gpus_per_node` GPUs per node): float32(source(ceil(K/g_d), K)) · float32(ratio), in
/// float32, with ratio = thr1_t / thr1_d.
float SiaProjectGoodput(const SiaGoodputFunction& source, int source_gpus_per_node, int num_gpus,
                        double ratio);

}  // namespace adaptsim
