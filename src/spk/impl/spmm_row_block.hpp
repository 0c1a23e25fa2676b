#pragma once
// The team body that SpMM row-team and k-tiled share. A team takes one row block of the plan (contiguous rows
// holding at most `capacity` nonzeros, built like CSR-Stream's), stages the block's column indices and values into
// scratch with coalesced loads, then each thread of the team takes a row and its vector lanes accumulate the row's
// columns of C in registers (spmm_common.hpp) over the column range the team owns. A row longer than the capacity
// is a block of its own, done by the whole team (team_long_row). A host team (one thread) reads A in place instead.
// With a row order (reordering), blocks follow that order and each row is written to its own place in C, so the
// reordering is undone by the store itself.
#include "device_array.hpp"
#include "spmm_common.hpp"
#include "spmv_stream.hpp"

namespace spk::impl {

// The order in which the kernels visit rows: the identity (rows empty), or a permutation with the offsets of the
// visited rows' nonzeros as if they were stored in that order.
template <class Device, class Offset>
struct RowOrder {
  Kokkos::View<std::int64_t*, Device> rows;  // rows(i): the row visited i-th
  Kokkos::View<Offset*, Device> offsets;     // exclusive scan of the visited rows' lengths (size rows + 1)
  bool identity() const { return rows.extent(0) == 0; }
};

template <int CPL, class Matrix, class BView, class CView>
struct SpmmRowBlockTeam {
  using T = SpmmTypes<Matrix>;
  using Scalar = typename T::scalar;
  using Offset = typename T::offset;
  using exec = typename T::exec;

  DeviceArray<const Offset> row_map;
  DeviceArray<const typename T::ordinal> entries;
  DeviceArray<const Scalar> values;
  DeviceArray<const std::int64_t> starts;  // the row blocks
  std::int64_t blocks;
  DeviceArray<const std::int64_t> order;  // empty: rows in stored order
  DeviceArray<const Offset> order_offsets;
  BView B;
  CView C;
  Scalar alpha, beta;
  int capacity;      // staged nonzeros per block
  int lanes;         // vector lanes per row
  int slot_bits;     // 2^slot_bits lanes per lane group (lane_groups.hpp); the groups share each row's nonzeros
  int tile_width;    // columns of C per team: a multiple of lanes * CPL (k-tiled), or k rounded up (row-team)

  static std::size_t scratch_bytes(int capacity, int team_size, int lanes, bool long_rows) {
    return T::ordinal_scratch::shmem_size(capacity) + T::scalar_scratch::shmem_size(capacity) +
           (long_rows ? T::scalar_scratch::shmem_size(static_cast<std::size_t>(team_size) * lanes * CPL) : 0);
  }

  KOKKOS_INLINE_FUNCTION std::int64_t row_of(std::int64_t r) const { return order ? order(r) : r; }
  KOKKOS_INLINE_FUNCTION std::int64_t offset_of(std::int64_t r) const {
    return order ? static_cast<std::int64_t>(order_offsets(r)) : static_cast<std::int64_t>(row_map(r));
  }

  KOKKOS_INLINE_FUNCTION void operator()(const typename T::member& team) const {
    // k-tiled: the column tile is the slow index. The league fits an int, so the division is done in 32 bits (GPUs
    // emulate 64-bit division in software) and skipped when there is one tile: every warp of every team pays it.
    const int rank = team.league_rank(), nblocks = static_cast<int>(blocks);
    const int tile = rank < nblocks ? 0 : rank / nblocks;
    const std::int64_t block = rank - tile * nblocks;
    const int k = static_cast<int>(B.extent(1));
    const int c_begin = tile * tile_width;
    const int c_end = c_begin + tile_width < k ? c_begin + tile_width : k;
    const std::int64_t r0 = starts(block), r1 = starts(block + 1);
    const int width = CPL << slot_bits;
    if constexpr (HostSpaceFlag<exec>::value) {
      // One thread: A's arrays are read in place; staging would only copy them through the same cache.
      with_host_isa([&](auto isa) {
        for (std::int64_t r = r0; r < r1; ++r) {
          const std::int64_t row = row_of(r);
          host_row_strips<CPL, exec>(isa, entries, values, row_map(row), row_map(row + 1), B, c_begin, c_end,
                                     [&](const Scalar(&acc)[CPL], LaneColumns lc) {
                                       store_lane<CPL>(C, row, acc, lc, k, alpha, beta);
                                     });
        }
      });
      return;
    }
    const std::int64_t base = offset_of(r0), n = offset_of(r1) - base;
    typename T::ordinal_scratch cols(team.team_scratch(0), capacity);
    typename T::scalar_scratch vals(team.team_scratch(0), capacity);
    if (n > capacity) {  // one long row
      typename T::scalar_scratch partials(team.team_scratch(0), team.team_size() * lanes * CPL);
      const std::int64_t row = row_of(r0);
      team_long_row<CPL, exec>(team, partials, entries, values, row_map(row), row_map(row + 1), B, C, row, c_begin,
                               c_end, lanes, slot_bits, alpha, beta);
      return;
    }
    if (order) {  // reordered rows are not adjacent in A: stage them one by one
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, static_cast<int>(r1 - r0)), [&](const int i) {
        const std::int64_t row = order(r0 + i), src = row_map(row);
        const int dst = static_cast<int>(order_offsets(r0 + i) - base);
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, static_cast<int>(row_map(row + 1) - src)),
                             [&](const int q) {
                               cols(dst + q) = entries(src + q);
                               vals(dst + q) = values(src + q);
                             });
      });
    } else {
      stage_nonzeros(team, cols, vals, entries, values, base, static_cast<int>(n));
    }
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, static_cast<int>(r1 - r0)), [&](const int i) {
      const int b = static_cast<int>(offset_of(r0 + i) - base), e = static_cast<int>(offset_of(r0 + i + 1) - base);
      const std::int64_t row = row_of(r0 + i);
      for (int c0 = c_begin; c0 < c_end; c0 += width)
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, lanes), [&](const int lane) {
          const LaneGroup g = lane_group(lane, lanes, slot_bits);
          const LaneColumns lc = lane_columns<exec, CPL, BView>(c0, g.slot, g.slots);
          Scalar acc[CPL] = {};
          accumulate_row<CPL, exec>(acc, cols, vals, b, e, B, lc, k, g);
          if (g.group == 0) store_lane<CPL>(C, row, acc, lc, k, alpha, beta);
        });
    });
  }
};

// Launches SpmmRowBlockTeam over blocks x tiles teams (tile-major), each team owning tile_width columns of C.
template <class Matrix, class BView, class CView>
void launch_spmm_row_blocks(const typename Matrix::execution_space& space, const char* label, const LaunchShape& shape,
                            const RowBlocks<typename Matrix::device_type>& blocks,
                            const RowOrder<typename Matrix::device_type, typename Matrix::offset_type>& order,
                            bool long_rows, int tile_width, int tiles, typename Matrix::scalar_type alpha,
                            const Matrix& A, const BView& B, typename Matrix::scalar_type beta, const CView& C) {
  using policy_type = typename SpmvTypes<Matrix>::team_policy;
  if (blocks.count == 0 || B.extent(1) == 0) return;
  using exec = typename Matrix::execution_space;
  with_columns_per_lane<exec>(spmm_columns_per_lane<exec>(B, shape.columns_per_lane), [&](auto cpl) {
    using Team = SpmmRowBlockTeam<decltype(cpl)::value, Matrix, BView, CView>;
    const int columns = tile_width < static_cast<int>(B.extent(1)) ? tile_width : static_cast<int>(B.extent(1));
    const Team body{A.row_map(), A.entries(), A.values(), blocks.starts, blocks.count, order.rows, order.offsets,
                    B, C, alpha, beta, shape.stage_capacity, shape.vector_length,
                    spmm_lane_slot_bits(shape.vector_length, decltype(cpl)::value, columns), tile_width};
    policy_type policy(space, static_cast<int>(blocks.count * tiles), shape.team_size, shape.vector_length);
    policy.set_scratch_size(0, Kokkos::PerTeam(Team::scratch_bytes(shape.stage_capacity, shape.team_size,
                                                                    shape.vector_length, long_rows)));
    Kokkos::parallel_for(label, policy, body);
  });
}

}  // namespace spk::impl
