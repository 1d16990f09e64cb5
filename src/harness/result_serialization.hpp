// Boost.Serialization of the result structs, for sending results from workers to rank 0.
//
// Why Boost.Serialization rather than JSON: results must not depend on which rank ran a task, so
// the transfer must be bit-exact. Boost.MPI's packed archives copy doubles verbatim (NaN and ±inf
// included — JSON would turn them into null) and need no text formatting/parsing round trip.
// All ranks run the same binary on the same architecture, so the binary encoding is safe.
// Every field of the structs must be listed here; a test of the farm compares files written with
// 1, 2 and 3 ranks and would show a forgotten field.
#pragma once

#include <boost/serialization/map.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>

#include "adaptsim/result.hpp"
#include "adaptsim/store.hpp"

namespace boost::serialization {

template <typename Archive>
void serialize(Archive& ar, adaptsim::JobResult& j, unsigned /*version*/) {
  ar& j.id& j.model& j.initial_batch_size& j.final_batch_size& j.scale_factor& j.mode;
  ar& j.arrival_time_s& j.completion_time_s& j.jct_s& j.exclusive_time_s& j.ftf_rho;
  ar& j.ftf_rho_themis& j.rounds_run& j.restarts& j.outcome;
}

template <typename Archive>
void serialize(Archive& ar, adaptsim::RoundResult& r, unsigned /*version*/) {
  ar& r.round_index& r.start_s& r.end_s& r.busy_gpus& r.active_jobs& r.running_job_ids;
  ar& r.worker_ids;
}

template <typename Archive>
void serialize(Archive& ar, adaptsim::ThroughputSample& s, unsigned /*version*/) {
  ar& s.job_id& s.completion_round& s.steps_per_s& s.batch_size;
}

template <typename Archive>
void serialize(Archive& ar, adaptsim::SummaryMetrics& m, unsigned /*version*/) {
  ar& m.makespan_s& m.mean_jct_s& m.geometric_mean_jct_s& m.harmonic_mean_jct_s;
  ar& m.p99_jct_s& m.mean_ftf_rho& m.worst_ftf_rho& m.unfair_fraction_1_05;
  ar& m.unfair_fraction_1_10& m.utilization& m.lease_extension_percent& m.restarts_per_job;
  ar& m.num_rounds& m.num_jobs& m.num_deadline_completions& m.num_failed_jobs;
}

template <typename Archive>
void serialize(Archive& ar, adaptsim::SimulationResult& r, unsigned /*version*/) {
  ar& r.status& r.message& r.jobs& r.rounds& r.throughput_timeline& r.gpu_busy_time_s;
  ar& r.lease_extensions& r.lease_extension_opportunities& r.summary& r.policy_statistics;
  ar& r.wall_time_s;
}

template <typename Archive>
void serialize(Archive& ar, adaptsim::Provenance& p, unsigned /*version*/) {
  ar& p.argv& p.rank_count& p.sweep_name& p.spec_path;
}

}  // namespace boost::serialization
