// Reading delimited text: the data lines of a file and their fields. TAB for `.trace` files
// (trace_reader.cpp), comma for the Pollux workload and profile CSVs (workload/pollux_workload.cpp,
// models/catalogue_throughput.cpp).
#pragma once

#include <istream>
#include <string>
#include <vector>

namespace adaptsim {

/// The fields of `line` between occurrences of `delimiter`: n delimiters give n + 1 fields, empty
/// ones included ("a,,b" -> {"a", "", "b"}; "" -> {""}). No quoting, no trimming.
inline std::vector<std::string> SplitFields(const std::string& line, char delimiter) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = line.find(delimiter, start);
    fields.push_back(line.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return fields;
}

/// Reads the next non-empty line of `in` into `line` (a trailing '\r' removed, so CRLF files
/// read like LF files), adding every line read, empty ones included, to `line_number` (1-based
/// numbers for error messages). Returns false at the end of the input.
inline bool NextDataLine(std::istream& in, std::string& line, int& line_number) {
  while (std::getline(in, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) return true;
  }
  return false;
}

}  // namespace adaptsim
