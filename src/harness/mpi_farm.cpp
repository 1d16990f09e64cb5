// The MPI task farm behind `adaptsim sweep` (HARNESS.md §C.1, self-scheduling master-worker).
//
// Protocol (all point-to-point on MPI_COMM_WORLD):
//   worker -> 0  kTagReady   (empty)          the worker is idle
//   worker -> 0  kTagResult  ResultMessage    a finished task; the worker is idle again
//   0 -> worker  kTagTask    TaskMessage      run this task
//   0 -> worker  kTagStop    (empty)          no more work: return
// Rank 0 polls with iprobe and short sleeps (it never spins on a blocking receive) and is the only
// process that touches the results file. Completion order depends on timing; nothing stored
// depends on it except the row order of /summary and the `rank` column.
#include <boost/mpi/collectives/broadcast.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>
#include <boost/serialization/string.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <set>
#include <thread>

#include "adaptsim/error.hpp"
#include "adaptsim/harness.hpp"
#include "adaptsim/store.hpp"
#include "adaptsim/sweep.hpp"
#include "harness/result_serialization.hpp"
#include "harness/sweep_report.hpp"

namespace adaptsim {
namespace {

namespace mpi = boost::mpi;

constexpr int kTagReady = 1;
constexpr int kTagTask = 2;
constexpr int kTagStop = 3;
constexpr int kTagResult = 4;
constexpr auto kPollInterval = std::chrono::milliseconds(2);

/// A task on the wire: the canonical JSON plus the wall-clock budget, which is not part of it.
struct TaskMessage {
  int index = 0;
  std::string config_json;
  double max_wall_time_s = 0.0;

  template <typename Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& index& config_json& max_wall_time_s;
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

/// What rank 0 prepared before any task runs.
struct SweepPlan {
  std::string name;
  std::vector<TaskConfig> tasks;  ///< full expansion, sweep order
  std::vector<int> pending;       ///< indices into `tasks` still to run
  std::optional<ResultsFile> file;
};

SweepPlan Prepare(const SweepCommandOptions& options, int rank_count) {
  if (options.resume && options.force) {
    throw InputError(options.out_path, 0, "--resume", "--resume and --force exclude each other");
  }
  SweepSpec spec = LoadSweepSpec(options.spec_path);
  SweepPlan plan;
  plan.name = spec.name;
  plan.tasks = ExpandSweep(spec);
  namespace fs = std::filesystem;
  fs::path out(options.out_path);
  if (out.has_parent_path() && !fs::is_directory(out.parent_path())) {
    throw InputError(options.out_path, 0, "--out", "directory does not exist");
  }
  bool exists = fs::exists(out);
  if (exists && !options.resume && !options.force) {
    throw InputError(options.out_path, 0, "--out",
                     "file exists; pass --resume to add the missing tasks or --force to overwrite");
  }
  if (exists && options.resume) {
    plan.file = ResultsFile::OpenForAppend(options.out_path);
  } else {
    Provenance provenance{options.argv, rank_count, spec.name, options.spec_path};
    plan.file = ResultsFile::Create(options.out_path, provenance);
  }
  std::set<std::string> done = plan.file->TaskIds();
  for (int i = 0; i < static_cast<int>(plan.tasks.size()); ++i) {
    if (done.count(plan.tasks[i].Id()) == 0) plan.pending.push_back(i);
  }
  return plan;
}

/// Rank 0's bookkeeping while the farm runs.
class Collector {
 public:
  Collector(SweepPlan& plan, bool quiet) : plan_(plan), quiet_(quiet) {}

  void Record(int index, SimulationResult result, int rank) {
    const TaskConfig& config = plan_.tasks.at(index);
    TaskRecord record = MakeTaskRecord(config, index, std::move(result), rank);
    plan_.file->Append(record);
    report_.Add(record);
    if (!quiet_) report_.PrintProgress(stderr, record, plan_.pending.size());
  }
  const SweepReport& report() const { return report_; }

 private:
  SweepPlan& plan_;
  bool quiet_;
  SweepReport report_;
};

TaskMessage MakeTaskMessage(const SweepPlan& plan, int index) {
  const TaskConfig& config = plan.tasks.at(index);
  return {index, config.ToJson().dump(), config.simulation.max_wall_time_s};
}

void RunLocally(SweepPlan& plan, Collector& collector) {
  for (int index : plan.pending) collector.Record(index, RunTaskCaught(plan.tasks[index]), 0);
}

void Dispatch(const mpi::communicator& world, SweepPlan& plan, Collector& collector) {
  std::size_t next = 0;
  int running_workers = world.size() - 1;
  while (running_workers > 0) {
    boost::optional<mpi::status> status = world.iprobe(mpi::any_source, mpi::any_tag);
    if (!status) {
      std::this_thread::sleep_for(kPollInterval);
      continue;
    }
    int worker = status->source();
    if (status->tag() == kTagResult) {
      ResultMessage message;
      world.recv(worker, kTagResult, message);
      collector.Record(message.index, std::move(message.result), worker);
    } else {
      world.recv(worker, kTagReady);
    }
    if (next < plan.pending.size()) {
      world.send(worker, kTagTask, MakeTaskMessage(plan, plan.pending[next++]));
    } else {
      world.send(worker, kTagStop);
      --running_workers;
    }
  }
}

void Work(const mpi::communicator& world) {
  world.send(0, kTagReady);
  while (true) {
    mpi::status status = world.probe(0, mpi::any_tag);
    if (status.tag() == kTagStop) {
      world.recv(0, kTagStop);
      return;
    }
    TaskMessage message;
    world.recv(0, kTagTask, message);
    TaskConfig config = TaskConfig::FromJson(nlohmann::json::parse(message.config_json));
    config.simulation.max_wall_time_s = message.max_wall_time_s;
    world.send(0, kTagResult, ResultMessage{message.index, RunTaskCaught(config)});
  }
}

/// Rank 0: prepares the plan; returns the exit code to broadcast (0 = go).
int PrepareOnRoot(const SweepCommandOptions& options, int rank_count,
                  std::optional<SweepPlan>& plan) {
  try {
    plan = Prepare(options, rank_count);
    return 0;
  } catch (const InputError& error) {
    std::fprintf(stderr, "adaptsim: error: %s\n", error.what());
    return 2;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "adaptsim: error: %s\n", error.what());
    return 1;
  }
}

int RunRoot(const mpi::communicator& world, SweepPlan& plan, const SweepCommandOptions& options) {
  std::size_t skipped = plan.tasks.size() - plan.pending.size();
  if (skipped > 0 && !options.quiet) {
    std::fprintf(stderr, "adaptsim: %zu of %zu tasks already in %s, skipped\n", skipped,
                 plan.tasks.size(), options.out_path.c_str());
  }
  Collector collector(plan, options.quiet);
  if (world.size() == 1) {
    RunLocally(plan, collector);
  } else {
    Dispatch(world, plan, collector);
  }
  collector.report().PrintTable(stdout);
  return 0;
}

}  // namespace

TaskRecord MakeTaskRecord(const TaskConfig& config, int task_index, SimulationResult result,
                          int rank) {
  return TaskRecord{config.Id(), task_index, config, config.ToJson(), std::move(result), rank};
}

SimulationResult RunTaskCaught(const TaskConfig& task) {
  auto start = std::chrono::steady_clock::now();
  SimulationResult result;
  try {
    result = RunTask(task);
  } catch (const InputError& error) {
    result = SimulationResult{};
    result.status = "failed";
    result.message = error.what();
  } catch (const std::exception& error) {
    result = SimulationResult{};
    result.status = "failed";
    result.message = std::string("internal error: ") + error.what();
  }
  if (result.wall_time_s <= 0.0) {
    result.wall_time_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  return result;
}

int RunSweepCommand(const SweepCommandOptions& options) {
  mpi::environment environment(/*abort_on_exception=*/true);
  mpi::communicator world;
  std::optional<SweepPlan> plan;
  int code = 0;
  if (world.rank() == 0) code = PrepareOnRoot(options, world.size(), plan);
  boost::mpi::broadcast(world, code, 0);
  if (code != 0) return code;
  if (world.rank() != 0) {
    Work(world);
    return 0;
  }
  try {
    return RunRoot(world, *plan, options);
  } catch (const std::exception& error) {
    // Workers may be waiting on rank 0: end the whole job rather than hang.
    std::fprintf(stderr, "adaptsim: error: %s\n", error.what());
    std::fflush(stderr);
    world.abort(1);
  }
  return 1;
}

}  // namespace adaptsim
