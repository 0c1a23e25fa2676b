#pragma once
// Row sums of staged products in equal shares a lane, after the merge-based SpMV of Merrill & Garland ("Merge-based
// parallel sparse matrix-vector multiplication", SC'16) applied inside one team: the rows' ends and the products,
// merged in order, are cut into equal runs of items, one run a lane, so a lane's work does not depend on how long
// its rows are. reduce_staged_rows (spmv_common.hpp) gives a short row one lane and a longer one a vector; on
// Cornell5 (rows of about 85 nonzeros) its long-row list, atomic counter and extra barrier took about 4 of a stream
// kernel's 15 us (H100 probe).
#include <cstddef>

#include <Kokkos_Core.hpp>

namespace spk::impl {

// Scratch bytes of reduce_rows_balanced's lane arrays for `lanes` lanes: `carry` and `first_sum` (ScalarScratch),
// `first_row` (IntScratch).
template <class ScalarScratch, class IntScratch>
std::size_t balanced_rows_scratch_bytes(int lanes) {
  return 2 * ScalarScratch::shmem_size(lanes) + IntScratch::shmem_size(lanes);
}

// Sums `count` rows whose products lie in scratch, row i over products [row_end(i - 1), row_end(i)) (row_end(-1) is
// 0, row_end(count - 1) the number of products), and calls store(i, sum) once per row, empty rows included.
// `lanes` runs of items (the TeamVectorRange over them is split across the team's threads and vector lanes): run t
// is items [t * per, (t + 1) * per) of the merged sequence, item r + k being product k when row r's end comes after
// it, else row r's end. A lane sums its products row by row and stores every row that ends in its run but the
// first; it keeps that first row's sum and the partial of the row it stops inside (its carry). After a barrier each
// lane with a first row adds the carries of the lanes before it that hold that row: those from the run holding the
// row's first product to its own. Deterministic: the order of the additions depends on the lanes and rows only.
// The caller holds the barrier after staging; `carry`, `first_sum`: lanes scalars, `first_row`: lanes ints.
template <class Member, class Products, class Carry, class FirstRow, class RowEnd, class Store>
KOKKOS_INLINE_FUNCTION void reduce_rows_balanced(const Member& team, int lanes, const Products& products,
                                                 const Carry& carry, const Carry& first_sum,
                                                 const FirstRow& first_row, int count, int n, const RowEnd& row_end,
                                                 const Store& store) {
  using Scalar = typename Products::non_const_value_type;
  const int items = count + n, per = (items + lanes - 1) / lanes;
  Kokkos::parallel_for(Kokkos::TeamVectorRange(team, lanes), [&](const int t) {
    const int d0 = t * per < items ? t * per : items, d1 = d0 + per < items ? d0 + per : items;
    // the rows whose end comes before item d0: a binary search along the merge path's diagonal d0
    int lo = d0 - n > 0 ? d0 - n : 0, hi = d0 < count ? d0 : count;
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      if (row_end(mid) <= d0 - mid - 1)
        lo = mid + 1;
      else
        hi = mid;
    }
    int r = lo, k = d0 - lo, end = r < count ? row_end(r) : n, fr = -1;
    Scalar sum = 0, fs = 0;
    for (int d = d0; d < d1; ++d) {
      if (k < end) {
        sum += products(k++);
        continue;
      }
      if (fr < 0)
        fr = r, fs = sum;
      else
        store(r, sum);
      sum = 0;
      ++r;
      end = r < count ? row_end(r) : n;
    }
    carry(t) = sum;
    first_row(t) = fr;
    first_sum(t) = fs;
  });
  team.team_barrier();
  Kokkos::parallel_for(Kokkos::TeamVectorRange(team, lanes), [&](const int t) {
    const int r = first_row(t);
    if (r < 0) return;
    const int t0 = (r + (r > 0 ? row_end(r - 1) : 0)) / per;  // the run holding row r's first item
    // four partial sums: a row across many runs (ogbl_ddi's rows of 500 span 60 lanes) reads its carries at once
    Scalar s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    int u = t0;
    for (; u + 3 < t; u += 4) s0 += carry(u), s1 += carry(u + 1), s2 += carry(u + 2), s3 += carry(u + 3);
    for (; u < t; ++u) s0 += carry(u);
    store(r, first_sum(t) + ((s0 + s1) + (s2 + s3)));
  });
}

}  // namespace spk::impl
