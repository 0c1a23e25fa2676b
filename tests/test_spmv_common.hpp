#pragma once
// What the SpMV tests share: random x and starting y, and launch shapes small enough that every partition path runs.
#include <utility>
#include <vector>

#include <spk/spmv.hpp>

#include "test_common.hpp"
#include "test_matrices.hpp"

namespace spk_test {

// x and a starting y for A, random with the seed, on the test device (hx, hy0: their host copies).
template <class S>
struct SpmvInputs {
  Kokkos::View<S*, TestDevice> x, y0;
  typename Kokkos::View<S*, TestDevice>::HostMirror hx, hy0;
};
template <class S, class Off>
SpmvInputs<S> random_spmv_inputs(const spk::HostCsrMatrix<S, std::int32_t, Off>& hA, std::uint64_t seed) {
  SpmvInputs<S> in;
  in.x = Kokkos::View<S*, TestDevice>("x", hA.num_cols());
  in.y0 = Kokkos::View<S*, TestDevice>("y0", hA.num_rows());
  in.hx = Kokkos::create_mirror_view(in.x);
  in.hy0 = Kokkos::create_mirror_view(in.y0);
  fill_random(in.hx, seed + 1);
  fill_random(in.hy0, seed + 2);
  Kokkos::deep_copy(in.x, in.hx);
  Kokkos::deep_copy(in.y0, in.hy0);
  return in;
}

// For each size: stream blocks of that capacity (one-row blocks, rows longer than the capacity: a team each, and
// cut into pieces of 2 * size + 1), merge-path chunks of that many items (far shorter than a row: carries, fix-ups
// spanning many chunks), long rows cut into pieces of that length (the last-piece combine), and vector-row threads
// of that many rows.
inline std::vector<std::pair<spk::SpmvAlgorithm, spk::LaunchShape>> small_partition_shapes(
    const std::vector<int>& sizes = {1, 2, 3, 7, 64}) {
  const int lanes = spk::max_vector_length<TestExec>();
  const int team = spk::is_host_space<TestExec>() ? 1 : 64 / lanes > 0 ? 64 / lanes : 1;
  std::vector<std::pair<spk::SpmvAlgorithm, spk::LaunchShape>> out;
  for (const int small : sizes) {
    spk::LaunchShape s;
    s.team_size = team;
    s.vector_length = lanes;
    s.stage_capacity = small;
    out.push_back({spk::SpmvAlgorithm::stream, s});
    s.chunk = 2 * small + 1;
    out.push_back({spk::SpmvAlgorithm::stream, s});
    s.stage_capacity = 0;
    s.chunk = small;
    out.push_back({spk::SpmvAlgorithm::flat, s});
    s.long_row = small == 1 ? 1 : 3 * small;
    out.push_back({spk::SpmvAlgorithm::long_row_split, s});
    // vector-row: `small` rows per thread, summed 4, 2 or 1 at a time on GPUs, with a full vector and with 2 lanes
    // (fewer lanes than rows at once: the lanes that store wrap around)
    spk::LaunchShape v;
    v.team_size = team;
    v.rows_per_thread = small;
    for (const int l : {lanes, lanes < 2 ? lanes : 2}) {
      v.vector_length = l;
      out.push_back({spk::SpmvAlgorithm::vector_row, v});
    }
  }
  return out;
}

}  // namespace spk_test
