#pragma once
// SpMV row-block stream (CSR-Stream / CSR-Adaptive: Greathouse & Daga, "Efficient sparse matrix-vector
// multiplication on GPUs using the CSR storage format", SC'14). The plan cuts the rows into contiguous blocks of
// at most `stage_capacity` nonzeros; a team streams its block's products A(i,j)*x(j) into scratch with fully
// coalesced loads (every lane of the team busy whatever the row lengths), then reduces each row from scratch
// (reduce_staged_rows: one lane per short row, `vector_length` lanes per longer one; with LaunchShape::balanced,
// reduce_rows_balanced: equal shares of rows and products a lane). A row longer than the
// capacity is a block of its own, reduced by the whole team straight from global memory (the team-per-row path),
// or, when the shape gives a `chunk`, cut into pieces of that many nonzeros, a team each (long_row_pieces.hpp): on
// skewed 1M a team per row of 200,000 nonzeros left 64 teams to read 62% of the matrix. With LaunchShape::windowed
// the pieces follow shared column windows instead, a team summing one window of several rows (long_row_windows.hpp).
// The pieces' teams come first in the league, so the long rows' work starts before the short blocks'.
#include <algorithm>
#include <type_traits>

#include "../csr_matrix.hpp"
#include "../launch_shape.hpp"
#include "../matrix_stats.hpp"
#include "balanced_rows.hpp"
#include "device_array.hpp"
#include "long_row_pieces.hpp"
#include "long_row_windows.hpp"
#include "spmv_common.hpp"

namespace spk::impl {

template <class Device>
struct RowBlocks {
  Kokkos::View<std::int64_t*, Device> starts;  // block b holds rows [starts(b), starts(b+1)); last entry = rows
  std::int64_t count = 0;
  // The most nonzeros a block within the capacity can hold: the scratch a team stages. Blocks fill about half the
  // capacity (see make_row_blocks), and scratch held but unused costs twice: fewer teams fit an SM, and what shared
  // memory takes, L1 loses (x's gathers hit there). An H200 probe of st3d27 160 fp64 (2,048-nonzero blocks): 0.40
  // ms with 16 KiB of scratch a team, 0.51 with 27 KiB, the same 8 teams of 256 threads on every SM.
  int staged = 0;
  StagedRows rows_form = StagedRows::any;  // short_only / within_stage: every row fits a lane / the capacity
};

// Rows longer than half the capacity get a block of their own; the others are grouped by the window of width
// capacity/2 their first nonzero falls in, so a block holds fewer than capacity/2 + capacity/2 nonzeros, and by the
// window of capacity/2 rows they fall in, so a block holds at most capacity/2 rows: a run of empty rows would
// otherwise be one block for one team (by-length reordering puts all of R-MAT 20 16's empty rows last, and SpMM
// row-team at k = 32 took 20-126 ms, 1.5 with bounded blocks). Works over any row-offset array: A's own, or the
// offsets of a reordered row sequence (SpMM row reordering); `stats`: the row lengths' (the same in any order).
template <class Exec, class Device, class RowMap>
RowBlocks<Device> make_row_blocks(const RowMap& row_map, std::int64_t rows, int capacity,
                                  const RowLengthStats& stats) {
  const std::int64_t half = capacity / 2 > 0 ? capacity / 2 : 1, max_length = stats.max_length;
  const auto starts_block = KOKKOS_LAMBDA(const std::int64_t r)->bool {
    if (r == 0 || r == rows) return true;
    const std::int64_t prev = row_map(r) - row_map(r - 1), len = row_map(r + 1) - row_map(r);
    return prev > half || len > half || row_map(r) / half != row_map(r - 1) / half || r % half == 0;
  };
  RowBlocks<Device> blocks;
  // A block of short rows starts its rows in one window of `half`, its last row no longer than min(max_length, half);
  // a longer row is a block of its own (staged when it fits the capacity).
  const std::int64_t most =
      std::max(half - 1 + std::min(max_length, half), std::min<std::int64_t>(max_length, capacity));
  blocks.staged = static_cast<int>(std::clamp<std::int64_t>(most, 1, capacity));
  blocks.rows_form = max_length <= std::min<std::int64_t>(serial_row_max, capacity) ? StagedRows::short_only
                     : max_length <= capacity                                        ? StagedRows::within_stage
                                                                                     : StagedRows::any;
  if (rows == 0) return blocks;
  // Starts: 0 and rows, a row a multiple of half, at most one a window of nonzeros, and the rows longer than half
  // and those after them. Bounding them lets Cornell5's blocks (18,661 candidates) take one pass, not a count first.
  std::int64_t long_rows = 0;
  for (int b = 1; b < RowLengthStats::num_bins; ++b)
    if ((std::int64_t{1} << std::min(b, 62)) - 1 > half) long_rows += stats.log2_histogram[b];
  const std::int64_t starts_most = 2 + rows / half + 1 + stats.nnz / half + 1 + 2 * long_rows;
  blocks.starts = compact_indices<Exec, Device>("spk::row_blocks", rows + 1, starts_block, starts_most);
  blocks.count = static_cast<std::int64_t>(blocks.starts.extent(0)) - 1;
  return blocks;
}

template <class Matrix>
RowBlocks<typename Matrix::device_type> make_row_blocks(const Matrix& A, int capacity, const RowLengthStats& stats) {
  return make_row_blocks<typename Matrix::execution_space, typename Matrix::device_type>(A.row_map(), A.num_rows(),
                                                                                          capacity, stats);
}

// The gathers a lane keeps in flight in the short-row form: in fp32, 8 (an H200 probe of a staged kernel on st3d27
// 160 and lap2d 4096: 1.12x faster than 4; this kernel 1.05-1.09x; in fp64, 4 was faster than 8).
template <class Scalar, StagedRows Rows>
inline constexpr int stream_gathers = Rows == StagedRows::short_only && sizeof(Scalar) <= 4 ? 8 : gathers_per_lane;

struct NoLongRows {};  // what the forms without long rows capture instead of their pieces

template <class Pieces>
inline constexpr bool is_long_row_windows = false;
template <class Device, class Scalar>
inline constexpr bool is_long_row_windows<LongRowWindows<Device, Scalar>> = true;

// sum_long_row_piece or sum_long_row_window where the form has long rows (the others launch no pieces' teams).
template <class Member, class Pieces, class... Args>
KOKKOS_INLINE_FUNCTION void sum_stream_piece(const Member& team, const Pieces& pieces, const Args&... args) {
  if constexpr (is_long_row_windows<Pieces>)
    sum_long_row_window(team, pieces, args...);
  else if constexpr (!std::is_same_v<Pieces, NoLongRows>)
    sum_long_row_piece(team, pieces, args...);
}

// `columns` reads the column indices: A's own or the plan's packed copy (packed_columns.hpp). Rows
// (RowBlocks::rows_form) leaves out the paths no row needs, and the registers they hold: on sm_90, 32 a thread with
// short rows only (8 teams of 256 threads an SM), 40 within the stage (fp32; fp64 keeps 48), 48 with the
// team-per-row path (5 teams).
// `pieces`: the rows longer than the capacity cut into pieces (LongRows, or LongRowWindows; pieces.pieces == 0: a
// team per long row); their teams precede the blocks' in the league. Pipelined: stage_products_pipelined
// (LaunchShape::pipelined). Balanced: the rows summed by reduce_rows_balanced (LaunchShape::balanced), which needs no
// list of longer rows.
template <StagedRows Rows, bool Pipelined, bool Balanced, class Matrix, class Pieces, class Columns, class XView,
          class YView>
void spmv_stream_rows(const typename Matrix::execution_space& space, const LaunchShape& shape,
                      const RowBlocks<typename Matrix::device_type>& blocks, const Pieces& pieces,
                      const Columns& columns, typename Matrix::scalar_type alpha, const Matrix& A, const XView& x,
                      typename Matrix::scalar_type beta, const YView& y) {
  using T = SpmvTypes<Matrix>;
  using Scalar = typename T::scalar;
  const int capacity = shape.stage_capacity, staged = blocks.staged, threads = shape.team_size * shape.vector_length;
  const DeviceArray<const typename T::offset> row_map = A.row_map();
  const DeviceArray<const Scalar> values = A.values();
  const DeviceArray<const std::int64_t> starts = blocks.starts;
  const std::int64_t block_count = blocks.count, piece_count = Rows == StagedRows::any ? pieces.pieces : 0;
  // Only the long-row form takes the pieces into its functor: each 64-byte line of kernel parameters costs a small
  // launch about 70 ns (perf/results/h100-cuda.md), and the pieces hold four Views; a probe's copy of this kernel
  // without them ran Cornell5 and ogbl_ddi 1-5% faster (13-22 us kernels, H100).
  const auto long_pieces = [&] {
    if constexpr (Rows == StagedRows::any)
      return pieces;
    else
      return NoLongRows{};
  }();

  typename T::team_policy policy(space, static_cast<int>(block_count + piece_count), shape.team_size,
                                 shape.vector_length);
  constexpr bool short_rows = Rows == StagedRows::short_only;
  // balanced: the lanes' arrays of reduce_rows_balanced after the products
  const std::size_t scratch =
      Balanced ? T::scalar_scratch::shmem_size(staged) +
                     balanced_rows_scratch_bytes<typename T::scalar_scratch, typename T::int_scratch>(threads)
               : staged_rows_scratch_bytes<T, short_rows>(staged);
  policy.set_scratch_size(0, Kokkos::PerTeam(scratch));
  Kokkos::parallel_for(
      "spk::spmv_stream", policy, KOKKOS_LAMBDA(const typename T::member& team) {
        const std::int64_t b = team.league_rank() - piece_count;
        if (Rows == StagedRows::any && b < 0) {
          sum_stream_piece(team, long_pieces, team.league_rank(), row_map, values, columns, x, alpha, beta, y);
          return;
        }
        const std::int64_t first = starts(b), last = starts(b + 1);
        const auto base = row_map(first);
        const int block_nnz = static_cast<int>(row_map(last) - base);
        if (Rows == StagedRows::any && block_nnz > capacity) {  // one long row: the team reduces it from global memory
          if (piece_count > 0) return;                          // unless its pieces do
          const Scalar sum = team_dot(team, values, columns, x, base, block_nnz);
          Kokkos::single(Kokkos::PerTeam(team), [&]() { spmv_store(y, first, alpha, sum, beta); });
          return;
        }
        typename T::scalar_scratch products(team.team_scratch(0), staged);
        if (Pipelined)  // not `if constexpr`: a CUDA extended lambda may not first capture `threads` inside one
          stage_products_pipelined<pipelined_gathers<Scalar>>(team, threads, products, values, columns, x, base,
                                                              block_nnz);
        else
          stage_products<stream_gathers<Scalar, Rows>>(team, products, values, columns, x, base, block_nnz);
        team.team_barrier();
        const auto store = [&](const int i, const Scalar sum) { spmv_store(y, first + i, alpha, sum, beta); };
        if (Balanced) {
          typename T::scalar_scratch carry(team.team_scratch(0), threads), first_sum(team.team_scratch(0), threads);
          typename T::int_scratch first_row(team.team_scratch(0), threads);
          reduce_rows_balanced(
              team, threads, products, carry, first_sum, first_row, static_cast<int>(last - first), block_nnz,
              [&](const int i) { return static_cast<int>(row_map(first + i + 1) - base); }, store);
          return;
        }
        typename T::int_scratch slots(team.team_scratch(0), short_rows ? 0 : long_row_slots(staged));
        reduce_staged_rows<short_rows>(
            team, products, slots, static_cast<int>(last - first),
            [&](const int i) {
              return Kokkos::pair<int, int>(static_cast<int>(row_map(first + i) - base),
                                            static_cast<int>(row_map(first + i + 1) - base));
            },
            store);
      });
}

// The pieces of stream's long rows: with a shape's chunk, the rows longer than the stage capacity (none otherwise).
template <class Matrix>
LongRows<typename Matrix::device_type, typename Matrix::scalar_type> make_stream_pieces(
    const Matrix& A, const LaunchShape& shape, const RowBlocks<typename Matrix::device_type>& blocks) {
  if (shape.chunk <= 0 || shape.windowed || blocks.rows_form != StagedRows::any) return {};
  return make_long_rows(A, shape.stage_capacity, shape.chunk);
}

// With a windowed shape, the same rows cut at column windows shared by groups of team_size rows (none otherwise).
template <class Matrix>
LongRowWindows<typename Matrix::device_type, typename Matrix::scalar_type> make_stream_windows(
    const Matrix& A, const LaunchShape& shape, const RowBlocks<typename Matrix::device_type>& blocks) {
  if (shape.chunk <= 0 || !shape.windowed || blocks.rows_form != StagedRows::any) return {};
  return make_long_row_windows(A, shape.stage_capacity, shape.chunk, shape.team_size);
}

// `pieces`: make_stream_pieces's, or make_stream_windows's.
template <class Matrix, class Pieces, class Columns, class XView, class YView>
void spmv_stream(const typename Matrix::execution_space& space, const LaunchShape& shape,
                 const RowBlocks<typename Matrix::device_type>& blocks, const Pieces& pieces,
                 const Columns& columns, typename Matrix::scalar_type alpha, const Matrix& A, const XView& x,
                 typename Matrix::scalar_type beta, const YView& y) {
  if (blocks.count == 0) return;
  const auto run = [&](auto pipelined, auto balanced) {
    constexpr bool P = decltype(pipelined)::value, B = decltype(balanced)::value;
    switch (blocks.rows_form) {
      case StagedRows::short_only:
        spmv_stream_rows<StagedRows::short_only, P, B>(space, shape, blocks, pieces, columns, alpha, A, x, beta, y);
        break;
      case StagedRows::within_stage:
        spmv_stream_rows<StagedRows::within_stage, P, B>(space, shape, blocks, pieces, columns, alpha, A, x, beta, y);
        break;
      case StagedRows::any:
        spmv_stream_rows<StagedRows::any, P, B>(space, shape, blocks, pieces, columns, alpha, A, x, beta, y);
        break;
    }
  };
  const auto with_balance = [&](auto pipelined) {
    if (shape.balanced)
      run(pipelined, std::true_type{});
    else
      run(pipelined, std::false_type{});
  };
  if (shape.pipelined)
    with_balance(std::true_type{});
  else
    with_balance(std::false_type{});
}

}  // namespace spk::impl
