// Throughput from fitted catalogue models (the second ThroughputSource besides the measured
// ThroughputTable, include/adaptsim/throughput.hpp), and building catalogues by fitting Pollux's
// throughput model (pollux_throughput.hpp, throughput_fit.hpp) to measurements.
//
// Mapping of a table entry to the model (docs/mechanism.md §2.2; docs/throughput-model.md): a
// Shockwave/Gavel value thr for job type "<Model> (batch size B)" on sf GPUs is the aggregate
// iterations/s, one iteration consuming B samples in total. So K = sf replicas, per-GPU batch
// m = B / sf (real-valued), no accumulation (s = 0), N = ceil(K / gpus_per_node) nodes, and
// thr = 1 / T_optim(N, K, m) iterations/s (samples/s = B · thr).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "adaptsim/catalogue_file.hpp"
#include "adaptsim/cluster_throughputs.hpp"
#include "adaptsim/pollux_throughput.hpp"
#include "adaptsim/throughput.hpp"
#include "adaptsim/throughput_fit.hpp"

namespace adaptsim::models {

/// (N, K, m) of a table entry, per the mapping above.
struct TablePlacement {
  int num_nodes = 1;
  int num_replicas = 1;
  double atomic_bsz = 0;  ///< samples per GPU per step
};
TablePlacement PlacementOfTableEntry(int batch_size, int scale_factor, int gpus_per_node);

/// Catalogue-backed throughput. Thread-safety: immutable after construction.
class CatalogueThroughput final : public ThroughputSource {
 public:
  explicit CatalogueThroughput(Catalogue catalogue);
  /// ReadCatalogue(path) (InputError on a bad file).
  static CatalogueThroughput Read(const std::string& path);

  /// 1 / T_optim(N, K, m) iterations/s; std::nullopt when the model is not in the catalogue, the
  /// scale factor is < 1, or (for models with a workload block) the batch size lies outside
  /// [min_batch_size, max_batch_size] or sf > 1 for a non-distributed model — the cases where a
  /// measured table has no entry, so the engine treats both sources alike.
  std::optional<double> ThroughputStepsPerS(std::string_view model, int batch_size,
                                            int scale_factor) const override;
  /// "catalogue:<path>[<name>]".
  std::string Describe() const override;

  const Catalogue& catalogue() const { return catalogue_; }

 private:
  Catalogue catalogue_;
};

/// Whether `spec` names a fitted catalogue (a path ending in ".toml"); any other path is a
/// measured throughputs table (docs/throughput-model.md).
bool IsCataloguePath(const std::string& spec);

/// A throughput source named by `spec`: a path ending in ".toml" is a catalogue file, any other
/// path a Shockwave/Gavel throughputs JSON (isolated entries of `gpu_type`). A catalogue holds
/// one GPU type, its `name`; asking it for another type is an InputError naming both. Throws
/// InputError on a bad or missing file or a type the file does not hold. This is what a task's
/// `throughputs` names (RunTask).
std::unique_ptr<ThroughputSource> LoadThroughputSource(
    const std::string& spec, const std::string& gpu_type = Cluster::kDefaultGpuType);

/// The sources of every GPU type of `cluster` from one `spec` (as LoadThroughputSource per type;
/// a measured table is parsed once for all types).
ClusterThroughputs LoadClusterThroughputs(const std::string& spec, const Cluster& cluster);

/// Options of FitCatalogueFromTable / FitCatalogueFromPolluxTraces.
struct CatalogueFitOptions {
  int gpus_per_node = 4;            ///< node size used to map a table entry to N (≥ 1)
  std::vector<std::string> models;  ///< models to fit; empty = every built-in model in the table
  std::string name = "v100";        ///< catalogue `name`
  std::string source;               ///< catalogue `source` (provenance text)
  FitOptions fit;                   ///< the Ceres fit
  /// Throws InputError(file="fit options", field=...) when a value is out of range.
  void Validate() const;
};

/// Fits every requested model of the built-in workload catalogue (include/adaptsim/workload.hpp)
/// to `table`. Entries of models outside the catalogue are ignored, and so are entries whose
/// batch size lies outside the model's [min_batch_size, max_batch_size] (the tacc table's
/// Transformer bs 256 = 0.0). Throws InputError for an unknown requested model, a requested model
/// without entries in the table, and a zero entry inside the model's batch-size range.
Catalogue FitCatalogueFromTable(const ThroughputTable& table, const CatalogueFitOptions& options);

/// Fits one model (named `model_name`, no workload block) to a Pollux profile: `placements.csv`
/// (placement,local_bsz,step_time,sync_time) and optionally `scalability.csv`
/// (num_nodes,num_replicas,local_bsz,step_time,sync_time) (docs/pollux.md §4.3). Samples with the
/// same (N, K, m) are averaged; accumulation time = step − sync. Throws InputError naming file,
/// line and column for malformed rows, non-positive times, or no rows.
Catalogue FitCatalogueFromPolluxTraces(const std::string& placements_path,
                                       const std::string& scalability_path,
                                       const std::string& model_name,
                                       const CatalogueFitOptions& options);

}  // namespace adaptsim::models
