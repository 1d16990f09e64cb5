// Pollux on the Shockwave traces: trace jobs -> synthetic Pollux applications
// (pollux_trace_workload.hpp; docs/pollux.md).
#include "pollux_trace_workload.hpp"

#include <algorithm>
#include <cmath>

#include "adaptsim/catalogue_throughput.hpp"
#include "adaptsim/error.hpp"
#include "adaptsim/pollux_throughput.hpp"
#include "adaptsim/profile.hpp"
#include "adaptsim/throughput.hpp"
#include "adaptsim/workload.hpp"

namespace adaptsim {

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
