// The rigid baselines' shared rules (tuned_jobs.hpp).
#include "tuned_jobs.hpp"

#include <algorithm>

#include "adaptsim/error.hpp"
#include "adaptsim/pollux_application.hpp"
#include "adaptsim/pollux_goodput.hpp"
#include "adaptsim/pollux_workload.hpp"

namespace adaptsim {

BatchConfig TunedJobBatch(const IntervalJobView& job, const std::vector<int>& placement) {
  int replicas = 0;
  for (int r : placement) replicas += r;
  models::GoodputChoice fixed = models::FixedBatch(
      job.spec->batch_size, replicas, job.app->init_batch_size(), job.app->max_local_bsz());
  return {fixed.atomic_bsz, fixed.accum_steps};
}

std::vector<int> TakeMostFreeGpus(std::map<int, int>& free_gpus, int num_replicas) {
  std::vector<int> allocation;
  while (static_cast<int>(allocation.size()) < num_replicas) {
    auto best = free_gpus.end();
    for (auto it = free_gpus.begin(); it != free_gpus.end(); ++it) {
      if (best == free_gpus.end() || it->second > best->second) best = it;
    }
    ADAPTSIM_CHECK(best != free_gpus.end() && best->second > 0);
    const int take = std::min(best->second, num_replicas - static_cast<int>(allocation.size()));
    allocation.insert(allocation.end(), take, best->first);
    best->second -= take;
  }
  return allocation;
}

}  // namespace adaptsim
