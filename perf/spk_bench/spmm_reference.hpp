#pragma once
// SpMM's oracle for the checks: C = A B in double, held whole when it fits in the host memory a check may use
// (--check-memory). When it does not (band 8M x 5 at k = 256 in fp64: a 16 GiB oracle C beside a 16 GiB host copy of
// the result), each check walks the result in blocks of rows instead: a block is copied from the device and the
// oracle computes that block's rows again, so the host holds B and one block, and every entry is still compared.
#include <algorithm>
#include <cstdint>

#include <Kokkos_Core.hpp>

#include "check.hpp"

namespace spk_bench {

template <class S, class Off, class HostB>
class SpmmReference {
 public:
  using Whole = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;

  // The bytes of host memory a whole check holds: the oracle's C and a host copy of the result, B's host copy, and
  // on host back-ends B and C themselves.
  static std::int64_t whole_bytes(std::int64_t rows, std::int64_t cols, std::int64_t k) {
    return (rows * static_cast<std::int64_t>(8 + 2 * sizeof(S)) + cols * static_cast<std::int64_t>(2 * sizeof(S))) * k;
  }

  // The rows of a block that keep a blocked check within limit bytes (B's host copy, on host back-ends B and C, and
  // one block of the oracle's rows and of the result's copy), at most about 256 MiB of the oracle's doubles; 0 when
  // not even one row fits.
  static std::int64_t block_rows_within(std::int64_t rows, std::int64_t cols, std::int64_t k, std::int64_t limit) {
    const std::int64_t fixed = (rows + 2 * cols) * static_cast<std::int64_t>(sizeof(S)) * k;
    const std::int64_t per_row = static_cast<std::int64_t>(8 + sizeof(S)) * std::max<std::int64_t>(1, k);
    if (limit - fixed < per_row) return 0;
    const std::int64_t most = std::max<std::int64_t>(1, (std::int64_t{256} << 20) / (8 * std::max<std::int64_t>(1, k)));
    return std::max<std::int64_t>(1, std::min({(limit - fixed) / per_row, most, rows}));
  }

  // Whole when whole_bytes fits in limit; else in blocks of block_rows rows (0: block_rows_within, which the caller
  // checked is not 0).
  SpmmReference(const HostMatrix<S, Off>& A, const HostB& B, std::int64_t limit, std::int64_t block_rows = 0)
      : A_(A), B_(B), k_(static_cast<std::int64_t>(B.extent(1))) {
    if (whole_bytes(A.num_rows(), A.num_cols(), k_) <= limit)
      whole_ = oracle_spmm(A, B);
    else if (block_rows > 0)
      block_rows_ = std::max<std::int64_t>(1, std::min<std::int64_t>(A.num_rows(), block_rows));
    else
      block_rows_ = std::max<std::int64_t>(1, block_rows_within(A.num_rows(), A.num_cols(), k_, limit));
  }

  bool whole() const { return block_rows_ == 0; }
  std::int64_t block_rows() const { return block_rows_; }
  const Whole& whole_result() const { return whole_; }

  // out (device or host, any layout) against the oracle, one block of rows at a time.
  template <class Out>
  Comparison compare_blocks(const Out& out, double tol) const {
    using Block = Kokkos::View<S**, Kokkos::LayoutRight, typename Out::memory_space>;
    const std::int64_t rows = A_.num_rows();
    const Block staged(Kokkos::view_alloc(Kokkos::WithoutInitializing, "spk_bench::check_block"),
                       static_cast<std::size_t>(block_rows_), static_cast<std::size_t>(k_));
    const auto host = Kokkos::create_mirror_view(staged);
    ErrorSums sums;
    for (std::int64_t r0 = 0; r0 < rows; r0 += block_rows_) {
      const std::int64_t r1 = std::min(rows, r0 + block_rows_);
      const auto part = Kokkos::subview(staged, Kokkos::pair<std::int64_t, std::int64_t>(0, r1 - r0), Kokkos::ALL);
      const auto host_part = Kokkos::subview(host, Kokkos::pair<std::int64_t, std::int64_t>(0, r1 - r0), Kokkos::ALL);
      Kokkos::deep_copy(part, Kokkos::subview(out, Kokkos::pair<std::int64_t, std::int64_t>(r0, r1), Kokkos::ALL));
      Kokkos::deep_copy(host_part, part);
      if (!sums.add(host_part, oracle_spmm(row_block(A_, r0, r1), B_))) break;
    }
    return sums.compare(tol);
  }

 private:
  HostMatrix<S, Off> A_;
  HostB B_;
  std::int64_t k_;
  Whole whole_;
  std::int64_t block_rows_ = 0;  // 0: whole
};

// The check's comparison of one output against an SpMM reference (runner.hpp, outputs_checker).
template <class HostOut, class Out, class S, class Off, class HostB>
Comparison compare_output(const HostOut& host_out, const Out& out, const SpmmReference<S, Off, HostB>& ref,
                          double tol) {
  if (!ref.whole()) return ref.compare_blocks(out, tol);
  Kokkos::deep_copy(host_out, out);
  return compare_dense(host_out, ref.whole_result(), tol);
}

template <class S, class Off, class HostB>
bool holds_whole_result(const SpmmReference<S, Off, HostB>& ref) {
  return ref.whole();
}

}  // namespace spk_bench
