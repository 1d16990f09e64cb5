// Sia's configuration set (sia_configurations.hpp).
#include "sia_configurations.hpp"

#include <algorithm>
#include <set>

#include "adaptsim/error.hpp"

namespace adaptsim {

namespace {

// `S:sia-simulator/sia.py:13-17`: (nodes, GPUs).
struct Shape {
  int num_nodes, num_gpus;
};
constexpr Shape kConfigs4Gpu[] = {{1, 1},   {1, 2},   {1, 4},   {2, 8},   {3, 12},  {4, 16},
                                  {5, 20},  {6, 24},  {7, 28},  {8, 32},  {9, 36},  {10, 40},
                                  {11, 44}, {12, 48}, {13, 52}, {14, 56}, {15, 60}, {16, 64}};
constexpr Shape kConfigs8Gpu[] = {{1, 1},  {1, 2},  {1, 4},  {1, 8},  {2, 16}, {3, 24},
                                  {4, 32}, {5, 40}, {6, 48}, {7, 56}, {8, 64}};

}  // namespace

std::vector<SiaConfiguration> SiaConfigurations(const std::vector<SiaNodeGroup>& groups) {
  auto fail = [](const std::string& message) { throw InputError("sia", 0, "cluster", message); };
  if (groups.empty()) fail("no GPU type");
  std::set<std::string> seen;
  std::vector<SiaConfiguration> configurations;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const SiaNodeGroup& group = groups[g];
    if (!seen.insert(group.gpu_type).second) fail("GPU type '" + group.gpu_type + "' repeated");
    if (group.gpus_per_node != 4 && group.gpus_per_node != 8) {
      fail("GPU type '" + group.gpu_type +
           "': Sia's configurations need 4 or 8 GPUs per node, got " +
           std::to_string(group.gpus_per_node));
    }
    if (group.num_nodes < 1 || group.max_physical_nodes < 0) {
      fail("GPU type '" + group.gpu_type + "': needs >= 1 node and max_physical_nodes >= 0");
    }
    const int max_nodes = group.max_physical_nodes > 0
                              ? std::min(group.num_nodes, group.max_physical_nodes)
                              : group.num_nodes;
    auto add = [&](const auto& shapes) {
      for (const Shape& shape : shapes) {
        if (shape.num_nodes <= max_nodes) {
          configurations.push_back({static_cast<int>(g), shape.num_nodes, shape.num_gpus});
        }
      }
    };
    if (group.gpus_per_node == 4) {
      add(kConfigs4Gpu);
    } else {
      add(kConfigs8Gpu);
    }
  }
  return configurations;
}

}  // namespace adaptsim
