#pragma once
// SpMV gathers x(j) once per nonzero, and on a power-law graph most gathers go to a few hub columns; but a graph's
// vertex numbering scatters the hubs over all of x, so each hub costs a cache sector of its own and the hot part of
// x does not fit an SM's L1 (R-MAT 22 16: the 22,749 columns of at least 32 times the mean count take 46% of the
// gathers, 88 KiB of fp32 values spread over 22,749 sectors, 727 KiB). The plan can renumber A's columns by their
// nonzero count in coarse groups (degree-based grouping: Faldu, Diamond and Grot, "A closer look at lightweight graph
// reordering", IISWC'19): the hubs first, each group in its original order, the columns below the mean count last
// and in place. It keeps a copy of A's column indices under the new numbers; every call copies x's entries of the
// grouped columns into their new order (a short pass: R-MAT 22 16 has 0.5M of 4.2M columns at or above the mean) and
// the kernel reads x through GroupedX, which sends the other columns to x itself. A row's products and their order
// are unchanged, so y is the same, bit for bit, as without grouping.
#include <cstdint>
#include <limits>

#include <Kokkos_Core.hpp>

#include "../error.hpp"
#include "device_array.hpp"
#include "device_memory.hpp"

namespace spk::impl {

// Group g of a column whose estimated count is c, mean count m: g = 0 for c >= 64 m, g for c >= 2^(6-g) m down to
// g = 6 for c >= m, g = 7 below the mean: the cold group, which keeps A's numbering (shifted past the others).
inline constexpr int column_groups = 8, cold_group = column_groups - 1;
// The counts are estimated from every count_sample-th nonzero (times count_sample): the order only has to put the
// hubs together, and exact counts cost R-MAT 22 16's plan 0.87 ms of atomics on an H100 (one nonzero in 8: a sector
// each, the same bytes, an eighth of the atomics). Columns no sampled nonzero falls in, empty ones included, are cold.
inline constexpr std::int64_t count_sample = 8;
// ColumnGrouping::automatic renumbers when the columns of at least hub_ratio times the mean count hold at least
// hub_share_min of the nonzeros (R-MAT 22 16: 73%; uniform and stencil matrices: none).
inline constexpr double hub_ratio = 8, hub_share_min = 0.25;
// Each thread of the counting sort walks this many consecutive columns (its tallies stay in registers).
inline constexpr std::int64_t columns_per_walker = 64;

KOKKOS_INLINE_FUNCTION int column_group(double count, double mean) {
  int g = 0;
  for (double t = 64 * mean; g < column_groups - 1 && count < t; t /= 2) ++g;
  return g;
}

template <class Device, class Ordinal, class Scalar>
struct GroupedColumns {
  Kokkos::View<Ordinal*, Device> entries;  // A's column indices renumbered: cold column c is source.extent(0) + c
  Kokkos::View<Ordinal*, Device> source;   // source(i): A's column that is grouped column i
  Kokkos::View<Scalar*, Device> x;         // x's entries of the grouped columns in their order, refilled by every call
  std::int64_t hubs = 0;                   // columns of groups 0-3: at least hub_ratio times the mean count
  double hub_share = 0;                    // their share of the nonzeros (estimated from the samples)
  bool grouped = false;
};

// Estimates A's column counts and renumbers the columns when `force` or when the hubs hold hub_share_min of the
// nonzeros. A counting sort with one scan: sampled atomic counts; per walker of columns_per_walker columns its tally
// of each group but the cold one (with the hubs' share, reduced); an exclusive scan of the tallies in group-major
// order; the walkers' second walk writes the new numbers. Then a pass over the nonzeros renumbers them. The new
// numbers reach twice the column count, so an ordinal type that cannot hold that is refused (`force`) or left alone.
template <class Matrix>
GroupedColumns<typename Matrix::device_type, typename Matrix::ordinal_type, typename Matrix::scalar_type>
group_columns(const Matrix& A, bool force) {
  using exec = typename Matrix::execution_space;
  using device = typename Matrix::device_type;
  using Ordinal = typename Matrix::ordinal_type;
  using Offset = typename Matrix::offset_type;
  using range = Kokkos::RangePolicy<exec, Kokkos::IndexType<std::int64_t>>;
  static_assert(hub_ratio == 8, "groups 0-3 are the hubs");
  GroupedColumns<device, Ordinal, typename Matrix::scalar_type> gc;
  const std::int64_t nnz = A.nnz(), cols = A.num_cols();
  if (nnz == 0) return gc;
  if (cols > std::numeric_limits<Ordinal>::max() / 2) {
    if (!force) return gc;
    throw invalid_argument(detail::concat("spk::make_spmv_plan: column grouping numbers up to twice the columns, ",
                                          2 * cols, ", more than the ordinal type holds (",
                                          std::numeric_limits<Ordinal>::max(), ")"));
  }
  const auto entries = A.entries();
  const Kokkos::View<Offset*, device> samples(zeroed<exec>("spk::group_columns::samples"), cols);
  Kokkos::parallel_for(
      "spk::group_columns::sample", range(0, (nnz + count_sample - 1) / count_sample),
      KOKKOS_LAMBDA(const std::int64_t s) { Kokkos::atomic_add(&samples(entries(s * count_sample)), Offset{1}); });

  const double mean = static_cast<double>(nnz) / static_cast<double>(cols);
  const std::int64_t walkers = (cols + columns_per_walker - 1) / columns_per_walker;
  const auto group_of = KOKKOS_LAMBDA(const std::int64_t c)->int {
    return column_group(static_cast<double>(samples(c) * count_sample), mean);
  };
  const Kokkos::View<std::int64_t*, device> tallies(uninitialized<exec>("spk::group_columns::tallies"),
                                                    cold_group * walkers);
  std::int64_t hub_samples = 0;
  Kokkos::parallel_reduce(
      "spk::group_columns::tally", range(0, walkers),
      KOKKOS_LAMBDA(const std::int64_t w, std::int64_t& hub) {
        std::int64_t tally[column_groups] = {};
        const std::int64_t end = (w + 1) * columns_per_walker < cols ? (w + 1) * columns_per_walker : cols;
        for (std::int64_t c = w * columns_per_walker; c < end; ++c) {
          const int g = group_of(c);
          ++tally[g];
          if (g < 4) hub += static_cast<std::int64_t>(samples(c));
        }
        for (int g = 0; g < cold_group; ++g) tallies(g * walkers + w) = tally[g];
      },
      hub_samples);
  gc.hub_share = static_cast<double>(hub_samples * count_sample) / static_cast<double>(nnz);
  if (!force && gc.hub_share < hub_share_min) return gc;

  std::int64_t grouped = 0;  // the columns outside the cold group
  Kokkos::parallel_scan(
      "spk::group_columns::offsets", range(0, cold_group * walkers),
      KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& before, const bool final) {
        const std::int64_t t = tallies(i);
        if (final) tallies(i) = before;
        before += t;
      },
      grouped);
  const Kokkos::View<Ordinal*, device> renumber(uninitialized<exec>("spk::group_columns::renumber"), cols);
  gc.source = decltype(gc.source)(uninitialized<exec>("spk::group_columns::source"), grouped);
  const auto source = gc.source;
  Kokkos::parallel_for(
      "spk::group_columns::place", range(0, walkers), KOKKOS_LAMBDA(const std::int64_t w) {
        std::int64_t next[cold_group];
        for (int g = 0; g < cold_group; ++g) next[g] = tallies(g * walkers + w);
        const std::int64_t end = (w + 1) * columns_per_walker < cols ? (w + 1) * columns_per_walker : cols;
        for (std::int64_t c = w * columns_per_walker; c < end; ++c) {
          const int g = group_of(c);
          if (g == cold_group) {
            renumber(c) = static_cast<Ordinal>(grouped + c);
          } else {
            const std::int64_t to = next[g]++;
            renumber(c) = static_cast<Ordinal>(to);
            source(to) = static_cast<Ordinal>(c);
          }
        }
      });
  std::int64_t hubs = 0;  // where group 4 starts
  Kokkos::deep_copy(hubs, Kokkos::subview(tallies, 4 * walkers));  // nnz > 0: at least one walker
  gc.hubs = hubs;
  gc.entries = decltype(gc.entries)(uninitialized<exec>("spk::group_columns::entries"), nnz);
  const auto renumbered = gc.entries;
  Kokkos::parallel_for(
      "spk::group_columns::renumber", range(0, nnz),
      KOKKOS_LAMBDA(const std::int64_t j) { renumbered(j) = renumber(entries(j)); });
  gc.x = decltype(gc.x)(uninitialized<exec>("spk::group_columns::x"), grouped);
  gc.grouped = true;
  return gc;
}

// The grouped columns' entries of x in their order: gc.x(i) = x(source(i)).
template <class Exec, class Device, class Ordinal, class Scalar, class XView>
void gather_grouped_x(const Exec& space, const GroupedColumns<Device, Ordinal, Scalar>& gc, const XView& x) {
  const auto source = gc.source;
  const auto gx = gc.x;
  Kokkos::parallel_for(
      "spk::group_columns::gather_x",
      Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(space, 0, static_cast<std::int64_t>(gx.extent(0))),
      KOKKOS_LAMBDA(const std::int64_t i) { gx(i) = x(source(i)); });
}

// x as the kernels read it under renumbered columns: a grouped column from the plan's copy, a cold one from x.
template <class Scalar, class XView>
struct GroupedX {
  DeviceArray<const Scalar> grouped;  // the plan's copy, gather_grouped_x's output
  std::int64_t count = 0;             // its length: cold column c is number count + c
  XView x;
  template <class Index>
  KOKKOS_FORCEINLINE_FUNCTION const Scalar& operator()(Index c) const {
    if (static_cast<std::int64_t>(c) < count) return grouped(c);
    return x(static_cast<std::int64_t>(c) - count);
  }
};

template <class Device, class Ordinal, class Scalar, class XView>
GroupedX<Scalar, XView> grouped_x(const GroupedColumns<Device, Ordinal, Scalar>& gc, const XView& x) {
  return {gc.x, static_cast<std::int64_t>(gc.x.extent(0)), x};
}

}  // namespace spk::impl
