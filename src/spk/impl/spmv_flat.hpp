#pragma once
// SpMV flat one-pass (merge-path: Merrill & Garland, "Merge-based parallel sparse matrix-vector multiplication",
// SC'16). The merge of the row ends with the nonzero indices is cut into equal chunks of `chunk` items (rows +
// nonzeros), so every team gets the same work whatever the row lengths, including empty rows and rows longer than a
// chunk. Each team takes its chunk exactly once: it streams the chunk's products into scratch (coalesced), reduces
// the rows that end inside the chunk and writes them, and leaves the partial sum of a row that continues past the
// chunk in `carry`. A row that started in an earlier chunk leaves its in-chunk part in `head`; a small fix-up pass
// then adds the carries of the chunks it spans in chunk order, so the result is deterministic (no atomics).
#include "../csr_matrix.hpp"
#include "../launch_shape.hpp"
#include "spmv_common.hpp"

namespace spk::impl {

template <class Device, class Scalar>
struct MergePath {
  Kokkos::View<std::int64_t*, Device> split_row;  // chunk t covers rows [split_row(t), split_row(t+1)] ...
  Kokkos::View<std::int64_t*, Device> split_nnz;  // ... and nonzeros [split_nnz(t), split_nnz(t+1))
  Kokkos::View<Scalar*, Device> carry;            // partial sum of row split_row(t+1) inside chunk t
  Kokkos::View<Scalar*, Device> head;             // in-chunk part of row split_row(t) when it began earlier
  Kokkos::View<std::int64_t*, Device> fixups;     // chunks whose first finished row began in an earlier chunk
  std::int64_t chunks = 0;
};

template <class Matrix>
MergePath<typename Matrix::device_type, typename Matrix::scalar_type> make_merge_path(const Matrix& A, int chunk) {
  using T = SpmvTypes<Matrix>;
  MergePath<typename Matrix::device_type, typename Matrix::scalar_type> mp;
  const std::int64_t rows = A.num_rows(), nnz = A.nnz(), items = rows + nnz;
  if (rows == 0) return mp;
  mp.chunks = (items + chunk - 1) / chunk;
  mp.split_row = typename T::index_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, "spk::spmv_flat::rows"),
                                        mp.chunks + 1);
  mp.split_nnz = typename T::index_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, "spk::spmv_flat::nnz"),
                                        mp.chunks + 1);
  // Written before they are read: carry(t) by every chunk with a continuing row, head(t) by every fix-up chunk.
  mp.carry = Kokkos::View<typename T::scalar*, typename T::device>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "spk::spmv_flat::carry"), mp.chunks);
  mp.head = Kokkos::View<typename T::scalar*, typename T::device>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "spk::spmv_flat::head"), mp.chunks);
  const auto row_map = A.row_map();
  const auto split_row = mp.split_row, split_nnz = mp.split_nnz;
  Kokkos::parallel_for(
      "spk::spmv_flat::search", typename T::range_policy(0, mp.chunks + 1), KOKKOS_LAMBDA(const std::int64_t t) {
        // Merge-path search on diagonal d: the number of row ends consumed before nonzero d - i.
        const std::int64_t d = t * chunk < items ? t * chunk : items;
        std::int64_t lo = d > nnz ? d - nnz : 0, hi = d < rows ? d : rows;
        while (lo < hi) {
          const std::int64_t pivot = (lo + hi) / 2;
          if (static_cast<std::int64_t>(row_map(pivot + 1)) <= d - pivot - 1)
            lo = pivot + 1;
          else
            hi = pivot;
        }
        split_row(t) = lo;
        split_nnz(t) = d - lo;
      });
  mp.fixups = compact_indices<typename T::exec, typename T::device>(
      "spk::spmv_flat::fixups", mp.chunks, KOKKOS_LAMBDA(const std::int64_t t)->bool {
        return split_row(t) < split_row(t + 1) && row_map(split_row(t)) < split_nnz(t);
      });
  return mp;
}

template <class Matrix, class XView, class YView>
void spmv_flat(const LaunchShape& shape, const MergePath<typename Matrix::device_type, typename Matrix::scalar_type>& mp,
               typename Matrix::scalar_type alpha, const Matrix& A, const XView& x, typename Matrix::scalar_type beta,
               const YView& y) {
  using T = SpmvTypes<Matrix>;
  using Scalar = typename T::scalar;
  if (mp.chunks == 0) return;
  const std::int64_t rows = A.num_rows();
  const int chunk = shape.chunk;
  const auto row_map = A.row_map();
  const auto entries = A.entries();
  const auto values = A.values();
  const auto split_row = mp.split_row, split_nnz = mp.split_nnz;
  const auto carry = mp.carry, head = mp.head;

  typename T::team_policy policy(static_cast<int>(mp.chunks), shape.team_size, shape.vector_length);
  policy.set_scratch_size(0, Kokkos::PerTeam(T::scalar_scratch::shmem_size(chunk)));
  Kokkos::parallel_for(
      "spk::spmv_flat", policy, KOKKOS_LAMBDA(const typename T::member& team) {
        const int t = team.league_rank();
        const std::int64_t first = split_row(t), last = split_row(t + 1);
        const std::int64_t j0 = split_nnz(t);
        const int n = static_cast<int>(split_nnz(t + 1) - j0);
        typename T::scalar_scratch products(team.team_scratch(0), chunk);
        stage_products(team, products, values, entries, x, j0, n);
        team.team_barrier();
        // Rows first..last-1 end in this chunk; row `last` (when it exists) continues into the next chunk.
        const int count = static_cast<int>(last - first) + (last < rows ? 1 : 0);
        const auto segment_begin = [&](std::int64_t row) {
          const std::int64_t b = row_map(row);
          return static_cast<int>((b > j0 ? b : j0) - j0);
        };
        const auto segment_end = [&](std::int64_t row) {
          return row < last ? static_cast<int>(row_map(row + 1) - j0) : n;
        };
        const auto finish = [&](std::int64_t row, Scalar sum) {
          if (row == last)
            carry(t) = sum;
          else if (row == first && row_map(row) < j0)
            head(t) = sum;
          else
            spmv_store(y, row, alpha, sum, beta);
        };
        if (count <= 2) {  // a chunk inside one or two long rows: the whole team reduces each
          for (int i = 0; i < count; ++i) {
            const std::int64_t row = first + i;
            const int begin = segment_begin(row);
            Scalar sum = 0;
            Kokkos::parallel_reduce(
                Kokkos::TeamVectorRange(team, segment_end(row) - begin),
                [&](const int k, Scalar& partial) { partial += products(begin + k); }, sum);
            Kokkos::single(Kokkos::PerTeam(team), [&]() { finish(row, sum); });
          }
          return;
        }
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count), [&](const int i) {
          const std::int64_t row = first + i;
          const int begin = segment_begin(row);
          Scalar sum = 0;
          Kokkos::parallel_reduce(
              Kokkos::ThreadVectorRange(team, segment_end(row) - begin),
              [&](const int k, Scalar& partial) { partial += products(begin + k); }, sum);
          Kokkos::single(Kokkos::PerThread(team), [&]() { finish(row, sum); });
        });
      });

  if (mp.fixups.extent(0) == 0) return;
  const auto fixups = mp.fixups;
  Kokkos::parallel_for(
      "spk::spmv_flat::fixup", typename T::range_policy(0, static_cast<std::int64_t>(fixups.extent(0))),
      KOKKOS_LAMBDA(const std::int64_t f) {
        const std::int64_t t = fixups(f), row = split_row(t);
        std::int64_t u = t;  // chunks u-1 .. t-1 end inside `row` (chunk 0 when the row starts the matrix)
        while (u > 0 && split_row(u - 1) == row) --u;
        Scalar sum = 0;
        for (std::int64_t s = u > 0 ? u - 1 : 0; s < t; ++s) sum += carry(s);
        sum += head(t);
        spmv_store(y, row, alpha, sum, beta);
      });
}

}  // namespace spk::impl
