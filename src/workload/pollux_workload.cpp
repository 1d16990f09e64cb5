// Pollux workload CSV reader (docs/pollux.md §4.2).
#include "adaptsim/pollux_workload.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <set>

#include "adaptsim/error.hpp"
#include "adaptsim/text_lines.hpp"

namespace adaptsim {
namespace {

std::string JoinCommas(const std::vector<std::string>& fields) {
  std::string text;
  for (const std::string& field : fields) text += (text.empty() ? "" : ",") + field;
  return text;
}

}  // namespace

CsvTable ReadCsvTable(const std::string& path, const std::vector<std::string>& expected_header) {
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, "", "cannot open file");
  CsvTable table;
  table.path = path;
  std::string line;
  int line_number = 0;
  while (NextDataLine(in, line, line_number)) {
    std::vector<std::string> fields = SplitFields(line, ',');
    if (table.header.empty()) {
      if (fields != expected_header) {
        throw InputError(path, line_number, "header",
                         "expected '" + JoinCommas(expected_header) + "', got '" + line + "'");
      }
      table.header = fields;
      continue;
    }
    if (fields.size() != expected_header.size()) {
      throw InputError(path, line_number, "",
                       "expected " + std::to_string(expected_header.size()) + " fields, got " +
                           std::to_string(fields.size()));
    }
    table.rows.push_back(std::move(fields));
    table.lines.push_back(line_number);
  }
  if (table.header.empty()) throw InputError(path, 0, "header", "empty file");
  return table;
}

CsvTable ReadCsvColumns(const std::string& path, const std::vector<std::string>& columns) {
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, "", "cannot open file");
  std::string line;
  int line_number = 0;
  if (!NextDataLine(in, line, line_number)) throw InputError(path, 0, "header", "empty file");
  const std::vector<std::string> header = SplitFields(line, ',');
  // source[i] = the file's column holding columns[i].
  std::vector<std::size_t> source;
  for (const std::string& name : columns) {
    const auto found = std::find(header.begin(), header.end(), name);
    if (found == header.end() || std::count(header.begin(), header.end(), name) != 1 ||
        header.size() != columns.size()) {
      throw InputError(
          path, line_number, "header",
          "expected the columns '" + JoinCommas(columns) + "' in any order, got '" + line + "'");
    }
    source.push_back(static_cast<std::size_t>(found - header.begin()));
  }
  CsvTable table;
  table.path = path;
  table.header = columns;
  while (NextDataLine(in, line, line_number)) {
    std::vector<std::string> fields = SplitFields(line, ',');
    if (fields.size() != columns.size()) {
      throw InputError(path, line_number, "",
                       "expected " + std::to_string(columns.size()) + " fields, got " +
                           std::to_string(fields.size()));
    }
    std::vector<std::string> row;
    for (std::size_t index : source) row.push_back(std::move(fields[index]));
    table.rows.push_back(std::move(row));
    table.lines.push_back(line_number);
  }
  return table;
}

double CsvNumber(const CsvTable& table, std::size_t row, std::size_t column) {
  const std::string& text = table.rows[row][column];
  double value = 0.0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    throw InputError(table.path, table.lines[row], table.header[column],
                     "expected a number, got '" + text + "'");
  }
  return value;
}

long long CsvInteger(const CsvTable& table, std::size_t row, std::size_t column) {
  const std::string& text = table.rows[row][column];
  long long value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    throw InputError(table.path, table.lines[row], table.header[column],
                     "expected an integer, got '" + text + "'");
  }
  return value;
}

PolluxWorkload ReadPolluxWorkload(const std::string& path) {
  CsvTable table =
      ReadCsvTable(path, {"name", "time", "application", "num_replicas", "batch_size"});
  PolluxWorkload workload;
  workload.path = path;
  std::set<std::string> names;
  for (std::size_t row = 0; row < table.rows.size(); ++row) {
    const int line = table.lines[row];
    PolluxJobSpec job;
    job.name = table.rows[row][0];
    job.application = table.rows[row][2];
    job.line = line;
    if (job.name.empty()) throw InputError(path, line, "name", "empty job name");
    if (!names.insert(job.name).second) {
      throw InputError(path, line, "name", "duplicate job name '" + job.name + "'");
    }
    if (job.application.empty()) throw InputError(path, line, "application", "empty");
    job.submission_time_s = CsvNumber(table, row, 1);
    if (job.submission_time_s < 0) throw InputError(path, line, "time", "must be >= 0");
    long long replicas = CsvInteger(table, row, 3);
    long long batch_size = CsvInteger(table, row, 4);
    if (replicas < 1 || replicas > 1 << 20) {
      throw InputError(path, line, "num_replicas", "must be in [1, 2^20]");
    }
    if (batch_size < 1 || batch_size > 1 << 30) {
      throw InputError(path, line, "batch_size", "must be in [1, 2^30]");
    }
    job.num_replicas = static_cast<int>(replicas);
    job.batch_size = static_cast<int>(batch_size);
    workload.jobs.push_back(std::move(job));
  }
  if (workload.jobs.empty()) throw InputError(path, 0, "", "workload has no jobs");
  return workload;
}

TraceStats ComputeTraceStats(const PolluxWorkload& workload) {
  TraceStats stats;
  stats.num_jobs = static_cast<int>(workload.jobs.size());
  for (const PolluxJobSpec& job : workload.jobs) {
    stats.last_arrival_s = std::max(stats.last_arrival_s, job.submission_time_s);
  }
  return stats;
}

bool IsPolluxWorkload(const std::string& path) {
  return path.size() >= 4 && path.compare(path.size() - 4, 4, ".csv") == 0;
}

}  // namespace adaptsim
