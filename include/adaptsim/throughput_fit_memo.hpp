// A memo of throughput-model fits by their data (docs/performance.md, "Sia whole runs").
//
// FitPerfParams (throughput_fit.hpp) is a deterministic function of its sample list alone (no
// state, iteration limits only). Jobs of one application on one GPU type measure the same step
// times for the same configuration (the profile is the type's), so jobs that visit the same
// configurations in the same order fit the same data: the memo fits each distinct sample list
// once. The key is the list in order, bit for bit (each sample's N, K, and the bits of m and its
// two times), so a hit returns exactly what the fit would return.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "adaptsim/throughput_fit.hpp"

namespace adaptsim::models {

class ThroughputFitMemo {
 public:
  /// FitPerfParams(samples, {}, context).params, fitted on the first call with this sample list.
  /// Throws what FitPerfParams throws (InputError for invalid samples); a fit that throws leaves
  /// no entry. The reference stays valid for the memo's lifetime.
  const PolluxPerfParams& Fit(const std::vector<ThroughputSample>& samples,
                              const std::string& context);
  /// Fits actually run (misses), and calls answered from the memo (hits).
  std::int64_t fits() const { return fits_; }
  std::int64_t hits() const { return hits_; }

 private:
  std::map<std::vector<std::uint64_t>, PolluxPerfParams> memo_;
  std::int64_t fits_ = 0, hits_ = 0;
};

}  // namespace adaptsim::models
