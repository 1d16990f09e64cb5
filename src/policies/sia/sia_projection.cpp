// Sia's throughput projection across GPU types (sia_projection.hpp).
#include "sia_projection.hpp"

#include <algorithm>

#include "adaptsim/error.hpp"
#include "adaptsim/pollux_application.hpp"

namespace adaptsim {

double SiaMinimumSizeThroughput(const PolluxApplication& app) {
  if (app.synthetic()) {
    // A trace job (docs/sia.md §9): its profile is the catalogue model, whose step time grows
    // with the per-GPU batch, so both maxima of the rows are at the largest per-GPU batch.
    const double m = app.max_local_bsz();
    return m / app.Throughput({1}, m).step_time_s;
  }
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
