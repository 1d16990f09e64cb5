// Production-log tasks: log -> simulated trace or Pollux workload, and their input statistics
// (production_task.hpp; docs/production.md).
#include "production_task.hpp"

#include <utility>

#include "adaptsim/catalogue_throughput.hpp"
#include "adaptsim/error.hpp"
#include "adaptsim/workload.hpp"

namespace adaptsim {
namespace {

ProductionLog ReadTaskLog(const TaskConfig& task) {
  ADAPTSIM_CHECK(task.production.has_value());
  const ProductionSource& source = *task.production;
  return ReadProductionLog(task.trace_path, source.format,
                           source.LogOptions(task.simulation.num_gpus));
}

class StatisticsSimulation final : public Simulation {
 public:
  StatisticsSimulation(std::unique_ptr<Simulation> inner,
                       std::map<std::string, std::int64_t> statistics)
      : inner_(std::move(inner)), statistics_(std::move(statistics)) {}

  SimulationResult Run(const RoundObserver& observer) override {
    SimulationResult result = inner_->Run(observer);
    result.input_statistics = statistics_;
    return result;
  }

 private:
  std::unique_ptr<Simulation> inner_;
  std::map<std::string, std::int64_t> statistics_;
};

}  // namespace

ProductionTrace BuildTaskProductionTrace(const TaskConfig& task,
                                         const ThroughputSource& throughputs) {
  const ProductionLog log = ReadTaskLog(task);
  // A catalogue names its own models (with their trace batch sizes); a measured table uses the
  // built-in catalogue's, as the trace generator does (generate-trace).
  const auto* catalogue = dynamic_cast<const models::CatalogueThroughput*>(&throughputs);
  const std::vector<ModelInfo> models =
      catalogue != nullptr ? catalogue->catalogue().WorkloadModels() : ModelCatalogue();
  return BuildProductionTrace(log, task.production->TraceOptions(), models, throughputs);
}

PolluxWorkload BuildTaskPolluxWorkload(const TaskConfig& task, PolluxApplications& applications,
                                       std::map<std::string, std::int64_t>& statistics) {
  const ProductionLog log = ReadTaskLog(task);
  PolluxWorkload workload =
      BuildPolluxWorkloadFromLog(log, task.production->rule.seed, applications);
  statistics =
      ProductionInputStatistics(log.stats, 0, 0, static_cast<std::int64_t>(workload.jobs.size()));
  return workload;
}

std::map<std::string, std::int64_t> InputStatisticsOf(const ProductionTrace& trace) {
  return ProductionInputStatistics(trace.log_stats, trace.skipped_unsupported,
                                   trace.skipped_no_work,
                                   static_cast<std::int64_t>(trace.trace.jobs.size()));
}

std::unique_ptr<Simulation> WithInputStatistics(std::unique_ptr<Simulation> simulation,
                                                std::map<std::string, std::int64_t> statistics) {
  return std::make_unique<StatisticsSimulation>(std::move(simulation), std::move(statistics));
}

}  // namespace adaptsim
