#pragma once
// What the SpMV tests share: random x and starting y, matrices from row lists, and launch shapes small enough that
// every partition path runs.
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <spk/impl/host_row_dot.hpp>
#include <spk/reference/reference.hpp>
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

// Host CSR from per-row column lists (sorted by the caller), values uniform in [-1, 1).
template <class S, class Off>
spk::HostCsrMatrix<S, std::int32_t, Off> from_rows(const std::vector<std::vector<std::int32_t>>& rows,
                                                   std::int32_t cols, std::uint64_t seed) {
  using M = spk::HostCsrMatrix<S, std::int32_t, Off>;
  std::size_t nnz = 0;
  for (const auto& r : rows) nnz += r.size();
  typename M::row_map_type rm("row_map", rows.size() + 1);
  typename M::entries_type ent("entries", nnz);
  typename M::values_type val("values", nnz);
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::size_t k = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    for (const auto c : rows[i]) ent(k) = c, val(k++) = static_cast<S>(u(g));
    rm(i + 1) = static_cast<Off>(k);
  }
  return M(static_cast<std::int32_t>(rows.size()), cols, rm, ent, val);
}

// The oracle's y = alpha * A * x + beta * y0 in double (beta == 0: y0 unread), and per row the magnitude its rounding
// grows with, |alpha| * sum |a_ij x_j| + |beta y0_i|.
struct SpmvOracle {
  Kokkos::View<double*, Kokkos::HostSpace> y, scale;
};

template <class S, class Off, class HX, class HY>
SpmvOracle oracle_y(const spk::HostCsrMatrix<S, std::int32_t, Off>& hA, S alpha, const HX& hx, S beta,
                    const HY& hy0) {
  const auto rows = static_cast<std::size_t>(hA.num_rows());
  SpmvOracle o{Kokkos::View<double*, Kokkos::HostSpace>("ref", rows),
               Kokkos::View<double*, Kokkos::HostSpace>("scale", rows)};
  for (std::size_t i = 0; i < rows; ++i) {
    o.y(i) = beta == S(0) ? 0.0 : static_cast<double>(hy0(i));
    double s = beta == S(0) ? 0.0 : std::abs(static_cast<double>(beta) * static_cast<double>(hy0(i)));
    for (auto k = hA.row_map()(i); k < hA.row_map()(i + 1); ++k)
      s += std::abs(static_cast<double>(alpha) * static_cast<double>(hA.values()(k)) *
                    static_cast<double>(hx(hA.entries()(k))));
    o.scale(i) = s;
  }
  spk::reference::spmv(static_cast<double>(alpha), hA, hx, static_cast<double>(beta), o.y);
  return o;
}

// ||out - y|| / ||scale||: the error against the magnitudes the sums round with rather than against ||y||, which
// cancellation can make arbitrarily small (single_entry's 1 x 1 with beta y0 close to -alpha a x gave a correct fp32
// result a relative error of 7.8e-5 against y, seed 11406840902692763825).
template <class Out>
double relative_error(const Out& out, const SpmvOracle& oracle) {
  return relative_error(out, oracle.y, oracle.scale);
}

// A run's name in failure messages.
template <class S>
std::string run_name(const std::string& matrix, spk::SpmvAlgorithm algo, const std::optional<spk::LaunchShape>& shape,
                     S beta, std::uint64_t seed) {
  return matrix + ", " + std::string(spk::to_string(algo)) +
         (shape ? " with " + spk::describe(*shape) : std::string(" (selector's shape)")) + ", beta " +
         std::to_string(beta) + ", seed " + std::to_string(seed);
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
    s.pipelined = true;
    out.push_back({spk::SpmvAlgorithm::stream, s});
    s.balanced = true;
    out.push_back({spk::SpmvAlgorithm::stream, s});
    s.chunk = 0;
    out.push_back({spk::SpmvAlgorithm::stream, s});
    s.pipelined = false;
    out.push_back({spk::SpmvAlgorithm::stream, s});
    s.balanced = false;
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

// The shapes of every algorithm that takes a column reader (packed or grouped columns): its selector's shape, and
// the small partitions above.
inline std::vector<std::pair<spk::SpmvAlgorithm, std::optional<spk::LaunchShape>>> column_reader_runs() {
  std::vector<std::pair<spk::SpmvAlgorithm, std::optional<spk::LaunchShape>>> out;
  for (const auto algo : {spk::SpmvAlgorithm::thread_row, spk::SpmvAlgorithm::vector_row, spk::SpmvAlgorithm::stream,
                          spk::SpmvAlgorithm::flat})
    out.push_back({algo, std::nullopt});
  for (const auto& [algo, shape] : small_partition_shapes({1, 7, 64}))
    if (spk::select::reads_packed_columns(algo)) out.push_back({algo, shape});
  return out;
}

// Puts the host row loops' instruction set and gather form back to the detected ones when a test that overrides
// them (host_isa_cap, host_gather_choice) ends, failed or not.
struct HostRowChoicesReset {
  HostRowChoicesReset() = default;
  HostRowChoicesReset(const HostRowChoicesReset&) = delete;
  HostRowChoicesReset& operator=(const HostRowChoicesReset&) = delete;
  ~HostRowChoicesReset() {
    spk::impl::host_isa_cap().store(-1);
    spk::impl::host_gather_choice().store(-1);
  }
};

// 2,000 rows over 300,000 columns: rows spread far (for the host row loops' vector and read-ahead paths), every 50th
// longer than row_dot_long_row (130 to 429 nonzeros), the others 0 to 39.
inline Shape far_and_long_rows() {
  return {"far_and_long", 2000, 300000, [](std::int64_t r, std::mt19937_64& g) {
            return static_cast<std::int64_t>(r % 50 == 0 ? 130 + g() % 300 : g() % 40);
          }};
}

}  // namespace spk_test
