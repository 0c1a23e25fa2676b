#pragma once
// SpMM selection: algorithm and launch shape from the dense width k.
#include <algorithm>

#include "../algorithms.hpp"
#include "../impl/spmm_row_team.hpp"
#include "../launch_shape.hpp"
#include "../matrix_stats.hpp"

namespace spk::select {

inline SpmmAlgorithm choose_spmm_algorithm(const RowLengthStats&, int) { return SpmmAlgorithm::row_team; }

template <class ExecSpace>
LaunchShape spmm_launch_shape(SpmmAlgorithm, const RowLengthStats&, int k) {
  LaunchShape shape;
  if constexpr (is_host_space<ExecSpace>()) {
    shape.rows_per_thread = 64;
    return shape;
  }
  // Enough lanes that one pass of columns_per_lane columns each covers k, up to the hardware width.
  const int per_lane = impl::spmm_columns_per_lane<ExecSpace>();
  shape.vector_length = std::clamp(pow2_ceil((k + per_lane - 1) / per_lane), 1, max_vector_length<ExecSpace>());
  shape.team_size = std::max(1, 128 / shape.vector_length);
  return shape;
}

}  // namespace spk::select
