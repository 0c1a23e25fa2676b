#pragma once
// Sparse matrix-vector product y = alpha * A * x + beta * y (BLAS semantics: beta == 0 never reads y).
#include <Kokkos_Core.hpp>

#include "algorithms.hpp"
#include "csr_matrix.hpp"
#include "impl/spmv_thread_row.hpp"
#include "impl/spmv_vector_row.hpp"
#include "launch_shape.hpp"
#include "matrix_stats.hpp"
#include "select/spmv_select.hpp"

namespace spk {

struct SpmvOptions {
  SpmvAlgorithm algorithm = SpmvAlgorithm::automatic;
  int vector_length = 0;  // 0: the selector decides
  int team_size = 0;      // 0: the selector decides
};

// Reusable analysis of one matrix (like a cuSPARSE descriptor): build once, call spmv() many times.
struct SpmvPlan {
  SpmvAlgorithm algorithm = SpmvAlgorithm::automatic;
  LaunchShape shape;
  RowLengthStats stats;
  double setup_seconds = 0;  // time make_spmv_plan spent (features + selection)
};

template <class Matrix>
SpmvPlan make_spmv_plan(const Matrix& A, const SpmvOptions& options = {}) {
  static_assert(is_csr_matrix<Matrix>::value, "spk::make_spmv_plan: A must be an spk::CsrMatrix");
  using exec = typename Matrix::execution_space;
  Kokkos::Timer timer;
  SpmvPlan plan;
  plan.stats = row_length_stats(A);
  plan.algorithm = options.algorithm == SpmvAlgorithm::automatic ? select::choose_spmv_algorithm(plan.stats)
                                                                 : options.algorithm;
  plan.shape = select::spmv_launch_shape<exec>(plan.algorithm, plan.stats);
  if (options.vector_length > 0) plan.shape.vector_length = options.vector_length;
  if (options.team_size > 0) plan.shape.team_size = options.team_size;
  if (plan.algorithm == SpmvAlgorithm::thread_row && plan.shape.vector_length != 1)
    throw invalid_argument(detail::concat("spk::make_spmv_plan: thread-row uses one lane per row, got vector length ",
                                          plan.shape.vector_length));
  check_launch_shape<exec>(plan.shape, "spk::make_spmv_plan");
  plan.setup_seconds = timer.seconds();
  return plan;
}

namespace detail {
template <class Matrix, class XView, class YView>
void check_spmv_arguments(const SpmvPlan& plan, const Matrix& A, const XView& x, const YView& y) {
  static_assert(is_csr_matrix<Matrix>::value, "spk::spmv: A must be an spk::CsrMatrix");
  static_assert(Kokkos::is_view<XView>::value && Kokkos::is_view<YView>::value, "spk::spmv: x and y must be Views");
  static_assert(static_cast<int>(XView::rank) == 1 && static_cast<int>(YView::rank) == 1,
                "spk::spmv: x and y must be rank-1 Views");
  using exec = typename Matrix::execution_space;
  static_assert(Kokkos::SpaceAccessibility<exec, typename XView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<exec, typename YView::memory_space>::accessible,
                "spk::spmv: x and y must be accessible from the matrix's execution space");
  if (x.extent(0) != static_cast<std::size_t>(A.num_cols()))
    throw invalid_argument(concat("spk::spmv: x has ", x.extent(0), " entries, expected A.cols = ", A.num_cols()));
  if (y.extent(0) != static_cast<std::size_t>(A.num_rows()))
    throw invalid_argument(concat("spk::spmv: y has ", y.extent(0), " entries, expected A.rows = ", A.num_rows()));
  check_plan_matches(plan.stats, A, "spk::spmv");
}
}  // namespace detail

template <class Matrix, class XView, class YView>
void spmv(const SpmvPlan& plan, typename Matrix::scalar_type alpha, const Matrix& A, const XView& x,
          typename Matrix::scalar_type beta, const YView& y) {
  detail::check_spmv_arguments(plan, A, x, y);
  switch (plan.algorithm) {
    case SpmvAlgorithm::thread_row: impl::spmv_thread_row(plan.shape, alpha, A, x, beta, y); break;
    case SpmvAlgorithm::vector_row: impl::spmv_vector_row(plan.shape, alpha, A, x, beta, y); break;
    case SpmvAlgorithm::automatic:
      throw invalid_argument("spk::spmv: the plan has no algorithm; build it with spk::make_spmv_plan");
  }
}

// One-shot form: analyses A, then multiplies. Prefer a plan when A is used more than once.
template <class Matrix, class XView, class YView>
void spmv(typename Matrix::scalar_type alpha, const Matrix& A, const XView& x, typename Matrix::scalar_type beta,
          const YView& y, const SpmvOptions& options = {}) {
  spmv(make_spmv_plan(A, options), alpha, A, x, beta, y);
}

}  // namespace spk
