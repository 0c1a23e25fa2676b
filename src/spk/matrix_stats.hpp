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

template <class S, class O, class Off, class Space>
RowLengthStats row_length_stats(const CsrMatrix<S, O, Off, Space>& A) {
  using exec = typename CsrMatrix<S, O, Off, Space>::execution_space;
  using policy = Kokkos::RangePolicy<exec, Kokkos::IndexType<std::int64_t>>;
  RowLengthStats s;
  s.rows = A.num_rows();
  s.cols = A.num_cols();
  s.nnz = A.nnz();
  if (s.rows == 0) return s;
  const auto row_map = A.row_map();
  const double mean = static_cast<double>(s.nnz) / static_cast<double>(s.rows);
  double squares = 0;
  Kokkos::parallel_reduce(
      "spk::row_length_stats::min", policy(0, s.rows),
      KOKKOS_LAMBDA(std::int64_t r, std::int64_t & m) {
        const std::int64_t len = row_map(r + 1) - row_map(r);
        if (len < m) m = len;
      },
      Kokkos::Min<std::int64_t>(s.min_length));
  Kokkos::parallel_reduce(
      "spk::row_length_stats::max", policy(0, s.rows),
      KOKKOS_LAMBDA(std::int64_t r, std::int64_t & m) {
        const std::int64_t len = row_map(r + 1) - row_map(r);
        if (len > m) m = len;
      },
      Kokkos::Max<std::int64_t>(s.max_length));
  Kokkos::parallel_reduce(
      "spk::row_length_stats::variance", policy(0, s.rows),
      KOKKOS_LAMBDA(std::int64_t r, double& sum) {
        const double d = static_cast<double>(row_map(r + 1) - row_map(r)) - mean;
        sum += d * d;
      },
      squares);
  Kokkos::View<std::int64_t[RowLengthStats::num_bins], typename CsrMatrix<S, O, Off, Space>::memory_space> hist(
      "spk::row_length_histogram");
  Kokkos::parallel_for(
      "spk::row_length_stats::histogram", policy(0, s.rows), KOKKOS_LAMBDA(std::int64_t r) {
        Kokkos::atomic_add(&hist(row_length_bin(row_map(r + 1) - row_map(r))), std::int64_t(1));
      });
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), hist);
  for (int b = 0; b < RowLengthStats::num_bins; ++b) s.log2_histogram[b] = h(b);
  s.mean_length = mean;
  s.stddev_length = std::sqrt(squares / static_cast<double>(s.rows));
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
