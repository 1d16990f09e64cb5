// The "py" policy scheme: Python classes as round- and interval-engine policies
// (adaptsim/python_policy.hpp).
#include "adaptsim/python_policy.hpp"

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <pybind11/embed.h>
#include <pybind11/stl.h>

#include "adaptsim/cluster_state.hpp"
#include "adaptsim/interval_policy.hpp"
#include "adaptsim/policy.hpp"
#include "adaptsim/registry.hpp"
#include "python_adapters.hpp"

namespace py = pybind11;

namespace adaptsim {
namespace {

constexpr char kScheme[] = "py";

/// Starts an interpreter when the process has none (the command line); inside the Python module
/// one already runs. It lives until the process ends.
void EnsureInterpreter() {
  if (!Py_IsInitialized()) py::initialize_interpreter();
}

/// Binds the view types (BindPolicyView) into a module of their own unless the `adaptsim` Python
/// module already did. Call with the GIL held.
void EnsureView() {
  if (py::detail::get_type_info(typeid(ClusterState)) &&
      py::detail::get_type_info(typeid(IntervalClusterView))) {
    return;
  }
  py::module_ view = py::module_::import("types").attr("ModuleType")("adaptsim_view");
  BindPolicyView(view);
  py::module_::import("sys").attr("modules")["adaptsim_view"] = view;
}

/// "Python exception:\n" + the formatted traceback of the exception being handled.
std::string Traceback(py::error_already_set& error) {
  try {
    py::object format = py::module_::import("traceback").attr("format_exception");
    py::list lines = format(error.type(), error.value(), error.trace());
    std::string text;
    for (py::handle line : lines) text += line.cast<std::string>();
    return "Python exception:\n" + text;
  } catch (...) {
    return std::string("Python exception: ") + error.what();
  }
}

}  // namespace

[[noreturn]] void ThrowPolicyError(py::error_already_set& error, const std::string& name,
                                   const std::string& where) {
  throw PythonPolicyError(name, 0, where, Traceback(error));
}

namespace {

struct ParsedName {
  std::string module;
  std::string qualname;
};

ParsedName Parse(const std::string& name, const std::string& context) {
  // "py:MODULE:QUALNAME"
  const std::size_t first = name.find(':');
  const std::size_t second = name.find(':', first + 1);
  if (second == std::string::npos || second == first + 1 || second + 1 == name.size()) {
    throw InputError(context, 0, "policy",
                     "'" + name + "': a Python policy is named py:MODULE:CLASS, e.g. " +
                         "py:mypkg.policies:LeastAttainedService");
  }
  return {name.substr(first + 1, second - first - 1), name.substr(second + 1)};
}

/// Imports MODULE and returns CLASS (a dotted qualname walks nested attributes).
/// Call with the interpreter running and the GIL held.
py::object ImportClass(const std::string& name, const std::string& context) {
  const ParsedName parsed = Parse(name, context);
  try {
    py::object object = py::module_::import("importlib").attr("import_module")(parsed.module);
    std::string rest = parsed.qualname;
    while (!rest.empty()) {
      const std::size_t dot = rest.find('.');
      object = object.attr(py::str(rest.substr(0, dot)));
      rest = dot == std::string::npos ? "" : rest.substr(dot + 1);
    }
    return object;
  } catch (py::error_already_set& error) {
    ThrowPolicyError(error, name, "import");
  }
}

bool BoolAttribute(const py::object& object, const char* attribute) {
  return py::hasattr(object, attribute) && py::bool_(object.attr(attribute));
}

/// AllocationPolicy over a Python object's compute_allocation(state).
class PythonAllocationPolicy final : public AllocationPolicy {
 public:
  PythonAllocationPolicy(py::object policy, std::string name)
      : policy_(std::move(policy)), name_(std::move(name)) {
    traits_.skip_nonpositive_priority = BoolAttribute(policy_, "skip_nonpositive_priority");
    traits_.stop_at_first_misfit = BoolAttribute(policy_, "stop_at_first_misfit");
    method_ = policy_.attr("compute_allocation");
  }
  ~PythonAllocationPolicy() override {
    py::gil_scoped_acquire gil;
    method_ = py::object();
    policy_ = py::object();
  }
  AllocationPolicyTraits Traits() const override { return traits_; }
  Allocation ComputeAllocation(const ClusterState& state) override {
    py::gil_scoped_acquire gil;
    Allocation allocation;
    try {
      py::object result = method_(py::cast(&state, py::return_value_policy::reference));
      for (auto item : py::dict(result)) {
        allocation.time_fraction[item.first.cast<JobId>()] = item.second.cast<double>();
      }
    } catch (py::error_already_set& error) {
      ThrowPolicyError(error, name_, "compute_allocation");
    } catch (const py::cast_error& error) {
      throw PythonPolicyError(
          name_, 0, "compute_allocation",
          std::string("must return a dict {job id: time fraction}: ") + error.what());
    }
    return allocation;
  }

 private:
  py::object policy_;
  py::object method_;
  std::string name_;
  AllocationPolicyTraits traits_;
};

/// RoundScheduler over a Python object's plan_round(state) -> job ids.
class PythonRoundScheduler final : public RoundScheduler {
 public:
  PythonRoundScheduler(py::object policy, std::string name)
      : policy_(std::move(policy)), name_(std::move(name)) {
    method_ = policy_.attr("plan_round");
  }
  ~PythonRoundScheduler() override {
    py::gil_scoped_acquire gil;
    method_ = py::object();
    policy_ = py::object();
  }
  RoundPlan PlanRound(const ClusterState& state) override {
    py::gil_scoped_acquire gil;
    RoundPlan plan;
    try {
      py::object result = method_(py::cast(&state, py::return_value_policy::reference));
      for (py::handle id : py::iter(result)) plan.jobs.push_back({id.cast<JobId>(), {}});
    } catch (py::error_already_set& error) {
      ThrowPolicyError(error, name_, "plan_round");
    } catch (const py::cast_error& error) {
      throw PythonPolicyError(name_, 0, "plan_round",
                              std::string("must return job ids: ") + error.what());
    }
    return plan;
  }

 private:
  py::object policy_;
  py::object method_;
  std::string name_;
};

/// The engine a Python policy class runs on: optimize(cluster) -> the interval engine;
/// compute_allocation(state) or plan_round(state) -> the round engine. Throws InputError(context)
/// for a class with none of them.
EngineKind EngineOf(const py::object& cls, const std::string& name, const std::string& context) {
  if (py::hasattr(cls, "optimize")) return EngineKind::kInterval;
  if (py::hasattr(cls, "compute_allocation") || py::hasattr(cls, "plan_round")) {
    return EngineKind::kRound;
  }
  throw InputError(context, 0, "policy",
                   "'" + name +
                       "' has none of compute_allocation(state), plan_round(state) (round "
                       "engine) or optimize(cluster) (interval engine)");
}

PolicyInfo Describe(const std::string& name, const std::string& context) {
  EnsureInterpreter();
  py::gil_scoped_acquire gil;
  py::object cls = ImportClass(name, context);
  PolicyInfo info;
  info.name = name;
  info.engine = EngineOf(cls, name, context);
  py::object doc = cls.attr("__doc__");
  if (!doc.is_none()) {
    std::string text = doc.cast<std::string>();
    const std::size_t start = text.find_first_not_of(" \n\t");
    text = start == std::string::npos ? "" : text.substr(start);
    info.description = text.substr(0, text.find('\n'));
  }
  return info;
}

PolicyInstance Make(const std::string& name, const nlohmann::json& options,
                    const std::string& context, std::uint64_t seed) {
  (void)seed;
  EnsureInterpreter();
  py::gil_scoped_acquire gil;
  EnsureView();
  py::object cls = ImportClass(name, context);
  const EngineKind engine = EngineOf(cls, name, context);
  // The options are the class's keyword arguments (the interval engine's options are the task's,
  // TaskConfig::interval, never in them).
  py::object policy;
  try {
    py::dict kwargs = py::module_::import("json").attr("loads")(options.dump());
    policy = cls(**kwargs);
  } catch (py::error_already_set& error) {
    ThrowPolicyError(error, name, "options");
  }
  if (engine == EngineKind::kInterval) {
    return PolicyInstance(MakePythonIntervalPolicy(std::move(policy), name));
  }
  if (py::hasattr(policy, "compute_allocation")) {
    return PolicyInstance(std::make_unique<PythonAllocationPolicy>(std::move(policy), name));
  }
  return PolicyInstance(std::make_unique<PythonRoundScheduler>(std::move(policy), name));
}

/// SHA-1 of the source file of the class's module, or of the class's source when the module has
/// no file (a notebook), or "" when neither exists (the interactive prompt); cached per name for
/// the process.
std::string Identity(const std::string& name) {
  static std::map<std::string, std::string> cache;
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  EnsureInterpreter();
  py::gil_scoped_acquire gil;
  py::object cls = ImportClass(name, "policy");
  std::string hash;
  try {
    py::object module = py::module_::import("sys").attr("modules")[cls.attr("__module__")];
    py::object hashlib = py::module_::import("hashlib");
    py::object file = py::getattr(module, "__file__", py::none());
    py::bytes bytes;
    if (!file.is_none()) {
      bytes = py::module_::import("pathlib").attr("Path")(file).attr("read_bytes")();
    } else {
      try {
        bytes = py::str(py::module_::import("inspect").attr("getsource")(cls)).attr("encode")();
      } catch (py::error_already_set&) {
        // No source at all (a class typed at the interactive prompt): the name alone identifies
        // the policy.
        cache[name] = "";
        return "";
      }
    }
    hash = "sha1:" + hashlib.attr("sha1")(bytes).attr("hexdigest")().cast<std::string>();
  } catch (py::error_already_set& error) {
    ThrowPolicyError(error, name, "source");
  }
  cache[name] = hash;
  return hash;
}

}  // namespace

std::string PythonPolicyName(const py::handle& cls) {
  return std::string(kScheme) + ":" + cls.attr("__module__").cast<std::string>() + ":" +
         cls.attr("__qualname__").cast<std::string>();
}

void RegisterPythonPolicies() {
  RegisterPolicyScheme(kScheme, PolicyScheme{Describe, Make, Identity});
}

}  // namespace adaptsim
