// How `adaptsim sweep` and `adaptsim reproduce` turn an exception into a process exit status.
#pragma once

#include <cstdio>
#include <exception>

#include "adaptsim/error.hpp"

namespace adaptsim {

/// Runs `body` (returning an exit status) and prints an exception it throws as
/// `adaptsim: error: <what>` on stderr (control characters escaped, PrintableError: one line, or
/// a policy's error with its own line breaks). Returns body's
/// status, 2 for an InputError (bad input: the message names file, line and field) and 1 for any
/// other exception.
template <typename Body>
int ExitStatusOf(Body&& body) {
  try {
    return body();
  } catch (const InputError& error) {
    std::fprintf(stderr, "adaptsim: error: %s\n", PrintableError(error).c_str());
    return 2;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "adaptsim: error: %s\n", PrintableError(error).c_str());
    return 1;
  }
}

}  // namespace adaptsim
