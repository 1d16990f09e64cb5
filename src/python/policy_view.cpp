// The read-only view a Python round policy receives: ClusterState, ActiveJobView and JobSpec
// (adaptsim/cluster_state.hpp, adaptsim/job.hpp) as Python classes whose fields are those of
// adaptsim/view_fields.hpp.
#include <optional>
#include <string>

#include "adaptsim/python_policy.hpp"
#include "view_binding.hpp"

namespace py = pybind11;

namespace adaptsim {

void BindPolicyView(py::module_& module) {
  BindIntervalPolicyView(module);
  if (py::detail::get_type_info(typeid(ClusterState))) return;  // bound in this interpreter
  BindView<JobSpec>(module, "JobSpec", "One job of the trace (read-only).");
  BindView<ActiveJobView>(module, "ActiveJobView",
                          "One active (arrived, not completed) job; valid during the call.");
  BindView<ClusterState>(module, "ClusterState",
                         "The cluster at a round boundary; valid only during the policy call.")
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
