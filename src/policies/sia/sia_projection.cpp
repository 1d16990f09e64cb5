// Sia's throughput projection across GPU types (sia_projection.hpp).
#include "sia_projection.hpp"

#include <algorithm>

#include "adaptsim/error.hpp"
#include "adaptsim/pollux_application.hpp"

namespace adaptsim {

double SiaMinimumSizeThroughput(const PolluxApplication& app) {
  const auto* rows = app.ProfiledPlacement({1});
  if (rows == nullptr || rows->empty()) {
    throw InputError(app.placements_path(), 0, "placement",
                     app.name() + ": no placement '1' row (Sia's minimum-size throughput)");
  }
  double max_bsz = 0, max_step = 0;
  for (const auto& row : *rows) {
    max_bsz = std::max(max_bsz, row.local_bsz);
    max_step = std::max(max_step, row.step_time_s);
  }
  return max_bsz / max_step;
}

float SiaProjectGoodput(const SiaGoodputFunction& source, int source_gpus_per_node, int num_gpus,
                        double ratio) {
  const int num_nodes = (num_gpus + source_gpus_per_node - 1) / source_gpus_per_node;
  const float goodput = static_cast<float>(source(num_nodes, num_gpus));
  return goodput * static_cast<float>(ratio);
}

}  // namespace adaptsim
