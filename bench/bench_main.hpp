// The entry point the benchmarks share: runs a benchmark and turns an exception (bad input,
// missing reference data; an InputError names the file, line and field) into a one-line error on
// stderr and exit status 1.
#pragma once

#include <cstdio>
#include <exception>

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

}  // namespace adaptsim::bench
