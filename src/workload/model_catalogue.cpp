// The job table of the reference (docs/mechanism.md §1.2; `scheduler/job_table.py:110-128`, dataset
// sizes `scheduler/utils.py:37-54`, batch-size limits `scheduler.py:1604-1726, 4767-4775`).
#include "adaptsim/workload.hpp"

namespace adaptsim {

const std::vector<ModelInfo>& ModelCatalogue() {
  static const std::vector<ModelInfo> kModels = {
      {"ResNet-18", "CIFAR-10", 50000, {32, 64, 128, 256}, 16, 256, true},
      {"ResNet-50", "ImageNet", 100000, {16, 32, 64}, 16, 128, true},
      {"Transformer", "Multi30k", 10000, {16, 32, 64, 128}, 16, 128, true},
      {"LM", "Wikitext-2", 59675, {5, 10, 20, 40, 80}, 5, 80, true},
      {"Recommendation", "ML-20M", 117907, {512, 1024, 2048, 4096, 8192}, 512, 8192, false},
  };
  return kModels;
}

const ModelInfo* FindModel(std::string_view name) {
  for (const ModelInfo& model : ModelCatalogue()) {
    if (model.name == name) return &model;
  }
  return nullptr;
}

}  // namespace adaptsim
