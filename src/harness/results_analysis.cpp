#include "adaptsim/results_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include <nlohmann/json.hpp>

#include "adaptsim/store.hpp"
#include "checksum.hpp"
#include "display_names.hpp"

namespace adaptsim {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string TraceStem(const SummaryRow& row) {
  return std::filesystem::path(row.trace).stem().string();
}

/// The options of `row` as a JSON object (empty when none or unparsable).
nlohmann::json Options(const SummaryRow& row) {
  nlohmann::json options = nlohmann::json::parse(row.policy_options, nullptr, false);
  return options.is_object() ? options : nlohmann::json::object();
}

/// VariedOptions of `rows` (scenario = trace and cluster size).
std::map<std::string, std::set<std::string>> VariedOptions(const std::vector<SummaryRow>& rows) {
  std::vector<LabelledTask> tasks;
  for (const SummaryRow& row : rows) {
    tasks.push_back({row.policy, row.trace + "|" + std::to_string(row.num_gpus), Options(row)});
  }
  return VariedOptions(tasks);
}

/// Scenario and policy labels of every row (analysis/adaptsim_style.py add_labels).
struct Labels {
  std::map<const SummaryRow*, std::string> scenario;
  std::map<const SummaryRow*, std::string> policy;
  std::map<std::string, std::set<std::string>> varied;
};

Labels MakeLabels(const std::vector<SummaryRow>& rows) {
  Labels labels;
  labels.varied = VariedOptions(rows);
  std::vector<ScenarioOf> scenarios;
  for (const SummaryRow& row : rows) {
    scenarios.push_back({row.metrics.num_jobs, row.num_gpus, TraceStem(row)});
  }
  const std::vector<std::string> scenario_labels = ScenarioLabels(scenarios);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const SummaryRow& row = rows[i];
    labels.scenario[&row] = scenario_labels[i];
    labels.policy[&row] =
        PolicyLabel(row.policy, Options(row), labels.varied[row.policy], row.round_duration_s);
  }
  return labels;
}

double Metric(const SummaryRow& row, const std::string& name) {
  if (name == "makespan_s") return row.metrics.makespan_s;
  if (name == "mean_jct_s") return row.metrics.mean_jct_s;
  if (name == "worst_ftf_rho") return row.metrics.worst_ftf_rho;
  return row.metrics.unfair_fraction_1_05;
}

double Mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return v.empty() ? kNaN : sum / static_cast<double>(v.size());
}

double Quantile(std::vector<double> v, double q) {
  if (v.empty()) return kNaN;
  std::sort(v.begin(), v.end());
  double h = (static_cast<double>(v.size()) - 1) * q;
  std::size_t lo = static_cast<std::size_t>(std::floor(h));
  std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (h - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

using Groups = std::map<std::pair<std::string, std::string>, std::vector<const SummaryRow*>>;

void Canonical(const std::vector<SummaryRow>& rows, const Labels& labels,
               const AnalysisOptions& options, std::vector<AnalysisRow>& out) {
  Groups groups;  // (scenario label, policy label)
  for (const SummaryRow& row : rows) {
    groups[{labels.scenario.at(&row), labels.policy.at(&row)}].push_back(&row);
  }
  std::set<std::string> policies;
  for (const SummaryRow& row : rows) policies.insert(row.policy);
  std::string baseline = policies.count(options.baseline) || options.fallback_baseline.empty()
                             ? options.baseline
                             : options.fallback_baseline;
  const std::string baseline_name = PolicyDisplayName(baseline);
  for (const auto& [key, members] : groups) {
    // The baseline's label without options, else its first label (sorted) in the scenario.
    const std::vector<const SummaryRow*>* base = nullptr;
    for (const auto& [other, other_members] : groups) {
      if (other.first != key.first || other_members.front()->policy != baseline) continue;
      if (base == nullptr || other.second == baseline_name) base = &other_members;
    }
    for (const std::string& metric : FigureMetrics()) {
      std::vector<double> values, base_values;
      for (const SummaryRow* r : members) values.push_back(Metric(*r, metric));
      if (base != nullptr) {
        for (const SummaryRow* r : *base) base_values.push_back(Metric(*r, metric));
      }
      double mean = Mean(values), base_mean = base ? Mean(base_values) : kNaN;
      out.push_back({"canonical", key.first, key.second, "", metric, "mean", mean});
      out.push_back({"canonical", key.first, key.second, "", metric, "normalised",
                     base_mean != 0 && !std::isnan(base_mean) ? mean / base_mean : kNaN});
    }
  }
}

void Scale(const std::vector<SummaryRow>& rows, const Labels& labels,
           std::vector<AnalysisRow>& out) {
  Groups groups;  // (policy label, gpus)
  for (const SummaryRow& row : rows) {
    groups[{labels.policy.at(&row), std::to_string(row.num_gpus)}].push_back(&row);
  }
  for (const auto& [key, members] : groups) {
    for (const std::string& metric : FigureMetrics()) {
      std::vector<double> values;
      for (const SummaryRow* r : members) values.push_back(Metric(*r, metric));
      out.push_back({"scale", "", key.first, key.second, metric, "mean", Mean(values)});
    }
  }
}

/// Per panel row (scenario label + the options that vary besides the window and the spread
/// option) and window value (minutes for future_rounds): mean, std, min, max, n.
void Window(const std::vector<SummaryRow>& rows, const Labels& labels,
            const AnalysisOptions& options, std::vector<AnalysisRow>& out) {
  const std::string& param = options.window_param;
  std::size_t dot = param.find('.');
  if (dot == std::string::npos) return;
  std::string policy = param.substr(0, dot), option = param.substr(dot + 1);
  std::vector<SummaryRow> subset;
  for (const SummaryRow& row : rows) {
    nlohmann::json o = Options(row);
    if (row.policy == policy && o.contains(option) && o[option].is_number()) subset.push_back(row);
  }
  std::set<std::string> varied = VariedOptions(subset)[policy];
  std::map<std::pair<std::string, double>, std::vector<const SummaryRow*>> groups;
  for (const SummaryRow& row : rows) {
    nlohmann::json o = Options(row);
    if (row.policy != policy || !o.contains(option) || !o[option].is_number()) continue;
    double x = o[option].get<double>();
    if (option == "future_rounds") x = x * row.round_duration_s / 60;
    std::string panel = labels.scenario.at(&row);
    for (const std::string& key : varied) {
      if (key == option || key == options.window_spread || !o.contains(key)) continue;
      panel += " · " + OptionLabel(key, o[key], row.round_duration_s);
    }
    groups[{panel, x}].push_back(&row);
  }
  std::string name = PolicyDisplayName(policy);
  for (const auto& [key, members] : groups) {
    std::string x = DisplayNumber(key.second);
    for (const std::string& metric : FigureMetrics()) {
      std::vector<double> v;
      for (const SummaryRow* r : members) v.push_back(Metric(*r, metric));
      double mean = Mean(v), ss = 0;
      for (double e : v) ss += (e - mean) * (e - mean);
      double std = v.size() > 1 ? std::sqrt(ss / static_cast<double>(v.size() - 1)) : 0.0;
      for (auto [stat, number] : std::vector<std::pair<std::string, double>>{
               {"mean", mean},
               {"std", std},
               {"min", *std::min_element(v.begin(), v.end())},
               {"max", *std::max_element(v.begin(), v.end())},
               {"n", static_cast<double>(v.size())}}) {
        out.push_back({"window", key.first, name, x, metric, stat, number});
      }
    }
  }
}

void RhoCdf(const std::string& path, const std::vector<SummaryRow>& rows, const Labels& labels,
            std::vector<AnalysisRow>& out) {
  std::map<std::pair<std::string, std::string>, std::vector<double>> rho;
  for (const SummaryRow& row : rows) {
    std::vector<double>& values = rho[{labels.scenario.at(&row), labels.policy.at(&row)}];
    for (const JobResult& job : ReadTask(path, row.task_id).result.jobs) {
      if (std::isfinite(job.ftf_rho)) values.push_back(job.ftf_rho);
    }
  }
  for (const auto& [key, values] : rho) {
    for (auto [stat, number] : std::vector<std::pair<std::string, double>>{
             {"p50", Quantile(values, 0.5)},
             {"p90", Quantile(values, 0.9)},
             {"p99", Quantile(values, 0.99)},
             {"max", values.empty() ? kNaN : *std::max_element(values.begin(), values.end())},
             {"mean", Mean(values)},
             {"n", static_cast<double>(values.size())}}) {
      out.push_back({"rho_cdf", key.first, key.second, "", "ftf_rho", stat, number});
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

/// Legend position of a label's policy (its display name before " ("); unknown names last).
std::size_t PolicyRank(const std::string& label) {
  std::string name = label.substr(0, label.find(" ("));
  const auto& names = PolicyDisplayNames();
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i].second == name) return i;
  }
  return names.size();
}

}  // namespace

std::vector<AnalysisRow> AnalyseResults(const std::string& path, const AnalysisOptions& options) {
  RequireMatchingChecksum(path);  // OUT.sha256, when the file has one (docs/sweeps.md §4.2)
  std::vector<SummaryRow> rows;
  for (SummaryRow& row : ReadSummary(path)) {
    if (row.status == TaskStatus::kOk) rows.push_back(std::move(row));
  }
  std::sort(rows.begin(), rows.end(),
            [](const auto& a, const auto& b) { return a.task_index < b.task_index; });
  const Labels labels = MakeLabels(rows);
  std::vector<AnalysisRow> out;
  Canonical(rows, labels, options, out);
  Scale(rows, labels, out);
  Window(rows, labels, options, out);
  RhoCdf(path, rows, labels, out);
  return out;
}

void PrintAnalysis(const std::vector<AnalysisRow>& rows, const std::string& format,
                   std::FILE* out) {
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
  for (const char* name : {"canonical", "scale", "window", "rho_cdf"}) {
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
    // Rows in legend order: scenario, then policy (PolicyDisplayNames order), label, x (numeric).
    std::vector<const GridKey*> keys;
    for (const auto& entry : grid) keys.push_back(&entry.first);
    std::stable_sort(keys.begin(), keys.end(), [](const GridKey* a, const GridKey* b) {
      auto rank = [](const GridKey& k) {
        return std::make_tuple(std::get<0>(k), PolicyRank(std::get<1>(k)), std::get<1>(k),
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
