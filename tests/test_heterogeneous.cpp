// Clusters of several GPU types (docs/mechanism.md §12): the cluster value, CPython's random
// draws, and the round mechanism against the reference runs on 16 V100 + 8 P100 + 8 K80
// (../shared/data/golden/heterogeneous_tacc_16-8-8/).
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "adaptsim/catalogue_throughput.hpp"
#include "adaptsim/cluster.hpp"
#include "adaptsim/error.hpp"
#include "adaptsim/gavel.hpp"
#include "adaptsim/metrics.hpp"
#include "adaptsim/python_random.hpp"
#include "adaptsim/registry.hpp"
#include "adaptsim/simulator.hpp"
#include "adaptsim/store.hpp"
#include "adaptsim/task.hpp"
#include "adaptsim/task_fields.hpp"
#include "golden_support.hpp"
#include "test_support.hpp"

namespace adaptsim::testing {
namespace {

// --- CPython's random.Random ---

// Reference values printed by CPython 3.11: random.Random(0).getrandbits(32) three times, and
// random.Random(2**40 + 7) (a seed of two 32-bit words) twice.
TEST(PythonRandom, MatchesCPythonOutputs) {
  PythonRandom zero(0);
  EXPECT_EQ(zero.GetRandBits(32), 3626764237u);
  EXPECT_EQ(zero.GetRandBits(32), 1654615998u);
  EXPECT_EQ(zero.GetRandBits(32), 3255389356u);
  PythonRandom wide((std::uint64_t{1} << 40) + 7);
  EXPECT_EQ(wide.GetRandBits(32), 2635837658u);
  EXPECT_EQ(wide.GetRandBits(32), 3209733218u);
  // [random.Random(0).randrange(3) for _ in range(10)]
  PythonRandom draws(0);
  std::vector<std::uint32_t> got;
  for (int i = 0; i < 10; ++i) got.push_back(draws.RandBelow(3));
  EXPECT_EQ(got, (std::vector<std::uint32_t>{1, 1, 0, 1, 2, 1, 1, 1, 1, 1}));
}

// The reference's per-round type order: random.Random(0 + 5).shuffle of a fresh
// ["v100", "p100", "k80"] each round (`scheduler.py:1288-1301`), rounds 0-5 as CPython gives them.
TEST(PythonRandom, ShufflesTheTypeOrderAsTheReference) {
  PythonRandom shuffler(5);
  const std::vector<std::vector<std::string>> expected = {
      {"v100", "p100", "k80"}, {"v100", "p100", "k80"}, {"p100", "v100", "k80"},
      {"k80", "v100", "p100"}, {"p100", "v100", "k80"}, {"p100", "k80", "v100"}};
  for (const auto& round : expected) {
    std::vector<std::string> order = {"v100", "p100", "k80"};
    shuffler.Shuffle(order);
    EXPECT_EQ(order, round);
  }
}

// --- The cluster value ---

TEST(Cluster, ParsesTheThreeForms) {
  const Cluster reference = Cluster::Parse("16:8:8");
  ASSERT_EQ(reference.num_types(), 3);
  EXPECT_EQ(reference.num_gpus(), 32);
  // Worker ids in sorted(cluster_spec) order: K80 0-7, P100 8-15, V100 16-31.
  EXPECT_EQ(reference.name(0), "k80");
  EXPECT_EQ(reference.first_worker_id(1), 8);
  EXPECT_EQ(reference.first_worker_id(2), 16);
  EXPECT_EQ(reference.TypeOfWorker(7), 0);
  EXPECT_EQ(reference.TypeOfWorker(8), 1);
  EXPECT_EQ(reference.TypeOfWorker(31), 2);
  EXPECT_EQ(reference.reference_type(), 2);
  EXPECT_EQ(Cluster::Parse("v100=16, p100=8,k80=8"), reference);
  EXPECT_EQ(reference.ToString(), "k80=8,p100=8,v100=16");
  EXPECT_EQ(Cluster::Parse(reference.ToString()), reference);
  // A type without GPUs is not part of the cluster; N is N GPUs of the default type.
  EXPECT_EQ(Cluster::Parse("32:0:0"), Cluster::Homogeneous(32));
  EXPECT_EQ(Cluster::Parse("32").ToString(), "32");
  EXPECT_TRUE(Cluster::Parse("32").homogeneous());
  EXPECT_EQ(Cluster::Parse("a100=4").reference_type(), 0);
}

TEST(Cluster, BadTextNamesTheFieldAndThePart) {
  auto error_of = [](const std::string& text) {
    try {
      Cluster::Parse(text, "sweep.toml", 7, "cluster");
    } catch (const InputError& error) {
      EXPECT_EQ(error.field(), "cluster") << text;
      EXPECT_EQ(error.line(), 7) << text;
      return std::string(error.what());
    }
    ADD_FAILURE() << "no error for '" << text << "'";
    return std::string();
  };
  EXPECT_NE(error_of("16:8").find("exactly three counts"), std::string::npos);
  EXPECT_NE(error_of("16:x:8").find("count of 'p100'"), std::string::npos);
  EXPECT_NE(error_of("v100=16,V100=2").find("GPU type 'V100'"), std::string::npos);
  EXPECT_NE(error_of("v100=16,v100=2").find("given twice"), std::string::npos);
  EXPECT_NE(error_of("v100=-1").find("count of GPU type 'v100'"), std::string::npos);
  EXPECT_NE(error_of("0:0:0").find("no GPU"), std::string::npos);
  EXPECT_NE(error_of("0").find("integer >= 1"), std::string::npos);
  EXPECT_NE(error_of("").find("empty"), std::string::npos);
  EXPECT_NE(error_of("v100").find("integer >= 1"), std::string::npos);
}

// --- The golden runs on 16 V100 + 8 P100 + 8 K80 ---

std::string HeterogeneousGoldenPath(const std::string& policy) {
  return DataPath("golden/heterogeneous_tacc_16-8-8/" + policy + "__simulation.json");
}

#define ADAPTSIM_REQUIRE_HETEROGENEOUS_DATA(policy)                                               \
  do {                                                                                            \
    ADAPTSIM_REQUIRE_DATA();                                                                      \
    if (!std::filesystem::exists(HeterogeneousGoldenPath(policy))) {                              \
      GTEST_SKIP() << "heterogeneous golden data not found: " << HeterogeneousGoldenPath(policy); \
    }                                                                                             \
  } while (0)

// The reference's run: the canonical trace, tacc throughputs, --cluster_spec 16:8:8, seed 0.
SimulationResult RunOnMixedCluster(const std::string& policy, const std::string& cluster_text,
                                   const nlohmann::json& options = nlohmann::json::object()) {
  const Cluster cluster = Cluster::Parse(cluster_text);
  SimulationOptions simulation;
  simulation.num_gpus = cluster.num_gpus();
  RoundSimulation run(
      ReadTrace(CanonicalTracePath()),
      models::LoadClusterThroughputs(TaccThroughputsPath(), cluster),
      MakeRoundScheduler(MakePolicy(policy, options, "policy_options", 0), simulation, /*seed=*/0),
      simulation);
  SimulationResult result = run.Run({});
  ComputeMetrics(result, simulation.num_gpus);
  return result;
}

void ExpectIdenticalToGolden(const SimulationResult& result, const GoldenRun& golden) {
  ASSERT_EQ(result.status, TaskStatus::kOk) << result.message;
  // Round by round first, so that a departure shows where it starts.
  for (std::size_t r = 0; r < std::min(result.rounds.size(), golden.round_workers.size()); ++r) {
    const RoundResult& round = result.rounds[r];
    std::vector<ScheduledJob> placed;
    for (std::size_t i = 0; i < round.running_job_ids.size(); ++i) {
      placed.push_back({round.running_job_ids[i], round.worker_ids[i]});
    }
    ASSERT_EQ(placed.size(), golden.round_workers[r].size()) << "round " << r;
    for (std::size_t i = 0; i < placed.size(); ++i) {
      // Job and workers, in the reference's key order (types in the round's order).
      ASSERT_EQ(placed[i].id, golden.round_workers[r][i].id) << "round " << r << " entry " << i;
      ASSERT_EQ(placed[i].worker_ids, golden.round_workers[r][i].worker_ids)
          << "round " << r << " job " << placed[i].id;
    }
  }
  ASSERT_EQ(result.rounds.size(), golden.round_workers.size());
  ExpectJctsMatch(result, golden, 1e-9);
  EXPECT_NEAR(result.summary.makespan_s, golden.makespan_s, 1e-9 * golden.makespan_s);
  ExpectTimelineMatches(result, golden);
  EXPECT_EQ(result.lease_extensions, golden.lease_extensions);
  EXPECT_EQ(result.lease_extension_opportunities, golden.lease_extension_opportunities);
  for (std::size_t j = 0; j < golden.ftf_rho.size(); ++j) {
    EXPECT_DOUBLE_EQ(result.jobs[j].ftf_rho, golden.ftf_rho[j]) << "job " << j;
    EXPECT_DOUBLE_EQ(result.jobs[j].ftf_rho_themis, golden.ftf_rho_themis[j]) << "job " << j;
  }
  // Busy time per worker id over the makespan (K80 ids first), as the reference rounds it.
  ASSERT_EQ(result.gpu_busy_time_s.size(), golden.utilization.size());
  for (std::size_t w = 0; w < golden.utilization.size(); ++w) {
    EXPECT_DOUBLE_EQ(PythonRound(result.gpu_busy_time_s[w] / result.summary.makespan_s, 5),
                     golden.utilization[w])
        << "worker " << w;
  }
  EXPECT_NEAR(result.summary.utilization, golden.cluster_util, 1e-9);
}

class HeterogeneousGolden : public ::testing::TestWithParam<const char*> {};

// The forward simulation is the reference run: every round's job -> worker ids map (in its key
// order), every JCT, the throughput timeline, the lease counters, ρ and utilization.
TEST_P(HeterogeneousGolden, IdenticalToReference) {
  ADAPTSIM_REQUIRE_HETEROGENEOUS_DATA(GetParam());
  const GoldenRun golden = LoadGoldenFile(HeterogeneousGoldenPath(GetParam()));
  // The heterogeneous reference runs were made with a SciPy that solves AlloX's assignment matrix
  // unshifted (docs/mechanism.md §12.7).
  nlohmann::json options = nlohmann::json::object();
  if (std::string(GetParam()) == "allox") options["shift_costs_by_minimum"] = false;
  ExpectIdenticalToGolden(RunOnMixedCluster(GetParam(), "16:8:8", options), golden);
}

// Replaying the recorded schedules checks the engine alone: the throughput of the placed type,
// the V100-based deadline cut, restart overhead by id.
TEST_P(HeterogeneousGolden, ReplayReproducesJcts) {
  ADAPTSIM_REQUIRE_HETEROGENEOUS_DATA(GetParam());
  const GoldenRun golden = LoadGoldenFile(HeterogeneousGoldenPath(GetParam()));
  SimulationResult result =
      RunOnMixedCluster("replay", "16:8:8", {{"schedule", HeterogeneousGoldenPath(GetParam())}});
  ExpectIdenticalToGolden(result, golden);
}

INSTANTIATE_TEST_SUITE_P(AllReferenceRuns, HeterogeneousGolden,
                         ::testing::Values("fifo", "fifo_perf", "gandiva_fair", "allox", "isolated",
                                           "isolated_plus"));

// Metrics on the mixed cluster (docs/mechanism.md §12.9) against the golden runs: each type's
// utilization is the mean of the reference's per-worker utilization over its worker ids, the
// types' GPU-hours add up to the busy time, and the type-weighted ρ of a job without batch-size
// adaptation follows from its JCT, its V100 exclusive time and the throughputs file alone (its
// exclusive time on type g is T_excl,v100 · T_v100 / T_g).
TEST_P(HeterogeneousGolden, PerTypeMetricsAndTypeWeightedRho) {
  ADAPTSIM_REQUIRE_HETEROGENEOUS_DATA(GetParam());
  const GoldenRun golden = LoadGoldenFile(HeterogeneousGoldenPath(GetParam()));
  nlohmann::json options = nlohmann::json::object();
  if (std::string(GetParam()) == "allox") options["shift_costs_by_minimum"] = false;
  const SimulationResult result = RunOnMixedCluster(GetParam(), "16:8:8", options);
  ASSERT_EQ(result.status, TaskStatus::kOk) << result.message;
  const Cluster cluster = Cluster::Parse("16:8:8");
  ASSERT_EQ(result.gpu_types.size(), 3u);
  double busy_s = 0.0;
  for (double b : result.gpu_busy_time_s) busy_s += b;
  double hours = 0.0;
  for (int k = 0; k < cluster.num_types(); ++k) {
    const GpuTypeResult& type = result.gpu_types[k];
    EXPECT_EQ(type.gpu_type, cluster.name(k));
    EXPECT_EQ(type.gpus, cluster.count(k));
    double sum = 0.0;
    for (int w = cluster.first_worker_id(k); w < cluster.first_worker_id(k) + cluster.count(k);
         ++w) {
      sum += golden.utilization[w];
    }
    EXPECT_NEAR(type.utilization, sum / cluster.count(k), 1e-12) << type.gpu_type;
    hours += type.busy_gpu_hours;
  }
  EXPECT_NEAR(hours, busy_s / 3600.0, 1e-9 * hours);

  const nlohmann::json table = nlohmann::json::parse(std::ifstream(TaccThroughputsPath()));
  const Trace trace = ReadTrace(CanonicalTracePath());
  const double contention = 120.0 / 32.0;
  int checked = 0;
  for (const JobSpec& job : trace.jobs) {
    if (job.mode != AdaptationMode::kStatic) continue;
    const std::string key = "('" + JobTypeName(job.model, job.initial_batch_size) + "', " +
                            std::to_string(job.scale_factor) + ")";
    const double v100 = table["v100"][key]["null"].get<double>();
    const double jct_s = golden.jct_s[job.id];
    const double rho_v100 = jct_s / (result.jobs[job.id].exclusive_time_s * contention);
    EXPECT_NEAR(rho_v100, golden.ftf_rho[job.id], 1e-5) << "job " << job.id;
    double weighted = 0.0;
    int gpus = 0;
    for (int k = 0; k < cluster.num_types(); ++k) {
      const double thr = table[cluster.name(k)][key]["null"].get<double>();
      if (thr <= 0.0) continue;  // the job cannot run on this type
      weighted += cluster.count(k) * rho_v100 * thr / v100;
      gpus += cluster.count(k);
    }
    EXPECT_NEAR(result.jobs[job.id].ftf_rho_type_weighted, weighted / gpus, 2e-5)
        << "job " << job.id;
    ++checked;
  }
  EXPECT_GT(checked, 0);  // the canonical trace has 4 jobs without batch-size adaptation
}

// The first round whose placed jobs differ from the golden run's (or the shorter length).
std::size_t SameRounds(const SimulationResult& result, const GoldenRun& golden) {
  std::size_t same = 0;
  while (same < std::min(result.rounds.size(), golden.round_jobs.size()) &&
         result.rounds[same].running_job_ids == golden.round_jobs[same]) {
    ++same;
  }
  return same;
}

// The named alternatives to the reference's quirks run, and depart from the reference run.
TEST(HeterogeneousGoldenOptions, CorrectedBehavioursDepartFromTheReference) {
  ADAPTSIM_REQUIRE_HETEROGENEOUS_DATA("fifo");
  const GoldenRun fifo = LoadGoldenFile(HeterogeneousGoldenPath("fifo"));
  // The intended FIFO type choice (the drawn type) spreads the first jobs over the types.
  SimulationResult random = RunOnMixedCluster("fifo", "16:8:8", {{"type_choice", "random"}});
  ASSERT_EQ(random.status, TaskStatus::kOk) << random.message;
  const std::size_t same = SameRounds(random, fifo);
  EXPECT_LT(same, fifo.round_jobs.size());
  // Round 0 places job 0 alone in both; then the reference's bug sends every job to V100.
  EXPECT_GT(same, 0u);
  // AlloX with the shifted assignment matrix departs at a near-tie.
  const GoldenRun allox = LoadGoldenFile(HeterogeneousGoldenPath("allox"));
  SimulationResult shifted = RunOnMixedCluster("allox", "16:8:8");
  ASSERT_EQ(shifted.status, TaskStatus::kOk) << shifted.message;
  EXPECT_LT(SameRounds(shifted, allox), allox.round_jobs.size());
}

// A job type without a throughput on a type of the cluster is an input error naming the type
// and the job; a policy that cannot allocate per GPU type is refused on a mixed cluster.
TEST(HeterogeneousInputs, MissingTypeIsAnInputError) {
  ADAPTSIM_REQUIRE_DATA();
  nlohmann::json table = nlohmann::json::parse(std::ifstream(TaccThroughputsPath()));
  const Trace trace = ReadTrace(CanonicalTracePath());
  const JobSpec& first = trace.jobs.front();
  const std::string key = "('" + JobTypeName(first.model, first.initial_batch_size) + "', " +
                          std::to_string(first.scale_factor) + ")";
  ASSERT_TRUE(table["p100"].contains(key)) << key;
  table["p100"].erase(key);
  const std::string path =
      (std::filesystem::temp_directory_path() / "adaptsim_missing_p100.json").string();
  std::ofstream(path) << table.dump();
  const Cluster cluster = Cluster::Parse("16:8:8");
  SimulationOptions simulation;
  simulation.num_gpus = cluster.num_gpus();
  auto run = [&](const std::string& policy, const std::string& throughputs) {
    RoundSimulation simulation_run(
        trace, models::LoadClusterThroughputs(throughputs, cluster),
        MakeRoundScheduler(MakePolicy(policy, nlohmann::json::object()), simulation), simulation);
    simulation_run.Run({});
  };
  try {
    run("gandiva_fair", path);
    ADD_FAILURE() << "no error for a job type missing on p100";
  } catch (const InputError& error) {
    EXPECT_EQ(error.field(), "job_type");
    EXPECT_NE(std::string(error.what()).find("GPU type p100"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("(job 0)"), std::string::npos) << error.what();
  }
  std::filesystem::remove(path);
  // Shockwave runs on several GPU types (docs/shockwave.md, "Shockwave on mixed GPUs"; checked by
  // ShockwaveMixedGpus.PolicyRunsOnMixedClusters), so no shipped round policy is refused here.
  // A throughputs file without the type at all names the type.
  EXPECT_THROW(models::LoadClusterThroughputs(TaccThroughputsPath(), Cluster::Parse("a100=4")),
               InputError);
}

// --- The cluster as a task-configuration field (adaptsim/simulation_options.hpp) ---

/// The flags of `adaptsim run` for the reference run of `policy` on `cluster`, as
/// TaskConfigFromArguments reads them.
nlohmann::json ClusterFlags(const std::string& policy, const std::string& cluster) {
  return {{"--trace", CanonicalTracePath()},
          {"--throughputs", TaccThroughputsPath()},
          {"--policy", policy},
          {"--cluster", cluster}};
}

// One field: its canonical text names the types in worker-id order, the reference's V:P:K form
// and the named form are the same task, and a cluster of the default type alone is num_gpus (the
// task ids of homogeneous tasks do not change; tests/data/shipped_task_ids.txt pins them).
TEST(ClusterField, OneTaskPerClusterAndHomogeneousIdsUnchanged) {
  TaskConfig plain;
  plain.trace_path = "a.trace";
  plain.throughputs_path = "t.json";
  plain.policy = "gandiva_fair";
  plain.simulation.num_gpus = 32;
  EXPECT_FALSE(plain.ToJson().contains("cluster"));

  TaskConfig one_type = plain;
  one_type.simulation.cluster = Cluster::Parse("v100=32");
  EXPECT_EQ(one_type.Id(), plain.Id());

  TaskConfig mixed = plain;
  mixed.simulation.cluster = Cluster::Parse("v100=16,p100=8,k80=8");
  TaskConfig reference_form = plain;
  reference_form.simulation.cluster = Cluster::Parse("16:8:8");
  EXPECT_EQ(mixed.ToJson()["cluster"], "k80=8,p100=8,v100=16");
  EXPECT_EQ(mixed.Id(), reference_form.Id());
  EXPECT_NE(mixed.Id(), plain.Id());
  const TaskConfig back = TaskConfig::FromJson(mixed.ToJson());
  ASSERT_TRUE(back.simulation.cluster.has_value());
  EXPECT_EQ(*back.simulation.cluster, *mixed.simulation.cluster);
  EXPECT_EQ(back.Id(), mixed.Id());

  // The stored num_gpus must be the cluster's GPU count.
  TaskConfig wrong = mixed;
  wrong.simulation.num_gpus = 16;
  try {
    wrong.simulation.Validate();
    ADD_FAILURE() << "no error for num_gpus 16 on a 32-GPU cluster";
  } catch (const InputError& error) {
    EXPECT_EQ(error.field(), "cluster");
  }
}

// `adaptsim run --cluster`, a Python keyword: given instead of the GPU count, which it sets; both,
// neither and a bad value are errors that name the flag or keyword.
TEST(ClusterField, FlagsAndKeywordsGiveTheClusterInsteadOfTheGpuCount) {
  ADAPTSIM_REQUIRE_DATA();
  const TaskConfig task = TaskConfigFromArguments(
      ClusterFlags("gandiva_fair", "v100=16,p100=8,k80=8"), ArgumentNames::kFlag, "command line");
  EXPECT_EQ(task.simulation.num_gpus, 32);
  ASSERT_TRUE(task.simulation.cluster.has_value());
  EXPECT_EQ(task.simulation.cluster->ToString(), "k80=8,p100=8,v100=16");
  nlohmann::json keywords = {{"trace", CanonicalTracePath()},
                             {"throughputs", TaccThroughputsPath()},
                             {"policy", "gandiva_fair"},
                             {"gpus", nullptr},
                             {"cluster", "16:8:8"}};
  EXPECT_EQ(TaskConfigFromArguments(keywords, ArgumentNames::kKeyword, "adaptsim.run").Id(),
            task.Id());

  auto error_of = [](nlohmann::json arguments, ArgumentNames names) {
    try {
      TaskConfigFromArguments(arguments, names, "command line");
    } catch (const InputError& error) {
      return std::make_pair(error.field(), std::string(error.what()));
    }
    ADD_FAILURE() << "no error for " << arguments.dump();
    return std::make_pair(std::string(), std::string());
  };
  nlohmann::json both = ClusterFlags("gandiva_fair", "16:8:8");
  both["--gpus"] = "32";
  EXPECT_EQ(error_of(both, ArgumentNames::kFlag).first, "--cluster");
  EXPECT_NE(error_of(both, ArgumentNames::kFlag).second.find("not both"), std::string::npos);
  nlohmann::json neither = ClusterFlags("gandiva_fair", "");
  neither.erase("--cluster");
  const auto [missing_field, missing] = error_of(neither, ArgumentNames::kFlag);
  EXPECT_EQ(missing_field, "--gpus");
  EXPECT_NE(missing.find("--cluster"), std::string::npos) << missing;
  const auto [bad_field, bad] =
      error_of(ClusterFlags("gandiva_fair", "v100=16,p100=x"), ArgumentNames::kFlag);
  EXPECT_EQ(bad_field, "--cluster");
  EXPECT_NE(bad.find("p100=x"), std::string::npos) << bad;
  keywords["cluster"] = 32;  // a number is not a cluster's text
  EXPECT_EQ(error_of(keywords, ArgumentNames::kKeyword).first, "cluster");
}

// A task that names the cluster runs the reference run: RunTask reads every type's throughputs.
TEST(ClusterField, TaskOnTheMixedClusterIsTheReferenceRun) {
  ADAPTSIM_REQUIRE_HETEROGENEOUS_DATA("gandiva_fair");
  const TaskConfig task = TaskConfigFromArguments(
      ClusterFlags("gandiva_fair", "v100=16,p100=8,k80=8"), ArgumentNames::kFlag, "command line");
  ExpectIdenticalToGolden(RunTask(task), LoadGoldenFile(HeterogeneousGoldenPath("gandiva_fair")));
  // The interval engine runs one GPU type.
  TaskConfig interval = task;
  interval.policy = "optimus";
  EXPECT_THROW(RunTask(interval), InputError);
}

#ifdef ADAPTSIM_BINARY
// End to end: `adaptsim run --cluster v100=16,p100=8,k80=8 --out OUT` writes the reference run
// of fifo_perf (every JCT, the makespan, the busy time of each worker id) with its cluster in
// the task's configuration; a bad cluster exits non-zero naming the flag and writes nothing.
TEST(ClusterField, AdaptsimRunOnTheMixedClusterIsTheReferenceRun) {
  ADAPTSIM_REQUIRE_HETEROGENEOUS_DATA("fifo_perf");
  const GoldenRun golden = LoadGoldenFile(HeterogeneousGoldenPath("fifo_perf"));
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("adaptsim_cluster_run_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string out = (dir / "out.h5").string(), log = (dir / "stderr.txt").string();
  auto run = [&](const std::string& cluster) {
    const std::string command = std::string(ADAPTSIM_BINARY) + " run --trace " +
                                CanonicalTracePath() + " --throughputs " + TaccThroughputsPath() +
                                " --policy fifo_perf --cluster " + cluster + " --out " + out +
                                " >/dev/null 2>" + log;
    return std::system(command.c_str());
  };
  ASSERT_EQ(run("v100=16,p100=8,k80=8"), 0);
  const std::vector<SummaryRow> rows = ReadSummary(out);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].num_gpus, 32);
  EXPECT_EQ(rows[0].cluster, "k80=8,p100=8,v100=16");
  const StoredTask stored = ReadTask(out, rows[0].task_id);
  ASSERT_EQ(stored.result.gpu_types.size(), 3u);
  EXPECT_EQ(stored.result.gpu_types[0].gpu_type, "k80");
  EXPECT_EQ(stored.result.gpu_types[2].gpus, 16);
  EXPECT_EQ(nlohmann::json::parse(stored.config_json)["cluster"], "k80=8,p100=8,v100=16");
  ASSERT_EQ(stored.status, TaskStatus::kOk) << stored.message;
  ExpectJctsMatch(stored.result, golden, 1e-9);
  EXPECT_NEAR(stored.result.summary.makespan_s, golden.makespan_s, 1e-9 * golden.makespan_s);
  EXPECT_EQ(stored.result.summary.num_rounds, static_cast<std::int64_t>(golden.round_jobs.size()));
  ASSERT_EQ(stored.result.gpu_busy_time_s.size(), golden.utilization.size());
  for (std::size_t w = 0; w < golden.utilization.size(); ++w) {
    EXPECT_DOUBLE_EQ(
        PythonRound(stored.result.gpu_busy_time_s[w] / stored.result.summary.makespan_s, 5),
        golden.utilization[w])
        << "worker " << w;
  }

  std::filesystem::remove(out);
  EXPECT_NE(run("v100=16,p100=x"), 0);
  std::ifstream in(log);
  const std::string message((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(message.find("--cluster"), std::string::npos) << message;
  EXPECT_FALSE(std::filesystem::exists(out));
  std::filesystem::remove_all(dir);
}
#endif

}  // namespace
}  // namespace adaptsim::testing
