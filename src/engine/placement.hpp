// Placement of a round's jobs on GPUs (docs/mechanism.md §6; `_schedule_jobs_on_workers`,
// `scheduler.py:1306-1378`, `_assign_workers_to_job` `:1049-1110`). One GPU per server.
#pragma once

#include <map>
#include <vector>

#include "adaptsim/cluster_state.hpp"
#include "adaptsim/policy.hpp"

namespace adaptsim {

/// Places `plan` on `num_gpus` workers. Jobs with explicit worker ids keep them (validated);
/// the others are sorted by scale factor (descending, stable) and, per scale factor, first kept on
/// exactly their previous workers when all are still free, then given the lowest free worker ids.
/// `scale_factor_of(id)` gives each job's GPU count; `previous` maps last round's jobs to workers.
/// Returns the assignments in the reference's order. Throws std::logic_error when the plan asks
/// for more GPUs than exist or names a taken/invalid worker (a policy bug).
std::vector<ScheduledJob> PlaceRound(const RoundPlan& plan, int num_gpus,
                                     const std::map<JobId, int>& scale_factors,
                                     const std::map<JobId, std::vector<int>>& previous);

}  // namespace adaptsim
