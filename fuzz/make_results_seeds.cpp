// Writes the seed inputs of the results_hdf5 fuzz target (docs/reliability.md, "Fuzzing"): a
// shard at each detail level, a two-task merged file and a file holding a failed task, built
// with the store's own writers from a small synthetic result.
//
// Usage: fuzz_make_results_seeds OUT_DIR
#include <filesystem>
#include <iostream>
#include <limits>

#include "adaptsim/output_paths.hpp"
#include "adaptsim/store.hpp"
#include "adaptsim/task.hpp"

namespace {

using namespace adaptsim;

TaskRecord Record(int task_index, std::uint64_t seed, ResultDetail detail) {
  TaskConfig config;
  config.trace_path = "/data/a.trace";
  config.throughputs_path = "/data/t.json";
  config.policy = "fifo";
  config.seed = seed;
  config.simulation.num_gpus = 4;
  TaskRecord record = MakeTaskRecord(config, task_index, SimulationResult{}, 1);
  record.detail = detail;
  SimulationResult& r = record.result;
  r.jobs = {{0, "ResNet-18", 1, 32, 64, 0.0, 1000.5, 1000.5, 800.25, 1.25, 1.5, 2,
             JobOutcome::kCompleted, RoundJobExtras{AdaptationMode::kAccordion, 9}},
            {1, "LM", 2, 16, 16, 10.0, 5000.0, 4990.0, 100.0, 49.9,
             std::numeric_limits<double>::infinity(), 0, JobOutcome::kDeadline,
             RoundJobExtras{AdaptationMode::kStatic, 40}}};
  r.rounds = {{0, 0.0, 120.0, 3, 2, {0, 1}, {{0}, {1, 2}}}, {1, 120.0, 240.0, 0, 1, {}, {}}};
  r.throughput_timeline = {{0, 1, 12.5, 32}, {1, 1, 3.25, 16}};
  r.gpu_busy_time_s = {240.0, 120.0, 120.0, 0.5};
  r.summary.makespan_s = 5000.0;
  r.summary.num_jobs = 2;
  r.policy_statistics = {{"allocation_solves", 3.0}};
  r.input_statistics = {{"rows_read", 2}};
  return record;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: fuzz_make_results_seeds OUT_DIR\n";
    return 2;
  }
  namespace fs = std::filesystem;
  const fs::path out = argv[1];
  fs::create_directories(out);
  Provenance provenance;
  provenance.argv = {"fuzz_make_results_seeds"};
  const TaskRecord full = Record(0, 1, ResultDetail::kFull);
  const TaskRecord per_job = Record(1, 2, ResultDetail::kPerJob);
  TaskRecord summary = Record(2, 3, ResultDetail::kSummary);
  TaskRecord failed = Record(3, 4, ResultDetail::kFull);
  failed.result = SimulationResult{};
  failed.result.status = TaskStatus::kFailed;
  failed.result.message = "input error";
  WriteShard((out / "shard_full.h5").string(), full, provenance);
  WriteShard((out / "shard_per_job.h5").string(), per_job, provenance);
  WriteShard((out / "shard_summary.h5").string(), summary, provenance);
  WriteShard((out / "failed.h5").string(), failed, provenance);
  MergeOptions merge;
  merge.sources = {(out / "shard_full.h5").string(), (out / "shard_per_job.h5").string()};
  merge.provenance = provenance;
  MergeResults(OutputPaths((out / "merged.h5").string()), merge);
  std::cout << "results seeds written to " << out.string() << '\n';
  return 0;
}
