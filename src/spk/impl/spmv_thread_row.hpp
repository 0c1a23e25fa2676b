#pragma once
// SpMV thread-row: one thread per row. A team's contiguous block of rows is first copied into scratch with
// coalesced loads (when it fits), so the per-row loops read scratch instead of strided global memory.
// Good for very short rows, where a vector per row would leave most lanes idle.
#include "../csr_matrix.hpp"
#include "../execution.hpp"
#include "../launch_shape.hpp"
#include "device_array.hpp"
#include "host_row_dot.hpp"
#include "packed_columns.hpp"

namespace spk::impl {

// `columns` reads the column indices: A's own or the plan's packed copy (packed_columns.hpp).
// `longest_row`: A's longest row (the plan's), which tells the host row loop whether any row takes vectors;
// `far_columns`: the plan's finding that most rows read x from far apart (the host row loop then reads ahead).
template <class Matrix, class Columns, class XView, class YView>
void spmv_thread_row(const typename Matrix::execution_space& space, const LaunchShape& shape, const Columns& columns,
                     typename Matrix::scalar_type alpha, const Matrix& A, const XView& x,
                     typename Matrix::scalar_type beta, const YView& y, std::int64_t longest_row, bool far_columns) {
  using exec = typename Matrix::execution_space;
  using Scalar = typename Matrix::scalar_type;
  using Ordinal = typename Matrix::ordinal_type;
  using Offset = typename Matrix::offset_type;
  using policy_type = team_policy_for<exec>;
  using member_type = typename policy_type::member_type;
  using scratch_space = typename exec::scratch_memory_space;
  using ordinal_scratch = Kokkos::View<Ordinal*, scratch_space, Kokkos::MemoryUnmanaged>;
  using scalar_scratch = Kokkos::View<Scalar*, scratch_space, Kokkos::MemoryUnmanaged>;

  const std::int64_t rows = A.num_rows();
  if (rows == 0) return;
  const std::int64_t rows_per_team = shape.rows_per_team();
  const std::int64_t league = (rows + rows_per_team - 1) / rows_per_team;
  const int capacity = shape.stage_capacity;
  const std::size_t scratch_bytes = ordinal_scratch::shmem_size(capacity) + scalar_scratch::shmem_size(capacity);
  const DeviceArray<const Offset> row_map = A.row_map();
  const DeviceArray<const Scalar> values = A.values();
  const HostRowReads reads = host_row_reads<exec>(x, longest_row, far_columns);  // host_row_dot.hpp

  policy_type policy(space, static_cast<int>(league), shape.team_size, 1);
  // Host teams (one thread) read A in place, in a launch of their own: inside the staged kernel's body the same row
  // loop ran lap2d 1024 10-13% slower (2-core Zen 3). A plain if: nvcc refuses an extended lambda whose first capture
  // is inside an if constexpr.
  if (is_host_space<exec>() && capacity == 0) {
    Kokkos::parallel_for(
        "spk::spmv_thread_row", policy, KOKKOS_LAMBDA(const member_type& team) {
          const std::int64_t first = static_cast<std::int64_t>(team.league_rank()) * rows_per_team;
          const std::int64_t last = first + rows_per_team < rows ? first + rows_per_team : rows;
          host_row_loop<true>(team, first, static_cast<int>(last - first), host_rows_of_any_length, reads,
                              row_map, values, columns, x, alpha, beta, y);
        });
    return;
  }
  if (capacity > 0) policy.set_scratch_size(0, Kokkos::PerTeam(scratch_bytes));
  Kokkos::parallel_for(
      "spk::spmv_thread_row", policy, KOKKOS_LAMBDA(const member_type& team) {
        const std::int64_t first = static_cast<std::int64_t>(team.league_rank()) * rows_per_team;
        const std::int64_t last = first + rows_per_team < rows ? first + rows_per_team : rows;
        const Offset base = row_map(first);
        const Offset block_nnz = row_map(last) - base;
        const bool staged = capacity > 0 && block_nnz <= capacity;
        ordinal_scratch cols_s;
        scalar_scratch vals_s;
        if (staged) {
          cols_s = ordinal_scratch(team.team_scratch(0), capacity);
          vals_s = scalar_scratch(team.team_scratch(0), capacity);
          // Lane q copies q, q + n/2: two independent loads of each array in flight per lane.
          const int n = static_cast<int>(block_nnz), half = (n + 1) / 2;
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, half), [&](const int q) {
            const bool second = q + half < n;
            const Ordinal c0 = columns.plain(base + q), c1 = second ? columns.plain(base + q + half) : 0;
            const Scalar v0 = values(base + q), v1 = second ? values(base + q + half) : Scalar(0);
            cols_s(q) = c0;
            vals_s(q) = v0;
            if (second) cols_s(q + half) = c1, vals_s(q + half) = v1;
          });
          team.team_barrier();
        }
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, static_cast<int>(last - first)), [&](const int i) {
          const std::int64_t row = first + i;
          Scalar sum = 0;
          if (staged) {
            for (Offset k = row_map(row) - base; k < row_map(row + 1) - base; ++k) sum += vals_s(k) * x(cols_s(k));
          } else {
            sum = row_dot(reads.gathers, values, columns, x, row_map(row), row_map(row + 1));
          }
          spmv_store(y, row, alpha, sum, beta);
        });
      });
}

}  // namespace spk::impl
