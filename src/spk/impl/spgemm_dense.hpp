#pragma once
// SpGEMM dense tiles: a team per row sweeps the row's column span [lo, hi] in tiles of `width` columns held densely
// in team scratch (a bit per column in a ColumnRanks bitmap, and a value when numeric). Each pass accumulates the
// products that fall in the tile; the bits then give each column its rank, so the row comes out sorted with no sort
// at all. Rows whose output is dense relative to their span take one pass; long rows take several, walking only the
// tile's part of B's rows when those are sorted.
#include <cstdint>

#include <Kokkos_Core.hpp>

#include "../execution.hpp"
#include "../launch_shape.hpp"
#include "column_ranks.hpp"
#include "hash_table.hpp"
#include "row_products.hpp"
#include "spgemm_common.hpp"
#include "vector_scan.hpp"

namespace spk::impl {

template <bool numeric, bool flat, class Views, class Space, class Bounds>
void launch_dense_rows(const LaunchShape& shape, const Views& v, const RowSlice<Space>& rows, const Bounds& lo,
                       const Bounds& hi, int width, int stage_entries, bool b_sorted,
                       const typename Views::execution_space& space) {
  using exec = typename Views::execution_space;
  using Scalar = typename Views::scalar_type;
  using Ordinal = typename Views::ordinal_type;
  using Offset = typename Views::offset_type;
  using policy_type = team_policy_for<exec>;
  using member_type = typename policy_type::member_type;
  using scratch_space = typename exec::scratch_memory_space;
  using value_scratch = Kokkos::View<Scalar*, scratch_space, Kokkos::MemoryUnmanaged>;
  using word_scratch = Kokkos::View<unsigned*, scratch_space, Kokkos::MemoryUnmanaged>;
  using count_scratch = Kokkos::View<int*, scratch_space, Kokkos::MemoryUnmanaged>;
  constexpr bool shared = !is_host_space<exec>();
  if (rows.count == 0) return;
  const int threads = shape.team_size, lanes = shape.vector_length;
  const int words = static_cast<int>(ColumnRanks::words_for(width));
  const std::size_t bytes = ProductStage<Views>::bytes(stage_entries, numeric) +
                            (numeric ? value_scratch::shmem_size(width) + count_scratch::shmem_size(words) : 0) +
                            word_scratch::shmem_size(words) + count_scratch::shmem_size(threads);
  policy_type policy(space, static_cast<int>(rows.count), threads, lanes);
  policy.set_scratch_size(0, Kokkos::PerTeam(bytes));
  Kokkos::parallel_for(
      numeric ? "spk::spgemm_dense::numeric" : "spk::spgemm_dense::symbolic", policy,
      KOKKOS_LAMBDA(const member_type& team) {
        const ProductStage<Views> stage(team, stage_entries, numeric);
        value_scratch vals;
        ColumnRanks ranks;
        if (numeric) {
          vals = value_scratch(team.team_scratch(0), width);
          ranks.before = count_scratch(team.team_scratch(0), words).data();
        }
        ranks.bits = word_scratch(team.team_scratch(0), words).data();
        ranks.thread_counts = count_scratch(team.team_scratch(0), threads).data();
        const int row = rows(team.league_rank());
        const Offset c_begin = numeric ? v.c_map(row) : Offset(0);
        // A row of one tile walks every product; a longer one only each tile's part of B's sorted rows.
        const bool narrow = b_sorted && hi(row) - lo(row) + 1 > width;
        std::int64_t written = 0;  // columns emitted by earlier tiles, the same in every thread
        for (std::int64_t t0 = lo(row); t0 <= hi(row); t0 += width) {
          const int w = static_cast<int>(hi(row) - t0 + 1 < width ? hi(row) - t0 + 1 : width);
          ranks.clear(team, w);
          if (numeric)
            Kokkos::parallel_for(Kokkos::TeamVectorRange(team, w), [&](const int i) { vals(i) = Scalar(0); });
          team.team_barrier();
          const auto accumulate = [&](const Ordinal column, const Scalar value) {
            const std::int64_t c = column - t0;
            if (c < 0 || c >= w) return;
            ranks.mark(c);
            if (numeric) add_to<shared>(&vals(c), value);
          };
          for_each_product<numeric, flat>(team, v, row, stage, lanes, narrow, t0, t0 + w, accumulate);
          if (numeric) {
            const Offset out = c_begin + static_cast<Offset>(written);
            written += ranks.count(team, w, lanes);
            ranks.for_each_in_order(team, w, lanes, [&](const int place, const std::int64_t c) {
              v.c_ent(out + place) = static_cast<Ordinal>(t0 + c);
              v.c_val(out + place) = vals(c);
            });
          } else {
            written += ranks.count(team, w, lanes, false);
          }
          team.team_barrier();  // the next tile clears what this one read
        }
        if (!numeric) Kokkos::single(Kokkos::PerTeam(team), [&]() { v.c_map(row) = static_cast<Offset>(written); });
      });
}

// stage_entries: the flat product walk's chunk, or 0 to walk by entries (row_products.hpp).
template <bool numeric, class Views, class Space, class Bounds>
void spgemm_dense_rows(const LaunchShape& shape, const Views& v, const RowSlice<Space>& rows, const Bounds& lo,
                       const Bounds& hi, int width, int stage_entries, bool b_sorted,
                       const typename Views::execution_space& space = {}) {
  if (stage_entries > 0)
    launch_dense_rows<numeric, true>(shape, v, rows, lo, hi, width, stage_entries, b_sorted, space);
  else
    launch_dense_rows<numeric, false>(shape, v, rows, lo, hi, width, 0, b_sorted, space);
}

}  // namespace spk::impl
