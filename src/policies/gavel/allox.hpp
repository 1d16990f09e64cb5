// AlloX = `allox` (docs/policies.md §3.4; `scheduler/policies/allox.py:13-188`), alpha = 0.2 for
// the policy string "allox" (`utils.py:606-611`). One GPU type, C GPUs; N_i remaining steps, T_i
// steps/s, τ_i seconds since arrival, s_i GPUs. Per call:
//  1. already allocated = jobs whose previous allocation is exactly 1.0 (exact float compare,
//     `:45-62`; only 1-GPU jobs can satisfy it); all others are unallocated (id order).
//  2. n = C − #already allocated (worker slots; multi-GPU jobs never reduce it), at least 0.
//  3. unallocated jobs sorted by −τ_i (stable), truncated to m' = min(m_u, max(⌊α m_u⌋, n)).
//  4. cost q[i, ℓ n + j] = (ℓ+1) · (N_i / T_i) + τ_i for ℓ = 0 … m'−1, j = 0 … n−1, with the
//     reference's floating-point operation order (`:108-141`).
//  5. rectangular LSAP (linear_sum_assignment.hpp, tie-exact with SciPy); column c is worker
//     c mod n at position-from-end ⌊c / n⌋; the job with the largest position runs first.
//  6. x = previous allocation for every job that has one, 0 otherwise; then the first job on
//     each worker gets x = 1/s_i (`:163-180`); saved as the previous allocation.
// The exact-1.0 test and the perpetual 1/s_i of multi-GPU jobs look like bugs but shape the
// baseline; they are kept (docs/policies.md §7.2). Σ x_i may exceed C; the mechanism arbitrates.
// A zero throughput on the reference GPU type is rejected (the reference silently uses 1e-10,
// `:117-118`); on the other types of a mixed cluster it is 1e-10, as in the reference.
// Several GPU types (docs/mechanism.md §12.7): slots are numbered type by type in name order,
// n_k = C_k − #{already allocated jobs with x_ik == 1.0}; the processing time of a job on a slot
// is N_i / T_ik; the first job of a slot gets 1/s_i on the slot's type, so a multi-GPU job can
// hold 1/s_i on several types (and counts as allocated for good once they sum to exactly 1.0).
// Scale: the matrix has m'·n·m' cells (10^9 at 1,024 free GPUs and 1,024 jobs, 8 GB). Above
// `exact_assignment_max_cells` the same optimum is computed from the structure instead: the cost
// of a column depends only on its position ℓ, so an optimal assignment gives the n jobs with the
// largest N_i/T_i position 0, the next n position 1, … (rearrangement inequality); the k jobs at
// the last position ℓ_max run, and the other n − k workers run the n − k shortest jobs at
// ℓ_max − 1. Which jobs at ℓ_max − 1 share a worker with a job at ℓ_max does not change the cost,
// so SciPy may pick other ones: an equally optimal assignment with another tie-break
// (docs/policies.md §3.4).
#pragma once

#include <map>
#include <vector>

#include "adaptsim/policy.hpp"
#include "adaptsim/policy_options.hpp"

namespace adaptsim {

struct AlloXOptions {
  double alpha = 0.2;  ///< share of unallocated jobs considered
  /// Largest assignment matrix (m'·n·m' cells) solved by the SciPy-exact LSAP; larger ones use
  /// the structured optimum. 2^22 cells (32 MiB) keeps the 120-, 460- and 900-job runs exact.
  double exact_assignment_max_cells = 4194304.0;
  /// Shift the assignment matrix by its minimum before solving, as the SciPy behind the Shockwave
  /// authors' runs did (true, default); false solves it as given, as SciPy 1.10 and the
  /// reference's runs on several GPU types (docs/mechanism.md §12.7). Only near-ties differ.
  bool shift_costs_by_minimum = true;

  template <typename Self, typename V>
  static void VisitOptions(Self& self, V&& visit) {
    visit(Option("alpha", "share of the unallocated jobs considered each solve", AtLeast(0)),
          self.alpha);
    visit(Option("exact_assignment_max_cells",
                 "largest m'*n*m' matrix solved by the SciPy-exact assignment; larger ones by the "
                 "structured optimum (docs/policies.md 3.4)",
                 AtLeast(0)),
          self.exact_assignment_max_cells);
    visit(Option("shift_costs_by_minimum",
                 "shift the assignment matrix by its minimum before solving, as the SciPy of the "
                 "Shockwave authors' runs (false = SciPy 1.10, as the reference's runs on several "
                 "GPU types); decides near-ties only"),
          self.shift_costs_by_minimum);
  }
};

class AlloXPolicy final : public AllocationPolicy {
 public:
  explicit AlloXPolicy(AlloXOptions options);
  AllocationPolicyTraits Traits() const override {
    return {.several_gpu_types = true};  // "AlloX_Perf": fixed type order
  }
  /// Throws InputError for a zero throughput or a scale factor larger than the cluster.
  Allocation ComputeAllocation(const ClusterState& state) override;

 private:
  AlloXOptions options_;
  std::map<JobId, std::vector<double>> previous_;  ///< `_prev_allocation`, x_ik (`:17`, `:186`)
};

}  // namespace adaptsim
