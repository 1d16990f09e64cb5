// Throughput catalogue files (TOML): per model, the workload facts the trace generator needs and
// the fitted parameters of Pollux's throughput model (include/adaptsim/pollux_throughput.hpp), plus
// the fit quality. The built-in one is data/catalog/v100.toml; `adaptsim fit-throughput` writes
// them. Format (docs/throughput-model.md):
//
//   format = 1                 # required, this reader knows 1
//   name = "v100"              # required
//   source = "..."             # optional: where the measurements came from
//   gpus_per_node = 4          # required, >= 1: N = ceil(K / gpus_per_node) for a table entry
//   [[models]]                 # one or more
//   name = "ResNet-18"         # required, unique
//   dataset = "CIFAR-10"       # workload block: all six keys or none
//   dataset_size_samples = 50000
//   trace_batch_sizes = [32, 64, 128, 256]
//   min_batch_size = 16
//   max_batch_size = 256
//   distributed = true
//   [models.throughput]        # required
//   model = "pollux-osdi21"    # the only model so far
//   alpha_c = ... beta_c = ... alpha_n = ... beta_n = ... alpha_r = ... beta_r = ... gamma = ...
//   [models.fit]               # optional: quality of the fit that produced the parameters
//   objective, rmsle, worst_relative_error (numbers), worst_point (string),
//   num_points, outer_iterations (integers), frozen (list of parameter names)
//
// The file holds fitted parameters only, never the measurements themselves.
#pragma once

#include <array>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "adaptsim/workload.hpp"

namespace adaptsim {

/// Parameter names of `[models.throughput]`, in CatalogueModel::perf_params order (the same order
/// as models::PolluxPerfParams).
inline constexpr std::array<const char*, 7> kCataloguePerfParamNames = {
    "alpha_c", "beta_c", "alpha_n", "beta_n", "alpha_r", "beta_r", "gamma"};

/// One measured point's error, kept in memory for reports (never written to the file).
struct CatalogueFitPoint {
  std::string label;                 ///< "batch size 128, scale factor 4"
  double measured_step_time_s = 0;   ///< measured seconds per optimizer step
  double predicted_step_time_s = 0;  ///< model prediction for the same configuration
  double relative_error = 0;         ///< |predicted throughput / measured throughput - 1|
};

struct CatalogueFitQuality {
  double objective = 0;             ///< Pollux fit objective F (throughput_fit.hpp)
  double rmsle = 0;                 ///< RMSLE of the optimizer-step times
  double worst_relative_error = 0;  ///< max over points of relative_error
  std::string worst_point;          ///< label of that point
  int num_points = 0;
  int outer_iterations = 0;
  std::vector<std::string> frozen;        ///< parameters pinned by thin-data rules
  std::vector<CatalogueFitPoint> points;  ///< in-memory only
};

struct CatalogueModel {
  ModelInfo info;             ///< info.name always set; the rest only when has_workload
  bool has_workload = false;  ///< the six workload keys are present
  std::array<double, 7> perf_params = {};  ///< kCataloguePerfParamNames order; s, s/sample, ...
  std::optional<CatalogueFitQuality> fit;
};

struct Catalogue {
  std::string path;       ///< where it was read from ("" when built in memory)
  std::string name;       ///< `name`
  std::string source;     ///< `source`
  int gpus_per_node = 4;  ///< `gpus_per_node`
  std::vector<CatalogueModel> models;

  /// The model named `name`, or nullptr.
  const CatalogueModel* Find(const std::string& name) const;
  /// The ModelInfo of every model with a workload block, in file order.
  std::vector<ModelInfo> WorkloadModels() const;
};

/// Reads and validates a catalogue file. Throws InputError(path, line, field, message) for a
/// missing file, malformed TOML, unknown keys, wrong types, missing required keys, a partial
/// workload block, duplicate model names, α/β < 1e-8 or γ outside [1, 10], batch sizes ≤ 0 or
/// min > max, an empty model list.
Catalogue ReadCatalogue(const std::string& path);

/// Writes `catalogue` in the format above; `header` lines are written first as `# ` comments.
/// Numbers are written with 17 significant digits (reading them back is exact).
void WriteCatalogue(std::ostream& out, const Catalogue& catalogue,
                    const std::vector<std::string>& header);

}  // namespace adaptsim
