// adaptsim._core: the C++ side of the `adaptsim` Python package (python/adaptsim/__init__.py
// wraps it; docs/python.md). Results cross as plain dicts of column lists named by the result
// field lists (adaptsim/result_fields.hpp); the package turns them into pandas DataFrames.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <variant>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "adaptsim/catalogue_throughput.hpp"
#include "adaptsim/checksum.hpp"
#include "adaptsim/error.hpp"
#include "adaptsim/labels.hpp"
#include "adaptsim/output_paths.hpp"
#include "adaptsim/python_policy.hpp"
#include "adaptsim/registry.hpp"
#include "adaptsim/result_fields.hpp"
#include "adaptsim/store.hpp"
#include "adaptsim/task.hpp"
#include "adaptsim/task_fields.hpp"
#include "adaptsim/trace_generator.hpp"
#include "adaptsim/view_fields.hpp"
#include "adaptsim/workload.hpp"

namespace py = pybind11;

namespace adaptsim {
namespace {

/// A field as a Python value: enumerations by their stored name.
template <typename T>
py::object FieldObject(const T& field) {
  if constexpr (std::is_enum_v<T>) {
    return py::str(std::string(ToString(field)));
  } else {
    return py::cast(field);
  }
}

/// Appends `value` to columns[name] (created on first use).
void Append(py::dict& columns, const char* name, const py::object& value) {
  if (!columns.contains(name)) columns[name] = py::list();
  columns[name].cast<py::list>().append(value);
}

py::dict SummaryDict(const SummaryMetrics& metrics) {
  py::dict summary;
  VisitMetricFields(metrics, [&](const char* name, const char*, const auto& field) {
    summary[name] = FieldObject(field);
  });
  return summary;
}

/// {column: [values]} over the jobs: the job fields, "engine", then the engine's fields.
py::dict JobColumns(const std::vector<JobResult>& jobs) {
  py::dict columns;
  for (const JobResult& job : jobs) {
    VisitJobFields(job, [&](const char* name, const char*, const auto& field) {
      Append(columns, name, FieldObject(field));
    });
    Append(columns, "engine",
           py::str(std::visit([](const auto& e) { return std::string(e.kEngine); }, job.extras)));
    VisitJobExtrasFieldsOf(job, [&](const char* name, const char*, const auto& field) {
      Append(columns, name, FieldObject(field));
    });
  }
  return columns;
}

/// {column: [values]} over the rounds: the round fields, then running_job_ids (a list per row) and
/// worker_ids (per running job, the list of its GPUs' worker ids).
py::dict RoundColumns(const std::vector<RoundResult>& rounds) {
  py::dict columns;
  for (const RoundResult& round : rounds) {
    VisitRoundFields(round, [&](const char* name, const char*, const auto& field) {
      Append(columns, name, FieldObject(field));
    });
    Append(columns, "running_job_ids", py::cast(round.running_job_ids));
    Append(columns, "worker_ids", py::cast(round.worker_ids));
  }
  return columns;
}

/// {column: [values]} over the GPU types of the cluster (docs/results-format.md, `gpu_types`).
py::dict GpuTypeColumns(const std::vector<GpuTypeResult>& gpu_types) {
  py::dict columns;
  for (const GpuTypeResult& type : gpu_types) {
    VisitGpuTypeFields(type, [&](const char* name, const char*, const auto& field) {
      Append(columns, name, FieldObject(field));
    });
  }
  return columns;
}

/// {column: units} of the job and round fields (the units the result field lists declare).
py::dict Units() {
  py::dict units;
  JobResult job;
  VisitJobFields(job, [&](const char* name, const char* unit, const auto&) { units[name] = unit; });
  ForEachJobExtrasKind([&](auto extras) {
    VisitJobExtrasFields(
        extras, [&](const char* name, const char* unit, const auto&) { units[name] = unit; });
  });
  RoundResult round;
  VisitRoundFields(round,
                   [&](const char* name, const char* unit, const auto&) { units[name] = unit; });
  SummaryMetrics metrics;
  VisitMetricFields(metrics,
                    [&](const char* name, const char* unit, const auto&) { units[name] = unit; });
  GpuTypeResult type;
  VisitGpuTypeFields(type,
                     [&](const char* name, const char* unit, const auto&) { units[name] = unit; });
  return units;
}

py::dict ResultDict(const std::string& task_id, const std::string& config_json,
                    const SimulationResult& result) {
  py::dict out;
  out["task_id"] = task_id;
  out["config"] = config_json;
  out["status"] = std::string(ToString(result.status));
  out["message"] = result.message;
  out["wall_time_s"] = result.wall_time_s;
  out["summary"] = SummaryDict(result.summary);
  out["policy_statistics"] = py::cast(result.policy_statistics);
  out["jobs"] = JobColumns(result.jobs);
  out["rounds"] = RoundColumns(result.rounds);
  out["gpu_types"] = GpuTypeColumns(result.gpu_types);
  return out;
}

/// Runs one task from the keyword arguments of adaptsim.run as a JSON object (the field list's
/// keywords, every other key a policy option: TaskConfigFromArguments); writes it to `out_path`
/// when non-empty, as `adaptsim run --out` does (atomically, with `out_path.sha256`). Bad input
/// raises adaptsim.InputError, a policy's exception adaptsim.PolicyError.
py::dict Run(const std::string& arguments_json, const std::string& out_path) {
  const TaskConfig task = TaskConfigFromArguments(nlohmann::json::parse(arguments_json),
                                                  ArgumentNames::kKeyword, "adaptsim.run");
  SimulationResult result = RunTask(task);
  if (!out_path.empty()) {
    WriteResultsWithChecksum(OutputPaths(out_path), MakeTaskRecord(task, 0, result, 0),
                             Provenance{{"adaptsim.run"}, 1, "", ""});
  }
  return ResultDict(task.Id(), task.ToJson().dump(), result);
}

/// The /summary rows of the results file `path`, after checking it against `path.sha256` when it
/// has one (a file altered on disk raises adaptsim.StoreError instead of reaching HDF5).
py::list Summary(const std::string& path) {
  RequireMatchingChecksum(OutputPaths(path));
  py::list rows;
  for (const SummaryRow& row : ReadSummary(path)) {
    py::dict out;
    VisitSummaryColumns(row, [&](const char* name, const char*, const auto& field) {
      out[name] = FieldObject(field);
    });
    rows.append(out);
  }
  return rows;
}

/// One task of the results file `path`; adaptsim.read() checks the file with Summary first.
py::dict Task(const std::string& path, const std::string& task_id) {
  StoredTask task = ReadTask(path, task_id);
  SimulationResult result = task.result;
  result.status = task.status;
  result.message = task.message;
  return ResultDict(task.task_id, task.config_json, result);
}

/// The task configuration's fields that are keywords of adaptsim.run, in declaration order:
/// {"name": keyword, "key": canonical key, "unit", "doc", "default": JSON text ("null" = none of
/// its own), "default_doc", "range", "required", "interval_engine_only"}.
py::list ConfigFields() {
  py::list out;
  const TaskConfig defaults;
  VisitTaskConfigFields(defaults, [&](const ConfigField& field, const auto& member) {
    const std::string name = KwargName(field);
    if (name.empty()) return;
    py::dict entry;
    entry["name"] = name;
    entry["key"] = std::string(field.key);
    entry["unit"] = std::string(field.unit);
    entry["doc"] = std::string(field.doc);
    nlohmann::json value = WriteFieldJson(member);
    if (!std::isnan(field.default_number)) value = field.default_number;
    entry["default"] = field.required ? std::string("null") : value.dump();
    entry["default_doc"] = std::string(field.default_doc);
    entry["range"] = field.range.Describe();
    entry["required"] = field.required;
    entry["interval_engine_only"] = field.applies == Applies::kIntervalEngineOnly;
    out.append(entry);
  });
  return out;
}

py::list Policies() {
  py::list out;
  for (const PolicyInfo& info : RegisteredPolicies()) {
    py::dict entry;
    entry["name"] = info.name;
    entry["engine"] = std::string(ToString(info.engine));
    entry["description"] = info.description;
    py::list options;
    for (const PolicyOption& option : info.options) {
      py::dict o;
      o["name"] = option.name;
      o["default"] = option.default_value.dump();  // JSON text; the package decodes it
      o["doc"] = option.doc;
      options.append(o);
    }
    entry["options"] = options;
    out.append(entry);
  }
  return out;
}

/// {view class name: [(field, units, meaning), ...]} of adaptsim/view_fields.hpp, in declaration
/// order (the documentation test compares docs/python.md with it).
py::dict ViewFields() {
  py::dict views;
  ForEachView([&](const char* view, auto type) {
    py::list fields;
    VisitViewFields(type, [&](const char* name, const char* units, const char* meaning, auto) {
      fields.append(py::make_tuple(name, units, meaning));
    });
    views[view] = fields;
  });
  return views;
}

std::string PolicyName(const py::object& cls) {
  return PythonPolicyName(cls);
}

std::string PolicyIdentityOf(const std::string& name) {
  return PolicyIdentity(name);
}

void GenerateTraceFile(const TraceGeneratorOptions& options, const std::string& throughputs_path,
                       const std::string& out_path) {
  std::vector<ModelInfo> model_infos = ModelCatalogue();
  std::unique_ptr<ThroughputSource> source;
  if (std::filesystem::path(throughputs_path).extension() == ".toml") {
    auto catalogue = std::make_unique<models::CatalogueThroughput>(
        models::CatalogueThroughput::Read(throughputs_path));
    model_infos = catalogue->catalogue().WorkloadModels();
    source = std::move(catalogue);
  } else {
    source = std::make_unique<ThroughputTable>(ThroughputTable::ReadJson(throughputs_path));
  }
  Trace trace = GenerateTrace(options, model_infos, *source);
  std::ostringstream text;
  WriteTrace(text, trace);
  std::ofstream out(out_path, std::ios::binary | std::ios::trunc);
  if (!(out << text.str()) || !out.flush()) {
    throw InputError(out_path, 0, "out", "cannot write the trace");
  }
}

}  // namespace
}  // namespace adaptsim

PYBIND11_MODULE(_core, m) {
  using namespace adaptsim;
  m.doc() = "C++ core of the adaptsim package (use the functions of `adaptsim`).";
  RegisterPythonPolicies();
  BindPolicyView(m);

  // InputError -> adaptsim.InputError(message, file, line, field); PolicyError ->
  // adaptsim.PolicyError (a subclass; file = the policy, field = the method). The Python classes
  // are defined in adaptsim/errors.py.
  static py::object input_error, policy_error, store_error;
  py::module_ errors = py::module_::import("adaptsim.errors");
  input_error = errors.attr("InputError");
  policy_error = errors.attr("PolicyError");
  store_error = errors.attr("StoreError");
  py::register_exception_translator([](std::exception_ptr pointer) {
    try {
      if (pointer) std::rethrow_exception(pointer);
    } catch (const PolicyError& error) {
      py::object value = policy_error(error.what(), error.file(), error.line(), error.field());
      PyErr_SetObject(policy_error.ptr(), value.ptr());
    } catch (const InputError& error) {
      py::object value = input_error(error.what(), error.file(), error.line(), error.field());
      PyErr_SetObject(input_error.ptr(), value.ptr());
    } catch (const StoreError& error) {
      PyErr_SetString(store_error.ptr(), error.what());
    }
  });

  py::class_<TraceGeneratorOptions>(m, "TraceGeneratorOptions")
      .def(py::init<>())
      .def_readwrite("num_jobs", &TraceGeneratorOptions::num_jobs)
      .def_readwrite("lam_s", &TraceGeneratorOptions::lam_s)
      .def_readwrite("seed", &TraceGeneratorOptions::seed)
      .def_readwrite("min_duration_h", &TraceGeneratorOptions::min_duration_h)
      .def_readwrite("max_duration_h", &TraceGeneratorOptions::max_duration_h)
      .def_readwrite("num_durations", &TraceGeneratorOptions::num_durations)
      .def_readwrite("duration_mix", &TraceGeneratorOptions::duration_mix)
      .def_readwrite("mode_mix", &TraceGeneratorOptions::mode_mix)
      .def_readwrite("scale_factor_mix", &TraceGeneratorOptions::scale_factor_mix)
      .def_readwrite("accordion_min_duration_s", &TraceGeneratorOptions::accordion_min_duration_s);

  m.def("run", &Run, py::arg("arguments_json"), py::arg("out_path") = "");
  m.def("summary", &Summary, py::arg("path"));
  m.def("task", &Task, py::arg("path"), py::arg("task_id"));
  m.def("policies", &Policies);
  m.def("config_fields", &ConfigFields);
  m.def("units", &Units);
  m.def("view_fields", &ViewFields);
  m.def("policy_name", &PolicyName, py::arg("cls"));
  m.def("policy_identity", &PolicyIdentityOf, py::arg("name"));
  m.def("labels_text", [] { return std::string(BuiltinLabelsText()); });
  m.def("generate_trace", &GenerateTraceFile, py::arg("options"), py::arg("throughputs"),
        py::arg("out"));
}
