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

std::vector<int> LowestFree(int count, std::vector<bool>& taken, JobId id) {
  std::vector<int> workers;
  for (int w = 0; w < static_cast<int>(taken.size()) && static_cast<int>(workers.size()) < count;
       ++w) {
    if (!taken[w]) workers.push_back(w);
  }
  if (static_cast<int>(workers.size()) != count) {
    throw std::logic_error("placement: not enough free GPUs for job " + std::to_string(id));
  }
  Take(workers, taken);
  return workers;
}

}  // namespace

std::vector<ScheduledJob> PlaceRound(const RoundPlan& plan, int num_gpus,
                                     const std::map<JobId, int>& scale_factors,
                                     const std::map<JobId, std::vector<int>>& previous) {
  std::vector<bool> taken(num_gpus, false);
  std::vector<ScheduledJob> placed;
  std::vector<Pending> pending;
  for (const PlannedJob& job : plan.jobs) {
    const int sf = scale_factors.at(job.id);
    if (job.worker_ids.empty()) {
      pending.push_back({job.id, sf});
      continue;
    }
    bool valid = static_cast<int>(job.worker_ids.size()) == sf;
    for (int w : job.worker_ids) valid = valid && w >= 0 && w < num_gpus && !taken[w];
    if (!valid)
      throw std::logic_error("placement: invalid workers for job " + std::to_string(job.id));
    Take(job.worker_ids, taken);
    placed.push_back({job.id, job.worker_ids});
  }
  std::stable_sort(pending.begin(), pending.end(), [](const Pending& a, const Pending& b) {
    return a.scale_factor > b.scale_factor;
  });
  for (std::size_t begin = 0; begin < pending.size();) {
    std::size_t end = begin;
    while (end < pending.size() && pending[end].scale_factor == pending[begin].scale_factor) ++end;
    std::vector<bool> done(end - begin, false);
    for (std::size_t i = begin; i < end; ++i) {  // keep jobs on their previous workers
      auto it = previous.find(pending[i].id);
      if (it != previous.end() && AllFree(it->second, taken)) {
        Take(it->second, taken);
        placed.push_back({pending[i].id, it->second});
        done[i - begin] = true;
      }
    }
    for (std::size_t i = begin; i < end; ++i) {
      if (done[i - begin]) continue;
      placed.push_back({pending[i].id, LowestFree(pending[i].scale_factor, taken, pending[i].id)});
    }
    begin = end;
  }
  return placed;
}

}  // namespace adaptsim
