// Shockwave (Zheng et al., NSDI'23): market-based planning over a window of future rounds
// (docs/policies.md §8; reference `scheduler/shockwave.py`, `scheduler/JobMetaData.py` and the
// hooks in `scheduler/scheduler.py` of uw-mad-dash/shockwave@8a44f4a).
//
// At a re-solve (job arrival, job completion, every 8 rounds, initially) it
//   1. appends fair-share finish-time estimates F̂_j when the job set changed (§8.3,
//      `finish_time_uniform_share`, `shockwave.py:88-120`);
//   2. solves the window problem (§8.4, src/policies/shockwave/window_structured.hpp) over T =
//   future_rounds
//      rounds with the finish-time constraints t0 + s_j/σ <= ρ_max F̄_j;
//   3. if that is infeasible, re-solves without them with utility weights π_j = ρ̂_j^λ
//      (ρ̂_j^100 when R_j < Δ) and front-loads jobs by the ranking problem (`:630-706, 714-793`);
//   4. turns the window plan into per-round job sets with the work-conserving fill (jobs not
//      planned, by forecast remaining time descending, while GPUs are idle; `:213-285`).
// Between re-solves the cached per-round sets are returned (`round_schedule`, `:122-166`).
//
// Event order. The reference updates Shockwave after completions and adaptation flags and BEFORE
// arrivals (`_update_shockwave_scheduler`, `scheduler.py:2270-2374`, docs/mechanism.md §5.2 step
// 5): progress c_j = floor(steps_run / ceil(D / bs)) of the jobs it returned last round, round
// pointer + 1, and the 8-round re-solve counter. The engine calls OnJobArrived before PlanRound,
// so arrivals are only queued there; PlanRound first performs that update on the jobs it already
// knew (none of which changed state through the arrivals), then registers the queued arrivals
// (`add_metadata`), then plans. The result equals the reference's order exactly: the update
// touches only previously known jobs and counters, registration only sets flags.
//
// Throughput timeline. The engine's timeline is not part of ClusterState; the policy rebuilds each
// entry (round r+1 ↦ (steps/exec, bs)) from what the engine reports in OnMicroTaskDone (steps
// run, after the restart penalty's scaling, and execution time) and the batch size at dispatch.
//
// Solvers: `structured` (default; window_structured.hpp) or `general` (the MILP on CBC,
// shockwave_window_milp.hpp). Deterministic: node/gap limits only. Not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "adaptsim/policy.hpp"
#include "shockwave_config.hpp"
#include "shockwave_forecaster.hpp"
#include "window_heterogeneous.hpp"
#include "window_structured.hpp"

namespace adaptsim {

class ShockwavePolicy final : public RoundScheduler {
 public:
  explicit ShockwavePolicy(ShockwaveConfig config);

  void OnJobArrived(const ActiveJobView& job) override;
  void OnJobRemoved(JobId id) override;
  void OnMicroTaskDone(const MicroTaskOutcome& outcome) override;
  RoundPlan PlanRound(const ClusterState& state) override;
  /// resolves, fallbacks (infeasible finish-time constraints), solver failures, mean solver
  /// nodes. Deterministic (no wall times).
  std::map<std::string, double> Statistics() const override;
  /// Names the solver limits and failures of the run (general solver), e.g. "shockwave: of 55
  /// solver calls, 4 stopped at solver_max_nodes outside solver_rel_gap (incumbent used), 0 ended
  /// without a solution (fallback used)"; empty when every solve ended normally.
  std::string Diagnostics() const override;
  /// Plans each job's GPU type on a cluster of several types (docs/shockwave.md, "Shockwave on
  /// mixed GPUs"); on one type nothing changes.
  bool SupportsSeveralGpuTypes() const override { return true; }

  /// Wall time of every re-solve in seconds (benchmarks only; not part of the results).
  const std::vector<double>& ResolveTimes() const { return resolve_times_s_; }
  const ShockwaveConfig& config() const { return config_; }

 private:
  struct Job {
    std::unique_ptr<ShockwaveJobForecaster> forecast;
    int gpus = 1;
    std::int64_t dataset_size = 1;
    std::vector<std::pair<int, double>> share_series;  ///< (round, F̂)
  };
  struct Pending {
    JobId id;
    JobProfile profile;
    int gpus;
    std::int64_t dataset_size;
    double submit_time_s;
  };
  struct Dispatched {
    int round = 0;
    int batch_size = 0;
    /// r_jk of the planned type (several types): the timeline entry is divided by it, so that
    /// calibration sees reference-type throughput; 1 on one type.
    double speed = 1.0;
  };
  /// A planned job of a window round: id and GPU type (-1 on one type).
  using Slot = std::pair<JobId, int>;

  void UpdateAfterRound(const ClusterState& state);
  void RegisterArrivals(double round_s);
  void Resolve(const ClusterState& state);
  void EstimateShares(double share);
  WindowProblem BuildProblem(const ClusterState& state, double share);
  /// Several GPU types: the typed window problem, its fallback and schedules.
  void ResolveTyped(const ClusterState& state, WindowProblem problem, double share);
  TypedWindowSolution SolveTyped(const WindowProblem& problem);
  void BuildTypedSchedules(const TypedWindowSchedule& y, const WindowProblem& problem);
  WindowSolution Solve(const WindowProblem& problem);
  /// Counts one window or ranking solve in the solver statistics (calls, limits, failures).
  void RecordSolverOutcome(WindowStatus status);
  /// π_j of the fallback (ρ̂_j^λ, ρ̂_j^100 when R_j < Δ, else 1), metadata order.
  std::vector<double> FallbackPriorities(double share, double round_s);
  WindowSchedule Fallback(WindowProblem problem, double share, double round_s);
  void BuildSchedules(const WindowSchedule& x, int num_gpus);
  void RecordDispatch(const ClusterState& state, const std::vector<PlannedJob>& planned);
  /// Several types: moves a planned job whose throughput on its planned type is now 0 (a
  /// batch-size change since the plan) to its fastest type with room, or drops it this round.
  void KeepRunnableTypes(const ClusterState& state, RoundPlan& plan) const;

  ShockwaveConfig config_;
  std::vector<JobId> order_;  ///< metadata insertion order (`OrderedDict`)
  std::map<JobId, Job> jobs_;
  std::vector<Pending> arrivals_;
  std::map<int, std::vector<Slot>> schedules_;
  std::map<JobId, Dispatched> dispatched_;
  std::vector<JobId> last_returned_;
  bool planned_before_ = false;
  bool resolve_ = true;
  bool reestimate_share_ = true;
  int round_ptr_ = 0;
  int rounds_since_reopt_ = 0;
  // Statistics.
  std::int64_t resolves_ = 0;
  std::int64_t fallbacks_ = 0;
  std::int64_t solver_failures_ = 0;  ///< no solution: error, or a limit without incumbent
  std::int64_t solver_limits_ = 0;    ///< general: a limit hit with an incumbent outside the gap
  std::int64_t solver_calls_ = 0;     ///< window solves and ranking problems
  std::int64_t solver_nodes_ = 0;
  std::vector<double> resolve_times_s_;
};

}  // namespace adaptsim
