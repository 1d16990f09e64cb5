// The trace generator (include/adaptsim/trace_generator.hpp; docs/mechanism.md §1.4): its random
// transforms, the distributions over 10,000 jobs, determinism, and bad input for `adaptsim
// generate-trace`.
#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "adaptsim/error.hpp"
#include "adaptsim/trace.hpp"
#include "adaptsim/trace_generator.hpp"
#include "adaptsim/workload.hpp"

namespace adaptsim {
namespace {

/// Every job type runs at a fixed rate (steps/s); `missing` makes one model unknown.
class FixedThroughput final : public ThroughputSource {
 public:
  explicit FixedThroughput(double rate, std::string missing = "")
      : rate_(rate), missing_(missing) {}
  std::optional<double> ThroughputStepsPerS(std::string_view model, int, int) const override {
    if (model == missing_) return std::nullopt;
    return rate_;
  }
  std::string Describe() const override { return "fixed"; }

 private:
  double rate_;
  std::string missing_;
};

std::string Text(const Trace& trace) {
  std::ostringstream out;
  WriteTrace(out, trace);
  return out.str();
}

std::uint64_t Fnv1a(const std::string& text) {
  std::uint64_t hash = 1469598103934665603ull;
  for (unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

// --- The transforms. ---

TEST(TraceGeneratorRng, PhiloxKnownAnswer) {
  // Random123 known-answer vector philox4x32_10(ctr = 0, key = 0): word 0 = 0x6627e8d5,
  // word 1 = 0xe169c58d. Seed 0, stream 0, index 0, draw 0 is exactly that counter and key.
  double expected = UniformFromWords(0x6627e8d5u, 0xe169c58du);
  EXPECT_DOUBLE_EQ(PhiloxStream(0, 0).Uniform(0, 0), expected);
}

TEST(TraceGeneratorRng, UniformFromWordsIs53Bits) {
  EXPECT_EQ(UniformFromWords(0, 0), 0.0);
  EXPECT_EQ(UniformFromWords(1u << 5, 0), std::ldexp(1.0, -27));
  EXPECT_EQ(UniformFromWords(0, 1u << 6), std::ldexp(1.0, -53));
  EXPECT_EQ(UniformFromWords(0xffffffffu, 0xffffffffu), 1.0 - std::ldexp(1.0, -53));
  EXPECT_LT(UniformFromWords(0xffffffffu, 0xffffffffu), 1.0);
}

TEST(TraceGeneratorRng, ExponentialAndIndexTransforms) {
  EXPECT_EQ(ExponentialFromUniform(0.0, 40.0), 0.0);
  EXPECT_NEAR(ExponentialFromUniform(1.0 - std::exp(-1.0), 40.0), 40.0, 1e-12);
  EXPECT_NEAR(ExponentialFromUniform(0.5, 10.0), 10.0 * std::log(2.0), 1e-12);
  EXPECT_EQ(IndexFromUniform(0.0, 21), 0);
  EXPECT_EQ(IndexFromUniform(0.2, 5), 1);
  EXPECT_EQ(IndexFromUniform(1.0 - 1e-16, 5), 4);
  EXPECT_EQ(IndexFromUniform(1.0, 5), 4);  // clamped
}

TEST(TraceGeneratorRng, StreamsAreIndependentAndStateless) {
  PhiloxStream a(7, 1), b(7, 2), c(8, 1), d(7ull | (1ull << 32), 1);
  EXPECT_EQ(a.Uniform(5), PhiloxStream(7, 1).Uniform(5));
  EXPECT_NE(a.Uniform(5), b.Uniform(5));
  EXPECT_NE(a.Uniform(5), c.Uniform(5));
  EXPECT_NE(a.Uniform(5), d.Uniform(5));  // the high seed word matters
  EXPECT_NE(a.Uniform(5, 0), a.Uniform(5, 1));
  // Mean of 20,000 uniforms ~ 0.5 (sd 0.002).
  double sum = 0;
  for (int i = 0; i < 20000; ++i) sum += a.Uniform(i);
  EXPECT_NEAR(sum / 20000, 0.5, 0.01);
}

TEST(TraceGeneratorGrid, LinspaceAndBuckets) {
  TraceGeneratorOptions o;
  std::vector<double> grid = DurationGridHours(o);
  ASSERT_EQ(grid.size(), 100u);
  EXPECT_EQ(grid.front(), 0.2);
  EXPECT_EQ(grid.back(), 5.0);
  EXPECT_NEAR(grid[1] - grid[0], 0.048485, 1e-6);  // docs/mechanism.md §1.4
  EXPECT_EQ(DurationBucketBounds(100), (std::array<int, 5>{0, 20, 50, 90, 100}));
  EXPECT_EQ(DurationBucketBounds(1000), (std::array<int, 5>{0, 200, 500, 900, 1000}));
  EXPECT_EQ(DurationBucketBounds(5), (std::array<int, 5>{0, 1, 2, 4, 5}));  // 2.5→2, 4.5→4
}

// --- Statistics over 10,000 jobs. ---

struct Stats {
  std::array<double, 4> buckets{};
  std::array<double, 4> scale_factors{};  // among distributed models
  std::array<double, 3> modes_long{};     // among jobs of >= 1000 s
  double mean_interarrival_s = 0;
  int accordion_short = 0;
  std::map<std::string, int> templates;
};

Stats Measure(const TraceGeneratorOptions& o, const Trace& trace) {
  Stats s;
  std::vector<double> grid = DurationGridHours(o);
  std::array<int, 5> bounds = DurationBucketBounds(o.num_durations);
  int distributed = 0, long_jobs = 0;
  for (const JobSpec& job : trace.jobs) {
    int index = 0;  // grid point of the duration
    for (int g = 0; g < o.num_durations; ++g) {
      if (std::abs(std::nearbyint(3600 * grid[g]) - job.trace_duration_s) <
          std::abs(std::nearbyint(3600 * grid[index]) - job.trace_duration_s)) {
        index = g;
      }
    }
    for (int b = 0; b < 4; ++b) s.buckets[b] += index >= bounds[b] && index < bounds[b + 1];
    if (FindModel(job.model)->distributed) {
      ++distributed;
      s.scale_factors[static_cast<int>(std::log2(job.scale_factor))] += 1;
    }
    if (job.trace_duration_s >= 1000) {
      ++long_jobs;
      s.modes_long[static_cast<int>(job.mode)] += 1;
    } else {
      s.accordion_short += job.mode == AdaptationMode::kAccordion;
    }
    ++s.templates[JobTypeName(job.model, job.initial_batch_size)];
  }
  for (double& b : s.buckets) b /= trace.jobs.size();
  for (double& f : s.scale_factors) f /= distributed;
  for (double& m : s.modes_long) m /= long_jobs;
  s.mean_interarrival_s = trace.jobs.back().arrival_time_s / (trace.jobs.size() - 1);
  return s;
}

TEST(TraceGenerator, DistributionsOver10000Jobs) {
  TraceGeneratorOptions o;
  o.num_jobs = 10000;
  o.seed = 25;
  Trace trace = GenerateTrace(o, ModelCatalogue(), FixedThroughput(10.0));
  ASSERT_EQ(trace.jobs.size(), 10000u);
  Stats s = Measure(o, trace);
  for (int b = 0; b < 4; ++b) {
    EXPECT_NEAR(s.buckets[b], kShockwaveDurationMix[b], 0.02) << "duration bucket " << b;
  }
  EXPECT_NEAR(s.mean_interarrival_s, o.lam_s, 0.03 * o.lam_s);
  for (int f = 0; f < 4; ++f) {
    EXPECT_NEAR(s.scale_factors[f], o.scale_factor_mix[f], 0.02) << "sf " << (1 << f);
  }
  for (int m = 0; m < 3; ++m) EXPECT_NEAR(s.modes_long[m], o.mode_mix[m], 0.02) << "mode " << m;
  EXPECT_EQ(s.accordion_short, 0);  // accordion < 1000 s became static
  EXPECT_EQ(s.templates.size(), 21u);
  for (const auto& [name, count] : s.templates) EXPECT_NEAR(count / 1e4, 1 / 21.0, 0.01) << name;
  for (const JobSpec& job : trace.jobs) {
    ASSERT_EQ(job.total_steps, static_cast<std::int64_t>(job.trace_duration_s * 10.0));
    if (!FindModel(job.model)->distributed) {
      ASSERT_EQ(job.scale_factor, 1);
    }
  }
  std::printf("[generator] buckets %.4f %.4f %.4f %.4f, mean inter-arrival %.2f s (lam 40)\n",
              s.buckets[0], s.buckets[1], s.buckets[2], s.buckets[3], s.mean_interarrival_s);
}

TEST(TraceGenerator, OtherMixesAndPolluxDurations) {
  TraceGeneratorOptions o;
  o.num_jobs = 10000;
  o.seed = 3;
  o.lam_s = 7.5;
  o.duration_mix = kPolluxDurationMix;
  o.mode_mix = {0.2, 0.3, 0.5};
  o.scale_factor_mix = {0.25, 0.25, 0.25, 0.25};
  Stats s = Measure(o, GenerateTrace(o, ModelCatalogue(), FixedThroughput(1.0)));
  for (int b = 0; b < 4; ++b) EXPECT_NEAR(s.buckets[b], kPolluxDurationMix[b], 0.02) << b;
  EXPECT_NEAR(s.mean_interarrival_s, 7.5, 0.03 * 7.5);
  for (int f = 0; f < 4; ++f) EXPECT_NEAR(s.scale_factors[f], 0.25, 0.02) << f;
  for (int m = 0; m < 3; ++m) EXPECT_NEAR(s.modes_long[m], o.mode_mix[m], 0.02) << m;
}

// --- Determinism. ---

TEST(TraceGenerator, SameSeedSameBytesDifferentSeedDifferentBytes) {
  TraceGeneratorOptions o;
  FixedThroughput source(12.5);
  std::string first = Text(GenerateTrace(o, ModelCatalogue(), source));
  std::string again = Text(GenerateTrace(o, ModelCatalogue(), source));
  EXPECT_EQ(first, again);
  o.seed = 1;
  EXPECT_NE(first, Text(GenerateTrace(o, ModelCatalogue(), source)));
  // Counter-based streams: a longer trace extends a shorter one with the same seed.
  o.seed = 0;
  o.num_jobs = 240;
  EXPECT_EQ(Text(GenerateTrace(o, ModelCatalogue(), source)).substr(0, first.size()), first);
  // Pinned bytes: any change of streams, transforms or format on any machine shows up here.
  EXPECT_EQ(Fnv1a(first), 16909169255144436354ull)
      << "FNV-1a of the default 120-job trace; first line: " << first.substr(0, first.find('\n'));
}

TEST(TraceGenerator, GeneratedTraceReadsBack) {
  TraceGeneratorOptions o;
  std::istringstream in(Text(GenerateTrace(o, ModelCatalogue(), FixedThroughput(3.0))));
  Trace trace = ParseTrace(in, "generated");
  ASSERT_EQ(trace.jobs.size(), 120u);
  EXPECT_EQ(trace.jobs.front().arrival_time_s, 0.0);
}

// --- Bad input. ---

TEST(TraceGenerator, BadOptionsAreInputErrors) {
  const FixedThroughput source(1.0);
  auto expect_error = [&](auto mutate, const char* field) {
    TraceGeneratorOptions o;
    mutate(o);
    try {
      GenerateTrace(o, ModelCatalogue(), source);
      ADD_FAILURE() << "no error for " << field;
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), field) << e.what();
    }
  };
  expect_error([](TraceGeneratorOptions& o) { o.num_jobs = 0; }, "num_jobs");
  expect_error([](TraceGeneratorOptions& o) { o.lam_s = 0; }, "lam");
  expect_error([](TraceGeneratorOptions& o) { o.min_duration_h = 6; }, "max_duration_h");
  expect_error([](TraceGeneratorOptions& o) { o.mode_mix = {0.5, 0.5, 0.5}; }, "mode_mix");
  expect_error(
      [](TraceGeneratorOptions& o) {
        o.scale_factor_mix = {1.1, -0.1, 0, 0};
      },
      "scale_factor_mix");
  expect_error([](TraceGeneratorOptions& o) { o.num_durations = 3; }, "num_durations");
  EXPECT_THROW(GenerateTrace({}, {}, source), InputError);  // no templates
}

TEST(TraceGenerator, MissingOrZeroThroughputIsInputError) {
  EXPECT_THROW(GenerateTrace({}, ModelCatalogue(), FixedThroughput(1.0, "LM")), InputError);
  EXPECT_THROW(GenerateTrace({}, ModelCatalogue(), FixedThroughput(0.0)), InputError);
}

#ifdef ADAPTSIM_BINARY
std::filesystem::path TempPath(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("adaptsim_gen_" + std::to_string(::getpid()) + "_" + name);
}

/// Runs the CLI; returns its exit code, stderr in `err`.
int RunCli(const std::string& args, std::string& err) {
  std::filesystem::path log = TempPath("stderr.txt");
  std::string command = std::string(ADAPTSIM_BINARY) + " " + args + " >/dev/null 2>" + log.string();
  int status = std::system(command.c_str());
  std::ifstream in(log);
  err.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  std::filesystem::remove(log);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string WriteFile(const std::string& name, const std::string& text) {
  std::filesystem::path path = TempPath(name);
  std::ofstream(path) << text;
  return path.string();
}

TEST(GenerateTraceCommand, WritesIdenticalBytesTwice) {
  std::string catalog = std::string(ADAPTSIM_SOURCE_DIR) + "/data/catalog/v100.toml";
  std::string a = TempPath("a.trace").string(), b = TempPath("b.trace").string(), err;
  ASSERT_EQ(RunCli("generate-trace --catalog " + catalog + " --seed 4 --out " + a, err), 0) << err;
  ASSERT_EQ(RunCli("generate-trace --catalog " + catalog + " --seed 4 --out " + b, err), 0) << err;
  std::ifstream fa(a), fb(b);
  std::string ta((std::istreambuf_iterator<char>(fa)), {}),
      tb((std::istreambuf_iterator<char>(fb)), {});
  EXPECT_FALSE(ta.empty());
  EXPECT_EQ(ta, tb);
  EXPECT_EQ(ReadTrace(a).jobs.size(), 120u);
  std::filesystem::remove(a);
  std::filesystem::remove(b);
}

TEST(GenerateTraceCommand, BadInputsGiveClearErrors) {
  std::string catalog = std::string(ADAPTSIM_SOURCE_DIR) + "/data/catalog/v100.toml";
  std::string out = TempPath("bad.trace").string(), err;
  std::string empty = WriteFile("empty.json", R"json({"v100": {}})json");
  std::string zero =
      WriteFile("zero.json", R"json({"v100": {"('LM (batch size 10)', 1)": {"null": 0.0}}})json");
  struct Case {
    std::string args, needle;
  } cases[] = {
      {"--catalog " + catalog + " --throughputs " + empty, "not both"},
      {"", "give --catalog"},
      {"--throughputs " + empty, "no throughput entries"},
      {"--throughputs " + zero, "no throughput for this job type"},
      {"--catalog " + catalog + " --mode-mix 0.5,0.6,0", "sum to 1"},
      {"--catalog " + catalog + " --scale-factor-mix 1,0", "4 probabilities"},
      {"--catalog " + catalog + " --duration-mix weird", "shockwave, pollux, uniform"},
      {"--catalog " + catalog + " --min-duration-h 3 --max-duration-h 1", "max_duration_h"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(RunCli("generate-trace " + c.args + " --out " + out, err), 2) << c.args;
    EXPECT_NE(err.find(c.needle), std::string::npos) << c.args << " -> " << err;
    EXPECT_FALSE(std::filesystem::exists(out)) << c.args;
  }
  std::filesystem::remove(empty);
  std::filesystem::remove(zero);
}
#endif

}  // namespace
}  // namespace adaptsim
