// A Python class as an interval-engine policy (python_adapters.hpp, docs/python.md §5). The engine
// calls this adapter exactly where it calls a C++ IntervalPolicy (adaptsim/interval_policy.hpp);
// the adapter forwards to the Python methods and checks what they return.
#include <map>
#include <memory>
#include <set>
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
      ThrowPolicyError(error, name_, "observe");
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
    try {
      auto [atomic_bsz, accum_steps] =
          choose_batch_(Reference(job), py::cast(placement)).cast<std::pair<int, int>>();
      if (atomic_bsz < 1 || accum_steps < 0) {
        throw PythonPolicyError(name_, 0, "choose_batch",
                                "returned (" + std::to_string(atomic_bsz) + ", " +
                                    std::to_string(accum_steps) +
                                    "): needs atomic_bsz >= 1 and accum_steps >= 0");
      }
      return {atomic_bsz, accum_steps};
    } catch (py::error_already_set& error) {
      ThrowPolicyError(error, name_, "choose_batch");
    } catch (const py::cast_error& error) {
      throw PythonPolicyError(
          name_, 0, "choose_batch",
          std::string("must return (atomic_bsz, accum_steps), two ints: ") + error.what());
    }
  }

  IntervalDecision Optimize(const IntervalClusterView& cluster) override {
    py::gil_scoped_acquire gil;
    IntervalDecision decision;
    try {
      py::object result = optimize_(Reference(cluster));
      for (auto item : py::dict(result)) {
        decision.allocations[item.first.cast<int>()] = item.second.cast<std::vector<int>>();
      }
    } catch (py::error_already_set& error) {
      ThrowPolicyError(error, name_, "optimize");
    } catch (const py::cast_error& error) {
      throw PythonPolicyError(
          name_, 0, "optimize",
          std::string("must return a dict {job id: [node id, ...]}: ") + error.what());
    }
    Check(cluster, decision);
    return decision;
  }

  std::map<std::string, double> Statistics() const override {
    if (statistics_.is_none()) return {};
    py::gil_scoped_acquire gil;
    try {
      return statistics_().cast<std::map<std::string, double>>();
    } catch (py::error_already_set& error) {
      ThrowPolicyError(error, name_, "statistics");
    } catch (const py::cast_error& error) {
      throw PythonPolicyError(name_, 0, "statistics",
                              std::string("must return a dict {name: number}: ") + error.what());
    }
  }

 private:
  template <typename T>
  static py::object Reference(const T& value) {
    return py::cast(&value, py::return_value_policy::reference);
  }

  /// An allocation names active jobs and existing nodes, and no node holds more replicas than
  /// it has GPUs (a Python policy's mistake is the task's failure, not an internal error).
  void Check(const IntervalClusterView& cluster, const IntervalDecision& decision) const {
    std::set<int> active;
    for (const IntervalJobView& job : cluster.jobs) active.insert(job.index);
    std::vector<int> used(cluster.num_nodes, 0);
    for (const auto& [id, nodes] : decision.allocations) {
      if (!active.count(id)) {
        throw PythonPolicyError(
            name_, 0, "optimize",
            "allocates job " + std::to_string(id) +
                ", which is not an active job at t=" + std::to_string(cluster.now_s) + " s");
      }
      for (int node : nodes) {
        if (node < 0 || node >= cluster.num_nodes) {
          throw PythonPolicyError(name_, 0, "optimize",
                                  "job " + std::to_string(id) + ": node " + std::to_string(node) +
                                      " outside [0, " + std::to_string(cluster.num_nodes) + ")");
        }
        if (++used[node] > cluster.gpus_per_node) {
          throw PythonPolicyError(name_, 0, "optimize",
                                  "node " + std::to_string(node) + " holds more than " +
                                      std::to_string(cluster.gpus_per_node) + " replicas");
        }
      }
    }
  }

  py::object policy_, optimize_, choose_batch_, observe_, statistics_;
  std::string name_;
};

}  // namespace

std::unique_ptr<IntervalPolicy> MakePythonIntervalPolicy(py::object policy, std::string name) {
  return std::make_unique<PythonIntervalPolicy>(std::move(policy), std::move(name));
}

}  // namespace adaptsim
