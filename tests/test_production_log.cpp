// Production job logs (Philly, ITP): the real files, the selection options, and bad input naming
// file, line and field. Expected counts come from independent passes over the files in the test.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <unistd.h>

#include <gtest/gtest.h>

#include "adaptsim/error.hpp"
#include "adaptsim/production_log.hpp"
#include "test_support.hpp"

namespace adaptsim::testing {
namespace {

namespace fs = std::filesystem;

// The real logs, or "" (the test skips) when the data folder or the file is absent.
std::string ProductionFile(const std::string& relative) {
  if (!DataDir()) return "";
  std::string path = DataPath("production/" + relative);
  return fs::exists(path) ? path : "";
}

#define REQUIRE_PRODUCTION_FILE(path)                                                      \
  do {                                                                                     \
    ADAPTSIM_REQUIRE_DATA();                                                               \
    if ((path).empty()) GTEST_SKIP() << "production logs not found under the data folder"; \
  } while (0)

// The data rows of a CSV file split on commas, read without the project's CSV helpers.
std::vector<std::vector<std::string>> IndependentRows(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::vector<std::string> fields;
    std::stringstream stream(line);
    for (std::string field; std::getline(stream, field, ',');) fields.push_back(field);
    rows.push_back(fields);
  }
  return rows;
}

TEST(ProductionLogPhilly, ReadsEveryRowSortedAndRebased) {
  const std::string path = ProductionFile("philly/philly.csv");
  REQUIRE_PRODUCTION_FILE(path);
  const auto rows = IndependentRows(path);
  ProductionLog log = ReadProductionLog(path, ProductionLogFormat::kPhilly);
  EXPECT_EQ(log.stats.rows_read, static_cast<std::int64_t>(rows.size()));
  EXPECT_EQ(log.stats.selected, log.stats.rows_read);
  ASSERT_EQ(log.jobs.size(), rows.size());
  EXPECT_EQ(log.jobs.front().arrival_time_s, 0.0);
  long long gpus = 0, expected_gpus = 0;
  for (std::size_t i = 0; i < log.jobs.size(); ++i) {
    if (i > 0) {
      EXPECT_LE(log.jobs[i - 1].arrival_time_s, log.jobs[i].arrival_time_s);
    }
    gpus += log.jobs[i].num_gpus;
    expected_gpus += std::stoll(rows[i][2]);
  }
  EXPECT_EQ(gpus, expected_gpus);
  // The earliest timestamp (string order = time order for this fixed-width format) is the origin.
  std::string earliest = rows.front()[0];
  for (const auto& row : rows) earliest = std::min(earliest, row[0]);
  EXPECT_EQ(log.stats.rebase_offset_s, 0.0);
  EXPECT_EQ(rows[log.jobs.front().line - 2][0], earliest);
}

TEST(ProductionLogPhilly, PolluxFilterKeepsWhatTheArtifactKeeps) {
  const std::string path = ProductionFile("philly/philly.csv");
  REQUIRE_PRODUCTION_FILE(path);
  std::int64_t kept = 0, below = 0;
  for (const auto& row : IndependentRows(path)) {
    const double duration = std::stod(row[1]), gpu_time = std::stod(row[3]);
    if (duration >= 60 && gpu_time < 1000 * 3600) ++kept;
    if (duration < 120) ++below;
  }
  ProductionLogOptions options;
  options.pollux_filter = true;
  ProductionLog log = ReadProductionLog(path, ProductionLogFormat::kPhilly, options);
  EXPECT_EQ(log.stats.selected, kept);
  EXPECT_EQ(log.stats.pollux_filtered, log.stats.rows_read - kept);
  for (const LoggedJob& job : log.jobs) {
    ASSERT_GE(job.duration_s, 60.0);
    ASSERT_LT(job.gpu_time_s, 1000.0 * 3600.0);
  }
  options.pollux_filter = false;
  options.min_duration_s = 120;
  log = ReadProductionLog(path, ProductionLogFormat::kPhilly, options);
  EXPECT_EQ(log.stats.below_min_duration, below);
}

TEST(ProductionLogPhilly, WindowAndVirtualClusterSelectByDayAndId) {
  const std::string path = ProductionFile("philly/philly.csv");
  REQUIRE_PRODUCTION_FILE(path);
  std::int64_t in_day = 0, in_day_and_cluster = 0;
  for (const auto& row : IndependentRows(path)) {
    if (row[0].compare(0, 10, "2017-10-09") != 0) continue;
    ++in_day;
    if (row[4] == "6214e9" || row[4] == "11cb48") ++in_day_and_cluster;
  }
  ASSERT_GT(in_day_and_cluster, 0);
  ProductionLogOptions options;
  options.window_start = "2017-10-09 00:00:00";
  options.window_length_s = 86400;
  ProductionLog log = ReadProductionLog(path, ProductionLogFormat::kPhilly, options);
  EXPECT_EQ(log.stats.selected, in_day);
  EXPECT_EQ(log.stats.outside_window, log.stats.rows_read - in_day);
  // The same window as an offset from the log's earliest timestamp.
  std::string earliest = "9999";
  for (const auto& row : IndependentRows(path)) earliest = std::min(earliest, row[0]);
  ProductionLogOptions by_offset;
  by_offset.window_start_s =
      static_cast<double>(ParseWallClockSeconds("2017-10-09 00:00:00", "t", 1, "f") -
                          ParseWallClockSeconds(earliest, "t", 1, "f"));
  by_offset.window_length_s = 86400;
  EXPECT_EQ(ReadProductionLog(path, ProductionLogFormat::kPhilly, by_offset).stats.selected,
            in_day);
  options.virtual_clusters = {"6214e9", "11cb48"};
  log = ReadProductionLog(path, ProductionLogFormat::kPhilly, options);
  EXPECT_EQ(log.stats.selected, in_day_and_cluster);
  EXPECT_EQ(log.stats.other_virtual_cluster, in_day - in_day_and_cluster);
  EXPECT_EQ(log.jobs.front().arrival_time_s, 0.0);
}

TEST(ProductionLogPhilly, TooManyGpusFailsOrIsSkippedAndCounted) {
  const std::string path = ProductionFile("philly/philly.csv");
  REQUIRE_PRODUCTION_FILE(path);
  const auto rows = IndependentRows(path);
  int first_line = 0;
  std::int64_t too_many = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (std::stoi(rows[i][2]) <= 8) continue;
    ++too_many;
    if (first_line == 0) first_line = static_cast<int>(i) + 2;
  }
  ASSERT_GT(too_many, 0);
  ProductionLogOptions options;
  options.cluster_gpus = 8;
  try {
    ReadProductionLog(path, ProductionLogFormat::kPhilly, options);
    ADD_FAILURE() << "no InputError for jobs larger than the cluster";
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), path);
    EXPECT_EQ(error.line(), first_line);
    EXPECT_EQ(error.field(), "num_gpus");
  }
  options.skip_unsimulable = true;
  ProductionLog log = ReadProductionLog(path, ProductionLogFormat::kPhilly, options);
  EXPECT_EQ(log.stats.skipped_too_many_gpus, too_many);
  EXPECT_EQ(log.stats.selected + too_many, log.stats.rows_read);
}

TEST(ProductionLogItp, ReadsEveryClusterWithUniqueIdsAndAWindow) {
  for (int cluster = 1; cluster <= 7; ++cluster) {
    const std::string path = ProductionFile("ms-itp/cluster0" + std::to_string(cluster) + ".csv");
    REQUIRE_PRODUCTION_FILE(path);
    const auto rows = IndependentRows(path);
    ProductionLog log = ReadProductionLog(path, ProductionLogFormat::kItp);
    ASSERT_EQ(log.jobs.size(), rows.size()) << path;
    std::set<std::string> ids;
    double first = 1e300;
    for (const auto& row : rows) first = std::min(first, std::stod(row[1]));
    EXPECT_EQ(log.stats.rebase_offset_s, first);
    for (const LoggedJob& job : log.jobs) {
      ids.insert(job.id);
      EXPECT_EQ(job.gpu_time_s, job.duration_s * job.num_gpus);
    }
    EXPECT_EQ(ids.size(), rows.size());
    // A one-week window from the collection start, counted independently.
    std::int64_t in_week = 0;
    for (const auto& row : rows) {
      const double t = std::stod(row[1]);
      if (t >= first + 86400 && t < first + 8 * 86400) ++in_week;
    }
    ProductionLogOptions options;
    options.window_start_s = first + 86400;
    options.window_length_s = 7 * 86400;
    EXPECT_EQ(ReadProductionLog(path, ProductionLogFormat::kItp, options).stats.selected, in_week)
        << path;
  }
}

// ---- Bad input: file, line and field ----

class ProductionLogFile {
 public:
  explicit ProductionLogFile(const std::string& text) {
    path_ = (fs::temp_directory_path() / ("adaptsim_production_" + std::to_string(::getpid()) +
                                          "_" + std::to_string(counter_++) + ".csv"))
                .string();
    std::ofstream(path_) << text;
  }
  ~ProductionLogFile() { fs::remove(path_); }
  const std::string& path() const { return path_; }

 private:
  static inline int counter_ = 0;
  std::string path_;
};

struct BadLogCase {
  const char* name;
  ProductionLogFormat format;
  std::string text;
  int line;
  const char* field;
  ProductionLogOptions options = {};
};

// Names the case in test listings instead of its bytes.
void PrintTo(const BadLogCase& c, std::ostream* out) {
  *out << c.name;
}

const char kPhillyHeader[] = "timestamp,duration,num_gpus,gpu_time,cluster\n";
const char kPhillyGood[] = "2017-10-09 07:01:55,66.0,1,66.0,11cb48\n";
const char kItpHeader[] = "job_id,submission_time,duration,num_gpu\n";
const char kItpGood[] = "965d744f-0445-c1a8-12af-97e4c536c66e,1932025,2429,64\n";

std::string Philly(const std::string& bad_row) {
  return std::string(kPhillyHeader) + kPhillyGood + bad_row + "\n";
}
std::string Itp(const std::string& bad_row) {
  return std::string(kItpHeader) + kItpGood + bad_row + "\n";
}

ProductionLogOptions ClusterOf(int gpus) {
  ProductionLogOptions options;
  options.cluster_gpus = gpus;
  return options;
}

class BadProductionLog : public ::testing::TestWithParam<BadLogCase> {};

TEST_P(BadProductionLog, NamesFileLineAndField) {
  const BadLogCase& c = GetParam();
  ProductionLogFile file(c.text);
  try {
    ReadProductionLog(file.path(), c.format, c.options);
    ADD_FAILURE() << "no InputError for:\n" << c.text;
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), file.path());
    EXPECT_EQ(error.line(), c.line);
    EXPECT_EQ(error.field(), c.field);
    const std::string what = error.what();
    const std::string prefix =
        file.path() + (c.line > 0 ? ":" + std::to_string(c.line) : std::string()) + ": ";
    EXPECT_EQ(what.rfind(prefix, 0), 0u) << what;
    if (*c.field != '\0') {
      EXPECT_NE(what.find("field '" + std::string(c.field) + "'"), std::string::npos) << what;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, BadProductionLog,
    ::testing::Values(
        BadLogCase{"month_13", ProductionLogFormat::kPhilly,
                   Philly("2017-13-09 07:01:55,66.0,1,66.0,11cb48"), 3, "timestamp"},
        BadLogCase{"slashes", ProductionLogFormat::kPhilly,
                   Philly("2017/10/09 07:01:55,66.0,1,66.0,11cb48"), 3, "timestamp"},
        BadLogCase{"hour_24", ProductionLogFormat::kPhilly,
                   Philly("2017-10-09 24:01:55,66.0,1,66.0,11cb48"), 3, "timestamp"},
        BadLogCase{"negative_duration", ProductionLogFormat::kPhilly,
                   Philly("2017-10-09 07:01:55,-66.0,1,-66.0,11cb48"), 3, "duration"},
        BadLogCase{"nan_duration", ProductionLogFormat::kPhilly,
                   Philly("2017-10-09 07:01:55,nan,1,66.0,11cb48"), 3, "duration"},
        BadLogCase{"text_num_gpus", ProductionLogFormat::kPhilly,
                   Philly("2017-10-09 07:01:55,66.0,two,132.0,11cb48"), 3, "num_gpus"},
        BadLogCase{"fractional_num_gpus", ProductionLogFormat::kPhilly,
                   Philly("2017-10-09 07:01:55,66.0,1.5,99.0,11cb48"), 3, "num_gpus"},
        BadLogCase{"zero_num_gpus", ProductionLogFormat::kPhilly,
                   Philly("2017-10-09 07:01:55,66.0,0,0.0,11cb48"), 3, "num_gpus"},
        BadLogCase{"inconsistent_gpu_time", ProductionLogFormat::kPhilly,
                   Philly("2017-10-09 07:01:55,66.0,2,66.0,11cb48"), 3, "gpu_time"},
        BadLogCase{"empty_cluster", ProductionLogFormat::kPhilly,
                   Philly("2017-10-09 07:01:55,66.0,1,66.0,"), 3, "cluster"},
        BadLogCase{"missing_column", ProductionLogFormat::kPhilly,
                   Philly("2017-10-09 07:01:55,66.0,1,66.0"), 3, ""},
        BadLogCase{"wrong_header", ProductionLogFormat::kPhilly,
                   std::string("timestamp,duration,gpus,gpu_time,cluster\n") + kPhillyGood, 1,
                   "header"},
        BadLogCase{"itp_file_read_as_philly", ProductionLogFormat::kPhilly, Itp(""), 1, "header"},
        BadLogCase{"empty_file", ProductionLogFormat::kPhilly, "", 0, "header"},
        BadLogCase{"header_only", ProductionLogFormat::kPhilly, kPhillyHeader, 0, ""},
        BadLogCase{"zero_duration", ProductionLogFormat::kPhilly,
                   Philly("2017-10-09 07:01:58,0.0,1,0.0,11cb48"), 3, "duration"},
        BadLogCase{"too_many_gpus", ProductionLogFormat::kPhilly,
                   Philly("2017-10-09 07:01:58,66.0,16,1056.0,11cb48"), 3, "num_gpus",
                   ClusterOf(8)},
        BadLogCase{"itp_duplicate_id", ProductionLogFormat::kItp,
                   Itp("965d744f-0445-c1a8-12af-97e4c536c66e,1932030,2429,1"), 3, "job_id"},
        BadLogCase{"itp_negative_submission", ProductionLogFormat::kItp,
                   Itp("fb10987f-20ac-3703-eb67-146a77a6e17c,-5,1532,1"), 3, "submission_time"},
        BadLogCase{"itp_text_num_gpu", ProductionLogFormat::kItp,
                   Itp("fb10987f-20ac-3703-eb67-146a77a6e17c,2000581,1532,one"), 3, "num_gpu"},
        BadLogCase{"itp_empty_id", ProductionLogFormat::kItp, Itp(",2000581,1532,1"), 3, "job_id"}),
    [](const ::testing::TestParamInfo<BadLogCase>& info) { return std::string(info.param.name); });

TEST(BadProductionLog, MissingFileAndOptionsNameTheirSource) {
  try {
    ReadProductionLog("/nonexistent/philly.csv", ProductionLogFormat::kPhilly);
    ADD_FAILURE() << "no InputError for a missing file";
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), "/nonexistent/philly.csv");
  }
  ProductionLogFile file(Itp("fb10987f-20ac-3703-eb67-146a77a6e17c,2000581,1532,1"));
  ProductionLogOptions options;
  options.virtual_clusters = {"6214e9"};
  try {
    ReadProductionLog(file.path(), ProductionLogFormat::kItp, options);
    ADD_FAILURE() << "no InputError for virtual clusters of an ITP log";
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), "production log options");
    EXPECT_EQ(error.field(), "virtual_clusters");
  }
  options = {};
  options.virtual_clusters = {"11cb48", "11cb4"};
  ProductionLogFile philly(Philly("2017-10-09 07:01:58,66.0,1,66.0,11cb48"));
  try {
    ReadProductionLog(philly.path(), ProductionLogFormat::kPhilly, options);
    ADD_FAILURE() << "no InputError for a virtual cluster that is not in the log";
  } catch (const InputError& error) {
    EXPECT_EQ(error.field(), "virtual_clusters");
    EXPECT_NE(std::string(error.what()).find("'11cb4'"), std::string::npos) << error.what();
  }
  options = {};
  options.window_start = "2017-10-09";
  EXPECT_THROW(ReadProductionLog(philly.path(), ProductionLogFormat::kPhilly, options), InputError);
}

TEST(ProductionLogSelection, SkipsUnsimulableRowsOnlyByOptionAndCountsEveryRow) {
  ProductionLogFile file(std::string(kPhillyHeader) +
                         "2017-10-09 07:00:10,30.0,1,30.0,a\n"      // below 60 s
                         "2017-10-09 07:00:00,0.0,1,0.0,a\n"        // zero duration
                         "2017-10-09 07:00:20,100.0,16,1600.0,b\n"  // 16 GPUs > 8
                         "2017-10-09 07:00:05,100.0,2,200.0,b\n"
                         "2017-10-09 07:00:05,100.0,1,100.0,c\n"
                         "2017-10-08 07:00:00,100.0,1,100.0,a\n");  // origin, outside window
  ProductionLogOptions options;
  options.cluster_gpus = 8;
  options.skip_unsimulable = true;
  options.window_start = "2017-10-09 00:00:00";
  ProductionLog log = ReadProductionLog(file.path(), ProductionLogFormat::kPhilly, options);
  EXPECT_EQ(log.stats.rows_read, 6);
  EXPECT_EQ(log.stats.outside_window, 1);
  EXPECT_EQ(log.stats.skipped_zero_duration, 1);
  EXPECT_EQ(log.stats.skipped_too_many_gpus, 1);
  EXPECT_EQ(log.stats.selected, 3);
  // Rebased on the first selected job (07:00:05 on the 9th, one day after the origin); ties keep
  // file order.
  EXPECT_EQ(log.stats.rebase_offset_s, 86400.0 + 5.0);
  ASSERT_EQ(log.jobs.size(), 3u);
  EXPECT_EQ(log.jobs[0].line, 5);
  EXPECT_EQ(log.jobs[1].line, 6);
  EXPECT_EQ(log.jobs[2].line, 2);
  EXPECT_EQ(log.jobs[2].arrival_time_s, 5.0);
  options.pollux_filter = true;
  log = ReadProductionLog(file.path(), ProductionLogFormat::kPhilly, options);
  EXPECT_EQ(log.stats.pollux_filtered, 2);  // the 30 s and the 0 s job: filtered before skipping
  EXPECT_EQ(log.stats.skipped_zero_duration, 0);
  EXPECT_EQ(log.stats.selected, 2);
}

// The artifact's sampling (simulator/workload.py:12-29): rows of any date whose time of day,
// shifted back by the start hour, is within the hours; N drawn; arrival = shifted time of day.
TEST(ProductionLogSelection, SamplesAsTheArtifactFromEveryDayByTimeOfDay) {
  std::string text = kPhillyHeader;
  int expected_eligible = 0;
  for (int day = 1; day <= 20; ++day) {
    for (int hour = 0; hour < 24; hour += 3) {
      char row[96];
      std::snprintf(row, sizeof(row), "2017-10-%02d %02d:%02d:07,120.0,1,120.0,vc\n", day, hour,
                    day);
      text += row;
      if (hour >= 2 && hour < 10) ++expected_eligible;  // start hour 2, 8 hours: 02:00-09:59
    }
  }
  ProductionLogFile file(text);
  ProductionLogOptions options;
  options.sample_jobs = 25;
  ProductionLog log = ReadProductionLog(file.path(), ProductionLogFormat::kPhilly, options);
  EXPECT_EQ(log.stats.rows_read, 20 * 8);
  EXPECT_EQ(log.stats.outside_sample_hours, 20 * 8 - expected_eligible);
  EXPECT_EQ(log.stats.not_sampled, expected_eligible - 25);
  EXPECT_EQ(log.stats.selected, 25);
  ASSERT_EQ(log.jobs.size(), 25u);
  std::set<int> days;
  for (std::size_t i = 0; i < log.jobs.size(); ++i) {
    const LoggedJob& job = log.jobs[i];
    const int day = (job.line - 2) / 8 + 1, hour = (job.line - 2) % 8 * 3;
    days.insert(day);
    EXPECT_EQ(job.arrival_time_s, (hour - 2) * 3600.0 + day * 60 + 7) << "line " << job.line;
    if (i > 0) {
      EXPECT_GE(job.arrival_time_s, log.jobs[i - 1].arrival_time_s);
    }
  }
  EXPECT_GT(days.size(), 5u);  // drawn across the dates, not from one day
  // Same seed, same sample; another seed, another sample; all eligible when fewer than asked.
  EXPECT_EQ(ReadProductionLog(file.path(), ProductionLogFormat::kPhilly, options).jobs.front().line,
            log.jobs.front().line);
  std::set<int> lines, other_lines;
  for (const LoggedJob& job : log.jobs) lines.insert(job.line);
  options.sample_seed = 1;
  for (const LoggedJob& job :
       ReadProductionLog(file.path(), ProductionLogFormat::kPhilly, options).jobs) {
    other_lines.insert(job.line);
  }
  EXPECT_NE(lines, other_lines);
  options.sample_jobs = 1000;
  EXPECT_EQ(ReadProductionLog(file.path(), ProductionLogFormat::kPhilly, options).stats.selected,
            expected_eligible);
  // Hours wrapping past midnight: start 22 h, 6 hours = 22:00-03:59.
  options.sample_start_hour = 22;
  options.sample_hours = 6;
  log = ReadProductionLog(file.path(), ProductionLogFormat::kPhilly, options);
  EXPECT_EQ(log.stats.selected, 20 * 2);  // rows at 00:xx and 03:xx
  for (const LoggedJob& job : log.jobs) EXPECT_LT(job.arrival_time_s, 6 * 3600.0);
  // The time of day exists only in Philly logs; out-of-range hours are option errors.
  ProductionLogFile itp(std::string("job_id,submission_time,duration,num_gpu\n") + "a,0,100,1\n");
  EXPECT_THROW(ReadProductionLog(itp.path(), ProductionLogFormat::kItp, options), InputError);
  options.sample_start_hour = 24;
  EXPECT_THROW(ReadProductionLog(file.path(), ProductionLogFormat::kPhilly, options), InputError);
}

TEST(ProductionLogSelection, WallClockSecondsAreNaiveCalendarArithmetic) {
  EXPECT_EQ(ParseWallClockSeconds("1970-01-01 00:00:00", "t", 1, "f"), 0);
  EXPECT_EQ(ParseWallClockSeconds("2017-11-05 02:30:00", "t", 1, "f") -
                ParseWallClockSeconds("2017-11-04 02:30:00", "t", 1, "f"),
            86400);  // a DST change in many zones: no correction
  EXPECT_EQ(ParseWallClockSeconds("2016-03-01 00:00:00", "t", 1, "f") -
                ParseWallClockSeconds("2016-02-28 00:00:00", "t", 1, "f"),
            2 * 86400);  // leap year
  EXPECT_THROW(ParseWallClockSeconds("2017-02-29 00:00:00", "t", 1, "f"), InputError);
  EXPECT_THROW(ParseWallClockSeconds("2017-10-09 07:01:5x", "t", 1, "f"), InputError);
  EXPECT_THROW(ParseWallClockSeconds("2017-10-09 07:61:00", "t", 1, "f"), InputError);
}

}  // namespace
}  // namespace adaptsim::testing
