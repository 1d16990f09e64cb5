// Piecewise-linear interpolation on a 3-D Delaunay triangulation, reproducing scipy 1.10's
// LinearNDInterpolator (scipy/interpolate/interpnd.pyx `_do_evaluate`, scipy/spatial/_qhull.pyx
// `_find_simplex`, `_find_simplex_directed`, `_find_simplex_bruteforce`,
// `_get_barycentric_transforms`) as the Pollux artifact uses it for placements outside the
// profiles (docs/pollux.md §4.3). The triangulation is libqhull's "d Qbb Qc Qz Q12 Qt"; the Pollux
// profile grids are co-spherical lattices, for which Qhull's triangulated output contains
// overlapping simplices, so the VALUE at a point depends on which simplex the search reaches.
// Hence the search is scipy's, step by step: a walk on the lifted paraboloid from simplex 0, a
// barycentric directed walk, then a brute-force scan (eps = 100·DBL_EPSILON, broad eps =
// sqrt(DBL_EPSILON) around degenerate simplices). Immutable after construction; thread-safe.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace adaptsim {

class DelaunayInterpolator {
 public:
  using Point = std::array<double, 3>;
  using Value = std::array<double, 2>;
  /// Triangulates `points` (≥ 4, not all coplanar). Throws InputError(`file`) when Qhull fails.
  DelaunayInterpolator(std::vector<Point> points, std::vector<Value> values,
                       const std::string& file);
  /// The interpolated value at x, or nullopt outside the convex hull (scipy returns NaN).
  std::optional<Value> At(const Point& x) const;
  int num_simplices() const { return static_cast<int>(simplices_.size()); }

 private:
  struct Simplex {
    std::array<int, 4> vertex;         ///< point ids, Qhull's vertex order
    std::array<int, 4> neighbor;       ///< simplex opposite vertex k, -1 = none
    std::array<double, 5> plane;       ///< lifted facet: normal[0..3], offset
    std::array<double, 12> transform;  ///< T^-1 (3×3, row-major) then r; NaN if degenerate
  };
  double Coordinate(const Simplex& s, const Point& x, int k) const;
  bool Inside(const Simplex& s, const Point& x, double eps, std::array<double, 4>& c) const;
  int Directed(const Point& x, int start, std::array<double, 4>& c) const;
  int BruteForce(const Point& x, std::array<double, 4>& c) const;
  bool FullyOutside(const Point& x) const;

  std::vector<Point> points_;
  std::vector<Value> values_;
  std::vector<Simplex> simplices_;
  Point min_bound_{}, max_bound_{};
  double paraboloid_scale_ = 1.0, paraboloid_shift_ = 0.0;
};

}  // namespace adaptsim
