// The Gavel family's policies (gavel_family.hpp).
#include "gavel_family.hpp"

#include "allox.hpp"
#include "fifo.hpp"
#include "finish_time_fairness.hpp"
#include "gandiva_fair.hpp"
#include "gavel_tuned_jobs.hpp"
#include "isolated.hpp"
#include "isolated_plus.hpp"
#include "max_min_fairness.hpp"
#include "max_sum_throughput.hpp"
#include "min_total_duration.hpp"
#include "themis_tuned_jobs.hpp"

namespace adaptsim {
namespace {

/// `build` of a policy P that has a heterogeneity-agnostic and a heterogeneity-aware ("_perf")
/// form, P(options, aware) (docs/policies.md §3.7).
template <typename P>
auto WithPerf(bool aware) {
  return [aware](const auto& options) {
    return PolicyInstance(std::unique_ptr<AllocationPolicy>(std::make_unique<P>(options, aware)));
  };
}

}  // namespace

std::vector<PolicyEntry> GavelFamilyPolicies() {
  using enum EngineKind;
  return {
      Declared<FifoOptions>("fifo",
                            "first in, first out; non-preemptive, the reference's admission "
                            "(options respect_capacity, type_choice)",
                            kRound,
                            [](const FifoOptions& options, std::uint64_t seed) {
                              return PolicyInstance(std::unique_ptr<AllocationPolicy>(
                                  std::make_unique<FifoPolicy>(options, FifoMode::kBase, seed)));
                            }),
      Declared<FifoAdmissionOptions>(
          "fifo_perf",
          "FIFO that admits each job on the GPU type where it runs fastest, re-decided at every "
          "solve (option respect_capacity)",
          kRound,
          [](const FifoAdmissionOptions& admission) {
            FifoOptions options;
            static_cast<FifoAdmissionOptions&>(options) = admission;
            return PolicyInstance(std::unique_ptr<AllocationPolicy>(
                std::make_unique<FifoPolicy>(options, FifoMode::kPerf)));
          }),
      Declared<NoOptions>("gandiva_fair", "Gandiva-Fair: equal time share min(1, G/m) per job",
                          kRound, Construct<AllocationPolicy, GandivaFairPolicy>()),
      Declared<MaxMinFairnessOptions>(
          "max_min_fairness",
          "Gavel/LAS max-min fairness of GPU time, heterogeneity-agnostic (closed form; option "
          "face_rule)",
          kRound, WithPerf<MaxMinFairnessPolicy>(false)),
      Declared<MaxMinFairnessOptions>(
          "max_min_fairness_perf",
          "Gavel's heterogeneity-aware max-min fairness of throughput normalised by the "
          "equal-share throughput (LP, lexicographic on several GPU types)",
          kRound, WithPerf<MaxMinFairnessPolicy>(true)),
      Declared<MinTotalDurationOptions>(
          "min_total_duration",
          "OSSP: smallest horizon T (reference bisection), heterogeneity-agnostic; option "
          "face_rule",
          kRound, WithPerf<MinTotalDurationPolicy>(false)),
      Declared<MinTotalDurationOptions>(
          "min_total_duration_perf",
          "OSSP with per-type throughputs: smallest horizon T (one LP, then the reference "
          "bisection replayed)",
          kRound, WithPerf<MinTotalDurationPolicy>(true)),
      Declared<FinishTimeFairnessOptions>(
          "finish_time_fairness",
          "Themis: minimise the worst finish-time ratio, heterogeneity-agnostic; option "
          "face_rule",
          kRound, WithPerf<FinishTimeFairnessPolicy>(false)),
      Declared<FinishTimeFairnessOptions>(
          "finish_time_fairness_perf",
          "Themis with per-type throughputs: minimise the worst finish-time ratio (LP iteration "
          "on several GPU types)",
          kRound, WithPerf<FinishTimeFairnessPolicy>(true)),
      Declared<MaxSumThroughputOptions>(
          "max_sum_throughput_perf", "MST: maximise the sum of raw throughputs (symmetric ties)",
          kRound, Construct<AllocationPolicy, MaxSumThroughputPolicy>()),
      Declared<MaxSumThroughputOptions>("max_sum_throughput", "alias of max_sum_throughput_perf",
                                        kRound,
                                        Construct<AllocationPolicy, MaxSumThroughputPolicy>()),
      Declared<AlloXOptions>(
          "allox",
          "AlloX: min-cost assignment of the oldest jobs (options alpha, shift_costs_by_minimum)",
          kRound, Construct<AllocationPolicy, AlloXPolicy>()),
      Declared<NoOptions>("isolated", "equal GPU share: x = min(1, G/(m s))", kRound,
                          Construct<AllocationPolicy, IsolatedPolicy>()),
      Declared<NoOptions>("isolated_plus", "x = min(1, G/m) with strict-priority selection", kRound,
                          Construct<AllocationPolicy, IsolatedPlusPolicy>()),
      Declared<GavelTunedJobsOptions>(
          "gavel_tj",
          "Gavel+TunedJobs as Sia runs it: max-sum-throughput LP over GPU types, time-shared in "
          "360 s rounds, CSV num_replicas and batch_size; interval engine (option round_s)",
          kInterval,
          [](const GavelTunedJobsOptions& options) {
            return PolicyInstance(
                std::unique_ptr<IntervalPolicy>(std::make_unique<GavelTunedJobsPolicy>(options)));
          }),
      Declared<ThemisTunedJobsOptions>(
          "themis_tj",
          "Themis+TunedJobs as Sia runs it: finish-time-fairness program over GPU types, "
          "time-shared in 360 s rounds, CSV num_replicas and batch_size; interval engine "
          "(options round_s, face_point)",
          kInterval,
          [](const ThemisTunedJobsOptions& options) {
            return PolicyInstance(
                std::unique_ptr<IntervalPolicy>(std::make_unique<ThemisTunedJobsPolicy>(options)));
          }),
  };
}

}  // namespace adaptsim
