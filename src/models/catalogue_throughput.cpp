// Catalogue-backed throughput and catalogue fitting (catalogue_throughput.hpp).
#include "adaptsim/catalogue_throughput.hpp"

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include "adaptsim/error.hpp"
#include "adaptsim/job.hpp"
#include "adaptsim/text_lines.hpp"
#include "adaptsim/workload.hpp"

namespace adaptsim::models {
namespace {

// B of "<model> (batch size B)", or std::nullopt when `job_type` is not of that model.
std::optional<int> BatchSizeOf(const std::string& job_type, const std::string& model) {
  const std::string prefix = model + " (batch size ";
  if (job_type.rfind(prefix, 0) != 0 || job_type.back() != ')') return std::nullopt;
  std::string digits = job_type.substr(prefix.size(), job_type.size() - prefix.size() - 1);
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return std::stoi(digits);
}

struct LabelledSample {
  ThroughputSample sample;
  std::string label;
};

CatalogueFitQuality Quality(const FitSummary& fit, const std::vector<LabelledSample>& samples) {
  CatalogueFitQuality q;
  q.objective = fit.objective;
  q.rmsle = fit.rmsle_optim;
  q.num_points = static_cast<int>(samples.size());
  q.outer_iterations = fit.outer_iterations;
  for (std::size_t i = 0; i < fit.frozen.size(); ++i) {
    if (fit.frozen[i]) q.frozen.push_back(kPerfParamNames[i]);
  }
  for (const LabelledSample& ls : samples) {
    const ThroughputSample& s = ls.sample;
    double predicted = OptimTime(fit.params, s.num_nodes, s.num_replicas, s.atomic_bsz);
    double error = std::abs(s.optim_step_time_s / predicted - 1.0);
    q.points.push_back({ls.label, s.optim_step_time_s, predicted, error});
    if (error >= q.worst_relative_error) {
      q.worst_relative_error = error;
      q.worst_point = ls.label;
    }
  }
  return q;
}

CatalogueModel FitModel(const std::string& name, const std::vector<LabelledSample>& samples,
                        const FitOptions& options, const std::string& context) {
  std::vector<ThroughputSample> plain;
  for (const LabelledSample& s : samples) plain.push_back(s.sample);
  FitSummary fit = FitPerfParams(plain, options, context);
  CatalogueModel model;
  model.info.name = name;
  model.perf_params = fit.params.ToArray();
  model.fit = Quality(fit, samples);
  return model;
}

std::vector<LabelledSample> TableSamples(const ThroughputTable& table, const ModelInfo& info,
                                         int gpus_per_node) {
  std::vector<LabelledSample> samples;
  for (const auto& [key, value] : table.entries()) {
    std::optional<int> batch_size = BatchSizeOf(key.first, info.name);
    int sf = key.second;
    if (!batch_size || *batch_size < info.min_batch_size || *batch_size > info.max_batch_size ||
        (sf > 1 && !info.distributed)) {
      continue;
    }
    if (!(value > 0)) {
      throw InputError(table.path(), 0, "('" + key.first + "', " + std::to_string(sf) + ").null",
                       "throughput must be positive inside the model's batch-size range [" +
                           std::to_string(info.min_batch_size) + ", " +
                           std::to_string(info.max_batch_size) + "]");
    }
    TablePlacement p = PlacementOfTableEntry(*batch_size, sf, gpus_per_node);
    ThroughputSample s{p.num_nodes, p.num_replicas, p.atomic_bsz, std::nullopt, 1.0 / value};
    samples.push_back(
        {s, "batch size " + std::to_string(*batch_size) + ", scale factor " + std::to_string(sf)});
  }
  return samples;
}

// ---- Pollux CSV profiles (docs/pollux.md §4.3). ----

double ParseCell(const std::string& path, int line, const std::string& column,
                 const std::string& text) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !std::isfinite(value)) {
    throw InputError(path, line, column, "expected a number, got '" + text + "'");
  }
  return value;
}

using SampleKey = std::tuple<int, int, double>;  // (N, K, m)
struct Accumulated {
  double accum = 0, optim = 0;
  int count = 0;
};

// Adds every row of a Pollux CSV to `sums`; `placement_column` selects the placements.csv layout.
void ReadPolluxCsv(const std::string& path, bool placement_column,
                   std::map<SampleKey, Accumulated>& sums) {
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, "", "cannot open Pollux profile");
  const std::vector<std::string> columns =
      placement_column
          ? std::vector<std::string>{"placement", "local_bsz", "step_time", "sync_time"}
          : std::vector<std::string>{"num_nodes", "num_replicas", "local_bsz", "step_time",
                                     "sync_time"};
  std::string line;
  if (!std::getline(in, line) || SplitFields(line, ',') != columns) {
    throw InputError(path, 1, "",
                     "expected the header row of a Pollux " +
                         std::string(placement_column ? "placements" : "scalability") + ".csv");
  }
  for (int number = 1; NextDataLine(in, line, number);) {
    std::vector<std::string> cells = SplitFields(line, ',');
    if (cells.size() != columns.size())
      throw InputError(path, number, "", "wrong number of columns");
    std::vector<double> v;
    for (std::size_t c = 0; c < cells.size(); ++c)
      v.push_back(ParseCell(path, number, columns[c], cells[c]));
    int nodes = 0, replicas = 0;
    if (placement_column) {
      for (char digit : cells[0]) {
        nodes += digit != '0';
        replicas += digit - '0';
      }
    } else {
      nodes = static_cast<int>(v[0]);
      replicas = static_cast<int>(v[1]);
    }
    double m = v[v.size() - 3], step = v[v.size() - 2], sync = v[v.size() - 1];
    if (nodes < 1 || replicas < nodes || !(m > 0) || !(step > sync) || sync < 0) {
      throw InputError(path, number, "",
                       "need 1 <= nodes <= replicas, local_bsz > 0 and "
                       "step_time > sync_time >= 0");
    }
    Accumulated& a = sums[{nodes, replicas, m}];
    a.accum += step - sync;
    a.optim += step;
    ++a.count;
  }
}

}  // namespace

TablePlacement PlacementOfTableEntry(int batch_size, int scale_factor, int gpus_per_node) {
  ADAPTSIM_CHECK(batch_size > 0 && scale_factor > 0 && gpus_per_node > 0);
  int nodes = (scale_factor + gpus_per_node - 1) / gpus_per_node;
  return {nodes, scale_factor, static_cast<double>(batch_size) / scale_factor};
}

CatalogueThroughput::CatalogueThroughput(Catalogue catalogue) : catalogue_(std::move(catalogue)) {}

CatalogueThroughput CatalogueThroughput::Read(const std::string& path) {
  return CatalogueThroughput(ReadCatalogue(path));
}

std::optional<double> CatalogueThroughput::ThroughputStepsPerS(std::string_view model,
                                                               int batch_size,
                                                               int scale_factor) const {
  const CatalogueModel* entry = catalogue_.Find(std::string(model));
  if (entry == nullptr || scale_factor < 1 || batch_size < 1) return std::nullopt;
  if (entry->has_workload) {
    const ModelInfo& info = entry->info;
    if (batch_size < info.min_batch_size || batch_size > info.max_batch_size) return std::nullopt;
    if (scale_factor > 1 && !info.distributed) return std::nullopt;
  }
  TablePlacement p = PlacementOfTableEntry(batch_size, scale_factor, catalogue_.gpus_per_node);
  PolluxPerfParams params = PolluxPerfParams::FromArray(entry->perf_params);
  return 1.0 / OptimTime(params, p.num_nodes, p.num_replicas, p.atomic_bsz);
}

std::string CatalogueThroughput::Describe() const {
  return "catalogue:" + catalogue_.path + "[" + catalogue_.name + "]";
}

bool IsCataloguePath(const std::string& spec) {
  const std::string suffix = ".toml";
  return spec.size() >= suffix.size() &&
         spec.compare(spec.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::unique_ptr<ThroughputSource> LoadThroughputSource(const std::string& spec,
                                                       const std::string& gpu_type) {
  if (IsCataloguePath(spec)) {
    auto catalogue = std::make_unique<CatalogueThroughput>(CatalogueThroughput::Read(spec));
    // A catalogue built before GPU types were named is the default type's.
    if (gpu_type != Cluster::kDefaultGpuType && catalogue->catalogue().name != gpu_type) {
      throw InputError(spec, 0, "name",
                       "the catalogue describes GPU type '" + catalogue->catalogue().name +
                           "', not '" + gpu_type + "' (one catalogue per GPU type)");
    }
    return catalogue;
  }
  return std::make_unique<ThroughputTable>(ThroughputTable::ReadJson(spec, gpu_type));
}

ClusterThroughputs LoadClusterThroughputs(const std::string& spec, const Cluster& cluster) {
  ClusterThroughputs throughputs{cluster, {}};
  if (IsCataloguePath(spec)) {
    for (const GpuTypeCount& type : cluster.types()) {
      throughputs.by_type.push_back(LoadThroughputSource(spec, type.name));
    }
    return throughputs;
  }
  std::vector<std::string> names;  // a measured table: one parse for every type
  for (const GpuTypeCount& type : cluster.types()) names.push_back(type.name);
  for (ThroughputTable& table : ThroughputTable::ReadJsonTypes(spec, names)) {
    throughputs.by_type.push_back(std::make_unique<ThroughputTable>(std::move(table)));
  }
  return throughputs;
}

void CatalogueFitOptions::Validate() const {
  if (gpus_per_node < 1) throw InputError("fit options", 0, "gpus_per_node", "must be >= 1");
  if (name.empty()) throw InputError("fit options", 0, "name", "must not be empty");
  fit.Validate();
}

Catalogue FitCatalogueFromTable(const ThroughputTable& table, const CatalogueFitOptions& options) {
  options.Validate();
  std::vector<const ModelInfo*> wanted;
  for (const std::string& name : options.models) {
    const ModelInfo* info = FindModel(name);
    if (info == nullptr) {
      std::string known;
      for (const ModelInfo& m : ModelCatalogue()) known += (known.empty() ? "" : ", ") + m.name;
      throw InputError("command line", 0, "--models",
                       "unknown model '" + name + "' (known: " + known + ")");
    }
    wanted.push_back(info);
  }
  bool all = wanted.empty();
  if (all) {
    for (const ModelInfo& m : ModelCatalogue()) wanted.push_back(&m);
  }
  Catalogue catalogue{"", options.name, options.source, options.gpus_per_node, {}};
  for (const ModelInfo* info : wanted) {
    std::vector<LabelledSample> samples = TableSamples(table, *info, options.gpus_per_node);
    if (samples.empty()) {
      if (all) continue;
      throw InputError(table.path(), 0, info->name, "no entries for this model in the table");
    }
    CatalogueModel model = FitModel(info->name, samples, options.fit, table.path());
    model.info = *info;
    model.has_workload = true;
    catalogue.models.push_back(std::move(model));
  }
  if (catalogue.models.empty()) {
    throw InputError(table.path(), 0, "", "the table has no entry for any catalogue model");
  }
  return catalogue;
}

Catalogue FitCatalogueFromPolluxTraces(const std::string& placements_path,
                                       const std::string& scalability_path,
                                       const std::string& model_name,
                                       const CatalogueFitOptions& options) {
  options.Validate();
  if (model_name.empty() || model_name.find(' ') != std::string::npos) {
    throw InputError("command line", 0, "--model", "a non-empty name without spaces is required");
  }
  std::map<SampleKey, Accumulated> sums;
  ReadPolluxCsv(placements_path, true, sums);
  if (!scalability_path.empty()) ReadPolluxCsv(scalability_path, false, sums);
  if (sums.empty()) throw InputError(placements_path, 0, "", "no rows");
  std::vector<LabelledSample> samples;
  for (const auto& [key, a] : sums) {
    auto [nodes, replicas, m] = key;
    ThroughputSample s{nodes, replicas, m, a.accum / a.count, a.optim / a.count};
    std::ostringstream label;
    label << "N=" << nodes << " K=" << replicas << " m=" << m;
    samples.push_back({s, label.str()});
  }
  Catalogue catalogue{"", options.name, options.source, options.gpus_per_node, {}};
  catalogue.models.push_back(FitModel(model_name, samples, options.fit, placements_path));
  return catalogue;
}

}  // namespace adaptsim::models
