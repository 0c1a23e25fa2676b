#pragma once
// Sequential oracles for SpMV, SpMM and SpGEMM on host data, accumulating in double. Tests and spk-bench check
// every kernel against these.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "../csr_matrix.hpp"

namespace spk::reference {

// y = alpha * A * x + beta * y; beta == 0 ignores y's old contents (even NaN).
template <class S, class O, class Off, class XView, class YView>
void spmv(double alpha, const HostCsrMatrix<S, O, Off>& A, const XView& x, double beta, const YView& y) {
  const auto rm = A.row_map();
  const auto ent = A.entries();
  const auto val = A.values();
  for (std::int64_t r = 0; r < A.num_rows(); ++r) {
    double sum = 0;
    for (Off p = rm(r); p < rm(r + 1); ++p) sum += static_cast<double>(val(p)) * static_cast<double>(x(ent(p)));
    y(r) = beta == 0 ? alpha * sum : alpha * sum + beta * static_cast<double>(y(r));
  }
}

// C = alpha * A * B + beta * C for host rank-2 Views of any layout.
template <class S, class O, class Off, class BView, class CView>
void spmm(double alpha, const HostCsrMatrix<S, O, Off>& A, const BView& B, double beta, const CView& C) {
  const auto rm = A.row_map();
  const auto ent = A.entries();
  const auto val = A.values();
  const std::size_t k = B.extent(1);
  std::vector<double> acc(k);
  for (std::int64_t r = 0; r < A.num_rows(); ++r) {
    std::fill(acc.begin(), acc.end(), 0.0);
    for (Off p = rm(r); p < rm(r + 1); ++p)
      for (std::size_t c = 0; c < k; ++c) acc[c] += static_cast<double>(val(p)) * static_cast<double>(B(ent(p), c));
    for (std::size_t c = 0; c < k; ++c)
      C(r, c) = beta == 0 ? alpha * acc[c] : alpha * acc[c] + beta * static_cast<double>(C(r, c));
  }
}

// C = A * B with sorted, duplicate-free rows (a computed zero stays as an explicit entry, as in the kernels).
// Gustavson's algorithm with a dense accumulator over B's columns.
template <class S, class O, class Off, class OffB>
HostCsrMatrix<double, O, std::int64_t> spgemm(const HostCsrMatrix<S, O, Off>& A, const HostCsrMatrix<S, O, OffB>& B) {
  const auto arm = A.row_map();
  const auto aent = A.entries();
  const auto aval = A.values();
  const auto brm = B.row_map();
  const auto bent = B.entries();
  const auto bval = B.values();
  std::vector<std::int64_t> row_map(static_cast<std::size_t>(A.num_rows()) + 1, 0);
  std::vector<O> cols;
  std::vector<double> vals;
  std::vector<double> acc(static_cast<std::size_t>(B.num_cols()), 0.0);
  std::vector<char> used(static_cast<std::size_t>(B.num_cols()), 0);
  std::vector<O> touched;
  for (std::int64_t r = 0; r < A.num_rows(); ++r) {
    touched.clear();
    for (Off p = arm(r); p < arm(r + 1); ++p)
      for (OffB q = brm(aent(p)); q < brm(aent(p) + 1); ++q) {
        const O c = bent(q);
        if (!used[c]) {
          used[c] = 1;
          touched.push_back(c);
        }
        acc[c] += static_cast<double>(aval(p)) * static_cast<double>(bval(q));
      }
    std::sort(touched.begin(), touched.end());
    for (const O c : touched) {
      cols.push_back(c);
      vals.push_back(acc[c]);
      acc[c] = 0;
      used[c] = 0;
    }
    row_map[r + 1] = static_cast<std::int64_t>(cols.size());
  }
  using Out = HostCsrMatrix<double, O, std::int64_t>;
  typename Out::row_map_type orm("spk::reference::row_map", row_map.size());
  typename Out::entries_type oent("spk::reference::entries", cols.size());
  typename Out::values_type oval("spk::reference::values", vals.size());
  std::copy(row_map.begin(), row_map.end(), orm.data());
  std::copy(cols.begin(), cols.end(), oent.data());
  std::copy(vals.begin(), vals.end(), oval.data());
  return Out(A.num_rows(), B.num_cols(), orm, oent, oval);
}

}  // namespace spk::reference
