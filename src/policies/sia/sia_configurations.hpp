// Sia's configuration set (docs/sia.md §3.1; `S:sia-simulator/sia.py:13-17,
// 100-144`): the (GPU type, nodes, GPUs) shapes a job may be given in one round. On a type with
// 4-GPU nodes the candidates are 1, 2, 4 GPUs on one node and then whole nodes (2·4, 3·4, ...,
// 16·4); with 8-GPU nodes 1, 2, 4, 8 GPUs on one node and then whole nodes (2·8, ..., 8·8). A
// type keeps the candidates with at most min(nodes, max physical nodes profiled) nodes. The
// columns of Sia's goodput matrix are these configurations, types in cluster order, each type's
// in ascending size.
#pragma once

#include <string>
#include <vector>

namespace adaptsim {

/// One GPU type of the cluster: `num_nodes` nodes of `gpus_per_node` GPUs. `max_physical_nodes`
/// caps the node count of a configuration (the most nodes the type's profiles cover,
/// `S:sia-simulator/simulator_config.py:15`; `sia.py:109-110`); 0 = no cap.
struct SiaNodeGroup {
  std::string gpu_type;
  int gpus_per_node = 0;  ///< 4 or 8 (the reference's two candidate lists)
  int num_nodes = 0;      ///< >= 1
  int max_physical_nodes = 0;

  int total_gpus() const { return gpus_per_node * num_nodes; }
};

/// One column of the goodput matrix: `num_gpus` GPUs of group `group` on `num_nodes` nodes.
struct SiaConfiguration {
  int group = 0;
  int num_nodes = 0;
  int num_gpus = 0;

  bool operator==(const SiaConfiguration&) const = default;
};

/// The configurations of `groups`, in column order. Throws InputError(file "sia", field
/// "cluster") for an empty cluster, a repeated GPU type, gpus_per_node other than 4 or 8, or a
/// group without nodes.
std::vector<SiaConfiguration> SiaConfigurations(const std::vector<SiaNodeGroup>& groups);

}  // namespace adaptsim
