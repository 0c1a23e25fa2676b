#pragma once
// A small, portable random number generator (xoshiro256** seeded by splitmix64) for the matrix generators.
// Only integer arithmetic and exact floating-point operations are used, so a seed gives the same matrix on every
// platform and compiler (std:: distributions are implementation-defined).
#include <cmath>
#include <cstdint>
#include <type_traits>

namespace spk::gen {

// splitmix64's output function: a bijective 64-bit mix.
constexpr std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

class Rng {
 public:
  // Independent-looking streams for each (seed, stream) pair: generators use one stream per row.
  explicit Rng(std::uint64_t seed, std::uint64_t stream = 0) {
    std::uint64_t s = mix64(seed ^ mix64(stream + 0x632BE59BD9B4E019ull));
    for (auto& word : state_) {
      s += 0x9E3779B97F4A7C15ull;
      word = mix64(s);
    }
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  // Uniform in [0, bound), exactly (Lemire's multiply-shift with rejection); bound in [1, 2^32].
  std::uint64_t below(std::uint64_t bound) {
    std::uint64_t m = (next() >> 32) * bound;
    if (static_cast<std::uint32_t>(m) < bound) {
      const std::uint64_t threshold = (std::uint64_t{1} << 32) % bound;
      while (static_cast<std::uint32_t>(m) < threshold) m = (next() >> 32) * bound;
    }
    return m >> 32;
  }

  // A nonzero value uniform in +-[0.1, 1) with a random sign. The magnitude is k * 2^-52 for an integer k drawn
  // exactly, so no rounding (or fused multiply-add) can make two platforms disagree.
  template <class Scalar>
  Scalar value() {
    constexpr std::uint64_t one = std::uint64_t{1} << 52;
    constexpr std::uint64_t lowest = (one + 9) / 10;  // ceil(0.1 * 2^52)
    std::uint64_t bits, k;
    do {
      bits = next();
      k = bits >> 12;
    } while (k < lowest);
    const double magnitude = static_cast<double>(k) * (1.0 / static_cast<double>(one));
    Scalar v = static_cast<Scalar>(magnitude);
    if (v >= Scalar(1)) v = std::nextafter(Scalar(1), Scalar(0));  // float rounding can reach 1
    return (bits & 1) ? -v : v;
  }

 private:
  static constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t state_[4];
};

}  // namespace spk::gen
