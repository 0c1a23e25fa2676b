#pragma once
// Eigen yardstick (CPU only): SpMV and SpMM as a row-major Eigen::SparseMatrix times a dense vector or block (either
// layout), and SpGEMM as Eigen's sparse * sparse product, all on the host copy of an spk::CsrMatrix and host Views.
// Used by spk-bench (speed); spk never calls it. Needs Eigen 3.3 or later.
//
// A is an Eigen::Map<const Eigen::SparseMatrix<Scalar, RowMajor, StorageIndex>> over spk's own arrays, no copies,
// when spk's offsets are int32 (StorageIndex = int). Eigen has one StorageIndex for offsets and column indices, so a
// matrix with int64 offsets is mapped with StorageIndex = int64 and an int64 copy of its column indices, made once in
// the constructor (like the cuSPARSE adapter's); Eigen then reads 8-byte column indices.
//
// Threads: Eigen parallelises a row-major sparse * dense product over rows with OpenMP when the translation unit is
// compiled with OpenMP (EIGEN_HAS_OPENMP) and set_threads() (Eigen::setNbThreads) allows more than one thread, and
// only above about 20,000 nonzeros (times the dense width): Eigen's own threshold. Its sparse * sparse product is
// sequential.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <Kokkos_Core.hpp>

#include "spk/csr_matrix.hpp"
#include "yardstick_common.hpp"

namespace spk::yardstick::eigen {

inline std::string version() {
  return std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) + "." +
         std::to_string(EIGEN_MINOR_VERSION);
}

// Threads Eigen may use in a parallel product (1: sequential). False when Eigen was compiled without OpenMP.
inline bool set_threads(int threads) {
  Eigen::setNbThreads(threads < 1 ? 1 : threads);
#ifdef EIGEN_HAS_OPENMP
  return true;
#else
  return false;
#endif
}
inline int threads() { return Eigen::nbThreads(); }

inline std::vector<std::string> spmv_algorithms() { return {"default"}; }
inline std::vector<std::string> spmm_algorithms() { return {"default"}; }
inline std::vector<std::string> spgemm_algorithms() { return {"conservative"}; }

namespace detail {

template <class View>
constexpr void static_check_host() {
  static_assert(Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename View::memory_space>::accessible,
                "the Eigen yardstick runs on the host: its matrix and views must be host-accessible");
}

// A read-only Eigen view of a host spk::CsrMatrix with StorageIndex = the matrix's offset type. Holds the widened
// column indices when offsets are 64-bit.
template <class Matrix>
class SparseView {
 public:
  using scalar = typename Matrix::scalar_type;
  using index = typename Matrix::offset_type;
  using sparse = Eigen::SparseMatrix<scalar, Eigen::RowMajor, index>;
  using map = Eigen::Map<const sparse>;

  explicit SparseView(const Matrix& A) : A_(A) {
    static_assert(spk::is_csr_matrix<Matrix>::value, "eigen: A must be an spk::CsrMatrix");
    static_assert(std::is_signed_v<index>, "eigen: StorageIndex must be signed");
    static_check_host<Matrix>();
    if constexpr (!std::is_same_v<index, typename Matrix::ordinal_type>) {
      const auto e = A.entries();
      columns_.resize(e.extent(0));
      for (std::size_t p = 0; p < e.extent(0); ++p) columns_[p] = static_cast<index>(e(p));
    }
  }

  map get() const {
    const index* cols;
    if constexpr (std::is_same_v<index, typename Matrix::ordinal_type>)
      cols = A_.entries().data();
    else
      cols = columns_.data();
    return map(A_.num_rows(), A_.num_cols(), static_cast<Eigen::Index>(A_.nnz()), A_.row_map().data(), cols,
               A_.values().data());
  }

 private:
  Matrix A_;
  std::vector<index> columns_;
};

// A rank-1 View as an Eigen vector, a rank-2 View (LayoutRight or LayoutLeft) as a row- or column-major matrix with
// the View's stride.
template <class View>
auto dense_map(const View& v) {
  using S = typename View::value_type;
  static_check_host<View>();
  if constexpr (static_cast<int>(View::rank) == 1) {
    using Vec = std::conditional_t<std::is_const_v<S>, const Eigen::Matrix<std::remove_const_t<S>, Eigen::Dynamic, 1>,
                                   Eigen::Matrix<S, Eigen::Dynamic, 1>>;
    return Eigen::Map<Vec>(v.data(), static_cast<Eigen::Index>(v.extent(0)));
  } else {
    constexpr bool row_major = std::is_same_v<typename View::array_layout, Kokkos::LayoutRight>;
    static_assert(row_major || std::is_same_v<typename View::array_layout, Kokkos::LayoutLeft>,
                  "eigen: dense blocks must be LayoutRight or LayoutLeft");
    using Plain = Eigen::Matrix<std::remove_const_t<S>, Eigen::Dynamic, Eigen::Dynamic,
                                row_major ? Eigen::RowMajor : Eigen::ColMajor>;
    using Mat = std::conditional_t<std::is_const_v<S>, const Plain, Plain>;
    const auto rows = static_cast<Eigen::Index>(v.extent(0)), cols = static_cast<Eigen::Index>(v.extent(1));
    Eigen::Index ld = static_cast<Eigen::Index>(row_major ? v.stride(0) : v.stride(1));
    if (ld < (row_major ? cols : rows)) ld = row_major ? cols : rows;
    if (ld < 1) ld = 1;
    return Eigen::Map<Mat, Eigen::Unaligned, Eigen::OuterStride<>>(v.data(), rows, cols, Eigen::OuterStride<>(ld));
  }
}

}  // namespace detail

// y = A * x for rank-1 x, y (SpMV) or rank-2 x, y (SpMM, both LayoutRight or both LayoutLeft): run() assigns the
// product into y's memory (Eigen zeroes y, then accumulates).
template <class Matrix, class XView, class YView>
class Spmv {
  static constexpr bool rank2 = static_cast<int>(XView::rank) == 2;
  static_assert(static_cast<int>(XView::rank) == static_cast<int>(YView::rank), "eigen: x and y of different rank");

 public:
  Spmv(const Matrix& A, const XView& x, const YView& y, const std::string& algorithm) : A_(A), x_(x), y_(y) {
    require_algorithm("Eigen", rank2 ? "SpMM" : "SpMV", algorithm, rank2 ? spmm_algorithms() : spmv_algorithms());
    if (x.extent(0) != static_cast<std::size_t>(A.num_cols()) || y.extent(0) != static_cast<std::size_t>(A.num_rows()))
      throw std::invalid_argument("Eigen " + std::string(rank2 ? "SpMM" : "SpMV") + ": x or y does not match A");
    if constexpr (rank2)
      if (x.extent(1) != y.extent(1)) throw std::invalid_argument("Eigen SpMM: B and C have different widths");
  }

  void run() {
    auto y = detail::dense_map(y_);
    y.noalias() = A_.get() * detail::dense_map(x_);
  }

 private:
  detail::SparseView<Matrix> A_;
  XView x_;
  YView y_;
};

// C = A * B (host CSR): multiply() is Eigen's conservative sparse * sparse product (symbolic and numeric in one
// pass, C allocated by it, rows sorted); reset() frees C; result() copies C into a host spk::CsrMatrix.
template <class Matrix>
class Spgemm {
  using view = detail::SparseView<Matrix>;
  using sparse = typename view::sparse;

 public:
  Spgemm(const Matrix& A, const Matrix& B, const std::string& algorithm) : A_(A), B_(B) {
    require_algorithm("Eigen", "SpGEMM", algorithm, spgemm_algorithms());
    if (A.num_cols() != B.num_rows())
      throw std::invalid_argument("Eigen SpGEMM: A.cols " + std::to_string(A.num_cols()) + " != B.rows " +
                                  std::to_string(B.num_rows()));
  }

  void multiply() { C_ = A_.get() * B_.get(); }

  void reset() {
    sparse empty;
    C_.swap(empty);
  }

  // Out: a host spk::CsrMatrix type (by default A's own).
  template <class Out = Matrix>
  Out result() const {
    using ordinal = typename Out::ordinal_type;
    if (!C_.isCompressed()) throw std::logic_error("Eigen SpGEMM: C is not compressed");
    const auto rows = C_.rows(), nnz = static_cast<Eigen::Index>(C_.nonZeros());
    typename Out::row_map_type row_map(Kokkos::view_alloc(Kokkos::WithoutInitializing, "eigen::C_row_map"), rows + 1);
    typename Out::entries_type entries(Kokkos::view_alloc(Kokkos::WithoutInitializing, "eigen::C_entries"), nnz);
    typename Out::values_type values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "eigen::C_values"), nnz);
    for (Eigen::Index i = 0; i <= rows; ++i) row_map(i) = static_cast<typename Out::offset_type>(C_.outerIndexPtr()[i]);
    for (Eigen::Index p = 0; p < nnz; ++p) {
      entries(p) = static_cast<ordinal>(C_.innerIndexPtr()[p]);
      values(p) = C_.valuePtr()[p];
    }
    return Out(static_cast<ordinal>(rows), static_cast<ordinal>(C_.cols()), row_map, entries, values);
  }

 private:
  view A_, B_;
  sparse C_;
};

}  // namespace spk::yardstick::eigen
