// The job mapping between the round world and the interval world, both directions
// (job_mapping.hpp; docs/sia.md §9).
#include "adaptsim/job_mapping.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <string>

#include "adaptsim/catalogue_throughput.hpp"
#include "adaptsim/error.hpp"
#include "adaptsim/pollux_goodput.hpp"
#include "adaptsim/pollux_throughput.hpp"
#include "adaptsim/profile.hpp"
#include "adaptsim/throughput_fit.hpp"
#include "adaptsim/workload.hpp"

namespace adaptsim {

// ---- Interval job -> round view -----------------------------------------------------------

namespace {

constexpr double kOutOfReachThroughput = 1e-1;  // gavel.py:520-522

}  // namespace

int GavelLargestConfigurationGpus(int gpus_per_node, int num_nodes) {
  if (gpus_per_node == 4) return std::min(num_nodes, 16) * 4;  // CONFIGS_4GPU, gavel.py:10-11
  if (gpus_per_node == 8) return std::min(num_nodes, 8) * 8;   // CONFIGS_8GPU, gavel.py:13-14
  throw InputError("gavel_tj", 0, "cluster",
                   "Gavel's configurations are defined for nodes of 4 or 8 GPUs, not " +
                       std::to_string(gpus_per_node));
}

double GavelTunedJobThroughput(const PolluxApplication& app, int gpus_per_node, int num_nodes,
                               int num_replicas, int batch_size, double slowdown) {
  // gavel.py:517-522: the node size is the largest configuration's GPUs per node, g_t.
  if (num_replicas > GavelLargestConfigurationGpus(gpus_per_node, num_nodes)) {
    return kOutOfReachThroughput;
  }
  const int per_node = gpus_per_node == 4 ? 4 : 8;
  const std::vector<int> placement = PackedPlacement(num_replicas, per_node);  // :523-525
  // :527-533 is FixedBatch's rule except that s >= 1 whenever K = 1: FixedBatch with M0 = 0.
  const models::GoodputChoice fixed = models::FixedBatch(
      batch_size, num_replicas, /*init_batch_size=*/0, app.MaxLocalBszAt(placement));
  const int accum_steps = fixed.accum_steps;
  const int count = num_replicas * (accum_steps + 1);  // :534-536
  const int atomic_bsz = std::min(fixed.atomic_bsz, app.max_batch_size() / count);
  const StepTimes times = app.Throughput(placement, atomic_bsz);  // :539-541
  const double throughput =
      1.0 / (times.step_time_s + (times.step_time_s - times.sync_time_s) * accum_steps);
  return throughput * (1.0 / slowdown);  // :545, slowdown_factor = 1/SLOWDOWN (cluster.py:498)
}

namespace {

/// The time of one iteration, s, of K packed replicas on a type: the placement of K GPUs packed
/// gpus_per_node per node, `choose` the batch on it (atomic m, accumulation steps s), m capped at
/// floor(max_batch/(K(s+1))), then (step + (step − sync)·s)·slowdown. Throws InputError(field
/// "num_replicas") when K exceeds the type's GPUs, and the profile's errors.
template <typename ChooseBatch>
double PackedIterationTime(const PolluxApplication& app, int gpus_per_node, int num_nodes,
                           int num_replicas, double slowdown, ChooseBatch choose) {
  if (num_replicas > gpus_per_node * num_nodes) {  // shockwave.py:954-956 asserts it
    throw InputError(app.dir(), 0, "num_replicas",
                     std::to_string(num_replicas) + " replicas exceed the type's " +
                         std::to_string(gpus_per_node * num_nodes) + " GPUs");
  }
  const std::vector<int> placement = PackedPlacement(num_replicas, gpus_per_node);  // :957-958
  const BatchConfig batch = choose(placement);
  const int count = num_replicas * (batch.accum_steps + 1);  // :966-968, the engine's cap
  const int atomic_bsz = std::min(batch.atomic_bsz, app.max_batch_size() / count);
  const StepTimes times = app.Throughput(placement, atomic_bsz);  // :971-972
  return (times.step_time_s + (times.step_time_s - times.sync_time_s) * batch.accum_steps) *
         slowdown;  // :976, slowdown_factor = 1/SLOWDOWN
}

}  // namespace

double ShockwaveTunedJobIterationTime(const PolluxApplication& app, int gpus_per_node,
                                      int num_nodes, int num_replicas, int batch_size,
                                      double slowdown) {
  return PackedIterationTime(
      app, gpus_per_node, num_nodes, num_replicas, slowdown, [&](const std::vector<int>&) {
        // :960-965: FixedBatch with M0 = 0 (s >= 1 whenever K = 1) and the
        // type's global m_max.
        const models::GoodputChoice fixed = models::FixedBatch(
            batch_size, num_replicas, /*init_batch_size=*/0, app.max_local_bsz());
        return BatchConfig{fixed.atomic_bsz, fixed.accum_steps};
      });
}

double TunedJobMeanIterationTime(const IntervalJobView& job,
                                 const std::vector<IntervalNodeGroup>& groups, int num_replicas,
                                 int batch_size) {
  using IterationTime = double (*)(const PolluxApplication&, int, int, int, int, double);
  std::string skipped;
  // The mean of `time` over the groups whose profile has data for it.
  auto mean = [&](IterationTime time) -> std::optional<double> {
    double sum = 0.0;
    int counted = 0;
    for (std::size_t t = 0; t < groups.size(); ++t) {
      try {
        sum += time(*job.apps_by_group[t], groups[t].gpus_per_node, groups[t].num_nodes,
                    num_replicas, batch_size, job.slowdown);
        ++counted;
      } catch (const InputError& error) {  // no profile data there: shockwave.py:973 asserts
        skipped += (skipped.empty() ? "" : "; ") + std::string(error.what());
      }
    }
    return counted > 0 ? std::optional<double>(sum / counted) : std::nullopt;
  };
  if (const std::optional<double> predicted = mean(&ShockwaveTunedJobIterationTime)) {
    return *predicted;
  }
  // No type has data at the prediction's batch: the batch the job executes instead (docs/sia.md
  // §11), so that a type it runs on is never without an estimate.
  if (const std::optional<double> executed = mean(&TunedJobExecutedIterationTime)) return *executed;
  throw InputError(job.spec->name, job.spec->line, "batch_size", skipped);
}

double TunedJobExecutedIterationTime(const PolluxApplication& app, int gpus_per_node, int num_nodes,
                                     int num_replicas, int batch_size, double slowdown) {
  return PackedIterationTime(app, gpus_per_node, num_nodes, num_replicas, slowdown,
                             [&](const std::vector<int>& placement) {
                               return GavelTunedJobBatch(app, batch_size, placement);
                             });
}

BatchConfig GavelTunedJobBatch(const PolluxApplication& app, int batch_size,
                               const std::vector<int>& placement) {
  const int num_replicas = std::accumulate(placement.begin(), placement.end(), 0);
  const models::GoodputChoice fixed = models::FixedBatch(
      batch_size, num_replicas, app.init_batch_size(), app.MaxLocalBszAt(placement));
  BatchConfig batch{fixed.atomic_bsz, fixed.accum_steps};
  // job.py:375-382: the memory cap at K replicas, when K was profiled.
  if (const int cap = app.MaxLocalBszAtReplicas(num_replicas); cap > 0) {
    batch.atomic_bsz = std::min(batch.atomic_bsz, cap);
  }
  return batch;
}

double TunedJobTotalSteps(const PolluxApplication& app, int batch_size) {
  return app.Iteration(batch_size, app.completion_epoch());
}

double TunedJobCurrentStep(const PolluxApplication& app, int batch_size, int epoch,
                           double progress) {
  const double previous = epoch > 0 ? app.Iteration(batch_size, epoch - 1) : 0.0;
  const double next = app.Iteration(batch_size, epoch);
  const double previous_progress = app.Progress(epoch);
  const double next_progress = app.Progress(epoch + 1);
  const double step = previous + (progress - previous_progress) /
                                     (next_progress - previous_progress) * (next - previous);
  return std::nearbyint(step);  // Python's round(): half to even
}

std::vector<double> TunedJobThroughputs(const IntervalJobView& job,
                                        const std::vector<IntervalNodeGroup>& groups) {
  std::vector<double> x;
  for (std::size_t t = 0; t < groups.size(); ++t) {
    x.push_back(GavelTunedJobThroughput(*job.apps_by_group[t], groups[t].gpus_per_node,
                                        groups[t].num_nodes, job.spec->num_replicas,
                                        job.spec->batch_size, job.slowdown));
  }
  return x;
}

void CheckTunedJobFits(const IntervalJobView& job, const std::vector<IntervalNodeGroup>& groups) {
  int largest = 0;
  for (const IntervalNodeGroup& group : groups) {
    largest = std::max(largest, group.num_nodes * group.gpus_per_node);
  }
  if (largest < job.spec->num_replicas) {
    throw InputError("workload", job.spec->line, "num_replicas",
                     job.spec->name + " needs " + std::to_string(job.spec->num_replicas) +
                         " GPUs; no GPU type of the cluster has that many");
  }
}

TunedJobRoundView MakeTunedJobRoundView(const IntervalJobView& job, double round_s,
                                        std::vector<double> throughputs) {
  const PolluxApplication& app = *job.apps_by_group.front();  // cluster.py:489
  const int batch_size = job.spec->batch_size;
  TunedJobRoundView view;
  view.scale_factor = job.spec->num_replicas;
  view.throughputs = std::move(throughputs);
  view.total_steps = TunedJobTotalSteps(app, batch_size);
  // The engine's epoch reaches max_epochs only at completion; an active job is below it.
  const int epoch = std::min(job.epoch, app.completion_epoch());
  view.current_step = TunedJobCurrentStep(app, batch_size, epoch, job.progress);
  view.remaining_steps = std::max(1.0, view.total_steps - view.current_step);
  view.time_since_arrival_s = job.age_s;  // now − submission
  view.prestart_overhead_s =
      round_s - std::fmod(job.spec->submission_time_s, round_s) + job.restart_delay_s;
  return view;
}

// ---- Trace job -> interval job ------------------------------------------------------------

TraceJobEfficiency TraceEfficiencyModel(const JobSpec& job, const std::vector<int>& bs_every_epoch,
                                        double dataset_size_samples, int model_max_batch_size) {
  TraceJobEfficiency model;
  const double m0 = job.initial_batch_size;
  model.init_batch_size = job.initial_batch_size;
  const bool adaptive = job.mode != AdaptationMode::kStatic;
  model.max_batch_size =
      adaptive ? std::max(model_max_batch_size, job.initial_batch_size) : job.initial_batch_size;
  model.fixed_batch_size = adaptive ? 0 : job.initial_batch_size;
  for (int batch : bs_every_epoch) {
    // φ_e = B_e: the schedule trains at the noise scale (static: B_e = B0, unused by a fixed
    // batch). Progress of the epoch along the schedule: (D / B_e) steps of gain
    // (B_e / M0)·E_e(B_e), E_e(M) = (φ_e + M0)/(φ_e + M) (docs/pollux.md §2.2).
    const double phi = adaptive ? static_cast<double>(batch) : m0;
    model.noise_scale.push_back(phi);
    model.progress.push_back(dataset_size_samples / m0 * (phi + m0) / (phi + batch));
  }
  return model;
}

namespace {

/// The job's ModelInfo: the catalogue's workload block, else the built-in catalogue.
const ModelInfo& InfoOf(const CatalogueModel& model, const std::string& trace_path, int line) {
  if (model.has_workload) return model.info;
  const ModelInfo* info = FindModel(model.info.name);
  if (info == nullptr) {
    throw InputError(trace_path, line, "job_type",
                     "model '" + model.info.name + "' has no workload description");
  }
  return *info;
}

}  // namespace

PolluxTraceInputs BuildPolluxTraceInputs(const Trace& trace, const Catalogue& catalogue,
                                         PolluxApplications& apps,
                                         const ThroughputSource* exclusive_source) {
  const models::CatalogueThroughput throughputs(catalogue);
  PolluxTraceInputs inputs;
  inputs.workload.path = trace.path;
  for (const JobSpec& job : trace.jobs) {
    const int line = job.id + 1;
    const CatalogueModel* model = catalogue.Find(job.model);
    if (model == nullptr) {
      throw InputError(trace.path, line, "job_type",
                       "model '" + job.model + "' is not in catalogue " + catalogue.name);
    }
    const ModelInfo& info = InfoOf(*model, trace.path, line);
    const JobProfile profile = BuildProfile(job, throughputs, trace.path);
    const double dataset = static_cast<double>(info.dataset_size_samples);
    const TraceJobEfficiency efficiency =
        TraceEfficiencyModel(job, profile.bs_every_epoch, dataset, info.max_batch_size);
    SyntheticApplicationSpec spec;
    spec.name = "job-" + std::to_string(job.id);
    spec.context = trace.path;
    spec.init_batch_size = efficiency.init_batch_size;
    spec.max_batch_size = efficiency.max_batch_size;
    spec.min_local_bsz = 1;
    spec.max_local_bsz = std::max(info.max_batch_size, job.initial_batch_size);
    spec.max_replicas = info.distributed ? 0 : 1;
    spec.fixed_batch_size = efficiency.fixed_batch_size;
    spec.epoch_progress = efficiency.progress;
    for (double phi : efficiency.noise_scale) {
      spec.epoch_grad.push_back({1.0, phi / efficiency.init_batch_size});  // φ = M0·var/sqr
    }
    spec.samples_per_epoch = dataset;
    const models::PolluxPerfParams params = models::PolluxPerfParams::FromArray(model->perf_params);
    spec.step_times = [params](int nodes, int replicas, double m) {
      const double step = models::OptimTime(params, nodes, replicas, m);
      return StepTimes{step, std::max(0.0, step - models::GradTime(params, m))};
    };
    apps.Add(PolluxApplication::Synthetic(std::move(spec)));
    PolluxJobSpec pollux;
    pollux.name = job.model + "-" + std::to_string(job.id);
    pollux.submission_time_s = job.arrival_time_s;
    pollux.application = "job-" + std::to_string(job.id);
    pollux.num_replicas = job.scale_factor;
    pollux.batch_size = job.initial_batch_size;
    pollux.line = line;
    inputs.workload.jobs.push_back(std::move(pollux));
    inputs.exclusive_time_s.push_back(
        exclusive_source == nullptr
            ? profile.exclusive_time_s
            : BuildProfile(job, *exclusive_source, trace.path).exclusive_time_s);
  }
  return inputs;
}

Catalogue LoadPolluxTraceCatalogue(const std::string& throughputs_path) {
  if (models::IsCataloguePath(throughputs_path)) {
    return models::CatalogueThroughput::Read(throughputs_path).catalogue();
  }
  models::CatalogueFitOptions options;
  options.gpus_per_node = 2;  // as data/catalog/v100.toml (docs/throughput-model.md)
  options.source = throughputs_path;
  return models::FitCatalogueFromTable(ThroughputTable::ReadJson(throughputs_path), options);
}

}  // namespace adaptsim
