#pragma once
// The symbolic phase's per-row scans (B's column spans, A's product bounds): a thread walks each row of at most
// `scan_long_row` entries and lists the longer ones, which a second launch gives a team each. A thread walking a row
// of thousands of entries alone held up whole launches (rajat01 on the H200: 94 and 294 us for the two scans);
// giving every row a group of vector lanes slowed the many short rows of lap2d and band; a team walking its own long
// rows one after another, with two barriers and a combine each, took 496 us on pushpull (rows of 49 entries).
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

// For each row: visit(begin, q, span) for every entry q in [begin, end) = [first(row), first(row + 1)), then
// done(row, span), whose results are summed and returned; `longest` gets the most entries of a row. `list` has room
// for rows + 1 ints (the long rows). A long row's entries are visited by the threads of a team, each into its own
// span, merged with scratch atomics.
template <class ExecSpace, class Ordinal, class List, class First, class Visit, class Done>
std::int64_t scan_rows(const char* label, std::int64_t rows, Ordinal empty_low, const List& list, const First& first,
                       const Visit& visit, const Done& done, std::int64_t& longest) {
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using policy_type = team_policy_for<ExecSpace>;
  using member_type = typename policy_type::member_type;
  using scratch_space = typename ExecSpace::scratch_memory_space;
  using wide_scratch = Kokkos::View<std::int64_t*, scratch_space, Kokkos::MemoryUnmanaged>;
  using ordinal_scratch = Kokkos::View<Ordinal*, scratch_space, Kokkos::MemoryUnmanaged>;
  std::int64_t total = 0;
  longest = 0;
  if (rows == 0) return total;
  Kokkos::deep_copy(ExecSpace(), Kokkos::subview(list, 0), 0);  // list(0): the long rows' cursor
  // The long rows are also counted by the reduction, so one host wait brings back both sums.
  std::int64_t long_rows = 0;
  Kokkos::parallel_reduce(
      label, range(0, rows),
      KOKKOS_LAMBDA(std::int64_t row, std::int64_t & sum, std::int64_t & longs, std::int64_t & most) {
        const auto begin = first(row), end = first(row + 1);
        if (static_cast<std::int64_t>(end - begin) > most) most = static_cast<std::int64_t>(end - begin);
        if (end - begin > scan_long_row) {
          list(1 + Kokkos::atomic_fetch_add(&list(0), 1)) = static_cast<int>(row);
          ++longs;
          return;
        }
        RowSpan<Ordinal> s(empty_low);
        for (auto q = begin; q < end; ++q) visit(begin, q, s);
        sum += done(row, s);
      },
      total, long_rows, Kokkos::Max<std::int64_t>(longest));
  const int longs = static_cast<int>(long_rows);
  if (longs == 0) return total;

  const int threads = is_host_space<ExecSpace>() ? 1 : 128;
  const int league = longs < 4096 ? longs : 4096;
  policy_type policy(league, threads, 1);
  policy.set_scratch_size(0, Kokkos::PerTeam(2 * wide_scratch::shmem_size(1) + 2 * ordinal_scratch::shmem_size(1)));
  std::int64_t long_total = 0;
  Kokkos::parallel_reduce(
      label, policy,
      KOKKOS_LAMBDA(const member_type& team, std::int64_t& sum) {
        wide_scratch count(team.team_scratch(0), 1), unordered(team.team_scratch(0), 1);
        ordinal_scratch low(team.team_scratch(0), 1), high(team.team_scratch(0), 1);
        const int me = team.team_rank();
        for (int k = team.league_rank(); k < longs; k += team.league_size()) {
          const std::int64_t row = list(1 + k);
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
            sum += done(row, merged);
          }
          team.team_barrier();  // the cells are reset for the next row
        }
      },
      long_total);
  return total + long_total;
}

}  // namespace spk::impl
