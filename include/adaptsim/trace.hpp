// Trace files: the 12-field TAB-separated `.trace` format of Shockwave/Gavel (docs/mechanism.md
// §1.1).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "adaptsim/job.hpp"

namespace adaptsim {

/// A workload: jobs in trace order (job id = line index), arrival times non-decreasing.
struct Trace {
  std::string path;  ///< where it was read from ("" for generated traces)
  std::vector<JobSpec> jobs;
};

/// Reads a `.trace` file. Validates every field (count, numbers, scale factor in {1, 2, 4, 8},
/// mode, non-negative duration and steps, non-decreasing arrivals).
/// Throws InputError naming the file, the 1-based line and the field.
Trace ReadTrace(const std::string& path);

/// Parses trace text; `path` only names the source in errors.
Trace ParseTrace(std::istream& in, const std::string& path);

/// What a sweep's cost estimate needs of a workload (docs/sweeps.md §3.1).
struct TraceStats {
  int num_jobs = 0;           ///< jobs
  double last_arrival_s = 0;  ///< latest arrival time, s
  double gpu_seconds = 0;     ///< Σ duration × scale_factor over the jobs (0 when unknown)
};

/// The statistics of a trace read by ReadTrace: its jobs, the last arrival and
/// Σ trace_duration_s × scale_factor.
TraceStats ComputeTraceStats(const Trace& trace);

/// Writes jobs in the same 12-field format (`Job.__str__` + arrival, `scheduler/job.py:35-49`).
void WriteTrace(std::ostream& out, const Trace& trace);

}  // namespace adaptsim
