// Python-compatible rounding: the reference rounds ρ and utilisation with round(x, 5), and
// adaptsim must reproduce its values exactly.
#pragma once

namespace adaptsim {

/// Python-compatible round(x, ndigits): correctly rounded, ties to even (CPython's round() on a
/// float rounds the exact binary value). Non-finite values are returned unchanged.
double PythonRound(double x, int ndigits);

}  // namespace adaptsim
