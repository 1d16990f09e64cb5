// The workload catalogue: the five models of the Shockwave/Gavel job table (docs/mechanism.md §1.2,
// `scheduler/job_table.py:110-128`, dataset sizes `scheduler/utils.py:37-54`).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace adaptsim {

struct ModelInfo {
  std::string name;                       ///< "ResNet-18", ...
  std::string dataset;                    ///< "CIFAR-10", ...
  std::int64_t dataset_size_samples = 0;  ///< D, samples per epoch
  std::vector<int> trace_batch_sizes;     ///< batch sizes the trace generator draws
  int min_batch_size = 0;                 ///< BOTTOM of the accordion state machine (§3.4)
  int max_batch_size = 0;                 ///< TOP / max_bs (§3.4, §3.5)
  bool distributed = false;               ///< scale factor > 1 allowed
};

/// All catalogue models, in the job table's order.
const std::vector<ModelInfo>& ModelCatalogue();
/// The model named `name`, or nullptr.
const ModelInfo* FindModel(std::string_view name);

}  // namespace adaptsim
