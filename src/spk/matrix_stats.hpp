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
// All of RowLengthStats in one pass over the row offsets: an array reduction of {min, max, sum of squared
// deviations, histogram bins}. Bins are private per thread until the join (a shared atomic histogram serialises on
// the GPU when most rows have the same length).
template <class RowMap>
struct RowLengthReduction {
  using value_type = double[];
  static constexpr int min_slot = 0, max_slot = 1, squares_slot = 2, first_bin = 3;
  static constexpr unsigned slots = first_bin + RowLengthStats::num_bins;
  unsigned value_count = slots;
  RowMap row_map;
  double mean;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t r, value_type v) const {
    const std::int64_t len = row_map(r + 1) - row_map(r);
    const double d = static_cast<double>(len);
    if (d < v[min_slot]) v[min_slot] = d;
    if (d > v[max_slot]) v[max_slot] = d;
    v[squares_slot] += (d - mean) * (d - mean);
    v[first_bin + row_length_bin(len)] += 1;
  }
  KOKKOS_INLINE_FUNCTION void init(value_type v) const {
    v[min_slot] = 1e300;
    v[max_slot] = -1;
    for (unsigned i = squares_slot; i < slots; ++i) v[i] = 0;
  }
#if KOKKOS_VERSION >= 40000
  KOKKOS_INLINE_FUNCTION void join(value_type dst, const value_type src) const {
#else
  KOKKOS_INLINE_FUNCTION void join(volatile value_type dst, const volatile value_type src) const {
#endif
    if (src[min_slot] < dst[min_slot]) dst[min_slot] = src[min_slot];
    if (src[max_slot] > dst[max_slot]) dst[max_slot] = src[max_slot];
    for (unsigned i = squares_slot; i < slots; ++i) dst[i] += src[i];
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

// The stats fields from a reduction's slots {min, max, sum of squared deviations, bins...}.
inline void fill_row_length_stats(RowLengthStats& s, const double* slots) {
  s.min_length = static_cast<std::int64_t>(slots[0]);
  s.max_length = static_cast<std::int64_t>(slots[1]);
  s.stddev_length = std::sqrt(slots[2] / static_cast<double>(s.rows));
  for (int b = 0; b < RowLengthStats::num_bins; ++b) s.log2_histogram[b] = static_cast<std::int64_t>(slots[3 + b]);
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

// row_length_stats by team counts (detail::RowLengthTeams): one launch into a buffer of 37 integers, instead of
// Kokkos's reduction over an array of 37 doubles, whose cost grows with the rows. The variance comes from the exact
// integer sums: rows * sum(len^2) - nnz^2, over rows^2. Needs stats_squares_fit(A.nnz()).
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
  s.min_length = static_cast<std::int64_t>(static_cast<std::uint64_t>(INT64_MAX) - c[Teams::top_slot]);
  s.max_length = static_cast<std::int64_t>(c[Teams::max_slot]);
  const auto rows = static_cast<std::uint64_t>(s.rows), nnz = static_cast<std::uint64_t>(s.nnz);
#if defined(__SIZEOF_INT128__)
  using wide = unsigned __int128;  // rows * sum(len^2) < 2^127, and it is at least nnz^2 (Cauchy-Schwarz)
#else
  using wide = long double;
#endif
  const wide spread = static_cast<wide>(rows) * c[Teams::squares_slot] - static_cast<wide>(nnz) * nnz;
  s.stddev_length = std::sqrt(static_cast<double>(spread) / (static_cast<double>(rows) * static_cast<double>(rows)));
  for (int b = 0; b < RowLengthStats::num_bins; ++b)
    s.log2_histogram[b] = static_cast<std::int64_t>(c[Teams::first_bin + b]);
  return s;
}

// On GPUs from this many rows, row_length_stats takes team counts: on an H100 (probe) 116-117 -> 41-44 us at 262,144
// rows, 65 -> 40-44 at 131,072, 40-41 -> 40-44 at 65,536, but 28-32 -> 40-46 us at 4,267-32,768 rows, where Kokkos's
// one reduction over an array of 37 costs less than the counts' allocation and fill.
inline constexpr std::int64_t stats_by_teams_rows_min = std::int64_t{1} << 16;

template <class S, class O, class Off, class Space>
RowLengthStats row_length_stats(const CsrMatrix<S, O, Off, Space>& A) {
  using exec = typename CsrMatrix<S, O, Off, Space>::execution_space;
  using policy = Kokkos::RangePolicy<exec, Kokkos::IndexType<std::int64_t>>;
  using reduction = detail::RowLengthReduction<typename CsrMatrix<S, O, Off, Space>::row_map_type>;
  if (!is_host_space<exec>() && A.num_rows() >= stats_by_teams_rows_min && stats_squares_fit(A.nnz()))
    return row_length_stats_by_teams(A);
  RowLengthStats s = detail::row_length_stats_head(A.num_rows(), A.num_cols(), A.nnz());
  if (s.rows == 0) return s;
  double result[reduction::slots];
  reduction functor;
  functor.row_map = A.row_map();
  functor.mean = s.mean_length;
  Kokkos::parallel_reduce("spk::row_length_stats", policy(0, s.rows), functor,
                          Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(result, reduction::slots));
  detail::fill_row_length_stats(s, result);
  return s;
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
