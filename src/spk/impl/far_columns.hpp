#pragma once
// Whether A's rows read x from far apart: the share of A's nonzeros that lie in rows whose columns span more than
// a given number of x's entries, estimated from nonzeros evenly spaced through A (each one's row found by binary
// search in the row offsets), so a plan pays microseconds, not a pass over A. Host memory only: the host row loops
// prefetch x ahead where most nonzeros are far (host_row_dot.hpp).
#include <algorithm>
#include <cstdint>

namespace spk::impl {

inline constexpr std::int64_t far_column_samples = 1024;
// A plan reads ahead where at least far_columns_share of the nonzeros lie in rows spanning more than
// far_column_bytes of x (twice the 512 KiB L2 of the Zen 3 it was measured on): uniform 1M x 16 (1.0 in both
// precisions) and rmat 18 16 fp64 (its rows' columns spread over 2 MiB of x), not rmat 18 16 fp32 (1 MiB of x,
// where reading ahead gained nothing), nor lap2d 1024, st3d27 64, band 8M x 5, Cornell5 or ogbl_ddi (0).
inline constexpr std::int64_t far_column_bytes = std::int64_t{1} << 20;
inline constexpr double far_columns_share = 0.5;

// The share (0 to 1) of sampled nonzeros whose row spans more than `far_entries` columns (its last column less its
// first: a row's columns are sorted); 0 for a matrix without nonzeros.
template <class Matrix>
double far_nonzero_share(const Matrix& A, std::int64_t far_entries) {
  const std::int64_t rows = A.num_rows(), nnz = A.nnz();
  if (rows == 0 || nnz == 0) return 0;
  const auto row_map = A.row_map();
  const auto entries = A.entries();
  const auto* offsets = row_map.data();
  const std::int64_t samples = std::min(nnz, far_column_samples);
  std::int64_t far = 0;
  for (std::int64_t s = 0; s < samples; ++s) {
    const std::int64_t k = (2 * s + 1) * nnz / (2 * samples);  // the middle of the s-th of `samples` equal parts
    // the row holding k: the last whose first nonzero is at most k (the offsets rise; row_map(rows) = nnz > k)
    const std::int64_t row = std::upper_bound(offsets, offsets + rows + 1, k) - offsets - 1;
    const std::int64_t b = row_map(row), e = row_map(row + 1);
    if (static_cast<std::int64_t>(entries(e - 1)) - static_cast<std::int64_t>(entries(b)) > far_entries) ++far;
  }
  return static_cast<double>(far) / static_cast<double>(samples);
}

}  // namespace spk::impl
