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

std::string PrintableText(std::string_view text) {
  std::string printable;
  printable.reserve(text.size());
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte != 0x7f) {
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

void InvariantFailure(const char* condition, const char* file, int line) {
  std::fprintf(stderr, "adaptsim: internal invariant violated: %s (%s:%d)\n", condition, file,
               line);
  std::abort();
}

}  // namespace adaptsim
