// Production job logs: the Microsoft Philly log as prepared by the Pollux artifact and the
// Microsoft ITP cluster logs of ElasticFlow (docs/production.md). They record arrival, duration and
// GPU count only; production_trace.hpp turns the selected jobs into a simulated trace.
//
// Formats (comma-separated, one header line, read unchanged):
//   Philly  timestamp,duration,num_gpus,gpu_time,cluster
//           `timestamp` local wall clock "YYYY-MM-DD HH:MM:SS" (naive: no time zone, no DST
//           correction, as pandas.read_csv(parse_dates=...) reads it in the artifact),
//           `duration` s, `num_gpus` ≥ 1, `gpu_time` GPU-s (= duration × num_gpus), `cluster`
//           virtual-cluster id; rows not sorted by time.
//   ITP     job_id,submission_time,duration,num_gpu
//           `job_id` UUID (unique), `submission_time` s since the collection start, `duration` s,
//           `num_gpu` ≥ 1.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace adaptsim {

enum class ProductionLogFormat { kPhilly, kItp };

/// "philly" | "itp".
const char* ToString(ProductionLogFormat format);

/// Which jobs of a log to keep. Defaults keep every job and fail on rows that cannot be simulated.
struct ProductionLogOptions {
  /// Start of the time window in seconds from the log's origin: Philly — the earliest timestamp in
  /// the file; ITP — the collection start (submission_time 0). Ignored when `window_start` is set.
  double window_start_s = 0.0;
  /// Philly only: the window start as a wall-clock timestamp "YYYY-MM-DD HH:MM:SS"; "" = use
  /// window_start_s.
  std::string window_start;
  /// Window length in seconds; a job is in the window when start ≤ arrival < start + length.
  /// 0 = to the end of the log.
  double window_length_s = 0.0;
  /// Philly only: keep these virtual clusters (`cluster` ids, each must occur in the log); empty =
  /// all.
  std::vector<std::string> virtual_clusters;
  /// Keep jobs with duration ≥ this many seconds (≥ 0).
  double min_duration_s = 0.0;
  /// The Pollux artifact's own filter: keep duration ≥ 60 s and gpu_time < 1000 h
  /// (petuum/adaptdl@c793c7089bd3, simulator/workload.py:16-17).
  bool pollux_filter = false;
  /// GPUs of the simulated cluster; a job needing more cannot be simulated. 0 = no limit.
  int cluster_gpus = 0;
  /// Skip (and count) selected jobs that cannot be simulated — more GPUs than cluster_gpus, zero
  /// duration — instead of failing with InputError.
  bool skip_unsimulable = false;
  /// Philly only: the Pollux artifact's workload sampling (petuum/adaptdl@c793c7089bd3,
  /// simulator/workload.py:12-29). From the rows every other option keeps, those whose wall-clock
  /// time of day, shifted back by `sample_start_hour` hours, is before `sample_hours` hours are
  /// eligible; `sample_jobs` of them are drawn uniformly without replacement (all of them when
  /// fewer are eligible), whatever their date, and each arrives at its shifted time of day in
  /// seconds (not rebased). 0 = no sampling. The artifact's defaults: 160 jobs, hour 2, 8 hours.
  int sample_jobs = 0;
  int sample_start_hour = 2;  ///< in [0, 23]
  int sample_hours = 8;       ///< in [1, 24]
  /// Seed of the draw (Philox4x32-10 stream 19, item = eligible row's index in file order).
  std::uint64_t sample_seed = 0;

  /// Throws InputError(file="production log options", field=...) for out-of-range values and for
  /// Philly-only options given for an ITP log.
  void Validate(ProductionLogFormat format) const;
};

/// What happened to the rows of a log. Every data row is counted in exactly one of the
/// `outside_window` … `selected` counters (rows_read is their sum), so nothing is dropped silently.
struct ProductionLogStats {
  std::int64_t rows_read = 0;
  std::int64_t outside_window = 0;
  std::int64_t other_virtual_cluster = 0;
  std::int64_t below_min_duration = 0;
  std::int64_t pollux_filtered = 0;  ///< removed by the artifact's filter (after min duration)
  std::int64_t skipped_too_many_gpus = 0;
  std::int64_t skipped_zero_duration = 0;
  std::int64_t outside_sample_hours = 0;  ///< sampling: time of day outside the hours
  std::int64_t not_sampled = 0;           ///< sampling: eligible but not drawn
  std::int64_t selected = 0;
  /// Seconds from the log's origin of the first selected job (arrivals are rebased by it).
  double rebase_offset_s = 0.0;
};

/// One logged job after selection.
struct LoggedJob {
  std::string id;               ///< ITP job_id; Philly has none ("")
  double arrival_time_s = 0.0;  ///< rebased (the first arrives at 0); sampled: time of day
  double duration_s = 0.0;
  int num_gpus = 1;
  double gpu_time_s = 0.0;      ///< Philly column; ITP: duration × num_gpu
  std::string virtual_cluster;  ///< Philly `cluster`; ITP ""
  int line = 0;                 ///< 1-based line in the file (for error messages)
};

struct ProductionLog {
  std::string path;
  ProductionLogFormat format = ProductionLogFormat::kPhilly;
  std::vector<LoggedJob> jobs;  ///< sorted by (arrival, line)
  ProductionLogStats stats;
};

/// Reads a Philly or ITP log and selects jobs by `options`. Every row is validated, selected or
/// not. Throws InputError(path, line, field, ...) for a missing or empty file, a wrong header, a
/// row with the wrong number of fields, a malformed timestamp, a non-numeric, non-finite or
/// negative number, num_gpus < 1 or not an integer, gpu_time ≠ duration × num_gpus (relative
/// 1e-9: the artifact's filter and the model rule read gpu_time), an empty cluster or job_id, a
/// duplicate job_id, no data rows, and — without skip_unsimulable — a selected job with zero
/// duration or more GPUs than cluster_gpus. A virtual cluster that does not occur in the log is an
/// options error (file "production log options"). A selection that keeps no job is not an error.
ProductionLog ReadProductionLog(const std::string& path, ProductionLogFormat format,
                                const ProductionLogOptions& options = {});

/// Seconds since 1970-01-01 00:00:00 of a naive "YYYY-MM-DD HH:MM:SS" (proleptic Gregorian, no
/// time zone). Throws InputError(file, line, field, ...) when the text is malformed or a part is
/// out of range.
std::int64_t ParseWallClockSeconds(const std::string& text, const std::string& file, int line,
                                   const std::string& field);

}  // namespace adaptsim
