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

/// The production flags as a validated ProductionSource (docs/production.md).
ProductionSource ProductionFromFlags(const RunCommandOptions& options) {
  if (options.log_format.empty()) {
    throw InputError(kContext, 0, "--log-format", "required with --production-log");
  }
  ProductionSource source = options.production;
  source.format = ParseProductionLogFormat(options.log_format, kContext, 0, "--log-format");
  if (!options.gpu_time_buckets.empty()) {
    source.rule.buckets.clear();
    for (const std::string& text : options.gpu_time_buckets) {
      source.rule.buckets.push_back(ParseBucket(text));
    }
  }
  if (!options.mode_mix.empty()) source.rule.mode_mix = ParseMix<3>(options.mode_mix, "--mode-mix");
  return ProductionSource::FromJson(source.ToJson(), kContext);  // the task file's own checks
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
    notes.push_back("required");
  } else if (!std::isnan(field.default_number)) {
    notes.push_back("default " + NumberText(field.default_number) + seconds +
                    (field.default_doc.empty() ? "" : "; " + std::string(field.default_doc)));
  } else if (shown.is_number()) {
    notes.push_back("default " + NumberText(shown.get<double>()) + seconds);
  } else if (shown.is_string()) {
    notes.push_back("default " + shown.get<std::string>());
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

/// The production-log flags (docs/production.md), in their own help group.
void AddProductionOptions(CLI::App& cmd, RunCommandOptions& run) {
  const char* group = "Production job log (instead of --trace; docs/production.md)";
  ProductionSource& p = run.production;
  CLI::Option* log =
      cmd.add_option("--production-log", run.production_log,
                     "Philly or ITP job log (CSV, read unchanged) to simulate instead of a trace")
          ->group(group);
  std::vector<CLI::Option*> needs_log = {
      cmd.add_option("--log-format", run.log_format, "Format of the log (required with it)")
          ->check(CLI::IsMember({"philly", "itp"})),
      cmd.add_option("--window-start", p.select.window_start,
                     "Philly: window start 'YYYY-MM-DD HH:MM:SS' (overrides --window-start-s)"),
      cmd.add_option("--window-start-s", p.select.window_start_s,
                     "Window start in s from the log's origin (Philly: first timestamp; ITP: "
                     "collection start)")
          ->capture_default_str(),
      cmd.add_option("--window-length-s", p.select.window_length_s,
                     "Window length in s; jobs arriving in [start, start+length) (0 = to the end)")
          ->capture_default_str(),
      cmd.add_option("--virtual-cluster", p.select.virtual_clusters,
                     "Philly: keep this virtual cluster (repeatable; default all)")
          ->allow_extra_args(false),
      cmd.add_option("--min-duration-s", p.select.min_duration_s, "Keep jobs lasting >= this")
          ->capture_default_str(),
      cmd.add_flag("--pollux-filter", p.select.pollux_filter,
                   "The Pollux artifact's filter: duration >= 60 s and GPU time < 1000 h"),
      cmd.add_flag("--skip-unsimulable", p.select.skip_unsimulable,
                   "Skip and count jobs that cannot be simulated (more GPUs than --gpus, zero "
                   "duration, no model for the GPU count, under one step) instead of failing"),
      cmd.add_option("--sample-jobs", p.select.sample_jobs,
                     "Philly: draw this many jobs as the Pollux artifact samples a workload, from "
                     "every day, arriving at their time of day (0 = off; docs/production.md)")
          ->check(CLI::NonNegativeNumber)
          ->capture_default_str(),
      cmd.add_option("--sample-start-hour", p.select.sample_start_hour,
                     "With --sample-jobs: first hour of the day sampled")
          ->check(CLI::Range(0, 23))
          ->capture_default_str(),
      cmd.add_option("--sample-hours", p.select.sample_hours,
                     "With --sample-jobs: hours of the day sampled from the start hour")
          ->check(CLI::Range(1, 24))
          ->capture_default_str(),
      cmd.add_option("--model-seed", p.rule.seed,
                     "Seed of the model-assignment rule (independent of --seed)")
          ->capture_default_str(),
      cmd.add_option("--gpu-time-bucket", run.gpu_time_buckets,
                     "User mapping HOURS=MODEL[,MODEL...]: jobs with GPU time < HOURS draw from "
                     "these catalogue models; repeat with increasing bounds, the last 'inf' "
                     "(default: Pollux's buckets, docs/production.md)")
          ->allow_extra_args(false),
      cmd.add_option("--mode-mix", run.mode_mix,
                     "Probabilities static,accordion,gns of the jobs' adaptation mode (default "
                     "0,0.5,0.5)")};
  for (CLI::Option* option : needs_log) option->needs(log)->group(group);
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
  AddProductionOptions(*cmd, run);
  cmd->add_option("--out", run.out_path,
                  "Write the result to this HDF5 file (replaced atomically; its SHA-256 in "
                  "OUT.sha256)");
  cmd->add_flag("--force", run.force, "Overwrite --out if it exists");
  cmd->add_flag("--json", run.json, "Print JSON instead of text");
  cmd->add_flag("--jobs", run.jobs, "Also print the per-job table");
  commands.push_back({cmd, [options] { return RunCommand(*options); }});
}

}  // namespace adaptsim::app
