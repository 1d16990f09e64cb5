// Golden vectors of the artifact's goodput model, speedup function and trace look-ups
// (docs/pollux.md §6; shared/data/pollux/derived/golden_goodput_vectors.json).
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "adaptsim/error.hpp"
#include "adaptsim/pollux_application.hpp"
#include "adaptsim/pollux_goodput.hpp"
#include "test_support.hpp"

namespace adaptsim {
namespace {

using testing::DataPath;

const nlohmann::json& Golden() {
  static const nlohmann::json golden = [] {
    std::ifstream in(DataPath("pollux/derived/golden_goodput_vectors.json"));
    return nlohmann::json::parse(in);
  }();
  return golden;
}

models::PolluxPerfParams ParamsOf(const nlohmann::json& p) {
  models::PolluxPerfParams params;
  params.alpha_c = p["alpha_c"];
  params.beta_c = p["beta_c"];
  params.alpha_n = p["alpha_n"];
  params.beta_n = p["beta_n"];
  params.alpha_r = p["alpha_r"];
  params.beta_r = p["beta_r"];
  params.gamma = p["gamma"];
  return params;
}

TEST(PolluxGoodput, GeomSpaceMatchesNumpyEndpoints) {
  std::vector<double> grid = models::GeomSpace(128, 4096, 50);
  ASSERT_EQ(grid.size(), 50u);
  EXPECT_EQ(grid.front(), 128);
  EXPECT_EQ(grid.back(), 4096);
  EXPECT_NEAR(grid[1] / grid[0], std::pow(32.0, 1.0 / 49), 1e-12);
  for (double v : models::GeomSpace(12, 12, 50)) EXPECT_NEAR(v, 12, 1e-12);
}

TEST(PolluxGoodput, EfficiencyIsPgnsRatio) {
  // (φ + M0) / (φ + M) with φ = M0 var / sqr (goodput.py:81-89).
  const models::GoodputFunction f({}, {2.0, 3.0}, 100);
  const double phi = 100 * 3.0 / 2.0;
  EXPECT_NEAR(f.Efficiency(400), (phi + 100) / (phi + 400), 1e-12);
  EXPECT_DOUBLE_EQ(models::GoodputFunction({}, {0.0, 0.0}, 10).Gain(40), 1.0);
}

TEST(PolluxGoodput, OptimizeThroughputEfficiencySpeedupMatchGolden) {
  ADAPTSIM_REQUIRE_DATA();
  int checked = 0;
  for (const nlohmann::json& c : Golden()["goodput_cases"]) {
    const models::PolluxPerfParams perf =
        ParamsOf(Golden()["fit_cases"][c["fit_case"].get<std::string>()]["adaptdl_params"]);
    const models::GoodputFunction f(perf, {c["grad_sqr"], c["grad_var"]}, c["init_batch_size"]);
    const models::BatchBounds bounds{c["max_batch_size"], c["local_bsz_bounds"][0],
                                     c["local_bsz_bounds"][1]};
    models::SpeedupFunction speedup(f, bounds, true);
    for (const nlohmann::json& r : c["results"]) {
      const int n = r["num_nodes"], k = r["num_replicas"];
      SCOPED_TRACE(c["fit_case"].get<std::string>() + " epoch " + c["epoch"].dump() +
                   " N=" + std::to_string(n) + " K=" + std::to_string(k));
      const models::GoodputChoice accum = f.Optimize(n, k, bounds, true);
      EXPECT_EQ(accum.atomic_bsz, r["accum"]["atomic_bsz"].get<int>());
      EXPECT_EQ(accum.accum_steps, r["accum"]["accum_steps"].get<int>());
      EXPECT_NEAR(accum.goodput, r["accum"]["goodput"].get<double>(),
                  1e-9 * r["accum"]["goodput"].get<double>());
      const int batch = k * accum.atomic_bsz * (accum.accum_steps + 1);
      EXPECT_NEAR(f.Throughput(n, k, accum.atomic_bsz, accum.accum_steps),
                  r["accum"]["throughput"].get<double>(),
                  1e-9 * r["accum"]["throughput"].get<double>());
      EXPECT_NEAR(f.Efficiency(batch), r["accum"]["efficiency"].get<double>(), 1e-12);
      const models::GoodputChoice plain = f.Optimize(n, k, bounds, false);
      EXPECT_EQ(plain.atomic_bsz, r["no_accum"]["atomic_bsz"].get<int>());
      EXPECT_EQ(plain.accum_steps, r["no_accum"]["accum_steps"].get<int>());
      EXPECT_NEAR(plain.goodput, r["no_accum"]["goodput"].get<double>(),
                  1e-9 * r["no_accum"]["goodput"].get<double>());
      EXPECT_NEAR(speedup(n, k), r["speedup_vs_1x1"].get<double>(), 1e-9);
      ++checked;
    }
  }
  EXPECT_GT(checked, 100);
}

TEST(PolluxGoodput, TraceLookupsMatchGolden) {
  ADAPTSIM_REQUIRE_DATA();
  PolluxApplications apps(DataPath("pollux/traces"));
  int throughput = 0, errors = 0, grad = 0, progress = 0;
  for (const nlohmann::json& t : Golden()["trace_lookups"]) {
    const PolluxApplication& app = apps.Get(t["app"]);
    SCOPED_TRACE(t.dump());
    if (t.contains("placement")) {
      std::vector<int> placement = t["placement"];
      if (t.contains("error")) {
        EXPECT_THROW(app.Throughput(placement, t["local_bsz"]), InputError);
        ++errors;
        continue;
      }
      const StepTimes times = app.Throughput(placement, t["local_bsz"]);
      EXPECT_NEAR(times.step_time_s, t["step_time"].get<double>(), 1e-9);
      EXPECT_NEAR(times.sync_time_s, t["sync_time"].get<double>(), 1e-9);
      ++throughput;
    } else if (t.contains("grad_sqr")) {
      const GradientStats stats = app.GradStats(t["batch_size"], t["epoch"]);
      EXPECT_NEAR(stats.sqr, t["grad_sqr"].get<double>(), 1e-12 * std::abs(stats.sqr) + 1e-15);
      EXPECT_NEAR(stats.var, t["grad_var"].get<double>(), 1e-12 * std::abs(stats.var) + 1e-15);
      ++grad;
    } else {
      EXPECT_EQ(app.max_epochs(), t["max_epochs"].get<int>());
      EXPECT_DOUBLE_EQ(app.TargetProgress(), t["target_progress"].get<double>());
      EXPECT_DOUBLE_EQ(app.Progress(1), t["progress_epoch1"].get<double>());
      ++progress;
    }
  }
  EXPECT_EQ(throughput, 156);
  EXPECT_EQ(errors, 24);
  EXPECT_EQ(grad, 132);
  EXPECT_EQ(progress, 6);
}

}  // namespace
}  // namespace adaptsim
