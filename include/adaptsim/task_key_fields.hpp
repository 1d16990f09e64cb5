// The configuration fields a results file's /summary shows beside the metrics (TaskKeys,
// adaptsim/store.hpp), declared once (adaptsim/config_field.hpp; docs/architecture.md, "Task
// configuration"). The field lists that own them visit these declarations (SimulationOptions:
// num_gpus, cluster, round_duration_s, deadline_factor; TaskConfig: policy, policy_options,
// seed), and the lists that show them elsewhere take the key and unit from here: the /summary
// columns (VisitSummaryColumns), the analysis's tasks (VisitAnalysedTaskFields) and the policy's
// view (VisitViewFields). Core, so that the store and the analysis can read it.
#pragma once

#include "adaptsim/config_field.hpp"

namespace adaptsim {

inline constexpr ConfigField kPolicyField{
    .key = "policy",
    .unit = "",
    .doc =
        "policy name ('adaptsim run --policy help' lists them), or py:MODULE:CLASS for a "
        "Python class",
    .axis = "policies",
    .text = TextKind::kPolicy,
    .required = true};

inline constexpr ConfigField kNumGpusField{
    .key = "num_gpus",
    .unit = "gpus",
    .doc = "G, GPUs in the cluster (of one type, v100, unless cluster names the types)",
    .range = WholeWithin(1, 1 << 20),
    .flag = "--gpus",
    .kwarg = "gpus",
    .required = true};

inline constexpr ConfigField kClusterField{
    .key = "cluster",
    .unit = "",
    .doc =
        "GPU types and counts instead of num_gpus, e.g. v100=16,p100=8,k80=8 or the "
        "reference's V100:P100:K80 counts 16:8:8 (docs/mechanism.md §12); on the interval "
        "engine nodes per GPU type, e.g. aws=6,rtx=3,dgx-ext=2 (docs/sia.md §5); unset = "
        "num_gpus GPUs of one type (v100)",
    .encoding = Encoding::kWhenSet,
    .instead_of = "num_gpus"};

inline constexpr ConfigField kRoundDurationField{
    .key = "round_duration_s",
    .unit = "s",
    .doc = "T_r, the round length (the reference's --time_per_iteration)",
    .range = Above(0)};

inline constexpr ConfigField kDeadlineFactorField{
    .key = "deadline_factor",
    .unit = "1",
    .doc =
        "force-complete a job whose run time exceeds int(f * int(T_excl)) (docs/mechanism.md "
        "§8.3; 1.5 shipped, 1.0 for comparison runs)",
    .range = AtLeast(1)};

/// Its key is also the prefix of "<policy>.<option>" sweep keys and `--policy-option`'s field.
inline constexpr ConfigField kPolicyOptionsField{
    .key = "policy_options",
    .unit = "",
    .doc = "the policy's own options, a JSON object (docs/policies.md)",
    .flag = "--policy-option",
    .kwarg = kNotExposed};

inline constexpr ConfigField kSeedField{.key = "seed",
                                        .unit = "id",
                                        .doc = "keys the task's counter-based random streams",
                                        .axis = "seeds"};

}  // namespace adaptsim
