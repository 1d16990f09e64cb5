// Scheduling policies written in Python (docs/python.md): the "py" policy scheme of the registry.
// "py:MODULE:CLASS" names a Python class; MakePolicy imports MODULE, builds CLASS(**options) and
// wraps it in an engine's policy interface (adaptsim/policy.hpp, adaptsim/interval_policy.hpp):
//  * a class with compute_allocation(state) -> {job id: time fraction} is an AllocationPolicy
//    (run by the Gavel mechanism, as the C++ baselines);
//  * a class with plan_round(state) -> [job id, ...] is a RoundScheduler (the engine places the
//    jobs);
//  * a class with optimize(cluster) -> {job id: [node id, ...]} is an IntervalPolicy (the Pollux
//    family's interval engine); the interval engine's own option keys are not passed to it.
// A Python exception in any of these methods, a return value of the wrong type, and a class with
// more than one of the three decision methods are PolicyErrors (adaptsim/error.hpp) naming the
// policy, the method and the round; what the engines cannot honour is refused by the engines.
// The embedding program (the command line) needs an interpreter; the scheme starts one on first
// use when none runs (inside the `adaptsim` Python module one already does).
#pragma once

#include <string>

#include <pybind11/pybind11.h>

#include "adaptsim/error.hpp"

namespace adaptsim {

/// Registers the "py" scheme (RegisterPolicyScheme). Idempotent.
void RegisterPythonPolicies();

/// "py:MODULE:QUALNAME" of a Python class (its __module__ and __qualname__).
std::string PythonPolicyName(const pybind11::handle& cls);

/// Adds the read-only view types a Python policy receives to `module`, once per interpreter (a
/// second call is a no-op): ClusterState, ActiveJobView, JobSpec (round engine) and those of
/// BindIntervalPolicyView.
void BindPolicyView(pybind11::module_& module);

/// Adds the interval engine's view types (IntervalClusterView, IntervalJobView, PolluxJobSpec,
/// PolluxApplication, StepObservation) to `module`, once per interpreter.
void BindIntervalPolicyView(pybind11::module_& module);

}  // namespace adaptsim
