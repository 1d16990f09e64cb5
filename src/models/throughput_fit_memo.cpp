// A memo of throughput-model fits by their data (throughput_fit_memo.hpp).
#include "adaptsim/throughput_fit_memo.hpp"

#include <bit>

namespace adaptsim::models {

const PolluxPerfParams& ThroughputFitMemo::Fit(const std::vector<ThroughputSample>& samples,
                                               const std::string& context) {
  std::vector<std::uint64_t> key;
  key.reserve(5 * samples.size());
  for (const ThroughputSample& s : samples) {
    key.push_back(static_cast<std::uint64_t>(static_cast<std::uint32_t>(s.num_nodes)) << 32 |
                  static_cast<std::uint32_t>(s.num_replicas));
    key.push_back(std::bit_cast<std::uint64_t>(s.atomic_bsz));
    key.push_back(s.accum_step_time_s.has_value());
    key.push_back(std::bit_cast<std::uint64_t>(s.accum_step_time_s.value_or(0.0)));
    key.push_back(std::bit_cast<std::uint64_t>(s.optim_step_time_s));
  }
  auto it = memo_.find(key);
  if (it != memo_.end()) {
    ++hits_;
    return it->second;
  }
  // Fit first: a fit that throws leaves no entry.
  PolluxPerfParams params = FitPerfParams(samples, {}, context).params;
  ++fits_;
  return memo_.emplace(std::move(key), params).first->second;
}

}  // namespace adaptsim::models
