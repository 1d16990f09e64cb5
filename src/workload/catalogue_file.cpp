// Reading and writing throughput catalogue files (format: catalogue_file.hpp).
#include "adaptsim/catalogue_file.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <ostream>
#include <set>
#include <sstream>

#include <toml++/toml.h>

#include "adaptsim/error.hpp"

namespace adaptsim {
namespace {

constexpr std::int64_t kFormat = 1;
constexpr char kThroughputModel[] = "pollux-osdi21";
const std::vector<std::string> kWorkloadKeys = {"dataset",           "dataset_size_samples",
                                                "trace_batch_sizes", "min_batch_size",
                                                "max_batch_size",    "distributed"};

struct Reader {
  std::string file;

  [[noreturn]] void Throw(const toml::node* node, const std::string& field,
                          const std::string& message) const {
    int line = node ? static_cast<int>(node->source().begin.line) : 0;
    throw InputError(file, line, field, message);
  }
  const toml::node& Required(const toml::table& table, const std::string& key,
                             const std::string& field) const {
    const toml::node* node = table.get(key);
    if (node == nullptr) Throw(&table, field, "missing required key");
    return *node;
  }
  std::string String(const toml::node& node, const std::string& field) const {
    if (!node.is_string()) Throw(&node, field, "expected a string");
    return *node.value<std::string>();
  }
  std::int64_t Integer(const toml::node& node, const std::string& field, std::int64_t minimum,
                       std::int64_t maximum = std::numeric_limits<int>::max()) const {
    if (!node.is_integer()) Throw(&node, field, "expected an integer");
    std::int64_t value = *node.value<std::int64_t>();
    if (value < minimum || value > maximum) {
      Throw(&node, field,
            "must be in [" + std::to_string(minimum) + ", " + std::to_string(maximum) + "]");
    }
    return value;
  }
  double Number(const toml::node& node, const std::string& field) const {
    if (!node.is_number()) Throw(&node, field, "expected a number");
    double value = *node.value<double>();
    if (!std::isfinite(value)) Throw(&node, field, "must be finite");
    return value;
  }
  void OnlyKeys(const toml::table& table, const std::set<std::string>& known,
                const std::string& prefix) const {
    for (const auto& [key, node] : table) {
      if (!known.count(std::string(key.str()))) {
        Throw(&node, prefix + std::string(key.str()), "unknown key");
      }
    }
  }
};

toml::table ParseFile(const std::string& path) {
  if (!std::filesystem::is_regular_file(path)) {
    throw InputError(path, 0, "", "catalogue file not found");
  }
  try {
    return toml::parse_file(path);
  } catch (const toml::parse_error& error) {
    throw InputError(path, static_cast<int>(error.source().begin.line), "",
                     "malformed TOML: " + std::string(error.description()));
  }
}

void ReadWorkload(const Reader& r, const toml::table& t, const std::string& f, CatalogueModel& m) {
  int present = 0;
  for (const std::string& key : kWorkloadKeys) present += t.contains(key);
  if (present == 0) return;
  if (present != static_cast<int>(kWorkloadKeys.size())) {
    r.Throw(&t, f + "dataset",
            "the workload keys (dataset, dataset_size_samples, "
            "trace_batch_sizes, min/max_batch_size, distributed) go together");
  }
  ModelInfo& info = m.info;
  info.dataset = r.String(*t.get("dataset"), f + "dataset");
  info.dataset_size_samples = r.Integer(*t.get("dataset_size_samples"), f + "dataset_size_samples",
                                        1, std::numeric_limits<std::int64_t>::max());
  info.min_batch_size =
      static_cast<int>(r.Integer(*t.get("min_batch_size"), f + "min_batch_size", 1));
  info.max_batch_size =
      static_cast<int>(r.Integer(*t.get("max_batch_size"), f + "max_batch_size", 1));
  if (info.min_batch_size > info.max_batch_size) {
    r.Throw(t.get("min_batch_size"), f + "min_batch_size", "must be <= max_batch_size");
  }
  const toml::node& sizes = *t.get("trace_batch_sizes");
  const toml::array* array = sizes.as_array();
  if (array == nullptr || array->empty()) {
    r.Throw(&sizes, f + "trace_batch_sizes", "expected a non-empty list of integers");
  }
  for (const toml::node& element : *array) {
    info.trace_batch_sizes.push_back(
        static_cast<int>(r.Integer(element, f + "trace_batch_sizes", 1)));
  }
  const toml::node& distributed = *t.get("distributed");
  if (!distributed.is_boolean()) r.Throw(&distributed, f + "distributed", "expected a boolean");
  info.distributed = *distributed.value<bool>();
  m.has_workload = true;
}

void ReadThroughput(const Reader& r, const toml::table& model, const std::string& f,
                    CatalogueModel& m) {
  const toml::node& node = r.Required(model, "throughput", f + "throughput");
  const toml::table* t = node.as_table();
  if (t == nullptr) r.Throw(&node, f + "throughput", "expected a table");
  std::set<std::string> known = {"model"};
  for (const char* name : kCataloguePerfParamNames) known.insert(name);
  r.OnlyKeys(*t, known, f + "throughput.");
  std::string kind =
      r.String(r.Required(*t, "model", f + "throughput.model"), f + "throughput.model");
  if (kind != kThroughputModel) {
    r.Throw(t->get("model"), f + "throughput.model",
            "unknown throughput model '" + kind + "' (known: " + kThroughputModel + ")");
  }
  for (std::size_t i = 0; i < kCataloguePerfParamNames.size(); ++i) {
    std::string field = f + "throughput." + kCataloguePerfParamNames[i];
    const toml::node& value = r.Required(*t, kCataloguePerfParamNames[i], field);
    double v = r.Number(value, field);
    bool is_gamma = i + 1 == kCataloguePerfParamNames.size();
    if (is_gamma ? !(v >= 1.0 && v <= 10.0) : !(v >= 1e-8)) {
      r.Throw(&value, field, is_gamma ? "must be in [1, 10]" : "must be >= 1e-8");
    }
    m.perf_params[i] = v;
  }
}

void ReadFit(const Reader& r, const toml::table& model, const std::string& f, CatalogueModel& m) {
  const toml::node* node = model.get("fit");
  if (node == nullptr) return;
  const toml::table* t = node->as_table();
  if (t == nullptr) r.Throw(node, f + "fit", "expected a table");
  r.OnlyKeys(*t,
             {"objective", "rmsle", "worst_relative_error", "worst_point", "num_points",
              "outer_iterations", "frozen"},
             f + "fit.");
  CatalogueFitQuality q;
  auto number = [&](const char* key, double& out) {
    if (const toml::node* v = t->get(key)) out = r.Number(*v, f + "fit." + key);
  };
  number("objective", q.objective);
  number("rmsle", q.rmsle);
  number("worst_relative_error", q.worst_relative_error);
  if (const toml::node* v = t->get("worst_point"))
    q.worst_point = r.String(*v, f + "fit.worst_point");
  if (const toml::node* v = t->get("num_points")) {
    q.num_points = static_cast<int>(r.Integer(*v, f + "fit.num_points", 0));
  }
  if (const toml::node* v = t->get("outer_iterations")) {
    q.outer_iterations = static_cast<int>(r.Integer(*v, f + "fit.outer_iterations", 0));
  }
  if (const toml::node* v = t->get("frozen")) {
    const toml::array* array = v->as_array();
    if (array == nullptr) r.Throw(v, f + "fit.frozen", "expected a list of parameter names");
    for (const toml::node& e : *array) q.frozen.push_back(r.String(e, f + "fit.frozen"));
  }
  m.fit = q;
}

CatalogueModel ReadModel(const Reader& r, const toml::node& node, std::size_t index) {
  std::string f = "models[" + std::to_string(index) + "].";
  const toml::table* t = node.as_table();
  if (t == nullptr) r.Throw(&node, f, "expected a table");
  std::set<std::string> known(kWorkloadKeys.begin(), kWorkloadKeys.end());
  known.insert({"name", "throughput", "fit"});
  r.OnlyKeys(*t, known, f);
  CatalogueModel m;
  m.info.name = r.String(r.Required(*t, "name", f + "name"), f + "name");
  if (m.info.name.empty() || m.info.name.find(' ') != std::string::npos) {
    r.Throw(t->get("name"), f + "name", "must be non-empty without spaces (it names a job type)");
  }
  ReadWorkload(r, *t, f, m);
  ReadThroughput(r, *t, f, m);
  ReadFit(r, *t, f, m);
  return m;
}

// TOML basic string: '"', '\\' and the control characters (U+0000-U+001F, U+007F) escaped, as
// the TOML 1.0 grammar requires (https://toml.io/en/v1.0.0#string).
std::string Quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20 || byte == 0x7f) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04X", byte);
      out += escape;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string Number(double value) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  std::string text = buffer;
  // TOML floats need a '.' or an exponent; 17 digits of an integral value print without.
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
  return text;
}

void WriteModel(std::ostream& out, const CatalogueModel& m) {
  out << "\n[[models]]\nname = " << Quoted(m.info.name) << "\n";
  if (m.has_workload) {
    const ModelInfo& i = m.info;
    out << "dataset = " << Quoted(i.dataset)
        << "\ndataset_size_samples = " << i.dataset_size_samples << "\ntrace_batch_sizes = [";
    for (std::size_t k = 0; k < i.trace_batch_sizes.size(); ++k) {
      out << (k ? ", " : "") << i.trace_batch_sizes[k];
    }
    out << "]\nmin_batch_size = " << i.min_batch_size << "\nmax_batch_size = " << i.max_batch_size
        << "\ndistributed = " << (i.distributed ? "true" : "false") << "\n";
  }
  out << "\n[models.throughput]\nmodel = " << Quoted(kThroughputModel) << "\n";
  for (std::size_t k = 0; k < kCataloguePerfParamNames.size(); ++k) {
    out << kCataloguePerfParamNames[k] << " = " << Number(m.perf_params[k]) << "\n";
  }
  if (!m.fit) return;
  const CatalogueFitQuality& q = *m.fit;
  out << "\n[models.fit]\nobjective = " << Number(q.objective) << "\nrmsle = " << Number(q.rmsle)
      << "\nworst_relative_error = " << Number(q.worst_relative_error)
      << "\nworst_point = " << Quoted(q.worst_point) << "\nnum_points = " << q.num_points
      << "\nouter_iterations = " << q.outer_iterations << "\nfrozen = [";
  for (std::size_t k = 0; k < q.frozen.size(); ++k) out << (k ? ", " : "") << Quoted(q.frozen[k]);
  out << "]\n";
}

}  // namespace

const CatalogueModel* Catalogue::Find(const std::string& model_name) const {
  for (const CatalogueModel& model : models) {
    if (model.info.name == model_name) return &model;
  }
  return nullptr;
}

std::vector<ModelInfo> Catalogue::WorkloadModels() const {
  std::vector<ModelInfo> infos;
  for (const CatalogueModel& model : models) {
    if (model.has_workload) infos.push_back(model.info);
  }
  return infos;
}

Catalogue ReadCatalogue(const std::string& path) {
  toml::table root = ParseFile(path);
  Reader r{path};
  r.OnlyKeys(root, {"format", "name", "source", "gpus_per_node", "models"}, "");
  Catalogue catalogue;
  catalogue.path = path;
  const toml::node& format = r.Required(root, "format", "format");
  if (r.Integer(format, "format", 1) != kFormat) {
    r.Throw(&format, "format", "unsupported catalogue format (this reader knows 1)");
  }
  catalogue.name = r.String(r.Required(root, "name", "name"), "name");
  if (const toml::node* source = root.get("source")) catalogue.source = r.String(*source, "source");
  catalogue.gpus_per_node = static_cast<int>(
      r.Integer(r.Required(root, "gpus_per_node", "gpus_per_node"), "gpus_per_node", 1));
  const toml::node& models = r.Required(root, "models", "models");
  const toml::array* array = models.as_array();
  if (array == nullptr || array->empty()) {
    r.Throw(&models, "models", "expected one or more [[models]] tables");
  }
  for (std::size_t i = 0; i < array->size(); ++i) {
    CatalogueModel model = ReadModel(r, (*array)[i], i);
    if (catalogue.Find(model.info.name) != nullptr) {
      r.Throw(&(*array)[i], "models[" + std::to_string(i) + "].name",
              "duplicate model '" + model.info.name + "'");
    }
    catalogue.models.push_back(std::move(model));
  }
  return catalogue;
}

void WriteCatalogue(std::ostream& out, const Catalogue& catalogue,
                    const std::vector<std::string>& header) {
  for (const std::string& line : header) out << (line.empty() ? "#" : "# " + line) << "\n";
  if (!header.empty()) out << "\n";
  out << "format = " << kFormat << "\nname = " << Quoted(catalogue.name) << "\n";
  if (!catalogue.source.empty()) out << "source = " << Quoted(catalogue.source) << "\n";
  out << "gpus_per_node = " << catalogue.gpus_per_node << "\n";
  for (const CatalogueModel& model : catalogue.models) WriteModel(out, model);
}

}  // namespace adaptsim
