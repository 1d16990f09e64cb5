// Pollux goodput, batch-size optimization and speedup (docs/pollux.md §2; A:simulator/goodput.py,
// A:simulator/speedup.py).
#include "adaptsim/pollux_goodput.hpp"

#include <cmath>

#include "adaptsim/error.hpp"

namespace adaptsim::models {
namespace {
constexpr double kEps = 1e-8;    // tolerance of the floor/ceil splits (goodput.py:111)
constexpr int kCandidates = 50;  // np.geomspace default num
}  // namespace

std::vector<double> GeomSpace(double start, double stop, int num) {
  std::vector<double> out(num);
  if (num <= 0) return out;
  const double log_start = std::log10(start), log_stop = std::log10(stop);
  const double step = num > 1 ? (log_stop - log_start) / (num - 1) : 0.0;
  for (int i = 0; i < num; ++i) out[i] = std::pow(10.0, i * step + log_start);
  out.front() = start;
  if (num > 1) out.back() = stop;
  return out;
}

double GoodputFunction::Gain(double batch_size) const {
  const double scale = batch_size / init_batch_size_;
  const double denominator = grad_.var / scale + grad_.sqr;
  return denominator > 0 ? (grad_.var + grad_.sqr) / denominator : 1.0;
}

double GoodputFunction::Throughput(int num_nodes, int num_replicas, int atomic_bsz,
                                   int accum_steps) const {
  return ThroughputSamplesPerS(perf_, num_nodes, num_replicas, atomic_bsz, accum_steps);
}

double GoodputFunction::Evaluate(int num_nodes, int num_replicas, int atomic_bsz,
                                 int accum_steps) const {
  const double batch_size = static_cast<double>(num_replicas) * atomic_bsz * (accum_steps + 1);
  return Throughput(num_nodes, num_replicas, atomic_bsz, accum_steps) * Efficiency(batch_size);
}

GoodputChoice GoodputFunction::Optimize(int num_nodes, int num_replicas, const BatchBounds& bounds,
                                        bool accumulation) const {
  ADAPTSIM_CHECK(1 <= num_nodes && num_nodes <= num_replicas);
  const int min_m = bounds.min_atomic_bsz > 0 ? bounds.min_atomic_bsz : 1;
  const int max_m = bounds.max_atomic_bsz > 0 ? bounds.max_atomic_bsz : bounds.max_batch_size;
  const double min_batch =
      std::max<double>(init_batch_size_, static_cast<double>(min_m) * num_replicas);
  GoodputChoice best;
  bool have_best = false;
  for (double batch_size : GeomSpace(min_batch, bounds.max_batch_size, kCandidates)) {
    const double local = batch_size / num_replicas;
    int s = 0;
    if (accumulation) {
      s = static_cast<int>(std::ceil(local / max_m - kEps)) - 1;
      if (num_replicas == 1 && local > init_batch_size_ + kEps) s = std::max(s, 1);
    }
    const int m = static_cast<int>(std::ceil(local / (s + 1) - kEps));
    const double goodput =
        (min_m <= m && m <= max_m) ? Evaluate(num_nodes, num_replicas, m, s) : 0.0;
    if (!have_best || goodput > best.goodput) {  // argmax: the first maximum wins
      best = {goodput, m, s};
      have_best = true;
    }
  }
  return best;
}

SpeedupFunction::SpeedupFunction(const GoodputFunction& goodput, const BatchBounds& bounds,
                                 bool accumulation)
    : goodput_(goodput), bounds_(bounds), accumulation_(accumulation) {
  Rebase(1, 1);
}

void SpeedupFunction::Rebase(int num_nodes, int num_replicas) {
  base_goodput_ = goodput_.Optimize(num_nodes, num_replicas, bounds_, accumulation_).goodput;
  for (auto& row : memo_) row.fill(-1.0);
  memo_[0][0] = 0.0;
}

double SpeedupFunction::operator()(int num_nodes, int num_replicas) {
  ADAPTSIM_CHECK(0 <= num_nodes && num_nodes <= num_replicas);
  ADAPTSIM_CHECK((num_nodes > 0) == (num_replicas > 0));
  if (num_replicas < kMemoSize && memo_[num_nodes][num_replicas] >= 0) {
    return memo_[num_nodes][num_replicas];
  }
  const double speedup =
      goodput_.Optimize(num_nodes, num_replicas, bounds_, accumulation_).goodput / base_goodput_;
  if (num_replicas < kMemoSize) memo_[num_nodes][num_replicas] = speedup;
  return speedup;
}

GoodputChoice FixedBatch(int target_batch_size, int num_replicas, int init_batch_size,
                         int max_atomic_bsz) {
  const double local = std::ceil(static_cast<double>(target_batch_size) / num_replicas - kEps);
  int s = static_cast<int>(std::ceil(local / max_atomic_bsz - kEps)) - 1;
  if (num_replicas == 1 && target_batch_size > init_batch_size) s = std::max(1, s);
  const int m = static_cast<int>(std::ceil(local / (s + 1) - kEps));
  return {0.0, m, s};
}

}  // namespace adaptsim::models
