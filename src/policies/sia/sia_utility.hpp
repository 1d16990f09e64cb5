// Sia's utility matrix A, the ILP's objective coefficients (docs/sia.md §3.4; Sia SOSP'23 Eq. 1;
// `S:sia-simulator/sia.py:721-748, 890-933`).
//
//  * Re-allocation factor r_i (`sia.py:721-748`): with δ_i the job's restart penalty,
//      age:         r_i = max(age − restarts·δ_i, 0) / (age + δ_i)            (the default)
//      gpu_seconds: r_i = max(1 + used, 0) / (1 + used + wasted + δ_i)
//    and r_i = 1 while age < δ_i.
//  * Every entry of row i except the job's previous configuration is multiplied by r_i (float32).
//  * A = round(S'^p, 2) in float32 (numpy's power, then round half to even on 100·x), and entries
//    above goodput_clip are set to goodput_clip.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sia_goodput_matrix.hpp"
#include "sia_options.hpp"

namespace adaptsim {

/// δ of Sia's own table by model (`sia.py:23-35`: deepspeech 25, imagenet 250, cifar 30, bert
/// 120, yolov3 45, anything else 30 s), matched by substring of the application's name.
double SiaPolicyRestartPenalty(const std::string& application);

/// δ_i under `options.restart_penalty`: the table above, or the job's engine delay.
double SiaRestartPenaltyOf(const SiaJob& job, const SiaOptions& options);

/// r_i of the job (see above).
double SiaReallocationFactor(const SiaJob& job, const SiaOptions& options);

/// A from S: previous[i] is job i's configuration last round (a column), or nullopt.
/// Throws InputError(file "sia", field "previous") when sizes disagree or a column is out of
/// range.
SiaMatrix SiaUtilityMatrix(const SiaMatrix& goodput, const std::vector<SiaJob>& jobs,
                           const std::vector<std::optional<int>>& previous,
                           const SiaOptions& options);

}  // namespace adaptsim
