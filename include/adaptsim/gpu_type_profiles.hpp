// Application profiles per GPU type, as the Sia artifact reads them (docs/sia.md §1;
// `S:sia-simulator/applications.py:342-395`): for GPU type t and application a, the step-time
// files `traces/<a>/placements-<t>.csv` and `traces/<a>/scalability-<t>.csv`, and the validation
// files `traces/<a>/validation-<bsz>.csv` shared by every type (so the initial and largest batch
// size, the progress and gradient statistics and max_epochs do not depend on the type).
//
// The per-type limits follow the artifact: min/max local batch = min/max local_bsz of
// placements-<t>.csv, except deepspeech2 on `rtx`, whose max local batch is 57
// (`applications.py:51-52`); the Pollux artifact's yolov3 max local batch 8 does not apply. The
// epochs per application are the Pollux artifact's (bert 2, cifar10 100, ncf 10, imagenet 90,
// deepspeech2 80, yolov3 50). The pipeline-parallel gpt_pmp profiles are not supported (the
// artifact cannot run them, docs/sia.md §7).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "adaptsim/pollux_application.hpp"

namespace adaptsim {

struct PolluxWorkload;

class GpuTypeApplications {
 public:
  /// `traces_dir` holds one folder per application; nothing is read until Get().
  explicit GpuTypeApplications(std::string traces_dir) : traces_dir_(std::move(traces_dir)) {}

  /// Loads (once) and returns application `name`'s profile on GPU type `gpu_type`.
  /// Errors (InputError):
  ///  * unknown application: (context_file, context_line, "application");
  ///  * the application has no profile for the type (no placements-<type>.csv): with a context,
  ///    (context_file, context_line, "application"), else (the missing file, 0, "gpu_type"); the
  ///    message names the missing file and the types that are profiled;
  ///  * a malformed profile: the loader's errors, naming the profile file, line and field
  ///    (a placement that is not replica digits 1-9: field "placement").
  const PolluxApplication& Get(const std::string& name, const std::string& gpu_type,
                               const std::string& context_file = "", int context_line = 0);

  /// The GPU types profiled for application `name`: the <t> of every placements-<t>.csv in its
  /// folder, sorted; empty when the folder does not exist.
  std::vector<std::string> ProfiledTypes(const std::string& name) const;

  const std::string& traces_dir() const { return traces_dir_; }

 private:
  std::string traces_dir_;
  std::map<std::pair<std::string, std::string>, std::unique_ptr<PolluxApplication>> loaded_;
};

/// A GPU type's nodes in the Sia artifact: GPUs per node and the most physical nodes its
/// profiles cover (0 = no cap).
struct GpuTypeNodeShape {
  int gpus_per_node = 0;
  int max_physical_nodes = 0;
};

/// The node shape of the Sia artifact's GPU type `gpu_type` (aws 4 GPUs × ≤ 16 nodes, azure 8 × 5,
/// dgx and dgx-ext 8 × 2, quad 4 × 1, rtx 8 × 3; `S:sia-simulator/simulator_config.py:8-15`).
/// Throws InputError(file, line, field) for another type, naming the known ones.
GpuTypeNodeShape SiaGpuTypeNodeShape(const std::string& gpu_type, const std::string& file, int line,
                                     const std::string& field);

/// The Sia artifact's per-model checkpoint-restore delays, s, by application (cifar10 50,
/// deepspeech2 25, bert 120, yolov3 80, imagenet 250, ncf 15; `applications.py:56-69`).
const std::map<std::string, double>& SiaRestartDelays();

/// The Sia artifact's per-model slowdown calibration (cifar10 1.8, imagenet, yolov3, bert,
/// deepspeech2 1.2, ncf 1.5; `simulator_config.py:31-33`); progress rates are divided by it.
const std::map<std::string, double>& SiaSlowdowns();

/// Checks, before a run starts, that every job of `workload` has a profile on every type of
/// `gpu_types` (loading them) and that its batch_size lies in the validated range. Throws
/// InputError(workload file, the row's line, "application" | "batch_size", ...).
void CheckWorkloadAgainstGpuTypes(const PolluxWorkload& workload, GpuTypeApplications& apps,
                                  const std::vector<std::string>& gpu_types);

}  // namespace adaptsim
