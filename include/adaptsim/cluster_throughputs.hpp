// The throughput sources of a cluster of GPU types: one ThroughputSource per type
// (docs/mechanism.md §12.2). The round engine reads a job's throughput on the type it is placed
// on, and its exclusive time from the reference type.
#pragma once

#include <memory>
#include <vector>

#include "adaptsim/cluster.hpp"
#include "adaptsim/throughput.hpp"

namespace adaptsim {

/// `by_type[k]` = the throughputs of GPU type k of `cluster` (same index). Read-only; the sources
/// may be shared with other simulations.
struct ClusterThroughputs {
  Cluster cluster;
  std::vector<std::shared_ptr<const ThroughputSource>> by_type;

  /// One type: `source` for num_gpus GPUs of the default type.
  static ClusterThroughputs Homogeneous(std::shared_ptr<const ThroughputSource> source,
                                        int num_gpus) {
    return {Cluster::Homogeneous(num_gpus), {std::move(source)}};
  }
  /// The source of the reference type (Cluster::reference_type).
  const ThroughputSource& reference() const { return *by_type.at(cluster.reference_type()); }
};

}  // namespace adaptsim
