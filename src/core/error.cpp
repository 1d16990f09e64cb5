#include "adaptsim/error.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace adaptsim {
namespace {

std::string FormatInputError(const std::string& file, int line, const std::string& field,
                             const std::string& message) {
  std::ostringstream text;
  text << file;
  if (line > 0) text << ':' << line;
  text << ": ";
  if (!field.empty()) text << "field '" << field << "': ";
  text << message;
  return text.str();
}

}  // namespace

InputError::InputError(std::string file, int line, std::string field, const std::string& message)
    : std::runtime_error(FormatInputError(file, line, field, message)),
      file_(std::move(file)),
      line_(line),
      field_(std::move(field)) {}

namespace {

std::string PolicyErrorText(const std::string& policy, const std::string& message) {
  return policy.empty() ? message : "policy '" + policy + "': " + message;
}

}  // namespace

PolicyError::PolicyError(std::string policy, std::string method, std::string message)
    : InputError(std::move(policy), 0, std::move(method), message),
      message_(std::move(message)),
      text_(PolicyErrorText(file(), message_)) {
  Multiline(true);
}

PolicyError PolicyError::Named(const std::string& policy) const {
  return PolicyError(policy, method(), message_);
}

std::ifstream OpenInputFile(const std::string& path, const std::string& what) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    throw InputError(path, 0, "",
                     std::filesystem::exists(path, error) ? what + " is not a regular file"
                                                          : "cannot open " + what);
  }
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, "", "cannot open " + what);
  return in;
}

namespace {

std::string Printable(std::string_view text, bool keep_line_breaks) {
  std::string printable;
  printable.reserve(text.size());
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    if ((byte >= 0x20 && byte != 0x7f) || (keep_line_breaks && c == '\n')) {
      printable.push_back(c);
    } else if (c == '\n') {
      printable += "\\n";
    } else if (c == '\r') {
      printable += "\\r";
    } else if (c == '\t') {
      printable += "\\t";
    } else {
      char escape[5];
      std::snprintf(escape, sizeof(escape), "\\x%02x", byte);
      printable += escape;
    }
  }
  return printable;
}

}  // namespace

std::string PrintableText(std::string_view text) {
  return Printable(text, false);
}

std::string PrintableLines(std::string_view text) {
  return Printable(text, true);
}

std::string PrintableError(const std::exception& error) {
  const auto* input = dynamic_cast<const InputError*>(&error);
  return input != nullptr && input->multiline() ? PrintableLines(error.what())
                                                : PrintableText(error.what());
}

void InvariantFailure(const char* condition, const char* file, int line) {
  std::fprintf(stderr, "adaptsim: internal invariant violated: %s (%s:%d)\n", condition, file,
               line);
  std::abort();
}

}  // namespace adaptsim
