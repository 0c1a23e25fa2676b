#pragma once
// Sparse times sparse: C = A * B, all CSR. Two phases: spgemm_symbolic() sizes C and records how each row is
// accumulated in a plan; spgemm_numeric() fills C's columns (sorted, duplicate-free) and values, and can be rerun
// alone when only the values of A and B change.
#include <limits>

#include <Kokkos_Core.hpp>

#include "algorithms.hpp"
#include "csr_matrix.hpp"
#include "impl/spgemm_hash.hpp"
#include "launch_shape.hpp"
#include "select/spgemm_select.hpp"

namespace spk {

struct SpgemmOptions {
  SpgemmAlgorithm algorithm = SpgemmAlgorithm::automatic;
  int scratch_slots = 0;  // 0: as many as team scratch holds; smaller values force rows onto the global fallback
};

// The symbolic result, reusable by spgemm_numeric while A's and B's sparsity patterns stay the same.
template <class Matrix>
struct SpgemmPlan {
  using offset_type = typename Matrix::offset_type;
  using device_type = typename Matrix::device_type;

  SpgemmAlgorithm algorithm = SpgemmAlgorithm::automatic;
  LaunchShape shape;
  std::int64_t a_rows = -1, a_cols = -1, a_nnz = -1, b_rows = -1, b_cols = -1, b_nnz = -1;
  Kokkos::View<offset_type*, device_type> row_map;  // C's row offsets
  offset_type nnz = 0;                               // C's nonzeros
  impl::SpgemmHashLayout<device_type> layout;
  double symbolic_seconds = 0;

  bool ready() const { return a_rows >= 0; }
};

namespace detail {
template <class MatA, class MatB>
void check_spgemm_operands(const MatA& A, const MatB& B, const char* who) {
  static_assert(is_csr_matrix<MatA>::value && is_csr_matrix<MatB>::value, "spk::spgemm: A and B must be CsrMatrix");
  static_assert(std::is_same_v<typename MatA::device_type, typename MatB::device_type>,
                "spk::spgemm: A and B must live in the same space");
  static_assert(std::is_same_v<typename MatA::scalar_type, typename MatB::scalar_type>,
                "spk::spgemm: A and B must have the same scalar type");
  if (A.num_cols() != B.num_rows())
    throw invalid_argument(concat(who, ": A is ", A.num_rows(), " x ", A.num_cols(), " and B is ", B.num_rows(), " x ",
                                  B.num_cols(), "; expected A.cols == B.rows"));
}
}  // namespace detail

template <class MatA, class MatB>
void spgemm_symbolic(const MatA& A, const MatB& B, SpgemmPlan<MatA>& plan, const SpgemmOptions& options = {}) {
  detail::check_spgemm_operands(A, B, "spk::spgemm_symbolic");
  using exec = typename MatA::execution_space;
  using Offset = typename MatA::offset_type;
  using Scalar = typename MatA::scalar_type;
  using Ordinal = typename MatA::ordinal_type;
  Kokkos::Timer timer;
  if (options.scratch_slots < 0 || (options.scratch_slots & (options.scratch_slots - 1)) != 0)
    throw invalid_argument(detail::concat("spk::spgemm_symbolic: scratch_slots is ", options.scratch_slots,
                                          ", expected 0 or a power of two"));
  const int max_slots = select::spgemm_scratch_slots<exec, Scalar, Ordinal>();
  const int slots = options.scratch_slots == 0 ? max_slots : std::min(options.scratch_slots, max_slots);

  SpgemmPlan<MatA> p;
  p.algorithm = options.algorithm == SpgemmAlgorithm::automatic ? SpgemmAlgorithm::hash : options.algorithm;
  p.a_rows = A.num_rows(), p.a_cols = A.num_cols(), p.a_nnz = A.nnz();
  p.b_rows = B.num_rows(), p.b_cols = B.num_cols(), p.b_nnz = B.nnz();
  p.shape = select::spgemm_launch_shape<exec>(B.num_rows() ? static_cast<double>(B.nnz()) / B.num_rows() : 0.0);
  p.layout = impl::spgemm_hash_layout(A, B, slots);
  p.row_map = Kokkos::View<Offset*, typename MatA::device_type>("spk::spgemm::row_map", A.num_rows() + 1);
  impl::spgemm_hash_rows<false>(p.shape, A, B, p.layout, p.row_map, typename MatA::entries_type(),
                                typename MatA::values_type());

  // Count C's nonzeros in 64 bits and refuse an Offset overflow before anything of C's size is allocated.
  const auto row_map = p.row_map;
  const std::int64_t rows = A.num_rows();
  std::int64_t total = 0;
  Kokkos::parallel_reduce(
      "spk::spgemm::count", Kokkos::RangePolicy<exec, Kokkos::IndexType<std::int64_t>>(0, rows),
      KOKKOS_LAMBDA(std::int64_t r, std::int64_t & sum) { sum += row_map(r); }, total);
  if (total > static_cast<std::int64_t>(std::numeric_limits<Offset>::max()))
    throw invalid_argument(detail::concat("spk::spgemm_symbolic: C would have ", total,
                                          " nonzeros, more than the offset type holds (",
                                          std::numeric_limits<Offset>::max(), "); use int64 offsets"));
  Kokkos::parallel_scan(
      "spk::spgemm::row_map", Kokkos::RangePolicy<exec, Kokkos::IndexType<std::int64_t>>(0, rows),
      KOKKOS_LAMBDA(std::int64_t r, Offset & running, const bool final) {
        const Offset count = row_map(r);
        if (final) row_map(r) = running;
        running += count;
        if (final && r == rows - 1) row_map(rows) = running;
      });
  p.nnz = static_cast<Offset>(total);
  p.symbolic_seconds = timer.seconds();
  plan = std::move(p);
}

// Fills C = A * B using a plan from spgemm_symbolic on matrices with the same sparsity patterns. C's arrays are
// reused when C already holds this plan's structure, else allocated.
template <class MatA, class MatB>
void spgemm_numeric(const SpgemmPlan<MatA>& plan, const MatA& A, const MatB& B, MatA& C) {
  detail::check_spgemm_operands(A, B, "spk::spgemm_numeric");
  if (!plan.ready()) throw invalid_argument("spk::spgemm_numeric: the plan is empty; run spk::spgemm_symbolic first");
  if (plan.a_rows != A.num_rows() || plan.a_cols != A.num_cols() || plan.a_nnz != A.nnz() ||
      plan.b_rows != B.num_rows() || plan.b_cols != B.num_cols() || plan.b_nnz != B.nnz())
    throw invalid_argument(detail::concat(
        "spk::spgemm_numeric: the plan was made for A ", plan.a_rows, " x ", plan.a_cols, " (", plan.a_nnz,
        " nonzeros) and B ", plan.b_rows, " x ", plan.b_cols, " (", plan.b_nnz, " nonzeros), got A ", A.num_rows(),
        " x ", A.num_cols(), " (", A.nnz(), ") and B ", B.num_rows(), " x ", B.num_cols(), " (", B.nnz(), ")"));
  if (C.row_map().data() != plan.row_map.data() || C.nnz() != plan.nnz || C.num_cols() != B.num_cols()) {
    typename MatA::entries_type entries(Kokkos::view_alloc(Kokkos::WithoutInitializing, "spk::spgemm::C_entries"),
                                        plan.nnz);
    typename MatA::values_type values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "spk::spgemm::C_values"),
                                      plan.nnz);
    C = MatA(A.num_rows(), B.num_cols(), plan.row_map, entries, values);
  }
  impl::spgemm_hash_rows<true>(plan.shape, A, B, plan.layout, plan.row_map, C.entries(), C.values());
}

template <class MatA, class MatB>
MatA spgemm(const MatA& A, const MatB& B, const SpgemmOptions& options = {}) {
  SpgemmPlan<MatA> plan;
  spgemm_symbolic(A, B, plan, options);
  MatA C;
  spgemm_numeric(plan, A, B, C);
  return C;
}

}  // namespace spk
