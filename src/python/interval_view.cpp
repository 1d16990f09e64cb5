// The read-only view a Python interval policy receives (docs/python.md §5): IntervalClusterView,
// IntervalJobView, PolluxJobSpec, PolluxApplication and StepObservation
// (adaptsim/interval_policy.hpp, adaptsim/pollux_workload.hpp, adaptsim/pollux_application.hpp)
// as Python classes with the same field names.
#include <string>
#include <utility>
#include <vector>

#include <pybind11/stl.h>

#include "adaptsim/interval_policy.hpp"
#include "adaptsim/pollux_application.hpp"
#include "adaptsim/pollux_workload.hpp"
#include "adaptsim/python_policy.hpp"

namespace py = pybind11;

namespace adaptsim {

void BindIntervalPolicyView(py::module_& module) {
  if (py::detail::get_type_info(typeid(IntervalClusterView))) return;  // bound already
  py::class_<PolluxJobSpec>(module, "PolluxJobSpec", "One job of a Pollux workload (read-only).")
      .def_readonly("name", &PolluxJobSpec::name, "'<application>-<index>'")
      .def_readonly("submission_time_s", &PolluxJobSpec::submission_time_s, "submission time, s")
      .def_readonly("application", &PolluxJobSpec::application,
                    "cifar10, ncf, deepspeech2, bert, yolov3 or imagenet (or a trace's model)")
      .def_readonly("num_replicas", &PolluxJobSpec::num_replicas,
                    "GPUs the workload asks for (the rigid baselines' gang size)")
      .def_readonly("batch_size", &PolluxJobSpec::batch_size,
                    "total batch size the workload asks for, samples/iteration");

  py::class_<PolluxApplication>(module, "PolluxApplication",
                                "A job's application profile (read-only).")
      .def_property_readonly("name", &PolluxApplication::name)
      .def_property_readonly("init_batch_size", &PolluxApplication::init_batch_size,
                             "M0, the smallest validated total batch size, samples")
      .def_property_readonly("max_batch_size", &PolluxApplication::max_batch_size,
                             "largest validated total batch size, samples")
      .def_property_readonly("min_local_bsz", &PolluxApplication::min_local_bsz,
                             "smallest per-GPU batch size, samples")
      .def_property_readonly("max_local_bsz", &PolluxApplication::max_local_bsz,
                             "largest per-GPU batch size (memory cap), samples")
      .def_property_readonly("max_epochs", &PolluxApplication::max_epochs,
                             "epochs to completion (the job completes in epoch max_epochs - 1)")
      .def_property_readonly("max_replicas", &PolluxApplication::max_replicas,
                             "GPU cap of the application, 0 = none")
      .def(
          "step_times",
          [](const PolluxApplication& app, const std::vector<int>& placement, double local_bsz) {
            const StepTimes times = app.Throughput(placement, local_bsz);
            return std::make_pair(times.step_time_s, times.sync_time_s);
          },
          py::arg("placement"), py::arg("local_bsz"),
          "profiled (step_time_s, sync_time_s) of one optimizer step on `placement` (replicas "
          "per node) at per-GPU batch `local_bsz`, s; raises adaptsim.InputError outside the "
          "profiled domain");

  py::class_<IntervalJobView>(module, "IntervalJobView",
                              "One submitted, incomplete job; valid only during the call.")
      .def_readonly("id", &IntervalJobView::index, "position in the workload (job id)")
      .def_property_readonly(
          "spec", [](const IntervalJobView& job) { return job.spec; },
          py::return_value_policy::reference, "the workload's PolluxJobSpec")
      .def_property_readonly(
          "app", [](const IntervalJobView& job) { return job.app; },
          py::return_value_policy::reference, "the job's PolluxApplication profile")
      .def_readonly("attained_service_gpu_s", &IntervalJobView::attained_service_gpu_s,
                    "GPU-seconds held so far, restart delays included")
      .def_readonly("num_restarts", &IntervalJobView::num_restarts,
                    "re-allocations after the first allocation")
      .def_readonly("age_s", &IntervalJobView::age_s, "now - submission time, s")
      .def_readonly("epoch", &IntervalJobView::epoch, "completed epochs")
      .def_readonly("progress", &IntervalJobView::progress,
                    "scale-invariant iterations done (progress units)")
      .def_readonly("allocation", &IntervalJobView::allocation,
                    "current node id per replica (list of int; [] = no GPUs)");

  py::class_<IntervalClusterView>(module, "IntervalClusterView",
                                  "The cluster at an interval boundary; valid only during the "
                                  "call.")
      .def_readonly("now_s", &IntervalClusterView::now_s, "simulated time, s")
      .def_readonly("num_nodes", &IntervalClusterView::num_nodes, "nodes of the cluster")
      .def_readonly("gpus_per_node", &IntervalClusterView::gpus_per_node, "GPUs per node")
      .def_readonly("interval_s", &IntervalClusterView::interval_s,
                    "the engine's scheduling interval, s")
      .def_readonly("restart_delay_s", &IntervalClusterView::restart_delay_s,
                    "the engine's time without progress after each (re)allocation, s")
      .def_property_readonly(
          "jobs",
          [](const IntervalClusterView& cluster) {
            py::list jobs;
            for (const IntervalJobView& job : cluster.jobs) {
              jobs.append(py::cast(&job, py::return_value_policy::reference));
            }
            return jobs;
          },
          "submitted, incomplete jobs (list of IntervalJobView), in workload order");

  py::class_<StepObservation>(module, "StepObservation",
                              "One step-loop measurement of a running job (true profile values).")
      .def_readonly("num_nodes", &StepObservation::num_nodes, "nodes of the placement")
      .def_readonly("num_replicas", &StepObservation::num_replicas, "GPUs of the placement")
      .def_readonly("atomic_bsz", &StepObservation::atomic_bsz, "per-GPU batch size m, samples")
      .def_readonly("step_time_s", &StepObservation::step_time_s,
                    "one optimizer step without accumulation, s")
      .def_readonly("sync_time_s", &StepObservation::sync_time_s, "all-reduce wait within it, s")
      .def_readonly("grad_sqr", &StepObservation::grad_sqr, "gradient square norm")
      .def_readonly("grad_var", &StepObservation::grad_var, "gradient variance (at M0)");
}

}  // namespace adaptsim
