// The entry point the benchmarks share: runs a benchmark and turns an exception (bad input,
// missing reference data; an InputError names the file, line and field) into a one-line error on
// stderr and exit status 1. Also the timers and summaries the per-round benchmarks share.
#pragma once

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <exception>
#include <string>
#include <vector>

namespace adaptsim::bench {

template <typename Benchmark>
int RunGuarded(const char* name, Benchmark&& benchmark) {
  try {
    return benchmark();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s: error: %s\n", name, error.what());
    return 1;
  }
}

/// The calling thread's CPU time, ms (one core; what the machine's other load does not inflate).
inline double ThreadCpuMs() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return 1e3 * static_cast<double>(now.tv_sec) + 1e-6 * static_cast<double>(now.tv_nsec);
}

/// "median M ms, p90 P ms, max X ms" of `values` (ms, not empty); a quantile q is the element
/// at floor(q·n) of the sorted values.
inline std::string Quantiles(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const auto at = [&](double q) {
    return values[std::min(values.size() - 1, static_cast<std::size_t>(q * values.size()))];
  };
  char text[96];
  std::snprintf(text, sizeof(text), "median %.1f ms, p90 %.1f ms, max %.1f ms", at(0.5), at(0.9),
                values.back());
  return text;
}

}  // namespace adaptsim::bench
