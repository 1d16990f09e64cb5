// How much of a task's result a results file stores (docs/results-format.md, docs/sweeps.md §2).
#pragma once

#include <optional>
#include <string_view>

namespace adaptsim {

/// Stored detail of a task, in increasing order (a level includes everything below it):
///   kSummary  the /summary row and the task group's attributes (configuration, summary metrics,
///             lease counters, policy statistics): about 10 KB per task;
///   kPerJob   + the `jobs` table (one row per job: JCT, finish-time fairness ρ, ...), which the
///             figures' per-job distributions (ρ CDF, JCT CDF) read;
///   kFull     + the `rounds` table, the `throughput_timeline` and `gpu_busy_time_s`.
/// The /summary row is identical at every level.
enum class ResultDetail { kSummary = 0, kPerJob = 1, kFull = 2 };

/// "summary", "per_job" or "full".
std::string_view ToString(ResultDetail detail);
/// The level named `text` ("summary", "per_job", "full"), or nothing.
std::optional<ResultDetail> ParseResultDetail(std::string_view text);

}  // namespace adaptsim
