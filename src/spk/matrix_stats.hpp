#pragma once
// row_length_stats: the cheap features of a CSR matrix that the selectors read, computed on the matrix's device.
#include <array>
#include <cmath>
#include <cstdint>

#include "csr_matrix.hpp"

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
}  // namespace detail

template <class S, class O, class Off, class Space>
RowLengthStats row_length_stats(const CsrMatrix<S, O, Off, Space>& A) {
  using exec = typename CsrMatrix<S, O, Off, Space>::execution_space;
  using policy = Kokkos::RangePolicy<exec, Kokkos::IndexType<std::int64_t>>;
  using reduction = detail::RowLengthReduction<typename CsrMatrix<S, O, Off, Space>::row_map_type>;
  RowLengthStats s;
  s.rows = A.num_rows();
  s.cols = A.num_cols();
  s.nnz = A.nnz();
  if (s.rows == 0) return s;
  s.mean_length = static_cast<double>(s.nnz) / static_cast<double>(s.rows);
  double result[reduction::slots];
  reduction functor;
  functor.row_map = A.row_map();
  functor.mean = s.mean_length;
  Kokkos::parallel_reduce("spk::row_length_stats", policy(0, s.rows), functor,
                          Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(result, reduction::slots));
  s.min_length = static_cast<std::int64_t>(result[reduction::min_slot]);
  s.max_length = static_cast<std::int64_t>(result[reduction::max_slot]);
  s.stddev_length = std::sqrt(result[reduction::squares_slot] / static_cast<double>(s.rows));
  for (int b = 0; b < RowLengthStats::num_bins; ++b)
    s.log2_histogram[b] = static_cast<std::int64_t>(result[reduction::first_bin + b]);
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
