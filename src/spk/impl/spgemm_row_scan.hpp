#pragma once
// The symbolic phase's per-row scans (B's column spans, A's product bounds): a thread walks each row of at most
// `scan_long_row` entries and lists the longer ones, which a second launch gives a team each. A thread walking a row
// of thousands of entries alone held up whole launches (rajat01 on the H200: 94 and 294 us for the two scans);
// giving every row a group of vector lanes slowed the many short rows of lap2d and band; a team walking its own long
// rows one after another, with two barriers and a combine each, took 496 us on pushpull (rows of 49 entries).
#include <algorithm>
#include <cstdint>

#include <Kokkos_Core.hpp>

#include "../execution.hpp"

namespace spk::impl {

// What a scan gathers over one row's entries: a column span, a count and whether the columns ascend.
template <class Ordinal>
struct RowSpan {
  Ordinal low, high;
  std::int64_t count = 0;
  bool ordered = true;

  KOKKOS_INLINE_FUNCTION explicit RowSpan(Ordinal empty_low = 0) : low(empty_low), high(-1) {}
  KOKKOS_INLINE_FUNCTION void add(Ordinal lo_, Ordinal hi_, std::int64_t n) {
    low = lo_ < low ? lo_ : low;
    high = hi_ > high ? hi_ : high;
    count += n;
  }
};

inline constexpr int scan_long_row = 32;  // entries a thread still walks alone

// What a scan leaves on the device: the sum of done() over its rows and the most entries of a row (the short rows'
// pass sees every row's length). The results stay on the device so that both of the symbolic phase's scans cost one
// host wait (rajat01 on the H200: four waits, about 125 us of a 1 ms product, when each scan brought its sums back and
// then its long rows' sums).
struct ScanTotals {
  std::int64_t sum = 0, most = 0;
};

// Two ScanTotals as one: sums add, most takes the max (a reduction's join, and a scan's two parts on the host).
KOKKOS_INLINE_FUNCTION ScanTotals combine(const ScanTotals& a, const ScanTotals& b) {
  return {a.sum + b.sum, a.most > b.most ? a.most : b.most};
}

// Kokkos reducer of ScanTotals by combine(). Its result is a device view, so the reduction is
// queued without a host wait.
template <class Space>
struct ScanTotalsReducer {
  using reducer = ScanTotalsReducer;
  using value_type = ScanTotals;
  using result_view_type = Kokkos::View<value_type, Space, Kokkos::MemoryUnmanaged>;
  result_view_type value;

  KOKKOS_INLINE_FUNCTION explicit ScanTotalsReducer(const result_view_type& v) : value(v) {}
  KOKKOS_INLINE_FUNCTION void join(value_type& dest, const value_type& src) const { dest = combine(dest, src); }
#if KOKKOS_VERSION < 40000
  // Kokkos 3 joins through volatile references, which combine() cannot take.
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& dest, const volatile value_type& src) const {
    dest.sum += src.sum;
    dest.most = src.most > dest.most ? src.most : dest.most;
  }
#endif
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const {
    v.sum = 0;
    v.most = 0;
  }
  KOKKOS_INLINE_FUNCTION value_type& reference() const { return *value.data(); }
  KOKKOS_INLINE_FUNCTION result_view_type view() const { return value; }
  KOKKOS_INLINE_FUNCTION bool references_scalar() const { return false; }
};

// For each row: visit(begin, q, span) for every entry q in [begin, end) = [first(row), first(row + 1)), then
// done(row, span). Queues its work on ExecSpace() without a host wait and leaves its results in totals(0) (rows of
// at most scan_long_row entries) and totals(1).sum (longer rows). `list` has room for `rows` ints (the long rows),
// `cursor` counts them; the caller zeroed totals and cursor. `entries` is first(rows) - first(0). A long row's
// entries are visited by the threads of a team, each into its own span, merged with scratch atomics; the teams are
// launched for as many long rows as the entries allow, at most 1024, and find on the device how many there are; a
// parallel_for, not a reduction, because it mostly finds none (H200: a team reduction of 1024 teams that found none
// took 12.5 us, this 3.3 us).
template <class ExecSpace, class Ordinal, class List, class Cursor, class First, class Visit, class Done, class Totals>
void scan_rows(const char* label, std::int64_t rows, std::int64_t entries, Ordinal empty_low, const List& list,
               const Cursor& cursor, const First& first, const Visit& visit, const Done& done, const Totals& totals) {
  using Space = typename Totals::device_type;
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>,
                                    Kokkos::Experimental::WorkItemProperty::HintLightWeight_t>;
  using policy_type = team_policy_for<ExecSpace>;
  using member_type = typename policy_type::member_type;
  using scratch_space = typename ExecSpace::scratch_memory_space;
  using wide_scratch = Kokkos::View<std::int64_t*, scratch_space, Kokkos::MemoryUnmanaged>;
  using ordinal_scratch = Kokkos::View<Ordinal*, scratch_space, Kokkos::MemoryUnmanaged>;
  using result = typename ScanTotalsReducer<Space>::result_view_type;
  if (rows == 0) return;
  const ExecSpace space;
  Kokkos::parallel_reduce(
      label, range(space, 0, rows),
      KOKKOS_LAMBDA(std::int64_t row, ScanTotals & t) {
        const auto begin = first(row), end = first(row + 1);
        if (static_cast<std::int64_t>(end - begin) > t.most) t.most = static_cast<std::int64_t>(end - begin);
        if (end - begin > scan_long_row) {
          list(Kokkos::atomic_fetch_add(&cursor(), std::int64_t{1})) = static_cast<int>(row);
          return;
        }
        RowSpan<Ordinal> s(empty_low);
        // Four entries at a time, so that their independent loads can be issued together (uniform 256k x 8 on the
        // H200: the bounds scan took 58 us entry by entry, 55 us so).
        auto q = begin;
        for (; q + 4 <= end; q += 4) {
          visit(begin, q, s);
          visit(begin, q + 1, s);
          visit(begin, q + 2, s);
          visit(begin, q + 3, s);
        }
        for (; q < end; ++q) visit(begin, q, s);
        t.sum += done(row, s);
      },
      ScanTotalsReducer<Space>(result(totals.data())));
  const std::int64_t most_long_rows = std::min(rows, entries / (scan_long_row + 1));
  if (most_long_rows == 0) return;

  const int threads = is_host_space<ExecSpace>() ? 1 : 128;
  const int league = static_cast<int>(std::min<std::int64_t>(most_long_rows, 1024));
  policy_type policy(space, league, threads, 1);
  policy.set_scratch_size(0, Kokkos::PerTeam(2 * wide_scratch::shmem_size(1) + 2 * ordinal_scratch::shmem_size(1)));
  std::int64_t* const long_sum = &totals.data()[1].sum;
  Kokkos::parallel_for(
      label, policy, KOKKOS_LAMBDA(const member_type& team) {
        wide_scratch count(team.team_scratch(0), 1), unordered(team.team_scratch(0), 1);
        ordinal_scratch low(team.team_scratch(0), 1), high(team.team_scratch(0), 1);
        const int me = team.team_rank();
        const std::int64_t longs = cursor();
        for (std::int64_t k = team.league_rank(); k < longs; k += team.league_size()) {
          const std::int64_t row = list(k);
          if (me == 0) {
            low(0) = empty_low;
            high(0) = -1;
            count(0) = 0;
            unordered(0) = 0;
          }
          team.team_barrier();
          const auto begin = first(row), end = first(row + 1);
          RowSpan<Ordinal> s(empty_low);
          for (auto q = begin + me; q < end; q += threads) visit(begin, q, s);
          Kokkos::atomic_fetch_min(&low(0), s.low);
          Kokkos::atomic_fetch_max(&high(0), s.high);
          Kokkos::atomic_add(&count(0), s.count);
          if (!s.ordered) Kokkos::atomic_add(&unordered(0), std::int64_t{1});
          team.team_barrier();
          if (me == 0) {
            RowSpan<Ordinal> merged(empty_low);
            merged.add(low(0), high(0), count(0));
            merged.ordered = unordered(0) == 0;
            Kokkos::atomic_add(long_sum, done(row, merged));
          }
          team.team_barrier();  // the cells are reset for the next row
        }
      });
}

}  // namespace spk::impl
