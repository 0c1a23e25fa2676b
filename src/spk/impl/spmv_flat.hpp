#pragma once
// SpMV flat one-pass over the merge-path partition (merge_path.hpp): every team gets the same work whatever the
// row lengths. Each team takes its chunk exactly once: it streams the chunk's products into scratch (coalesced),
// reduces the rows that end inside the chunk and writes them, and leaves the partial sum of a row that continues
// past the chunk in `carry`. A row that started in an earlier chunk leaves its in-chunk part in `head`; a small
// fix-up pass then adds the carries of the chunks it spans in chunk order, so the result is deterministic (no
// atomics).
#include "../csr_matrix.hpp"
#include "../launch_shape.hpp"
#include "device_array.hpp"
#include "merge_path.hpp"
#include "spmv_common.hpp"

namespace spk::impl {

// The partition plus the per-chunk partial sums the fix-up adds.
template <class Device, class Scalar>
struct MergePath : MergePartition<Device> {
  Kokkos::View<Scalar*, Device> carry;  // partial sum of row split_row(t+1) inside chunk t
  Kokkos::View<Scalar*, Device> head;   // in-chunk part of row split_row(t) when it began earlier
  StagedRows rows_form = StagedRows::any;  // short_only: every row fits a lane (flat has no within_stage form)
};

// `max_length`: A's longest row.
template <class Matrix>
MergePath<typename Matrix::device_type, typename Matrix::scalar_type> make_merge_path(const Matrix& A, int chunk,
                                                                                      std::int64_t max_length) {
  using T = SpmvTypes<Matrix>;
  MergePath<typename Matrix::device_type, typename Matrix::scalar_type> mp;
  static_cast<MergePartition<typename Matrix::device_type>&>(mp) = make_merge_partition(A, chunk);
  mp.rows_form = max_length <= serial_row_max ? StagedRows::short_only : StagedRows::any;
  if (mp.chunks == 0) return mp;
  // Written before they are read: carry(t) by every chunk with a continuing row, head(t) by every fix-up chunk.
  const Kokkos::View<typename T::scalar*, typename T::device> block(
      uninitialized<typename T::exec>("spk::spmv_flat::carry_head"), 2 * mp.chunks);  // one allocation for both
  mp.carry = Kokkos::subview(block, std::make_pair(std::int64_t{0}, mp.chunks));
  mp.head = Kokkos::subview(block, std::make_pair(mp.chunks, 2 * mp.chunks));
  return mp;
}

// The main launch. Rows (MergePath::rows_form): short_only leaves out the whole-team reduction of chunks inside one
// or two long rows and the lane-group reduction, and the registers they hold: 32 (fp32) or 40 (fp64) a thread on
// sm_90 instead of 56 or 64. (Leaving out only the first, where no row is longer than a chunk, saved none; 8 gathers a
// lane in fp32, as stream's short form, took flat to 40 registers and 2-5% slower on st3d27 and lap2d on an H200.)
template <StagedRows Rows, class Matrix, class Columns, class XView, class YView>
void spmv_flat_chunks(const typename Matrix::execution_space& space, const LaunchShape& shape,
                      const MergePath<typename Matrix::device_type, typename Matrix::scalar_type>& mp,
                      const Columns& columns, typename Matrix::scalar_type alpha, const Matrix& A, const XView& x,
                      typename Matrix::scalar_type beta, const YView& y) {
  using T = SpmvTypes<Matrix>;
  using Scalar = typename T::scalar;
  const std::int64_t rows = A.num_rows();
  const int chunk = shape.chunk;
  const DeviceArray<const typename T::offset> row_map = A.row_map();
  const DeviceArray<const Scalar> values = A.values();
  const DeviceArray<const std::int64_t> split_row = mp.split_row, split_nnz = mp.split_nnz;
  const DeviceArray<Scalar> carry = mp.carry, head = mp.head;

  typename T::team_policy policy(space, static_cast<int>(mp.chunks), shape.team_size, shape.vector_length);
  constexpr bool short_rows = Rows == StagedRows::short_only;
  policy.set_scratch_size(0, Kokkos::PerTeam(staged_rows_scratch_bytes<T, short_rows>(chunk)));
  Kokkos::parallel_for(
      "spk::spmv_flat", policy, KOKKOS_LAMBDA(const typename T::member& team) {
        const int t = team.league_rank();
        const std::int64_t first = split_row(t), last = split_row(t + 1);
        const std::int64_t j0 = split_nnz(t);
        const int n = static_cast<int>(split_nnz(t + 1) - j0);
        typename T::scalar_scratch products(team.team_scratch(0), chunk);
        typename T::int_scratch slots(team.team_scratch(0), short_rows ? 0 : long_row_slots(chunk));
        // aligned segments (stage_products) with A's own or renumbered indices: chunks start anywhere in A
        stage_products<gathers_per_lane, !is_packed_columns<Columns>>(team, products, values, columns, x, j0, n);
        team.team_barrier();
        // Rows first..last-1 end in this chunk; row `last` (when it exists) continues into the next chunk.
        const int count = static_cast<int>(last - first) + (last < rows ? 1 : 0);
        const auto segment = [&](const int i) {
          const std::int64_t row = first + i, b = row_map(row);
          return Kokkos::pair<int, int>(static_cast<int>((b > j0 ? b : j0) - j0),
                                        row < last ? static_cast<int>(row_map(row + 1) - j0) : n);
        };
        const auto finish = [&](const int i, const Scalar sum) {
          const std::int64_t row = first + i;
          if (row == last)
            carry(t) = sum;
          else if (row == first && row_map(row) < j0)
            head(t) = sum;
          else
            spmv_store(y, row, alpha, sum, beta);
        };
        if (Rows == StagedRows::any && count <= 2) {  // a chunk inside one or two long rows: a team reduces each
          for (int i = 0; i < count; ++i) {
            const Kokkos::pair<int, int> seg = segment(i);
            Scalar sum = 0;
            Kokkos::parallel_reduce(
                Kokkos::TeamVectorRange(team, seg.second - seg.first),
                [&](const int k, Scalar& partial) { partial += products(seg.first + k); }, sum);
            Kokkos::single(Kokkos::PerTeam(team), [&]() { finish(i, sum); });
          }
          return;
        }
        reduce_staged_rows<short_rows>(team, products, slots, count, segment, finish);
      });
}

// `columns` reads the column indices: A's own or the plan's packed copy (packed_columns.hpp).
template <class Matrix, class Columns, class XView, class YView>
void spmv_flat(const typename Matrix::execution_space& space, const LaunchShape& shape,
               const MergePath<typename Matrix::device_type, typename Matrix::scalar_type>& mp, const Columns& columns,
               typename Matrix::scalar_type alpha, const Matrix& A, const XView& x, typename Matrix::scalar_type beta,
               const YView& y) {
  using T = SpmvTypes<Matrix>;
  using Scalar = typename T::scalar;
  if (mp.chunks == 0) return;
  if (mp.rows_form == StagedRows::short_only)
    spmv_flat_chunks<StagedRows::short_only>(space, shape, mp, columns, alpha, A, x, beta, y);
  else
    spmv_flat_chunks<StagedRows::any>(space, shape, mp, columns, alpha, A, x, beta, y);

  if (mp.fixups.extent(0) == 0) return;
  const auto split_row = mp.split_row;
  const auto carry = mp.carry, head = mp.head;
  const auto fixups = mp.fixups, fixup_first = mp.fixup_first;
  Kokkos::parallel_for(
      "spk::spmv_flat::fixup", typename T::range_policy(space, 0, static_cast<std::int64_t>(fixups.extent(0))),
      KOKKOS_LAMBDA(const std::int64_t f) {
        const std::int64_t t = fixups(f), row = split_row(t);
        const Scalar sum =
            sum_carries<Scalar>(fixup_first(f), t, [&](std::int64_t s) { return carry(s); }) + head(t);
        spmv_store(y, row, alpha, sum, beta);
      });
}

}  // namespace spk::impl
