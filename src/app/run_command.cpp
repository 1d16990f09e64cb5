#include "run_command.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <variant>

#include <nlohmann/json.hpp>

#include "adaptsim/checksum.hpp"
#include "adaptsim/error.hpp"
#include "adaptsim/output_paths.hpp"
#include "adaptsim/registry.hpp"
#include "adaptsim/result_fields.hpp"
#include "adaptsim/store.hpp"
#include "adaptsim/task.hpp"
#include "adaptsim/task_fields.hpp"
#include "command.hpp"

namespace adaptsim::app {
namespace {

namespace fs = std::filesystem;
const char kContext[] = "command line";

/// An existing file as an absolute, normalized path (the same task gets the same id here and in
/// a sweep).
std::string ResolvePath(const std::string& path, const char* flag) {
  if (!fs::is_regular_file(path)) throw InputError(path, 0, flag, "file not found");
  return fs::absolute(path).lexically_normal().string();
}

/// "HOURS=MODEL[,MODEL...]" (HOURS a number or "inf") -> one GPU-time bucket.
GpuTimeBucket ParseBucket(const std::string& text) {
  const char* flag = "--gpu-time-bucket";
  const std::size_t eq = text.find('=');
  auto fail = [&] {
    throw InputError(kContext, 0, flag, "expected HOURS=MODEL[,MODEL...], got '" + text + "'");
  };
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) fail();
  GpuTimeBucket bucket;
  const std::string hours = text.substr(0, eq);
  if (hours == "inf") {
    bucket.max_gpu_time_h = std::numeric_limits<double>::infinity();
  } else {
    std::size_t used = 0;
    try {
      bucket.max_gpu_time_h = std::stod(hours, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != hours.size()) fail();
  }
  std::stringstream models(text.substr(eq + 1));
  for (std::string model; std::getline(models, model, ',');) {
    if (model.empty()) fail();
    bucket.models.push_back(model);
  }
  return bucket;
}

/// A production flag's texts as the JSON value its field reads (ReadFieldJson): the GPU-time
/// buckets parsed, a list of texts as a list, "S,A,G" as three numbers, a number parsed, a switch
/// as true, any other text as it is.
template <typename M>
nlohmann::json ProductionFlagJson(const std::vector<std::string>& texts, const std::string& flag) {
  if constexpr (std::is_same_v<M, std::vector<GpuTimeBucket>>) {
    std::vector<GpuTimeBucket> buckets;
    for (const std::string& text : texts) buckets.push_back(ParseBucket(text));
    return WriteFieldJson(buckets);
  } else if constexpr (std::is_same_v<M, std::vector<std::string>>) {
    return texts;
  } else if constexpr (std::is_same_v<M, std::array<double, 3>>) {
    return ParseMix<3>(texts.back(), flag.c_str());
  } else if constexpr (std::is_same_v<M, bool>) {
    return true;
  } else if constexpr (std::is_arithmetic_v<M>) {
    nlohmann::json parsed = nlohmann::json::parse(texts.back(), nullptr, false);
    return parsed.is_number() ? parsed : nlohmann::json(texts.back());
  } else {
    return texts.back();
  }
}

/// The production flags as a validated ProductionSource (docs/production.md): each given flag sets
/// its field over the defaults; an error names the flag.
ProductionSource ProductionFromFlags(const RunCommandOptions& options) {
  nlohmann::json given = nlohmann::json::object();
  std::map<std::string, std::string> flag_of;  // "production.KEY" -> its flag
  const ProductionSource defaults;
  VisitProductionSourceFields(defaults, [&](const ConfigField& field, const auto& member) {
    const std::string flag = FlagName(field);
    flag_of["production." + std::string(field.key)] = flag;
    auto texts = options.production.find(flag);
    if (texts == options.production.end() || texts->second.empty()) {
      if (field.required) throw InputError(kContext, 0, flag, "required with --production-log");
      return;
    }
    using Member = std::remove_cvref_t<decltype(member)>;
    given[std::string(field.key)] = ProductionFlagJson<Member>(texts->second, flag);
  });
  try {
    return ProductionSource::FromJson(WithDefaults(std::optional<ProductionSource>{}, given),
                                      kContext);
  } catch (const InputError& error) {
    auto flag = flag_of.find(error.field());
    if (flag == flag_of.end()) throw;
    const std::string text = error.what();
    const std::string prefix = error.file() + ": field '" + error.field() + "': ";
    throw InputError(kContext, 0, flag->second,
                     text.rfind(prefix, 0) == 0 ? text.substr(prefix.size()) : text);
  }
}

/// The task of the given flags: the task-configuration flags through the field list
/// (TaskConfigFromArguments), a production log as the trace.
TaskConfig MakeTask(const RunCommandOptions& options) {
  nlohmann::json arguments = nlohmann::json::object();
  for (const auto& [flag, text] : options.fields) arguments[flag] = text;
  arguments["--policy-option"] = options.policy_options;  // KEY=VALUE texts
  const bool log = !options.production_log.empty();
  if (log) {
    if (arguments.contains("--trace")) {
      throw InputError(kContext, 0, "--production-log", "give either --trace or --production-log");
    }
    arguments["--trace"] = ResolvePath(options.production_log, "--production-log");
  }
  TaskConfig task = TaskConfigFromArguments(arguments, ArgumentNames::kFlag, kContext);
  if (log) task.production = ProductionFromFlags(options);
  return task;
}

/// CLI11's name of a field's value in --help.
template <typename M>
std::string ValueName(const ConfigField& field) {
  if constexpr (ChoiceEnum<M>) {
    std::string names;
    for (const auto& [value, name] : EnumChoices(M{}))
      names += (names.empty() ? "" : "|") + std::string(name);
    return names;
  } else if constexpr (std::is_same_v<M, std::string>) {
    return field.text == TextKind::kPolicy ? "NAME"
           : field.text == TextKind::kText ? "TEXT"
                                           : "PATH";
  } else if constexpr (std::is_same_v<M, Cluster>) {
    return "TYPE=N,...";
  } else if constexpr (std::is_integral_v<M>) {
    return "INT";
  } else if constexpr (std::is_same_v<M, WrittenNumber>) {
    return field.range.integral ? "INT" : "NUMBER";
  } else if constexpr (requires(M m) { m.has_value(); }) {
    return ValueName<typename M::value_type>(field);
  } else {
    return "NUMBER";  // double, WrittenNumber
  }
}

/// A number as --help shows it (no trailing ".0").
std::string NumberText(double value) {
  std::string text = nlohmann::json(value).dump();
  if (text.size() > 2 && text.compare(text.size() - 2, 2, ".0") == 0) text.resize(text.size() - 2);
  return text;
}

/// --help of a field: its doc, then [required | default (with seconds); accepted values].
template <typename M>
std::string FieldHelp(const ConfigField& field, const M& default_value) {
  std::vector<std::string> notes;
  const nlohmann::json shown = WriteFieldJson(default_value);
  const std::string seconds = field.unit == "s" ? " s" : "";
  if (field.required) {
    const std::optional<ConfigField> instead = FieldInsteadOf(field.key);
    notes.push_back(instead ? "required unless " + FlagName(*instead) + " is given" : "required");
  } else if (!std::isnan(field.default_number)) {
    notes.push_back("default " + NumberText(field.default_number) + seconds +
                    (field.default_doc.empty() ? "" : "; " + std::string(field.default_doc)));
  } else if (shown.is_number()) {
    notes.push_back("default " + NumberText(shown.get<double>()) + seconds);
  } else if (shown.is_string() && !shown.get<std::string>().empty()) {
    notes.push_back("default " + shown.get<std::string>());
  } else if (!field.default_doc.empty()) {
    notes.push_back("default: " + std::string(field.default_doc));
  } else if (shown.is_array() && !shown.empty() && shown.front().is_number()) {
    std::string list;  // "0,0.5,0.5", as the flag is written
    for (const nlohmann::json& item : shown) {
      list += (list.empty() ? "" : ",") + NumberText(item.get<double>());
    }
    notes.push_back("default " + list);
  }
  if (const std::string range = field.range.Describe(); !range.empty()) notes.push_back(range);
  std::string text(field.doc);
  for (std::size_t i = 0; i < notes.size(); ++i) text += (i == 0 ? " [" : "; ") + notes[i];
  return notes.empty() ? text : text + "]";
}

/// The task-configuration flags, one per field of the field list with a flag
/// (adaptsim/task_fields.hpp): the task's own, then the interval engine's in their own group.
void AddTaskOptions(CLI::App& cmd, const std::shared_ptr<RunCommandOptions>& options) {
  const char* task_group = "Task configuration (also sweep keys, docs/sweeps.md §1)";
  std::string interval_policies;  // the table's policies of the interval engine
  for (const PolicyInfo& info : RegisteredPolicies()) {
    if (info.engine != EngineKind::kInterval) continue;
    interval_policies += (interval_policies.empty() ? "" : ", ") + info.name;
  }
  const std::string interval_group =
      "Interval engine (" + interval_policies + "; docs/pollux.md; unset = the engine's default)";
  const TaskConfig defaults;
  VisitTaskConfigFields(defaults, [&](const ConfigField& field, const auto& member) {
    using Member = std::remove_cvref_t<decltype(member)>;
    const std::string flag = FlagName(field);
    if (flag.empty()) return;
    CLI::Option* option = nullptr;
    if (field.key == kPolicyOptionsKey) {
      option = cmd.add_option(flag, options->policy_options,
                              std::string(field.doc) +
                                  "; one KEY=VALUE per flag, VALUE as JSON (0.5, true, [1, 2], "
                                  "\"text\"; Python's True/False/None accepted; other words are "
                                  "strings)")
                   ->allow_extra_args(false)
                   ->type_name("KEY=VALUE");
    } else {
      RunCommandOptions* run = options.get();
      option = cmd.add_option_function<std::string>(
                      flag, [run, flag](const std::string& text) { run->fields[flag] = text; },
                      FieldHelp(field, member))
                   ->type_name(ValueName<Member>(field));
    }
    option->group(field.applies == Applies::kIntervalEngineOnly ? interval_group : task_group);
  });
}

void PrintPolicies() {
  std::printf("Registered policies (options as --policy-option KEY=DEFAULT):\n");
  for (const PolicyInfo& info : RegisteredPolicies()) {
    std::printf("  %-22s %s\n", info.name.c_str(), info.description.c_str());
    for (const PolicyOption& option : info.options) {
      const std::string key = option.name + "=" + option.default_value.dump();
      std::printf("      %-30s %s\n", key.c_str(), option.doc.c_str());
    }
  }
#ifdef ADAPTSIM_WITH_PYTHON
  std::printf("  %-22s %s\n", "py:MODULE:CLASS",
              "a Python class on PYTHONPATH (options: --policy-option; docs/python.md)");
#endif
}

/// A result field as JSON: enumerations by their stored name.
template <typename T>
nlohmann::ordered_json FieldJson(const T& field) {
  if constexpr (std::is_enum_v<T>) {
    return std::string(ToString(field));
  } else {
    return field;
  }
}

/// A result field as text: strings as they are, other values as JSON.
template <typename T>
std::string FieldText(const T& field) {
  nlohmann::ordered_json json = FieldJson(field);
  return json.is_string() ? json.get<std::string>() : json.dump();
}

nlohmann::ordered_json MetricsJson(const SummaryMetrics& m) {
  nlohmann::ordered_json json = nlohmann::ordered_json::object();
  VisitMetricFields(
      m, [&](const char* name, const char*, const auto& f) { json[name] = FieldJson(f); });
  return json;
}

/// The job's fields (adaptsim/result_fields.hpp), the engine's name, then the engine's fields.
nlohmann::ordered_json JobJson(const JobResult& j) {
  nlohmann::ordered_json json = nlohmann::ordered_json::object();
  VisitJobFields(j,
                 [&](const char* name, const char*, const auto& f) { json[name] = FieldJson(f); });
  json["engine"] = std::visit([](const auto& e) { return std::string(e.kEngine); }, j.extras);
  VisitJobExtrasFieldsOf(
      j, [&](const char* name, const char*, const auto& f) { json[name] = FieldJson(f); });
  return json;
}

void PrintJson(const TaskConfig& task, const SimulationResult& result, bool jobs) {
  nlohmann::ordered_json out = {{"task_id", task.Id()},
                                {"config", nlohmann::ordered_json::parse(task.ToJson().dump())},
                                {"status", ToString(result.status)},
                                {"message", result.message},
                                {"wall_time_s", result.wall_time_s},
                                {"summary", MetricsJson(result.summary)},
                                {"policy_statistics", result.policy_statistics},
                                {"input_statistics", result.input_statistics}};
  out["gpu_types"] = nlohmann::ordered_json::array();
  for (const GpuTypeResult& type : result.gpu_types) {
    nlohmann::ordered_json row = nlohmann::ordered_json::object();
    VisitGpuTypeFields(
        type, [&](const char* name, const char*, const auto& f) { row[name] = FieldJson(f); });
    out["gpu_types"].push_back(row);
  }
  if (jobs) {
    out["jobs"] = nlohmann::ordered_json::array();
    for (const JobResult& job : result.jobs) out["jobs"].push_back(JobJson(job));
  }
  std::cout << out.dump(2) << "\n";
}

void PrintJobs(const std::vector<JobResult>& jobs) {
  std::printf("\n%6s %-16s %5s %5s %5s %10s %10s %10s %8s %6s %-10s", "job", "workload", "b0", "b",
              "gpus", "arrival_s", "jct_s", "excl_s", "ftf_rho", "rst", "outcome");
  auto extras = [](const char* name, const char*, const auto&) { std::printf(" %-12s", name); };
  if (!jobs.empty()) VisitJobExtrasFieldsOf(jobs.front(), extras);  // one engine per run
  std::printf("\n");
  for (const JobResult& j : jobs) {
    std::printf("%6d %-16.16s %5d %5d %5d %10.1f %10.1f %10.1f %8.3f %6d %-10s", j.id,
                j.workload.c_str(), j.initial_batch_size, j.final_batch_size, j.requested_gpus,
                j.arrival_time_s, j.jct_s, j.exclusive_time_s, j.ftf_rho, j.restarts,
                std::string(ToString(j.outcome)).c_str());
    VisitJobExtrasFieldsOf(j, [](const char*, const char*, const auto& f) {
      std::printf(" %-12s", FieldText(f).c_str());
    });
    std::printf("\n");
  }
}

void PrintText(const TaskConfig& task, const SimulationResult& result, bool jobs) {
  std::printf("task_id                   %s\n", task.Id().c_str());
  std::printf("status                    %s\n", std::string(ToString(result.status)).c_str());
  if (!result.message.empty())
    std::printf("message                   %s\n", result.message.c_str());
  const nlohmann::ordered_json metrics = MetricsJson(result.summary);
  for (const auto& [name, value] : metrics.items()) {
    std::printf("%-25s %s\n", name.c_str(), value.dump().c_str());
  }
  for (const auto& [name, value] : result.policy_statistics) {
    std::printf("%-25s %.6g\n", name.c_str(), value);
  }
  for (const auto& [name, value] : result.input_statistics) {
    std::printf("%-25s %lld\n", ("input." + name).c_str(), static_cast<long long>(value));
  }
  std::printf("%-25s %.3f\n", "wall_time_s", result.wall_time_s);
  if (result.gpu_types.size() > 1) {  // a mixed cluster: its row per GPU type
    for (const GpuTypeResult& type : result.gpu_types) {
      std::printf("%-25s", ("gpu_type." + type.gpu_type).c_str());
      VisitGpuTypeFields(type, [](const char* name, const char*, const auto& f) {
        if (std::string_view(name) != "gpu_type") std::printf(" %s=%s", name, FieldText(f).c_str());
      });
      std::printf("\n");
    }
  }
  if (jobs) PrintJobs(result.jobs);
}

/// Throws InputError (field --out) when `out` cannot be written: its folder is missing, it is a
/// folder, or it exists and --force was not given. Checked before the run and again before the
/// write.
void CheckOut(const RunCommandOptions& options, const OutputPaths& out) {
  out.CheckTarget();
  if (fs::exists(out.results()) && !options.force) {
    throw InputError(out.results(), 0, "--out", "file exists; pass --force to overwrite");
  }
}

/// The result as a one-task results file with its checksum file, published as a sweep publishes
/// its merged file (temporary name, fsync, rename; docs/sweeps.md §4.2).
void WriteOut(const RunCommandOptions& options, const OutputPaths& out, const TaskConfig& task,
              const SimulationResult& result) {
  CheckOut(options, out);
  WriteResultsWithChecksum(out, MakeTaskRecord(task, 0, result, 0),
                           Provenance{options.argv, 1, "", ""});
}

/// The production-log flags, one per field of VisitProductionSourceFields (docs/production.md),
/// in their own help group; each needs --production-log.
void AddProductionOptions(CLI::App& cmd, const std::shared_ptr<RunCommandOptions>& options) {
  const char* group = "Production job log (instead of --trace; docs/production.md)";
  CLI::Option* log =
      cmd.add_option("--production-log", options->production_log,
                     "Philly or ITP job log (CSV, read unchanged) to simulate instead of a trace")
          ->group(group);
  const ProductionSource defaults;
  VisitProductionSourceFields(defaults, [&](const ConfigField& field, const auto& member) {
    using Member = std::remove_cvref_t<decltype(member)>;
    const std::string flag = FlagName(field);
    RunCommandOptions* run = options.get();
    const std::string help = FieldHelp(field, member);
    CLI::Option* option = nullptr;
    if constexpr (std::is_same_v<Member, bool>) {
      option = cmd.add_flag_callback(
          flag, [run, flag] { run->production[flag] = {"true"}; }, help);
    } else if constexpr (std::is_same_v<Member, std::vector<std::string>> ||
                         std::is_same_v<Member, std::vector<GpuTimeBucket>>) {
      option = cmd.add_option_function<std::vector<std::string>>(
                      flag,
                      [run, flag](const std::vector<std::string>& texts) {
                        run->production[flag] = texts;
                      },
                      help + " (repeatable)")
                   ->allow_extra_args(false)
                   ->type_name(std::is_same_v<Member, std::vector<std::string>>
                                   ? "TEXT"
                                   : "HOURS=MODEL[,MODEL...]");
    } else {
      option =
          cmd.add_option_function<std::string>(
                 flag, [run, flag](const std::string& text) { run->production[flag] = {text}; },
                 help)
              ->type_name(std::is_same_v<Member, std::array<double, 3>> ? "S,A,G"
                                                                        : ValueName<Member>(field));
    }
    option->needs(log)->group(group);
  });
}

}  // namespace

int RunCommand(const RunCommandOptions& options) {
  if (auto policy = options.fields.find("--policy");
      policy != options.fields.end() && policy->second == "help") {
    PrintPolicies();
    return 0;
  }
  TaskConfig task = MakeTask(options);
  const std::optional<OutputPaths> out =
      options.out_path.empty() ? std::nullopt : std::make_optional(OutputPaths(options.out_path));
  if (out) CheckOut(options, *out);
  auto start = std::chrono::steady_clock::now();
  SimulationResult result = RunTask(task);
  if (result.wall_time_s <= 0.0) {
    result.wall_time_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  if (options.json) {
    PrintJson(task, result, options.jobs);
  } else {
    PrintText(task, result, options.jobs);
  }
  if (out) WriteOut(options, *out, task, result);
  return 0;
}

void AddRunCommand(CLI::App& app, const CommandContext& context, CommandList& commands) {
  auto options = std::make_shared<RunCommandOptions>();
  options->argv = context.argv;
  RunCommandOptions& run = *options;
  CLI::App* cmd = app.add_subcommand(
      "run",
      "Run one simulation in this process (no MPI). Every task-configuration flag is also a key "
      "of a sweep spec (docs/sweeps.md §1) and a keyword of the Python adaptsim.run "
      "(docs/python.md); --trace may be replaced by --production-log.");
  AddTaskOptions(*cmd, options);
  AddProductionOptions(*cmd, options);
  cmd->add_option("--out", run.out_path,
                  "Write the result to this HDF5 file (replaced atomically; its SHA-256 in "
                  "OUT.sha256)");
  cmd->add_flag("--force", run.force, "Overwrite --out if it exists");
  cmd->add_flag("--json", run.json, "Print JSON instead of text");
  cmd->add_flag("--jobs", run.jobs, "Also print the per-job table");
  commands.push_back({cmd, [options] { return RunCommand(*options); }});
}

}  // namespace adaptsim::app
