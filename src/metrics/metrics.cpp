// Metrics (docs/mechanism.md §10; `scheduler.py:2779-3107`,
// `scheduler/reproduce/aggregate_result.py`).
#include "adaptsim/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace adaptsim {

double StaticFtfRho(double jct_s, double exclusive_time_s, int num_trace_jobs, int num_gpus) {
  const double contention =
      std::max(1.0, static_cast<double>(num_trace_jobs) / static_cast<double>(num_gpus));
  return PythonRound(jct_s / (exclusive_time_s * contention), 5);
}

double ThemisFtfRho(double jct_s, double exclusive_time_s, const JobStay& stay,
                    const std::vector<RoundResult>& rounds, int num_gpus) {
  double sum = 0.0;
  int count = 0;
  const int end = std::min(stay.departed_round, static_cast<int>(rounds.size()));
  for (int r = stay.admitted_round; r < end; ++r) {
    sum += rounds[r].active_jobs;
    ++count;
  }
  const double contention = std::max(1.0, (count > 0 ? sum / count : 1.0) / num_gpus);
  return PythonRound(jct_s / (exclusive_time_s * contention), 5);
}

double TypeWeightedFtfRho(double jct_s, const std::vector<double>& exclusive_time_by_type_s,
                          const std::vector<GpuTypeResult>& gpu_types, int num_trace_jobs,
                          int num_gpus) {
  const double contention =
      std::max(1.0, static_cast<double>(num_trace_jobs) / static_cast<double>(num_gpus));
  double weighted = 0.0;
  int weight = 0;
  for (std::size_t g = 0; g < gpu_types.size() && g < exclusive_time_by_type_s.size(); ++g) {
    const double exclusive_s = exclusive_time_by_type_s[g];
    if (!(exclusive_s > 0.0)) continue;  // the job cannot run on type g
    weighted += gpu_types[g].gpus * (jct_s / (exclusive_s * contention));
    weight += gpu_types[g].gpus;
  }
  return weight > 0 ? PythonRound(weighted / weight, 5) : 0.0;
}

double IsolatedFtfRho(double jct_s, const std::vector<double>& isolated_time_by_type_s,
                      const std::vector<int>& type_gpus, bool combine_times) {
  if (isolated_time_by_type_s.size() != type_gpus.size()) {
    throw std::invalid_argument("IsolatedFtfRho: one isolated time per GPU type");
  }
  double weighted = 0.0;  // Σ N_g ρ_g (Eq. 3) or Σ N_g T_g (the artifact)
  double weight = 0.0;
  for (std::size_t g = 0; g < type_gpus.size(); ++g) {
    const double time_s = isolated_time_by_type_s[g];
    if (!(time_s > 0.0)) continue;  // the job cannot run alone on type g
    weighted += type_gpus[g] * (combine_times ? time_s : jct_s / time_s);
    weight += type_gpus[g];
  }
  if (!(weight > 0.0)) return 0.0;
  return combine_times ? jct_s / (weighted / weight) : weighted / weight;
}

double Percentile(std::vector<double> values, double q) {
  if (values.empty()) return std::nan("");
  std::sort(values.begin(), values.end());
  const double rank = q / 100.0 * static_cast<double>(values.size() - 1);
  const std::size_t lower = static_cast<std::size_t>(std::floor(rank));
  const std::size_t upper = std::min(lower + 1, values.size() - 1);
  const double weight = rank - static_cast<double>(lower);
  return values[lower] + (values[upper] - values[lower]) * weight;
}

namespace {

void FillJctMetrics(const std::vector<double>& jcts, SummaryMetrics& summary) {
  if (jcts.empty()) return;
  double sum = 0.0, log_sum = 0.0, inverse_sum = 0.0;
  for (double jct : jcts) {
    sum += jct;
    log_sum += std::log(jct);
    inverse_sum += 1.0 / jct;
  }
  const double n = static_cast<double>(jcts.size());
  summary.mean_jct_s = sum / n;
  summary.geometric_mean_jct_s = std::exp(log_sum / n);
  summary.harmonic_mean_jct_s = n / inverse_sum;
  summary.p99_jct_s = Percentile(jcts, 99.0);
}

/// Per GPU type: utilization and busy GPU-hours over the type's workers (consecutive ids), and the
/// mean ρ_g of the departed jobs that can run on it (docs/mechanism.md §12.9).
std::vector<GpuTypeResult> DeriveGpuTypeMetrics(const SimulationResult& result, double makespan_s,
                                                int num_gpus) {
  std::vector<GpuTypeResult> types = result.gpu_types;
  int first_worker = 0;
  for (GpuTypeResult& type : types) {
    double utilization_sum = 0.0, busy_s = 0.0;
    const int end =
        std::min(first_worker + type.gpus, static_cast<int>(result.gpu_busy_time_s.size()));
    for (int w = first_worker; w < end; ++w) {
      busy_s += result.gpu_busy_time_s[w];
      utilization_sum +=
          makespan_s > 0 ? PythonRound(result.gpu_busy_time_s[w] / makespan_s, 5) : 0.0;
    }
    type.utilization = type.gpus > 0 ? utilization_sum / type.gpus : 0.0;
    type.busy_gpu_hours = busy_s / 3600.0;
    first_worker += type.gpus;
  }
  const bool per_job = result.exclusive_time_by_type_s.size() == result.jobs.size();
  const double contention = std::max(
      1.0, static_cast<double>(result.jobs.size()) / static_cast<double>(std::max(num_gpus, 1)));
  for (std::size_t g = 0; g < types.size() && per_job; ++g) {
    double sum = 0.0;
    int count = 0;
    for (std::size_t j = 0; j < result.jobs.size(); ++j) {
      const JobResult& job = result.jobs[j];
      const auto& exclusive = result.exclusive_time_by_type_s[j];
      if (job.outcome == JobOutcome::kUnfinished || g >= exclusive.size() ||
          !(exclusive[g] > 0.0)) {
        continue;
      }
      sum += PythonRound(job.jct_s / (exclusive[g] * contention), 5);
      ++count;
    }
    types[g].mean_ftf_rho = count > 0 ? sum / count : 0.0;
  }
  return types;
}

/// Contention (Sia SOSP'23 Table 3; `sia-simulator/utils/print_run_stats.py:158-171`): the mean
/// and the largest number of active jobs over every round.
void FillContentionMetrics(const std::vector<RoundResult>& rounds, SummaryMetrics& summary) {
  if (rounds.empty()) return;
  double sum = 0.0;
  for (const RoundResult& round : rounds) {
    sum += round.active_jobs;
    summary.max_contention = std::max(summary.max_contention, round.active_jobs);
  }
  summary.mean_contention = sum / static_cast<double>(rounds.size());
}

}  // namespace

void FillFairnessMetrics(const std::vector<double>& rhos, SummaryMetrics& summary) {
  if (rhos.empty()) return;
  double sum = 0.0;
  int above_105 = 0, above_110 = 0;
  for (double rho : rhos) {
    sum += rho;
    summary.worst_ftf_rho = std::max(summary.worst_ftf_rho, rho);
    above_105 += rho > 1.05;
    above_110 += rho > 1.1;
  }
  const double n = static_cast<double>(rhos.size());
  summary.mean_ftf_rho = sum / n;
  summary.unfair_fraction_1_05 = above_105 / n;
  summary.unfair_fraction_1_10 = above_110 / n;
}

RunMetrics DeriveMetrics(const SimulationResult& result, int num_gpus) {
  RunMetrics metrics;
  SummaryMetrics& summary = metrics.summary;
  const int num_trace_jobs = static_cast<int>(result.jobs.size());
  metrics.ftf_rho.assign(result.jobs.size(), 0.0);
  metrics.ftf_rho_themis.assign(result.jobs.size(), 0.0);
  const bool has_stays = result.round_stays.size() == result.jobs.size();
  metrics.ftf_rho_type_weighted.assign(result.jobs.size(), 0.0);
  const bool has_type_times =
      result.exclusive_time_by_type_s.size() == result.jobs.size() && !result.gpu_types.empty();
  const IsolatedTimeTable& isolated = result.isolated;
  const bool has_isolated_times =
      isolated.time_s.size() == result.jobs.size() && !result.jobs.empty();
  std::vector<double> jcts, rhos, weighted_rhos;
  int restarts = 0;
  bool all_left = true;
  double last_departure_s = 0.0;
  for (std::size_t j = 0; j < result.jobs.size(); ++j) {
    const JobResult& job = result.jobs[j];
    restarts += job.restarts;
    if (job.outcome == JobOutcome::kUnfinished) {
      all_left = false;
      continue;
    }
    last_departure_s = std::max(last_departure_s, job.completion_time_s);
    metrics.ftf_rho[j] = StaticFtfRho(job.jct_s, job.exclusive_time_s, num_trace_jobs, num_gpus);
    if (has_stays) {
      metrics.ftf_rho_themis[j] = ThemisFtfRho(job.jct_s, job.exclusive_time_s,
                                               result.round_stays[j], result.rounds, num_gpus);
    }
    // Without per-type exclusive times the run had one type, whose ρ is the static ρ.
    // With isolated times (interval engine, docs/sia.md §12) Sia's ρ; with per-type exclusive
    // times (round engine) the static ρ per type, weighted.
    metrics.ftf_rho_type_weighted[j] =
        has_isolated_times ? IsolatedFtfRho(job.jct_s, isolated.time_s[j], isolated.type_gpus,
                                            isolated.combine_times)
        : has_type_times   ? TypeWeightedFtfRho(job.jct_s, result.exclusive_time_by_type_s[j],
                                                result.gpu_types, num_trace_jobs, num_gpus)
                           : metrics.ftf_rho[j];
    jcts.push_back(job.jct_s);
    rhos.push_back(metrics.ftf_rho[j]);
    weighted_rhos.push_back(metrics.ftf_rho_type_weighted[j]);
    summary.num_deadline_completions += job.outcome == JobOutcome::kDeadline;
    summary.num_failed_jobs += job.outcome == JobOutcome::kFailed;
  }
  // §10: the loop exits when the last job leaves; a stopped run ends at the engine's stop time.
  summary.makespan_s = all_left ? last_departure_s : result.end_time_s;
  summary.num_jobs = num_trace_jobs;
  summary.num_rounds = static_cast<int>(result.rounds.size());
  summary.restarts_per_job =
      num_trace_jobs > 0 ? static_cast<double>(restarts) / num_trace_jobs : 0.0;
  FillContentionMetrics(result.rounds, summary);
  FillJctMetrics(jcts, summary);
  FillFairnessMetrics(rhos, summary);
  if (!weighted_rhos.empty()) {
    double sum = 0.0;
    int unfair = 0, positive = 0;
    for (double rho : weighted_rhos) {
      sum += rho;
      summary.worst_ftf_rho_type_weighted = std::max(summary.worst_ftf_rho_type_weighted, rho);
      unfair += rho > 1.0;
      positive += rho > 0.0;
    }
    summary.mean_ftf_rho_type_weighted = sum / static_cast<double>(weighted_rhos.size());
    summary.unfair_fraction_type_weighted =
        positive > 0 ? static_cast<double>(unfair) / positive : 0.0;
  }
  // Utilization: mean over GPUs of round(busy / makespan, 5) (`scheduler.py:3037-3058`).
  double utilization_sum = 0.0;
  for (double busy_s : result.gpu_busy_time_s) {
    utilization_sum += summary.makespan_s > 0 ? PythonRound(busy_s / summary.makespan_s, 5) : 0.0;
  }
  summary.utilization =
      result.gpu_busy_time_s.empty() ? 0.0 : utilization_sum / result.gpu_busy_time_s.size();
  double busy_sum_s = 0.0;
  for (double busy_s : result.gpu_busy_time_s) busy_sum_s += busy_s;
  summary.gpu_hours_per_job = num_trace_jobs > 0 ? busy_sum_s / 3600.0 / num_trace_jobs : 0.0;
  summary.lease_extension_percent =
      result.lease_extension_opportunities > 0
          ? 100.0 * static_cast<double>(result.lease_extensions) /
                static_cast<double>(result.lease_extension_opportunities)
          : 0.0;
  metrics.gpu_types = DeriveGpuTypeMetrics(result, summary.makespan_s, num_gpus);
  return metrics;
}

void ComputeMetrics(SimulationResult& result, int num_gpus) {
  RunMetrics metrics = DeriveMetrics(result, num_gpus);
  for (std::size_t j = 0; j < result.jobs.size(); ++j) {
    result.jobs[j].ftf_rho = metrics.ftf_rho[j];
    result.jobs[j].ftf_rho_themis = metrics.ftf_rho_themis[j];
    result.jobs[j].ftf_rho_type_weighted = metrics.ftf_rho_type_weighted[j];
  }
  result.summary = metrics.summary;
  result.gpu_types = std::move(metrics.gpu_types);
  AddOptimizeStatistics(result.optimize_cpu_time_s, result.policy_statistics);
}

void AddOptimizeStatistics(const std::vector<double>& seconds,
                           std::map<std::string, double>& statistics) {
  if (seconds.empty()) return;
  double sum = 0.0;
  for (double s : seconds) sum += s;
  statistics["optimize_calls"] = static_cast<double>(seconds.size());
  statistics["optimize_cpu_time_median_s"] = Percentile(seconds, 50.0);
  statistics["optimize_cpu_time_p95_s"] = Percentile(seconds, 95.0);
  statistics["optimize_cpu_time_mean_s"] = sum / static_cast<double>(seconds.size());
  statistics["optimize_cpu_time_max_s"] = *std::max_element(seconds.begin(), seconds.end());
}

}  // namespace adaptsim
