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
#include <optional>
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

/// LinearSumAssignment of a full rows × C matrix solved on some of its columns only: the same
/// result, bit for bit, or std::nullopt when that cannot be shown. `kept_columns` are ascending
/// column indices of the full matrix and `kept_cost` their rows × kept_columns.size() costs
/// (row-major, finite). `omitted_bound_cost` (rows × b, row-major, finite) holds b of the omitted
/// columns such that every omitted column is entrywise at least one of them (so the kept and these
/// columns hold the full matrix's minimum, by which LsapCostShift::kMinimum shifts).
/// Why the result is SciPy's on the full matrix: an omitted column is never picked, so its dual v
/// stays 0 and its shortest-path cost is reach + cost − u, which rounding keeps at least its
/// bound's; while every bound stays strictly above the lowest path cost of a search step, no
/// omitted column can be picked or win a tie, and the kept columns meet the same reduced costs in
/// the same scan order — the swap-removal list keeps the full matrix's relative order as long as
/// each search moves at most as many entries as the kept prefix 0, 1, 2, … is long. Otherwise the
/// result is std::nullopt (the caller solves the full matrix). A search moves at most rows entries.
/// Throws InputError for a shape mismatch, non-finite costs or unsorted kept columns.
std::optional<std::vector<std::int64_t>> LinearSumAssignmentOfKeptColumns(
    const std::vector<double>& kept_cost, std::int64_t rows,
    const std::vector<std::int64_t>& kept_columns, const std::vector<double>& omitted_bound_cost,
    LsapCostShift shift = LsapCostShift::kMinimum);

}  // namespace adaptsim::internal
