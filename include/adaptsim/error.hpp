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
  /// Whether the message has lines of its own that the command line prints as lines
  /// (PrintableError): a Python traceback, in a PolicyError or quoted by an error about one.
  bool multiline() const { return multiline_; }
  /// Sets multiline(); returns *this (`throw InputError(...).Multiline(cause.multiline())`).
  InputError& Multiline(bool multiline) {
    multiline_ = multiline;
    return *this;
  }

 private:
  std::string file_;
  int line_;
  std::string field_;
  bool multiline_ = false;
};

/// A policy's output the engine cannot honour (more GPUs than the cluster has, a job that is not
/// active, a job named twice, a time fraction outside [0, 1], NaN, a value of the wrong type), a
/// policy class the engine cannot run (a Python class with two decision methods), or a Python
/// policy's exception. It is bad input, not an internal error (the policy is the user's): the
/// command line exits 2 and prints it on real lines (multiline(), PrintableError), a sweep records
/// the task as failed with what() as its message, the Python module raises adaptsim.PolicyError
/// (docs/python.md §4). what() reads "policy 'POLICY': MESSAGE", MESSAGE naming the method, the
/// round and the numbers ("plan_round asked for 40 GPUs in round 12; the cluster has 32"), or just
/// MESSAGE while the policy is unnamed. As an InputError, file() is the policy and field() the
/// method.
class PolicyError : public InputError {
 public:
  PolicyError(std::string policy, std::string method, std::string message);

  const char* what() const noexcept override { return text_.c_str(); }
  const std::string& policy() const { return file(); }
  const std::string& method() const { return field(); }
  const std::string& message() const { return message_; }
  /// The same error naming `policy`. The engines and the Gavel mechanism know the method and the
  /// round but not the policy's name: the task boundary (RunTask) adds it.
  PolicyError Named(const std::string& policy) const;

 private:
  std::string message_;
  std::string text_;
};

/// `text` with every control character (bytes 0x00-0x1f and 0x7f, line breaks included) written
/// as a visible escape (`\n`, `\r`, `\t`, `\xNN`); other bytes, UTF-8 included, unchanged.
/// Messages quote what input files say, and a field must not move the cursor, recolour or
/// retitle the terminal, or split one error over several lines (docs/reliability.md, "Untrusted
/// input"): the command line prints errors and task messages through it.
std::string PrintableText(std::string_view text);

/// PrintableText, except that line breaks stay line breaks (for multi-line messages the user
/// wrote, such as a Python policy's traceback); every other control character is escaped.
std::string PrintableLines(std::string_view text);

/// How the command line prints `error` after "adaptsim: error: ": an InputError that is
/// multiline() (a PolicyError: a Python traceback reads as Python prints it) with its line breaks
/// (PrintableLines), anything else on one line (PrintableText).
std::string PrintableError(const std::exception& error);

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
