// A Python class as an interval-engine policy (python_adapters.hpp, docs/python.md §5). The engine
// calls this adapter exactly where it calls a C++ IntervalPolicy (adaptsim/interval_policy.hpp);
// the adapter forwards to the Python methods and refuses return values of the wrong type.
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/stl.h>

#include "adaptsim/interval_policy.hpp"
#include "adaptsim/pollux_application.hpp"
#include "adaptsim/pollux_goodput.hpp"
#include "adaptsim/pollux_workload.hpp"
#include "adaptsim/python_policy.hpp"
#include "python_adapters.hpp"

namespace py = pybind11;

namespace adaptsim {
namespace {

py::object MethodOrNone(const py::object& object, const char* name) {
  if (!py::hasattr(object, name)) return py::none();
  return object.attr(name);
}

/// " at t=N s" of an interval-engine decision.
std::string At(const IntervalClusterView& cluster) {
  char text[48];
  std::snprintf(text, sizeof(text), " at t=%.10g s", cluster.now_s);
  return text;
}

/// An interval policy over a Python object. Wrong types are refused here; jobs that are not
/// active, node ids out of range, nodes over capacity and batch configurations below (1, 0) by the
/// engine (decision_checks), as for C++ policies.
class PythonIntervalPolicy final : public IntervalPolicy {
 public:
  PythonIntervalPolicy(py::object policy, std::string name)
      : policy_(std::move(policy)), name_(std::move(name)) {
    optimize_ = policy_.attr("optimize");
    choose_batch_ = MethodOrNone(policy_, "choose_batch");
    observe_ = MethodOrNone(policy_, "observe");
    statistics_ = MethodOrNone(policy_, "statistics");
  }
  ~PythonIntervalPolicy() override {
    py::gil_scoped_acquire gil;
    optimize_ = choose_batch_ = observe_ = statistics_ = policy_ = py::object();
  }

  void Observe(const IntervalJobView& job, const StepObservation& observation) override {
    if (observe_.is_none()) return;
    py::gil_scoped_acquire gil;
    try {
      observe_(Reference(job), Reference(observation));
    } catch (py::error_already_set& error) {
      ThrowPolicyError(error, name_, "observe",
                       "observe raised for job " + std::to_string(job.index));
    }
  }

  // Without choose_batch: the rigid baselines' rule, the workload's batch size over the granted
  // replicas (models::FixedBatch, `A:simulator/simulator.py:76-81`).
  BatchConfig ChooseBatch(const IntervalJobView& job, const std::vector<int>& placement) override {
    if (choose_batch_.is_none()) {
      int replicas = 0;
      for (int count : placement) replicas += count;
      const models::GoodputChoice fixed = models::FixedBatch(
          job.spec->batch_size, replicas, job.app->init_batch_size(), job.app->max_local_bsz());
      return {fixed.atomic_bsz, fixed.accum_steps};
    }
    py::gil_scoped_acquire gil;
    py::object result;
    const std::string for_job = " for job " + std::to_string(job.index);
    try {
      result = choose_batch_(Reference(job), py::cast(placement));
    } catch (py::error_already_set& error) {
      ThrowPolicyError(error, name_, "choose_batch", "choose_batch raised" + for_job);
    }
    std::optional<int> atomic_bsz, accum_steps;
    if ((py::isinstance<py::tuple>(result) || py::isinstance<py::list>(result)) &&
        py::len(result) == 2) {
      atomic_bsz = PythonId(result[py::int_(0)]);
      accum_steps = PythonId(result[py::int_(1)]);
    }
    if (!atomic_bsz || !accum_steps) {
      throw PolicyError(name_, "choose_batch",
                        "choose_batch returned " + PythonValueText(result) + for_job +
                            "; it returns (atomic_bsz, accum_steps), two ints");
    }
    return {*atomic_bsz, *accum_steps};
  }

  IntervalDecision Optimize(const IntervalClusterView& cluster) override {
    py::gil_scoped_acquire gil;
    py::object result;
    try {
      result = optimize_(Reference(cluster));
    } catch (py::error_already_set& error) {
      ThrowPolicyError(error, name_, "optimize", "optimize raised" + At(cluster));
    }
    const std::string form = "it returns a dict {job id: [node id per replica]}";
    if (!py::isinstance<py::dict>(result)) {
      Refuse(cluster, "returned " + PythonValueText(result), form);
    }
    IntervalDecision decision;
    for (auto [key, value] : py::reinterpret_borrow<py::dict>(result)) {
      const std::optional<int> id = PythonId(key);
      if (!id) Refuse(cluster, "returned the key " + PythonValueText(key), "job ids are ints");
      if (!py::isinstance<py::list>(value) && !py::isinstance<py::tuple>(value)) {
        Refuse(cluster, "returned " + PythonValueText(value) + " for job " + std::to_string(*id),
               form);
      }
      std::vector<int>& nodes = decision.allocations[*id];
      for (py::handle node : value) {
        const std::optional<int> node_id = PythonId(node);
        if (!node_id) {
          Refuse(cluster,
                 "returned the node " + PythonValueText(node) + " for job " + std::to_string(*id),
                 "node ids are ints");
        }
        nodes.push_back(*node_id);
      }
    }
    return decision;
  }

  std::map<std::string, double> Statistics() const override {
    if (statistics_.is_none()) return {};
    py::gil_scoped_acquire gil;
    py::object result;
    try {
      result = statistics_();
    } catch (py::error_already_set& error) {
      ThrowPolicyError(error, name_, "statistics", "statistics raised");
    }
    std::map<std::string, double> statistics;
    if (py::isinstance<py::dict>(result)) {
      for (auto [key, value] : py::reinterpret_borrow<py::dict>(result)) {
        const std::optional<double> number = PythonReal(value);
        if (!py::isinstance<py::str>(key) || !number) {
          throw PolicyError(name_, "statistics",
                            "statistics returned " + PythonValueText(key) + ": " +
                                PythonValueText(value) + "; it returns a dict {name: number}");
        }
        statistics[key.cast<std::string>()] = *number;
      }
      return statistics;
    }
    throw PolicyError(
        name_, "statistics",
        "statistics returned " + PythonValueText(result) + "; it returns a dict {name: number}");
  }

 private:
  template <typename T>
  static py::object Reference(const T& value) {
    return py::cast(&value, py::return_value_policy::reference);
  }

  [[noreturn]] void Refuse(const IntervalClusterView& cluster, const std::string& what,
                           const std::string& hint) const {
    throw PolicyError(name_, "optimize", "optimize " + what + At(cluster) + "; " + hint);
  }

  py::object policy_, optimize_, choose_batch_, observe_, statistics_;
  std::string name_;
};

}  // namespace

std::unique_ptr<IntervalPolicy> MakePythonIntervalPolicy(py::object policy, std::string name) {
  return std::make_unique<PythonIntervalPolicy>(std::move(policy), std::move(name));
}

}  // namespace adaptsim
