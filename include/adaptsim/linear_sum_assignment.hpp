// Rectangular linear sum assignment, tie-exact with SciPy's `linear_sum_assignment`, which AlloX
// calls (docs/policies.md §3.4; `allox.py:144`). Algorithm: Crouse's shortest augmenting path
// (D. F. Crouse, "On implementing 2D rectangular assignment algorithms", IEEE TAES 52(4) 2016,
// pp. 1685-1686), with the conventions of SciPy's implementation
// (`scipy/scipy@16a1a9b6:scipy/optimize/rectangular_lsap/rectangular_lsap.cpp`) that decide
// which optimum is returned when several exist:
//  * the matrix is shifted by its minimum before solving, or not (LsapCostShift): SciPy versions
//    differ here, and the shift changes the rounding of the reduced costs and with it the optimum
//    returned among near-ties. The Shockwave authors' AlloX runs (one GPU type) need the shift;
//    the reference's AlloX runs on 16 V100 + 8 P100 + 8 K80, like SciPy 1.10, need none
//    (docs/mechanism.md §12.7);
//  * rows are augmented in index order;
//  * columns are scanned from a list initialised in reverse index order, a scanned column being
//    removed by swapping the last list entry into its place;
//  * the scan keeps the strictly smallest reduced cost and, on an exact tie, moves to the scanned
//    column if it is unassigned.
#pragma once

#include <cstdint>
#include <vector>

namespace adaptsim::internal {

/// Whether the cost matrix is shifted by its minimum before solving (see above).
enum class LsapCostShift {
  kMinimum,  ///< subtract the smallest entry (the SciPy behind the Shockwave authors' runs)
  kNone,     ///< solve the matrix as given (SciPy 1.10)
};

/// Minimises Σ_i cost[i, col(i)] over injective col: rows → columns, for rows <= cols.
/// `cost` is row-major rows × cols, finite. Returns col(i) for each row i (rows entries, empty when
/// rows == 0 or cols == 0). Throws InputError if rows > cols or a cost is not finite.
std::vector<std::int64_t> LinearSumAssignment(const std::vector<double>& cost, std::int64_t rows,
                                              std::int64_t cols,
                                              LsapCostShift shift = LsapCostShift::kMinimum);

}  // namespace adaptsim::internal
