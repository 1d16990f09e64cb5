// The MPI task farm behind `adaptsim sweep` (HARNESS.md §C.1, self-scheduling master-worker).
//
// Protocol (all point-to-point on MPI_COMM_WORLD):
//   worker -> 0  kTagReady   (empty)          the worker is idle
//   worker -> 0  kTagResult  ResultMessage    a finished (or cancelled) task; idle again
//   0 -> worker  kTagTask    TaskMessage      run this task
//   0 -> worker  kTagCancel  (empty)          abandon the running task (signal grace time over)
//   0 -> worker  kTagStop    (empty)          no more work: return
// Nobody waits in a blocking MPI call: Open MPI's blocking receives spin on a core, so rank 0 and
// idle workers poll with iprobe and kPollInterval sleeps (rank 0's CPU time is measured and
// stored in /meta, docs/performance.md). Rank 0 answers a worker before writing its result, so
// workers are not kept waiting by the disk. Completion order depends on timing; nothing stored
// depends on it except `rank` and `wall_time_s`.
#include <sys/resource.h>

#include <boost/mpi/collectives/broadcast.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>
#include <boost/serialization/string.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <set>
#include <thread>

#include "adaptsim/error.hpp"
#include "adaptsim/harness.hpp"
#include "harness/result_serialization.hpp"
#include "harness/signals.hpp"
#include "harness/sweep_plan.hpp"
#include "harness/sweep_report.hpp"

namespace adaptsim {
namespace {

namespace mpi = boost::mpi;
using Clock = std::chrono::steady_clock;

constexpr int kTagReady = 1;
constexpr int kTagTask = 2;
constexpr int kTagStop = 3;
constexpr int kTagResult = 4;
constexpr int kTagCancel = 5;
constexpr auto kPollInterval = std::chrono::microseconds(1000);
// Rank 0's poll backs off while no message arrives (all workers busy) and snaps back to the
// minimum after each message: few wake-ups per task, at most kMaxRootPoll of added latency.
constexpr auto kMinRootPoll = std::chrono::microseconds(500);
constexpr auto kMaxRootPoll = std::chrono::microseconds(8000);
constexpr auto kCancelCheckInterval = std::chrono::milliseconds(10);
constexpr int kExitNothingToRun = -1;  ///< broadcast code: dry run done, all ranks return 0

struct TaskMessage {
  int index = 0;
  std::string config_json;
  double max_wall_time_s = 0.0;
  double grace_s = 0.0;

  template <typename Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& index& config_json& max_wall_time_s& grace_s;
  }
};

struct ResultMessage {
  int index = 0;
  SimulationResult result;

  template <typename Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& index& result;
  }
};

double Seconds(Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

double ProcessCpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

/// Round observer of a running task: after a stop signal, abandons the task once `grace_s` has
/// passed; with a communicator, also when rank 0 sends kTagCancel (checked every 10 ms).
class CancelCheck {
 public:
  CancelCheck(const StopSignals& signals, double grace_s, const mpi::communicator* world)
      : signals_(signals), grace_s_(grace_s), world_(world) {}
  void operator()(const RoundResult& /*round*/) {
    Clock::time_point now = Clock::now();
    if (now - last_check_ < kCancelCheckInterval) return;
    last_check_ = now;
    if (signals_.received() != 0) {
      if (!signalled_at_) signalled_at_ = now;
      if (Seconds(now - *signalled_at_) > grace_s_) throw TaskCancelled();
    }
    if (world_ != nullptr && world_->iprobe(0, kTagCancel)) {
      world_->recv(0, kTagCancel);
      throw TaskCancelled();
    }
  }

 private:
  const StopSignals& signals_;
  double grace_s_;
  const mpi::communicator* world_;
  Clock::time_point last_check_ = Clock::now();
  std::optional<Clock::time_point> signalled_at_;
};

/// Rank 0's bookkeeping while the farm runs.
class Root {
 public:
  Root(SweepPlan& plan, const SweepCommandOptions& options, const StopSignals& signals)
      : plan_(plan),
        options_(options),
        signals_(signals),
        shards_(options.out_path),
        progress_(stderr, plan.pending.size(), PendingCost(plan), options.quiet) {
    shards_.Open();
  }

  /// Stores a result (a cancelled task is dropped: it reruns on resume).
  void Record(int index, SimulationResult result, int rank) {
    if (result.status == "cancelled") {
      progress_.Cancelled();
      return;
    }
    task_time_sum_ += result.wall_time_s;
    const PlannedTask& task = plan_.tasks.at(index);
    TaskRecord record = MakeTaskRecord(task.config, index, std::move(result), rank);
    shards_.Write(record, plan_.provenance);
    report_.Add(record);
    progress_.Finished(record, task.cost);
  }
  /// True once a stop signal arrived (prints a note the first time).
  bool Stopping() {
    if (signals_.received() != 0 && !stop_time_) {
      stop_time_ = Clock::now();
      if (!options_.quiet) {
        std::fprintf(stderr, "\nadaptsim: signal %d: no new tasks; running tasks get %.0f s\n",
                     signals_.received(), options_.grace_s);
      }
    }
    return stop_time_.has_value();
  }
  bool GraceOver() const {
    return stop_time_ && Seconds(Clock::now() - *stop_time_) > options_.grace_s;
  }
  TaskMessage Message(int index) {
    progress_.Started();
    const TaskConfig& config = plan_.tasks.at(index).config;
    return {index, config.ToJson().dump(), config.simulation.max_wall_time_s, options_.grace_s};
  }
  int Finish(int workers);

  SweepPlan& plan_;
  const SweepCommandOptions& options_;
  const StopSignals& signals_;

 private:
  static double PendingCost(const SweepPlan& plan) {
    double cost = 0;
    for (int i : plan.pending) cost += plan.tasks[i].cost;
    return cost;
  }

  ShardDirectory shards_;
  Progress progress_;
  SweepReport report_;
  Clock::time_point start_ = Clock::now();
  double cpu_start_ = ProcessCpuSeconds();
  double task_time_sum_ = 0;
  std::optional<Clock::time_point> stop_time_;
};

int Root::Finish(int workers) {
  progress_.Close();
  double wall = Seconds(Clock::now() - start_);
  double cpu = ProcessCpuSeconds() - cpu_start_;
  std::map<std::string, double> statistics = {
      {"run_dispatch_wall_s", wall},
      {"run_rank0_cpu_s", cpu},
      {"run_worker_ranks", workers},
      {"run_tasks", static_cast<double>(progress_.done())},
      {"run_task_time_sum_s", task_time_sum_},
      {"run_parallel_efficiency", wall > 0 ? task_time_sum_ / (workers * wall) : 0.0}};
  Clock::time_point merge_start = Clock::now();
  std::size_t stored = MergeSweep(plan_, shards_, statistics);
  double merge_wall = Seconds(Clock::now() - merge_start);
  report_.PrintTable(stdout);
  std::size_t remaining = plan_.pending.size() - progress_.done();
  if (!options_.quiet) {
    std::fprintf(stderr,
                 "adaptsim: %zu tasks run in %.2f s on %d worker rank(s): parallel efficiency "
                 "%.3f, rank-0 CPU %.3f s (%.2f%% of wall); merge %.2f s; %s holds %zu of %zu "
                 "tasks\n",
                 progress_.done(), wall, workers, statistics["run_parallel_efficiency"], cpu,
                 wall > 0 ? 100 * cpu / wall : 0.0, merge_wall, plan_.out_path.c_str(), stored,
                 plan_.tasks.size());
  }
  if (stop_time_) {
    std::fprintf(stderr,
                 "adaptsim: stopped by signal %d; %zu task(s) not run: rerun the same command to "
                 "resume\n",
                 signals_.received(), remaining);
  }
  return 0;
}

void RunLocally(Root& root) {
  CancelCheck check(root.signals_, root.options_.grace_s, nullptr);
  for (int index : root.plan_.pending) {
    if (root.Stopping()) break;
    TaskMessage message = root.Message(index);
    root.Record(index, RunTaskCaught(root.plan_.tasks[index].config, std::ref(check)), 0);
  }
}

void Dispatch(const mpi::communicator& world, Root& root) {
  const std::vector<int>& pending = root.plan_.pending;
  std::size_t next = 0;
  int running_workers = world.size() - 1;
  std::set<int> busy;
  bool cancel_sent = false;
  auto poll = kMinRootPoll;
  while (running_workers > 0) {
    bool stopping = root.Stopping();
    if (stopping && !cancel_sent && root.GraceOver()) {
      for (int worker : busy) world.send(worker, kTagCancel);
      cancel_sent = true;
    }
    boost::optional<mpi::status> status = world.iprobe(mpi::any_source, mpi::any_tag);
    if (!status) {
      std::this_thread::sleep_for(poll);
      poll = std::min(poll * 2, kMaxRootPoll);
      continue;
    }
    poll = kMinRootPoll;
    int worker = status->source();
    std::optional<ResultMessage> result;
    if (status->tag() == kTagResult) {
      result.emplace();
      world.recv(worker, kTagResult, *result);
      busy.erase(worker);
    } else {
      world.recv(worker, kTagReady);
    }
    if (!stopping && next < pending.size()) {
      world.send(worker, kTagTask, root.Message(pending[next++]));
      busy.insert(worker);
    } else {
      world.send(worker, kTagStop);
      --running_workers;
    }
    if (result) root.Record(result->index, std::move(result->result), worker);
  }
}

/// Waits (polling, not spinning) for the next message from rank 0; returns its tag.
int WaitForRoot(const mpi::communicator& world) {
  while (true) {
    if (boost::optional<mpi::status> status = world.iprobe(0, mpi::any_tag)) return status->tag();
    std::this_thread::sleep_for(kPollInterval);
  }
}

void Work(const mpi::communicator& world, const StopSignals& signals) {
  world.send(0, kTagReady);
  while (true) {
    int tag = WaitForRoot(world);
    if (tag == kTagStop) {
      world.recv(0, kTagStop);
      return;
    }
    if (tag == kTagCancel) {  // arrived after the task had finished: nothing to cancel
      world.recv(0, kTagCancel);
      continue;
    }
    TaskMessage message;
    world.recv(0, kTagTask, message);
    TaskConfig config = TaskConfig::FromJson(nlohmann::json::parse(message.config_json));
    config.simulation.max_wall_time_s = message.max_wall_time_s;
    CancelCheck check(signals, message.grace_s, &world);
    world.send(0, kTagResult, ResultMessage{message.index, RunTaskCaught(config, std::ref(check))});
  }
}

/// Rank 0: prepares the plan; returns the code to broadcast (0 = go).
int PrepareOnRoot(const SweepCommandOptions& options, int rank_count,
                  std::optional<SweepPlan>& plan) {
  try {
    plan = MakePlan(options, rank_count);
    if (options.dry_run) {
      PrintDryRun(*plan, stdout);
      return kExitNothingToRun;
    }
    return 0;
  } catch (const InputError& error) {
    std::fprintf(stderr, "adaptsim: error: %s\n", error.what());
    return 2;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "adaptsim: error: %s\n", error.what());
    return 1;
  }
}

}  // namespace

TaskRecord MakeTaskRecord(const TaskConfig& config, int task_index, SimulationResult result,
                          int rank) {
  return TaskRecord{config.Id(), task_index, config, config.ToJson(), std::move(result), rank};
}

SimulationResult RunTaskCaught(const TaskConfig& task, const RoundObserver& observer) {
  auto start = Clock::now();
  SimulationResult result;
  auto fail = [&](const std::string& status, const std::string& message) {
    result = SimulationResult{};
    result.status = status;
    result.message = message;
  };
  try {
    result = RunTask(task, observer);
  } catch (const TaskCancelled& error) {
    fail("cancelled", error.what());
  } catch (const InputError& error) {
    fail("failed", error.what());
  } catch (const std::exception& error) {
    fail("failed", std::string("internal error: ") + error.what());
  }
  if (result.wall_time_s <= 0.0) result.wall_time_s = Seconds(Clock::now() - start);
  return result;
}

int RunSweepCommand(const SweepCommandOptions& options) {
  StopSignals signals;  // before MPI start-up, which takes a while: no window where TERM kills
  mpi::environment environment(/*abort_on_exception=*/true);
  mpi::communicator world;
  std::optional<SweepPlan> plan;
  int code = 0;
  if (world.rank() == 0) code = PrepareOnRoot(options, world.size(), plan);
  boost::mpi::broadcast(world, code, 0);
  if (code == kExitNothingToRun) return 0;
  if (code != 0) return code;
  if (world.rank() != 0) {
    Work(world, signals);
    return 0;
  }
  try {
    Root root(*plan, options, signals);
    if (world.size() == 1) {
      RunLocally(root);
    } else {
      Dispatch(world, root);
    }
    return root.Finish(std::max(1, world.size() - 1));
  } catch (const std::exception& error) {
    // Workers may be waiting on rank 0: end the whole job rather than hang. Shards written so
    // far stay valid; rerunning resumes.
    std::fprintf(stderr, "adaptsim: error: %s\n", error.what());
    std::fflush(stderr);
    world.abort(1);
  }
  return 1;
}

}  // namespace adaptsim
