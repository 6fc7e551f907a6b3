// A small, portable, seeded random number generator for everything in schedlab that draws (bootstrap,
// k-means++, estimate models, workload generators, synthetic test data). std::mt19937 with
// std::uniform_int_distribution is not byte-identical across standard libraries; this generator is:
// xoshiro256** seeded through splitmix64, with bounded integers by Lemire's multiply-shift method (exactly
// unbiased) and doubles from the top 53 bits.
//
// Contract: the same seed gives the same sequence on every platform and build. `Rng::stream(seed, k)`
// gives independent-looking generator number k for a seed, so work split over threads can draw from a
// generator per work item and stay identical whatever the number of threads.
#pragma once

#include <cmath>
#include <cstdint>
#include <utility>

namespace schedlab::base {

// One step of splitmix64 (also a good 64-bit mixing function).
inline uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

class Rng {
 public:
  explicit Rng(uint64_t seed) {
    uint64_t sm = seed;
    for (auto& word : s_) word = splitmix64(sm);
  }
  // Generator number `k` of `seed` (for per-round / per-item streams).
  static Rng stream(uint64_t seed, uint64_t k) {
    uint64_t sm = seed ^ 0x5851F42D4C957F2DULL;
    const uint64_t a = splitmix64(sm);
    uint64_t sk = k + 0x2545F4914F6CDD1DULL;
    return Rng(a ^ splitmix64(sk));
  }

  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform integer in [0, n), n > 0; unbiased.
  uint64_t below(uint64_t n) {
    __extension__ using u128 = unsigned __int128;
    u128 m = static_cast<u128>(next()) * n;
    auto low = static_cast<uint64_t>(m);
    if (low < n) {
      const uint64_t threshold = (0 - n) % n;
      while (low < threshold) {
        m = static_cast<u128>(next()) * n;
        low = static_cast<uint64_t>(m);
      }
    }
    return static_cast<uint64_t>(m >> 64);
  }

  // Uniform double in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // Standard normal (Box-Muller, one value per call; deterministic).
  double normal() {
    double u1 = uniform();
    while (u1 <= 0.0) u1 = uniform();
    const double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

// Fisher-Yates shuffle of [first, last) with `rng`.
template <typename It>
void shuffle(It first, It last, Rng& rng) {
  const auto n = last - first;
  for (auto i = n - 1; i > 0; --i) {
    const auto j = static_cast<decltype(i)>(rng.below(static_cast<uint64_t>(i) + 1));
    using std::swap;
    swap(first[i], first[j]);
  }
}

}  // namespace schedlab::base
