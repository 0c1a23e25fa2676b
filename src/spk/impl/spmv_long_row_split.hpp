#pragma once
// SpMV long-row split, for the skewed tail: rows longer than `long_row` are cut into pieces of `chunk` nonzeros
// and every piece gets a team of its own, so a handful of huge rows no longer leaves the device idle behind one team.
// The other rows run as in vector-row, in the same launch. Pieces of one row combine deterministically: each
// writes its partial sum, and the team that finishes last (an atomic count per row) adds the partials in piece
// order and writes y, then resets the count for the next call ("last block" reduction, as in CUDA's
// threadFenceReduction sample).
#include "../csr_matrix.hpp"
#include "../launch_shape.hpp"
#include "host_row_dot.hpp"
#include "spmv_common.hpp"

namespace spk::impl {

template <class Device, class Scalar>
struct LongRows {
  Kokkos::View<std::int64_t*, Device> rows;         // the long rows, in order
  Kokkos::View<std::int64_t*, Device> first_piece;  // pieces of long row l: [first_piece(l), first_piece(l+1))
  Kokkos::View<Scalar*, Device> partial;            // one per piece
  Kokkos::View<int*, Device> finished;              // pieces done, per long row (back to 0 after each call)
  std::int64_t pieces = 0;
};

template <class Matrix>
LongRows<typename Matrix::device_type, typename Matrix::scalar_type> make_long_rows(const Matrix& A,
                                                                                    const LaunchShape& shape) {
  using T = SpmvTypes<Matrix>;
  LongRows<typename Matrix::device_type, typename Matrix::scalar_type> lr;
  const auto row_map = A.row_map();
  const std::int64_t threshold = shape.long_row, piece = shape.chunk;
  lr.rows = compact_indices<typename T::exec, typename T::device>(
      "spk::spmv_long_row_split::rows", A.num_rows(),
      KOKKOS_LAMBDA(const std::int64_t r)->bool { return row_map(r + 1) - row_map(r) > threshold; });
  const std::int64_t count = static_cast<std::int64_t>(lr.rows.extent(0));
  lr.first_piece = typename T::index_view(zeroed<typename T::exec>("spk::spmv_long_row_split::first_piece"), count + 1);
  lr.finished = Kokkos::View<int*, typename T::device>(zeroed<typename T::exec>("spk::spmv_long_row_split::finished"),
                                                       count);
  if (count == 0) return lr;
  const auto rows = lr.rows, first_piece = lr.first_piece;
  Kokkos::parallel_scan(
      "spk::spmv_long_row_split::pieces", typename T::range_policy(0, count),
      KOKKOS_LAMBDA(const std::int64_t l, std::int64_t& pos, const bool final) {
        const std::int64_t len = row_map(rows(l) + 1) - row_map(rows(l));
        pos += (len + piece - 1) / piece;
        if (final) first_piece(l + 1) = pos;
      },
      lr.pieces);
  lr.partial = Kokkos::View<typename T::scalar*, typename T::device>(
      zeroed<typename T::exec>("spk::spmv_long_row_split::partial"), lr.pieces);
  return lr;
}

template <class Matrix, class XView, class YView>
void spmv_long_row_split(const LaunchShape& shape,
                         const LongRows<typename Matrix::device_type, typename Matrix::scalar_type>& lr,
                         typename Matrix::scalar_type alpha, const Matrix& A, const XView& x,
                         typename Matrix::scalar_type beta, const YView& y) {
  using T = SpmvTypes<Matrix>;
  using Scalar = typename T::scalar;
  const std::int64_t rows = A.num_rows();
  if (rows == 0) return;
  const std::int64_t rows_per_team = shape.rows_per_team();
  const std::int64_t short_teams = (rows + rows_per_team - 1) / rows_per_team;
  const std::int64_t long_count = static_cast<std::int64_t>(lr.rows.extent(0));
  const std::int64_t threshold = shape.long_row, piece = shape.chunk;
  const auto row_map = A.row_map();
  const auto columns = columns_in_place(A.entries());
  const auto values = A.values();
  const bool gathers = host_row_gathers<typename T::exec>(x);  // host_row_dot.hpp
  // A plain if in the kernel: nvcc refuses an extended lambda whose first capture is inside an if constexpr.
  const bool host_rows = is_host_space<typename T::exec>();
  const auto long_rows = lr.rows, first_piece = lr.first_piece;
  const auto partial = lr.partial;
  const auto finished = lr.finished;

  typename T::team_policy policy(static_cast<int>(short_teams + lr.pieces), shape.team_size, shape.vector_length);
  Kokkos::parallel_for(
      "spk::spmv_long_row_split", policy, KOKKOS_LAMBDA(const typename T::member& team) {
        const std::int64_t rank = team.league_rank();
        if (rank < short_teams) {  // vector-row over a block of rows, skipping the long ones
          const std::int64_t first = rank * rows_per_team;
          const std::int64_t count = first + rows_per_team < rows ? rows_per_team : rows - first;
          if (host_rows) {  // one lane per row: the host row loop
            Kokkos::parallel_for(Kokkos::TeamThreadRange(team, static_cast<int>(count)), [&](const int i) {
              const std::int64_t row = first + i;
              const auto begin = row_map(row), end = row_map(row + 1);
              if (end - begin > threshold) return;
              spmv_store(y, row, alpha, row_dot(gathers, values, columns, x, begin, end), beta);
            });
            return;
          }
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, static_cast<int>(count)), [&](const int i) {
            const std::int64_t row = first + i;
            const auto begin = row_map(row);
            const std::int64_t len = row_map(row + 1) - begin;
            if (len > threshold) return;
            Scalar sum = 0;
            Kokkos::parallel_reduce(
                Kokkos::ThreadVectorRange(team, static_cast<int>(len)),
                [&](const int k, Scalar& part) {
                  part += load_once(values(begin + k)) * load_reused(x(columns.streamed(begin + k)));
                },
                sum);
            Kokkos::single(Kokkos::PerThread(team), [&]() { spmv_store(y, row, alpha, sum, beta); });
          });
          return;
        }
        const std::int64_t p = rank - short_teams;
        std::int64_t lo = 0, hi = long_count - 1;  // the long row whose pieces include p
        while (lo < hi) {
          const std::int64_t mid = (lo + hi + 1) / 2;
          if (first_piece(mid) <= p)
            lo = mid;
          else
            hi = mid - 1;
        }
        const std::int64_t row = long_rows(lo);
        const std::int64_t begin = row_map(row) + (p - first_piece(lo)) * piece;
        const std::int64_t end = begin + piece < row_map(row + 1) ? begin + piece : row_map(row + 1);
        const Scalar sum = team_dot(team, values, columns, x, begin, static_cast<int>(end - begin));
        Kokkos::single(Kokkos::PerTeam(team), [&]() {
          const std::int64_t pieces = first_piece(lo + 1) - first_piece(lo);
          partial(p) = sum;
          Kokkos::memory_fence();  // the partial is visible before the count says so
          if (Kokkos::atomic_fetch_add(&finished(lo), 1) != pieces - 1) return;
          Kokkos::memory_fence();
          // volatile: skip a stale non-coherent cache
          const Scalar total = sum_carries<Scalar>(first_piece(lo), first_piece(lo + 1), [&](std::int64_t q) {
            return *static_cast<volatile Scalar*>(&partial(q));
          });
          spmv_store(y, row, alpha, total, beta);
          finished(lo) = 0;
        });
      });
}

}  // namespace spk::impl
