#include "run_command.hpp"

#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <variant>

#include <nlohmann/json.hpp>

#include "adaptsim/error.hpp"
#include "adaptsim/harness.hpp"
#include "adaptsim/registry.hpp"
#include "adaptsim/result_fields.hpp"
#include "adaptsim/store.hpp"
#include "adaptsim/task.hpp"
#include "command.hpp"

namespace adaptsim::app {
namespace {

namespace fs = std::filesystem;
const char kContext[] = "command line";

void RequireFlag(bool present, const char* flag) {
  if (!present) throw InputError(kContext, 0, flag, "required (see adaptsim run --help)");
}

/// One --policy-option value (docs/python.md §4): JSON (0.2, true, null, [1, 2], {"a": 1},
/// "text"); Python's True, False and None, as a Python user writes them, are true, false and null;
/// other text that is not JSON is a string (mode=fast, config=path/to/file.json), except text
/// that starts like JSON (a digit, a sign, [, { or ") and does not parse, which is refused with a
/// hint instead of silently becoming a string.
nlohmann::json ParsePolicyOptionValue(const std::string& key, const std::string& value) {
  if (value == "True") return true;
  if (value == "False") return false;
  if (value == "None") return nullptr;
  nlohmann::json parsed = nlohmann::json::parse(value, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_discarded()) return parsed;
  const bool looks_like_json =
      !value.empty() && (std::isdigit(static_cast<unsigned char>(value[0])) ||
                         std::string("[{\"+-").find(value[0]) != std::string::npos);
  if (!looks_like_json) return value;
  std::string hint = "JSON: a number, true/false/null, [1, 2], {\"key\": 1} or \"a string\"";
  if (value.find("True") != std::string::npos || value.find("False") != std::string::npos ||
      value.find("None") != std::string::npos) {
    hint += "; inside a list or object write true, false and null";
  }
  if (value.find('\'') != std::string::npos) hint += "; JSON strings use double quotes";
  throw InputError(kContext, 0, "--policy-option",
                   key + "=" + value + " is not valid " + hint + " (quote a string that starts " +
                       "like a number: " + key + "='\"" + value + "\"')");
}

/// "key=value" items -> {key: value} (ParsePolicyOptionValue).
nlohmann::json ParsePolicyOptions(const std::vector<std::string>& items) {
  nlohmann::json options = nlohmann::json::object();
  for (const std::string& item : items) {
    std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw InputError(kContext, 0, "--policy-option", "expected key=value, got '" + item + "'");
    }
    const std::string key = item.substr(0, eq);
    options[key] = ParsePolicyOptionValue(key, item.substr(eq + 1));
  }
  return options;
}

/// Absolute, normalized paths: the same task gets the same id here and in a sweep.
/// An existing file (or, with `allow_folder`, folder: a Pollux profile folder) as absolute path.
std::string ResolvePath(const std::string& path, const char* flag, bool allow_folder = false) {
  bool ok = fs::is_regular_file(path) || (allow_folder && fs::is_directory(path));
  if (!ok)
    throw InputError(path, 0, flag, allow_folder ? "file or folder not found" : "file not found");
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
  RequireFlag(!options.log_format.empty(), "--log-format");
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

TaskConfig MakeTask(const RunCommandOptions& options) {
  const bool log = !options.production_log.empty();
  if (log && !options.trace_path.empty()) {
    throw InputError(kContext, 0, "--production-log", "give either --trace or --production-log");
  }
  RequireFlag(log || !options.trace_path.empty(), "--trace");
  RequireFlag(!options.throughputs_path.empty(), "--throughputs");
  RequireFlag(options.num_gpus != 0, "--gpus");
  TaskConfig task;
  if (log) {
    task.trace_path = ResolvePath(options.production_log, "--production-log");
    task.production = ProductionFromFlags(options);
  } else {
    task.trace_path = ResolvePath(options.trace_path, "--trace");
  }
  task.throughputs_path = ResolvePath(options.throughputs_path, "--throughputs", true);
  task.policy = options.policy;
  task.seed = options.seed;
  task.simulation.num_gpus = options.num_gpus;
  task.simulation.round_duration_s = options.round_duration_s;
  task.simulation.deadline_factor = options.deadline_factor;
  task.simulation.idle_round_start = ParseIdleRoundStart(options.idle_round_start);
  task.policy_options = ParsePolicyOptions(options.policy_options);
  FillContentHashes(task);  // the id names the data by content, as in a sweep
  return task;
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

void WriteResults(const RunCommandOptions& options, const TaskConfig& task,
                  const SimulationResult& result) {
  if (fs::exists(options.out_path) && !options.force) {
    throw InputError(options.out_path, 0, "--out", "file exists; pass --force to overwrite");
  }
  ResultsFile file = ResultsFile::Create(options.out_path, Provenance{options.argv, 1, "", ""});
  file.Append(MakeTaskRecord(task, 0, result, 0));
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
  if (options.policy == "help") {
    PrintPolicies();
    return 0;
  }
  RequireFlag(!options.policy.empty(), "--policy");
  TaskConfig task = MakeTask(options);
  if (!options.out_path.empty() && fs::exists(options.out_path) && !options.force) {
    throw InputError(options.out_path, 0, "--out", "file exists; pass --force to overwrite");
  }
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
  if (!options.out_path.empty()) WriteResults(options, task, result);
  return 0;
}

void AddRunCommand(CLI::App& app, const CommandContext& context, CommandList& commands) {
  auto options = std::make_shared<RunCommandOptions>();
  options->argv = context.argv;
  RunCommandOptions& run = *options;
  CLI::App* cmd = app.add_subcommand("run", "Run one simulation in this process (no MPI)");
  cmd->add_option("--trace", run.trace_path, "Job trace (.trace) or Pollux workload (.csv)");
  AddProductionOptions(*cmd, run);
  cmd->add_option("--throughputs", run.throughputs_path,
                  "Throughputs JSON, catalogue TOML, or Pollux profile folder (.csv workloads)");
  cmd->add_option("--policy", run.policy,
                  "Policy name, or py:MODULE:CLASS for a Python class; 'help' lists them");
  cmd->add_option("--gpus", run.num_gpus, "Number of GPUs")->check(CLI::Range(1, 1 << 20));
  cmd->add_option("--seed", run.seed, "Seed of the task's random streams")->capture_default_str();
  cmd->add_option("--round-duration-s", run.round_duration_s, "Round length in seconds")
      ->capture_default_str();
  cmd->add_option("--deadline-factor", run.deadline_factor, "Deadline factor (>= 1)")
      ->capture_default_str();
  cmd->add_option("--idle-round-start", run.idle_round_start,
                  "Round start after an idle gap: 'reference' (kept stale, as the reference "
                  "simulator) or 'arrival' (docs/production.md)")
      ->check(CLI::IsMember({"reference", "arrival"}))
      ->capture_default_str();
  cmd->add_option("--policy-option", run.policy_options,
                  "Policy option KEY=VALUE, VALUE as JSON (0.5, true, [1, 2], \"text\"; Python's "
                  "True/False/None accepted; other words are strings); repeatable")
      ->allow_extra_args(false);
  cmd->add_option("--out", run.out_path, "Write the result to this HDF5 file");
  cmd->add_flag("--force", run.force, "Overwrite --out if it exists");
  cmd->add_flag("--json", run.json, "Print JSON instead of text");
  cmd->add_flag("--jobs", run.jobs, "Also print the per-job table");
  commands.push_back({cmd, [options] { return RunCommand(*options); }});
}

}  // namespace adaptsim::app
