#pragma once
// SpMV long-row split, for the skewed tail: rows longer than `long_row` are cut into pieces of `chunk` nonzeros,
// a team each (long_row_pieces.hpp). The other rows run as in vector-row, in the same launch.
#include <algorithm>

#include "../csr_matrix.hpp"
#include "../launch_shape.hpp"
#include "device_array.hpp"
#include "host_row_dot.hpp"
#include "long_row_pieces.hpp"
#include "spmv_common.hpp"

namespace spk::impl {

// `longest_row`: A's longest row (the plan's), which tells the host row loop whether any row takes vectors;
// `far_columns` (the plan's), whether it reads x ahead.
template <class Matrix, class XView, class YView>
void spmv_long_row_split(const typename Matrix::execution_space& space, const LaunchShape& shape,
                         const LongRows<typename Matrix::device_type, typename Matrix::scalar_type>& lr,
                         typename Matrix::scalar_type alpha, const Matrix& A, const XView& x,
                         typename Matrix::scalar_type beta, const YView& y, std::int64_t longest_row,
                         bool far_columns) {
  using T = SpmvTypes<Matrix>;
  using Scalar = typename T::scalar;
  const std::int64_t rows = A.num_rows();
  if (rows == 0) return;
  const std::int64_t rows_per_team = shape.rows_per_team();
  const std::int64_t short_teams = (rows + rows_per_team - 1) / rows_per_team;
  const std::int64_t threshold = shape.long_row;
  const DeviceArray<const typename Matrix::offset_type> row_map = A.row_map();
  const auto columns = columns_in_place(A.entries());
  const DeviceArray<const typename Matrix::scalar_type> values = A.values();
  // rows over the threshold go to the long-row teams: the host row loop's longest is at most the threshold
  const HostRowReads reads = host_row_reads<typename T::exec>(x, std::min(longest_row, threshold), far_columns);
  // A plain if in the kernel: nvcc refuses an extended lambda whose first capture is inside an if constexpr.
  const bool host_rows = is_host_space<typename T::exec>();

  typename T::team_policy policy(space, static_cast<int>(short_teams + lr.pieces), shape.team_size,
                                 shape.vector_length);
  Kokkos::parallel_for(
      "spk::spmv_long_row_split", policy, KOKKOS_LAMBDA(const typename T::member& team) {
        const std::int64_t rank = team.league_rank();
        if (rank < short_teams) {  // vector-row over a block of rows, skipping the long ones
          const std::int64_t first = rank * rows_per_team;
          const std::int64_t count = first + rows_per_team < rows ? rows_per_team : rows - first;
          if (host_rows) {  // one lane per row: the host row loop
            host_row_loop(team, first, static_cast<int>(count), threshold, reads, row_map, values, columns, x, alpha,
                          beta, y);
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
        sum_long_row_piece(team, lr, rank - short_teams, row_map, values, columns, x, alpha, beta, y);
      });
}

}  // namespace spk::impl
