// Placement of a round's jobs on GPUs (docs/mechanism.md §6, §12.4; `_schedule_jobs_on_workers`,
// `scheduler.py:1306-1378`, `_assign_workers_to_job` `:1049-1110`). One GPU per server.
#pragma once

#include <map>
#include <vector>

#include "adaptsim/cluster.hpp"
#include "adaptsim/cluster_state.hpp"
#include "adaptsim/policy.hpp"

namespace adaptsim {

/// Places `plan` on the workers of `cluster`. Jobs with explicit worker ids keep them
/// (validated). The others are placed type by type (plan.gpu_type_order, else worker-id order) on
/// their planned type's workers: sorted by scale factor (descending, stable) and, per scale
/// factor, first kept on exactly their previous workers when those are of the same type and all
/// still free, then given the type's lowest free worker ids. `scale_factors` gives each job's
/// GPU count; `previous` maps last round's jobs to workers. Returns the assignments in the
/// reference's order. Throws std::logic_error when the plan asks for more GPUs of a type than
/// exist, names a taken/invalid worker or an invalid type (a policy bug).
std::vector<ScheduledJob> PlaceRound(const RoundPlan& plan, const Cluster& cluster,
                                     const std::map<JobId, int>& scale_factors,
                                     const std::map<JobId, std::vector<int>>& previous);

}  // namespace adaptsim
