#pragma once
// SpMV flat one-pass over the merge-path partition (merge_path.hpp): every team gets the same work whatever the
// row lengths. Each team takes its chunk exactly once: it streams the chunk's products into scratch (coalesced),
// reduces the rows that end inside the chunk and writes them, and leaves the partial sum of a row that continues
// past the chunk in `carry`. A row that started in an earlier chunk leaves its in-chunk part in `head`; a small
// fix-up pass then adds the carries of the chunks it spans in chunk order, so the result is deterministic (no
// atomics).
#include "../csr_matrix.hpp"
#include "../launch_shape.hpp"
#include "merge_path.hpp"
#include "spmv_common.hpp"

namespace spk::impl {

// The partition plus the per-chunk partial sums the fix-up adds.
template <class Device, class Scalar>
struct MergePath : MergePartition<Device> {
  Kokkos::View<Scalar*, Device> carry;  // partial sum of row split_row(t+1) inside chunk t
  Kokkos::View<Scalar*, Device> head;   // in-chunk part of row split_row(t) when it began earlier
  bool short_rows = false;  // no row holds more than serial_row_max nonzeros (the kernel's lighter form)
};

// `max_length`: A's longest row.
template <class Matrix>
MergePath<typename Matrix::device_type, typename Matrix::scalar_type> make_merge_path(const Matrix& A, int chunk,
                                                                                      std::int64_t max_length) {
  using T = SpmvTypes<Matrix>;
  MergePath<typename Matrix::device_type, typename Matrix::scalar_type> mp;
  static_cast<MergePartition<typename Matrix::device_type>&>(mp) = make_merge_partition(A, chunk);
  mp.short_rows = max_length <= serial_row_max;
  if (mp.chunks == 0) return mp;
  // Written before they are read: carry(t) by every chunk with a continuing row, head(t) by every fix-up chunk.
  const Kokkos::View<typename T::scalar*, typename T::device> block(
      uninitialized<typename T::exec>("spk::spmv_flat::carry_head"), 2 * mp.chunks);  // one allocation for both
  mp.carry = Kokkos::subview(block, std::make_pair(std::int64_t{0}, mp.chunks));
  mp.head = Kokkos::subview(block, std::make_pair(mp.chunks, 2 * mp.chunks));
  return mp;
}

// The main launch. ShortRows (MergePath::short_rows): no chunk lies inside a long row and no staged row needs more
// than a lane, so the kernel leaves out those paths and the registers they hold (as spmv_stream_rows).
template <bool ShortRows, class Matrix, class Columns, class XView, class YView>
void spmv_flat_chunks(const LaunchShape& shape,
                      const MergePath<typename Matrix::device_type, typename Matrix::scalar_type>& mp,
                      const Columns& columns, typename Matrix::scalar_type alpha, const Matrix& A, const XView& x,
                      typename Matrix::scalar_type beta, const YView& y) {
  using T = SpmvTypes<Matrix>;
  using Scalar = typename T::scalar;
  const std::int64_t rows = A.num_rows();
  const int chunk = shape.chunk;
  const auto row_map = A.row_map();
  const auto values = A.values();
  const auto split_row = mp.split_row, split_nnz = mp.split_nnz;
  const auto carry = mp.carry, head = mp.head;

  typename T::team_policy policy(static_cast<int>(mp.chunks), shape.team_size, shape.vector_length);
  policy.set_scratch_size(0, Kokkos::PerTeam(staged_rows_scratch_bytes<T, ShortRows>(chunk)));
  Kokkos::parallel_for(
      "spk::spmv_flat", policy, KOKKOS_LAMBDA(const typename T::member& team) {
        const int t = team.league_rank();
        const std::int64_t first = split_row(t), last = split_row(t + 1);
        const std::int64_t j0 = split_nnz(t);
        const int n = static_cast<int>(split_nnz(t + 1) - j0);
        typename T::scalar_scratch products(team.team_scratch(0), chunk);
        typename T::int_scratch slots(team.team_scratch(0), ShortRows ? 0 : long_row_slots(chunk));
        stage_products(team, products, values, columns, x, j0, n);
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
        if (!ShortRows && count <= 2) {  // a chunk inside one or two long rows: the whole team reduces each
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
        reduce_staged_rows<ShortRows>(team, products, slots, count, segment, finish);
      });
}

// `columns` reads the column indices: A's own or the plan's packed copy (packed_columns.hpp).
template <class Matrix, class Columns, class XView, class YView>
void spmv_flat(const LaunchShape& shape,
               const MergePath<typename Matrix::device_type, typename Matrix::scalar_type>& mp, const Columns& columns,
               typename Matrix::scalar_type alpha, const Matrix& A, const XView& x, typename Matrix::scalar_type beta,
               const YView& y) {
  using T = SpmvTypes<Matrix>;
  using Scalar = typename T::scalar;
  if (mp.chunks == 0) return;
  if (mp.short_rows)
    spmv_flat_chunks<true>(shape, mp, columns, alpha, A, x, beta, y);
  else
    spmv_flat_chunks<false>(shape, mp, columns, alpha, A, x, beta, y);

  if (mp.fixups.extent(0) == 0) return;
  const auto split_row = mp.split_row;
  const auto carry = mp.carry, head = mp.head;
  const auto fixups = mp.fixups, fixup_first = mp.fixup_first;
  Kokkos::parallel_for(
      "spk::spmv_flat::fixup", typename T::range_policy(0, static_cast<std::int64_t>(fixups.extent(0))),
      KOKKOS_LAMBDA(const std::int64_t f) {
        const std::int64_t t = fixups(f), row = split_row(t);
        const Scalar sum =
            sum_carries<Scalar>(fixup_first(f), t, [&](std::int64_t s) { return carry(s); }) + head(t);
        spmv_store(y, row, alpha, sum, beta);
      });
}

}  // namespace spk::impl
