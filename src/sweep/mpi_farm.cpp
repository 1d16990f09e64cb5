// The MPI task farm behind `adaptsim sweep` (docs/sweeps.md §3, self-scheduling master-worker).
//
// Protocol (all point-to-point on MPI_COMM_WORLD):
//   worker -> 0  kTagReady   (empty)          the worker is idle
//   worker -> 0  kTagResult  ResultBatch      finished (or cancelled) tasks, without tables,
//   worker -> 0  kTagShard   bytes            then one shard file image holding the finished
//                                             ones (if image_bytes > 0)
//   0 -> worker  kTagTask    TaskMessages     run this batch (queued behind the running tasks)
//   0 -> worker  kTagDrain   (empty)          stop signal: do not start queued tasks
//   0 -> worker  kTagCancel  (empty)          abandon the running and queued tasks (grace over)
//   0 -> worker  kTagStop    (empty)          no more work: return
// Rank 0 hands out batches (task_batching.hpp: about half a second of expected work each, one
// task while nothing is measured) and keeps up to kQueueDepth batches outstanding per worker
// while enough work remains, so a worker starts its next task the moment one ends, without a
// round trip to rank 0. A worker returns its results together, when its queue runs empty, every
// --shard-interval (SweepCommandOptions::shard_interval_s), or when told to stop: a killed batch
// loses only tasks not yet sent. Workers encode the results they send together as one HDF5 file
// image (store.hpp EncodeShard). A worker that sees rank 0's shard folder (WorkerShardFolder)
// writes that image as a shard itself and sends only its name and SHA-256; otherwise (or when
// its write fails) it sends the image, without blocking, and rank 0 writes it. Rank 0 alone
// appends the manifest lines and writes the merged file (shard_directory.hpp). Nobody waits in
// a blocking MPI call: Open MPI's blocking receives spin on a core, so rank 0 and idle workers
// poll with iprobe and short sleeps (rank 0's CPU time is measured and stored in /meta,
// docs/performance.md). Completion order depends on timing; nothing stored depends on it except
// `rank` and `wall_time_s`.
#include <sys/resource.h>

#include <boost/mpi/collectives/broadcast.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>
#include <boost/serialization/string.hpp>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <thread>

#include "adaptsim/engine_tasks.hpp"
#include "adaptsim/error.hpp"
#include "adaptsim/output_paths.hpp"
#include "adaptsim/sweep_command.hpp"
#include "exit_status.hpp"
#include "mpi_farm.hpp"
#include "result_serialization.hpp"
#include "signals.hpp"
#include "sweep_plan.hpp"
#include "sweep_report.hpp"
#include "task_batching.hpp"

namespace adaptsim {
namespace {

namespace mpi = boost::mpi;
using Clock = std::chrono::steady_clock;

constexpr int kTagReady = 1;
constexpr int kTagTask = 2;
constexpr int kTagStop = 3;
constexpr int kTagResult = 4;
constexpr int kTagCancel = 5;
constexpr int kTagShard = 6;
constexpr int kTagDrain = 7;
/// Batches outstanding per worker (running + queued) while more tasks remain than workers.
constexpr int kQueueDepth = 2;
constexpr auto kPollInterval = std::chrono::microseconds(1000);
// Rank 0's poll backs off while no message arrives (all workers busy) and snaps back to the
// minimum after each message: few wake-ups per task. The latency it adds (at most kMaxRootPoll)
// delays no worker while its next task is queued (kQueueDepth).
constexpr auto kMinRootPoll = std::chrono::microseconds(500);
constexpr auto kMaxRootPoll = std::chrono::microseconds(16000);
/// Back-off limit while every working worker has a task queued: a late answer delays nobody.
constexpr auto kMaxRootPollAllQueued = std::chrono::microseconds(64000);
constexpr auto kCancelCheckInterval = std::chrono::milliseconds(10);
constexpr int kExitNothingToRun = -1;  ///< broadcast code: dry run done, all ranks return 0

struct TaskMessage {
  int index = 0;
  std::string config_json;  ///< TaskConfig::ToJson()
  RunBudget budget;         ///< the sweep's --task-timeout*, beside the configuration
  double grace_s = 0.0;
  int detail = static_cast<int>(ResultDetail::kFull);  ///< ResultDetail of the shard

  template <typename Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& index& config_json& budget.max_rounds& budget.max_wall_time_s& grace_s& detail;
  }
};
using TaskMessages = std::vector<TaskMessage>;

/// A finished (or cancelled) task.
struct ResultMessage {
  int index = 0;
  SimulationResult result;

  template <typename Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& index& result;
  }
};
using ResultMessages = std::vector<ResultMessage>;

/// Results a worker sends together. With a `shard` name the worker wrote its tasks that were
/// not cancelled, in this order, as that shard itself (it shares rank 0's folder,
/// WorkerShardFolder); with image_bytes > 0 it encoded them as one shard image (sent next, tag
/// kTagShard) for rank 0 to write. Either way their `result`s hold only status, message, summary
/// metrics, statistics and wall time; otherwise every `result` is complete (cancelled, or the
/// worker could not encode).
struct ResultBatch {
  ResultMessages results;
  std::uint64_t image_bytes = 0;
  double store_s = 0;  ///< the worker's wall seconds encoding (and writing) this batch
  std::string shard;   ///< ShardDirectory::StoredShard of the worker's own write, or ""
  std::string sha256;  ///< its SHA-256

  template <typename Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& results& image_bytes& store_s& shard& sha256;
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
      root_cancelled_ = true;
      throw TaskCancelled();
    }
  }
  /// True once rank 0's kTagCancel was consumed here.
  bool root_cancelled() const { return root_cancelled_; }

 private:
  const StopSignals& signals_;
  double grace_s_;
  const mpi::communicator* world_;
  Clock::time_point last_check_ = Clock::now();
  std::optional<Clock::time_point> signalled_at_;
  bool root_cancelled_ = false;
};

/// Rank 0's bookkeeping while the farm runs.
class Root {
 public:
  Root(SweepPlan& plan, const SweepCommandOptions& options, const StopSignals& signals)
      : plan_(plan),
        options_(options),
        signals_(signals),
        progress_(stderr, plan.pending.size(), PendingCost(plan), options.quiet) {
    plan_.shards.Open();
  }

  /// Stores results as one shard (cancelled tasks are dropped: they rerun on resume). A
  /// non-empty `image` is the shard of the others encoded by the worker (ResultBatch); their
  /// results then only need the summary fields.
  /// `store_s`: what storing them cost the worker (ResultBatch::store_s). A non-empty
  /// `stored.name` is the shard the worker wrote itself: only its manifest lines are appended.
  void Record(ResultMessages& results, int rank, const std::vector<unsigned char>& image = {},
              double store_s = 0, const ShardDirectory::StoredShard& stored = {}) {
    store_time_sum_ += store_s;
    std::vector<TaskRecord> records;
    for (ResultMessage& result : results) {
      if (result.result.status == TaskStatus::kCancelled) continue;
      task_time_sum_ += result.result.wall_time_s;
      const PlannedTask& task = plan_.tasks.at(result.index);
      batcher_.Observe(task.cost, result.result.wall_time_s);
      records.push_back(
          image.empty() && stored.name.empty()
              ? MakeTaskRecord(task.config, result.index, std::move(result.result), rank)
              : MakeEncodedTaskRecord(task.config, task.id, result.index, std::move(result.result),
                                      rank));
      records.back().detail = plan_.detail;
    }
    if (records.empty()) return;
    if (stored.name.empty()) {
      plan_.shards.Write(records, plan_.provenance, image);
    } else {
      plan_.shards.Adopt(records, stored);
      ++worker_shards_;
    }
    ++shards_written_;
    for (const TaskRecord& record : records) {
      report_.Add(record);
      progress_.Finished(record, plan_.tasks[record.task_index].cost);
    }
  }
  void AddStoreTime(double seconds) { store_time_sum_ += seconds; }
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
  void SetRunning(int running) { progress_.SetRunning(running); }
  TaskMessage Message(int index) {
    const TaskConfig& config = plan_.tasks.at(index).config;
    return {index, config.ToJson().dump(), plan_.budget, options_.grace_s,
            static_cast<int>(plan_.detail)};
  }
  /// The next batch for a worker: pending tasks from `next` (advanced past them).
  TaskMessages Batch(std::size_t& next, int workers) {
    std::size_t size = batcher_.NextBatch(plan_, next, workers);
    TaskMessages batch;
    batch.reserve(size);
    ++batches_;
    for (std::size_t i = 0; i < size; ++i) batch.push_back(Message(plan_.pending[next++]));
    return batch;
  }
  int Finish(int workers);

  SweepPlan& plan_;
  const SweepCommandOptions& options_;
  const StopSignals& signals_;
  InputCache inputs_;  ///< for the tasks rank 0 runs itself (one rank)

 private:
  static double PendingCost(const SweepPlan& plan) {
    double cost = 0;
    for (int i : plan.pending) cost += plan.tasks[i].cost;
    return cost;
  }

  TaskBatcher batcher_;
  Progress progress_;
  SweepReport report_;
  Clock::time_point start_ = Clock::now();
  double cpu_start_ = ProcessCpuSeconds();
  double task_time_sum_ = 0;
  double store_time_sum_ = 0;       ///< workers' time storing results (one rank: writing shards)
  std::size_t shards_written_ = 0;  ///< shards of this run
  std::size_t worker_shards_ = 0;   ///< of them, written by the worker that ran the tasks
  std::size_t batches_ = 0;  ///< task messages sent to workers (0 when rank 0 runs the tasks)
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
      {"run_batches", static_cast<double>(batches_ > 0 ? batches_ : progress_.done())},
      {"run_parallel_efficiency", wall > 0 ? task_time_sum_ / (workers * wall) : 0.0},
      {"run_store_time_sum_s", store_time_sum_},
      {"run_shards", static_cast<double>(shards_written_)},
      {"run_worker_shards", static_cast<double>(worker_shards_)},
      {"run_worker_busy_fraction",
       wall > 0 ? (task_time_sum_ + store_time_sum_) / (workers * wall) : 0.0}};
  Clock::time_point merge_start = Clock::now();
  std::size_t stored = MergeSweep(plan_, statistics);
  double merge_wall = Seconds(Clock::now() - merge_start);
  FinishShards(plan_, options_.keep_shards, options_.quiet);
  report_.PrintTable(stdout);
  std::size_t remaining = plan_.pending.size() - progress_.done();
  if (!options_.quiet) {
    std::fprintf(stderr,
                 "adaptsim: %zu tasks run in %.2f s on %d worker rank(s) in %.0f batch(es): "
                 "parallel efficiency %.3f (workers busy %.3f), rank-0 CPU %.3f s (%.2f%% of "
                 "wall); merge %.2f s; %s holds %zu of %zu tasks\n",
                 progress_.done(), wall, workers, statistics["run_batches"],
                 statistics["run_parallel_efficiency"], statistics["run_worker_busy_fraction"], cpu,
                 wall > 0 ? 100 * cpu / wall : 0.0, merge_wall, plan_.out.results().c_str(), stored,
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

/// Rank 0 stores the results it ran itself, timing it as a worker times its encoding.
void StoreLocally(Root& root, ResultMessages& results) {
  const Clock::time_point start = Clock::now();
  ResultMessages batch;
  batch.swap(results);
  root.Record(batch, 0);
  root.AddStoreTime(Seconds(Clock::now() - start));
}

/// One rank: rank 0 runs the tasks and stores their results as a worker sends them (one shard
/// per --shard-interval of finished tasks).
void RunLocally(Root& root) {
  CancelCheck check(root.signals_, root.options_.grace_s, nullptr);
  ResultMessages unsaved;
  Clock::time_point first_unsaved = Clock::now();
  for (int index : root.plan_.pending) {
    if (root.Stopping()) break;
    root.SetRunning(1);
    if (unsaved.empty()) first_unsaved = Clock::now();
    unsaved.push_back({index, RunTaskCaught(root.plan_.tasks[index].config, root.plan_.budget,
                                            std::ref(check), &root.inputs_)});
    if (Seconds(Clock::now() - first_unsaved) >= root.options_.shard_interval_s) {
      StoreLocally(root, unsaved);
    }
  }
  StoreLocally(root, unsaved);
}

/// Tasks to keep outstanding on one worker: kQueueDepth batches of `batch` while more tasks
/// remain than workers, then 1, so that the last tasks go to idle workers rather than queue
/// behind running ones.
std::size_t QueueDepth(std::size_t remaining, int workers, std::size_t batch) {
  return remaining > static_cast<std::size_t>(workers)
             ? kQueueDepth * std::max<std::size_t>(1, batch)
             : 1;
}

/// Receives the results whose kTagResult message a probe announced (and their shard image into
/// `image`, empty when none was sent).
ResultBatch ReceiveResults(const mpi::communicator& world, int worker,
                           std::vector<unsigned char>& image) {
  ResultBatch batch;
  world.recv(worker, kTagResult, batch);
  image.resize(batch.image_bytes);
  if (!image.empty()) world.recv(worker, kTagShard, image.data(), static_cast<int>(image.size()));
  return batch;
}

void Dispatch(const mpi::communicator& world, Root& root) {
  const std::vector<int>& pending = root.plan_.pending;
  const int workers = world.size() - 1;
  std::size_t next = 0;
  int running_workers = workers;
  std::vector<std::size_t> outstanding(world.size(), 0);  // tasks sent, not yet answered
  std::vector<std::size_t> batch_size(world.size(), 1);   // size of the last batch sent
  std::vector<bool> stopped(world.size(), false);
  bool drain_sent = false;
  bool cancel_sent = false;
  auto poll = kMinRootPoll;
  std::vector<unsigned char> image;
  std::vector<mpi::request> task_sends;  // each keeps its serialized message alive
  while (running_workers > 0) {
    bool stopping = root.Stopping();
    if (stopping && !drain_sent) {
      for (int w = 1; w <= workers; ++w) {
        if (!stopped[w]) world.send(w, kTagDrain);
      }
      drain_sent = true;
    }
    if (stopping && !cancel_sent && root.GraceOver()) {
      for (int w = 1; w <= workers; ++w) {
        if (outstanding[w] > 0) world.send(w, kTagCancel);
      }
      cancel_sent = true;
    }
    boost::optional<mpi::status> status = world.iprobe(mpi::any_source, mpi::any_tag);
    if (!status) {
      std::this_thread::sleep_for(poll);
      bool all_queued = true;
      for (int w = 1; w <= workers; ++w) {
        all_queued = all_queued && (stopped[w] || outstanding[w] > batch_size[w]);
      }
      poll = std::min(poll * 2, all_queued ? kMaxRootPollAllQueued : kMaxRootPoll);
      continue;
    }
    poll = kMinRootPoll;
    int worker = status->source();
    ResultBatch received;
    if (status->tag() == kTagResult) {
      received = ReceiveResults(world, worker, image);
      outstanding[worker] -= std::min(outstanding[worker], received.results.size());
    } else {
      world.recv(worker, kTagReady);
    }
    // Record first: the measured times size the next batch.
    root.Record(received.results, worker, image, received.store_s,
                {received.shard, received.sha256});
    while (!stopping && next < pending.size() &&
           outstanding[worker] < QueueDepth(pending.size() - next, workers, batch_size[worker])) {
      // Not send(): a task message above the eager limit would block rank 0 until the worker,
      // busy with its running task, posts the receive.
      TaskMessages batch = root.Batch(next, workers);
      batch_size[worker] = batch.size();
      outstanding[worker] += batch.size();
      task_sends.push_back(world.isend(worker, kTagTask, batch));
    }
    std::erase_if(task_sends, [](mpi::request& r) { return r.test().has_value(); });
    if (outstanding[worker] == 0) {
      world.send(worker, kTagStop);
      stopped[worker] = true;
      --running_workers;
    }
    if (!received.results.empty()) {
      root.SetRunning(static_cast<int>(std::count_if(outstanding.begin(), outstanding.end(),
                                                     [](std::size_t n) { return n > 0; })));
    }
  }
  for (mpi::request& r : task_sends) r.wait();  // already complete: every task was answered
}

/// The next message from rank 0: its tag, or nothing. With `wait`, polls (not spins) until one
/// arrives.
std::optional<int> ProbeRoot(const mpi::communicator& world, bool wait) {
  while (true) {
    if (boost::optional<mpi::status> status = world.iprobe(0, mpi::any_tag)) return status->tag();
    if (!wait) return std::nullopt;
    std::this_thread::sleep_for(kPollInterval);
  }
}

/// A worker's side of the farm: a queue of tasks from rank 0, results sent without blocking.
class Worker {
 public:
  /// `shard_interval_s`: SweepCommandOptions::shard_interval_s. `shard_dir`: the shard folder
  /// when this worker shares it with rank 0 (it then writes its shards itself), else "".
  Worker(const mpi::communicator& world, const StopSignals& signals, const Provenance& provenance,
         double shard_interval_s, std::string shard_dir)
      : world_(world),
        signals_(signals),
        provenance_(provenance),
        shard_interval_s_(shard_interval_s),
        shard_dir_(std::move(shard_dir)) {}

  void Run() {
    world_.send(0, kTagReady);
    while (ReceiveFromRoot()) {
      TaskMessage message = std::move(queue_.front());
      queue_.pop_front();
      if (unsent_.empty() && unsent_records_.empty()) first_unsent_ = Clock::now();
      if (drain_ || signals_.received() != 0) {
        ResultMessage cancelled{message.index, {}};
        cancelled.result.status = TaskStatus::kCancelled;  // queued, never started: reruns
        cancelled.result.message = "not started: sweep stopping";
        unsent_.push_back(std::move(cancelled));
      } else {
        RunOne(message);
      }
      if (drain_ || signals_.received() != 0 ||
          Seconds(Clock::now() - first_unsent_) >= shard_interval_s_) {
        Flush();
      }
    }
    Flush();  // nothing left (rank 0 stops a worker only after all its results arrived)
    WaitForSends();
  }

 private:
  /// Takes every message rank 0 has sent; while the queue is empty, sends the finished results
  /// (rank 0 refills on their arrival) and waits for a message. Returns false on kTagStop (the
  /// queue is then empty).
  bool ReceiveFromRoot() {
    while (true) {
      std::optional<int> tag = ProbeRoot(world_, false);
      if (!tag) {
        if (!queue_.empty()) return true;
        Flush();
        tag = ProbeRoot(world_, true);
      }
      if (*tag == kTagStop) {
        world_.recv(0, kTagStop);
        return false;
      }
      if (*tag == kTagTask) {
        TaskMessages batch;
        world_.recv(0, kTagTask, batch);
        for (TaskMessage& task : batch) queue_.push_back(std::move(task));
      } else {  // kTagDrain, or kTagCancel that arrived after its task had ended
        world_.recv(0, *tag);
        drain_ = true;
      }
    }
  }

  /// Runs a task and queues its result for the next Flush (a finished task as its complete
  /// record, to be encoded with the others).
  void RunOne(const TaskMessage& message) {
    TaskConfig config = TaskConfig::FromJson(nlohmann::json::parse(message.config_json));
    CancelCheck check(signals_, message.grace_s, &world_);
    SimulationResult result = RunTaskCaught(config, message.budget, std::ref(check), &inputs_);
    if (check.root_cancelled()) drain_ = true;
    if (result.status == TaskStatus::kCancelled) {
      unsent_.push_back({message.index, std::move(result)});
      return;
    }
    unsent_records_.push_back(
        MakeTaskRecord(config, message.index, std::move(result), world_.rank()));
    unsent_records_.back().detail = static_cast<ResultDetail>(message.detail);
  }

  /// Sends the queued results without blocking, the finished ones encoded as one shard image;
  /// the previous sends must have completed first (their buffers are reused).
  void Flush() {
    if (unsent_.empty() && unsent_records_.empty()) return;
    WaitForSends();
    sent_.results.swap(unsent_);
    unsent_.clear();
    sent_image_.clear();
    sent_.shard.clear();
    sent_.sha256.clear();
    const Clock::time_point store_start = Clock::now();
    bool encoded = false;
    if (!unsent_records_.empty()) {
      try {
        sent_image_ = EncodeShard(unsent_records_, provenance_);
        encoded = true;
      } catch (const StoreError&) {
        sent_image_.clear();  // rank 0 encodes the complete results itself
      }
    }
    if (encoded && !shard_dir_.empty()) {
      std::vector<std::string> ids;
      for (const TaskRecord& record : unsent_records_) ids.push_back(record.task_id);
      try {
        ShardDirectory::StoredShard stored =
            ShardDirectory::StoreImage(shard_dir_, ids, sent_image_);
        sent_.shard = std::move(stored.name);
        sent_.sha256 = std::move(stored.sha256);
        sent_image_.clear();
      } catch (const StoreError&) {
        // Not stored (e.g. disk full): rank 0 writes the image, and reports the error if it
        // fails there too.
      }
    }
    for (TaskRecord& record : unsent_records_) {
      ResultMessage message{record.task_index, std::move(record.result)};
      if (encoded) {  // the tables travel in the image or are in the worker's shard
        message.result.jobs.clear();
        message.result.rounds.clear();
        message.result.throughput_timeline.clear();
        message.result.gpu_busy_time_s.clear();
        message.result.round_stays.clear();
      }
      sent_.results.push_back(std::move(message));
    }
    unsent_records_.clear();
    sent_.image_bytes = sent_image_.size();
    sent_.store_s = Seconds(Clock::now() - store_start);
    requests_.push_back(world_.isend(0, kTagResult, sent_));
    if (!sent_image_.empty()) {
      requests_.push_back(
          world_.isend(0, kTagShard, sent_image_.data(), static_cast<int>(sent_image_.size())));
    }
  }

  /// Polls (not spins) until the pending sends have completed.
  void WaitForSends() {
    while (!requests_.empty()) {
      std::erase_if(requests_, [](mpi::request& r) { return r.test().has_value(); });
      if (!requests_.empty()) std::this_thread::sleep_for(kPollInterval);
    }
  }

  const mpi::communicator& world_;
  const StopSignals& signals_;
  const Provenance& provenance_;
  double shard_interval_s_;
  std::string shard_dir_;
  InputCache inputs_;  ///< parsed traces and throughputs, shared by this worker's tasks
  std::deque<TaskMessage> queue_;
  bool drain_ = false;
  ResultMessages unsent_;                   ///< cancelled tasks not yet sent
  std::vector<TaskRecord> unsent_records_;  ///< finished tasks not yet sent
  ResultBatch sent_;                        ///< the message of the last Flush
  std::vector<unsigned char> sent_image_;   ///< its shard image
  Clock::time_point first_unsent_ = Clock::now();
  std::vector<mpi::request> requests_;
};

/// Rank 0: prepares the plan; returns the code to broadcast (0 = go).
int PrepareOnRoot(const SweepCommandOptions& options, int rank_count,
                  std::optional<SweepPlan>& plan) {
  return ExitStatusOf([&] {
    plan = MakePlan(options, rank_count);
    if (options.dry_run) {
      PrintDryRun(*plan, stdout);
      return kExitNothingToRun;
    }
    return 0;
  });
}

}  // namespace

int RunSweepCommand(const SweepCommandOptions& options) {
  StopSignals signals;  // before MPI start-up, which takes a while: no window where TERM kills
  mpi::environment environment(/*abort_on_exception=*/true);
  mpi::communicator world;
  return RunSweepFarm(options, world, signals);
}

/// The shard folder a worker writes its shards into itself: rank 0's `shards` when the worker
/// sees that folder (the same file system), so that rank 0 only logs them; "" when it does not
/// (node-local disks: it sends its shard images to rank 0 instead) and on rank 0. Rank 0 writes
/// a random token into a temporary file in the folder and every worker reads it back; the
/// folder's name comes from rank 0, so a worker needs no --out of its own. Collective; `shards`
/// is read on rank 0 only.
std::string WorkerShardFolder(ShardDirectory* shards, const mpi::communicator& world) {
  std::string token, probe, folder;
  if (world.rank() == 0) {
    try {
      shards->Open();
      std::random_device random;
      token = std::to_string(random()) + "-" + std::to_string(random()) + "-" +
              std::to_string(::getpid());
      probe = TemporaryPath((std::filesystem::path(shards->dir()) / ".probe").string());
      folder = shards->dir();
      std::ofstream(probe) << token << "\n";
    } catch (const std::exception&) {
      token.clear();  // rank 0 stores everything, as it reports when it fails
    }
  }
  boost::mpi::broadcast(world, token, 0);
  boost::mpi::broadcast(world, probe, 0);
  boost::mpi::broadcast(world, folder, 0);
  bool shared = false;
  if (world.rank() != 0 && !token.empty()) {
    std::ifstream in(probe);
    std::string read;
    shared = std::getline(in, read) && read == token;
  }
  world.barrier();  // every worker has looked before the file goes
  if (world.rank() == 0 && !probe.empty()) {
    std::error_code ignored;
    std::filesystem::remove(probe, ignored);
  }
  return shared ? folder : std::string();
}

int RunSweepFarm(const SweepCommandOptions& options, const mpi::communicator& world,
                 const StopSignals& signals) {
  std::optional<SweepPlan> plan;
  int code = 0;
  if (world.rank() == 0) code = PrepareOnRoot(options, world.size(), plan);
  boost::mpi::broadcast(world, code, 0);
  if (code == kExitNothingToRun) return 0;
  if (code != 0) return code;
  Provenance provenance;  // workers write it into the shards they encode
  if (world.rank() == 0) provenance = plan->provenance;
  boost::mpi::broadcast(world, provenance, 0);
  const std::string worker_folder =
      world.size() > 1 ? WorkerShardFolder(plan ? &plan->shards : nullptr, world) : "";
  if (world.rank() != 0) {
    Worker(world, signals, provenance, options.shard_interval_s, worker_folder).Run();
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
    std::fprintf(stderr,
                 "adaptsim: error: %s\nadaptsim: the finished tasks are kept in %s; rerun "
                 "the same command to resume\n",
                 PrintableText(error.what()).c_str(), plan->shards.dir().c_str());
    std::fflush(stderr);
    if (world.size() == 1) return 1;  // nobody waits on a single rank
    world.abort(1);
  }
  return 1;
}

}  // namespace adaptsim
