// A cluster of GPU types: which types, how many GPUs of each, and the worker ids they get
// (docs/mechanism.md §12). One GPU per server, as in every reference run.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace adaptsim {

/// GPUs of one type: `name` (lower case, e.g. "v100") and how many (`count` >= 1).
struct GpuTypeCount {
  std::string name;
  int count = 0;
  bool operator==(const GpuTypeCount&) const = default;
};

/// The GPU types of a cluster and their counts. Types are kept in the reference's registration
/// order, sorted by name (`sorted(cluster_spec)`,
/// `shockwave@8a44f4a:scheduler/scheduler.py:1826-1832`): a type's index is its position there, and
/// worker ids are numbered type by type in that order (16 V100 + 8 P100 + 8 K80: ids 0-7 K80, 8-15
/// P100, 16-31 V100). A type with no GPU is not part of the cluster. Immutable value; cheap to
/// copy.
class Cluster {
 public:
  /// The GPU type of a plain GPU count (`--gpus N`), whose throughputs the tables' "v100" hold.
  static constexpr const char* kDefaultGpuType = "v100";

  /// 32 GPUs of the default type.
  Cluster();
  /// `num_gpus` GPUs of `gpu_type`. Throws InputError(field "num_gpus") when num_gpus < 1.
  static Cluster Homogeneous(int num_gpus, std::string gpu_type = kDefaultGpuType);
  /// The given types (any order; zero counts dropped). Throws InputError(file, 0, field) for a
  /// name that is not [a-z0-9_-]+ (not starting with '-'; the Sia profiles' "dgx-ext"), a repeated
  /// name, a negative count or no GPU at all.
  static Cluster FromCounts(std::vector<GpuTypeCount> counts, const std::string& file = "cluster",
                            const std::string& field = "cluster");
  /// Parses the three accepted forms (errors: InputError(file, line, field) naming the part):
  ///  * "N"                    N GPUs of the default type (N >= 1);
  ///  * "V:P:K"                the reference's `--cluster_spec`: V v100, P p100, K k80 (each an
  ///                           integer >= 0; driver
  ///                           `scheduler/scripts/drivers/simulate_scheduler_with_trace.py:44-55`);
  ///  * "v100=16,p100=8,k80=8" named counts, any type names, any order.
  static Cluster Parse(std::string_view text, const std::string& file = "cluster", int line = 0,
                       const std::string& field = "cluster");

  /// Types in worker-id (sorted-name) order.
  const std::vector<GpuTypeCount>& types() const { return types_; }
  int num_types() const { return static_cast<int>(types_.size()); }
  /// G = Σ_k C_k.
  int num_gpus() const { return num_gpus_; }
  bool homogeneous() const { return types_.size() == 1; }
  const std::string& name(int type) const { return types_.at(type).name; }
  int count(int type) const { return types_.at(type).count; }
  /// Worker ids of `type` are first_worker_id(type) … first_worker_id(type) + count(type) − 1.
  int first_worker_id(int type) const { return first_ids_.at(type); }
  /// The type of worker `worker_id` (0 <= worker_id < num_gpus()).
  int TypeOfWorker(int worker_id) const;
  /// Index of type `name`, if the cluster has it.
  std::optional<int> IndexOf(std::string_view name) const;
  /// The type whose throughputs define a job's exclusive time (its profile, the over-deadline
  /// cut and ρ): the default type when present, else the first type. The reference needs v100
  /// and measures every job against its V100 time (`utils.py:694-704`).
  int reference_type() const { return reference_type_; }
  /// Canonical text: "N" for the default type alone, else the named form in worker-id order
  /// ("k80=8,p100=8,v100=16"). Parse(ToString()) == *this.
  std::string ToString() const;

  bool operator==(const Cluster& other) const { return types_ == other.types_; }

 private:
  struct Empty {};
  explicit Cluster(Empty) {}
  static Cluster Build(std::vector<GpuTypeCount> counts, const std::string& file, int line,
                       const std::string& field);

  std::vector<GpuTypeCount> types_;
  std::vector<int> first_ids_;
  int num_gpus_ = 0;
  int reference_type_ = 0;
};

}  // namespace adaptsim
