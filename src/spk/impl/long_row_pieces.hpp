#pragma once
// Long rows cut into pieces of a team each (SpMV long-row-split, and stream's rows longer than its stage): a handful
// of huge rows no longer leaves the device idle behind one team. Pieces of one row combine deterministically: each
// writes its partial sum, and the team that finishes last (an atomic count per row) adds the partials in a fixed
// order and writes y, then resets the count for the next call ("last block" reduction, as in CUDA's
// threadFenceReduction sample).
#include "spmv_common.hpp"

namespace spk::impl {

template <class Device, class Scalar>
struct LongRows {
  Kokkos::View<std::int64_t*, Device> rows;         // the long rows, in order
  Kokkos::View<std::int64_t*, Device> first_piece;  // pieces of long row l: [first_piece(l), first_piece(l+1))
  Kokkos::View<Scalar*, Device> partial;            // one per piece
  Kokkos::View<int*, Device> finished;              // pieces done, per long row (back to 0 after each call)
  std::int64_t pieces = 0;
  std::int64_t piece = 0;  // nonzeros per piece (the last piece of a row may hold fewer)
};

// The rows of A longer than `threshold` nonzeros, cut into pieces of `piece`.
template <class Matrix>
LongRows<typename Matrix::device_type, typename Matrix::scalar_type> make_long_rows(const Matrix& A,
                                                                                    std::int64_t threshold,
                                                                                    std::int64_t piece) {
  using T = SpmvTypes<Matrix>;
  LongRows<typename Matrix::device_type, typename Matrix::scalar_type> lr;
  lr.piece = piece;
  const auto row_map = A.row_map();
  lr.rows = compact_indices<typename T::exec, typename T::device>(
      "spk::long_rows::rows", A.num_rows(),
      KOKKOS_LAMBDA(const std::int64_t r)->bool { return row_map(r + 1) - row_map(r) > threshold; });
  const std::int64_t count = static_cast<std::int64_t>(lr.rows.extent(0));
  lr.first_piece = typename T::index_view(zeroed<typename T::exec>("spk::long_rows::first_piece"), count + 1);
  lr.finished = Kokkos::View<int*, typename T::device>(zeroed<typename T::exec>("spk::long_rows::finished"), count);
  if (count == 0) return lr;
  const auto rows = lr.rows, first_piece = lr.first_piece;
  Kokkos::parallel_scan(
      "spk::long_rows::pieces", typename T::range_policy(0, count),
      KOKKOS_LAMBDA(const std::int64_t l, std::int64_t& pos, const bool final) {
        const std::int64_t len = row_map(rows(l) + 1) - row_map(rows(l));
        pos += (len + piece - 1) / piece;
        if (final) first_piece(l + 1) = pos;
      },
      lr.pieces);
  lr.partial = Kokkos::View<typename T::scalar*, typename T::device>(
      zeroed<typename T::exec>("spk::long_rows::partial"), lr.pieces);
  return lr;
}

// Stores a piece's partial sum and counts the piece done for its row: true for the piece that completes the row's
// `pieces` (whose caller then adds the partials; the count is its to reset).
template <class Scalar>
KOKKOS_INLINE_FUNCTION bool store_partial_last(Scalar& partial, Scalar sum, int& finished, std::int64_t pieces) {
  partial = sum;
  Kokkos::memory_fence();  // the partial is visible before the count says so
  return Kokkos::atomic_fetch_add(&finished, 1) == pieces - 1;
}

// Piece p of the long rows, by the whole team: its dot product with x, and y of its row when it is the row's last
// piece to finish. `lr` is captured by the kernel (its views are device views).
template <class Member, class LR, class RowMap, class Values, class Columns, class XView, class YView, class Scalar>
KOKKOS_INLINE_FUNCTION void sum_long_row_piece(const Member& team, const LR& lr, std::int64_t p, const RowMap& row_map,
                                               const Values& values, const Columns& columns, const XView& x,
                                               Scalar alpha, Scalar beta, const YView& y) {
  const std::int64_t lo = segment_of(lr.first_piece, static_cast<std::int64_t>(lr.rows.extent(0)), p);  // its row
  const std::int64_t row = lr.rows(lo);
  const std::int64_t begin = row_map(row) + (p - lr.first_piece(lo)) * lr.piece;
  const std::int64_t end = begin + lr.piece < row_map(row + 1) ? begin + lr.piece : row_map(row + 1);
  const Scalar sum = team_dot(team, values, columns, x, begin, static_cast<int>(end - begin));
  bool last = false;
  Kokkos::single(
      Kokkos::PerTeam(team),
      [&](bool& is_last) {
        is_last = store_partial_last(lr.partial(p), sum, lr.finished(lo), lr.first_piece(lo + 1) - lr.first_piece(lo));
      },
      last);
  if (!last) return;
  // The last piece's team adds the row's partials, its threads in a fixed order (volatile: skip a stale
  // non-coherent cache). One thread adding them with sum_carries took fp64 stream's long-row form from 48 to 64
  // registers a thread on sm_90.
  Kokkos::memory_fence();
  const std::int64_t first = lr.first_piece(lo);
  Scalar total = 0;
  Kokkos::parallel_reduce(
      Kokkos::TeamVectorRange(team, static_cast<int>(lr.first_piece(lo + 1) - first)),
      [&](const int q, Scalar& part) { part += *static_cast<volatile Scalar*>(&lr.partial(first + q)); }, total);
  Kokkos::single(Kokkos::PerTeam(team), [&]() {
    spmv_store(y, row, alpha, total, beta);
    lr.finished(lo) = 0;
  });
}

}  // namespace spk::impl
