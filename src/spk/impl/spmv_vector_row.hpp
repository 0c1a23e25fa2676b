#pragma once
// SpMV vector-row (CSR-Vector): each thread of a team owns a row and its vector lanes split the row's nonzeros,
// then reduce. The lane count follows the row-length distribution (Bell & Garland, "Implementing sparse
// matrix-vector multiplication on throughput-oriented processors", SC'09).
#include "../csr_matrix.hpp"
#include "../execution.hpp"
#include "../launch_shape.hpp"
#include "host_row_dot.hpp"

namespace spk::impl {

template <class Matrix, class XView, class YView>
void spmv_vector_row(const LaunchShape& shape, typename Matrix::scalar_type alpha, const Matrix& A, const XView& x,
                     typename Matrix::scalar_type beta, const YView& y) {
  using exec = typename Matrix::execution_space;
  using Scalar = typename Matrix::scalar_type;
  using Offset = typename Matrix::offset_type;
  using policy_type = team_policy_for<exec>;
  using member_type = typename policy_type::member_type;

  const std::int64_t rows = A.num_rows();
  if (rows == 0) return;
  const std::int64_t rows_per_team = shape.rows_per_team();
  const std::int64_t league = (rows + rows_per_team - 1) / rows_per_team;
  const auto row_map = A.row_map();
  const auto entries = A.entries();
  const auto columns = columns_in_place(entries);
  const auto values = A.values();
  const bool gathers = host_row_gathers<exec>(x);
  // A plain if in the kernel: nvcc refuses an extended lambda whose first capture is inside an if constexpr.
  const bool host_rows = is_host_space<exec>();

  Kokkos::parallel_for(
      "spk::spmv_vector_row", policy_type(static_cast<int>(league), shape.team_size, shape.vector_length),
      KOKKOS_LAMBDA(const member_type& team) {
        const std::int64_t first = static_cast<std::int64_t>(team.league_rank()) * rows_per_team;
        const std::int64_t count = first + rows_per_team < rows ? rows_per_team : rows - first;
        if (host_rows) {  // one lane per row: the host row loop (host_row_dot.hpp)
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, static_cast<int>(count)), [&](const int i) {
            const std::int64_t row = first + i;
            spmv_store(y, row, alpha, row_dot(gathers, values, columns, x, row_map(row), row_map(row + 1)), beta);
          });
          return;
        }
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, static_cast<int>(count)), [&](const int i) {
          const std::int64_t row = first + i;
          const Offset begin = row_map(row);
          Scalar sum = 0;
          Kokkos::parallel_reduce(
              Kokkos::ThreadVectorRange(team, static_cast<int>(row_map(row + 1) - begin)),
              [&](const int j, Scalar& partial) { partial += values(begin + j) * x(entries(begin + j)); }, sum);
          Kokkos::single(Kokkos::PerThread(team), [&]() {
            spmv_store(y, row, alpha, sum, beta);
          });
        });
      });
}

}  // namespace spk::impl
