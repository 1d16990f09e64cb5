// Per-application profiles of the Pollux simulator (docs/pollux.md §4.3,
// `A:simulator/applications.py`): measured step/sync times per placement and atomic batch size
// (placements.csv, scalability.csv) and per-epoch progress and gradient statistics at each
// validated total batch size (validation-<bsz>.csv).
//
// Look-ups follow the artifact exactly:
//  * Throughput(placement, m): zeros dropped, placement rotated to its lexicographically smallest
//    rotation; a known placement id -> linear interpolation over that placement's local_bsz grid
//    (scipy interp1d; outside the grid is an error); otherwise barycentric interpolation on the
//    Delaunay triangulation (libqhull, options "d Qbb Qc Qz Q12 Qt", as scipy's
//    LinearNDInterpolator) of (num_nodes, num_replicas, local_bsz) built from the per-key means of
//    placements.csv plus all scalability.csv rows, queried at (min(N, 16), K, m), triangulated on
//    the first such look-up; outside the hull is an error (`applications.py:204-227`).
//  * GradStats(M, epoch): linear interpolation in batch size between the bracketing validated
//    batch sizes (`applications.py:186-202`); Iteration(M, epoch) likewise (`:152-163`).
//  * Progress(epoch) = min over validation files of progress[epoch-1], 0 for epoch 0 (`:132-136`).
//  * Completion: every app has target_metric None, so the completion epoch is max_epochs - 1 and a
//    job completes when its progress reaches Progress(max_epochs) (`:138-150`).
// Errors are InputError naming the file (and line for malformed rows). Not thread-safe (the
// throughput look-up memoizes, as the artifact's @memoize); one instance per simulation.
#pragma once

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace adaptsim {

class DelaunayInterpolator;

/// Seconds per optimizer step without accumulation, and the all-reduce wait within it.
struct StepTimes {
  double step_time_s = 0.0;
  double sync_time_s = 0.0;
};

/// Pre-conditioned gradient statistics; var is normalised to the initial batch size M0.
struct GradientStats {
  double sqr = 0.0;
  double var = 0.0;
};

/// The artifact's per-application overrides (`applications.py:230-238`); 0 = from the data.
struct PolluxApplicationOverrides {
  int max_epochs = 0;
  int max_local_bsz = 0;
};

/// A synthetic application: analytic step times and per-epoch statistics instead of profile
/// files. Pollux on the Shockwave traces builds one per trace job (docs/pollux.md, "Pollux on
/// the Shockwave traces"; adaptsim/job_mapping.hpp).
struct SyntheticApplicationSpec {
  std::string name;         ///< unique application name
  std::string context;      ///< file named in error messages (the trace)
  int init_batch_size = 0;  ///< M0 >= 1
  int max_batch_size = 0;   ///< largest total batch, >= M0
  int min_local_bsz = 1;    ///< per-GPU batch bounds, 1 <= min <= max
  int max_local_bsz = 0;
  int max_replicas = 0;                   ///< 0 = no cap of its own (1 = not distributed)
  int fixed_batch_size = 0;               ///< > 0: the job trains at this total batch only
  std::vector<double> epoch_progress;     ///< progress gained in each epoch (> 0), E entries
  std::vector<GradientStats> epoch_grad;  ///< gradient statistics of each epoch, E entries
  double samples_per_epoch = 0;           ///< D (> 0), for Iteration()
  /// Step time and sync wait at (nodes, replicas, per-GPU batch); must be positive and finite.
  std::function<StepTimes(int num_nodes, int num_replicas, double local_bsz)> step_times;
};

class PolluxApplication {
 public:
  /// Reads `trace_dir`/{placements.csv, scalability.csv, validation-*.csv}; the app name is the
  /// folder's base name. With a `gpu_type` (the Sia artifact's per-type profiles, docs/sia.md §1)
  /// the step-time files are `placements-<gpu_type>.csv` and `scalability-<gpu_type>.csv`
  /// (`S:sia-simulator/applications.py:37-46`); the validation files are shared by all types.
  /// Throws InputError for missing files, malformed rows (file, line, field), no validation
  /// file, or fewer validation rows than max_epochs.
  static PolluxApplication Load(const std::string& trace_dir,
                                const PolluxApplicationOverrides& overrides,
                                const std::string& gpu_type = "");
  /// Builds a synthetic application. GradStats/Iteration ignore the validated-range check
  /// (statistics do not depend on the batch size); Throughput calls `step_times`. Throws
  /// InputError(context, field) for inconsistent specs.
  static PolluxApplication Synthetic(SyntheticApplicationSpec spec);
  ~PolluxApplication();
  PolluxApplication(PolluxApplication&&) noexcept;
  PolluxApplication& operator=(PolluxApplication&&) noexcept;

  const std::string& name() const { return name_; }
  /// The GPU type whose step-time files were read; "" for the suffix-less (Pollux) files.
  const std::string& gpu_type() const { return gpu_type_; }
  /// The profile folder (or a synthetic application's context), for messages.
  const std::string& dir() const { return dir_; }
  /// The step-time file read (placements.csv or placements-<gpu_type>.csv), for messages.
  const std::string& placements_path() const { return placements_path_; }
  /// Built by Synthetic() (step times from a function, no profile files).
  bool synthetic() const { return static_cast<bool>(step_times_); }
  int init_batch_size() const { return validated_.front(); }  ///< M0 (smallest validated)
  int max_batch_size() const { return validated_.back(); }    ///< largest validated
  int min_local_bsz() const { return min_local_bsz_; }
  int max_local_bsz() const { return max_local_bsz_; }
  int max_epochs() const { return max_epochs_; }
  int completion_epoch() const { return max_epochs_ - 1; }
  const std::vector<int>& validated_batch_sizes() const { return validated_; }
  /// Replica cap of the application itself; 0 = none (every profiled application).
  int max_replicas() const { return max_replicas_; }
  /// > 0: the job's total batch is fixed (a synthetic job without batch-size adaptation); 0 for
  /// every profiled application (the artifact's ncf rule lives in the policies).
  int fixed_batch_size() const { return fixed_batch_size_; }

  /// `placement` = replicas per node (zeros ignored, >= 1 replica). Throws InputError (file =
  /// the app's placements.csv) when the look-up is outside the profiled domain.
  StepTimes Throughput(const std::vector<int>& placement, double local_bsz) const;
  /// One measured row of the step-time file: per-GPU batch, step time and all-reduce wait (s).
  struct PlacementRow {
    double local_bsz, step_time_s, sync_time_s;
  };
  /// The rows of `placement` (zeros ignored, rotated to its smallest rotation as Throughput does),
  /// ascending local_bsz, or nullptr when the placement was not profiled (and for synthetic
  /// applications).
  const std::vector<PlacementRow>* ProfiledPlacement(const std::vector<int>& placement) const;
  /// The largest per-GPU batch measured at `placement` (`S:sia-simulator/applications.py:310-324`):
  /// the max local_bsz of its rows when the placement was profiled, else the max local_bsz of the
  /// scalability rows with num_nodes >= N and num_replicas >= K. Throws InputError (file = the
  /// step-time file, field "placement") when no row qualifies. A synthetic application has no
  /// memory table: its max_local_bsz() holds on every placement (the catalogue model's largest
  /// per-GPU batch, docs/sia.md §9).
  int MaxLocalBszAt(const std::vector<int>& placement) const;
  /// The largest per-GPU batch of the step-time file's rows with `num_replicas` replicas over any
  /// number of nodes, or 0 when no such row exists (and for synthetic applications): the Sia
  /// artifact's memory correction of the executed batch (`S:sia-simulator/job.py:375-381`).
  int MaxLocalBszAtReplicas(int num_replicas) const;
  /// Throws InputError when batch_size is outside the validated range or epoch >= rows.
  GradientStats GradStats(double batch_size, int epoch) const;
  /// Cumulative optimizer steps after `epoch` at total batch size `batch_size` (interpolated).
  double Iteration(double batch_size, int epoch) const;
  /// Cumulative scale-invariant progress at the end of epoch `epoch` - 1 (0 for epoch 0).
  double Progress(int epoch) const;
  /// Progress(max_epochs): the progress at which a job completes.
  double TargetProgress() const { return Progress(max_epochs_); }

 private:
  struct Validation;
  using GridRow = PlacementRow;
  struct ScalabilityRow {
    int num_nodes, num_replicas, local_bsz;
  };
  PolluxApplication() = default;
  std::pair<int, int> Bracket(double batch_size) const;
  StepTimes LookUp(const std::vector<int>& placement, double local_bsz) const;

  std::string name_;
  std::string dir_;
  std::string gpu_type_;
  std::string placements_path_;
  std::vector<ScalabilityRow> scalability_;               ///< for MaxLocalBszAt
  std::vector<int> validated_;                            ///< ascending validated total batch sizes
  std::vector<Validation> validation_;                    ///< parallel to validated_
  std::map<long long, std::vector<GridRow>> placements_;  ///< placement id -> rows by local_bsz
  std::vector<std::array<double, 3>> interpolation_points_;     ///< (N, K, m) of the N-D fallback
  std::vector<std::array<double, 2>> interpolation_values_;     ///< (step, sync) at those points
  mutable std::unique_ptr<DelaunayInterpolator> interpolator_;  ///< built on first use
  int min_local_bsz_ = 0;
  int max_local_bsz_ = 0;
  int max_epochs_ = 0;
  int max_replicas_ = 0;
  int fixed_batch_size_ = 0;
  std::function<StepTimes(int, int, double)> step_times_;  ///< set for synthetic applications
  mutable std::map<std::pair<std::vector<int>, double>, StepTimes> memo_;
};

/// Replicas per node, `per_node` at a time: 10 on 4-GPU nodes -> (4, 4, 2)
/// (`applications.py:72-74`, `optimus.py:76-78`).
std::vector<int> PackedPlacement(int num_replicas, int per_node);

/// The six applications of the artifact with their overrides (bert 2, cifar10 100, ncf 10,
/// imagenet 90, deepspeech2 80, yolov3 50 epochs; yolov3 max_local_bsz 8), loaded on demand.
class PolluxApplications {
 public:
  /// `traces_dir` holds one folder per application; nothing is read until Get().
  explicit PolluxApplications(std::string traces_dir) : traces_dir_(std::move(traces_dir)) {}
  /// Loads (once) and returns application `name`. Throws InputError(context_file, context_line,
  /// "application", ...) for an unknown name, or the loader's errors.
  const PolluxApplication& Get(const std::string& name, const std::string& context_file = "",
                               int context_line = 0);
  const std::string& traces_dir() const { return traces_dir_; }
  /// Registers `app` under its name (synthetic applications); Get() returns it from then on.
  /// Throws InputError when the name is taken.
  void Add(PolluxApplication app);

 private:
  std::string traces_dir_;
  std::map<std::string, std::unique_ptr<PolluxApplication>> loaded_;
};

struct PolluxWorkload;

/// Checks every job of `workload` against its application's profile before a simulation starts:
/// the application exists (apps.Get) and the job's batch_size lies in the application's
/// validated range [init_batch_size(), max_batch_size()] (the validation-<bsz>.csv files), so a
/// bad row fails at once instead of mid-run, for every policy. Throws InputError(workload file,
/// the row's line, "application" | "batch_size", ...).
void CheckWorkloadAgainstProfiles(const PolluxWorkload& workload, PolluxApplications& apps);

struct PolluxJobSpec;

/// Throws InputError(workload file, the job's line, "batch_size", ...) when the job's batch_size
/// lies outside `app`'s validated range [init_batch_size(), max_batch_size()].
void CheckJobBatchSize(const PolluxWorkload& workload, const PolluxJobSpec& spec,
                       const PolluxApplication& app);

}  // namespace adaptsim
