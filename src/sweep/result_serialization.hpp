// Boost.Serialization of the result structs, for sending results from workers to rank 0.
//
// Why Boost.Serialization rather than JSON: results must not depend on which rank ran a task, so
// the transfer must be bit-exact. Boost.MPI's packed archives copy doubles verbatim (NaN and ±inf
// included — JSON would turn them into null) and need no text formatting/parsing round trip.
// All ranks run the same binary on the same architecture, so the binary encoding is safe.
// The record fields come from the one field list (adaptsim/result_fields.hpp); the lists and the
// SimulationResult members are added here. A test of the farm compares files written with 1, 2
// and 3 ranks and would show a forgotten member.
#pragma once

#include <boost/serialization/map.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>

#include "adaptsim/result.hpp"
#include "adaptsim/result_fields.hpp"
#include "adaptsim/store.hpp"

namespace boost::serialization {

/// A field visitor that adds every visited field to a Boost archive.
template <typename Archive>
struct ArchiveFields {
  Archive& archive;
  template <typename Field>
  void operator()(const char* /*name*/, const char* /*units*/, Field& field) const {
    archive& field;
  }
};

/// The neutral fields, the index of the extras' alternative, then the extras' fields.
template <typename Archive>
void serialize(Archive& ar, adaptsim::JobResult& j, unsigned /*version*/) {
  adaptsim::VisitJobFields(j, ArchiveFields<Archive>{ar});
  int index = static_cast<int>(j.extras.index());
  ar& index;
  if constexpr (Archive::is_loading::value) {
    int k = 0;
    adaptsim::ForEachJobExtrasKind([&](auto probe) {
      if (k++ == index) j.extras = probe;
    });
  }
  adaptsim::VisitJobExtrasFieldsOf(j, ArchiveFields<Archive>{ar});
}

template <typename Archive>
void serialize(Archive& ar, adaptsim::RoundResult& r, unsigned /*version*/) {
  adaptsim::VisitRoundFields(r, ArchiveFields<Archive>{ar});
  ar& r.running_job_ids& r.worker_ids;
}

template <typename Archive>
void serialize(Archive& ar, adaptsim::ThroughputSample& s, unsigned /*version*/) {
  adaptsim::VisitThroughputFields(s, ArchiveFields<Archive>{ar});
}

template <typename Archive>
void serialize(Archive& ar, adaptsim::GpuTypeResult& t, unsigned /*version*/) {
  adaptsim::VisitGpuTypeFields(t, ArchiveFields<Archive>{ar});
}

template <typename Archive>
void serialize(Archive& ar, adaptsim::SummaryMetrics& m, unsigned /*version*/) {
  adaptsim::VisitMetricFields(m, ArchiveFields<Archive>{ar});
}

template <typename Archive>
void serialize(Archive& ar, adaptsim::SimulationResult& r, unsigned /*version*/) {
  ar& r.status& r.message& r.jobs& r.rounds& r.throughput_timeline& r.gpu_busy_time_s;
  ar& r.lease_extensions& r.lease_extension_opportunities& r.summary& r.policy_statistics;
  ar& r.input_statistics& r.gpu_types& r.wall_time_s;
}

template <typename Archive>
void serialize(Archive& ar, adaptsim::Provenance& p, unsigned /*version*/) {
  ar& p.argv& p.rank_count& p.sweep_name& p.spec_path;
}

}  // namespace boost::serialization
