#include "fifo.hpp"

namespace adaptsim {

Allocation FifoPolicy::ComputeAllocation(const ClusterState& state) {
  std::set<JobId> still_active;
  int gpus_free = state.num_gpus;
  for (const ActiveJobView& job : state.jobs) {
    if (admitted_.count(job.id) != 0) {
      still_active.insert(job.id);
      gpus_free -= job.scale_factor;
    }
  }
  admitted_ = std::move(still_active);
  for (const ActiveJobView& job : state.jobs) {  // ascending id = queue order
    if (admitted_.count(job.id) != 0) continue;
    if (job.scale_factor > gpus_free) break;
    admitted_.insert(job.id);
    gpus_free -= job.scale_factor;
  }
  Allocation allocation;
  for (const ActiveJobView& job : state.jobs) {
    allocation.time_fraction[job.id] = admitted_.count(job.id) != 0 ? 1.0 : 0.0;
  }
  return allocation;
}

}  // namespace adaptsim
