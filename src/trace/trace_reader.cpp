// Reader and writer of the 12-field `.trace` format (docs/mechanism.md §1.1; parsed in the
// reference by `utils.parse_trace`, `scheduler/utils.py:1446-1497`).
#include <charconv>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <limits>
#include <sstream>
#include <vector>

#include "adaptsim/error.hpp"
#include "adaptsim/text_lines.hpp"
#include "adaptsim/trace.hpp"

namespace adaptsim {
namespace {

constexpr int kNumFields = 12;

struct LineContext {
  const std::string& path;
  int line;
  [[noreturn]] void Fail(const std::string& field, const std::string& message) const {
    throw InputError(path, line, field, message);
  }
};

std::int64_t ParseInteger(const LineContext& ctx, const std::string& field,
                          const std::string& text) {
  std::int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    ctx.Fail(field, "expected an integer, got '" + text + "'");
  }
  return value;
}

double ParseReal(const LineContext& ctx, const std::string& field, const std::string& text) {
  double value = 0.0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    ctx.Fail(field, "expected a number, got '" + text + "'");
  }
  return value;
}

// "<Model> (batch size <B>)": model = text before the first space, B = int between the last space
// and ')' (`scheduler/job.py:129-137`).
void ParseJobType(const LineContext& ctx, const std::string& text, JobSpec& job) {
  const std::string prefix = " (batch size ";
  std::size_t open = text.find(prefix);
  if (open == std::string::npos || text.empty() || text.back() != ')' || open == 0) {
    ctx.Fail("job_type", "expected '<Model> (batch size <B>)', got '" + text + "'");
  }
  job.model = text.substr(0, text.find(' '));
  std::string bs = text.substr(open + prefix.size(), text.size() - 1 - open - prefix.size());
  std::int64_t batch_size = ParseInteger(ctx, "job_type", bs);
  if (batch_size <= 0 || batch_size > std::numeric_limits<int>::max()) {
    ctx.Fail("job_type", "batch size must be in [1, 2^31 - 1], got " + bs);
  }
  job.initial_batch_size = static_cast<int>(batch_size);
}

JobSpec ParseJobLine(const LineContext& ctx, const std::string& line, JobId id) {
  std::vector<std::string> f = SplitFields(line, '\t');
  if (static_cast<int>(f.size()) != kNumFields) {
    ctx.Fail("", "expected " + std::to_string(kNumFields) + " TAB-separated fields, got " +
                     std::to_string(f.size()));
  }
  JobSpec job;
  job.id = id;
  ParseJobType(ctx, f[0], job);
  job.command = f[1];
  job.working_directory = f[2];
  job.num_steps_arg = f[3];
  std::int64_t needs_data_dir = ParseInteger(ctx, "needs_data_dir", f[4]);
  if (needs_data_dir != 0 && needs_data_dir != 1) ctx.Fail("needs_data_dir", "expected 0 or 1");
  job.needs_data_dir = needs_data_dir == 1;
  job.total_steps = ParseInteger(ctx, "total_steps", f[5]);
  if (job.total_steps <= 0) ctx.Fail("total_steps", "must be positive, got " + f[5]);
  std::int64_t sf = ParseInteger(ctx, "scale_factor", f[6]);
  if (sf != 1 && sf != 2 && sf != 4 && sf != 8) {
    ctx.Fail("scale_factor", "must be one of 1, 2, 4, 8, got " + f[6]);
  }
  job.scale_factor = static_cast<int>(sf);
  std::optional<AdaptationMode> mode = ParseAdaptationMode(f[7]);
  if (!mode) ctx.Fail("mode", "must be static, accordion or gns, got '" + f[7] + "'");
  job.mode = *mode;
  job.priority_weight = ParseReal(ctx, "priority_weight", f[8]);
  if (job.priority_weight <= 0) ctx.Fail("priority_weight", "must be positive, got " + f[8]);
  job.slo_s = ParseReal(ctx, "SLO", f[9]);
  job.trace_duration_s = ParseInteger(ctx, "duration", f[10]);
  if (job.trace_duration_s < 0) ctx.Fail("duration", "must not be negative, got " + f[10]);
  job.arrival_time_s = ParseReal(ctx, "arrival_time", f[11]);
  if (job.arrival_time_s < 0) ctx.Fail("arrival_time", "must not be negative, got " + f[11]);
  return job;
}

}  // namespace

Trace ParseTrace(std::istream& in, const std::string& path) {
  Trace trace;
  trace.path = path;
  std::string line;
  int line_number = 0;
  while (NextDataLine(in, line, line_number)) {
    LineContext ctx{path, line_number};
    JobSpec job = ParseJobLine(ctx, line, static_cast<JobId>(trace.jobs.size()));
    if (!trace.jobs.empty() && job.arrival_time_s < trace.jobs.back().arrival_time_s) {
      ctx.Fail("arrival_time", "arrival times must be non-decreasing");
    }
    trace.jobs.push_back(std::move(job));
  }
  if (trace.jobs.empty()) throw InputError(path, 0, "", "trace has no jobs");
  return trace;
}

Trace ReadTrace(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, "", "cannot open trace file");
  return ParseTrace(in, path);
}

void WriteTrace(std::ostream& out, const Trace& trace) {
  for (const JobSpec& job : trace.jobs) {
    out << JobTypeName(job.model, job.initial_batch_size) << '\t' << job.command << '\t'
        << job.working_directory << '\t' << job.num_steps_arg << '\t'
        << (job.needs_data_dir ? 1 : 0) << '\t' << job.total_steps << '\t' << job.scale_factor
        << '\t' << ToString(job.mode) << '\t' << static_cast<std::int64_t>(job.priority_weight)
        << '\t' << std::fixed << std::setprecision(6) << job.slo_s << std::defaultfloat << '\t'
        << job.trace_duration_s << '\t' << static_cast<std::int64_t>(job.arrival_time_s) << '\n';
  }
}

}  // namespace adaptsim
