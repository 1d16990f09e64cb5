// The fields of the read-only views a policy receives, declared once, as result_fields.hpp
// declares the results. `VisitViewFields(std::type_identity<View>{}, visit)` calls
// `visit(name, units, doc, get)` for every field of View, in a fixed order, where `get(view)`
// returns the field's value. The Python classes of the views (src/python/policy_view.cpp,
// interval_view.cpp) bind exactly these fields, `adaptsim._core.view_fields()` lists them, and the
// `python.module` test checks that the tables of docs/python.md §3 and §5 name the same fields with
// the same units; so a field added here is one line that reaches the C++ policies' view, the
// Python classes and the documentation test. ForEachView enumerates the views. Fields by GPU type
// are {type name: value} maps in type-index order (Cluster: sorted by name, the worker-id order).
//
// Units (as results, docs/results-format.md): "s" simulated seconds, "id", "gpus", "samples"
// (batch size: samples per iteration), "steps" (iterations), "steps/s", "gpu_s" (GPU-seconds),
// "count", "1" dimensionless, "" text, flag, enumeration or another view.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "adaptsim/cluster_state.hpp"
#include "adaptsim/interval_policy.hpp"
#include "adaptsim/job.hpp"
#include "adaptsim/pollux_application.hpp"
#include "adaptsim/pollux_workload.hpp"
#include "adaptsim/task_key_fields.hpp"

namespace adaptsim {

/// {GPU type name: GPUs} of the state's cluster; {default type: num_gpus} without one.
inline std::map<std::string, int> GpuTypeCounts(const ClusterState& state) {
  if (state.cluster == nullptr) return {{Cluster::kDefaultGpuType, state.num_gpus}};
  std::map<std::string, int> counts;
  for (const GpuTypeCount& type : state.cluster->types()) counts[type.name] = type.count;
  return counts;
}

/// {GPU type name: T_ik, steps/s} of a job; {default type: throughput_steps_per_s} without a
/// cluster.
inline std::map<std::string, double> ThroughputByType(const ActiveJobView& job) {
  if (job.cluster == nullptr || job.throughput_by_type_steps_per_s.empty()) {
    return {{Cluster::kDefaultGpuType, job.throughput_steps_per_s}};
  }
  std::map<std::string, double> by_type;
  for (int k = 0; k < job.cluster->num_types(); ++k) {
    by_type[job.cluster->name(k)] = job.throughput_by_type_steps_per_s[k];
  }
  return by_type;
}

/// The name of the GPU type a job ran on in the previous round; nullopt when it did not run then.
inline std::optional<std::string> PreviousRoundGpuType(const ActiveJobView& job) {
  if (job.previous_round_gpu_type < 0) return std::nullopt;
  if (job.cluster == nullptr) return Cluster::kDefaultGpuType;
  return job.cluster->name(job.previous_round_gpu_type);
}

template <typename V>
void VisitViewFields(std::type_identity<JobSpec>, V&& visit) {
  using T = const JobSpec&;
  visit("id", "id", "job id: the 0-based line of the job in its trace", [](T s) { return s.id; });
  visit("model", "", "model name, e.g. 'ResNet-18'", [](T s) { return s.model; });
  visit("initial_batch_size", "samples", "B0, the trace's batch size",
        [](T s) { return s.initial_batch_size; });
  visit("scale_factor", "gpus", "GPUs the job needs, all at once (gang): 1, 2, 4 or 8",
        [](T s) { return s.scale_factor; });
  visit("mode", "", "batch-size adaptation: 'static', 'accordion' or 'gns'",
        [](T s) { return std::string(ToString(s.mode)); });
  visit("total_steps", "steps", "total work S, iterations at B0",
        [](T s) { return s.total_steps; });
  visit("priority_weight", "1", "the trace's priority weight",
        [](T s) { return s.priority_weight; });
  visit("arrival_time_s", "s", "arrival time", [](T s) { return s.arrival_time_s; });
}

template <typename V>
void VisitViewFields(std::type_identity<ActiveJobView>, V&& visit) {
  using T = const ActiveJobView&;
  visit("id", "id", "job id (= spec.id)", [](T j) { return j.id; });
  visit("spec", "", "the trace's JobSpec", [](T j) { return j.spec; });
  visit("scale_factor", "gpus", "s_i, GPUs the job runs on (= spec.scale_factor)",
        [](T j) { return j.scale_factor; });
  visit("batch_size", "samples", "current batch size, after adaptation",
        [](T j) { return j.batch_size; });
  visit("throughput_steps_per_s", "steps/s",
        "T_i at the current batch size on s_i GPUs of the cluster's reference type",
        [](T j) { return j.throughput_steps_per_s; });
  visit("throughput_by_type_steps_per_s", "steps/s",
        "{GPU type: T_ik} at the current batch size on s_i GPUs of each type, 0 = cannot run there",
        [](T j) { return ThroughputByType(j); });
  visit("total_steps", "steps", "S at the current batch size", [](T j) { return j.total_steps; });
  visit("steps_run", "steps", "progress at the current batch size",
        [](T j) { return j.steps_run; });
  visit("remaining_steps", "steps", "N_i = total_steps - steps_run",
        [](T j) { return j.remaining_steps; });
  visit("time_since_arrival_s", "s", "now - arrival", [](T j) { return j.time_since_arrival_s; });
  visit("admitted_at_s", "s", "round boundary at which the job joined",
        [](T j) { return j.admitted_at_s; });
  visit("run_time_so_far_s", "s", "execution time received, restart overhead excluded",
        [](T j) { return j.run_time_so_far_s; });
  visit("rounds_run", "count", "rounds the job ran in", [](T j) { return j.rounds_run; });
  visit("ran_previous_round", "", "whether the job ran in the previous round",
        [](T j) { return j.previous_round_gpus > 0; });
  visit("previous_round_gpus", "gpus", "GPUs the job held in the previous round, 0 = none",
        [](T j) { return j.previous_round_gpus; });
  visit("previous_round_gpu_type", "",
        "GPU type the job ran on in the previous round; none when it did not run",
        [](T j) { return PreviousRoundGpuType(j); });
}

template <typename V>
void VisitViewFields(std::type_identity<ClusterState>, V&& visit) {
  using T = const ClusterState&;
  visit("now_s", "s", "simulated time of the round boundary", [](T c) { return c.now_s; });
  visit("round_index", "id", "index of the round about to be scheduled",
        [](T c) { return c.round_index; });
  visit(kNumGpusField.key.data(), kNumGpusField.unit.data(), "G, GPUs of the cluster, all types",
        [](T c) { return c.num_gpus; });
  visit("gpu_types", "gpus", "{GPU type: GPUs of that type}, in type (sorted-name) order",
        [](T c) { return GpuTypeCounts(c); });
  visit(kRoundDurationField.key.data(), kRoundDurationField.unit.data(),
        kRoundDurationField.doc.data(), [](T c) { return c.round_duration_s; });
  visit("num_trace_jobs", "count", "jobs in the whole trace", [](T c) { return c.num_trace_jobs; });
  visit("jobs", "", "active jobs (ActiveJobView), by ascending id",
        [](T c) -> const std::vector<ActiveJobView>& { return c.jobs; });
}

template <typename V>
void VisitViewFields(std::type_identity<PolluxJobSpec>, V&& visit) {
  using T = const PolluxJobSpec&;
  visit("name", "", "'<application>-<index>'", [](T s) { return s.name; });
  visit("submission_time_s", "s", "submission time", [](T s) { return s.submission_time_s; });
  visit("application", "", "cifar10, ncf, deepspeech2, bert, yolov3 or imagenet (or a model)",
        [](T s) { return s.application; });
  visit("num_replicas", "gpus", "GPUs the workload asks for (the rigid baselines' gang size)",
        [](T s) { return s.num_replicas; });
  visit("batch_size", "samples", "total batch size the workload asks for",
        [](T s) { return s.batch_size; });
}

template <typename V>
void VisitViewFields(std::type_identity<PolluxApplication>, V&& visit) {
  using T = const PolluxApplication&;
  visit("name", "", "application name", [](T a) { return a.name(); });
  visit("init_batch_size", "samples", "M0, the smallest validated total batch size",
        [](T a) { return a.init_batch_size(); });
  visit("max_batch_size", "samples", "largest validated total batch size",
        [](T a) { return a.max_batch_size(); });
  visit("min_local_bsz", "samples", "smallest per-GPU batch size",
        [](T a) { return a.min_local_bsz(); });
  visit("max_local_bsz", "samples", "largest per-GPU batch size (memory cap)",
        [](T a) { return a.max_local_bsz(); });
  visit("max_epochs", "count", "epochs to completion", [](T a) { return a.max_epochs(); });
  visit("max_replicas", "gpus", "GPU cap of the application, 0 = none",
        [](T a) { return a.max_replicas(); });
}

template <typename V>
void VisitViewFields(std::type_identity<IntervalJobView>, V&& visit) {
  using T = const IntervalJobView&;
  visit("id", "id", "position in the workload (the job id of the results)",
        [](T j) { return j.index; });
  visit("spec", "", "the workload's PolluxJobSpec", [](T j) { return j.spec; });
  visit("app", "", "the job's PolluxApplication profile", [](T j) { return j.app; });
  visit("apps_by_group", "", "the job's PolluxApplication on each node group's GPU type",
        [](T j) -> const std::vector<const PolluxApplication*>& { return j.apps_by_group; });
  visit("gpu_group", "id", "node group of the current allocation, -1 = none",
        [](T j) { return j.gpu_group; });
  visit("restart_delay_s", "s", "the model's checkpoint-restore delay charged by the engine",
        [](T j) { return j.restart_delay_s; });
  visit("restart_left_s", "s", "checkpoint-restore time still to go (> 0: restoring)",
        [](T j) { return j.restart_left_s; });
  visit("slowdown", "1", "the model's slowdown calibration; progress rates are divided by it",
        [](T j) { return j.slowdown; });
  visit("allocation", "id", "node id per replica held in the interval just ended, [] = none",
        [](T j) -> const std::vector<int>& { return j.allocation; });
  visit("attained_service_gpu_s", "gpu_s", "GPU-seconds held so far, restart delays included",
        [](T j) { return j.attained_service_gpu_s; });
  visit("num_restarts", "count", "re-allocations after the first allocation",
        [](T j) { return j.num_restarts; });
  visit("age_s", "s", "now - submission time", [](T j) { return j.age_s; });
  visit("epoch", "count", "completed epochs", [](T j) { return j.epoch; });
  visit("progress", "steps", "scale-invariant iterations done", [](T j) { return j.progress; });
  visit("max_replicas", "gpus", "most GPUs the job may hold, 0 = no cap (isolated runs for rho)",
        [](T j) { return j.max_replicas; });
}

template <typename V>
void VisitViewFields(std::type_identity<IntervalClusterView>, V&& visit) {
  using T = const IntervalClusterView&;
  visit("now_s", "s", "simulated time of the interval boundary", [](T c) { return c.now_s; });
  visit("num_nodes", "count", "nodes of the cluster, all node groups",
        [](T c) { return c.num_nodes; });
  visit("gpus_per_node", "gpus", "GPUs per node of the first node group",
        [](T c) { return c.gpus_per_node; });
  visit("gpu_types", "", "GPU type of each node group, in cluster order", [](T c) {
    std::vector<std::string> types;
    for (const IntervalNodeGroup& g : c.node_groups) types.push_back(g.gpu_type);
    return types;
  });
  visit("interval_s", "s", "the engine's scheduling interval", [](T c) { return c.interval_s; });
  visit("restart_delay_s", "s", "the engine's time without progress after each (re)allocation",
        [](T c) { return c.restart_delay_s; });
  visit("jobs", "", "submitted, incomplete jobs (IntervalJobView), in workload order",
        [](T c) -> const std::vector<IntervalJobView>& { return c.jobs; });
}

template <typename V>
void VisitViewFields(std::type_identity<StepObservation>, V&& visit) {
  using T = const StepObservation&;
  visit("num_nodes", "count", "nodes of the placement", [](T o) { return o.num_nodes; });
  visit("num_replicas", "gpus", "GPUs of the placement", [](T o) { return o.num_replicas; });
  visit("atomic_bsz", "samples", "per-GPU batch size m", [](T o) { return o.atomic_bsz; });
  visit("step_time_s", "s", "one optimizer step without accumulation",
        [](T o) { return o.step_time_s; });
  visit("sync_time_s", "s", "the all-reduce wait within it", [](T o) { return o.sync_time_s; });
  visit("grad_sqr", "1", "squared gradient norm at M0 (the profile's)",
        [](T o) { return o.grad_sqr; });
  visit("grad_var", "1", "gradient variance at M0 (the profile's)", [](T o) { return o.grad_var; });
}

/// Calls `f(name, std::type_identity<View>{})` for every view a policy receives: the round
/// engine's (ClusterState, ActiveJobView, JobSpec), then the interval engine's.
template <typename F>
void ForEachView(F&& f) {
  f("JobSpec", std::type_identity<JobSpec>{});
  f("ActiveJobView", std::type_identity<ActiveJobView>{});
  f("ClusterState", std::type_identity<ClusterState>{});
  f("PolluxJobSpec", std::type_identity<PolluxJobSpec>{});
  f("PolluxApplication", std::type_identity<PolluxApplication>{});
  f("IntervalJobView", std::type_identity<IntervalJobView>{});
  f("IntervalClusterView", std::type_identity<IntervalClusterView>{});
  f("StepObservation", std::type_identity<StepObservation>{});
}

}  // namespace adaptsim
