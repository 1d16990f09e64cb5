#include "decision_checks.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "adaptsim/error.hpp"

namespace adaptsim {
namespace {

std::string Number(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.10g", value);
  return text;
}

std::string List(const std::vector<int>& values) {
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    text += (i ? ", " : "") + std::to_string(values[i]);
  }
  return text + "]";
}

std::string JobsSpan(int num_trace_jobs) {
  return num_trace_jobs > 0 ? " (the trace's ids are 0-" + std::to_string(num_trace_jobs - 1) + ")"
                            : std::string();
}

}  // namespace

void CheckRoundPlan(const RoundPlan& plan, const ClusterState& state) {
  const char* method = "plan_round";
  const std::string round = " in round " + std::to_string(state.round_index);
  const Cluster* cluster = state.cluster;
  const int num_types = cluster != nullptr ? cluster->num_types() : 1;
  auto capacity = [&](int type) {
    return cluster != nullptr ? cluster->count(type) : state.num_gpus;
  };
  auto type_name = [&](int type) {
    return cluster != nullptr ? cluster->name(type) : std::string(Cluster::kDefaultGpuType);
  };
  const std::string types =
      cluster != nullptr ? cluster->ToString() : std::to_string(state.num_gpus);
  std::map<JobId, const ActiveJobView*> active;
  for (const ActiveJobView& job : state.jobs) active[job.id] = &job;
  // The type a planned job runs on: its first worker's, else the planned type (-1 = the only one).
  auto type_of = [&](const PlannedJob& planned) {
    if (!planned.worker_ids.empty()) {
      return cluster != nullptr ? cluster->TypeOfWorker(planned.worker_ids.front()) : 0;
    }
    return planned.gpu_type < 0 && num_types == 1 ? 0 : planned.gpu_type;
  };
  std::set<JobId> named;
  std::vector<bool> taken(state.num_gpus, false);
  std::vector<int> gpus(num_types, 0);
  for (const PlannedJob& planned : plan.jobs) {
    auto it = active.find(planned.id);
    if (it == active.end()) {
      throw PolicyError("", method,
                        std::string(method) + " named job " + std::to_string(planned.id) + round +
                            ", which is not an active job (not arrived yet, finished, or not in "
                            "the trace" +
                            JobsSpan(state.num_trace_jobs) + ")");
    }
    if (!named.insert(planned.id).second) {
      throw PolicyError("", method,
                        std::string(method) + " named job " + std::to_string(planned.id) +
                            " twice" + round + "; each job runs at most once per round");
    }
    const ActiveJobView& job = *it->second;
    const int scale_factor = job.scale_factor;
    if (!planned.worker_ids.empty()) {
      bool valid = static_cast<int>(planned.worker_ids.size()) == scale_factor;
      for (int w : planned.worker_ids) {
        valid = valid && w >= 0 && w < state.num_gpus && !taken[w] &&
                (cluster == nullptr || cluster->TypeOfWorker(w) == type_of(planned));
        if (valid) taken[w] = true;
      }
      if (!valid) {
        throw PolicyError("", method,
                          std::string(method) + " placed job " + std::to_string(planned.id) +
                              " on GPUs " + List(planned.worker_ids) + round + "; it needs " +
                              std::to_string(scale_factor) + " distinct free GPUs in [0, " +
                              std::to_string(state.num_gpus) + ")" +
                              (num_types > 1 ? " of one GPU type (" + types + ")" : ""));
      }
    }
    const int type = type_of(planned);
    if (type < 0 || type >= num_types) {
      throw PolicyError(
          "", method,
          std::string(method) + " gave job " + std::to_string(planned.id) +
              (type < 0 ? " no GPU type" : " the GPU type index " + std::to_string(type)) + round +
              "; the cluster's types are " + types + " (indices 0-" +
              std::to_string(num_types - 1) + "): plan each job's type");
    }
    gpus[type] += scale_factor;
    if (gpus[type] > capacity(type)) {
      int total = 0;
      for (const PlannedJob& p : plan.jobs) {
        auto found = active.find(p.id);
        if (found != active.end() && type_of(p) == type) total += found->second->scale_factor;
      }
      const std::string of_type = num_types > 1 ? " of type " + type_name(type) : "";
      throw PolicyError("", method,
                        std::string(method) + " asked for " + std::to_string(total) + " GPUs" +
                            of_type + round + "; the cluster has " +
                            std::to_string(capacity(type)) + of_type + " (job " +
                            std::to_string(planned.id) + ", " + std::to_string(scale_factor) +
                            " GPUs, is the first that does not fit)");
    }
    const double throughput = job.throughput_by_type_steps_per_s.empty()
                                  ? job.throughput_steps_per_s
                                  : job.throughput_by_type_steps_per_s[type];
    if (!(throughput > 0.0)) {
      throw PolicyError("", method,
                        std::string(method) + " put job " + std::to_string(planned.id) +
                            " on GPU type " + type_name(type) + round + ", where its throughput " +
                            "at batch size " + std::to_string(job.batch_size) + " on " +
                            std::to_string(scale_factor) + " GPUs is " + Number(throughput) +
                            " steps/s; it cannot run there");
    }
  }
}

void CheckReplicaCap(const IntervalDecision& decision, const IntervalClusterView& cluster,
                     int max_replicas) {
  if (max_replicas <= 0) return;
  for (const auto& [id, nodes] : decision.allocations) {
    if (static_cast<int>(nodes.size()) > max_replicas) {
      throw PolicyError("", "optimize",
                        "optimize gave job " + std::to_string(id) + " " +
                            std::to_string(nodes.size()) + " GPUs at t=" + Number(cluster.now_s) +
                            " s; it may hold at most " + std::to_string(max_replicas) +
                            " (IntervalJobView::max_replicas)");
    }
  }
}

void CheckIntervalDecision(const IntervalDecision& decision, const IntervalClusterView& cluster) {
  const char* method = "optimize";
  const std::string when = " at t=" + Number(cluster.now_s) + " s";
  std::set<int> active;
  for (const IntervalJobView& job : cluster.jobs) active.insert(job.index);
  std::vector<int> used(cluster.num_nodes, 0);
  std::vector<std::vector<int>> holders(cluster.num_nodes);
  for (const auto& [id, nodes] : decision.allocations) {
    if (!active.count(id)) {
      throw PolicyError("", method,
                        std::string(method) + " allocated job " + std::to_string(id) + when +
                            ", which is not an active job (not submitted yet, finished, or not "
                            "in the workload)");
    }
    for (int node : nodes) {
      if (node < 0 || node >= cluster.num_nodes) {
        throw PolicyError("", method,
                          std::string(method) + " put job " + std::to_string(id) + " on node " +
                              std::to_string(node) + when + "; node ids are in [0, " +
                              std::to_string(cluster.num_nodes) + ")");
      }
      ++used[node];
      if (holders[node].empty() || holders[node].back() != id) holders[node].push_back(id);
    }
  }
  // Node capacity and group: the node groups', or num_nodes × gpus_per_node.
  std::vector<int> capacity(cluster.num_nodes, cluster.gpus_per_node);
  std::vector<int> group_of(cluster.num_nodes, 0);
  for (int g = 0; g < static_cast<int>(cluster.node_groups.size()); ++g) {
    const IntervalNodeGroup& group = cluster.node_groups[g];
    for (int n = group.first_node; n < group.first_node + group.num_nodes; ++n) {
      if (n < cluster.num_nodes) capacity[n] = group.gpus_per_node, group_of[n] = g;
    }
  }
  for (const auto& [id, nodes] : decision.allocations) {
    for (int node : nodes) {
      if (group_of[node] != group_of[nodes.front()]) {
        throw PolicyError("", method,
                          std::string(method) + " put job " + std::to_string(id) + when +
                              " on nodes of two GPU types (nodes " + std::to_string(nodes.front()) +
                              " and " + std::to_string(node) + "); a job runs on one type");
      }
    }
  }
  for (int node = 0; node < cluster.num_nodes; ++node) {
    if (used[node] > capacity[node]) {
      throw PolicyError("", method,
                        std::string(method) + " put " + std::to_string(used[node]) +
                            " replicas on node " + std::to_string(node) + when + " (jobs " +
                            List(holders[node]) + "); a node has " +
                            std::to_string(capacity[node]) + " GPUs");
    }
  }
}

void CheckBatchConfig(const BatchConfig& batch, const IntervalJobView& job,
                      const std::vector<int>& placement) {
  if (batch.atomic_bsz >= 1 && batch.accum_steps >= 0) return;
  throw PolicyError("", "choose_batch",
                    "choose_batch returned (" + std::to_string(batch.atomic_bsz) + ", " +
                        std::to_string(batch.accum_steps) + ") for job " +
                        std::to_string(job.index) + " on placement " + List(placement) +
                        "; it needs atomic_bsz >= 1 and accum_steps >= 0");
}

}  // namespace adaptsim
