// The Gavel family's policies (gavel_family.hpp).
#include "gavel_family.hpp"

#include "allox.hpp"
#include "fifo.hpp"
#include "finish_time_fairness.hpp"
#include "gandiva_fair.hpp"
#include "isolated.hpp"
#include "isolated_plus.hpp"
#include "max_min_fairness.hpp"
#include "max_sum_throughput.hpp"
#include "min_total_duration.hpp"

namespace adaptsim {

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
      Declared<MaxMinFairnessOptions>("max_min_fairness",
                                      "Gavel/LAS max-min fairness (closed form; option face_rule)",
                                      kRound, Construct<AllocationPolicy, MaxMinFairnessPolicy>()),
      Declared<MinTotalDurationOptions>(
          "min_total_duration", "OSSP: smallest horizon T (reference bisection); option face_rule",
          kRound, Construct<AllocationPolicy, MinTotalDurationPolicy>()),
      Declared<FinishTimeFairnessOptions>(
          "finish_time_fairness", "Themis: minimise the worst finish-time ratio; option face_rule",
          kRound, Construct<AllocationPolicy, FinishTimeFairnessPolicy>()),
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
  };
}

}  // namespace adaptsim
