// scipy LinearNDInterpolator on libqhull (see the header).
#include "delaunay_interpolator.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

#include "adaptsim/error.hpp"

namespace adaptsim {
namespace {

constexpr double kEps = 100 * std::numeric_limits<double>::epsilon();
const double kEpsBroad = std::sqrt(std::numeric_limits<double>::epsilon());

// Inverse of the 3×3 matrix t (columns = edges v_j − r); false when the reciprocal condition
// number is below scipy's limit 1000·DBL_EPSILON (1-norm estimate; here computed exactly).
bool InvertEdges(const std::array<std::array<double, 3>, 3>& m, double* inverse) {
  const double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                     m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                     m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  if (det == 0 || !std::isfinite(det)) return false;
  double norm = 0.0, inverse_norm = 0.0;
  for (int j = 0; j < 3; ++j) {
    double column = 0.0, inverse_column = 0.0;
    for (int i = 0; i < 3; ++i) {
      const int i1 = (j + 1) % 3, i2 = (j + 2) % 3, j1 = (i + 1) % 3, j2 = (i + 2) % 3;
      inverse[3 * i + j] = (m[i1][j1] * m[i2][j2] - m[i1][j2] * m[i2][j1]) / det;
      column += std::abs(m[i][j]);
    }
    norm = std::max(norm, column);
    for (int i = 0; i < 3; ++i) inverse_column += std::abs(inverse[3 * i + j]);
    inverse_norm = std::max(inverse_norm, inverse_column);
  }
  return 1.0 / (norm * inverse_norm) >= 1000 * std::numeric_limits<double>::epsilon();
}

}  // namespace

DelaunayInterpolator::DelaunayInterpolator(std::vector<Point> points, std::vector<Value> values,
                                           const std::string& file)
    : points_(std::move(points)), values_(std::move(values)) {
  min_bound_ = max_bound_ = points_.at(0);
  std::vector<coordT> coords;
  for (const Point& p : points_) {
    coords.insert(coords.end(), p.begin(), p.end());
    for (int i = 0; i < 3; ++i) {
      min_bound_[i] = std::min(min_bound_[i], p[i]);
      max_bound_[i] = std::max(max_bound_[i], p[i]);
    }
  }
  qhT qh_storage;
  qhT* qh = &qh_storage;
  qh_zero(qh, stderr);
  char options[] = "qhull d Qbb Qc Qz Q12 Qt";
  const int exit_code = qh_new_qhull(qh, 3, static_cast<int>(points_.size()), coords.data(), False,
                                     options, nullptr, stderr);
  if (exit_code == 0) {
    qh_triangulate(qh);
    if (qh->SCALElast) {  // _qhull.pyx _get_delaunay_info
      paraboloid_scale_ = qh->last_newhigh / (qh->last_high - qh->last_low);
      paraboloid_shift_ = -qh->last_low * paraboloid_scale_;
    }
    std::map<unsigned, int> index_of;  // facet id -> simplex index (lower facets only)
    facetT* facet;
    FORALLfacets {
      if (!facet->upperdelaunay) index_of[facet->id] = static_cast<int>(index_of.size());
    }
    FORALLfacets {
      if (facet->upperdelaunay) continue;
      Simplex s{};
      for (int k = 0; k < 4; ++k) {
        s.vertex[k] = qh_pointid(qh, static_cast<vertexT*>(facet->vertices->e[k].p)->point);
        auto* neighbor = static_cast<facetT*>(facet->neighbors->e[k].p);
        auto found = index_of.find(neighbor->id);
        s.neighbor[k] = neighbor->upperdelaunay || found == index_of.end() ? -1 : found->second;
        s.plane[k] = facet->normal[k];
      }
      s.plane[4] = facet->offset;
      std::array<std::array<double, 3>, 3> edges{};
      const Point& r = points_[s.vertex[3]];
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) edges[i][j] = points_[s.vertex[j]][i] - r[i];
      if (!InvertEdges(edges, s.transform.data())) {
        s.transform.fill(std::numeric_limits<double>::quiet_NaN());
      }
      for (int i = 0; i < 3; ++i) s.transform[9 + i] = r[i];
      simplices_.push_back(s);
    }
  }
  qh_freeqhull(qh, !qh_ALL);
  int current_long = 0, total_long = 0;
  qh_memfreeshort(qh, &current_long, &total_long);
  if (exit_code != 0 || simplices_.empty()) {
    throw InputError(file, 0, "", "qhull could not triangulate the profile");
  }
}

double DelaunayInterpolator::Coordinate(const Simplex& s, const Point& x, int k) const {
  double c = 0.0;
  for (int j = 0; j < 3; ++j) c += s.transform[3 * k + j] * (x[j] - s.transform[9 + j]);
  return c;
}

// _barycentric_inside: early exit on the first coordinate outside [-eps, 1 + eps].
bool DelaunayInterpolator::Inside(const Simplex& s, const Point& x, double eps,
                                  std::array<double, 4>& c) const {
  c[3] = 1.0;
  for (int i = 0; i < 3; ++i) {
    c[i] = Coordinate(s, x, i);
    c[3] -= c[i];
    if (!(c[i] >= -eps && c[i] <= 1 + eps)) return false;
  }
  return c[3] >= -eps && c[3] <= 1 + eps;
}

bool DelaunayInterpolator::FullyOutside(const Point& x) const {
  for (int i = 0; i < 3; ++i) {
    if (x[i] < min_bound_[i] - kEps || x[i] > max_bound_[i] + kEps) return true;
  }
  return false;
}

int DelaunayInterpolator::BruteForce(const Point& x, std::array<double, 4>& c) const {
  if (FullyOutside(x)) return -1;
  for (std::size_t i = 0; i < simplices_.size(); ++i) {
    const Simplex& s = simplices_[i];
    if (!std::isnan(s.transform[0])) {
      if (Inside(s, x, kEps, c)) return static_cast<int>(i);
      continue;
    }
    for (int k = 0; k < 4; ++k) {  // degenerate: try its neighbours with the broad eps
      const int n = s.neighbor[k];
      if (n == -1 || std::isnan(simplices_[n].transform[0])) continue;
      if (Inside(simplices_[n], x, kEpsBroad, c)) return n;
    }
  }
  return -1;
}

// _find_simplex_directed.
int DelaunayInterpolator::Directed(const Point& x, int start, std::array<double, 4>& c) const {
  int current = start;
  const int cycles = 1 + static_cast<int>(simplices_.size()) / 4;
  for (int cycle = 0; cycle < cycles; ++cycle) {
    if (current == -1) return -1;
    const Simplex& s = simplices_[current];
    int inside = 1;
    for (int k = 0; k < 4; ++k) {
      if (k < 3) {
        c[k] = Coordinate(s, x, k);
      } else {
        c[3] = 1.0 - c[0] - c[1] - c[2];
      }
      if (c[k] < -kEps) {
        const int next = s.neighbor[k];
        if (next == -1) return -1;
        current = next;
        inside = -1;
        break;
      }
      if (!(c[k] <= 1 + kEps)) inside = 0;  // outside, or NaN (degenerate simplex)
    }
    if (inside == -1) continue;
    if (inside == 1) return current;
    return BruteForce(x, c);
  }
  return BruteForce(x, c);
}

std::optional<DelaunayInterpolator::Value> DelaunayInterpolator::At(const Point& x) const {
  if (FullyOutside(x)) return std::nullopt;
  // _find_simplex: walk on the lifted paraboloid from simplex 0 towards a positive plane distance.
  const double lifted_last =
      (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]) * paraboloid_scale_ + paraboloid_shift_;
  auto distance = [&](int i) {
    const auto& p = simplices_[i].plane;
    return p[4] + p[0] * x[0] + p[1] * x[1] + p[2] * x[2] + p[3] * lifted_last;
  };
  int current = 0;
  double best = distance(0);
  for (bool changed = true; changed && !(best > 0);) {
    changed = false;
    for (int k = 0; k < 4; ++k) {
      const int next = simplices_[current].neighbor[k];
      if (next == -1) continue;
      const double d = distance(next);
      if (d > best + kEps * (1 + std::abs(best))) {
        current = next;
        best = d;
        changed = true;
      }
    }
  }
  std::array<double, 4> c{};
  const int found = Directed(x, current, c);
  if (found == -1) return std::nullopt;
  Value out{0.0, 0.0};
  for (int j = 0; j < 4; ++j) {
    for (int k = 0; k < 2; ++k) out[k] = out[k] + c[j] * values_[simplices_[found].vertex[j]][k];
  }
  return out;
}

}  // namespace adaptsim
