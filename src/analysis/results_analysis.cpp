// The tables and labels of `adaptsim report` and analysis/figures.py, computed once
// (include/adaptsim/results_analysis.hpp, docs/analysis.md).
#include "adaptsim/results_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <set>
#include <tuple>
#include <type_traits>
#include <utility>

#include "adaptsim/checksum.hpp"
#include "adaptsim/labels.hpp"
#include "adaptsim/metrics.hpp"
#include "adaptsim/output_paths.hpp"
#include "adaptsim/result_fields.hpp"
#include "adaptsim/store.hpp"

namespace adaptsim {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// An ok task and the file it was read from.
struct FileRow {
  std::string file;
  SummaryRow row;
  nlohmann::json options;  ///< policy options (an object; {} when none or unparsable)
};

std::string TraceStem(const SummaryRow& row) {
  return std::filesystem::path(row.trace).stem().string();
}

nlohmann::json Options(const SummaryRow& row) {
  nlohmann::json options = nlohmann::json::parse(row.policy_options, nullptr, false);
  return options.is_object() ? options : nlohmann::json::object();
}

/// VariedOptions of `rows` (scenario = trace and cluster size).
std::map<std::string, std::set<std::string>> Varied(const std::vector<const FileRow*>& rows) {
  std::vector<LabelledTask> tasks;
  for (const FileRow* r : rows) {
    tasks.push_back(
        {r->row.policy, r->row.trace + "|" + std::to_string(r->row.num_gpus), r->options});
  }
  return VariedOptions(tasks);
}

/// The value of SummaryMetrics field `name` (result_fields.hpp).
double Metric(const SummaryMetrics& metrics, const std::string& name) {
  double value = kNaN;
  VisitMetricFields(metrics, [&](const char* field, const char*, const auto& v) {
    if (name == field) value = static_cast<double>(v);
  });
  return value;
}

double Mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return v.empty() ? kNaN : sum / static_cast<double>(v.size());
}

using Members = std::vector<const AnalysedTask*>;

/// (scenario, label) -> the tasks, in sorted order.
std::map<std::pair<std::string, std::string>, Members> ByScenarioAndLabel(
    const std::vector<AnalysedTask>& tasks) {
  std::map<std::pair<std::string, std::string>, Members> groups;
  for (const AnalysedTask& task : tasks) groups[{task.scenario, task.label}].push_back(&task);
  return groups;
}

class Analyser {
 public:
  Analyser(const Labels& labels, const AnalysisOptions& options, Analysis& out)
      : labels_(labels), options_(options), out_(out) {}

  void Label(const std::vector<FileRow>& rows);
  void Canonical();
  void Scale();
  void Window();
  void RhoCdf();
  void Reference();

 private:
  std::vector<double> Values(const Members& members, const std::string& metric) const {
    std::vector<double> values;
    for (const AnalysedTask* task : members) {
      values.push_back(Metric(source_.at(task)->row.metrics, metric));
    }
    return values;
  }
  void Add(std::string table, std::string scenario, std::string policy, std::string x,
           std::string metric, std::string stat, double value, double x_value = kNaN) {
    out_.rows.push_back({std::move(table), std::move(scenario), std::move(policy), std::move(x),
                         std::move(metric), std::move(stat), value, x_value});
  }

  const Labels& labels_;
  const AnalysisOptions& options_;
  Analysis& out_;
  std::map<const AnalysedTask*, const FileRow*> source_;  ///< the summary row of each task
};

void Analyser::Label(const std::vector<FileRow>& rows) {
  std::vector<const FileRow*> all;
  for (const FileRow& r : rows) all.push_back(&r);
  const std::map<std::string, std::set<std::string>> varied = Varied(all);
  std::vector<ScenarioOf> scenarios;
  for (const FileRow& r : rows) {
    scenarios.push_back({r.row.metrics.num_jobs, r.row.num_gpus, TraceStem(r.row)});
  }
  const std::vector<std::string> scenario_labels = labels_.ScenarioLabels(scenarios);
  out_.tasks.reserve(rows.size());  // stable addresses for source_
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const FileRow& r = rows[i];
    const SummaryRow& row = r.row;
    AnalysedTask task;
    task.file = r.file;
    task.task_id = row.task_id;
    task.task_index = row.task_index;
    task.policy = row.policy;
    task.display = labels_.DisplayName(row.policy);
    auto found = varied.find(row.policy);
    task.label = labels_.PolicyLabel(
        row.policy, r.options, found != varied.end() ? found->second : std::set<std::string>{},
        row.round_duration_s);
    task.scenario = scenario_labels[i];
    task.trace = row.trace;
    task.num_jobs = row.metrics.num_jobs;
    task.num_gpus = row.num_gpus;
    task.seed = row.seed;
    task.round_duration_s = row.round_duration_s;
    task.options = r.options;
    out_.tasks.push_back(std::move(task));
    source_[&out_.tasks.back()] = &r;
  }
}

void Analyser::Canonical() {
  std::set<std::string> policies;
  for (const AnalysedTask& task : out_.tasks) policies.insert(task.policy);
  out_.baseline = policies.count(options_.baseline) || options_.fallback_baseline.empty()
                      ? options_.baseline
                      : options_.fallback_baseline;
  const std::string baseline_name = labels_.DisplayName(out_.baseline);
  const auto groups = ByScenarioAndLabel(out_.tasks);
  // The baseline's label without options, else its first label (sorted) in each scenario.
  std::map<std::string, const Members*> base;
  for (const auto& [key, members] : groups) {
    if (members.front()->policy != out_.baseline) continue;
    if (!base.count(key.first) || key.second == baseline_name) {
      base[key.first] = &members;
      out_.baseline_labels[key.first] = key.second;
    }
  }
  for (const auto& [key, members] : groups) {
    auto found = base.find(key.first);
    for (const MetricLook& metric : labels_.metrics) {
      double mean = Mean(Values(members, metric.name));
      double base_mean = found != base.end() ? Mean(Values(*found->second, metric.name)) : kNaN;
      Add("canonical", key.first, key.second, "", metric.name, "mean", mean);
      Add("canonical", key.first, key.second, "", metric.name, "normalised",
          base_mean != 0 && !std::isnan(base_mean) ? mean / base_mean : kNaN);
    }
  }
}

void Analyser::Scale() {
  std::map<std::pair<std::string, std::string>, Members> groups;  // (label, gpus)
  for (const AnalysedTask& task : out_.tasks) {
    groups[{task.label, std::to_string(task.num_gpus)}].push_back(&task);
  }
  for (const auto& [key, members] : groups) {
    for (const MetricLook& metric : labels_.metrics) {
      Add("scale", "", key.first, key.second, metric.name, "mean",
          Mean(Values(members, metric.name)), members.front()->num_gpus);
    }
  }
}

/// Per panel row (scenario label + the options that vary besides the window and the spread
/// option) and window value as shown: mean, std, min, max, n.
void Analyser::Window() {
  const std::string& param = options_.window_param;
  std::size_t dot = param.find('.');
  if (dot == std::string::npos) return;
  const std::string policy = param.substr(0, dot), option = param.substr(dot + 1);
  out_.window_policy = labels_.DisplayName(policy);
  out_.window_axis = labels_.OptionAxis(option);
  std::vector<AnalysedTask*> subset;
  std::vector<const FileRow*> rows;
  for (AnalysedTask& task : out_.tasks) {
    if (task.policy == policy && task.options.contains(option) &&
        task.options[option].is_number()) {
      subset.push_back(&task);
      rows.push_back(source_.at(&task));
    }
  }
  const std::set<std::string> varied = Varied(rows)[policy];
  std::map<std::pair<std::string, double>, Members> groups;
  for (AnalysedTask* task : subset) {
    double x = labels_.Shown(option, task->options[option].get<double>(), task->round_duration_s);
    std::string panel = task->scenario;
    for (const std::string& key : varied) {
      if (key == option || key == options_.window_spread || !task->options.contains(key)) continue;
      panel += " · " + labels_.OptionLabel(key, task->options[key], task->round_duration_s);
    }
    task->window_x = x;
    task->window_row = panel;
    groups[{panel, x}].push_back(task);
  }
  for (const auto& [key, members] : groups) {
    std::string x = DisplayNumber(key.second);
    for (const MetricLook& metric : labels_.metrics) {
      std::vector<double> v = Values(members, metric.name);
      double mean = Mean(v), ss = 0;
      for (double e : v) ss += (e - mean) * (e - mean);
      double std = v.size() > 1 ? std::sqrt(ss / static_cast<double>(v.size() - 1)) : 0.0;
      for (auto [stat, number] : std::vector<std::pair<std::string, double>>{
               {"mean", mean},
               {"std", std},
               {"min", *std::min_element(v.begin(), v.end())},
               {"max", *std::max_element(v.begin(), v.end())},
               {"n", static_cast<double>(v.size())}}) {
        Add("window", key.first, out_.window_policy, x, metric.name, stat, number, key.second);
      }
    }
  }
}

/// The job field labels.toml names as the ρ column (result_fields.hpp).
double JobNumber(const JobResult& job, const std::string& name) {
  double value = kNaN;
  VisitJobFields(job, [&](const char* field, const char*, const auto& v) {
    if constexpr (std::is_same_v<std::decay_t<decltype(v)>, double>) {
      if (name == field) value = v;
    }
  });
  return value;
}

void Analyser::RhoCdf() {
  for (const auto& [key, members] : ByScenarioAndLabel(out_.tasks)) {
    RhoValues rho{key.first, key.second, {}};
    for (const AnalysedTask* task : members) {
      for (const JobResult& job : ReadTask(task->file, task->task_id).result.jobs) {
        double value = JobNumber(job, labels_.rho_column);
        if (std::isfinite(value)) rho.values.push_back(value);
      }
    }
    const double mean = Mean(rho.values);  // summed in task and job order
    std::sort(rho.values.begin(), rho.values.end());
    const std::vector<double>& v = rho.values;
    for (auto [stat, number] :
         std::vector<std::pair<std::string, double>>{{"p50", Percentile(v, 50)},
                                                     {"p90", Percentile(v, 90)},
                                                     {"p99", Percentile(v, 99)},
                                                     {"max", v.empty() ? kNaN : v.back()},
                                                     {"mean", mean},
                                                     {"n", static_cast<double>(v.size())}}) {
      Add("rho_cdf", key.first, key.second, "", labels_.rho_column, stat, number);
    }
    out_.rho.push_back(std::move(rho));
  }
}

void Analyser::Reference() {
  if (options_.reference_dir.empty()) return;
  const ReferenceRuns runs = ReadReferenceRuns(options_.reference_dir);
  out_.reference = runs.runs;
  std::set<std::string> scenarios;
  for (const AnalysedTask& task : out_.tasks) {
    const SummaryRow& row = source_.at(&task)->row;
    if (runs.scenario.Matches(row.trace, row.num_gpus, row.round_duration_s, row.deadline_factor)) {
      scenarios.insert(task.scenario);
    }
  }
  out_.reference_scenarios.assign(scenarios.begin(), scenarios.end());
  const ReferenceRun* base = nullptr;
  for (const ReferenceRun& run : runs.runs) {
    if (run.policy == out_.baseline) base = &run;
  }
  for (const std::string& scenario : scenarios) {
    for (const ReferenceRun& run : runs.runs) {
      for (const MetricLook& metric : labels_.metrics) {
        double value = Metric(run.metrics, metric.name);
        double base_value = base != nullptr ? Metric(base->metrics, metric.name) : kNaN;
        const std::string name = labels_.DisplayName(run.policy);
        Add("reference", scenario, name, "", metric.name, "value", value);
        Add("reference", scenario, name, "", metric.name, "normalised",
            base_value != 0 && !std::isnan(base_value) ? value / base_value : kNaN);
      }
    }
  }
}

using GridKey = std::tuple<std::string, std::string, std::string>;  ///< scenario, policy, x

/// `text` padded with spaces to `width` characters on screen (UTF-8: "·", "λ" are one).
std::string Pad(const std::string& text, std::size_t width) {
  std::size_t shown = 0;
  for (unsigned char c : text) shown += (c & 0xC0) != 0x80 ? 1 : 0;
  return shown >= width ? text : text + std::string(width - shown, ' ');
}

/// NaN as JSON null (nlohmann writes non-finite numbers as null as well; explicit here).
nlohmann::json Number(double value) {
  return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

nlohmann::json ToJson(const Analysis& analysis, const Labels& labels) {
  nlohmann::json tasks = nlohmann::json::array();
  for (const AnalysedTask& t : analysis.tasks) {
    nlohmann::json task = nlohmann::json::object();
    VisitAnalysedTaskFields(t, [&](const char* name, const auto& field) {
      using Field = std::remove_cvref_t<decltype(field)>;
      if constexpr (std::is_same_v<Field, double>) {
        task[name] = Number(field);
      } else if constexpr (std::is_same_v<Field, std::optional<double>>) {
        task[name] = field ? Number(*field) : nlohmann::json(nullptr);
      } else {
        task[name] = field;
      }
    });
    tasks.push_back(std::move(task));
  }
  nlohmann::json rows = nlohmann::json::array();
  for (const AnalysisRow& r : analysis.rows) {
    rows.push_back({{"table", r.table},
                    {"scenario", r.scenario},
                    {"policy", r.policy},
                    {"x", r.x},
                    {"metric", r.metric},
                    {"stat", r.stat},
                    {"value", Number(r.value)},
                    {"x_value", Number(r.x_value)}});
  }
  nlohmann::json rho = nlohmann::json::array();
  for (const RhoValues& r : analysis.rho) {
    rho.push_back({{"scenario", r.scenario}, {"policy", r.policy}, {"values", r.values}});
  }
  nlohmann::json reference = nlohmann::json::array();
  for (const ReferenceRun& run : analysis.reference) {
    nlohmann::json metrics = nlohmann::json::object();
    for (const MetricLook& metric : labels.metrics) {
      metrics[metric.name] = Number(Metric(run.metrics, metric.name));
    }
    reference.push_back({{"policy", run.policy},
                         {"display", labels.DisplayName(run.policy)},
                         {"metrics", metrics}});
  }
  return {{"baseline", analysis.baseline},
          {"baseline_labels", analysis.baseline_labels},
          {"window_policy", analysis.window_policy},
          {"window_axis", analysis.window_axis},
          {"tasks", tasks},
          {"rows", rows},
          {"rho", rho},
          {"reference", reference},
          {"reference_scenarios", analysis.reference_scenarios}};
}

}  // namespace

Analysis AnalyseResults(const std::vector<std::string>& paths, const AnalysisOptions& options) {
  std::vector<FileRow> rows;
  for (const std::string& path : paths) {
    // OUT.sha256, when it has one (docs/sweeps.md §4.2).
    RequireMatchingChecksum(OutputPaths(path));
    std::vector<FileRow> file;
    for (SummaryRow& row : ReadSummary(path)) {
      if (row.status != TaskStatus::kOk) continue;
      nlohmann::json task_options = Options(row);
      file.push_back({path, std::move(row), std::move(task_options)});
    }
    std::stable_sort(file.begin(), file.end(), [](const FileRow& a, const FileRow& b) {
      return a.row.task_index < b.row.task_index;
    });
    for (FileRow& row : file) rows.push_back(std::move(row));
  }
  Analysis analysis;
  Analyser analyser(BuiltinLabels(), options, analysis);
  analyser.Label(rows);
  analyser.Canonical();
  analyser.Scale();
  analyser.Window();
  analyser.RhoCdf();
  analyser.Reference();
  return analysis;
}

void PrintAnalysis(const Analysis& analysis, const std::string& format, std::FILE* out) {
  const Labels& labels = BuiltinLabels();
  if (format == "json") {
    std::fprintf(out, "%s\n", ToJson(analysis, labels).dump().c_str());
    return;
  }
  const std::vector<AnalysisRow>& rows = analysis.rows;
  if (format == "csv") {
    std::fprintf(out, "table,scenario,policy,x,metric,stat,value\n");
    for (const AnalysisRow& r : rows) {
      auto quote = [](const std::string& s) {
        std::string q = "\"";
        for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
        return q + "\"";
      };
      std::fprintf(out, "%s,%s,%s,%s,%s,%s,%.17g\n", r.table.c_str(), quote(r.scenario).c_str(),
                   quote(r.policy).c_str(), quote(r.x).c_str(), r.metric.c_str(), r.stat.c_str(),
                   r.value);
    }
    return;
  }
  // text / markdown: one pivot per table, rows (scenario, policy, x), columns metric:stat.
  bool md = format == "markdown";
  std::map<std::string, std::vector<const AnalysisRow*>> tables;
  for (const AnalysisRow& r : rows) tables[r.table].push_back(&r);
  for (const char* name : {"canonical", "scale", "window", "rho_cdf", "reference"}) {
    auto found = tables.find(name);
    if (found == tables.end()) continue;
    std::vector<std::string> columns;
    std::map<GridKey, std::map<std::string, double>> grid;
    for (const AnalysisRow* r : found->second) {
      std::string column = r->metric + ":" + r->stat;
      if (std::find(columns.begin(), columns.end(), column) == columns.end())
        columns.push_back(column);
      grid[{r->scenario, r->policy, r->x}][column] = r->value;
    }
    std::fprintf(out, md ? "\n### %s\n\n| scenario | policy | x |" : "\n== %s ==\n%-34s %-44s %-8s",
                 name, "scenario", "policy", "x");
    for (const auto& c : columns) std::fprintf(out, md ? " %s |" : " %14.14s", c.c_str());
    std::fprintf(out, "\n");
    if (md) {
      std::fprintf(out, "|---|---|---|");
      for (std::size_t i = 0; i < columns.size(); ++i) std::fprintf(out, "---:|");
      std::fprintf(out, "\n");
    }
    // Rows in legend order: scenario, then policy (labels.toml order), label, x (numeric).
    std::vector<const GridKey*> keys;
    for (const auto& entry : grid) keys.push_back(&entry.first);
    std::stable_sort(keys.begin(), keys.end(), [&](const GridKey* a, const GridKey* b) {
      auto rank = [&](const GridKey& k) {
        return std::make_tuple(std::get<0>(k), labels.Rank(std::get<1>(k)), std::get<1>(k),
                               std::get<2>(k).empty() ? 0.0 : std::stod(std::get<2>(k)));
      };
      return rank(*a) < rank(*b);
    });
    for (const GridKey* key : keys) {
      const auto& [scenario, policy, x] = *key;
      const std::map<std::string, double>& values = grid.at(*key);
      if (md) {
        std::fprintf(out, "| %s | %s | %s |", scenario.c_str(), policy.c_str(), x.c_str());
      } else {
        std::fprintf(out, "%s %s %-8s", Pad(scenario, 34).c_str(), Pad(policy, 44).c_str(),
                     x.c_str());
      }
      for (const auto& c : columns) {
        auto v = values.find(c);
        std::fprintf(out, md ? " %.6g |" : " %14.6g", v == values.end() ? kNaN : v->second);
      }
      std::fprintf(out, "\n");
    }
  }
}

}  // namespace adaptsim
