#pragma once
// SpMV vector-row (CSR-Vector): each thread of a team owns rows and its vector lanes split each row's nonzeros,
// then reduce. The lane count follows the row-length distribution (Bell & Garland, "Implementing sparse
// matrix-vector multiplication on throughput-oriented processors", SC'09).
//
// On GPUs a thread takes shape.rows_per_thread consecutive rows and sums them R at a time (R = 4, 2 or 1, whichever
// divides rows_per_thread): the lanes issue the loads of all R rows before the first add, so a warp keeps R rows'
// bytes in flight instead of waiting out one row's latency per row, then reduce the R sums with shuffles.
#include "../csr_matrix.hpp"
#include "../execution.hpp"
#include "../launch_shape.hpp"
#include "device_array.hpp"
#include "host_row_dot.hpp"
#include "lane_groups.hpp"
#include "spmv_common.hpp"

namespace spk::impl {

// Rows a GPU vector sums at once for a shape's rows per thread (the largest of 4, 2, 1 dividing it).
inline int vector_rows_at_once(int rows_per_thread) {
  return rows_per_thread % 4 == 0 ? 4 : (rows_per_thread % 2 == 0 ? 2 : 1);
}

template <int R, class Matrix, class Columns, class XView, class YView>
struct VectorRowsTeam {
  using T = SpmvTypes<Matrix>;
  using Scalar = typename T::scalar;
  using Offset = typename T::offset;

  DeviceArray<const Offset> row_map;
  DeviceArray<const Scalar> values;
  Columns columns;
  XView x;
  YView y;
  Scalar alpha, beta;
  std::int64_t rows;
  int rows_per_thread, lanes;
  HostRowReads reads;  // host: how the row loop reads x (host_row_dot.hpp)

  KOKKOS_INLINE_FUNCTION void operator()(const typename T::member& team) const {
    const std::int64_t per_team = static_cast<std::int64_t>(team.team_size()) * rows_per_thread;
    const std::int64_t first = static_cast<std::int64_t>(team.league_rank()) * per_team;
    const std::int64_t count = first + per_team < rows ? per_team : rows - first;
    if constexpr (is_host_space<typename T::exec>()) {  // one lane per row: the host row loop
      host_row_loop(team, first, static_cast<int>(count), host_rows_of_any_length, reads, row_map,
                    values, columns, x, alpha, beta, y);
    } else {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, team.team_size()), [&](const int i) {
        const std::int64_t r0 = first + static_cast<std::int64_t>(i) * rows_per_thread;
        const std::int64_t r1 = r0 + rows_per_thread < first + count ? r0 + rows_per_thread : first + count;
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, lanes), [&](const int lane) {
          for (std::int64_t r = r0; r < r1; r += R) sum_rows(r, r1, lane);
        });
      });
    }
  }

  // Rows r .. r + R - 1 (those below `end`), by one vector; `lane` is this lane's index in it.
  KOKKOS_INLINE_FUNCTION void sum_rows(std::int64_t r, std::int64_t end, int lane) const {
    Offset b[R], e[R];
    Offset longest = 0;
    for (int u = 0; u < R; ++u) {
      const bool real = r + u < end;
      b[u] = real ? row_map(r + u) : Offset(0);
      e[u] = real ? row_map(r + u + 1) : Offset(0);
      longest = e[u] - b[u] > longest ? e[u] - b[u] : longest;
    }
    Scalar sum[R] = {};
    for (Offset j = lane; j < longest; j += lanes) {
      Scalar v[R];
      typename Columns::ordinal c[R];
      for (int u = 0; u < R; ++u)
        if (b[u] + j < e[u]) v[u] = load_once(values(b[u] + j)), c[u] = columns.streamed(b[u] + j);
      for (int u = 0; u < R; ++u)
        if (b[u] + j < e[u]) sum[u] += v[u] * load_reused(x(c[u]));
    }
    for (int u = 0; u < R; ++u) {
      const Scalar s = sum_over_lane_groups(sum[u], 1, lanes);
      // every lane holds the sum; R lanes store the R rows at once
      if (lane == u % lanes && r + u < end) spmv_store(y, r + u, alpha, s, beta);
    }
  }
};

// `columns` reads the column indices: A's own or the plan's packed copy (packed_columns.hpp); `longest_row`, A's
// longest row (the plan's), tells the host row loop whether any row takes vectors, and `far_columns` (the plan's)
// whether it reads x ahead.
template <class Matrix, class Columns, class XView, class YView>
void spmv_vector_row(const typename Matrix::execution_space& space, const LaunchShape& shape, const Columns& columns,
                     typename Matrix::scalar_type alpha, const Matrix& A, const XView& x,
                     typename Matrix::scalar_type beta, const YView& y, std::int64_t longest_row, bool far_columns) {
  using exec = typename Matrix::execution_space;
  const std::int64_t rows = A.num_rows();
  if (rows == 0) return;
  const std::int64_t league = (rows + shape.rows_per_team() - 1) / shape.rows_per_team();
  const auto launch = [&](auto at_once) {
    using Team = VectorRowsTeam<decltype(at_once)::value, Matrix, Columns, XView, YView>;
    const Team body{A.row_map(), A.values(), columns, x, y, alpha, beta, rows, shape.rows_per_thread,
                    shape.vector_length, host_row_reads<exec>(x, longest_row, far_columns)};
    Kokkos::parallel_for("spk::spmv_vector_row",
                         team_policy_for<exec>(space, static_cast<int>(league), shape.team_size, shape.vector_length),
                         body);
  };
  const int at_once = is_host_space<exec>() ? 1 : vector_rows_at_once(shape.rows_per_thread);
  if (at_once == 4)
    launch(std::integral_constant<int, 4>{});
  else if (at_once == 2)
    launch(std::integral_constant<int, 2>{});
  else
    launch(std::integral_constant<int, 1>{});
}

}  // namespace spk::impl
