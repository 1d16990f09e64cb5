// Sia's placement of chosen configurations on nodes (docs/sia.md §3.6;
// `S:sia-simulator/sia.py:155-204`, alloc_to_placement_fast, the one the reference runs).
//
// Per GPU type, all nodes start free; jobs are taken in descending GPU count (stable: job order
// on ties) with a round-robin node pointer that starts at 0 and is kept across jobs:
//  1. take floor(K / g) fully free nodes, scanning each node at most once from the pointer;
//  2. take the remaining GPUs from the nodes at the pointer onwards (mod the node count), the
//     pointer advancing past every node visited.
// Sia's sizes are powers of two up to g or whole nodes, so a configuration that fits the type's
// capacity is always placed with exactly its shape.
#pragma once

#include <optional>
#include <vector>

#include "sia_configurations.hpp"

namespace adaptsim {

/// The node of each GPU of job i (ids 0..num_nodes−1 within its type, one entry per GPU);
/// empty for an unallocated job. Throws InputError(file "sia", field "placement") when the
/// configurations of a type exceed its GPUs.
std::vector<std::vector<int>> SiaPlaceJobs(
    const std::vector<SiaNodeGroup>& groups,
    const std::vector<std::optional<SiaConfiguration>>& jobs);

}  // namespace adaptsim
