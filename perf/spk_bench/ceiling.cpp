#include "ceiling.hpp"

#include <cstdint>
#include <cstdio>

#include <Kokkos_Core.hpp>

#include "timing.hpp"

namespace spk_bench {
namespace {

// Sums 64-bit words: integer addition is associative, so the compiler may vectorise the host loop and the read,
// not the adder chain, is the limit.
struct StreamingRead {
  Kokkos::View<const std::uint64_t*, ExecSpace::memory_space> data;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, std::uint64_t& sum) const { sum += data(i); }
};

}  // namespace

Ceiling measure_ceiling() {
  const bool on_device = !Kokkos::SpaceAccessibility<Kokkos::HostSpace, ExecSpace::memory_space>::accessible;
  const std::int64_t bytes = on_device ? (std::int64_t{2} << 30) : (std::int64_t{256} << 20);
  const std::int64_t n = bytes / static_cast<std::int64_t>(sizeof(std::uint64_t));
  const int runs = on_device ? 20 : 7;

  Kokkos::View<std::uint64_t*, ExecSpace::memory_space> data(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "spk_bench::ceiling"), n);
  Kokkos::parallel_for(
      "spk_bench::ceiling::fill", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(0, n),
      KOKKOS_LAMBDA(const std::int64_t i) { data(i) = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull; });
  Kokkos::View<std::uint64_t, ExecSpace::memory_space> result("spk_bench::ceiling::sum");
  const StreamingRead read{data};
  const Timing t = time_calls(
      [&]() {
        // Reducing into a device View keeps the call asynchronous: no host round trip inside the timed region.
        Kokkos::parallel_reduce("spk_bench::ceiling::read",
                                Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(0, n), read, result);
      },
      2, runs);
  Ceiling c;
  c.bytes = static_cast<double>(bytes);
  c.gbs = static_cast<double>(bytes) / (t.median_ms() * 1e-3) / 1e9;
  char buf[160];
  std::snprintf(buf, sizeof buf, "streaming read of %lld MiB, median of %d runs", static_cast<long long>(bytes >> 20),
                runs);
  c.method = buf;
  return c;
}

}  // namespace spk_bench
