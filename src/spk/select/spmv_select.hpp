#pragma once
// SpMV selection: algorithm and launch shape from row-length features.
#include <algorithm>

#include "../algorithms.hpp"
#include "../launch_shape.hpp"
#include "../matrix_stats.hpp"

namespace spk::select {

// Rows shorter than this on average leave most vector lanes idle: one thread per row wins.
inline constexpr double thread_row_max_mean = 6.0;

inline SpmvAlgorithm choose_spmv_algorithm(const RowLengthStats& s) {
  return s.mean_length < thread_row_max_mean ? SpmvAlgorithm::thread_row : SpmvAlgorithm::vector_row;
}

template <class ExecSpace>
LaunchShape spmv_launch_shape(SpmvAlgorithm algorithm, const RowLengthStats& s) {
  LaunchShape shape;
  if constexpr (is_host_space<ExecSpace>()) {
    shape.rows_per_thread = 256;  // amortise per-team overhead; rows are independent
    return shape;
  }
  constexpr int threads_per_team = 128;
  if (algorithm == SpmvAlgorithm::thread_row) {
    shape.team_size = threads_per_team;
    shape.stage_capacity = threads_per_team * 8;  // a block of 128 rows averaging up to 8 nonzeros
  } else {
    const int lanes = std::clamp(pow2_ceil(static_cast<long long>(s.mean_length + 0.5)), 2,
                                 max_vector_length<ExecSpace>());
    shape.vector_length = lanes;
    shape.team_size = std::max(1, threads_per_team / lanes);
  }
  return shape;
}

}  // namespace spk::select
