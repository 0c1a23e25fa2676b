#pragma once
// row_length_stats: the cheap features of a CSR matrix that the selectors read, computed on the matrix's device.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include "csr_matrix.hpp"
#include "execution.hpp"
#include "impl/device_memory.hpp"

namespace spk {

struct RowLengthStats {
  static constexpr int num_bins = 34;  // bin 0: empty rows; bin b >= 1: lengths in [2^(b-1), 2^b)
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::int64_t nnz = 0;
  std::int64_t min_length = 0;
  std::int64_t max_length = 0;
  double mean_length = 0;
  double stddev_length = 0;
  std::array<std::int64_t, num_bins> log2_histogram{};
};

KOKKOS_INLINE_FUNCTION int row_length_bin(std::int64_t length) {
  int bin = 0;
  while (length > 0 && bin < RowLengthStats::num_bins - 1) {
    length >>= 1;
    ++bin;
  }
  return bin;
}

namespace detail {
// Integer counts of the row lengths, from which RowLengthStats follows exactly: the same stats whatever order a
// reduction joins them in. Count: std::uint32_t when the rows and the nonzeros are below 2^32 (half the bytes a
// reduction moves), else std::uint64_t.
template <class Count>
struct RowLengthCounts {
  Count bins[RowLengthStats::num_bins];
  Count shortest, longest;
  std::uint64_t squares_low, squares_high;  // the sum of squared lengths, in 128 bits
};

// sum += x * x in 128 bits (sum_low, sum_high); x * x itself needs them from x = 2^32.
KOKKOS_INLINE_FUNCTION void add_square(std::uint64_t x, std::uint64_t& sum_low, std::uint64_t& sum_high) {
  const std::uint64_t a = x >> 32, b = x & 0xffffffffu, cross = a * b;
  std::uint64_t low = b * b, high = a * a + (cross >> 31);
  const std::uint64_t cross_low = cross << 33;  // 2ab * 2^32: its low 64 bits
  low += cross_low;
  high += low < cross_low ? 1 : 0;
  sum_low += low;
  sum_high += high + (sum_low < low ? 1 : 0);
}

// All of RowLengthStats in one pass over the row offsets: a reduction of RowLengthCounts. Each thread's counts stay
// private until the join (a shared atomic histogram serialises on the GPU when most rows have the same length). On an
// H100 (probe) 18-19 us at 4,267-32,768 rows, where the form before, Kokkos's reduction over a run-time array of 37
// doubles, took 26-29: a value of fixed size, with 32-bit counts (the same value with 64-bit counts took 20-23).
template <class RowMap, class Count>
struct RowLengthReduction {
  using value_type = RowLengthCounts<Count>;
  RowMap row_map;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t r, value_type& c) const {
    const auto len = static_cast<Count>(row_map(r + 1) - row_map(r));
    c.shortest = len < c.shortest ? len : c.shortest;
    c.longest = len > c.longest ? len : c.longest;
    add_square(len, c.squares_low, c.squares_high);
    c.bins[row_length_bin(static_cast<std::int64_t>(len))] += 1;
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& c) const {
    for (int b = 0; b < RowLengthStats::num_bins; ++b) c.bins[b] = 0;
    c.shortest = static_cast<Count>(~Count{0});
    c.longest = 0;
    c.squares_low = c.squares_high = 0;
  }
#if KOKKOS_VERSION >= 40000
  KOKKOS_INLINE_FUNCTION void join(value_type& dst, const value_type& src) const {
#else
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& dst, const volatile value_type& src) const {
#endif
    for (int b = 0; b < RowLengthStats::num_bins; ++b) dst.bins[b] += src.bins[b];
    if (src.shortest < dst.shortest) dst.shortest = src.shortest;
    if (src.longest > dst.longest) dst.longest = src.longest;
    const std::uint64_t low = src.squares_low;
    dst.squares_low += low;
    dst.squares_high += src.squares_high + (dst.squares_low < low ? 1 : 0);
  }
};

// Team counts: each team of RowLengthTeams counts its rows in scratch (a thread's runs of one bin cost it one
// atomic, so a stencil's rows of one length do not all hit one counter), then adds them to `out` with integer atomics:
// {largest of INT64_MAX - length, largest length, sum of squared lengths, bins...}. Integers only: the same stats every
// run, whatever order the teams finish in.
template <class RowMap, class Out>
struct RowLengthTeams {
  using exec = typename Out::execution_space;
  using member = typename Kokkos::TeamPolicy<exec>::member_type;
  using counts = Kokkos::View<std::uint64_t*, typename exec::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  static constexpr int top_slot = 0, max_slot = 1, squares_slot = 2, first_bin = 3;
  static constexpr int slots = first_bin + RowLengthStats::num_bins;
  RowMap row_map;
  Out out;  // zeroed
  std::int64_t rows, per_team;

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const counts c(team.team_scratch(0), slots);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, slots), [&](const int i) { c(i) = 0; });
    team.team_barrier();
    const std::int64_t first = static_cast<std::int64_t>(team.league_rank()) * per_team;
    const std::int64_t n = first + per_team < rows ? per_team : rows - first;
    int bin = 0;
    std::uint64_t run = 0, top = 0, hi = 0, squares = 0;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const std::int64_t i) {
      const auto len = static_cast<std::uint64_t>(row_map(first + i + 1) - row_map(first + i));
      const std::uint64_t t = static_cast<std::uint64_t>(INT64_MAX) - len;
      top = t > top ? t : top;
      hi = len > hi ? len : hi;
      squares += len * len;
      const int b = row_length_bin(static_cast<std::int64_t>(len));
      if (b != bin && run > 0) {
        Kokkos::atomic_add(&c(first_bin + bin), run);
        run = 0;
      }
      bin = b;
      ++run;
    });
    if (run > 0) Kokkos::atomic_add(&c(first_bin + bin), run);
    Kokkos::atomic_fetch_max(&c(top_slot), top);
    Kokkos::atomic_fetch_max(&c(max_slot), hi);
    Kokkos::atomic_add(&c(squares_slot), squares);
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, slots), [&](const int i) {
      if (i == top_slot || i == max_slot)
        Kokkos::atomic_fetch_max(&out(i), c(i));
      else if (c(i) != 0)
        Kokkos::atomic_add(&out(i), c(i));
    });
  }
};

// The stats fields from exact counts (s.rows and s.nnz already set). The variance is (rows * sum(len^2) - nnz^2) /
// rows^2: exact while the squares fit 64 bits (rows * squares < 2^127, and it is at least nnz^2 by Cauchy-Schwarz),
// else in long double.
template <class Count>
void fill_row_length_stats(RowLengthStats& s, const RowLengthCounts<Count>& c) {
  s.min_length = static_cast<std::int64_t>(c.shortest);
  s.max_length = static_cast<std::int64_t>(c.longest);
  for (int b = 0; b < RowLengthStats::num_bins; ++b) s.log2_histogram[b] = static_cast<std::int64_t>(c.bins[b]);
  const auto rows = static_cast<std::uint64_t>(s.rows), nnz = static_cast<std::uint64_t>(s.nnz);
  double variance = 0;
#if defined(__SIZEOF_INT128__)
  if (c.squares_high == 0) {
    using wide = unsigned __int128;
    const wide spread = static_cast<wide>(rows) * c.squares_low - static_cast<wide>(nnz) * nnz;
    variance = static_cast<double>(spread) / (static_cast<double>(rows) * static_cast<double>(rows));
  } else
#endif
  {
    using wide = long double;
    const wide squares = std::ldexp(static_cast<wide>(c.squares_high), 64) + static_cast<wide>(c.squares_low);
    const wide mean = static_cast<wide>(nnz) / static_cast<wide>(rows);
    variance = static_cast<double>(std::max<wide>(0, squares / static_cast<wide>(rows) - mean * mean));
  }
  s.stddev_length = std::sqrt(variance);
}

inline RowLengthStats row_length_stats_head(std::int64_t rows, std::int64_t cols, std::int64_t nnz) {
  RowLengthStats s;
  s.rows = rows;
  s.cols = cols;
  s.nnz = nnz;
  s.mean_length = rows ? static_cast<double>(nnz) / static_cast<double>(rows) : 0;
  return s;
}
}  // namespace detail

// Whether row_length_stats_by_teams' sum of squared lengths fits 64 bits: it is at most nnz^2.
inline bool stats_squares_fit(std::int64_t nnz) { return nnz < (std::int64_t{1} << 32); }

// row_length_stats by team counts (detail::RowLengthTeams): one launch into a buffer of 37 integers, whose cost grows
// less with the rows than a reduction's. Needs stats_squares_fit(A.nnz()).
template <class S, class O, class Off, class Space>
RowLengthStats row_length_stats_by_teams(const CsrMatrix<S, O, Off, Space>& A) {
  using Matrix = CsrMatrix<S, O, Off, Space>;
  using exec = typename Matrix::execution_space;
  using Out = Kokkos::View<std::uint64_t*, typename Matrix::device_type>;
  using Teams = detail::RowLengthTeams<typename Matrix::row_map_type, Out>;
  RowLengthStats s = detail::row_length_stats_head(A.num_rows(), A.num_cols(), A.nnz());
  if (!stats_squares_fit(s.nnz))
    throw invalid_argument(detail::concat("spk::row_length_stats_by_teams: ", s.nnz, " nonzeros; the sum of squared",
                                          " row lengths is exact in 64 bits only below 2^32"));
  if (s.rows == 0) return s;
  const int team_size = is_host_space<exec>() ? 1 : 256;
  constexpr std::int64_t teams_max = 1024;  // each team adds its counts to the same 37 integers
  const std::int64_t per_team = std::max<std::int64_t>(4096, (s.rows + teams_max - 1) / teams_max);
  const int teams = static_cast<int>((s.rows + per_team - 1) / per_team);
  const Out out(impl::zeroed<exec>("spk::row_length_stats"), Teams::slots);
  Kokkos::TeamPolicy<exec> policy(teams, team_size);
  policy.set_scratch_size(0, Kokkos::PerTeam(Teams::slots * sizeof(std::uint64_t)));
  Kokkos::parallel_for("spk::row_length_stats", policy, Teams{A.row_map(), out, s.rows, per_team});
  std::uint64_t c[Teams::slots];
  Kokkos::deep_copy(Kokkos::View<std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(c, Teams::slots), out);
  detail::RowLengthCounts<std::uint64_t> counts;
  counts.shortest = static_cast<std::uint64_t>(INT64_MAX) - c[Teams::top_slot];
  counts.longest = c[Teams::max_slot];
  counts.squares_low = c[Teams::squares_slot];
  counts.squares_high = 0;
  for (int b = 0; b < RowLengthStats::num_bins; ++b) counts.bins[b] = c[Teams::first_bin + b];
  detail::fill_row_length_stats(s, counts);
  return s;
}

// row_length_stats by one Kokkos reduction of detail::RowLengthCounts: any size, every back-end.
template <class S, class O, class Off, class Space>
RowLengthStats row_length_stats_by_reduction(const CsrMatrix<S, O, Off, Space>& A) {
  using exec = typename CsrMatrix<S, O, Off, Space>::execution_space;
  using policy = Kokkos::RangePolicy<exec, Kokkos::IndexType<std::int64_t>>;
  using RowMap = typename CsrMatrix<S, O, Off, Space>::row_map_type;
  RowLengthStats s = detail::row_length_stats_head(A.num_rows(), A.num_cols(), A.nnz());
  if (s.rows == 0) return s;
  const auto reduce = [&](auto count) {
    using Reduction = detail::RowLengthReduction<RowMap, decltype(count)>;
    typename Reduction::value_type counts;
    Kokkos::parallel_reduce("spk::row_length_stats", policy(0, s.rows), Reduction{A.row_map()}, counts);
    detail::fill_row_length_stats(s, counts);
  };
  constexpr std::int64_t narrow = std::int64_t{1} << 32;  // 32-bit counts hold every bin, length and square sum
  if (s.rows < narrow && s.nnz < narrow)
    reduce(std::uint32_t{});
  else
    reduce(std::uint64_t{});
  return s;
}

// On GPUs from this many rows, row_length_stats takes team counts: on an H100 (probes) 33 us at 262,144 rows and 34
// at 1 M against the reduction's 43 and 47, but 33 against 21 us at 65,536 rows, where the counts' allocation and fill
// cost more than the reduction (131,072, between the two, was not measured).
inline constexpr std::int64_t stats_by_teams_rows_min = std::int64_t{1} << 17;

template <class S, class O, class Off, class Space>
RowLengthStats row_length_stats(const CsrMatrix<S, O, Off, Space>& A) {
  using exec = typename CsrMatrix<S, O, Off, Space>::execution_space;
  if (!is_host_space<exec>() && A.num_rows() >= stats_by_teams_rows_min && stats_squares_fit(A.nnz()))
    return row_length_stats_by_teams(A);
  return row_length_stats_by_reduction(A);
}

namespace detail {
// A plan is bound to the matrix it analysed; refuse one made for a matrix of another shape.
template <class Matrix>
void check_plan_matches(const RowLengthStats& planned, const Matrix& A, const char* who) {
  if (planned.rows != A.num_rows() || planned.cols != A.num_cols() || planned.nnz != A.nnz())
    throw invalid_argument(concat(who, ": the plan was made for a ", planned.rows, " x ", planned.cols,
                                  " matrix with ", planned.nnz, " nonzeros, but A is ", A.num_rows(), " x ",
                                  A.num_cols(), " with ", A.nnz()));
}
}  // namespace detail

}  // namespace spk
