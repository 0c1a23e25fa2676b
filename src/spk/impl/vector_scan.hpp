#pragma once
// Exclusive prefix sums over the lanes of one Kokkos vector, by shuffles (Kokkos's own vector scan calls its body
// twice per index and cannot take one value per lane), and over every lane of a team, for work cut into one run of
// items per lane (the dense tiles' compaction, the column ranks of hash rows).
#include <Kokkos_Core.hpp>

#include "lane_groups.hpp"

namespace spk::impl {

// Returns the sum of v over the lanes before this one in its vector, and sets total to the sum over all its lanes.
template <class T>
KOKKOS_INLINE_FUNCTION T exclusive_sum_over_vector(T v, T& total) {
#if defined(__CUDA_ARCH__)
  const unsigned mask = vector_mask();
  const int width = static_cast<int>(blockDim.x);
  T inclusive = v;
  for (int d = 1; d < width; d *= 2) {
    const T below = __shfl_up_sync(mask, inclusive, d, width);
    if (static_cast<int>(threadIdx.x) >= d) inclusive += below;
  }
  total = __shfl_sync(mask, inclusive, width - 1, width);
  return inclusive - v;
#elif defined(__HIP_DEVICE_COMPILE__)
  const int width = static_cast<int>(blockDim.x);
  T inclusive = v;
  for (int d = 1; d < width; d *= 2) {
    const T below = __shfl_up(inclusive, d, width);
    if (static_cast<int>(threadIdx.x) >= d) inclusive += below;
  }
  total = __shfl(inclusive, width - 1, width);
  return inclusive - v;
#else
  total = v;  // host back-ends: one lane
  return T(0);
#endif
}

// This lane's run [first, last) when n items are cut into equal consecutive runs over the team's lanes, thread by
// thread and lane by lane; `lanes` is the team's vector length.
struct LaneRun {
  int first, last;
};
template <class Member>
KOKKOS_INLINE_FUNCTION LaneRun team_lane_run(const Member& team, int n, int lanes) {
  const int team_lanes = team.team_size() * lanes;
  const int lane = team.team_rank() * lanes + vector_lane();
  const int seg = (n + team_lanes - 1) / team_lanes;
  const int first = lane * seg < n ? lane * seg : n;
  return {first, first + seg < n ? first + seg : n};
}

// The sum of `mine` over the team's lanes before this one, in team_lane_run's order: a shuffle scan within the
// vector, then the threads' totals through `thread_counts` (team scratch, one per thread). Sets total to the team's
// sum. Every lane of the team must call it; it holds one team barrier, and thread_counts may be written again only
// after another.
template <class Member, class Count, class Mine>
KOKKOS_INLINE_FUNCTION Count exclusive_sum_over_team(const Member& team, Mine mine, Count* thread_counts,
                                                     Count& total) {
  Count thread_total = 0;
  const Count before_in_thread = exclusive_sum_over_vector(static_cast<Count>(mine), thread_total);
  const int me = team.team_rank();
  Kokkos::single(Kokkos::PerThread(team), [&]() { thread_counts[me] = thread_total; });
  team.team_barrier();
  Count before = before_in_thread;
  total = 0;
  for (int u = 0; u < team.team_size(); ++u) {
    before += u < me ? thread_counts[u] : 0;
    total += thread_counts[u];
  }
  return before;
}

}  // namespace spk::impl
