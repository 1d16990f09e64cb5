// What the "py" policy scheme (python_policy.cpp) shares with its interval-engine adapter
// (python_interval_policy.cpp). Private to the python stage.
#pragma once

#include <memory>
#include <string>

#include <pybind11/pybind11.h>

#include "adaptsim/interval_policy.hpp"

namespace adaptsim {

/// Throws PythonPolicyError(name, 0, where, "Python exception:\n<traceback>") for the Python
/// exception being handled.
[[noreturn]] void ThrowPolicyError(pybind11::error_already_set& error, const std::string& name,
                                   const std::string& where);

/// The interval-engine policy over a Python object with optimize(cluster) (and optionally
/// choose_batch(job, placement), observe(job, observation), statistics()). Call with the GIL held.
std::unique_ptr<IntervalPolicy> MakePythonIntervalPolicy(pybind11::object policy, std::string name);

}  // namespace adaptsim
