// Pollux (OSDI'21) workloads: CSV files `name,time,application,num_replicas,batch_size`
// (docs/pollux.md §4.2; read by `A:simulator/simulator.py:187-201`), and the small CSV reader
// shared by the per-application profiles (pollux_application.hpp).
#pragma once

#include <string>
#include <vector>

#include "adaptsim/trace.hpp"

namespace adaptsim {

/// One comma-separated file: the header and the data rows with their 1-based line numbers.
/// Blank lines are skipped; every row has exactly header.size() fields.
struct CsvTable {
  std::string path;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<int> lines;  ///< parallel to rows: line number in the file
};

/// Reads `path`; the header must equal `expected_header` (column names, in order).
/// Throws InputError(path, line, field, ...) for a missing file, a wrong header or a row with the
/// wrong number of fields.
CsvTable ReadCsvTable(const std::string& path, const std::vector<std::string>& expected_header);

/// Reads `path` whose header holds exactly the columns `columns` in any order (pandas reads the
/// Sia artifact's profiles by column name, and their files order the columns differently); the
/// returned table's header and rows are in the order of `columns`. Throws InputError(path, line,
/// field, ...) for a missing file, a header that is not a permutation of `columns` (a missing,
/// unknown or repeated column) or a row with the wrong number of fields.
CsvTable ReadCsvColumns(const std::string& path, const std::vector<std::string>& columns);

/// Parses a finite number (field `column` of row `row`); throws InputError naming file and line.
double CsvNumber(const CsvTable& table, std::size_t row, std::size_t column);
/// Parses an integer; throws InputError naming file and line.
long long CsvInteger(const CsvTable& table, std::size_t row, std::size_t column);

/// One job of a Pollux workload.
struct PolluxJobSpec {
  std::string name;              ///< `<application>-<index in submission order>`
  double submission_time_s = 0;  ///< seconds from 0
  std::string application;       ///< cifar10, ncf, deepspeech2, bert, yolov3, imagenet
  int num_replicas = 1;          ///< rigid baselines' GPU count (Tiresias)
  int batch_size = 1;            ///< rigid baselines' total batch size (Tiresias, Optimus)
  int line = 0;                  ///< line in the CSV (for error messages)
};

struct PolluxWorkload {
  std::string path;
  std::vector<PolluxJobSpec> jobs;  ///< file order (= submission order in the shipped files)
};

/// Reads a workload CSV. Errors (InputError naming file, line and field): missing file, wrong
/// header, wrong field count, non-numeric or negative time, num_replicas < 1, batch_size < 1,
/// empty or duplicate name, empty application. Unknown applications are checked by the caller
/// against the loaded profiles.
PolluxWorkload ReadPolluxWorkload(const std::string& path);

/// The statistics of a workload for a sweep's cost estimate: its jobs and the last submission
/// (the file has no durations: gpu_seconds 0).
TraceStats ComputeTraceStats(const PolluxWorkload& workload);

/// True when `path` names a Pollux workload CSV (it ends in ".csv"). Used only to estimate a
/// sweep task's cost (sweep_spec.cpp reads the file's statistics with the reader of its format);
/// the engine that runs a task is chosen by its policy (PolicyInfo::engine), never by this.
bool IsPolluxWorkload(const std::string& path);

}  // namespace adaptsim
