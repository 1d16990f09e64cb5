#include "placement.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace adaptsim {
namespace {

struct Pending {
  JobId id;
  int scale_factor;
};

bool AllFree(const std::vector<int>& workers, const std::vector<bool>& taken) {
  return std::none_of(workers.begin(), workers.end(), [&](int w) { return taken[w]; });
}

void Take(const std::vector<int>& workers, std::vector<bool>& taken) {
  for (int w : workers) taken[w] = true;
}

// The lowest free ids in [first, end): the reference's server walk with one GPU per server.
std::vector<int> LowestFree(int count, int first, int end, std::vector<bool>& taken, JobId id) {
  std::vector<int> workers;
  for (int w = first; w < end && static_cast<int>(workers.size()) < count; ++w) {
    if (!taken[w]) workers.push_back(w);
  }
  if (static_cast<int>(workers.size()) != count) {
    throw std::logic_error("placement: not enough free GPUs for job " + std::to_string(id));
  }
  Take(workers, taken);
  return workers;
}

// One type's jobs (selection order): by scale factor descending; per scale factor, kept jobs
// first, then new assignments (`:1324-1378`).
void PlaceType(std::vector<Pending> pending, const Cluster& cluster, int type,
               const std::map<JobId, std::vector<int>>& previous, std::vector<bool>& taken,
               std::vector<ScheduledJob>& placed) {
  const int first = cluster.first_worker_id(type), end = first + cluster.count(type);
  std::stable_sort(pending.begin(), pending.end(), [](const Pending& a, const Pending& b) {
    return a.scale_factor > b.scale_factor;
  });
  for (std::size_t begin = 0; begin < pending.size();) {
    std::size_t stop = begin;
    while (stop < pending.size() && pending[stop].scale_factor == pending[begin].scale_factor) {
      ++stop;
    }
    std::vector<bool> done(stop - begin, false);
    for (std::size_t i = begin; i < stop; ++i) {  // keep jobs on their previous workers
      auto it = previous.find(pending[i].id);
      if (it == previous.end() || it->second.empty()) continue;
      // Only a job that ran on this type last round keeps its workers (`:1320-1355`).
      if (cluster.TypeOfWorker(it->second.front()) != type) continue;
      if (AllFree(it->second, taken)) {
        Take(it->second, taken);
        placed.push_back({pending[i].id, it->second});
        done[i - begin] = true;
      }
    }
    for (std::size_t i = begin; i < stop; ++i) {
      if (done[i - begin]) continue;
      placed.push_back(
          {pending[i].id, LowestFree(pending[i].scale_factor, first, end, taken, pending[i].id)});
    }
    begin = stop;
  }
}

}  // namespace

std::vector<ScheduledJob> PlaceRound(const RoundPlan& plan, const Cluster& cluster,
                                     const std::map<JobId, int>& scale_factors,
                                     const std::map<JobId, std::vector<int>>& previous) {
  const int num_gpus = cluster.num_gpus();
  std::vector<bool> taken(num_gpus, false);
  std::vector<ScheduledJob> placed;
  std::vector<std::vector<Pending>> pending(cluster.num_types());
  for (const PlannedJob& job : plan.jobs) {
    const int sf = scale_factors.at(job.id);
    if (job.worker_ids.empty()) {
      int type = job.gpu_type;
      if (type < 0 && cluster.homogeneous()) type = 0;
      if (type < 0 || type >= cluster.num_types()) {
        throw std::logic_error("placement: no valid GPU type planned for job " +
                               std::to_string(job.id));
      }
      pending[type].push_back({job.id, sf});
      continue;
    }
    bool valid = static_cast<int>(job.worker_ids.size()) == sf;
    for (int w : job.worker_ids) valid = valid && w >= 0 && w < num_gpus && !taken[w];
    if (!valid)
      throw std::logic_error("placement: invalid workers for job " + std::to_string(job.id));
    Take(job.worker_ids, taken);
    placed.push_back({job.id, job.worker_ids});
  }
  std::vector<int> order = plan.gpu_type_order;
  std::vector<bool> listed(cluster.num_types(), false);
  for (int type : order) {
    if (type < 0 || type >= cluster.num_types() || listed[type]) {
      throw std::logic_error("placement: invalid GPU type order");
    }
    listed[type] = true;
  }
  for (int type = 0; type < cluster.num_types(); ++type) {
    if (!listed[type]) order.push_back(type);
  }
  for (int type : order) {
    if (!pending[type].empty()) {
      PlaceType(std::move(pending[type]), cluster, type, previous, taken, placed);
    }
  }
  return placed;
}

}  // namespace adaptsim
