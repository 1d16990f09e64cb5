// Per-job profiles against the reference's (profiles_120_tacc.json; docs/mechanism.md §3.1-3.3).
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "adaptsim/profile.hpp"
#include "adaptsim/trace.hpp"
#include "adaptsim/workload.hpp"
#include "test_support.hpp"

namespace adaptsim::testing {
namespace {

std::vector<int> Expand(const nlohmann::json& rle) {
  std::vector<int> pattern;
  for (const auto& run : rle) pattern.insert(pattern.end(), run[1].get<int>(), run[0].get<int>());
  return pattern;
}

TEST(Profile, JobZeroOfCanonicalTrace) {
  ADAPTSIM_REQUIRE_DATA();
  Trace trace = ReadTrace(CanonicalTracePath());
  ThroughputTable table = ThroughputTable::ReadJson(TaccThroughputsPath());
  JobProfile profile = BuildProfile(trace.jobs[0], table, trace.path);
  EXPECT_EQ(profile.num_epochs, 23);
  std::vector<int> expected(11, 10);
  expected.insert(expected.end(), 10, 20);
  expected.push_back(40);
  expected.push_back(10);
  EXPECT_EQ(profile.bs_every_epoch, expected);
  // T_excl = Σ_e (D / bs_e) / thr(LM, bs_e, 1 GPU), D/bs not rounded up (docs/mechanism.md §3.1),
  // summed here from the table and the catalogue's dataset size (the reference's 1224.80 s).
  const double samples = static_cast<double>(FindModel("LM")->dataset_size_samples);
  double exclusive_s = 0.0;
  for (int bs : expected) exclusive_s += samples / bs / *table.ThroughputStepsPerS("LM", bs, 1);
  EXPECT_NEAR(profile.exclusive_time_s, exclusive_s, 1e-9 * exclusive_s);
}

TEST(Profile, AllJobsEqualReferenceProfiles) {
  ADAPTSIM_REQUIRE_DATA();
  Trace trace = ReadTrace(CanonicalTracePath());
  ThroughputTable table = ThroughputTable::ReadJson(TaccThroughputsPath());
  std::ifstream in(DataPath("golden/shockwave_tacc32/profiles_120_tacc.json"));
  nlohmann::json reference = nlohmann::json::parse(in);
  ASSERT_EQ(reference.size(), trace.jobs.size());
  for (const auto& expected : reference) {
    const JobSpec& job = trace.jobs.at(expected["id"].get<int>());
    JobProfile profile = BuildProfile(job, table, trace.path);
    EXPECT_EQ(profile.num_epochs, expected["num_epochs"].get<int>()) << "job " << job.id;
    EXPECT_EQ(profile.bs_every_epoch, Expand(expected["bs_every_epoch_rle"])) << "job " << job.id;
    double t = expected["exclusive_time_sum_duration_every_epoch"].get<double>();
    EXPECT_NEAR(profile.exclusive_time_s, t, 1e-9 * t) << "job " << job.id;
    EXPECT_EQ(job.total_steps, expected["total_steps"].get<std::int64_t>());
    EXPECT_EQ(job.scale_factor, expected["scale_factor"].get<int>());
    EXPECT_EQ(std::string(ToString(job.mode)), expected["mode"].get<std::string>());
  }
}

TEST(Profile, LongAccordionProfilesSwitchEveryEpochPastThirtyPercentAfterEpochSixHundred) {
  // utils.py:741-798: an epoch outside the critical regime and past 0.3 E runs at the model's
  // largest batch size; these four models have no critical epoch from 600 on, so the pattern
  // there is filled in one step. Checked epoch by epoch, including E where 0.3 E is whole.
  for (const char* model : {"ResNet-18", "ResNet-50", "LM", "Recommendation"}) {
    const ModelInfo* info = FindModel(model);
    ASSERT_NE(info, nullptr) << model;
    for (int epochs : {599, 600, 601, 1999, 2000, 2001, 3000, 10000, 123457}) {
      const int b0 = 32;
      const std::vector<int> pattern = AccordionProfilePattern(model, b0, epochs);
      ASSERT_EQ(pattern.size(), static_cast<std::size_t>(epochs));
      for (int e = 600; e < epochs; ++e) {
        ASSERT_EQ(pattern[e], e > 0.3 * epochs ? info->max_batch_size : b0)
            << model << " E=" << epochs << " e=" << e;
      }
    }
  }
  // Any other model is critical at every epoch: its pattern stays at the initial batch size.
  const std::vector<int> transformer = AccordionProfilePattern("Transformer", 64, 5000);
  EXPECT_EQ(transformer, std::vector<int>(5000, 64));
}

TEST(Profile, GnsTruncationQuirkOnlyFirstSegmentTouchesLastEpoch) {
  // LM bs10 sf1, rule E>11: [11,21)x2, [21,41)x4, [41,E)x8. With E = 15 the last epoch lies in
  // the first segment and is modified; with E = 23 it lies in the second and keeps B0.
  std::vector<int> short_pattern = GnsPattern("LM", 10, 15, 1);
  EXPECT_EQ(short_pattern.back(), 20);
  std::vector<int> long_pattern = GnsPattern("LM", 10, 23, 1);
  EXPECT_EQ(long_pattern[21], 40);
  EXPECT_EQ(long_pattern[22], 10);
  // Clamp to the model limit: LM never exceeds 80.
  for (int bs : GnsPattern("LM", 10, 760, 1)) EXPECT_LE(bs, 80);
}

}  // namespace
}  // namespace adaptsim::testing
