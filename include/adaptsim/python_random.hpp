// CPython's `random.Random`, bit for bit, for the draws the reference simulator makes: its
// per-round GPU-type shuffle (`random.Random(seed + 5)`,
// `shockwave@8a44f4a:scheduler/scheduler.py:508-509`) and FIFO's type draw (`random.Random(seed)`,
// `scheduler/policies/fifo.py:18-21`).
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace adaptsim {

/// MT19937 seeded as CPython seeds it from an int (init_by_array of the seed's 32-bit words,
/// not init_genrand: `std::mt19937(seed)` gives other numbers), with CPython's getrandbits,
/// randbelow and shuffle (Lib/random.py, Modules/_randommodule.c). Not thread-safe.
class PythonRandom {
 public:
  /// random.Random(seed) for a non-negative integer seed.
  explicit PythonRandom(std::uint64_t seed);
  /// genrand_uint32: the next 32-bit output.
  std::uint32_t NextUint32();
  /// getrandbits(k) for 1 <= k <= 32: the top k bits of one output.
  std::uint32_t GetRandBits(int k);
  /// _randbelow(n) = randrange(n) for n >= 1: draws getrandbits(bit_length(n)) until < n (so
  /// n = 1 still consumes draws).
  std::uint32_t RandBelow(std::uint32_t n);
  /// shuffle(x): for i = len−1 … 1, swap x[i] with x[randbelow(i + 1)].
  template <typename T>
  void Shuffle(std::vector<T>& values) {
    for (std::size_t i = values.size(); i-- > 1;) {
      std::swap(values[i], values[RandBelow(static_cast<std::uint32_t>(i + 1))]);
    }
  }

 private:
  void InitGenrand(std::uint32_t seed);
  std::array<std::uint32_t, 624> state_{};
  int index_ = 624;
};

}  // namespace adaptsim
