#pragma once
// SpGEMM dense tiles: a team per row sweeps the row's column span [lo, hi] in tiles of `width` columns held densely
// in team scratch (a flag per column, and a value when numeric). Each pass accumulates the products that fall in
// the tile; the flags are then compacted in column order, so the row comes out sorted with no sort at all. Rows
// whose output is dense relative to their span take one pass; long rows take several.
#include <cstdint>

#include <Kokkos_Core.hpp>

#include "../execution.hpp"
#include "../launch_shape.hpp"
#include "hash_table.hpp"
#include "spgemm_common.hpp"
#include "vector_scan.hpp"

namespace spk::impl {

// First position in entries[begin, end) holding a column >= col (the entries sorted).
template <class Entries, class Index>
KOKKOS_INLINE_FUNCTION Index lower_bound(const Entries& entries, Index begin, Index end, std::int64_t col) {
  while (begin < end) {
    const Index mid = begin + (end - begin) / 2;
    if (entries(mid) < col)
      begin = mid + 1;
    else
      end = mid;
  }
  return begin;
}

template <bool numeric, class Views, class Space, class Bounds>
void spgemm_dense_rows(const LaunchShape& shape, const Views& v, const RowSlice<Space>& rows, const Bounds& lo,
                       const Bounds& hi, int width, bool b_sorted,
                       const typename Views::execution_space& space = {}) {
  using exec = typename Views::execution_space;
  using Scalar = typename Views::scalar_type;
  using Ordinal = typename Views::ordinal_type;
  using Offset = typename Views::offset_type;
  using BOffset = typename Views::b_offset_type;
  using policy_type = team_policy_for<exec>;
  using member_type = typename policy_type::member_type;
  using scratch_space = typename exec::scratch_memory_space;
  using value_scratch = Kokkos::View<Scalar*, scratch_space, Kokkos::MemoryUnmanaged>;
  using count_scratch = Kokkos::View<std::int64_t*, scratch_space, Kokkos::MemoryUnmanaged>;
  using flag_scratch = Kokkos::View<char*, scratch_space, Kokkos::MemoryUnmanaged>;
  constexpr bool shared = !is_host_space<exec>();
  if (rows.count == 0) return;
  const int threads = shape.team_size, lanes_per_thread = shape.vector_length;
  const std::size_t bytes = (numeric ? value_scratch::shmem_size(width) : 0) +
                            count_scratch::shmem_size(threads) + flag_scratch::shmem_size(width);
  policy_type policy(space, static_cast<int>(rows.count), threads, shape.vector_length);
  policy.set_scratch_size(0, Kokkos::PerTeam(bytes));
  Kokkos::parallel_for(
      numeric ? "spk::spgemm_dense::numeric" : "spk::spgemm_dense::symbolic", policy,
      KOKKOS_LAMBDA(const member_type& team) {
        value_scratch vals;
        if (numeric) vals = value_scratch(team.team_scratch(0), width);
        count_scratch counts(team.team_scratch(0), threads);
        flag_scratch flags(team.team_scratch(0), width);
        const int row = rows(team.league_rank());
        const Offset a_begin = v.a_map(row);
        const int a_len = static_cast<int>(v.a_map(row + 1) - a_begin);
        const Offset c_begin = numeric ? v.c_map(row) : Offset(0);
        std::int64_t written = 0;  // columns emitted by earlier tiles, the same in every thread
        for (std::int64_t t0 = lo(row); t0 <= hi(row); t0 += width) {
          const int w = static_cast<int>(hi(row) - t0 + 1 < width ? hi(row) - t0 + 1 : width);
          Kokkos::parallel_for(Kokkos::TeamVectorRange(team, w), [&](const int i) {
            flags(i) = 0;
            if (numeric) vals(i) = Scalar(0);
          });
          team.team_barrier();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, a_len), [&](const int p) {
            const Ordinal j = v.a_ent(a_begin + p);
            BOffset b_begin = v.b_map(j), b_end = v.b_map(j + 1);
            if (b_sorted) {  // only the part of B's row inside the tile
              b_begin = lower_bound(v.b_ent, b_begin, b_end, t0);
              b_end = lower_bound(v.b_ent, b_begin, b_end, t0 + w);
            }
            const Scalar a = numeric ? v.a_val(a_begin + p) : Scalar(0);
            Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, static_cast<int>(b_end - b_begin)),
                                 [&](const int q) {
                                   const std::int64_t c = v.b_ent(b_begin + q) - t0;
                                   if (c < 0 || c >= w) return;
                                   flags(c) = 1;  // every writer stores the same byte
                                   if (numeric) add_to<shared>(&vals(c), a * v.b_val(b_begin + q));
                                 });
          });
          team.team_barrier();
          // Ordered compaction: each lane of the team owns a run of columns of the tile. It counts its flags, adds
          // up the counts of the lanes before it, and writes its run in order. (Kokkos's vector scan over each
          // thread's columns calls the body twice per column and shuffles at every step of the lanes.)
          const LaneRun run = team_lane_run(team, w, lanes_per_thread);
          const int s0 = run.first, s1 = run.last;
          int mine = 0;
          for (int c = s0; c < s1; ++c) mine += flags(c);
          std::int64_t tile = 0;
          const std::int64_t base = exclusive_sum_over_team(team, mine, counts.data(), tile);
          if (numeric) {
            Offset out = c_begin + static_cast<Offset>(written + base);
            for (int c = s0; c < s1; ++c)
              if (flags(c)) {
                v.c_ent(out) = static_cast<Ordinal>(t0 + c);
                v.c_val(out) = vals(c);
                ++out;
              }
          }
          written += tile;
          team.team_barrier();  // the next tile clears what this one compacted
        }
        if (!numeric) Kokkos::single(Kokkos::PerTeam(team), [&]() { v.c_map(row) = static_cast<Offset>(written); });
      });
}

}  // namespace spk::impl
