#pragma once
// SpMM selection: algorithm and launch shape (lanes per row, columns per lane, team size, stage capacity or chunk)
// from the dense width k and row-length features. With `automatic`, the nearest swept (matrix, k) of the
// back-end's tuning table (backends/tuning/spmm_<backend>.hpp, written by `spk-bench --sweep --op spmm`) decides; a
// forced algorithm takes the shape of its nearest entry. Without a usable entry, the rules below apply.
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <utility>

#include <tuning/spmm_cuda.hpp>
#include <tuning/spmm_hip.hpp>
#include <tuning/spmm_openmp.hpp>

#include "../algorithms.hpp"
#include "../execution.hpp"
#include "../launch_shape.hpp"
#include "../matrix_stats.hpp"
#include "device_tables.hpp"

namespace spk::select {

struct SpmmChoice {
  SpmmAlgorithm algorithm = SpmmAlgorithm::automatic;
  LaunchShape shape;
  const char* tuned_from = nullptr;  // the table entry it came from, if any
};

// The tuning table of ExecSpace: CUDA's (swept on an H100; no model has a table of its own yet, device_tables.hpp),
// HIP's, and the OpenMP one that host back-ends share.
template <class ExecSpace>
TuningTable<tuning::SpmmTuningEntry> spmm_tuning() {
  using Table = TuningTable<tuning::SpmmTuningEntry>;
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) return Table{tuning::spmm_cuda, "spmm_cuda"};
#endif
#if defined(KOKKOS_ENABLE_HIP)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::HIP>) return Table{tuning::spmm_hip, "spmm_hip"};
#endif
  return is_host_space<ExecSpace>() ? Table{tuning::spmm_openmp, "spmm_openmp"} : Table{};
}

template <class ExecSpace>
const tuning::SpmmTuningEntry* spmm_table() {
  return spmm_tuning<ExecSpace>().entries;
}

// Distance in log feature space: k weighs most (it sets the lane layout), then the mean row length, the tail and
// the size (rows and nonzeros: a small matrix needs shapes that spread it over enough warps to fill the GPU).
inline double spmm_feature_distance(const RowLengthStats& s, int k, const tuning::SpmmTuningEntry& e) {
  const auto d = [](double a, double b) { return std::log2(1 + a) - std::log2(1 + b); };
  const double width = d(k, e.k), mean = d(s.mean_length, e.mean), max = d(static_cast<double>(s.max_length), e.max);
  const double spread = d(s.stddev_length, e.stddev), rows = d(static_cast<double>(s.rows), e.rows);
  const double nnz = d(static_cast<double>(s.nnz), e.rows * e.mean);
  return 8 * width * width + 4 * mean * mean + max * max + spread * spread + 0.5 * rows * rows + nnz * nnz;
}

// The nearest entry with this precision (any precision if none), and this algorithm unless automatic, whose shape
// also fits k: at most k columns per lane, rounded up to a power of two (an entry for k = 256 with 8 columns per
// lane would mask most of each lane's loads at k = 3). Lanes beyond what k needs are not idle: they form lane
// groups that share each row's nonzeros (lane_groups.hpp).
inline const tuning::SpmmTuningEntry* nearest_spmm_entry(const tuning::SpmmTuningEntry* table,
                                                         const RowLengthStats& s, int k, int scalar_bytes,
                                                         SpmmAlgorithm algorithm) {
  const tuning::SpmmTuningEntry* best = nullptr;
  double best_distance = 0;
  bool best_same_precision = false;
  for (const auto* e = table; e && e->matrix; ++e) {
    if (algorithm != SpmmAlgorithm::automatic && e->algorithm != algorithm) continue;
    if (e->shape.columns_per_lane > pow2_ceil(k)) continue;
    const bool same = e->scalar_bytes == scalar_bytes;
    const double distance = spmm_feature_distance(s, k, *e);
    if (!best || (same && !best_same_precision) || (same == best_same_precision && distance < best_distance)) {
      best = e;
      best_distance = distance;
      best_same_precision = same;
    }
  }
  return best;
}

inline SpmmAlgorithm rule_spmm_algorithm(const RowLengthStats& s) {
  // A heavy tail (rows far longer than the mean) unbalances one-row-per-thread: balance nonzeros instead.
  return static_cast<double>(s.max_length) > 32 * (s.mean_length + 1) ? SpmmAlgorithm::flat : SpmmAlgorithm::row_team;
}

template <class ExecSpace>
LaunchShape rule_spmm_shape(SpmmAlgorithm algorithm, const RowLengthStats& s, int k) {
  LaunchShape shape;
  if constexpr (is_host_space<ExecSpace>()) {
    shape.columns_per_lane = k >= 16 ? 16 : (k >= 8 ? 8 : 1);
    shape.stage_capacity = 4096;
  } else {
    // One column per lane up to a warp, then more columns per lane (wider register tiles) up to 8.
    const int width = std::min(pow2_ceil(k), 8 * max_vector_length<ExecSpace>());
    shape.columns_per_lane = std::clamp(width / max_vector_length<ExecSpace>(), 1, 8);
    shape.vector_length = std::clamp(width / shape.columns_per_lane, 1, max_vector_length<ExecSpace>());
    shape.team_size = std::max(1, 256 / shape.vector_length);
    shape.stage_capacity = 1024;
  }
  if (algorithm == SpmmAlgorithm::flat) {
    // Carries cost 2 x chunks x k scalars: chunks of several mean rows keep them under half of C. On GPUs a team
    // stages team_size x chunk nonzeros: at most 2048 (24 KiB in fp64), fewer threads when chunks are long.
    const int least = pow2_ceil(static_cast<long long>(std::min(4096.0, 4 * (s.mean_length + 1))));
    if (is_host_space<ExecSpace>()) {
      shape.chunk = std::max(1024, least);
    } else {
      shape.chunk = std::clamp(least, 16, 2048);
      shape.team_size = std::max(1, std::min(shape.team_size, 2048 / shape.chunk));
    }
    shape.stage_capacity = 0;
  }
  if (algorithm == SpmmAlgorithm::vector_row) {  // a vector per row on GPUs; a host thread takes a run of rows
    shape.stage_capacity = 0;
    shape.rows_per_thread = is_host_space<ExecSpace>() ? 64 : 1;
  }
  if (algorithm == SpmmAlgorithm::row_pieces) {  // pieces of 256 nonzeros, 16 vectors a team (the H100 probe's best)
    shape.stage_capacity = 0;
    shape.chunk = is_host_space<ExecSpace>() ? 4096 : 256;
    if (!is_host_space<ExecSpace>()) shape.team_size = std::max(1, 512 / shape.vector_length);
  }
  return shape;
}

// Team scratch a shape needs: staged nonzeros (values + column indices) plus, for row blocks with rows longer than
// the capacity, the long-row partials; vector-row stages nothing and needs only the long-row partials.
inline std::size_t spmm_scratch_bytes(SpmmAlgorithm algorithm, const LaunchShape& shape, std::size_t scalar_bytes,
                                      std::size_t ordinal_bytes, std::int64_t max_length) {
  if (algorithm == SpmmAlgorithm::row_pieces) return 0;  // reads A in place, partials in registers
  if (algorithm == SpmmAlgorithm::vector_row)  // the row's nonzeros pass through registers; long rows' partials
    return shape.long_row > 0 && max_length > shape.long_row
               ? static_cast<std::size_t>(shape.team_size) * shape.vector_length * shape.columns_per_lane * scalar_bytes +
                     64
               : 0;
  const std::size_t staged =
      static_cast<std::size_t>(algorithm == SpmmAlgorithm::flat ? shape.team_size * shape.chunk : shape.stage_capacity);
  std::size_t bytes = staged * (scalar_bytes + ordinal_bytes) + 64;  // 64: alignment
  if (algorithm != SpmmAlgorithm::flat && max_length > shape.stage_capacity)
    bytes += static_cast<std::size_t>(shape.team_size) * shape.vector_length * shape.columns_per_lane * scalar_bytes;
  return bytes;
}

template <class ExecSpace>
std::size_t spmm_scratch_max() {
  return is_host_space<ExecSpace>() ? std::size_t(1) << 30
                                    : static_cast<std::size_t>(Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(0));
}

// A table entry swept in another precision (or with 4-byte indices) may need more scratch here: halve the flat
// team or the stage capacity until it fits.
template <class ExecSpace>
LaunchShape fit_spmm_scratch(SpmmAlgorithm algorithm, LaunchShape shape, std::size_t scalar_bytes,
                             std::size_t ordinal_bytes, std::int64_t max_length) {
  while (spmm_scratch_bytes(algorithm, shape, scalar_bytes, ordinal_bytes, max_length) >
         spmm_scratch_max<ExecSpace>()) {
    if (algorithm == SpmmAlgorithm::flat && shape.team_size > 1)
      shape.team_size /= 2;
    else if (algorithm == SpmmAlgorithm::flat && shape.chunk > 1)
      shape.chunk /= 2;
    else if (algorithm != SpmmAlgorithm::flat && shape.stage_capacity > 1)
      shape.stage_capacity /= 2;
    else
      break;  // nothing left to shrink: the plan's check names the problem
  }
  return shape;
}

// One row holding more than 1% of the nonzeros (more than a GPU multiprocessor's share) is a tail that row-team and
// k-tiled leave to one team while the rest of the GPU idles: arrow (46,500 rows, one of 46,500 nonzeros) took a
// swept R-MAT's row-team shape to 0.12x cuSPARSE at k = 32 in fp32 (H200), where flat had 0.47x. On GPUs,
// `automatic` then takes the nearest entry of an algorithm that splits long rows (flat, row-pieces), whatever the
// nearest entry's algorithm.
inline bool spmm_row_tail(const RowLengthStats& s) {
  return s.nnz > 0 && static_cast<double>(s.max_length) > 0.01 * static_cast<double>(s.nnz);
}

template <class ExecSpace>
SpmmChoice choose_spmm(SpmmAlgorithm forced, const RowLengthStats& s, int k, int scalar_bytes,
                       int ordinal_bytes = 4) {
  SpmmChoice c;
  const tuning::SpmmTuningEntry* e = nullptr;
  if (forced == SpmmAlgorithm::automatic && !is_host_space<ExecSpace>() && spmm_row_tail(s)) {
    const auto* flat = nearest_spmm_entry(spmm_table<ExecSpace>(), s, k, scalar_bytes, SpmmAlgorithm::flat);
    const auto* pieces = nearest_spmm_entry(spmm_table<ExecSpace>(), s, k, scalar_bytes, SpmmAlgorithm::row_pieces);
    const auto rank = [&](const tuning::SpmmTuningEntry* x) {  // same precision first, then nearest
      return std::make_pair(x->scalar_bytes != scalar_bytes, spmm_feature_distance(s, k, *x));
    };
    e = !pieces || (flat && rank(flat) <= rank(pieces)) ? flat : pieces;
    if (!e) forced = SpmmAlgorithm::flat;  // no such entry: the rules' flat shape
  } else {
    e = nearest_spmm_entry(spmm_table<ExecSpace>(), s, k, scalar_bytes, forced);
  }
  if (e) {
    c.algorithm = e->algorithm;
    c.shape = e->shape;
    c.tuned_from = e->matrix;
  } else {
    c.algorithm = forced == SpmmAlgorithm::automatic ? rule_spmm_algorithm(s) : forced;
    c.shape = rule_spmm_shape<ExecSpace>(c.algorithm, s, k);
  }
  c.shape = fit_spmm_scratch<ExecSpace>(c.algorithm, c.shape, scalar_bytes, ordinal_bytes, s.max_length);
  return c;
}

}  // namespace spk::select
