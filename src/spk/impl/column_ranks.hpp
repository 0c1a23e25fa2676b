#pragma once
// Sorted output without a sort: a team marks each of a row's distinct columns in a bitmap over the row's column span
// and sums the bits word by word; then the lanes walk the words in order and each set bit is the next column of the
// row, at a place known from the sums. Hash rows use it instead of a bitonic sort of their whole table, which takes
// log2(n)(log2(n)+1)/2 team barriers over n slots (66 for a table of 2,048) where this takes two. The same idea, a
// bitmap plus popcounts, is the rank structure of succinct data structures (Jacobson, "Space-efficient static trees
// and graphs", 1989).
#include <cstdint>

#include <Kokkos_Core.hpp>

#include "lane_groups.hpp"
#include "vector_scan.hpp"

namespace spk::impl {

KOKKOS_INLINE_FUNCTION int popcount32(unsigned x) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return __popc(x);
#else
  return __builtin_popcount(x);
#endif
}

// Index of the lowest set bit of x, which is not 0.
KOKKOS_INLINE_FUNCTION int lowest_bit(unsigned x) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return __ffs(x) - 1;
#else
  return __builtin_ctz(x);
#endif
}

// A team's bitmap over a row's column span (32 columns a word), in team scratch; empty when the caller sorts instead.
struct ColumnRanks {
  unsigned* bits = nullptr;       // bit c of word w: column first + 32 * w + c is in the row
  int* before = nullptr;          // before[w]: the row's columns in words 0 .. w-1
  int* thread_counts = nullptr;   // one per thread of the team

  // Scratch bytes for a bin whose widest row spans `span` columns, with `threads` threads per team.
  static std::int64_t bytes_for(std::int64_t span, int threads) {
    return 2 * sizeof(int) * words_for(span) + sizeof(int) * static_cast<std::int64_t>(threads);
  }
  KOKKOS_INLINE_FUNCTION static std::int64_t words_for(std::int64_t span) { return (span + 31) / 32; }

  template <class Member>
  KOKKOS_INLINE_FUNCTION void clear(const Member& team, std::int64_t span) const {
    Kokkos::parallel_for(Kokkos::TeamVectorRange(team, static_cast<int>(words_for(span))),
                         [&](const int w) { bits[w] = 0u; });
  }

  // Column first + offset is in the row. Any lane of the team may call it, concurrently. A bit already set is not set
  // again: a dense row's columns repeat, and lanes setting bits of one word serialize. (Merging a warp's bits per word
  // first, by __match_any_sync and __reduce_or_sync, made the H200's dense tiles slower: Cornell5's symbolic
  // phase 1.8 to 7.8 ms.)
  KOKKOS_INLINE_FUNCTION void mark(std::int64_t offset) const {
    const unsigned bit = 1u << (offset & 31);
    if ((bits[offset >> 5] & bit) == 0u) Kokkos::atomic_or(&bits[offset >> 5], bit);
  }

  // Fills before[] from the marks, which the whole team must see on entry (team_barrier); so are before[] on exit.
  // Each lane of the team sums a run of words and is placed among the team's lanes by exclusive_sum_over_team.
  // `lanes`: the team's vector length. Returns the number of marked columns, the same on every lane. With
  // `fill_before` false (no before[]: a symbolic dense tile) only that number is taken, behind one team barrier, after
  // which thread_counts may be written again only after another.
  template <class Member>
  KOKKOS_INLINE_FUNCTION int count(const Member& team, std::int64_t span, int lanes, bool fill_before = true) const {
    const LaneRun run = team_lane_run(team, static_cast<int>(words_for(span)), lanes);
    int mine = 0;
    for (int w = run.first; w < run.last; ++w) mine += popcount32(bits[w]);
    int total = 0;
    int running = exclusive_sum_over_team(team, mine, thread_counts, total);
    if (!fill_before) return total;
    for (int w = run.first; w < run.last; ++w) {
      before[w] = running;
      running += popcount32(bits[w]);
    }
    team.team_barrier();
    return total;
  }

  // After count(): emit(place, offset) for every marked column first + offset, place being its rank among the
  // row's columns. A warp takes 32 consecutive words at a time, so the places it writes at each step are close
  // together (storing each entry at its rank in the table's slot order would scatter a warp's stores over the row).
  template <class Member, class Emit>
  KOKKOS_INLINE_FUNCTION void for_each_in_order(const Member& team, std::int64_t span, int lanes,
                                                const Emit& emit) const {
    const int n = static_cast<int>(words_for(span));
    const int team_lanes = team.team_size() * lanes;
    for (int w = team.team_rank() * lanes + vector_lane(); w < n; w += team_lanes) {
      int place = before[w];
      for (unsigned left = bits[w]; left; left &= left - 1u)
        emit(place++, 32 * static_cast<std::int64_t>(w) + lowest_bit(left));
    }
  }
};

}  // namespace spk::impl
