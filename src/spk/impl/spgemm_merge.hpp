#pragma once
// SpGEMM row merge: row i of C is the merge of the sorted rows of B that row i of A selects, so a short row needs no
// table at all. A group of G vector lanes takes one row, each lane following up to E of those rows of B (entries
// lane, lane + G, ...) with a cursor. Each step the group finds the smallest column under any cursor (a min over the
// lanes), sums the products at that column (a sum over the lanes), advances the cursors that were on it and emits
// one entry. The row comes out sorted and duplicate-free with no scratch, atomics or sort, and deterministically.
// A row takes as many steps as it has distinct columns, so the bin rule sends only short rows here, and only when
// B's rows are sorted and duplicate-free (Gremse, Hofter, Schwen, Kiessling, Naumann, "GPU-accelerated sparse
// matrix-matrix multiplication by iterative row merging", SIAM J. Sci. Comput. 37(1), 2015).
#include <cstdint>

#include <Kokkos_Core.hpp>

#include "../execution.hpp"
#include "../launch_shape.hpp"
#include "../select/spgemm_select.hpp"
#include "lane_groups.hpp"
#include "spgemm_common.hpp"

namespace spk::impl {

template <bool numeric, class Views, class Space>
void spgemm_merge_rows(const LaunchShape& shape, const Views& v, const RowSlice<Space>& rows,
                       const typename Views::execution_space& space = {}) {
  using exec = typename Views::execution_space;
  using Scalar = typename Views::scalar_type;
  using Ordinal = typename Views::ordinal_type;
  using Offset = typename Views::offset_type;
  using BOffset = typename Views::b_offset_type;
  using policy_type = team_policy_for<exec>;
  using member_type = typename policy_type::member_type;
  constexpr int E = select::merge_cursors_per_lane<exec>();
  if (rows.count == 0) return;
  const int threads = shape.team_size, lanes = shape.vector_length;
  const int league = static_cast<int>((rows.count + threads - 1) / threads);
  Kokkos::parallel_for(
      numeric ? "spk::spgemm_merge::numeric" : "spk::spgemm_merge::symbolic", policy_type(space, league, threads, lanes),
      KOKKOS_LAMBDA(const member_type& team) {
        const std::int64_t i = static_cast<std::int64_t>(team.league_rank()) * threads + team.team_rank();
        if (i >= rows.count) return;
        const int row = rows(i);
        const Offset a_begin = v.a_map(row);
        const int a_len = static_cast<int>(v.a_map(row + 1) - a_begin);
        const Ordinal done = Kokkos::reduction_identity<Ordinal>::min();  // a cursor past its row's end
        const int lane = vector_lane();
        // Each cursor holds the column and value under it and the next pair, loaded one advance ahead (ncu on the
        // H200 saw no change in lap2d's merge kernel times from this look-ahead).
        BOffset at[E], end[E];
        Ordinal col[E], next_col[E];
        Scalar a[E], b[E], next_b[E];
        const auto load = [&](const BOffset q, const BOffset stop, Ordinal& c, Scalar& value) {
          c = q < stop ? v.b_ent(q) : done;
          if (numeric && q < stop) value = v.b_val(q);
        };
        for (int e = 0; e < E; ++e) {
          const int p = lane + e * lanes;
          at[e] = end[e] = 0;
          a[e] = b[e] = next_b[e] = Scalar(0);
          if (p < a_len) {
            const Ordinal j = v.a_ent(a_begin + p);
            at[e] = v.b_map(j);
            end[e] = v.b_map(j + 1);
            if (numeric) a[e] = v.a_val(a_begin + p);
          }
          load(at[e], end[e], col[e], b[e]);
          load(at[e] + 1, end[e], next_col[e], next_b[e]);
        }
        const Offset c_begin = numeric ? v.c_map(row) : Offset(0);
        Offset count = 0;
        // Output entry `count` is kept by lane count % lanes; each full round of `lanes` entries is stored by the
        // group at once, so the stores are contiguous instead of one lane writing an entry per step.
        Ordinal kept_col = 0;
        Scalar kept_val = Scalar(0);
        const int last_slot = lanes - 1;
        for (;;) {
          Ordinal mine = done;
          for (int e = 0; e < E; ++e) mine = col[e] < mine ? col[e] : mine;
          const Ordinal c = min_over_vector(mine, lanes);
          if (c == done) break;
          Scalar part = Scalar(0);
          for (int e = 0; e < E; ++e) {
            if (col[e] != c) continue;
            if (numeric) part += a[e] * b[e];
            ++at[e];
            col[e] = next_col[e];
            b[e] = next_b[e];
            load(at[e] + 1, end[e], next_col[e], next_b[e]);
          }
          if (numeric) {
            const Scalar sum = sum_over_lane_groups(part, 1, lanes);  // one group: the whole vector
            const int slot = static_cast<int>(count & last_slot);
            if (lane == slot) {
              kept_col = c;
              kept_val = sum;
            }
            if (slot == last_slot) {
              v.c_ent(c_begin + count - slot + lane) = kept_col;
              v.c_val(c_begin + count - slot + lane) = kept_val;
            }
          }
          ++count;
        }
        if (numeric) {
          const int left = static_cast<int>(count & last_slot);  // entries of the last, partial round
          if (lane < left) {
            v.c_ent(c_begin + count - left + lane) = kept_col;
            v.c_val(c_begin + count - left + lane) = kept_val;
          }
        }
        if (!numeric && lane == 0) v.c_map(row) = count;
      });
}

}  // namespace spk::impl
