// What the benchmarks share: the entry point, which runs a benchmark and turns an exception (bad
// input, missing reference data; an InputError names the file, line and field) into a one-line
// error on stderr and exit status 1, and the thread CPU clock.
#pragma once

#include <cstdio>
#include <ctime>
#include <exception>

namespace adaptsim::bench {

/// This thread's CPU time, ms: what the machine's other load does not inflate.
inline double ThreadCpuMs() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return 1e3 * static_cast<double>(now.tv_sec) + 1e-6 * static_cast<double>(now.tv_nsec);
}

template <typename Benchmark>
int RunGuarded(const char* name, Benchmark&& benchmark) {
  try {
    return benchmark();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s: error: %s\n", name, error.what());
    return 1;
  }
}

}  // namespace adaptsim::bench
