#pragma once
// Stream's long rows cut at shared column windows (LaunchShape::windowed): the long rows go in groups of team_size
// rows, each group's columns are cut into windows at every chunk-th nonzero of its longest row, and one team sums
// one window of the whole group, a thread's vector lanes per row. Rows whose columns spread alike over x (skewed 1M's
// 64 rows of 200,000 random columns) then gather the same stretch of x from one SM at once, so x's sectors are read
// from L2 once per team instead of once per row: cache blocking of x, as in Nishtala et al., "When cache blocking of
// sparse matrix vector multiply works and why" (2007), made per team. A row's pieces combine as long_row_pieces.hpp's
// (store_partial_last): the thread that finishes its row's last piece adds the partials in window order, so results
// are deterministic.
#include <limits>

#include "../error.hpp"
#include "long_row_pieces.hpp"
#include "sorted_search.hpp"
#include "spmv_common.hpp"

namespace spk::impl {

template <class Device, class Scalar>
struct LongRowWindows {
  Kokkos::View<std::int64_t*, Device> rows;        // the long rows, in order; group g holds rows [g*group, (g+1)*group)
  Kokkos::View<std::int64_t*, Device> first_team;  // the teams of group g: [first_team(g), first_team(g+1))
  // Slot t*group + i, for team t and row i of its group: where that row's piece of the team's window begins (it
  // ends where the next window's begins, or at the row's end), and its partial sum.
  Kokkos::View<std::int64_t*, Device> begin;
  Kokkos::View<Scalar*, Device> partial;
  Kokkos::View<int*, Device> finished;  // pieces done, per long row (back to 0 after each call)
  std::int64_t groups = 0;
  std::int64_t pieces = 0;  // teams: one per window of each group
  int group = 1;            // rows a team sums (the shape's team size)
};

// Of group g of the listed rows (rows [g * group, (g + 1) * group) of `rows`, the first `count` of them real), the
// position in `rows` of its longest row, the first one if several are.
template <class RowMap, class Rows>
KOKKOS_INLINE_FUNCTION std::int64_t longest_of_group(const RowMap& row_map, const Rows& rows, std::int64_t count,
                                                     int group, std::int64_t g) {
  std::int64_t lead = g * group, most = -1;
  for (std::int64_t l = g * group; l < count && l < (g + 1) * group; ++l) {
    const std::int64_t length = row_map(rows(l) + 1) - row_map(rows(l));
    if (length > most) {
      lead = l;
      most = length;
    }
  }
  return lead;
}

// The rows of A longer than `threshold` nonzeros in groups of `group`, each group's windows `piece` nonzeros of its
// longest row wide. Columns need not be sorted for the result to be right (the pieces partition each row whatever
// they hold); sorted columns are what make the windows shared.
template <class Matrix>
LongRowWindows<typename Matrix::device_type, typename Matrix::scalar_type> make_long_row_windows(
    const Matrix& A, std::int64_t threshold, std::int64_t piece, int group) {
  using T = SpmvTypes<Matrix>;
  LongRowWindows<typename Matrix::device_type, typename Matrix::scalar_type> lw;
  lw.group = group;
  const auto row_map = A.row_map();
  const auto entries = A.entries();
  lw.rows = compact_indices<typename T::exec, typename T::device>(
      "spk::long_row_windows::rows", A.num_rows(),
      KOKKOS_LAMBDA(const std::int64_t r)->bool { return row_map(r + 1) - row_map(r) > threshold; });
  const std::int64_t count = static_cast<std::int64_t>(lw.rows.extent(0));
  lw.groups = (count + group - 1) / group;
  lw.first_team = typename T::index_view(zeroed<typename T::exec>("spk::long_row_windows::first_team"), lw.groups + 1);
  lw.finished = Kokkos::View<int*, typename T::device>(zeroed<typename T::exec>("spk::long_row_windows::finished"),
                                                       count);
  if (count == 0) return lw;
  const auto rows = lw.rows, first_team = lw.first_team;
  const std::int64_t groups = lw.groups;
  // Where each group's longest row starts: its nonzeros w * piece are the group's window bounds.
  const typename T::index_view lead_start(uninitialized<typename T::exec>("spk::long_row_windows::lead_start"),
                                          lw.groups);
  Kokkos::parallel_scan(
      "spk::long_row_windows::teams", typename T::range_policy(0, lw.groups),
      KOKKOS_LAMBDA(const std::int64_t g, std::int64_t& pos, const bool final) {
        const std::int64_t lead = rows(longest_of_group(row_map, rows, count, group, g));
        pos += (row_map(lead + 1) - row_map(lead) + piece - 1) / piece;
        if (final) {
          first_team(g + 1) = pos;
          lead_start(g) = row_map(lead);
        }
      },
      lw.pieces);
  const std::int64_t slots = lw.pieces * group;
  // A group's short rows take as many slots as its longest, so a tiny forced chunk on large teams could ask for far
  // more than A holds: refuse it before allocating (and a league Kokkos cannot number).
  const std::int64_t most = 2 * A.nnz() + (std::int64_t{1} << 20);
  if (lw.pieces > std::numeric_limits<int>::max() || slots > most)
    throw invalid_argument(detail::concat("spk::make_spmv_plan: stream's column windows of ", piece, " nonzeros for ",
                                          group, " rows a team would take ", lw.pieces, " teams and ", slots,
                                          " slots, expected at most ", std::numeric_limits<int>::max(), " and ",
                                          most, "; force a larger chunk or a smaller team"));
  // Slots of a group's rows past the last long row are never read.
  lw.begin = typename T::index_view(uninitialized<typename T::exec>("spk::long_row_windows::begin"), slots);
  lw.partial = Kokkos::View<typename T::scalar*, typename T::device>(
      uninitialized<typename T::exec>("spk::long_row_windows::partial"), slots);
  const auto begin = lw.begin;
  // A thread per slot: window w > 0 of a row begins at its first nonzero whose column is not less than that of the
  // group's longest row's nonzero w * piece (a binary search over the whole row). One thread per row searching on
  // from the last window's start, ~49 searches one after another, cost skewed 1M fp64's plan 3.2 SpMV calls on an
  // H100 (now 2.2-2.3) and 4.1 on an H200.
  Kokkos::parallel_for(
      "spk::long_row_windows::begin", typename T::range_policy(0, slots), KOKKOS_LAMBDA(const std::int64_t slot) {
        const std::int64_t t = slot / group, i = slot % group, g = segment_of(first_team, groups, t);
        const std::int64_t l = g * group + i;
        if (l >= count) return;
        const std::int64_t w = t - first_team(g), start = row_map(rows(l)), end = row_map(rows(l) + 1);
        begin(slot) = w == 0 ? start : lower_bound(entries, start, end, entries(lead_start(g) + w * piece));
      });
  // A binary search never ends earlier for a larger column, whatever the row holds, so a row's starts fall only where
  // the keys do (the longest row's columns unsorted): a running maximum over its windows keeps its pieces apart.
  Kokkos::parallel_for(
      "spk::long_row_windows::monotone", typename T::range_policy(0, count), KOKKOS_LAMBDA(const std::int64_t l) {
        const std::int64_t g = l / group, i = l % group;
        std::int64_t at = begin(first_team(g) * group + i);
        for (std::int64_t t = first_team(g) + 1; t < first_team(g + 1); ++t) {
          at = begin(t * group + i) > at ? begin(t * group + i) : at;
          begin(t * group + i) = at;
        }
      });
  return lw;
}

// Team t of the windows: its window of every row of its group, and y of each row whose last piece it finishes.
template <class Member, class LW, class RowMap, class Values, class Columns, class XView, class YView, class Scalar>
KOKKOS_INLINE_FUNCTION void sum_long_row_window(const Member& team, const LW& lw, std::int64_t t, const RowMap& row_map,
                                                const Values& values, const Columns& columns, const XView& x,
                                                Scalar alpha, Scalar beta, const YView& y) {
  const std::int64_t g = segment_of(lw.first_team, lw.groups, t);
  const std::int64_t first = lw.first_team(g), teams = lw.first_team(g + 1) - first, w = t - first;
  const std::int64_t count = static_cast<std::int64_t>(lw.rows.extent(0));
  const int group = lw.group;
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, group), [&](const int i) {
    const std::int64_t l = g * group + i;
    if (l >= count) return;
    const std::int64_t row = lw.rows(l), slot = t * group + i;
    const std::int64_t end = w + 1 < teams ? lw.begin(slot + group) : static_cast<std::int64_t>(row_map(row + 1));
    // The thread's vector lanes over the piece in quarters (strided_dot). A front-to-back walk, four runs of the
    // lanes a round, summed skewed 1M's windows 1.2x faster in a stand-alone probe but 0.92x (fp32) and 0.94x (fp64)
    // as fast here, in the sweeps' best windowed shapes on an H200 (perf/results/h200-cuda.md, 2026-11-29, night).
    const Scalar sum =
        strided_dot([&](const int count) { return Kokkos::ThreadVectorRange(team, count); }, values, columns, x,
                    lw.begin(slot), static_cast<int>(end - lw.begin(slot)));
    bool last = false;
    Kokkos::single(
        Kokkos::PerThread(team),
        [&](bool& is_last) { is_last = store_partial_last(lw.partial(slot), sum, lw.finished(l), teams); },
        last);
    if (!last) return;
    Kokkos::memory_fence();
    Scalar total = 0;  // the row's partials in window order (volatile: skip a stale non-coherent cache)
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(team, static_cast<int>(teams)),
        [&](const int q, Scalar& part) {
          part += *static_cast<volatile Scalar*>(&lw.partial((first + q) * group + i));
        },
        total);
    Kokkos::single(Kokkos::PerThread(team), [&]() {
      spmv_store(y, row, alpha, total, beta);
      lw.finished(l) = 0;
    });
  });
}

}  // namespace spk::impl
