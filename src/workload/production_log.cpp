// Readers of production job logs (production_log.hpp; docs/production.md).
#include "adaptsim/production_log.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <limits>
#include <set>

#include "adaptsim/error.hpp"
#include "adaptsim/pollux_workload.hpp"
#include "adaptsim/trace_generator.hpp"

namespace adaptsim {
namespace {

const char kOptionsContext[] = "production log options";
// The Pollux artifact's filter (petuum/adaptdl@c793c7089bd3, simulator/workload.py:16-17).
constexpr double kPolluxMinDurationS = 60.0;
constexpr double kPolluxMaxGpuTimeS = 1000.0 * 3600.0;
constexpr double kGpuTimeRelativeTolerance = 1e-9;

// One parsed row before selection; `origin_s` is seconds from the log's origin, `time_of_day_s`
// the Philly wall clock's seconds since midnight.
struct Row {
  LoggedJob job;
  double origin_s = 0.0;
  double time_of_day_s = 0.0;
};

// Philox stream of the artifact-style sample (the rule's streams are 16-18).
constexpr std::uint32_t kSampleStream = 19;

double NonNegativeNumber(const CsvTable& table, std::size_t row, std::size_t column) {
  double value = CsvNumber(table, row, column);
  if (value < 0) {
    throw InputError(table.path, table.lines[row], table.header[column],
                     "must be >= 0, got '" + table.rows[row][column] + "'");
  }
  return value;
}

int GpuCount(const CsvTable& table, std::size_t row, std::size_t column) {
  long long value = CsvInteger(table, row, column);
  if (value < 1 || value > 1 << 20) {
    throw InputError(table.path, table.lines[row], table.header[column],
                     "must be in [1, 2^20], got '" + table.rows[row][column] + "'");
  }
  return static_cast<int>(value);
}

// Rows of a Philly log; `origin` receives the earliest timestamp (seconds since 1970, naive).
std::vector<Row> ParsePhilly(const CsvTable& table, std::int64_t& origin) {
  std::vector<Row> rows;
  rows.reserve(table.rows.size());
  std::vector<std::int64_t> wall_clock_s;
  wall_clock_s.reserve(table.rows.size());
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    const int line = table.lines[r];
    Row row;
    wall_clock_s.push_back(
        ParseWallClockSeconds(table.rows[r][0], table.path, line, table.header[0]));
    row.job.duration_s = NonNegativeNumber(table, r, 1);
    row.job.num_gpus = GpuCount(table, r, 2);
    row.job.gpu_time_s = NonNegativeNumber(table, r, 3);
    const double expected = row.job.duration_s * row.job.num_gpus;
    if (std::abs(row.job.gpu_time_s - expected) > kGpuTimeRelativeTolerance * expected) {
      throw InputError(table.path, line, "gpu_time",
                       "must equal duration x num_gpus = " + std::to_string(expected) + ", got '" +
                           table.rows[r][3] + "'");
    }
    row.job.virtual_cluster = table.rows[r][4];
    if (row.job.virtual_cluster.empty()) throw InputError(table.path, line, "cluster", "empty");
    row.job.line = line;
    rows.push_back(std::move(row));
  }
  origin = *std::min_element(wall_clock_s.begin(), wall_clock_s.end());  // rows non-empty
  for (std::size_t r = 0; r < rows.size(); ++r) {
    rows[r].origin_s = static_cast<double>(wall_clock_s[r] - origin);
    rows[r].time_of_day_s = static_cast<double>(wall_clock_s[r] % 86400);
  }
  return rows;
}

std::vector<Row> ParseItp(const CsvTable& table) {
  std::vector<Row> rows;
  rows.reserve(table.rows.size());
  std::set<std::string> ids;
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    const int line = table.lines[r];
    Row row;
    row.job.id = table.rows[r][0];
    if (row.job.id.empty()) throw InputError(table.path, line, "job_id", "empty");
    if (!ids.insert(row.job.id).second) {
      throw InputError(table.path, line, "job_id", "duplicate job_id '" + row.job.id + "'");
    }
    row.origin_s = NonNegativeNumber(table, r, 1);
    row.job.duration_s = NonNegativeNumber(table, r, 2);
    row.job.num_gpus = GpuCount(table, r, 3);
    row.job.gpu_time_s = row.job.duration_s * row.job.num_gpus;
    row.job.line = line;
    rows.push_back(std::move(row));
  }
  return rows;
}

// The first counter of `stats` that rejects `row`, or nullptr when the row is selected.
// Throws for an unsimulable row without skip_unsimulable.
std::int64_t* Rejection(const Row& row, const ProductionLogOptions& o, double window_start_s,
                        const std::string& path, ProductionLogStats& stats) {
  const double window_end_s = o.window_length_s > 0 ? window_start_s + o.window_length_s
                                                    : std::numeric_limits<double>::infinity();
  const LoggedJob& job = row.job;
  if (row.origin_s < window_start_s || row.origin_s >= window_end_s) return &stats.outside_window;
  if (!o.virtual_clusters.empty() && std::find(o.virtual_clusters.begin(), o.virtual_clusters.end(),
                                               job.virtual_cluster) == o.virtual_clusters.end()) {
    return &stats.other_virtual_cluster;
  }
  if (job.duration_s < o.min_duration_s) return &stats.below_min_duration;
  if (o.pollux_filter &&
      !(job.duration_s >= kPolluxMinDurationS && job.gpu_time_s < kPolluxMaxGpuTimeS)) {
    return &stats.pollux_filtered;
  }
  if (job.duration_s == 0) {
    if (!o.skip_unsimulable) {
      throw InputError(path, job.line, "duration",
                       "zero duration cannot be simulated (skip such jobs with skip_unsimulable)");
    }
    return &stats.skipped_zero_duration;
  }
  if (o.cluster_gpus > 0 && job.num_gpus > o.cluster_gpus) {
    if (!o.skip_unsimulable) {
      throw InputError(path, job.line, "num_gpus",
                       std::to_string(job.num_gpus) + " GPUs do not fit a cluster of " +
                           std::to_string(o.cluster_gpus) +
                           " (skip such jobs with skip_unsimulable)");
    }
    return &stats.skipped_too_many_gpus;
  }
  return nullptr;
}

// The row's time of day shifted back by sample_start_hour (`trace.timestamp -= timedelta(hours=
// start)`, workload.py:18), in [0, 86400).
double ShiftedTimeOfDay(const Row& row, const ProductionLogOptions& o) {
  return std::fmod(row.time_of_day_s - o.sample_start_hour * 3600.0 + 86400.0, 86400.0);
}

// workload.py:19-21: keep rows whose shifted hour is < sample_hours, draw sample_jobs of them.
// A partial Fisher-Yates shuffle over the eligible rows in file order with Philox draws, so the
// sample depends only on (log, options, seed). Sorted by (shifted time of day, line).
std::vector<const Row*> SampleAsTheArtifact(std::vector<const Row*> candidates,
                                            const ProductionLogOptions& o,
                                            ProductionLogStats& stats) {
  std::vector<const Row*> eligible;
  for (const Row* row : candidates) {
    if (ShiftedTimeOfDay(*row, o) < o.sample_hours * 3600.0) {
      eligible.push_back(row);
    } else {
      ++stats.outside_sample_hours;
    }
  }
  std::sort(eligible.begin(), eligible.end(),
            [](const Row* a, const Row* b) { return a->job.line < b->job.line; });
  const PhiloxStream rng(o.sample_seed, kSampleStream);
  const std::size_t n = std::min<std::size_t>(eligible.size(), o.sample_jobs);
  for (std::size_t i = 0; i < n; ++i) {
    const int remaining = static_cast<int>(eligible.size() - i);
    std::swap(eligible[i], eligible[i + IndexFromUniform(rng.Uniform(i), remaining)]);
  }
  stats.not_sampled += static_cast<std::int64_t>(eligible.size() - n);
  eligible.resize(n);
  std::sort(eligible.begin(), eligible.end(), [&](const Row* a, const Row* b) {
    const double ta = ShiftedTimeOfDay(*a, o), tb = ShiftedTimeOfDay(*b, o);
    return ta != tb ? ta < tb : a->job.line < b->job.line;
  });
  return eligible;
}

}  // namespace

const char* ToString(ProductionLogFormat format) {
  return format == ProductionLogFormat::kPhilly ? "philly" : "itp";
}

void ProductionLogOptions::Validate(ProductionLogFormat format) const {
  if (!(window_start_s >= 0 && std::isfinite(window_start_s))) {
    throw InputError(kOptionsContext, 0, "window_start_s", "must be finite and >= 0");
  }
  if (!(window_length_s >= 0 && std::isfinite(window_length_s))) {
    throw InputError(kOptionsContext, 0, "window_length_s", "must be finite and >= 0 (0 = all)");
  }
  if (!(min_duration_s >= 0 && std::isfinite(min_duration_s))) {
    throw InputError(kOptionsContext, 0, "min_duration_s", "must be finite and >= 0");
  }
  if (cluster_gpus < 0) throw InputError(kOptionsContext, 0, "cluster_gpus", "must be >= 0");
  if (sample_jobs < 0) throw InputError(kOptionsContext, 0, "sample_jobs", "must be >= 0");
  if (sample_start_hour < 0 || sample_start_hour > 23) {
    throw InputError(kOptionsContext, 0, "sample_start_hour", "must be in [0, 23]");
  }
  if (sample_hours < 1 || sample_hours > 24) {
    throw InputError(kOptionsContext, 0, "sample_hours", "must be in [1, 24]");
  }
  if (format == ProductionLogFormat::kItp) {
    if (!window_start.empty()) {
      throw InputError(kOptionsContext, 0, "window_start",
                       "a wall-clock start applies to Philly logs only; use window_start_s");
    }
    if (!virtual_clusters.empty()) {
      throw InputError(kOptionsContext, 0, "virtual_clusters", "ITP logs have no virtual clusters");
    }
    if (sample_jobs > 0) {
      throw InputError(kOptionsContext, 0, "sample_jobs",
                       "the artifact's sampling reads the time of day: Philly logs only");
    }
  }
  if (!window_start.empty())
    ParseWallClockSeconds(window_start, kOptionsContext, 0, "window_start");
}

std::int64_t ParseWallClockSeconds(const std::string& text, const std::string& file, int line,
                                   const std::string& field) {
  auto fail = [&] {
    throw InputError(file, line, field, "expected 'YYYY-MM-DD HH:MM:SS', got '" + text + "'");
  };
  // Positions of the separators in "YYYY-MM-DD HH:MM:SS".
  if (text.size() != 19 || text[4] != '-' || text[7] != '-' || text[10] != ' ' || text[13] != ':' ||
      text[16] != ':') {
    fail();
  }
  auto part = [&](std::size_t begin, std::size_t length) {
    int value = 0;
    const char* first = text.data() + begin;
    auto [end, error] = std::from_chars(first, first + length, value);
    if (error != std::errc() || end != first + length || *first == '-' || *first == '+') fail();
    return value;
  };
  const int year = part(0, 4), month = part(5, 2), day = part(8, 2);
  const int hour = part(11, 2), minute = part(14, 2), second = part(17, 2);
  const std::chrono::year_month_day date{std::chrono::year(year), std::chrono::month(month),
                                         std::chrono::day(day)};
  if (!date.ok() || hour > 23 || minute > 59 || second > 59) fail();
  const std::int64_t days = std::chrono::sys_days(date).time_since_epoch().count();
  return days * 86400 + hour * 3600 + minute * 60 + second;
}

ProductionLog ReadProductionLog(const std::string& path, ProductionLogFormat format,
                                const ProductionLogOptions& options) {
  options.Validate(format);
  const bool philly = format == ProductionLogFormat::kPhilly;
  const CsvTable table =
      philly ? ReadCsvTable(path, {"timestamp", "duration", "num_gpus", "gpu_time", "cluster"})
             : ReadCsvTable(path, {"job_id", "submission_time", "duration", "num_gpu"});
  if (table.rows.empty()) throw InputError(path, 0, "", "log has no jobs (header only)");
  std::int64_t origin = 0;
  std::vector<Row> rows = philly ? ParsePhilly(table, origin) : ParseItp(table);

  double window_start_s = options.window_start_s;
  if (!options.window_start.empty()) {
    window_start_s = static_cast<double>(
        ParseWallClockSeconds(options.window_start, kOptionsContext, 0, "window_start") - origin);
  }
  for (const std::string& id : options.virtual_clusters) {  // a typo would select nothing
    if (std::none_of(rows.begin(), rows.end(),
                     [&](const Row& row) { return row.job.virtual_cluster == id; })) {
      throw InputError(kOptionsContext, 0, "virtual_clusters",
                       "'" + id + "' is not a virtual cluster of " + path);
    }
  }

  ProductionLog log;
  log.path = path;
  log.format = format;
  log.stats.rows_read = static_cast<std::int64_t>(rows.size());
  std::vector<const Row*> selected;
  for (const Row& row : rows) {
    if (std::int64_t* counter = Rejection(row, options, window_start_s, path, log.stats)) {
      ++*counter;
    } else {
      selected.push_back(&row);
    }
  }
  if (options.sample_jobs > 0) {
    selected = SampleAsTheArtifact(std::move(selected), options, log.stats);
  } else {
    std::stable_sort(selected.begin(), selected.end(),
                     [](const Row* a, const Row* b) { return a->origin_s < b->origin_s; });
    if (!selected.empty()) log.stats.rebase_offset_s = selected.front()->origin_s;
  }
  log.stats.selected = static_cast<std::int64_t>(selected.size());
  log.jobs.reserve(selected.size());
  for (const Row* row : selected) {
    LoggedJob job = row->job;
    job.arrival_time_s = options.sample_jobs > 0 ? ShiftedTimeOfDay(*row, options)
                                                 : row->origin_s - log.stats.rebase_offset_s;
    log.jobs.push_back(std::move(job));
  }
  return log;
}

}  // namespace adaptsim
