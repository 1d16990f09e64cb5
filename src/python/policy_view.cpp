// The read-only view a Python policy receives: ClusterState, ActiveJobView and JobSpec
// (adaptsim/cluster_state.hpp, adaptsim/job.hpp) as Python classes with the same field names.
#include <string>

#include <pybind11/stl.h>

#include "adaptsim/cluster_state.hpp"
#include "adaptsim/job.hpp"
#include "adaptsim/python_policy.hpp"

namespace py = pybind11;

namespace adaptsim {

void BindPolicyView(py::module_& module) {
  BindIntervalPolicyView(module);
  if (py::detail::get_type_info(typeid(ClusterState))) return;  // bound in this interpreter
  py::class_<JobSpec>(module, "JobSpec", "One job of the trace (read-only).")
      .def_readonly("id", &JobSpec::id)
      .def_readonly("model", &JobSpec::model, "model name, e.g. 'ResNet-18'")
      .def_readonly("initial_batch_size", &JobSpec::initial_batch_size, "B0, samples/iteration")
      .def_readonly("scale_factor", &JobSpec::scale_factor, "GPUs requested (gang)")
      .def_property_readonly(
          "mode", [](const JobSpec& spec) { return std::string(ToString(spec.mode)); },
          "batch-size adaptation: 'static' | 'accordion' | 'gns'")
      .def_readonly("total_steps", &JobSpec::total_steps, "total work S, iterations at B0")
      .def_readonly("priority_weight", &JobSpec::priority_weight)
      .def_readonly("arrival_time_s", &JobSpec::arrival_time_s, "arrival time, s");

  py::class_<ActiveJobView>(module, "ActiveJobView",
                            "One active (arrived, not completed) job; valid during the call.")
      .def_readonly("id", &ActiveJobView::id)
      .def_property_readonly(
          "spec", [](const ActiveJobView& job) { return job.spec; },
          py::return_value_policy::reference, "the trace's JobSpec")
      .def_readonly("scale_factor", &ActiveJobView::scale_factor, "s_i, GPUs")
      .def_readonly("batch_size", &ActiveJobView::batch_size, "current batch size")
      .def_readonly("throughput_steps_per_s", &ActiveJobView::throughput_steps_per_s,
                    "T_i at the current batch size on s_i GPUs, steps/s")
      .def_readonly("total_steps", &ActiveJobView::total_steps, "S at the current batch size")
      .def_readonly("steps_run", &ActiveJobView::steps_run, "progress at the current batch size")
      .def_readonly("remaining_steps", &ActiveJobView::remaining_steps, "N_i = S - steps_run")
      .def_readonly("time_since_arrival_s", &ActiveJobView::time_since_arrival_s,
                    "now - arrival, s")
      .def_readonly("admitted_at_s", &ActiveJobView::admitted_at_s,
                    "round boundary at which the job joined, s")
      .def_readonly("run_time_so_far_s", &ActiveJobView::run_time_so_far_s,
                    "sum of execution time (restart overhead excluded), s")
      .def_readonly("rounds_run", &ActiveJobView::rounds_run, "executed rounds");

  py::class_<ClusterState>(module, "ClusterState",
                           "The cluster at a round boundary; valid only during the policy call.")
      .def_readonly("now_s", &ClusterState::now_s, "simulated time, s")
      .def_readonly("round_index", &ClusterState::round_index, "index of the round to schedule")
      .def_readonly("num_gpus", &ClusterState::num_gpus, "G, GPUs of the cluster")
      .def_readonly("round_duration_s", &ClusterState::round_duration_s, "T_r, s")
      .def_readonly("num_trace_jobs", &ClusterState::num_trace_jobs, "jobs in the whole trace")
      .def_property_readonly(
          "jobs",
          [](const ClusterState& state) {
            py::list jobs;
            for (const ActiveJobView& job : state.jobs) {
              jobs.append(py::cast(&job, py::return_value_policy::reference));
            }
            return jobs;
          },
          "active jobs (list of ActiveJobView), by ascending id")
      .def(
          "throughput",
          [](const ClusterState& state, const std::string& model, int batch_size,
             int scale_factor) -> std::optional<double> {
            if (state.throughputs == nullptr) return std::nullopt;
            return state.throughputs->ThroughputStepsPerS(model, batch_size, scale_factor);
          },
          py::arg("model"), py::arg("batch_size"), py::arg("scale_factor"),
          "the run's throughput oracle, steps/s (None when unknown)");
}

}  // namespace adaptsim
