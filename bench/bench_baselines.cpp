// Benchmark and fidelity table of the Shockwave-paper baselines.
//
// Usage: bench_baselines [DATA_DIR] [--fidelity] [--repeats N] [POLICY ...]
//   DATA_DIR defaults to $ADAPTSIM_DATA or ../shared/data.
//   default: whole-simulation wall time (median of N = 5 runs) on 120 jobs / 32 GPUs (tacc
//            throughputs) and 900 jobs / 256 GPUs (wisr throughputs), and the share of that time
//            spent inside the policy's ComputeAllocation ("solve" = building the policy inputs,
//            the closed form / root finding / analytic centre / LSAP / CLP calls).
//   --fidelity: side-by-side adaptsim vs reference table of docs/mechanism.md §11.1 metrics
//            (reference values read from golden/shockwave_tacc32/*.json).
// The solve time is measured by a decorator around the AllocationPolicy (TimedPolicy below), so
// neither the policies nor the engine carry benchmark code.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "adaptsim/gavel.hpp"
#include "adaptsim/metrics.hpp"
#include "adaptsim/registry.hpp"
#include "adaptsim/simulator.hpp"
#include "adaptsim/throughput.hpp"
#include "adaptsim/trace.hpp"
#include "bench_main.hpp"
#include "policies/gavel/gavel_mechanism.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

// Forwards to the wrapped policy and accumulates the wall time of its calls.
class TimedPolicy final : public adaptsim::AllocationPolicy {
 public:
  TimedPolicy(std::unique_ptr<adaptsim::AllocationPolicy> inner, double* seconds, int* calls)
      : inner_(std::move(inner)), seconds_(seconds), calls_(calls) {}
  adaptsim::AllocationPolicyTraits Traits() const override { return inner_->Traits(); }
  adaptsim::Allocation ComputeAllocation(const adaptsim::ClusterState& state) override {
    const auto start = Clock::now();
    adaptsim::Allocation allocation = inner_->ComputeAllocation(state);
    *seconds_ += Seconds(start);
    ++*calls_;
    return allocation;
  }

 private:
  std::unique_ptr<adaptsim::AllocationPolicy> inner_;
  double* seconds_;
  int* calls_;
};

struct Config {
  const char* label;
  const char* trace;
  const char* throughputs;
  int gpus;
};

const Config kCanonical = {
    "120 jobs / 32 GPUs",
    "shockwave/traces/120_0.2_5_100_40_25_0,0.5,0.5_0.6,0.3,0.09,0.01_multigpu_dynamic.trace",
    "shockwave/throughputs/tacc_throughputs.json", 32};
const Config kLarge = {
    "900 jobs / 256 GPUs",
    "shockwave/traces/900_0.2_5_1000_5_15_0,0.5,0.5_0.6,0.3,0.09,0.01_multigpu_dynamic.trace",
    "shockwave/throughputs/wisr_throughputs.json", 256};

struct Run {
  adaptsim::SimulationResult result;
  double wall_s = 0.0;
  double solve_s = 0.0;
  int calls = 0;
};

// The whole task as RunTask does it (read inputs, simulate), with the policy timed.
Run RunOnce(const std::string& data, const Config& config, const std::string& policy) {
  Run run;
  const auto start = Clock::now();
  adaptsim::SimulationOptions options;
  options.num_gpus = config.gpus;
  adaptsim::Trace trace = adaptsim::ReadTrace(data + "/" + config.trace);
  adaptsim::ThroughputTable table =
      adaptsim::ThroughputTable::ReadJson(data + "/" + config.throughputs);
  adaptsim::PolicyInstance instance = adaptsim::MakePolicy(policy, nlohmann::json::object());
  if (auto* allocation = std::get_if<std::unique_ptr<adaptsim::AllocationPolicy>>(&instance)) {
    *allocation = std::make_unique<TimedPolicy>(std::move(*allocation), &run.solve_s, &run.calls);
  }
  auto scheduler = adaptsim::MakeRoundScheduler(std::move(instance), options);
  run.result = adaptsim::Simulate(trace, table, *scheduler, options);
  adaptsim::ComputeMetrics(run.result, options.num_gpus);
  run.wall_s = Seconds(start);
  return run;
}

void Timing(const std::string& data, const std::vector<std::string>& policies, int repeats) {
  std::printf(
      "| policy | configuration | median wall s | solve s | solve share | calls | rounds |"
      " makespan s |\n|---|---|---|---|---|---|---|---|\n");
  for (const std::string& policy : policies) {
    for (const Config* config : {&kCanonical, &kLarge}) {
      std::vector<Run> runs;
      for (int r = 0; r < repeats; ++r) runs.push_back(RunOnce(data, *config, policy));
      std::sort(runs.begin(), runs.end(),
                [](const Run& a, const Run& b) { return a.wall_s < b.wall_s; });
      const Run& median = runs[runs.size() / 2];
      std::printf("| %s | %s | %.3f | %.3f | %.0f %% | %d | %d | %.1f |\n", policy.c_str(),
                  config->label, median.wall_s, median.solve_s,
                  100.0 * median.solve_s / median.wall_s, median.calls,
                  median.result.summary.num_rounds, median.result.summary.makespan_s);
    }
  }
}

struct Metrics {
  double makespan, avg_jct, worst_rho, unfair_105, unfair_110, util, geo_jct, lease;
  int rounds;
  std::vector<std::vector<int>> round_jobs;  ///< sorted job ids per round
};

Metrics FromGolden(const std::string& path) {
  std::ifstream in(path);
  const nlohmann::json j = nlohmann::json::parse(in);
  const std::vector<double> rho = j["finish_time_fairness_list"].get<std::vector<double>>();
  auto share = [&](double threshold) {
    return 100.0 * std::count_if(rho.begin(), rho.end(), [&](double r) { return r > threshold; }) /
           rho.size();
  };
  Metrics m{};
  m.makespan = j["makespan"].get<double>();
  m.avg_jct = j["avg_jct"].get<double>();
  m.worst_rho = *std::max_element(rho.begin(), rho.end());
  m.unfair_105 = share(1.05);
  m.unfair_110 = share(1.1);
  m.util = j["cluster_util"].get<double>();
  const std::vector<double> jct = j["jct_list"].get<std::vector<double>>();
  double log_sum = 0.0;
  for (double t : jct) log_sum += std::log(t);
  m.geo_jct = std::exp(log_sum / static_cast<double>(jct.size()));  // scipy gmean
  m.lease = j["extension_percentage"].get<double>();
  m.rounds = static_cast<int>(j["per_round_schedule"].size());
  for (const auto& round : j["per_round_schedule"]) {
    std::vector<int> ids;
    for (const auto& [key, workers] : round.items()) ids.push_back(std::stoi(key));
    std::sort(ids.begin(), ids.end());
    m.round_jobs.push_back(ids);
  }
  return m;
}

Metrics FromResult(const adaptsim::SimulationResult& result) {
  const adaptsim::SummaryMetrics& s = result.summary;
  Metrics m{s.makespan_s,
            s.mean_jct_s,
            s.worst_ftf_rho,
            100 * s.unfair_fraction_1_05,
            100 * s.unfair_fraction_1_10,
            s.utilization,
            s.geometric_mean_jct_s,
            s.lease_extension_percent,
            s.num_rounds,
            {}};
  for (const adaptsim::RoundResult& round : result.rounds) {
    std::vector<int> ids(round.running_job_ids.begin(), round.running_job_ids.end());
    std::sort(ids.begin(), ids.end());
    m.round_jobs.push_back(ids);
  }
  return m;
}

// First round whose set of running jobs differs from the reference's (-1: none).
int FirstDivergentRound(const Metrics& a, const Metrics& b) {
  const std::size_t n = std::max(a.round_jobs.size(), b.round_jobs.size());
  for (std::size_t r = 0; r < n; ++r) {
    if (r >= a.round_jobs.size() || r >= b.round_jobs.size() ||
        a.round_jobs[r] != b.round_jobs[r]) {
      return static_cast<int>(r);
    }
  }
  return -1;
}

void PrintRow(const char* policy, const char* source, const Metrics& m) {
  std::printf("| %s | %s | %.1f | %.1f | %.3f | %.2f | %.2f | %.4f | %.1f | %.2f | %d |\n", policy,
              source, m.makespan, m.avg_jct, m.worst_rho, m.unfair_105, m.unfair_110, m.util,
              m.geo_jct, m.lease, m.rounds);
}

void Fidelity(const std::string& data, const std::vector<std::string>& policies) {
  std::printf(
      "| policy | source | makespan s | avg JCT s | worst FTF ρ | unfair %% ρ>1.05 |"
      " unfair %% ρ>1.1 | util | geo-mean JCT s | lease-ext %% | rounds |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const std::string& policy : policies) {
    const std::string golden =
        data + "/golden/shockwave_tacc32/tacc_32gpus__" + policy + "__simulation.json";
    const Run run = RunOnce(data, kCanonical, policy);
    const Metrics ours = FromResult(run.result);
    if (!std::ifstream(golden).good()) {
      PrintRow(policy.c_str(), "adaptsim", ours);
      continue;
    }
    const Metrics reference = FromGolden(golden);
    PrintRow(policy.c_str(), "reference", reference);
    const std::string label =
        "adaptsim (first differing round: " + std::to_string(FirstDivergentRound(ours, reference)) +
        ")";
    PrintRow(policy.c_str(), label.c_str(), ours);
  }
}

}  // namespace

static int RunBenchmark(int argc, char** argv) {
  const char* env = std::getenv("ADAPTSIM_DATA");
  std::string data = env != nullptr ? env : "../shared/data";
  bool fidelity = false;
  int repeats = 5;
  std::vector<std::string> policies;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--fidelity") {
      fidelity = true;
    } else if (arg == "--repeats" && i + 1 < argc) {
      repeats = std::max(1, std::atoi(argv[++i]));
    } else if (i == 1 && arg.find('/') != std::string::npos) {
      data = arg;
    } else {
      policies.push_back(arg);
    }
  }
  if (policies.empty()) {
    policies = {
        "min_total_duration",      "finish_time_fairness", "max_min_fairness", "allox",
        "max_sum_throughput_perf", "gandiva_fair",         "isolated",         "isolated_plus"};
  }
  if (fidelity) {
    Fidelity(data, policies);
  } else {
    Timing(data, policies, repeats);
  }
  return 0;
}

int main(int argc, char** argv) {
  return adaptsim::bench::RunGuarded("bench_baselines", [&] { return RunBenchmark(argc, argv); });
}
