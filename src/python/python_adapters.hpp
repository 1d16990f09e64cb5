// What the "py" policy scheme (python_policy.cpp) shares with its interval-engine adapter
// (python_interval_policy.cpp). Private to the python stage.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <pybind11/pybind11.h>

#include "adaptsim/interval_policy.hpp"

namespace adaptsim {

/// Throws PolicyError(name, method, "<what>:\n<traceback>") for the Python exception being
/// handled; `what` says what raised ("plan_round raised in round 12", "importing 'mymod' raised").
[[noreturn]] void ThrowPolicyError(pybind11::error_already_set& error, const std::string& name,
                                   const std::string& method, const std::string& what);

/// The interval-engine policy over a Python object with optimize(cluster) (and optionally
/// choose_batch(job, placement), observe(job, observation), statistics()). Call with the GIL held.
std::unique_ptr<IntervalPolicy> MakePythonIntervalPolicy(pybind11::object policy, std::string name);

// Values a Python policy returns, as C++ values (python_values.cpp). Each refuses what a Python
// user could hand over by mistake and pybind11 would convert silently: bool (an int subclass)
// where an id or a number is meant, a float where an id is meant, a str. Call with the GIL held.

/// An int (or an object with __index__, e.g. numpy.int64) as a job or node id; std::nullopt for
/// bool, float, str, None, anything else, and an int outside the range of int.
std::optional<int> PythonId(pybind11::handle value);

/// A real number (int, float, numpy floats: anything with __float__ or __index__) as a double,
/// NaN and infinities included (the engines refuse them by name); std::nullopt for bool, str,
/// bytes, None, complex and anything else.
std::optional<double> PythonReal(pybind11::handle value);

/// "repr (type)" of a returned value for an error message, the repr cut to 60 characters.
std::string PythonValueText(pybind11::handle value);

}  // namespace adaptsim
