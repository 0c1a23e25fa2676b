#pragma once
// SpMM row-team, lanes across columns: one team per row block, one thread per row, each vector lane owning
// columns_per_lane columns of the row in registers, so every lane of a warp does the same work; the team covers
// all k columns in passes of vector_length * columns_per_lane (spmm_row_block.hpp has the body).
#include "spmm_row_block.hpp"

namespace spk::impl {

template <class Matrix, class BView, class CView>
void spmm_row_team(const typename Matrix::execution_space& space, const LaunchShape& shape,
                   const RowBlocks<typename Matrix::device_type>& blocks,
                   const RowOrder<typename Matrix::device_type, typename Matrix::offset_type>& order, bool long_rows,
                   typename Matrix::scalar_type alpha, const Matrix& A, const BView& B,
                   typename Matrix::scalar_type beta, const CView& C) {
  const int k = static_cast<int>(B.extent(1));
  launch_spmm_row_blocks(space, "spk::spmm_row_team", shape, blocks, order, long_rows, k, 1, alpha, A, B, beta, C);
}

}  // namespace spk::impl
