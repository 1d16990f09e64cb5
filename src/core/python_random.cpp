// CPython's Mersenne Twister (Modules/_randommodule.c: init_genrand, init_by_array,
// genrand_uint32, random_seed) and Lib/random.py's _randbelow_with_getrandbits and shuffle.
#include "adaptsim/python_random.hpp"

#include <bit>

#include "adaptsim/error.hpp"

namespace adaptsim {

void PythonRandom::InitGenrand(std::uint32_t seed) {
  state_[0] = seed;
  for (std::uint32_t i = 1; i < state_.size(); ++i) {
    state_[i] = 1812433253U * (state_[i - 1] ^ (state_[i - 1] >> 30)) + i;
  }
  index_ = static_cast<int>(state_.size());
}

PythonRandom::PythonRandom(std::uint64_t seed) {
  // random_seed: the absolute value's 32-bit words, least significant first; 0 is one word.
  std::vector<std::uint32_t> key{static_cast<std::uint32_t>(seed)};
  if ((seed >> 32) != 0) key.push_back(static_cast<std::uint32_t>(seed >> 32));
  constexpr std::size_t n = 624;
  InitGenrand(19650218U);
  std::size_t i = 1, j = 0;
  for (std::size_t k = std::max(n, key.size()); k != 0; --k) {
    state_[i] = (state_[i] ^ ((state_[i - 1] ^ (state_[i - 1] >> 30)) * 1664525U)) + key[j] +
                static_cast<std::uint32_t>(j);
    ++i, ++j;
    if (i >= n) state_[0] = state_[n - 1], i = 1;
    if (j >= key.size()) j = 0;
  }
  for (std::size_t k = n - 1; k != 0; --k) {
    state_[i] = (state_[i] ^ ((state_[i - 1] ^ (state_[i - 1] >> 30)) * 1566083941U)) -
                static_cast<std::uint32_t>(i);
    ++i;
    if (i >= n) state_[0] = state_[n - 1], i = 1;
  }
  state_[0] = 0x80000000U;
  index_ = static_cast<int>(n);
}

std::uint32_t PythonRandom::NextUint32() {
  constexpr int n = 624, m = 397;
  constexpr std::uint32_t upper = 0x80000000U, lower = 0x7fffffffU, matrix = 0x9908b0dfU;
  if (index_ >= n) {
    for (int k = 0; k < n; ++k) {
      const std::uint32_t y = (state_[k] & upper) | (state_[(k + 1) % n] & lower);
      state_[k] = state_[(k + m) % n] ^ (y >> 1) ^ ((y & 1U) != 0 ? matrix : 0U);
    }
    index_ = 0;
  }
  std::uint32_t y = state_[index_++];
  y ^= (y >> 11);
  y ^= (y << 7) & 0x9d2c5680U;
  y ^= (y << 15) & 0xefc60000U;
  y ^= (y >> 18);
  return y;
}

std::uint32_t PythonRandom::GetRandBits(int k) {
  ADAPTSIM_CHECK(k >= 1 && k <= 32);
  return NextUint32() >> (32 - k);
}

std::uint32_t PythonRandom::RandBelow(std::uint32_t n) {
  ADAPTSIM_CHECK(n >= 1);
  const int bits = std::bit_width(n);
  std::uint32_t r = GetRandBits(bits);
  while (r >= n) r = GetRandBits(bits);
  return r;
}

}  // namespace adaptsim
