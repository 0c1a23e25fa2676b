#pragma once
// SpMM row-team: each thread of a team owns a row of C; its vector lanes own the dense columns, each lane
// accumulating columns_per_lane columns in registers across the row's nonzeros before one store. Works for any
// layout of B and C (the lanes read consecutive columns, which coalesces for row-major B).
#include "../csr_matrix.hpp"
#include "../launch_shape.hpp"

namespace spk::impl {

template <class ExecSpace>
constexpr int spmm_columns_per_lane() {
  return is_host_space<ExecSpace>() ? 8 : 4;
}

template <class Matrix, class BView, class CView>
void spmm_row_team(const LaunchShape& shape, typename Matrix::scalar_type alpha, const Matrix& A, const BView& B,
                   typename Matrix::scalar_type beta, const CView& C) {
  using exec = typename Matrix::execution_space;
  using Scalar = typename Matrix::scalar_type;
  using Offset = typename Matrix::offset_type;
  using policy_type = Kokkos::TeamPolicy<exec>;
  using member_type = typename policy_type::member_type;
  constexpr int cpl = spmm_columns_per_lane<exec>();

  const std::int64_t rows = A.num_rows();
  const int k = static_cast<int>(B.extent(1));
  if (rows == 0 || k == 0) return;
  const int lanes = shape.vector_length;
  const int tile = lanes * cpl;
  const std::int64_t rows_per_team = shape.rows_per_team();
  const std::int64_t league = (rows + rows_per_team - 1) / rows_per_team;
  const auto row_map = A.row_map();
  const auto entries = A.entries();
  const auto values = A.values();

  Kokkos::parallel_for(
      "spk::spmm_row_team", policy_type(static_cast<int>(league), shape.team_size, lanes),
      KOKKOS_LAMBDA(const member_type& team) {
        const std::int64_t first = static_cast<std::int64_t>(team.league_rank()) * rows_per_team;
        const std::int64_t count = first + rows_per_team < rows ? rows_per_team : rows - first;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, static_cast<int>(count)), [&](const int i) {
          const std::int64_t row = first + i;
          const Offset begin = row_map(row), end = row_map(row + 1);
          for (int c0 = 0; c0 < k; c0 += tile) {
            Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, lanes), [&](const int lane) {
              Scalar acc[cpl];
              for (int j = 0; j < cpl; ++j) acc[j] = 0;
              for (Offset p = begin; p < end; ++p) {
                const Scalar v = values(p);
                const auto col = entries(p);
                for (int j = 0; j < cpl; ++j) {
                  const int c = c0 + lane + j * lanes;
                  if (c < k) acc[j] += v * B(col, c);
                }
              }
              for (int j = 0; j < cpl; ++j) {
                const int c = c0 + lane + j * lanes;
                if (c < k) C(row, c) = beta == Scalar(0) ? alpha * acc[j] : alpha * acc[j] + beta * C(row, c);
              }
            });
          }
        });
      });
}

}  // namespace spk::impl
