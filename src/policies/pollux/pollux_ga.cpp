// PolluxSched's NSGA-II (A:simulator/pollux.py:115-200, 339-438; P:pymoo 0.4.2).
#include "pollux_ga.hpp"

// GCC 12's AVX-512 intrinsics start from an undefined vector that -Wuninitialized reports (GCC
// bug 105593, fixed in GCC 13): silenced for the lines of these headers only (Random123 includes
// the intrinsics).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <Random123/philox.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif
#pragma GCC diagnostic pop

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <type_traits>

#include "adaptsim/error.hpp"

namespace adaptsim {

PhiloxRandom::PhiloxRandom(std::uint64_t seed, std::uint32_t stream, std::uint32_t substream)
    : key_{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)},
      counter_{stream, 0, 0, substream},
      buffer_(kBatchWords) {}

namespace {

// PhiloxBlocks with r123::Philox4x32, one block at a time.
void PhiloxBlocksScalar(const std::array<std::uint32_t, 4>& counter,
                        const std::array<std::uint32_t, 2>& key, std::uint32_t* out) {
  r123::Philox4x32 generator;
  const r123::Philox4x32::key_type k = {{key[0], key[1]}};
  std::array<std::uint32_t, 4> c = counter;
  for (std::size_t b = 0; b < kPhiloxBatchBlocks; ++b) {
    const r123::Philox4x32::ctr_type block = generator({{c[0], c[1], c[2], c[3]}}, k);
    for (int i = 0; i < 4; ++i) out[4 * b + i] = block[i];
    if (++c[1] == 0) ++c[2];
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
// PhiloxBlocks with AVX2, one block per 32-bit lane, in two independent sets of 8 blocks whose
// rounds interleave (each round is a chain of dependent multiplies): the 32×32→64-bit products of
// even and odd lanes (_mm256_mul_epu32) are split into the high and low words of Philox's mulhilo.
// 16 blocks from `base`, the 64-bit (c2:c1) of the first.
__attribute__((target("avx2"))) void PhiloxBlocksAvx2(const std::array<std::uint32_t, 4>& counter,
                                                      std::uint64_t base,
                                                      const std::array<std::uint32_t, 2>& key,
                                                      std::uint32_t* out) {
  constexpr int kBlocks = 16, kSets = kBlocks / 8;
  alignas(32) std::uint32_t low[kBlocks], high[kBlocks];
  for (std::size_t b = 0; b < kBlocks; ++b) {
    low[b] = static_cast<std::uint32_t>(base + b);
    high[b] = static_cast<std::uint32_t>((base + b) >> 32);
  }
  __m256i x0[kSets], x1[kSets], x2[kSets], x3[kSets];
  for (int v = 0; v < kSets; ++v) {
    x0[v] = _mm256_set1_epi32(static_cast<int>(counter[0]));
    x1[v] = _mm256_load_si256(reinterpret_cast<const __m256i*>(low + 8 * v));
    x2[v] = _mm256_load_si256(reinterpret_cast<const __m256i*>(high + 8 * v));
    x3[v] = _mm256_set1_epi32(static_cast<int>(counter[3]));
  }
  const __m256i m0 = _mm256_set1_epi32(static_cast<int>(PHILOX_M4x32_0));
  const __m256i m1 = _mm256_set1_epi32(static_cast<int>(PHILOX_M4x32_1));
  std::uint32_t k0 = key[0], k1 = key[1];
  for (int round = 0; round < 10; ++round) {
    const __m256i key0 = _mm256_set1_epi32(static_cast<int>(k0));
    const __m256i key1 = _mm256_set1_epi32(static_cast<int>(k1));
    for (int v = 0; v < kSets; ++v) {
      const __m256i even0 = _mm256_mul_epu32(x0[v], m0);
      const __m256i odd0 = _mm256_mul_epu32(_mm256_srli_epi64(x0[v], 32), m0);
      const __m256i even1 = _mm256_mul_epu32(x2[v], m1);
      const __m256i odd1 = _mm256_mul_epu32(_mm256_srli_epi64(x2[v], 32), m1);
      const __m256i lo0 = _mm256_blend_epi32(even0, _mm256_slli_epi64(odd0, 32), 0xAA);
      const __m256i hi0 = _mm256_blend_epi32(_mm256_srli_epi64(even0, 32), odd0, 0xAA);
      const __m256i lo1 = _mm256_blend_epi32(even1, _mm256_slli_epi64(odd1, 32), 0xAA);
      const __m256i hi1 = _mm256_blend_epi32(_mm256_srli_epi64(even1, 32), odd1, 0xAA);
      x0[v] = _mm256_xor_si256(_mm256_xor_si256(hi1, x1[v]), key0);
      x1[v] = lo1;
      x2[v] = _mm256_xor_si256(_mm256_xor_si256(hi0, x3[v]), key1);
      x3[v] = lo0;
    }
    k0 += PHILOX_W32_0;
    k1 += PHILOX_W32_1;
  }
  // Transpose word-major lanes into block-major order.
  for (int v = 0; v < kSets; ++v) {
    const __m256i t0 = _mm256_unpacklo_epi32(x0[v], x1[v]),
                  t1 = _mm256_unpackhi_epi32(x0[v], x1[v]);
    const __m256i t2 = _mm256_unpacklo_epi32(x2[v], x3[v]),
                  t3 = _mm256_unpackhi_epi32(x2[v], x3[v]);
    const __m256i u0 = _mm256_unpacklo_epi64(t0, t2), u1 = _mm256_unpackhi_epi64(t0, t2);
    const __m256i u2 = _mm256_unpacklo_epi64(t1, t3), u3 = _mm256_unpackhi_epi64(t1, t3);
    auto* o = reinterpret_cast<__m256i*>(out + 32 * v);
    _mm256_storeu_si256(o + 0, _mm256_permute2x128_si256(u0, u1, 0x20));
    _mm256_storeu_si256(o + 1, _mm256_permute2x128_si256(u2, u3, 0x20));
    _mm256_storeu_si256(o + 2, _mm256_permute2x128_si256(u0, u1, 0x31));
    _mm256_storeu_si256(o + 3, _mm256_permute2x128_si256(u2, u3, 0x31));
  }
}

// PhiloxBlocks with AVX-512: as PhiloxBlocksAvx2 with 16 blocks per vector, two sets of 16 (the
// batch); the transpose to block-major order works on 128-bit lanes (one block each).
__attribute__((target("avx512f"))) void PhiloxBlocksAvx512(
    const std::array<std::uint32_t, 4>& counter, const std::array<std::uint32_t, 2>& key,
    std::uint32_t* out) {
  constexpr int kSets = kPhiloxBatchBlocks / 16;
  alignas(64) std::uint32_t low[kPhiloxBatchBlocks], high[kPhiloxBatchBlocks];
  const std::uint64_t base = (static_cast<std::uint64_t>(counter[2]) << 32) | counter[1];
  for (std::size_t b = 0; b < kPhiloxBatchBlocks; ++b) {
    low[b] = static_cast<std::uint32_t>(base + b);
    high[b] = static_cast<std::uint32_t>((base + b) >> 32);
  }
  __m512i x0[kSets], x1[kSets], x2[kSets], x3[kSets];
  for (int v = 0; v < kSets; ++v) {
    x0[v] = _mm512_set1_epi32(static_cast<int>(counter[0]));
    x1[v] = _mm512_load_si512(low + 16 * v);
    x2[v] = _mm512_load_si512(high + 16 * v);
    x3[v] = _mm512_set1_epi32(static_cast<int>(counter[3]));
  }
  const __m512i m0 = _mm512_set1_epi32(static_cast<int>(PHILOX_M4x32_0));
  const __m512i m1 = _mm512_set1_epi32(static_cast<int>(PHILOX_M4x32_1));
  constexpr __mmask16 kOdd = 0xAAAA;
  std::uint32_t k0 = key[0], k1 = key[1];
  for (int round = 0; round < 10; ++round) {
    const __m512i key0 = _mm512_set1_epi32(static_cast<int>(k0));
    const __m512i key1 = _mm512_set1_epi32(static_cast<int>(k1));
    for (int v = 0; v < kSets; ++v) {
      const __m512i even0 = _mm512_mul_epu32(x0[v], m0);
      const __m512i odd0 = _mm512_mul_epu32(_mm512_srli_epi64(x0[v], 32), m0);
      const __m512i even1 = _mm512_mul_epu32(x2[v], m1);
      const __m512i odd1 = _mm512_mul_epu32(_mm512_srli_epi64(x2[v], 32), m1);
      const __m512i lo0 = _mm512_mask_blend_epi32(kOdd, even0, _mm512_slli_epi64(odd0, 32));
      const __m512i hi0 = _mm512_mask_blend_epi32(kOdd, _mm512_srli_epi64(even0, 32), odd0);
      const __m512i lo1 = _mm512_mask_blend_epi32(kOdd, even1, _mm512_slli_epi64(odd1, 32));
      const __m512i hi1 = _mm512_mask_blend_epi32(kOdd, _mm512_srli_epi64(even1, 32), odd1);
      x0[v] = _mm512_xor_si512(_mm512_xor_si512(hi1, x1[v]), key0);
      x1[v] = lo1;
      x2[v] = _mm512_xor_si512(_mm512_xor_si512(hi0, x3[v]), key1);
      x3[v] = lo0;
    }
    k0 += PHILOX_W32_0;
    k1 += PHILOX_W32_1;
  }
  for (int v = 0; v < kSets; ++v) {
    // In each 128-bit lane L (blocks 4L .. 4L+3), u_k holds block 4L + k.
    const __m512i t0 = _mm512_unpacklo_epi32(x0[v], x1[v]),
                  t1 = _mm512_unpackhi_epi32(x0[v], x1[v]);
    const __m512i t2 = _mm512_unpacklo_epi32(x2[v], x3[v]),
                  t3 = _mm512_unpackhi_epi32(x2[v], x3[v]);
    const __m512i u0 = _mm512_unpacklo_epi64(t0, t2), u1 = _mm512_unpackhi_epi64(t0, t2);
    const __m512i u2 = _mm512_unpacklo_epi64(t1, t3), u3 = _mm512_unpackhi_epi64(t1, t3);
    // Lanes (u0.L, u0.L+1, u1.L, u1.L+1) for L = 0 and 2, likewise u2 and u3; then blocks 4L ..
    // 4L+3 are (u0.L, u1.L, u2.L, u3.L).
    const __m512i a01 = _mm512_shuffle_i32x4(u0, u1, 0x44),
                  b01 = _mm512_shuffle_i32x4(u0, u1, 0xEE);
    const __m512i a23 = _mm512_shuffle_i32x4(u2, u3, 0x44),
                  b23 = _mm512_shuffle_i32x4(u2, u3, 0xEE);
    std::uint32_t* o = out + 64 * v;
    _mm512_storeu_si512(o + 0, _mm512_shuffle_i32x4(a01, a23, 0x88));
    _mm512_storeu_si512(o + 16, _mm512_shuffle_i32x4(a01, a23, 0xDD));
    _mm512_storeu_si512(o + 32, _mm512_shuffle_i32x4(b01, b23, 0x88));
    _mm512_storeu_si512(o + 48, _mm512_shuffle_i32x4(b01, b23, 0xDD));
  }
}
#endif

}  // namespace

bool PhiloxPathSupported(PhiloxPath path) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (path == PhiloxPath::kAvx2) return __builtin_cpu_supports("avx2");
  if (path == PhiloxPath::kAvx512) return __builtin_cpu_supports("avx512f");
#endif
  return path == PhiloxPath::kPortable || path == PhiloxPath::kWidest;
}

void PhiloxBlocks(const std::array<std::uint32_t, 4>& counter,
                  const std::array<std::uint32_t, 2>& key, std::uint32_t* out, PhiloxPath path) {
  static_assert(kPhiloxBatchBlocks % 16 == 0, "the vector paths compute sets of 16 blocks");
#if defined(__x86_64__) && defined(__GNUC__)
  const bool widest = path == PhiloxPath::kWidest;
  if ((widest || path == PhiloxPath::kAvx512) && __builtin_cpu_supports("avx512f")) {
    PhiloxBlocksAvx512(counter, key, out);
    return;
  }
  if ((widest || path == PhiloxPath::kAvx2) && __builtin_cpu_supports("avx2")) {
    const std::uint64_t base = (static_cast<std::uint64_t>(counter[2]) << 32) | counter[1];
    for (std::size_t b = 0; b < kPhiloxBatchBlocks; b += 16) {
      PhiloxBlocksAvx2(counter, base + b, key, out + 4 * b);
    }
    return;
  }
#endif
  (void)path;
  PhiloxBlocksScalar(counter, key, out);
}

void PhiloxRandom::AppendBatch() {
  PhiloxBlocks(counter_, key_, buffer_.data() + end_);
  const std::uint64_t next =
      ((static_cast<std::uint64_t>(counter_[2]) << 32) | counter_[1]) + kPhiloxBatchBlocks;
  counter_[1] = static_cast<std::uint32_t>(next);
  counter_[2] = static_cast<std::uint32_t>(next >> 32);
  end_ += kBatchWords;
}

void PhiloxRandom::Refill() {
  used_ = end_ = 0;
  AppendBatch();
}

void PhiloxRandom::Extend(std::size_t count) {
  const std::size_t batches = (count - (end_ - used_) + kBatchWords - 1) / kBatchWords;
  if (end_ + batches * kBatchWords > buffer_.size()) {
    // No room after the undrawn words: move them to the front, and size the buffer for
    // kReserveSpan reservations of this size, so that a run of reservations moves its undrawn
    // words once in kReserveSpan − 1 of them at most instead of at every reservation.
    std::copy(buffer_.begin() + used_, buffer_.begin() + end_, buffer_.begin());
    end_ -= used_;
    used_ = 0;
    const std::size_t words = kReserveSpan * (count + kBatchWords);  // ≥ end_ + batches' words
    if (buffer_.size() < words) buffer_.resize(words);
  }
  for (std::size_t b = 0; b < batches; ++b) AppendBatch();
}

void GaOptions::CheckOptions(const OptionContext& where) const {
  if (max_mating_iterations < 1) where.Fail("max_mating_iterations", "must be >= 1");
  if (max_nodes_per_job < 1) where.Fail("max_nodes_per_job", "must be >= 1");
}

namespace {

bool Dominates(const GaObjectives& a, const GaObjectives& b) {
  return a[0] <= b[0] && a[1] <= b[1] && (a[0] < b[0] || a[1] < b[1]);
}

}  // namespace

void SortFronts(std::span<const GaObjectives> values, FrontSorting& sorting,
                std::span<const int> sorted_prefix) {
  // Two objectives: sweep in lexicographic order; a point joins the first front whose last member
  // (the one with the smallest second objective so far) does not dominate it.
  const int n = static_cast<int>(values.size());
  std::vector<int>& order = sorting.order;
  order.resize(n);
  const bool has_nan = std::any_of(values.begin(), values.end(), [](const GaObjectives& v) {
    return std::isnan(v[0]) || std::isnan(v[1]);
  });
  sorting.has_nan = has_nan;
  if (has_nan) {  // no strict weak order: keep std::stable_sort's own answer
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return values[a] < values[b]; });
  } else {  // a total order with the index as tie-break: the stable order, without a buffer
    using Key = FrontSorting::Key;
    auto less = [](const Key& a, const Key& b) {
      if (a.f0 != b.f0) return a.f0 < b.f0;
      if (a.f1 != b.f1) return a.f1 < b.f1;
      return a.index < b.index;
    };
    // A total order has one sorted sequence: merging the sorted prefix with the sorted rest
    // gives it.
    const int k = static_cast<int>(sorted_prefix.size());
    ADAPTSIM_CHECK(k <= n);
    std::vector<Key>& keys = sorting.keys;
    keys.resize(n);
    for (int i = 0; i < k; ++i) {
      const int index = sorted_prefix[i];
      keys[i] = {values[index][0], values[index][1], index};
    }
    for (int i = k; i < n; ++i) keys[i] = {values[i][0], values[i][1], i};
    std::sort(keys.begin() + k, keys.end(), less);
    if (k > 0) {
      std::vector<Key>& merged = sorting.merged;
      merged.resize(n);
      std::merge(keys.begin(), keys.begin() + k, keys.begin() + k, keys.end(), merged.begin(),
                 less);
      keys.swap(merged);
    }
    for (int i = 0; i < n; ++i) order[i] = keys[i].index;
  }
  std::vector<int>& rank = sorting.rank;
  std::vector<int>& last = sorting.last;  // per front: its member swept last
  rank.resize(n);
  last.clear();
  for (int index : order) {
    std::size_t k = 0;
    while (k < last.size() && Dominates(values[last[k]], values[index])) ++k;
    if (k == last.size()) last.push_back(index);
    last[k] = index;
    rank[index] = static_cast<int>(k);
  }
  // Fronts in index order (a counting sort by front).
  std::vector<int>& starts = sorting.starts;
  starts.assign(last.size() + 1, 0);
  for (int i = 0; i < n; ++i) ++starts[rank[i] + 1];
  for (std::size_t k = 1; k < starts.size(); ++k) starts[k] += starts[k - 1];
  std::vector<int>& members = sorting.members;
  members.resize(n);
  std::vector<int>& next = sorting.last;  // reused: per front, its next free position
  next.assign(starts.begin(), starts.end() - 1);
  for (int i = 0; i < n; ++i) members[next[rank[i]]++] = i;
}

std::vector<std::vector<int>> NonDominatedFronts(const std::vector<GaObjectives>& values) {
  FrontSorting sorting;
  SortFronts(values, sorting);
  std::vector<std::vector<int>> fronts;
  for (std::size_t k = 0; k + 1 < sorting.starts.size(); ++k) {
    fronts.emplace_back(sorting.members.begin() + sorting.starts[k],
                        sorting.members.begin() + sorting.starts[k + 1]);
  }
  return fronts;
}

void CrowdingDistances(std::span<const GaObjectives> values, CrowdingScratch& scratch,
                       std::vector<double>& crowding) {
  constexpr double kInfinity = 1e14;
  const int n = static_cast<int>(values.size());
  if (n <= 2) {
    crowding.assign(n, kInfinity);
    return;
  }
  crowding.assign(n, 0.0);
  const bool has_nan = std::any_of(values.begin(), values.end(), [](const GaObjectives& v) {
    return std::isnan(v[0]) || std::isnan(v[1]);
  });
  // The first of each set of equal points, in index order.
  std::vector<int>& unique = scratch.unique;
  unique.clear();
  if (has_nan) {  // NaN equals nothing: compare with each kept point
    for (int i = 0; i < n; ++i) {
      if (std::none_of(unique.begin(), unique.end(), [&](int u) { return values[u] == values[i]; }))
        unique.push_back(i);
    }
  } else {  // equal points are adjacent in lexicographic order, the first one first
    std::vector<int>& order = scratch.sorted;
    order.resize(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
      if (values[a] != values[b]) return values[a] < values[b];
      return a < b;
    });
    std::vector<char>& first = scratch.first;
    first.assign(n, 0);
    first[order[0]] = 1;
    for (int i = 1; i < n; ++i) first[order[i]] = values[order[i]] != values[order[i - 1]];
    for (int i = 0; i < n; ++i)
      if (first[i]) unique.push_back(i);
  }
  std::vector<int>& sorted = scratch.sorted;
  for (int m = 0; m < 2; ++m) {
    sorted.assign(unique.begin(), unique.end());
    if (has_nan) {
      std::stable_sort(sorted.begin(), sorted.end(),
                       [&](int a, int b) { return values[a][m] < values[b][m]; });
    } else {  // a total order with the index as tie-break: the stable order, without a buffer
      std::sort(sorted.begin(), sorted.end(), [&](int a, int b) {
        return values[a][m] < values[b][m] || (values[a][m] == values[b][m] && a < b);
      });
    }
    const double norm = values[sorted.back()][m] - values[sorted.front()][m];
    for (std::size_t i = 0; i < sorted.size(); ++i) {
      if (norm == 0) continue;  // NaN distances count 0
      const double to_last = i == 0 ? std::numeric_limits<double>::infinity()
                                    : (values[sorted[i]][m] - values[sorted[i - 1]][m]) / norm;
      const double to_next = i + 1 == sorted.size()
                                 ? std::numeric_limits<double>::infinity()
                                 : (values[sorted[i + 1]][m] - values[sorted[i]][m]) / norm;
      crowding[sorted[i]] += (to_last + to_next) / 2.0;
    }
  }
  for (double& c : crowding)
    if (std::isinf(c)) c = kInfinity;
}

void FrontCrowdingDistances(std::span<const GaObjectives> values,
                            std::span<const int> lexicographic, std::vector<int>& unique,
                            std::vector<double>& crowding) {
  constexpr double kInfinity = 1e14;
  const int n = static_cast<int>(values.size());
  if (n <= 2) {
    crowding.assign(n, kInfinity);
    return;
  }
  crowding.assign(n, 0.0);
  // The first of each run of equal points is the one of lowest index, as CrowdingDistances
  // keeps; the unique points in lexicographic order are sorted by f0 (no ties in a front) and,
  // reversed, by f1.
  unique.clear();
  unique.push_back(lexicographic[0]);
  for (int i = 1; i < n; ++i) {
    if (values[lexicographic[i]] != values[lexicographic[i - 1]]) {
      unique.push_back(lexicographic[i]);
    }
  }
  const std::size_t u = unique.size();
  const double inf = std::numeric_limits<double>::infinity();
  // Objective m over the unique points in ascending order, `at(i)` the i-th of them: the same
  // expressions as CrowdingDistances, in the same order per point.
  auto add = [&](int m, auto at) {
    const double norm = values[at(u - 1)][m] - values[at(0)][m];
    if (norm == 0) return;
    for (std::size_t i = 0; i < u; ++i) {
      const double to_last = i == 0 ? inf : (values[at(i)][m] - values[at(i - 1)][m]) / norm;
      const double to_next = i + 1 == u ? inf : (values[at(i + 1)][m] - values[at(i)][m]) / norm;
      crowding[at(i)] += (to_last + to_next) / 2.0;
    }
  };
  add(0, [&](std::size_t i) { return unique[i]; });
  add(1, [&](std::size_t i) { return unique[u - 1 - i]; });
  for (double& c : crowding)
    if (std::isinf(c)) c = kInfinity;
}

std::vector<double> CrowdingDistance(const std::vector<GaObjectives>& values) {
  CrowdingScratch scratch;
  std::vector<double> crowding;
  CrowdingDistances(values, scratch, crowding);
  return crowding;
}

namespace {

// A GA run stores its states with one byte an entry (Narrow) when every count it can hold fits
// (the node capacities, the base state's and the initial states' entries are ≤ 127: crossover,
// mutation and repair never exceed them), else with an int an entry: the same values, a quarter
// of the memory traffic on large states. The public operators (MutateState, RepairState) work
// on ints.
using Narrow = std::int8_t;

// Copies and fills of rows and states, inline: blocks of a fixed size become vector moves, where
// std::copy_n and std::fill_n of a run-time length call memmove and memset, which cost more than
// the work for short rows (long runs call them). The last block may overlap the one before it
// (same values).
constexpr std::size_t kLongCopyBytes = 4096;
template <typename Entry>
[[gnu::always_inline]] inline void CopyEntries(const Entry* __restrict source, std::size_t count,
                                               Entry* __restrict target) {
  constexpr std::size_t kWide = 32 / sizeof(Entry), kHalf = 16 / sizeof(Entry);
  if (count * sizeof(Entry) >= kLongCopyBytes) {
    std::memcpy(target, source, count * sizeof(Entry));
  } else if (count >= kWide) {
    for (std::size_t i = 0; i + kWide <= count; i += kWide) std::memcpy(target + i, source + i, 32);
    std::memcpy(target + count - kWide, source + count - kWide, 32);
  } else if (count >= kHalf) {
    std::memcpy(target, source, 16);
    std::memcpy(target + count - kHalf, source + count - kHalf, 16);
  } else {
    for (std::size_t i = 0; i < count; ++i) target[i] = source[i];
  }
}
template <typename Entry>
[[gnu::always_inline]] inline void ZeroEntries(Entry* target, std::size_t count) {
  constexpr std::size_t kWide = 32 / sizeof(Entry), kHalf = 16 / sizeof(Entry);
  constexpr Entry kZeros[kWide] = {};
  if (count >= kWide) {
    for (std::size_t i = 0; i + kWide <= count; i += kWide) std::memcpy(target + i, kZeros, 32);
    std::memcpy(target + count - kWide, kZeros, 32);
  } else if (count >= kHalf) {
    std::memcpy(target, kZeros, 16);
    std::memcpy(target + count - kHalf, kZeros, 16);
  } else {
    for (std::size_t i = 0; i < count; ++i) target[i] = 0;
  }
}
[[gnu::always_inline]] inline void CopyInts(const int* __restrict source, std::size_t count,
                                            int* __restrict target) {
  CopyEntries(source, count, target);
}
[[gnu::always_inline]] inline void ZeroInts(int* target, std::size_t count) {
  ZeroEntries(target, count);
}

// Entries are read in blocks of kReplicaBlock: a block of counts (entries ≥ 0) without replicas
// has OR 0, tested with vector loads (a block of ints spans four cache lines, read before one
// branch).
constexpr int kReplicaBlock = 64;
template <typename Entry>
[[gnu::always_inline]] inline bool BlockHasReplicas(const Entry* block) {
  using Lanes = long long __attribute__((vector_size(32)));
  Lanes any{};
  for (std::size_t k = 0; k < kReplicaBlock * sizeof(Entry); k += sizeof(Lanes)) {
    Lanes v;
    std::memcpy(&v, reinterpret_cast<const char*>(block) + k, sizeof v);
    any |= v;
  }
  return (any[0] | any[1] | any[2] | any[3]) != 0;
}

// Bit k set: entry[k] > 0, for k < count ≤ 64 (four ints or 16 narrow entries per SSE2 compare
// where there is SSE2, the x86-64 baseline).
template <typename Entry>
[[gnu::always_inline]] inline std::uint64_t NonzeroMask(const Entry* __restrict entry, int count) {
  static_assert(std::is_same_v<Entry, int> || std::is_same_v<Entry, Narrow>);
  std::uint64_t mask = 0;
  int k = 0;
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  if constexpr (std::is_same_v<Entry, int>) {
    for (; k + 4 <= count; k += 4) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(entry + k));
      const int bits = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpgt_epi32(v, zero)));
      mask |= static_cast<std::uint64_t>(bits) << k;
    }
  } else {
    for (; k + 16 <= count; k += 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(entry + k));
      const int bits = _mm_movemask_epi8(_mm_cmpgt_epi8(v, zero));
      mask |= static_cast<std::uint64_t>(static_cast<std::uint16_t>(bits)) << k;
    }
  }
#endif
  for (; k < count; ++k) mask |= static_cast<std::uint64_t>(entry[k] > 0) << k;
  return mask;
}

// Calls visit(n, row[n]) for each entry of row[0 .. N) above 0, n ascending, for rows of counts:
// blocks of kReplicaBlock entries without replicas are skipped, and the others are visited at
// their entries above 0 only (NonzeroMask), so a sparse row costs a vectorised read.
template <typename Entry, typename Visit>
[[gnu::always_inline]] inline void ForEachReplica(const Entry* __restrict row, int N, Visit visit) {
  for (int n = 0; n < N; n += kReplicaBlock) {
    const int width = std::min(kReplicaBlock, N - n);
    if (width == kReplicaBlock && !BlockHasReplicas(row + n)) continue;
    for (std::uint64_t mask = NonzeroMask(row + n, width); mask != 0; mask &= mask - 1) {
      const int m = n + std::countr_zero(mask);
      visit(m, static_cast<int>(row[m]));
    }
  }
}

// Lists the nodes of row[0 .. N) with an entry above 0 in listed[], ascending, for a row of counts
// (entries ≥ 0), and returns their number; adds the row's replicas to `total` (ForEachReplica).
template <typename Entry>
[[gnu::always_inline]] inline int ListReplicas(const Entry* __restrict row, int N,
                                               int* __restrict listed, int& total) {
  int count = 0;
  ForEachReplica(row, N, [&](int n, int v) {
    listed[count++] = n;
    total += v;
  });
  return count;
}

// The hash of a state (StateHash; any hash would do: it only places states in the duplicate set,
// whose membership is decided by equality): from the state's size, one multiply-xor step per
// entry above 0, in index order, then a final mix.
constexpr std::uint64_t kHashMultiplier = 0x9E3779B97F4A7C15ull;
[[gnu::always_inline]] inline std::uint64_t HashStep(std::uint64_t h, std::size_t index,
                                                     int value) {
  return (h ^ (static_cast<std::uint64_t>(index) << 32 | static_cast<std::uint32_t>(value))) *
         kHashMultiplier;
}
[[gnu::always_inline]] inline std::uint64_t HashFinish(std::uint64_t h) {
  return (h ^ (h >> 32)) * kHashMultiplier;
}

// Per-run constants and buffers of the mutation and the repair (no allocation per offspring).
struct GaScratch {
  explicit GaScratch(const GaProblem& problem)
      : distributed_holders(problem.num_nodes),
        used(problem.num_nodes),
        order(problem.num_nodes),
        values(problem.num_nodes),
        replicas(problem.num_nodes),
        column_used(problem.num_nodes),
        column_holders(problem.num_nodes),
        holder_start(problem.num_nodes + 1),
        holder_masks(problem.num_nodes),
        active(problem.num_nodes),
        base_start(problem.num_jobs + 1),
        one_in_ten(PhiloxRandom::Threshold(0.1)) {
    // Mutation step 3: p = p1 + p2 − p1·p2 with p1 = 1/J and p2 = 1/(jobs on the node) for a job
    // on it, else 0 (pollux.py:366-372): one threshold per number of holders, computed once.
    const int J = problem.num_jobs;
    const double p1 = 1.0 / J;
    absent = PhiloxRandom::Threshold(p1 + 0.0 - p1 * 0.0);
    present.resize(static_cast<std::size_t>(J) + 1);
    for (int h = 1; h <= J; ++h) {
      const double p2 = 1.0 / h;
      present[h] = PhiloxRandom::Threshold(p1 + p2 - p1 * p2);
    }
    constexpr std::uint64_t kAlways = std::uint64_t{1} << 32;  // every word is below it
    every_entry_hits = J == 1 && absent == kAlways && present[1] == kAlways;
    // The base state's entries above 0, row by row, nodes ascending.
    const int N = problem.num_nodes;
    for (int j = 0; j < J; ++j) {
      base_start[j] = static_cast<int>(base_nodes.size());
      for (int n = 0; n < N; ++n) {
        const int v = problem.base_state[static_cast<std::size_t>(j) * N + n];
        if (v > 0) base_nodes.push_back(n), base_values.push_back(v);
      }
    }
    base_start[J] = static_cast<int>(base_nodes.size());
  }
  std::vector<int> distributed_holders;  ///< per node: distributed jobs on it so far (repair 1)
  std::vector<int> used;                 ///< per node: replicas placed so far (repair 4)
  std::vector<int> order;                ///< per node: random node order (repair 2-3)
  std::vector<int> values;               ///< per node: a row before repair 2-3
  std::vector<int> replicas;             ///< the nodes of a row's replicas, ascending (repair)
  std::vector<int> column_used;          ///< per node: replicas before mutation step 3
  std::vector<int> column_holders;       ///< per node: jobs on it before mutation step 3
  /// Many jobs: the jobs on node n before mutation step 3, ascending, are
  /// holder_jobs[holder_start[n] .. holder_start[n + 1]); pair_* list the (job, node) pairs.
  std::vector<int> holder_start, holder_jobs, pair_nodes, pair_jobs;
  std::vector<std::uint64_t> holder_masks;  ///< per node: bit j, job j on it (≤ 64 jobs)
  std::vector<int> active;                  ///< per node: some replica on it (repair summary)
  /// Row j of the base state has replicas at base_nodes[base_start[j] .. base_start[j + 1]),
  /// ascending, base_values the replicas there.
  std::vector<int> base_start, base_nodes, base_values;
  std::vector<int> candidates, parents;  ///< tournament selection
  std::uint64_t one_in_ten;              ///< threshold of probability 0.1 (mutation 1-2)
  std::uint64_t absent = 0;              ///< threshold of p1 (mutation 3, job not on the node)
  std::vector<std::uint64_t> present;    ///< by holders: threshold of p1 + p2 − p1·p2
  bool every_entry_hits = false;         ///< one job: p1 = 1, every entry of a free node hits
};

// One pass over the rows does the five steps of pollux.py:376-420 in the order stated in
// pollux_ga.hpp: every step on row j reads only row j and per-node sums over the earlier rows
// (distributed holders as they were before step 1 zeroed anything, replicas kept by step 4), and
// only step 2-3 draws, in row order, so the pass equals the five passes over all rows one after
// another, draw for draw. Each row is first listed by its entries above 0 (ListReplicas): steps
// 1, 4 and 5 change nothing at an entry 0 (steps 1 and 5 set entries to 0, step 4 keeps
// min(0, free) = 0), and step 2-3 keeps a subset of the row's replicas, so only the listed nodes
// are visited.
// Returns the state's StateHash (its entries above 0 are the listed ones left above 0, met in
// index order) and writes its summary (J rows) to `rows`, its number of nodes with a replica to
// `active_nodes`.
template <typename Entry>
[[gnu::always_inline]] inline std::uint64_t RepairEntries(
    const GaProblem& problem, const GaOptions& options, PhiloxRandom& random, Entry* state,
    GaScratch& scratch, GaRowSummary* __restrict rows, int& active_nodes) {
  const int J = problem.num_jobs, N = problem.num_nodes;
  // Distinct buffers: the row loops below vectorise without run-time overlap checks.
  int* __restrict distributed_holders = scratch.distributed_holders.data();
  int* __restrict used = scratch.used.data();
  int* __restrict listed = scratch.replicas.data();
  const int* __restrict capacity = problem.node_capacity.data();
  int* __restrict active = scratch.active.data();
  const int* __restrict base_start = scratch.base_start.data();
  const int* __restrict base_nodes = scratch.base_nodes.data();
  const int* __restrict base_values = scratch.base_values.data();
  std::uint64_t hash = static_cast<std::uint64_t>(J) * N;
  ZeroInts(distributed_holders, N);
  ZeroInts(used, N);
  ZeroInts(active, N);
  active_nodes = 0;
  bool crowded = false;  // some node holds two distributed jobs (step 1 then clears it)
  for (int j = 0; j < J; ++j) {
    Entry* __restrict row = state + static_cast<std::size_t>(j) * N;
    int total = 0;
    int nodes = ListReplicas(row, N, listed, total);
    if (nodes == 0) {  // no step changes a row without replicas
      rows[j] = {0, 0, base_start[j + 1] > base_start[j]};
      continue;
    }
    // (1) At most one distributed job per node: once a node holds a second distributed job, every
    // later row loses that node (pollux.py:385-390). A node's count changes only at the rows
    // that use it, so the largest count over the row's nodes tells whether one reached 2.
    if (options.interference_avoidance) {
      if (nodes > 1) {
        int most = 0;
        for (int i = 0; i < nodes; ++i) most = std::max(most, ++distributed_holders[listed[i]]);
        crowded = crowded || most > 1;
      }
      if (crowded) {
        total = 0;
        int kept = 0;
        for (int i = 0; i < nodes; ++i) {
          const int n = listed[i];
          if (distributed_holders[n] > 1) {
            row[n] = 0;
          } else {
            total += row[n];
            listed[kept++] = n;
          }
        }
        nodes = kept;
      }
    }
    // (2)-(3) Max replicas and max nodes per job, over a random node order (pollux.py:391-403).
    // Entries are ≥ 0, so once the replicas or the nodes are used up every later take is 0.
    const int max_replicas = problem.max_replicas[j];
    if (total > max_replicas || nodes > options.max_nodes_per_job) {
      int* order = scratch.order.data();
      int* values = scratch.values.data();
      std::iota(order, order + N, 0);
      random.Shuffle({order, static_cast<std::size_t>(N)});
      if constexpr (std::is_same_v<Entry, int>) {
        CopyInts(row, N, values);
      } else {
        for (int n = 0; n < N; ++n) values[n] = row[n];
      }
      ZeroEntries(row, N);
      int kept = 0, kept_nodes = 0;
      for (int i = 0; i < N && kept < max_replicas && kept_nodes < options.max_nodes_per_job; ++i) {
        const int take = std::min(values[order[i]], max_replicas - kept);
        kept += take;
        kept_nodes += take > 0;
        row[order[i]] = static_cast<Entry>(take);
      }
      int still = 0;  // the kept replicas are on listed nodes
      for (int i = 0; i < nodes; ++i) {
        if (row[listed[i]] > 0) listed[still++] = listed[i];
      }
      nodes = still;
    }
    // (4) Node capacity, earlier rows first (pollux.py:404-412).
    total = 0;
    for (int i = 0; i < nodes; ++i) {
      const int n = listed[i];
      const int take = std::min(static_cast<int>(row[n]), std::max(capacity[n] - used[n], 0));
      used[n] += take;
      row[n] = static_cast<Entry>(take);
      total += take;
    }
    // (5) min_replicas (pollux.py:416-419); a bound ≤ 0 never applies.
    if (total < problem.min_replicas[j]) {
      for (int i = 0; i < nodes; ++i) row[listed[i]] = 0;
      total = 0;
    }
    // The row's entries above 0 (listed, in node order): the hash, the summary, and whether they
    // are the base row's (the same nodes, ascending, with the same values).
    const int base_first = base_start[j], base_count = base_start[j + 1] - base_first;
    int kept = 0;
    bool changed = false;
    for (int i = 0; i < nodes; ++i) {
      const int n = listed[i];
      const int v = row[n];
      if (v <= 0) continue;
      hash = HashStep(hash, static_cast<std::size_t>(j) * N + n, v);
      active_nodes += active[n] == 0;
      active[n] = 1;
      changed = changed || kept >= base_count || base_nodes[base_first + kept] != n ||
                base_values[base_first + kept] != v;
      ++kept;
    }
    rows[j] = {kept, total, changed || kept != base_count};
  }
  return HashFinish(hash);
}

// RepairEntries compiled for each entry type and instruction set.
__attribute__((target_clones("avx2", "default"))) std::uint64_t Repair(
    const GaProblem& problem, const GaOptions& options, PhiloxRandom& random, int* state,
    GaScratch& scratch, GaRowSummary* __restrict rows, int& active_nodes) {
  return RepairEntries(problem, options, random, state, scratch, rows, active_nodes);
}
__attribute__((target_clones("avx2", "default"))) std::uint64_t Repair(
    const GaProblem& problem, const GaOptions& options, PhiloxRandom& random, Narrow* state,
    GaScratch& scratch, GaRowSummary* __restrict rows, int& active_nodes) {
  return RepairEntries(problem, options, random, state, scratch, rows, active_nodes);
}

// The contract the operators rely on (pollux_ga.hpp): entries and replica caps are counts.
void CheckCounts(const GaProblem& problem, const GaState& state) {
  const std::size_t size = static_cast<std::size_t>(problem.num_jobs) * problem.num_nodes;
  ADAPTSIM_CHECK(state.size() == size && problem.base_state.size() == size);
  ADAPTSIM_CHECK(problem.max_replicas.size() == static_cast<std::size_t>(problem.num_jobs));
  auto negative = [](int v) { return v < 0; };
  ADAPTSIM_CHECK(std::none_of(state.begin(), state.end(), negative));
  ADAPTSIM_CHECK(std::none_of(problem.base_state.begin(), problem.base_state.end(), negative));
  ADAPTSIM_CHECK(std::none_of(problem.max_replicas.begin(), problem.max_replicas.end(), negative));
}

}  // namespace

void RepairState(const GaProblem& problem, const GaOptions& options, PhiloxRandom& random,
                 GaState& state) {
  CheckCounts(problem, state);
  GaScratch scratch(problem);
  std::vector<GaRowSummary> rows(problem.num_jobs);
  int active_nodes = 0;
  Repair(problem, options, random, state.data(), scratch, rows.data(), active_nodes);
}

namespace {

// Up to this many jobs, step 3 of the mutation tests a node's entries without branches; above it
// it skips the jobs without replicas on a node from one hit to the next by scanning the words
// alone, with the jobs on the node in a bit mask (up to kMaskedJobs, one bit per job in a word)
// or, on many nodes, a list.
constexpr int kBranchFreeJobs = 16;
constexpr int kMaskedJobs = 64;
constexpr int kListedRowNodes = 64;  // the many-jobs list: columns of at least this many nodes
constexpr int kScanWords = 8;        // FirstBelow reads words in blocks of 8

// The first t in [0, count) with words[t] < threshold, else count; reads words[0 .. count rounded
// up to a multiple of kScanWords). Vector extensions: each clone of the caller compiles it for
// its own target.
inline int FirstBelow(const std::uint32_t* words, int count, std::uint32_t threshold) {
  using Words = std::uint32_t __attribute__((vector_size(4 * kScanWords)));
  using Lanes = std::uint64_t __attribute__((vector_size(4 * kScanWords)));
  Words limit;
  for (int k = 0; k < kScanWords; ++k) limit[k] = threshold;
  for (int t = 0; t < count; t += kScanWords) {
    Words block;
    std::memcpy(&block, words + t, sizeof block);
    const Lanes below = reinterpret_cast<Lanes>(block < limit);
    if ((below[0] | below[1] | below[2] | below[3]) == 0) continue;
    const int end = std::min(t + kScanWords, count);
    for (int k = t; k < end; ++k) {
      if (words[k] < threshold) return k;
    }
    return count;
  }
  return count;
}

// pollux.py:354-374. Draws are compared as words against PhiloxRandom::Threshold, which is the
// same test as Uniform() < p.
// Mutation step 3 on node n (free GPUs, `high` its capacity) when hits are rare: the jobs without
// replicas on the node are skipped from one hit to the next by scanning the words alone, and
// only the jobs on the node, given in ascending order by `next_holder()` (J once they are all
// given), and the hits are read. A job without replicas on the node (entry 0) hits below
// `absent` and then always grows (high ≥ 1 on a free node), to U{0..high}. Returns the words
// drawn; reads at most 2·J + kScanWords of them.
template <typename Entry, typename NextHolder>
[[gnu::always_inline]] inline std::size_t SparseTurn(const std::uint32_t* __restrict words,
                                                     Entry* __restrict column, std::size_t stride,
                                                     int J, int high, std::uint64_t absent,
                                                     std::uint64_t present,
                                                     NextHolder next_holder) {
  const std::uint32_t below = static_cast<std::uint32_t>(absent);  // p1 < 1: absent < 2³²
  std::size_t drawn = 0;
  for (int j = 0;;) {
    const int stop = next_holder();  // the next job on the node, or J
    while (j < stop) {
      const int t = FirstBelow(words + drawn, stop - j, below);
      drawn += t;
      j += t;
      if (j == stop) break;
      column[static_cast<std::size_t>(j) * stride] = static_cast<Entry>(
          (std::uint64_t{words[drawn + 1]} * static_cast<std::uint64_t>(high + 1)) >> 32);
      drawn += 2;
      ++j;
    }
    if (j == J) return drawn;
    Entry& entry = column[static_cast<std::size_t>(j) * stride];  // > 0
    const int current = entry;
    if (words[drawn++] < present && current < high) {
      entry = static_cast<Entry>(
          current + static_cast<int>((std::uint64_t{words[drawn++]} *
                                      static_cast<std::uint64_t>(high - current + 1)) >>
                                     32));
    }
    ++j;
  }
}

// pollux.py:354-374. Draws are compared as words against PhiloxRandom::Threshold, which is the
// same test as Uniform() < p.
// `state` and `base` (the base state) hold J×N entries.
template <typename Entry>
[[gnu::always_inline]] inline void MutateEntries(const GaProblem& problem, PhiloxRandom& random,
                                                 Entry* __restrict state,
                                                 const Entry* __restrict base, GaScratch& scratch) {
  const int J = problem.num_jobs, N = problem.num_nodes;
  const std::uint64_t one_in_ten = scratch.one_in_ten;
  auto row = [&](int j) { return state + static_cast<std::size_t>(j) * N; };
  // Step 1 draws J words; step 2 one word per row and N more for a row it picks. Each reads its
  // words from a reserved window (a window per row in step 2: a window for all rows would be
  // J·(1 + N) words, of which step 2 draws about a tenth).
  {
    const std::uint32_t* __restrict words = random.Reserve(static_cast<std::size_t>(J)).data();
    for (int j = 0; j < J; ++j) {
      if (words[j] < one_in_ten) {
        CopyEntries(base + static_cast<std::size_t>(j) * N, N, row(j));
      }
    }
    random.Skip(J);
  }
  for (int j = 0; j < J; ++j) {
    const std::uint32_t* __restrict words = random.Reserve(1 + static_cast<std::size_t>(N)).data();
    if (words[0] >= one_in_ten) {
      random.Skip(1);
      continue;
    }
    Entry* __restrict r = row(j);
    for (int n = 0; n < N; ++n) r[n] = words[1 + n] < one_in_ten ? Entry{0} : r[n];
    random.Skip(1 + static_cast<std::size_t>(N));
  }
  // Step 3, node by node: a node's replicas and jobs are those of its column just before its
  // turn (the earlier nodes' turns change only their own columns), and a node without a free
  // GPU has p1 = p2 = 0 and draws nothing. Each entry is read once, at its own (n, j), before it
  // is written, so it still holds its value from before this step: no copy of the state is
  // needed. An entry draws one word, and a hit below `high` one more for its new count: at most
  // 2·J words per node (and all of 2·N for one job).
  const std::uint64_t absent = scratch.absent;
  if (scratch.every_entry_hits) {  // one job, p1 = 1: each node with a free GPU draws 2 words
    // A free GPU means entry < high: the entry grows to U{entry .. high}. Which nodes draw does
    // not depend on the words, so the walk over them waits for no load.
    const std::uint32_t* __restrict words = random.Reserve(2 * static_cast<std::size_t>(N)).data();
    std::size_t drawn = 0;
    Entry* __restrict entries = state;
    for (int n = 0; n < N; ++n) {
      const int high = problem.node_capacity[n], current = entries[n];
      const int free = high - current >= 1;
      const int step = static_cast<int>(
          (std::uint64_t{words[drawn + 1]} * static_cast<std::uint64_t>(high - current + 1)) >> 32);
      entries[n] = static_cast<Entry>(current + (step & -free));
      drawn += 2 * static_cast<std::size_t>(free);
    }
    random.Skip(drawn);
    return;
  }
  // Every node's replicas and jobs, counted row by row before the first turn: a turn changes
  // only its own column, so these are the counts each column has just before its turn (a walk
  // down each column to count it misses the cache at every entry of a large state).
  int* __restrict column_used = scratch.column_used.data();
  int* __restrict column_holders = scratch.column_holders.data();
  ZeroInts(column_used, N);
  ZeroInts(column_holders, N);
  // Few jobs: every entry is tested. Up to kMaskedJobs: a bit mask of the jobs on each node.
  // More jobs on long columns (many nodes, whose states are mostly 0): the jobs on each node are
  // listed; on short ones each column is walked. Masks and lists are found row by row at the
  // entries above 0 (ForEachReplica).
  const bool masked = J > kBranchFreeJobs && J <= kMaskedJobs;
  const bool listed = J > kMaskedJobs && N >= kListedRowNodes;
  std::uint64_t* __restrict holder_masks = scratch.holder_masks.data();
  if (!masked && !listed) {  // few jobs, or many on few nodes
    for (int j = 0; j < J; ++j) {
      const Entry* __restrict r = row(j);
      for (int n = 0; n < N; ++n) {
        column_used[n] += r[n];
        column_holders[n] += r[n] > 0;
      }
    }
  } else if (masked) {
    std::fill_n(holder_masks, N, std::uint64_t{0});
    for (int j = 0; j < J; ++j) {
      ForEachReplica(row(j), N, [&](int n, int v) {
        column_used[n] += v;
        ++column_holders[n];
        holder_masks[n] |= std::uint64_t{1} << j;
      });
    }
  } else {
    // The (job, node) pairs with replicas, found in job order, are listed by node, jobs
    // ascending (a counting sort).
    std::vector<int>& nodes = scratch.pair_nodes;
    std::vector<int>& jobs = scratch.pair_jobs;
    nodes.clear();
    jobs.clear();
    auto visit = [&](int j, int n, int v) {
      column_used[n] += v;
      ++column_holders[n];
      nodes.push_back(n);
      jobs.push_back(j);
    };
    for (int j = 0; j < J; ++j) ForEachReplica(row(j), N, [&](int n, int v) { visit(j, n, v); });
    int* __restrict start = scratch.holder_start.data();
    start[0] = 0;
    for (int n = 0; n < N; ++n) start[n + 1] = start[n] + column_holders[n];
    std::vector<int>& holders = scratch.holder_jobs;
    holders.resize(jobs.size());
    for (std::size_t i = 0; i < jobs.size(); ++i) holders[start[nodes[i]]++] = jobs[i];
    for (int n = N; n > 0; --n) start[n] = start[n - 1];  // each start[n] was moved to start[n + 1]
    start[0] = 0;
  }
  for (int n = 0; n < N; ++n) {
    Entry* __restrict column = state + n;
    const int high = problem.node_capacity[n];  // max replicas of a 1-GPU job on node n
    if (high - column_used[n] < 1) continue;
    const std::uint64_t present = scratch.present[column_holders[n]];
    const std::uint32_t* __restrict words =
        random.Reserve(2 * static_cast<std::size_t>(J) + kScanWords).data();
    std::size_t drawn = 0;
    if (J <= kBranchFreeJobs) {  // few jobs: hits are frequent (p ≥ 1/J), tested without a branch
      for (int j = 0; j < J; ++j) {
        Entry& entry = column[static_cast<std::size_t>(j) * N];
        const int current = entry;
        // Integer arithmetic, not selects: the compiler keeps it without branches.
        const int hit = words[drawn] < (current > 0 ? present : absent);
        const int grows = hit & (current < high);
        const int step = static_cast<int>(
            (std::uint64_t{words[drawn + 1]} * static_cast<std::uint64_t>(high - current + 1)) >>
            32);
        entry = static_cast<Entry>(current + (step & -grows));
        drawn += 1 + static_cast<std::size_t>(grows);
      }
    } else if (masked) {  // many jobs: hits are rare; bit j of the mask: job j on the node
      std::uint64_t holder_jobs = holder_masks[n];
      drawn = SparseTurn(words, column, N, J, high, absent, present, [&] {
        if (holder_jobs == 0) return J;
        const int j = std::countr_zero(holder_jobs);
        holder_jobs &= holder_jobs - 1;
        return j;
      });
    } else if (listed) {  // many jobs and nodes: the jobs on the node are listed
      const int* holder = scratch.holder_jobs.data() + scratch.holder_start[n];
      const int* const last = scratch.holder_jobs.data() + scratch.holder_start[n + 1];
      drawn = SparseTurn(words, column, N, J, high, absent, present,
                         [&] { return holder != last ? *holder++ : J; });
    } else {  // many jobs on few nodes: hits are rare, the column is short
      for (int j = 0; j < J; ++j) {
        Entry& entry = column[static_cast<std::size_t>(j) * N];
        const int current = entry;
        if (words[drawn++] >= (current > 0 ? present : absent)) continue;
        if (current < high) {
          entry = static_cast<Entry>(
              current + static_cast<int>((std::uint64_t{words[drawn++]} *
                                          static_cast<std::uint64_t>(high - current + 1)) >>
                                         32));
        }
      }
    }
    random.Skip(drawn);
  }
}

// MutateEntries compiled for each entry type and instruction set.
__attribute__((target_clones("avx2", "default"))) void Mutate(const GaProblem& problem,
                                                              PhiloxRandom& random, int* state,
                                                              const int* base, GaScratch& scratch) {
  MutateEntries(problem, random, state, base, scratch);
}
__attribute__((target_clones("avx2", "default"))) void Mutate(const GaProblem& problem,
                                                              PhiloxRandom& random, Narrow* state,
                                                              const Narrow* base,
                                                              GaScratch& scratch) {
  MutateEntries(problem, random, state, base, scratch);
}

}  // namespace

void MutateState(const GaProblem& problem, PhiloxRandom& random, GaState& state) {
  CheckCounts(problem, state);
  GaScratch scratch(problem);
  Mutate(problem, random, state.data(), problem.base_state.data(), scratch);
}

namespace {

// The states of one GA run: slots of J×N entries reused through a free list, so that an offspring
// costs no allocation; each slot keeps the hash of its state for the duplicate set. Entries are
// int or Narrow (see Narrow).
template <typename Entry>
class StatePool {
 public:
  using State = std::vector<Entry>;
  explicit StatePool(const GaProblem& problem)
      : state_size_(problem.base_state.size()),
        num_jobs_(problem.num_jobs),
        base_(problem.base_state.begin(), problem.base_state.end()) {}
  int Acquire() {
    if (free_.empty()) {
      states_.emplace_back(state_size_);
      hashes_.push_back(0);
      rows_.emplace_back(num_jobs_);
      active_nodes_.push_back(0);
      return static_cast<int>(states_.size()) - 1;
    }
    const int slot = free_.back();
    free_.pop_back();
    return slot;
  }
  void Release(int slot) { free_.push_back(slot); }
  State& operator[](int slot) { return states_[slot]; }
  const State& operator[](int slot) const { return states_[slot]; }
  /// The base state's entries.
  const Entry* base() const { return base_.data(); }
  /// Sets the slot's state to `state` (entries that fit Entry).
  void Assign(int slot, const GaState& state) {
    std::transform(state.begin(), state.end(), states_[slot].begin(),
                   [](int v) { return static_cast<Entry>(v); });
  }
  /// The slot's state as ints.
  GaState Ints(int slot) const { return GaState(states_[slot].begin(), states_[slot].end()); }
  /// Repairs the slot's state after its last other change, and keeps its hash and summary.
  void Repair(int slot, const GaProblem& problem, const GaOptions& options, PhiloxRandom& random,
              GaScratch& scratch) {
    hashes_[slot] = adaptsim::Repair(problem, options, random, states_[slot].data(), scratch,
                                     rows_[slot].data(), active_nodes_[slot]);
  }
  std::uint64_t hash(int slot) const { return hashes_[slot]; }
  /// The objectives of the slot's repaired state.
  GaObjectives Evaluate(int slot, const GaProblem& problem) const {
    if (problem.evaluate_summary) {
      return problem.evaluate_summary({rows_[slot], active_nodes_[slot]});
    }
    if constexpr (std::is_same_v<Entry, int>) {
      return problem.evaluate(states_[slot]);
    } else {
      return problem.evaluate(Ints(slot));
    }
  }

 private:
  std::size_t state_size_;
  int num_jobs_;
  State base_;
  std::vector<State> states_;
  std::vector<std::uint64_t> hashes_;
  std::vector<std::vector<GaRowSummary>> rows_;  ///< per slot: its repaired state's rows
  std::vector<int> active_nodes_;                ///< per slot: its nodes with a replica
  std::vector<int> free_;
};

// A set of pool slots with distinct states (open addressing on the sealed hashes, equality of the
// states decides): the duplicate elimination of P:pymoo/model/mating.py.
template <typename Pool>
class StateSet {
 public:
  explicit StateSet(const Pool& pool) : pool_(pool) {}
  void Clear(std::size_t expected) {
    std::size_t capacity = 16;
    while (capacity < 2 * expected) capacity *= 2;
    table_.assign(capacity, -1);
    size_ = 0;
  }
  /// Inserts a sealed slot; false (and the set unchanged) when an equal state is already in it.
  bool Insert(int slot) {
    if (2 * (size_ + 1) > table_.size()) Grow();
    const std::uint64_t hash = pool_.hash(slot);
    const std::size_t mask = table_.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
      const int other = table_[i];
      if (other < 0) {
        table_[i] = slot;
        ++size_;
        return true;
      }
      if (pool_.hash(other) == hash && pool_[other] == pool_[slot]) return false;
    }
  }

 private:
  void Grow() {
    std::vector<int> old = std::move(table_);
    table_.assign(2 * old.size(), -1);
    const std::size_t mask = table_.size() - 1;
    for (int slot : old) {
      if (slot < 0) continue;
      std::size_t i = pool_.hash(slot) & mask;
      while (table_[i] >= 0) i = (i + 1) & mask;
      table_[i] = slot;
    }
  }

  const Pool& pool_;
  std::vector<int> table_;
  std::size_t size_ = 0;
};

struct Individual {
  int slot = -1;  ///< its state in the run's StatePool
  GaObjectives f{};
  int rank = 0;
  double crowding = 0.0;
};

// Buffers of the survival, reused from generation to generation.
struct SurvivalScratch {
  std::vector<GaObjectives> values, front_values;
  FrontSorting fronts;
  CrowdingScratch crowding_scratch;
  std::vector<double> crowding;
  std::vector<int> order, position, shuffled, unique, lexicographic, next, new_index;
  std::vector<char> survives;
  /// The survivors in lexicographic order of (f0, f1, index), if sorted_survivors_valid.
  std::vector<int> sorted_survivors;
  bool sorted_survivors_valid = false;
};

// Rank-and-crowding survival (P:pymoo/algorithms/nsga2.py RankAndCrowdingSurvival) of `pop` into
// `survivors`. The states of the individuals that do not survive go back to the pool. When the
// first `sorted_prefix` individuals of `pop` are the survivors of the previous call, their
// lexicographic order from that call is reused (SortFronts merges the rest into it).
template <typename Pool>
void Survive(const std::vector<Individual>& pop, std::size_t sorted_prefix, int n_survive,
             PhiloxRandom& random, Pool& pool, SurvivalScratch& scratch,
             std::vector<Individual>& survivors) {
  std::vector<GaObjectives>& values = scratch.values;
  values.clear();
  for (const Individual& ind : pop) values.push_back(ind.f);
  survivors.clear();
  std::vector<char>& survives = scratch.survives;
  survives.assign(pop.size(), 0);
  std::span<const int> prefix;
  if (sorted_prefix > 0 && scratch.sorted_survivors_valid &&
      scratch.sorted_survivors.size() == sorted_prefix) {
    prefix = scratch.sorted_survivors;
  }
  SortFronts(values, scratch.fronts, prefix);
  const std::vector<int>& members = scratch.fronts.members;
  const std::vector<int>& starts = scratch.fronts.starts;
  const std::vector<int>& rank = scratch.fronts.rank;
  const bool lexicographic = !scratch.fronts.has_nan;
  std::vector<int>& position = scratch.position;
  std::vector<int>& in_order = scratch.lexicographic;  // per front: positions in lex. order
  if (lexicographic) {
    position.resize(pop.size());
    for (std::size_t k = 0; k + 1 < starts.size(); ++k) {
      for (int p = starts[k]; p < starts[k + 1]; ++p) position[members[p]] = p - starts[k];
    }
    std::vector<int>& next = scratch.next;  // per front: its next free place
    next.assign(starts.begin(), starts.end() - 1);
    in_order.resize(pop.size());
    for (int i : scratch.fronts.order) in_order[next[rank[i]]++] = position[i];
  }
  std::vector<int>& new_index = scratch.new_index;
  new_index.assign(pop.size(), -1);
  std::vector<GaObjectives>& front_values = scratch.front_values;
  std::vector<double>& crowding = scratch.crowding;
  std::vector<int>& order = scratch.order;
  for (std::size_t k = 0; k + 1 < starts.size(); ++k) {
    if (static_cast<int>(survivors.size()) >= n_survive) break;
    const std::span<const int> front(members.data() + starts[k], members.data() + starts[k + 1]);
    front_values.clear();
    for (int i : front) front_values.push_back(values[i]);
    if (lexicographic) {
      FrontCrowdingDistances(front_values, {in_order.data() + starts[k], front.size()},
                             scratch.unique, crowding);
    } else {
      CrowdingDistances(front_values, scratch.crowding_scratch, crowding);
    }
    order.resize(front.size());
    std::iota(order.begin(), order.end(), 0);
    if (survivors.size() + front.size() > static_cast<std::size_t>(n_survive)) {
      // randomized_argsort, descending crowding: shuffle, then a stable sort.
      random.Shuffle(order);
      if (std::any_of(crowding.begin(), crowding.end(), [](double c) { return std::isnan(c); })) {
        std::stable_sort(order.begin(), order.end(),
                         [&](int a, int b) { return crowding[a] > crowding[b]; });
      } else {  // a total order with the shuffled position as tie-break: the stable order
        std::vector<int>& shuffled = scratch.shuffled;
        shuffled.resize(order.size());
        for (std::size_t p = 0; p < order.size(); ++p) shuffled[order[p]] = static_cast<int>(p);
        std::sort(order.begin(), order.end(), [&](int a, int b) {
          return crowding[a] > crowding[b] ||
                 (crowding[a] == crowding[b] && shuffled[a] < shuffled[b]);
        });
      }
      order.resize(n_survive - survivors.size());
    }
    for (int i : order) {
      Individual ind = pop[front[i]];  // each index is in exactly one front
      ind.rank = static_cast<int>(k);
      ind.crowding = crowding[i];
      new_index[front[i]] = static_cast<int>(survivors.size());
      survivors.push_back(ind);
      survives[front[i]] = 1;
    }
  }
  for (std::size_t i = 0; i < pop.size(); ++i) {
    if (!survives[i]) pool.Release(pop[i].slot);
  }
  // The survivors in lexicographic order for the next call: the sorted order filtered; equal
  // points, ordered by their old index there, are put in order of their new one.
  scratch.sorted_survivors_valid = lexicographic;
  if (!lexicographic) return;
  std::vector<int>& sorted = scratch.sorted_survivors;
  sorted.clear();
  for (int i : scratch.fronts.order) {
    if (new_index[i] >= 0) sorted.push_back(new_index[i]);
  }
  for (std::size_t begin = 0; begin < sorted.size();) {
    std::size_t end = begin + 1;
    while (end < sorted.size() && survivors[sorted[end]].f == survivors[sorted[begin]].f) ++end;
    if (end - begin > 1) std::sort(sorted.begin() + begin, sorted.begin() + end);
    begin = end;
  }
}

// Binary tournament: dominance, then larger crowding, then a coin (nsga2.py binary_tournament).
int Tournament(const std::vector<Individual>& pop, int a, int b, PhiloxRandom& random) {
  if (Dominates(pop[a].f, pop[b].f)) return a;
  if (Dominates(pop[b].f, pop[a].f)) return b;
  if (pop[a].crowding > pop[b].crowding) return a;
  if (pop[b].crowding > pop[a].crowding) return b;
  return random.Uniform() < 0.5 ? a : b;
}

// Parents for `matings` matings into scratch.parents: tournaments over concatenated random
// permutations (P:pymoo/operators/selection/tournament_selection.py).
void SelectParents(const std::vector<Individual>& pop, int matings, PhiloxRandom& random,
                   GaScratch& scratch) {
  const int needed = matings * 2 * 2;
  std::vector<int>& candidates = scratch.candidates;
  candidates.clear();
  const int n = static_cast<int>(pop.size());
  while (static_cast<int>(candidates.size()) < needed) {
    const std::size_t begin = candidates.size();
    for (int i = 0; i < n; ++i) candidates.push_back(i);
    random.Shuffle({candidates.data() + begin, static_cast<std::size_t>(n)});
  }
  std::vector<int>& parents = scratch.parents;
  parents.resize(matings * 2);
  for (int i = 0; i < matings * 2; ++i) {
    parents[i] = Tournament(pop, candidates[2 * i], candidates[2 * i + 1], random);
  }
}

// Offspring by crossover, mutation, repair and duplicate elimination (P:pymoo/model/mating.py).
template <typename Pool>
std::vector<Individual> Mate(const GaProblem& problem, const GaOptions& options,
                             const std::vector<Individual>& pop, PhiloxRandom& random, Pool& pool,
                             StateSet<Pool>& seen, GaScratch& scratch) {
  const int J = problem.num_jobs, N = problem.num_nodes;
  seen.Clear(pop.size() + 2 * static_cast<std::size_t>(options.population_size));
  for (const Individual& ind : pop) seen.Insert(ind.slot);
  std::vector<Individual> offspring;
  offspring.reserve(options.population_size);
  std::vector<int> children, fresh;
  std::vector<int> dropped;  // in `seen` until the mating ends, so not reused before
  for (int iteration = 0; iteration < options.max_mating_iterations &&
                          static_cast<int>(offspring.size()) < options.population_size;
       ++iteration) {
    const int remaining = options.population_size - static_cast<int>(offspring.size());
    const int matings = (remaining + 1) / 2;
    SelectParents(pop, matings, random, scratch);
    children.clear();
    for (int m = 0; m < matings; ++m) {
      const int child_a = pool.Acquire(), child_b = pool.Acquire();  // may move the slots
      const auto& a = pool[pop[scratch.parents[2 * m]].slot];
      const auto& b = pool[pop[scratch.parents[2 * m + 1]].slot];
      // Single point over jobs: rows j < point are swapped (pollux.py:339-352).
      std::size_t split = 0;
      if (random.Uniform() < options.crossover_probability) {
        split = static_cast<std::size_t>(random.Below(J)) * N;
      }
      auto& ca = pool[child_a];
      auto& cb = pool[child_b];
      const std::size_t rest = a.size() - split;
      CopyEntries(b.data(), split, ca.data());
      CopyEntries(a.data() + split, rest, ca.data() + split);
      CopyEntries(a.data(), split, cb.data());
      CopyEntries(b.data() + split, rest, cb.data() + split);
      children.push_back(child_a);
      children.push_back(child_b);
    }
    fresh.clear();
    for (int child : children) {
      Mutate(problem, random, pool[child].data(), pool.base(), scratch);
      pool.Repair(child, problem, options, random, scratch);
      if (seen.Insert(child)) {
        fresh.push_back(child);
      } else {
        pool.Release(child);
      }
    }
    if (static_cast<int>(fresh.size()) > remaining) {  // random subset (mating.py)
      random.Shuffle(fresh);
      dropped.insert(dropped.end(), fresh.begin() + remaining, fresh.end());
      fresh.resize(remaining);
    }
    for (int slot : fresh) offspring.push_back({slot});
  }
  for (int slot : dropped) pool.Release(slot);
  return offspring;
}

}  // namespace

std::uint64_t CountRepairedStates(const GaProblem& problem, const GaOptions& options,
                                  std::uint64_t bound) {
  const std::uint64_t more = bound + 1;  // counts saturate here
  auto add = [more](std::uint64_t a, std::uint64_t b) { return std::min(a + b, more); };
  const int N = problem.num_nodes;
  const int max_nodes = std::clamp(options.max_nodes_per_job, 0, N);
  int total_capacity = 0;
  for (int n = 0; n < N; ++n) total_capacity += std::max(problem.node_capacity[n], 0);
  std::uint64_t states = 1;
  std::vector<std::uint64_t> ways;
  for (int j = 0; j < problem.num_jobs && states < more; ++j) {
    // ways[k·(S + 1) + s]: rows over the nodes so far with k nodes in use and s replicas, s ≤ S.
    const int S = std::min(problem.max_replicas[j], total_capacity);
    const auto at = [S](int k, int s) { return static_cast<std::size_t>(k) * (S + 1) + s; };
    const int least = std::max(problem.min_replicas[j], 1);  // of a row with replicas
    ways.assign(static_cast<std::size_t>(max_nodes + 1) * (S + 1), 0);
    ways[at(0, 0)] = 1;
    std::uint64_t rows = 1;  // the empty row
    int reach = 0;           // the most replicas the nodes so far hold
    for (int n = 0; n < N && rows < more; ++n) {
      const int capacity = std::max(problem.node_capacity[n], 0);
      // Node n holds v ≥ 1 replicas: in place, k descending, so each cell adds earlier counts.
      for (int k = std::min(n, max_nodes - 1); k >= 0; --k) {
        for (int s = std::min(reach, S - 1); s >= 0; --s) {
          const std::uint64_t w = ways[at(k, s)];
          if (w == 0) continue;
          for (int v = 1; v <= std::min(capacity, S - s); ++v) {
            ways[at(k + 1, s + v)] = add(ways[at(k + 1, s + v)], w);
          }
        }
      }
      reach = std::min(reach + capacity, S);
      rows = 1;  // counts only grow with the nodes: stop once past the bound
      for (int k = 1; k <= max_nodes; ++k) {
        for (int s = least; s <= S; ++s) rows = add(rows, ways[at(k, s)]);
      }
    }
    states = rows >= more || states > more / rows ? more : states * rows;
  }
  return states;
}

namespace {

// RunPolluxGa with states of Entry entries.
template <typename Entry>
GaResult RunGa(const GaProblem& problem, const std::vector<GaState>& initial,
               const GaOptions& options, PhiloxRandom& random, GaRunControl control) {
  GaResult result;
  StatePool<Entry> pool(problem);
  StateSet seen(pool);
  GaScratch scratch(problem);
  std::vector<Individual> pop;
  seen.Clear(initial.size());
  for (const GaState& state : initial) {
    CheckCounts(problem, state);
    const int slot = pool.Acquire();
    pool.Assign(slot, state);
    pool.Repair(slot, problem, options, random, scratch);
    if (seen.Insert(slot)) {
      pop.push_back({slot});
    } else {
      pool.Release(slot);
    }
  }
  for (Individual& ind : pop) ind.f = pool.Evaluate(ind.slot, problem);
  result.evaluations += static_cast<std::int64_t>(pop.size());
  const int initial_size = static_cast<int>(pop.size());
  SurvivalScratch survival;
  std::vector<Individual> survivors;
  Survive(pop, 0, initial_size, random, pool, survival, survivors);
  pop.swap(survivors);
  // Once the population holds every state the repair can return, no child can be new: each later
  // generation mates duplicates only, adds and evaluates no offspring, and its survival (no front
  // to cut, so no draw) returns the population unchanged, as it already is the output of a
  // survival, ordered by front. The remaining draws then decide nothing, and the run stops.
  const std::uint64_t repaired_states =
      control.stop_when_exhausted
          ? CountRepairedStates(problem, options,
                                static_cast<std::uint64_t>(options.population_size))
          : 0;
  for (int generation = 1; generation < options.generations; ++generation) {
    if (pop.size() == repaired_states && static_cast<int>(pop.size()) <= options.population_size &&
        !survival.fronts.has_nan) {
      break;
    }
    std::vector<Individual> offspring = Mate(problem, options, pop, random, pool, seen, scratch);
    for (Individual& ind : offspring) ind.f = pool.Evaluate(ind.slot, problem);
    result.evaluations += static_cast<std::int64_t>(offspring.size());
    const std::size_t sorted_prefix = pop.size();
    pop.insert(pop.end(), offspring.begin(), offspring.end());
    Survive(pop, sorted_prefix, options.population_size, random, pool, survival, survivors);
    pop.swap(survivors);
  }
  std::vector<GaObjectives> values;
  for (const Individual& ind : pop) values.push_back(ind.f);
  const std::vector<std::vector<int>> fronts = NonDominatedFronts(values);
  for (int i : fronts.front()) {
    result.front.push_back(pool.Ints(pop[i].slot));
    result.values.push_back(pop[i].f);
  }
  return result;
}

}  // namespace

GaResult RunPolluxGa(const GaProblem& problem, const std::vector<GaState>& initial,
                     const GaOptions& options, PhiloxRandom& random, GaRunControl control) {
  ADAPTSIM_CHECK(!initial.empty());
  // Narrow entries when every count the run can hold fits them (see Narrow).
  constexpr int kNarrowMax = std::numeric_limits<Narrow>::max();
  auto fits = [](const std::vector<int>& counts) {
    return std::all_of(counts.begin(), counts.end(), [](int v) { return v <= kNarrowMax; });
  };
  const bool narrow = control.narrow_entries && fits(problem.node_capacity) &&
                      fits(problem.base_state) && std::all_of(initial.begin(), initial.end(), fits);
  if (narrow) return RunGa<Narrow>(problem, initial, options, random, control);
  return RunGa<int>(problem, initial, options, random, control);
}

}  // namespace adaptsim
