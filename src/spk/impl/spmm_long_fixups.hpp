#pragma once
// SpMM's long fix-ups: a row of C left as many partial rows (flat's carries, row-pieces' parts) is summed by a team
// per (row, column block), so the blocks of one row run side by side. In a team the vector lanes take the block's
// columns and thread i adds partial rows first + i, first + i + n, ... (a warp reads one partial row's block per
// load); the threads' sums are then added in thread order, so a launch's result is the same from run to run. Why:
// one thread per column adding a row's 364 parts in one chain took 31.6 us of arrow's 97 us row-pieces call (fp32,
// k = 256), and one team per row walking all 256 columns 58 us of flat's 171 (fp64); H200, ncu.
#include <cstddef>
#include <cstdint>

#include "../execution.hpp"
#include "spmv_common.hpp"

namespace spk::impl {

// Partial rows beyond which a fix-up is long: one thread per column would add them one latency-bound batch at a time.
constexpr std::int64_t long_fixup_carries = 32;

// Whether a fix-up adding this many partial rows is long.
KOKKOS_INLINE_FUNCTION bool is_long_fixup(std::int64_t partial_rows) { return partial_rows > long_fixup_carries; }

// The columns of a long fix-up team: a vector of `lanes` (k rounded up to a power of two, at most the hardware's
// vector), and the blocks of that many columns that cover k.
struct LongFixupColumns {
  int lanes = 1, blocks = 0;
};

template <class ExecSpace>
LongFixupColumns long_fixup_columns(int k) {
  LongFixupColumns out;
  while (out.lanes < k && out.lanes < max_vector_length<ExecSpace>()) out.lanes *= 2;
  out.blocks = (k + out.lanes - 1) / out.lanes;
  return out;
}

// Partial rows a thread of a long fix-up team keeps in flight: a team is all one row has, so its threads' chains of
// loads, not bandwidth, pace it.
constexpr int long_fixup_in_flight = 16;

// Threads of a long fix-up team: as many as a team of body's takes, up to 1,024 threads in all (one on the host).
template <class Policy, class Body>
int long_fixup_threads(const Policy& probe, const Body& body, int lanes) {
  using exec = typename Policy::execution_space;
  if (is_host_space<exec>()) return 1;
  int threads = 1024 / lanes;
  const int most = probe.team_size_max(body, Kokkos::ParallelForTag());
  while (threads > 1 && threads > most) threads /= 2;
  return threads;
}

// The team scratch team_sum_partials takes: a scalar per (thread, lane).
template <class ExecSpace, class Scalar>
std::size_t long_fixup_scratch_bytes(int threads, int lanes) {
  using scratch =
      Kokkos::View<Scalar**, Kokkos::LayoutRight, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  return scratch::shmem_size(threads, lanes);
}

// The team's sums of partial rows [first, end) of `partials` for columns c0 .. c0 + lanes - 1, handed to
// store(c, sum) for each c < k, after a team barrier. The team needs long_fixup_scratch_bytes of level-0 scratch.
// Every thread of the team calls it.
template <class Member, class Partials, class Store>
KOKKOS_INLINE_FUNCTION void team_sum_partials(const Member& team, const Partials& partials, std::int64_t first,
                                              std::int64_t end, int c0, int lanes, int k, const Store& store) {
  using Scalar = typename Partials::non_const_value_type;
  using scratch = Kokkos::View<Scalar**, Kokkos::LayoutRight, typename Member::scratch_memory_space,
                               Kokkos::MemoryUnmanaged>;
  const int i = team.team_rank(), n = team.team_size();
  const scratch part(team.team_scratch(0), n, lanes);
  const std::int64_t mine = end - first > i ? (end - first - i + n - 1) / n : 0;  // the partials thread i adds
  Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, lanes), [&](const int lane) {
    const int c = c0 + lane < k ? c0 + lane : k - 1;
    const auto partial = [&](std::int64_t q) { return partials(first + i + q * n, c); };
    part(i, lane) = sum_carries<Scalar, long_fixup_in_flight>(0, mine, partial);
  });
  team.team_barrier();
  Kokkos::parallel_for(Kokkos::TeamVectorRange(team, lanes), [&](const int lane) {
    const int c = c0 + lane;
    if (c >= k) return;
    Scalar sum = 0;
    for (int j = 0; j < n; ++j) sum += part(j, lane);
    store(c, sum);
  });
}

}  // namespace spk::impl
