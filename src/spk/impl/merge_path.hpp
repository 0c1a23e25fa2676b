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
  // One allocation for the four index arrays: split_row, split_nnz, then room for fixups and fixup_first.
  const std::int64_t c = mp.chunks;
  const typename T::index_view block(uninitialized<typename T::exec>("spk::merge_path"), 4 * c + 2);
  const auto part = [&](std::int64_t begin, std::int64_t size) {
    return Kokkos::subview(block, std::make_pair(begin, begin + size));
  };
  mp.split_row = part(0, c + 1);
  mp.split_nnz = part(c + 1, c + 1);
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
  const auto fix_room = part(2 * c + 2, c), first_room = part(3 * c + 2, c);
  const std::int64_t fixups = compact_into<typename T::exec>(
      "spk::merge_path::fixups", c,
      KOKKOS_LAMBDA(const std::int64_t t)->bool {
        return split_row(t) < split_row(t + 1) && row_map(split_row(t)) < split_nnz(t);
      },
      KOKKOS_LAMBDA(const std::int64_t f, const std::int64_t t) {
        fix_room(f) = t;
        first_room(f) = first_carry_chunk(split_row, t);
      });
  mp.fixups = part(2 * c + 2, fixups);
  mp.fixup_first = part(3 * c + 2, fixups);
  return mp;
}

}  // namespace spk::impl
