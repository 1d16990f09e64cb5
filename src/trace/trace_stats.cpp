// Trace statistics for a sweep's cost estimate (include/adaptsim/trace.hpp).
#include <algorithm>

#include "adaptsim/trace.hpp"

namespace adaptsim {

TraceStats ComputeTraceStats(const Trace& trace) {
  TraceStats stats;
  stats.num_jobs = static_cast<int>(trace.jobs.size());
  for (const JobSpec& job : trace.jobs) {
    stats.last_arrival_s = std::max(stats.last_arrival_s, job.arrival_time_s);
    stats.gpu_seconds +=
        static_cast<double>(job.scale_factor) * static_cast<double>(job.trace_duration_s);
  }
  return stats;
}

}  // namespace adaptsim
