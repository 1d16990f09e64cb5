// Typed errors for bad input (recoverable errors are values or typed errors that
// name file, line and field; broken invariants are checked assertions).
#pragma once

#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace adaptsim {

/// Bad user input: a malformed trace line, an unknown key in a sweep file, a missing file.
/// `what()` reads "FILE:LINE: field 'FIELD': MESSAGE" (line 0 = the whole file, field "" = none).
/// Thrown by readers and option validators; caught by the CLI (exit code 2) and by the sweep at
/// the task boundary (the task is recorded as failed, the sweep goes on).
class InputError : public std::runtime_error {
 public:
  InputError(std::string file, int line, std::string field, const std::string& message);

  const std::string& file() const { return file_; }
  int line() const { return line_; }
  const std::string& field() const { return field_; }

 private:
  std::string file_;
  int line_;
  std::string field_;
};

/// `text` with every control character (bytes 0x00-0x1f and 0x7f, line breaks included) written
/// as a visible escape (`\n`, `\r`, `\t`, `\xNN`); other bytes, UTF-8 included, unchanged.
/// Messages quote what input files say, and a field must not move the cursor, recolour or
/// retitle the terminal, or split one error over several lines (docs/reliability.md, "Untrusted
/// input"): the command line prints errors and task messages through it.
std::string PrintableText(std::string_view text);

/// Opens the input file `path` (a `what`, e.g. "Shockwave configuration") for reading. Throws
/// InputError(path, 0, "", ...) when it is not a regular file (a folder would open, and its
/// first read would throw std::ios_base::failure from inside a parser) or cannot be opened.
std::ifstream OpenInputFile(const std::string& path, const std::string& what);

/// Stops the program when an internal invariant is broken (a bug, never bad input).
[[noreturn]] void InvariantFailure(const char* condition, const char* file, int line);

}  // namespace adaptsim

#define ADAPTSIM_CHECK(condition)     \
  ((condition) ? static_cast<void>(0) \
               : ::adaptsim::InvariantFailure(#condition, __FILE__, __LINE__))
