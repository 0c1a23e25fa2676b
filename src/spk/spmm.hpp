#pragma once
// Sparse times dense: C = alpha * A * B + beta * C, B and C rank-2 Views (LayoutRight or LayoutLeft) with k columns.
#include <Kokkos_Core.hpp>

#include "algorithms.hpp"
#include "csr_matrix.hpp"
#include "impl/spmm_row_team.hpp"
#include "launch_shape.hpp"
#include "matrix_stats.hpp"
#include "select/spmm_select.hpp"

namespace spk {

struct SpmmOptions {
  SpmmAlgorithm algorithm = SpmmAlgorithm::automatic;
  int vector_length = 0;  // 0: the selector decides
  int team_size = 0;      // 0: the selector decides
};

// Reusable analysis of one matrix for one dense width k.
struct SpmmPlan {
  SpmmAlgorithm algorithm = SpmmAlgorithm::automatic;
  LaunchShape shape;
  RowLengthStats stats;
  int k = 0;
  double setup_seconds = 0;
};

template <class Matrix>
SpmmPlan make_spmm_plan(const Matrix& A, int k, const SpmmOptions& options = {}) {
  static_assert(is_csr_matrix<Matrix>::value, "spk::make_spmm_plan: A must be an spk::CsrMatrix");
  using exec = typename Matrix::execution_space;
  if (k < 0) throw invalid_argument(detail::concat("spk::make_spmm_plan: k is ", k, ", expected k >= 0"));
  Kokkos::Timer timer;
  SpmmPlan plan;
  plan.k = k;
  plan.stats = row_length_stats(A);
  plan.algorithm = options.algorithm == SpmmAlgorithm::automatic ? select::choose_spmm_algorithm(plan.stats, k)
                                                                 : options.algorithm;
  plan.shape = select::spmm_launch_shape<exec>(plan.algorithm, plan.stats, k);
  if (options.vector_length > 0) plan.shape.vector_length = options.vector_length;
  if (options.team_size > 0) plan.shape.team_size = options.team_size;
  check_launch_shape<exec>(plan.shape, "spk::make_spmm_plan");
  plan.setup_seconds = timer.seconds();
  return plan;
}

namespace detail {
template <class Matrix, class BView, class CView>
void check_spmm_arguments(const SpmmPlan& plan, const Matrix& A, const BView& B, const CView& C) {
  static_assert(is_csr_matrix<Matrix>::value, "spk::spmm: A must be an spk::CsrMatrix");
  static_assert(Kokkos::is_view<BView>::value && Kokkos::is_view<CView>::value, "spk::spmm: B and C must be Views");
  static_assert(static_cast<int>(BView::rank) == 2 && static_cast<int>(CView::rank) == 2,
                "spk::spmm: B and C must be rank-2 Views");
  using exec = typename Matrix::execution_space;
  static_assert(Kokkos::SpaceAccessibility<exec, typename BView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<exec, typename CView::memory_space>::accessible,
                "spk::spmm: B and C must be accessible from the matrix's execution space");
  if (B.extent(0) != static_cast<std::size_t>(A.num_cols()))
    throw invalid_argument(concat("spk::spmm: B has ", B.extent(0), " rows, expected A.cols = ", A.num_cols()));
  if (C.extent(0) != static_cast<std::size_t>(A.num_rows()))
    throw invalid_argument(concat("spk::spmm: C has ", C.extent(0), " rows, expected A.rows = ", A.num_rows()));
  if (C.extent(1) != B.extent(1))
    throw invalid_argument(concat("spk::spmm: C has ", C.extent(1), " columns, expected B's ", B.extent(1)));
  if (B.extent(1) != static_cast<std::size_t>(plan.k))
    throw invalid_argument(concat("spk::spmm: the plan was made for k = ", plan.k, ", but B has ", B.extent(1),
                                  " columns"));
  check_plan_matches(plan.stats, A, "spk::spmm");
}
}  // namespace detail

template <class Matrix, class BView, class CView>
void spmm(const SpmmPlan& plan, typename Matrix::scalar_type alpha, const Matrix& A, const BView& B,
          typename Matrix::scalar_type beta, const CView& C) {
  detail::check_spmm_arguments(plan, A, B, C);
  switch (plan.algorithm) {
    case SpmmAlgorithm::row_team: impl::spmm_row_team(plan.shape, alpha, A, B, beta, C); break;
    case SpmmAlgorithm::automatic:
      throw invalid_argument("spk::spmm: the plan has no algorithm; build it with spk::make_spmm_plan");
  }
}

template <class Matrix, class BView, class CView>
void spmm(typename Matrix::scalar_type alpha, const Matrix& A, const BView& B, typename Matrix::scalar_type beta,
          const CView& C, const SpmmOptions& options = {}) {
  spmm(make_spmm_plan(A, static_cast<int>(B.extent(1)), options), alpha, A, B, beta, C);
}

}  // namespace spk
