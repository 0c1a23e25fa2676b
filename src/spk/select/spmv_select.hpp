#pragma once
// SpMV selection: algorithm and launch shape from row-length features. With `automatic`, the nearest swept matrix
// of the back-end's tuning table (backends/tuning/, written by `spk-bench --sweep`) decides; a forced algorithm
// takes the shape of its nearest entry in the table. Without a usable entry, the rules below apply.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include <tuning/spmv_cuda.hpp>
#include <tuning/spmv_cuda_h100.hpp>
#include <tuning/spmv_hip.hpp>
#include <tuning/spmv_openmp.hpp>

#include "../algorithms.hpp"
#include "../launch_shape.hpp"
#include "../matrix_stats.hpp"
#include "device_tables.hpp"

namespace spk::select {

struct SpmvChoice {
  SpmvAlgorithm algorithm = SpmvAlgorithm::automatic;
  LaunchShape shape;
  const char* tuned_from = nullptr;  // the table entry it came from, if any
  bool packed_columns = false;       // what ColumnPacking::automatic does (pack_columns_by_rule or the entry)
};

// The tuning table of ExecSpace on this device: CUDA's (swept on an H200) or the H100's own, HIP's, and the OpenMP
// one that host back-ends share (device_tables.hpp).
template <class ExecSpace>
TuningTable<tuning::SpmvTuningEntry> spmv_tuning() {
  using Table = TuningTable<tuning::SpmvTuningEntry>;
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
    static constexpr ModelTable<tuning::SpmvTuningEntry> models[] = {
        {"H100", {tuning::spmv_cuda_h100, "spmv_cuda_h100"}}};
    return table_for_device(tuning_device_name<ExecSpace>(), models, Table{tuning::spmv_cuda, "spmv_cuda"});
  }
#endif
#if defined(KOKKOS_ENABLE_HIP)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::HIP>) return Table{tuning::spmv_hip, "spmv_hip"};
#endif
  return is_host_space<ExecSpace>() ? Table{tuning::spmv_openmp, "spmv_openmp"} : Table{};
}

template <class ExecSpace>
const tuning::SpmvTuningEntry* spmv_table() {
  return spmv_tuning<ExecSpace>().entries;
}

// Distance in log feature space: mean row length weighs most, then the tail (max, spread), then size (small
// matrices are launch-bound and like other shapes).
inline double spmv_feature_distance(const RowLengthStats& s, const tuning::SpmvTuningEntry& e) {
  const auto d = [](double a, double b) { return std::log2(1 + a) - std::log2(1 + b); };
  const double mean = d(s.mean_length, e.mean), max = d(static_cast<double>(s.max_length), e.max);
  const double spread = d(s.stddev_length, e.stddev), rows = d(static_cast<double>(s.rows), e.rows);
  return 4 * mean * mean + max * max + spread * spread + 0.5 * rows * rows;
}

// Nearest entry of the table with this precision (any precision if none) and, unless automatic, this algorithm.
inline const tuning::SpmvTuningEntry* nearest_spmv_entry(const tuning::SpmvTuningEntry* table, const RowLengthStats& s,
                                                         int scalar_bytes, SpmvAlgorithm algorithm) {
  const tuning::SpmvTuningEntry* best = nullptr;
  double best_distance = 0;
  bool best_same_precision = false;
  for (const auto* e = table; e && e->matrix; ++e) {
    if (algorithm != SpmvAlgorithm::automatic && e->algorithm != algorithm) continue;
    const bool same = e->scalar_bytes == scalar_bytes;
    const double distance = spmv_feature_distance(s, *e);
    if (!best || (same && !best_same_precision) || (same == best_same_precision && distance < best_distance)) {
      best = e;
      best_distance = distance;
      best_same_precision = same;
    }
  }
  return best;
}

// Rows shorter than this on average leave most vector lanes idle: one thread per row wins.
inline constexpr double thread_row_max_mean = 6.0;

inline SpmvAlgorithm rule_spmv_algorithm(const RowLengthStats& s) {
  if (s.mean_length < thread_row_max_mean && s.max_length < 64 * thread_row_max_mean) return SpmvAlgorithm::thread_row;
  if (static_cast<double>(s.max_length) > 64 * (s.mean_length + 1)) return SpmvAlgorithm::flat;  // heavy tail
  return SpmvAlgorithm::stream;
}

// The shape each algorithm starts from when the table has nothing for it.
template <class ExecSpace>
LaunchShape rule_spmv_shape(SpmvAlgorithm algorithm, const RowLengthStats& s, int scalar_bytes) {
  LaunchShape shape;
  const bool host = is_host_space<ExecSpace>();
  const int lanes = host ? 1 : std::clamp(pow2_ceil(static_cast<long long>(s.mean_length + 0.5)), 1,
                                          max_vector_length<ExecSpace>());
  const int stage = host ? 8192 : 16384 / scalar_bytes;  // 16 KiB of scratch per team on GPUs
  switch (algorithm) {
    case SpmvAlgorithm::thread_row:
      if (host) {
        shape.rows_per_thread = 256;  // amortise per-team overhead; rows are independent
      } else {
        shape.team_size = 128;
        shape.stage_capacity = 128 * 8;  // a block of 128 rows averaging up to 8 nonzeros
      }
      break;
    case SpmvAlgorithm::vector_row:
    case SpmvAlgorithm::long_row_split:
      if (host) {
        shape.rows_per_thread = 256;
      } else {
        shape.vector_length = std::max(2, lanes);
        shape.team_size = std::max(1, 256 / shape.vector_length);
      }
      if (algorithm == SpmvAlgorithm::long_row_split) {
        shape.chunk = host ? 16384 : 4096;
        shape.long_row = shape.chunk;
      }
      break;
    case SpmvAlgorithm::stream:
    case SpmvAlgorithm::flat:
      // Rows reduce from scratch, so fewer lanes per row than vector-row needs from global memory.
      shape.vector_length = host ? 1 : std::max(1, lanes / 4);
      shape.team_size = host ? 1 : 256 / shape.vector_length;
      if (algorithm == SpmvAlgorithm::stream)
        shape.stage_capacity = stage;
      else
        shape.chunk = stage;
      break;
    case SpmvAlgorithm::automatic: break;
  }
  return shape;
}

// Matrices of at least this many nonzeros get packed columns under ColumnPacking::automatic. Smaller ones stay in a
// GPU's L2 between calls (ogbl_ddi and Cornell5, 2.1M and 1.6M nonzeros, fit the H200's 60 MiB), where bytes are
// not what an SpMV waits on, and their plans are paced by launches and host waits, to which packing adds one of each.
inline constexpr std::int64_t packed_columns_min_nnz = std::int64_t{1} << 22;

// The algorithms whose kernels take a column reader (impl/packed_columns.hpp).
inline bool reads_packed_columns(SpmvAlgorithm algorithm) {
  return algorithm == SpmvAlgorithm::thread_row || algorithm == SpmvAlgorithm::vector_row ||
         algorithm == SpmvAlgorithm::stream || algorithm == SpmvAlgorithm::flat;
}

// Whether ColumnPacking::automatic packs A's columns when no table entry says (a forced shape, an empty table): on
// GPUs, thread-row on matrices of at least packed_columns_min_nnz nonzeros. On the H200 packing sped thread-row up on
// lap2d 4096 and band 8M x 5 (up to 1.17x) but slowed stream and flat (up to 0.76x, fp32 st3d27 160 and lap2d
// 4096), whose staged loops take a second load per nonzero for the run's base. Host back-ends keep A's own indices
// (thread-row packed was 0.77-0.98x on a 2-core EPYC). With a table entry, the sweep's winner decides (choose_spmv).
template <class ExecSpace>
bool pack_columns_by_rule(SpmvAlgorithm algorithm, const RowLengthStats& s) {
  return !is_host_space<ExecSpace>() && algorithm == SpmvAlgorithm::thread_row && s.nnz >= packed_columns_min_nnz;
}

// Whether ColumnGrouping::automatic counts A's columns (impl/grouped_columns.hpp then renumbers them if the hubs hold
// enough of the nonzeros). The count is a pass over the nonzeros, so only where grouping may pay: on GPUs, algorithms
// that take a column reader, x of at least grouped_x_bytes_min (it outgrows an SM's L1 many times over), and row
// lengths spread like a power-law graph's (in a symmetric graph the column counts are the row lengths): the longest
// row at least grouped_row_skew_min times the mean, the lengths over at least grouped_row_bins_min powers of two
// (skewed 1M's two lengths, 8 and 200,000, do not count: its columns are uniform). Host back-ends keep A's numbering
// (not measured there).
inline constexpr std::int64_t grouped_x_bytes_min = std::int64_t{1} << 20;
inline constexpr double grouped_row_skew_min = 16;
inline constexpr int grouped_row_bins_min = 8;

template <class ExecSpace>
bool may_group_columns(SpmvAlgorithm algorithm, const RowLengthStats& s, int scalar_bytes) {
  int bins = 0;
  for (int b = 1; b < RowLengthStats::num_bins; ++b) bins += s.log2_histogram[b] > 0 ? 1 : 0;
  return !is_host_space<ExecSpace>() && reads_packed_columns(algorithm) &&
         s.cols * scalar_bytes >= grouped_x_bytes_min &&
         static_cast<double>(s.max_length) >= grouped_row_skew_min * s.mean_length && bins >= grouped_row_bins_min;
}

// The algorithm (when automatic) and launch shape for a matrix with these features on ExecSpace.
template <class ExecSpace>
SpmvChoice choose_spmv(SpmvAlgorithm forced, const RowLengthStats& s, int scalar_bytes) {
  SpmvChoice c;
  if (const auto* e = nearest_spmv_entry(spmv_table<ExecSpace>(), s, scalar_bytes, forced)) {
    c.algorithm = e->algorithm;
    c.shape = e->shape;
    c.tuned_from = e->matrix;
    // the swept matrix's winner read packed columns; small matrices stay unpacked (packed_columns_min_nnz)
    c.packed_columns = e->packed_columns && reads_packed_columns(c.algorithm) && s.nnz >= packed_columns_min_nnz;
    return c;
  }
  c.algorithm = forced == SpmvAlgorithm::automatic ? rule_spmv_algorithm(s) : forced;
  c.shape = rule_spmv_shape<ExecSpace>(c.algorithm, s, scalar_bytes);
  c.packed_columns = pack_columns_by_rule<ExecSpace>(c.algorithm, s);
  return c;
}

}  // namespace spk::select
