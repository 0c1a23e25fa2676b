#pragma once
// SpMM k-tiled: for wide dense blocks, the k columns are cut into tiles of vector_length * columns_per_lane and
// each (row block, tile) pair is its own team, tiles outermost: the teams running at once read only one tile's
// slice of B, a working set of cols x tile instead of cols x k, so B's rows stay in cache between the rows that
// share them; it also gives small matrices k / tile times more teams.
#include "spmm_row_block.hpp"

namespace spk::impl {

template <class Matrix, class BView, class CView>
void spmm_k_tiled(const typename Matrix::execution_space& space, const LaunchShape& shape,
                  const RowBlocks<typename Matrix::device_type>& blocks,
                  const RowOrder<typename Matrix::device_type, typename Matrix::offset_type>& order, bool long_rows,
                  typename Matrix::scalar_type alpha, const Matrix& A, const BView& B,
                  typename Matrix::scalar_type beta, const CView& C) {
  const int k = static_cast<int>(B.extent(1)), width = shape.vector_length * shape.columns_per_lane;
  launch_spmm_row_blocks(space, "spk::spmm_k_tiled", shape, blocks, order, long_rows, width, (k + width - 1) / width,
                         alpha, A, B, beta, C);
}

// Teams the k-tiled launch needs (the plan checks it fits a Kokkos league).
inline std::int64_t k_tiled_teams(std::int64_t blocks, int k, const LaunchShape& shape) {
  const int width = shape.vector_length * shape.columns_per_lane;
  return blocks * ((k + width - 1) / width);
}

}  // namespace spk::impl
