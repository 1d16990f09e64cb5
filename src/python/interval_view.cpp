// The read-only view a Python interval policy receives (docs/python.md §5): IntervalClusterView,
// IntervalJobView, PolluxJobSpec, PolluxApplication and StepObservation
// (adaptsim/interval_policy.hpp, adaptsim/pollux_workload.hpp, adaptsim/pollux_application.hpp)
// as Python classes whose fields are those of adaptsim/view_fields.hpp.
#include <utility>
#include <vector>

#include "adaptsim/python_policy.hpp"
#include "view_binding.hpp"

namespace py = pybind11;

namespace adaptsim {

void BindIntervalPolicyView(py::module_& module) {
  if (py::detail::get_type_info(typeid(IntervalClusterView))) return;  // bound already
  BindView<PolluxJobSpec>(module, "PolluxJobSpec", "One job of a Pollux workload (read-only).");
  BindView<PolluxApplication>(module, "PolluxApplication",
                              "A job's application profile (read-only).")
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
  BindView<IntervalJobView>(module, "IntervalJobView",
                            "One submitted, incomplete job; valid only during the call.");
  BindView<IntervalClusterView>(module, "IntervalClusterView",
                                "The cluster at an interval boundary; valid only during the call.");
  BindView<StepObservation>(module, "StepObservation",
                            "One step-loop measurement of a running job (true profile values).");
}

}  // namespace adaptsim
