#pragma once
// The figures of design/PERFORMANCE.md. Bandwidth uses the compulsory-traffic model: values and column indices read
// once, row offsets once, the dense input read once, the output written once. FLOPs count a multiply-add as 2.
#include <cmath>
#include <cstdint>
#include <limits>

namespace spk_bench {

struct MatrixShape {
  std::int64_t rows = 0, cols = 0, nnz = 0;
  int scalar_bytes = 8, ordinal_bytes = 4, offset_bytes = 4;
};

inline double sparse_bytes(const MatrixShape& m) {
  return static_cast<double>(m.nnz) * (m.scalar_bytes + m.ordinal_bytes) +
         static_cast<double>(m.rows + 1) * m.offset_bytes;
}

// y = A x: A, x (cols) read, y (rows) written.
inline double spmv_bytes(const MatrixShape& m) {
  return sparse_bytes(m) + static_cast<double>(m.cols + m.rows) * m.scalar_bytes;
}
inline double spmv_flops(const MatrixShape& m) { return 2.0 * static_cast<double>(m.nnz); }

// C = A B with k dense columns: A, B (cols x k) read, C (rows x k) written.
inline double spmm_bytes(const MatrixShape& m, int k) {
  return sparse_bytes(m) + static_cast<double>(m.cols + m.rows) * k * m.scalar_bytes;
}
inline double spmm_flops(const MatrixShape& m, int k) { return 2.0 * static_cast<double>(m.nnz) * k; }

// C = A B: 2 * products, products = sum over A's nonzeros a_ij of nnz(row j of B).
inline double spgemm_flops(std::int64_t products) { return 2.0 * static_cast<double>(products); }

inline double rate_giga(double amount, double ms) {
  return ms > 0 ? amount / (ms * 1e-3) / 1e9 : std::numeric_limits<double>::quiet_NaN();
}

constexpr double nan() { return std::numeric_limits<double>::quiet_NaN(); }

}  // namespace spk_bench
