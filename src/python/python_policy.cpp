// The "py" policy scheme: Python classes as round- and interval-engine policies
// (adaptsim/python_policy.hpp).
#include "adaptsim/python_policy.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <pybind11/embed.h>
#include <pybind11/stl.h>

#include "adaptsim/cluster.hpp"
#include "adaptsim/cluster_state.hpp"
#include "adaptsim/interval_policy.hpp"
#include "adaptsim/policy.hpp"
#include "adaptsim/registry.hpp"
#include "python_adapters.hpp"

namespace py = pybind11;

namespace adaptsim {
namespace {

constexpr char kScheme[] = "py";

/// The interpreter the command line embeds, as the path Python computes its prefix and
/// site-packages from: the interpreter the build is for (ADAPTSIM_PYTHON_EXECUTABLE, CMake's
/// Python_EXECUTABLE), or, inside an activated virtual environment made from it ($VIRTUAL_ENV
/// whose pyvenv.cfg `home` holds that interpreter), the environment's python, so that its
/// packages import. Never the first `python3` on PATH, which Python would otherwise take: a pyenv
/// or conda one there would give the build's libpython another Python's standard library
/// (docs/python.md §4).
std::string EmbeddedProgram() {
  namespace fs = std::filesystem;
  const fs::path built_for = ADAPTSIM_PYTHON_EXECUTABLE;
  const char* venv = std::getenv("VIRTUAL_ENV");
  if (venv == nullptr || *venv == '\0') return built_for.string();
  std::ifstream config(fs::path(venv) / "pyvenv.cfg");
  std::error_code error;
  for (std::string line; std::getline(config, line);) {
    const std::size_t eq = line.find('=');
    if (eq == std::string::npos || line.substr(0, line.find_first_of(" =")) != "home") continue;
    const std::size_t start = line.find_first_not_of(' ', eq + 1);
    const fs::path home = start == std::string::npos ? "" : line.substr(start);
    if (fs::equivalent(home / built_for.filename(), built_for, error)) {
      return (fs::path(venv) / "bin" / built_for.filename()).string();
    }
  }
  return built_for.string();
}

/// Starts an interpreter when the process has none (the command line), as pybind11 does but for
/// EmbeddedProgram(); inside the Python module one already runs. It lives until the process ends.
void EnsureInterpreter() {
  if (Py_IsInitialized()) return;
  PyConfig config;
  PyConfig_InitIsolatedConfig(&config);  // pybind11's defaults: environment on, not isolated
  config.isolated = 0;
  config.use_environment = 1;
  config.install_signal_handlers = 1;
  const std::string program = EmbeddedProgram();
  PyStatus status = PyConfig_SetBytesString(&config, &config.program_name, program.c_str());
  if (PyStatus_Exception(status)) {
    PyConfig_Clear(&config);
    throw std::runtime_error("cannot start Python " + program);
  }
  py::initialize_interpreter(&config);
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

/// The formatted traceback of the exception being handled (as Python prints it, without the
/// last line break).
std::string Traceback(py::error_already_set& error) {
  std::string text;
  try {
    py::object format = py::module_::import("traceback").attr("format_exception");
    py::list lines = format(error.type(), error.value(), error.trace());
    for (py::handle line : lines) text += line.cast<std::string>();
  } catch (...) {
    text = error.what();
  }
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

}  // namespace

[[noreturn]] void ThrowPolicyError(py::error_already_set& error, const std::string& name,
                                   const std::string& method, const std::string& what) {
  throw PolicyError(name, method, what + ":\n" + Traceback(error));
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
    ThrowPolicyError(
        error, name, "import",
        "importing " + parsed.qualname + " from module '" + parsed.module + "' raised");
  }
}

bool BoolAttribute(const py::object& object, const char* attribute) {
  return py::hasattr(object, attribute) && py::bool_(object.attr(attribute));
}

/// " in round N" of a round-engine decision.
std::string InRound(const ClusterState& state) {
  return " in round " + std::to_string(state.round_index);
}

/// The cluster's GPU types as the message names them ("p100=2,v100=2"; "32" for 32 GPUs of the
/// default type).
std::string TypesText(const ClusterState& state) {
  return state.cluster != nullptr ? state.cluster->ToString() : std::to_string(state.num_gpus);
}

int NumGpuTypes(const ClusterState& state) {
  return state.cluster != nullptr ? state.cluster->num_types() : 1;
}

/// The type index of a GPU type name a policy returned (ClusterState::cluster), or nullopt when
/// `name` is not a str or names no type of the cluster.
std::optional<int> GpuTypeIndex(const ClusterState& state, py::handle name) {
  if (!py::isinstance<py::str>(name)) return std::nullopt;
  const std::string text = name.cast<std::string>();
  if (state.cluster != nullptr) return state.cluster->IndexOf(text);
  if (text == Cluster::kDefaultGpuType) return 0;
  return std::nullopt;
}

/// AllocationPolicy over a Python object's compute_allocation(state) -> {job id: time fraction}
/// or {job id: {GPU type: time fraction}} (required on a cluster of several types). Wrong types
/// and unknown GPU types are refused here; ids that are not active and fractions outside [0, 1],
/// NaN or infinite are refused by the Gavel mechanism (CheckAllocation), as for C++ policies.
class PythonAllocationPolicy final : public AllocationPolicy {
 public:
  PythonAllocationPolicy(py::object policy, std::string name)
      : policy_(std::move(policy)), name_(std::move(name)) {
    traits_.skip_nonpositive_priority = BoolAttribute(policy_, "skip_nonpositive_priority");
    traits_.stop_at_first_misfit = BoolAttribute(policy_, "stop_at_first_misfit");
    traits_.shuffle_gpu_type_order = BoolAttribute(policy_, "shuffle_gpu_type_order");
    traits_.several_gpu_types = true;
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
    py::object result;
    try {
      result = method_(py::cast(&state, py::return_value_policy::reference));
    } catch (py::error_already_set& error) {
      ThrowPolicyError(error, name_, kMethod, std::string(kMethod) + " raised" + InRound(state));
    }
    if (!py::isinstance<py::dict>(result)) {
      Refuse(state, "returned " + PythonValueText(result),
             std::string("it returns a dict {job id: time fraction in [0, 1]}") +
                 (py::isinstance<py::list>(result) || py::isinstance<py::tuple>(result)
                      ? " (a list of job ids is what plan_round returns)"
                      : ""));
    }
    const int num_types = NumGpuTypes(state);
    Allocation allocation;
    for (auto [key, value] : py::reinterpret_borrow<py::dict>(result)) {
      const std::optional<int> id = PythonId(key);
      if (!id) Refuse(state, "returned the key " + PythonValueText(key), "job ids are ints");
      const std::string job = " for job " + std::to_string(*id);
      if (!py::isinstance<py::dict>(value)) {
        if (num_types > 1) {
          Refuse(state, "returned " + PythonValueText(value) + job,
                 "on a cluster of several GPU types (" + TypesText(state) +
                     ") a job's allocation is {GPU type: time fraction}");
        }
        allocation.time_fraction[*id] = Fraction(state, value, job);
        continue;
      }
      std::vector<double> fractions(num_types, 0.0);
      for (auto [type, x] : py::reinterpret_borrow<py::dict>(value)) {
        const std::optional<int> k = GpuTypeIndex(state, type);
        if (!k) {
          Refuse(state, "returned the GPU type " + PythonValueText(type) + job,
                 "the cluster's GPU types are " + TypesText(state) + " (state.gpu_types)");
        }
        fractions[*k] = Fraction(state, x, job + " on GPU type " + type.cast<std::string>());
      }
      allocation.time_fraction_by_type[*id] = std::move(fractions);
    }
    // One type: both forms are that type's fractions.
    if (num_types == 1) {
      for (const auto& [id, fractions] : allocation.time_fraction_by_type) {
        allocation.time_fraction[id] = fractions[0];
      }
      allocation.time_fraction_by_type.clear();
    }
    return allocation;
  }

 private:
  static constexpr char kMethod[] = "compute_allocation";
  [[noreturn]] void Refuse(const ClusterState& state, const std::string& what,
                           const std::string& hint) const {
    throw PolicyError(name_, kMethod,
                      std::string(kMethod) + " " + what + InRound(state) + "; " + hint);
  }
  double Fraction(const ClusterState& state, py::handle value, const std::string& job) const {
    const std::optional<double> x = PythonReal(value);
    if (!x) {
      Refuse(state, "returned " + PythonValueText(value) + job,
             "a time fraction is a number in [0, 1]");
    }
    return *x;
  }

  py::object policy_;
  py::object method_;
  std::string name_;
  AllocationPolicyTraits traits_;
};

/// RoundScheduler over a Python object's plan_round(state) -> [job id or (job id, GPU type), …]
/// (a GPU type per job is required on a cluster of several types). Wrong types and unknown GPU
/// types are refused here; unknown or repeated ids and plans over a type's capacity by the engine
/// (CheckRoundPlan), as for C++ policies.
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
  bool SupportsSeveralGpuTypes() const override { return true; }
  RoundPlan PlanRound(const ClusterState& state) override {
    py::gil_scoped_acquire gil;
    py::object result;
    try {
      result = method_(py::cast(&state, py::return_value_policy::reference));
    } catch (py::error_already_set& error) {
      ThrowPolicyError(error, name_, kMethod, std::string(kMethod) + " raised" + InRound(state));
    }
    if (!IsSequence(result)) {
      Refuse(state, "returned " + PythonValueText(result),
             std::string("it returns a list of job ids") +
                 (py::isinstance<py::dict>(result)
                      ? " (a dict {job id: time fraction} is what compute_allocation returns)"
                      : ""));
    }
    const bool several_types = NumGpuTypes(state) > 1;
    const std::string pair_hint =
        "(job id, GPU type) with a type of state.gpu_types (" + TypesText(state) + ")";
    RoundPlan plan;
    for (py::handle item : result) {
      const std::string at = " at position " + std::to_string(plan.jobs.size());
      py::object job = py::reinterpret_borrow<py::object>(item);
      py::object type;
      const bool pair = IsSequence(item);
      if (pair) {
        const auto entry = py::reinterpret_borrow<py::sequence>(item);
        if (py::len(entry) != 2) {
          Refuse(state, "returned " + PythonValueText(item) + at,
                 "an entry is a job id or a pair " + pair_hint);
        }
        job = entry[0];
        type = entry[1];
      }
      const std::optional<int> id = PythonId(job);
      if (!id) Refuse(state, "returned " + PythonValueText(item) + at, "job ids are ints");
      PlannedJob planned{*id, {}};
      if (pair) {
        const std::optional<int> k = GpuTypeIndex(state, type);
        if (!k) {
          Refuse(state, "put job " + std::to_string(*id) + " on GPU type " + PythonValueText(type),
                 "the cluster's GPU types are " + TypesText(state) + " (state.gpu_types)");
        }
        planned.gpu_type = *k;
      } else if (several_types) {
        Refuse(state, "named job " + std::to_string(*id) + " without a GPU type",
               "on a cluster of several GPU types each entry is a pair " + pair_hint);
      }
      plan.jobs.push_back(std::move(planned));
    }
    return plan;
  }

 private:
  static constexpr char kMethod[] = "plan_round";
  static bool IsSequence(const py::handle& value) {
    return py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value);
  }
  [[noreturn]] void Refuse(const ClusterState& state, const std::string& what,
                           const std::string& hint) const {
    throw PolicyError(name_, kMethod,
                      std::string(kMethod) + " " + what + InRound(state) + "; " + hint);
  }

  py::object policy_;
  py::object method_;
  std::string name_;
};

/// The engine a Python policy class runs on: optimize(cluster) -> the interval engine;
/// compute_allocation(state) or plan_round(state) -> the round engine. Throws PolicyError (method
/// "class") for a class with none of them or with more than one (which one would run is not the
/// user's to guess).
EngineKind EngineOf(const py::object& cls, const std::string& name) {
  const char* kMethods[] = {"compute_allocation", "plan_round", "optimize"};
  std::vector<std::string> defined;
  for (const char* method : kMethods) {
    if (py::hasattr(cls, method)) defined.push_back(method);
  }
  const std::string kinds =
      "compute_allocation(state) (time fractions for the Gavel mechanism), plan_round(state) "
      "(each round's jobs) or optimize(cluster) (the interval engine)";
  if (defined.empty()) throw PolicyError(name, "class", "the class defines none of " + kinds);
  if (defined.size() > 1) {
    throw PolicyError(name, "class",
                      "the class defines both " + defined[0] + " and " + defined[1] +
                          "; a policy implements exactly one of " + kinds);
  }
  return defined[0] == "optimize" ? EngineKind::kInterval : EngineKind::kRound;
}

PolicyInfo Describe(const std::string& name, const std::string& context) {
  EnsureInterpreter();
  py::gil_scoped_acquire gil;
  py::object cls = ImportClass(name, context);
  PolicyInfo info;
  info.name = name;
  info.engine = EngineOf(cls, name);
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
  const EngineKind engine = EngineOf(cls, name);
  // The options are the class's keyword arguments (the interval engine's options are the task's,
  // TaskConfig::interval, never in them).
  py::object policy;
  try {
    py::dict kwargs = py::module_::import("json").attr("loads")(options.dump());
    policy = cls(**kwargs);
  } catch (py::error_already_set& error) {
    ThrowPolicyError(error, name, "options",
                     "constructing " + Parse(name, context).qualname + "(**options) with options " +
                         options.dump() + " raised");
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
    ThrowPolicyError(error, name, "source", "reading the policy's source raised");
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
