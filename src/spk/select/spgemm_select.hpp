#pragma once
// SpGEMM launch shape: lanes follow the average length of B's rows (the inner loop), threads the rest of a team.
#include <algorithm>

#include "../launch_shape.hpp"

namespace spk::select {

template <class ExecSpace>
LaunchShape spgemm_launch_shape(double mean_b_row_length) {
  LaunchShape shape;
  if constexpr (is_host_space<ExecSpace>()) return shape;
  shape.vector_length =
      std::clamp(pow2_ceil(static_cast<long long>(mean_b_row_length + 0.5)), 1, max_vector_length<ExecSpace>());
  shape.team_size = std::max(1, 64 / shape.vector_length);
  return shape;
}

// Hash slots per team scratch: as many (key, value) pairs as fit in the level-0 budget, rounded down to a power of
// two (tables are powers of two).
template <class ExecSpace, class Scalar, class Ordinal>
int spgemm_scratch_slots() {
  if constexpr (is_host_space<ExecSpace>()) {
    return 1 << 14;
  } else {
    const long budget = std::min<long>(Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(0), 48 * 1024) - 256;
    const long fit = budget / static_cast<long>(sizeof(Scalar) + sizeof(Ordinal));
    int slots = 1;
    while (2L * slots <= fit) slots *= 2;
    return slots;
  }
}

}  // namespace spk::select
