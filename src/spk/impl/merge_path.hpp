#pragma once
// The merge-path partition (Merrill & Garland, "Merge-based parallel sparse matrix-vector multiplication", SC'16)
// that the flat SpMV and SpMM kernels share. The merge of the row ends with the nonzero indices is cut into equal
// chunks of `chunk` items (rows + nonzeros), so every chunk is the same work whatever the row lengths, empty rows
// and rows longer than a chunk included. A row that crosses chunk boundaries is finished by a fix-up, listed here.
#include "spmv_common.hpp"

namespace spk::impl {

// The first chunk whose carry belongs to the row that fix-up chunk t finishes: chunks first .. t-1 end inside it.
// split_row is non-decreasing, so a binary search finds the first chunk starting in that row (a row split over
// hundreds of chunks would otherwise cost a dependent load per chunk).
template <class SplitRow>
KOKKOS_INLINE_FUNCTION std::int64_t first_carry_chunk(const SplitRow& split_row, std::int64_t t) {
  const std::int64_t row = split_row(t);
  std::int64_t lo = 0, hi = t;  // the smallest u in [0, t] with split_row(u) == row
  while (lo < hi) {
    const std::int64_t mid = (lo + hi) / 2;
    if (split_row(mid) < row)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo > 0 ? lo - 1 : 0;
}

template <class Device>
struct MergePartition {
  Kokkos::View<std::int64_t*, Device> split_row;  // chunk t covers rows [split_row(t), split_row(t+1)] ...
  Kokkos::View<std::int64_t*, Device> split_nnz;  // ... and nonzeros [split_nnz(t), split_nnz(t+1))
  Kokkos::View<std::int64_t*, Device> fixups;     // chunks whose first finished row began in an earlier chunk
  Kokkos::View<std::int64_t*, Device> fixup_first;  // fixup_first(f): the first chunk whose carry fixups(f) adds
  std::int64_t chunks = 0;
};

template <class Matrix>
MergePartition<typename Matrix::device_type> make_merge_partition(const Matrix& A, int chunk) {
  using T = SpmvTypes<Matrix>;
  MergePartition<typename Matrix::device_type> mp;
  const std::int64_t rows = A.num_rows(), nnz = A.nnz(), items = rows + nnz;
  if (rows == 0) return mp;
  mp.chunks = (items + chunk - 1) / chunk;
  mp.split_row = typename T::index_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, "spk::merge_path::rows"),
                                        mp.chunks + 1);
  mp.split_nnz = typename T::index_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, "spk::merge_path::nnz"),
                                        mp.chunks + 1);
  const auto row_map = A.row_map();
  const auto split_row = mp.split_row, split_nnz = mp.split_nnz;
  Kokkos::parallel_for(
      "spk::merge_path::search", typename T::range_policy(0, mp.chunks + 1), KOKKOS_LAMBDA(const std::int64_t t) {
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
      "spk::merge_path::fixups", mp.chunks, KOKKOS_LAMBDA(const std::int64_t t)->bool {
        return split_row(t) < split_row(t + 1) && row_map(split_row(t)) < split_nnz(t);
      });
  const std::int64_t fixups = static_cast<std::int64_t>(mp.fixups.extent(0));
  mp.fixup_first = typename T::index_view(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "spk::merge_path::fixup_first"), fixups);
  const auto fix = mp.fixups, fixup_first = mp.fixup_first;
  Kokkos::parallel_for(
      "spk::merge_path::fixup_first", typename T::range_policy(0, fixups),
      KOKKOS_LAMBDA(const std::int64_t f) { fixup_first(f) = first_carry_chunk(split_row, fix(f)); });
  return mp;
}

}  // namespace spk::impl
