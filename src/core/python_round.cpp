// Python's round(x, ndigits), as the reference rounds its metrics.
#include "adaptsim/python_round.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace adaptsim {

double PythonRound(double x, int ndigits) {
  if (!std::isfinite(x)) return x;
  // glibc's printf rounds the exact binary value correctly (ties to even), as CPython's round().
  char buffer[512];
  std::snprintf(buffer, sizeof(buffer), "%.*f", ndigits, x);
  return std::strtod(buffer, nullptr);
}

}  // namespace adaptsim
