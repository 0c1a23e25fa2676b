#pragma once
// Kokkos Kernels yardstick: its SpMV (each native algorithm the version offers), rank-2 SpMV as SpMM, and SpGEMM
// (symbolic + numeric, numeric-only reuse), run on an spk::CsrMatrix's own views: KokkosSparse::CrsMatrix is built
// from spk's row_map/entries/values without copies. Used by spk-bench (speed) and the parity tests; spk never calls
// it. Compiles against Kokkos Kernels 3.4 (Debian/Trilinos, no version macro) and 4.x.
//
// What each version offers (KOKKOSKERNELS_VERSION, defined since 3.7; 4.3 introduced KokkosSparse::SPMVHandle):
//   < 4.3: spmv(Controls, ...): "default" (may call a vendor TPL when Kokkos Kernels was built with one) and
//          "native" (controls "algorithm" = "native": Kokkos Kernels' own kernel). No merge path.
//   >= 4.3: SPMVHandle with SPMV_DEFAULT, SPMV_NATIVE, SPMV_MERGE_PATH (may call a TPL) and SPMV_NATIVE_MERGE_PATH.
//          Merge path is rank-1 only (rank-2 SpMV ignores it), so SpMM offers default/native.
// Without a vendor TPL "native" is the same kernel as "default" and is not listed (it would only double the time).
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <Kokkos_Core.hpp>
#include <KokkosKernels_Handle.hpp>
#include <KokkosKernels_config.h>
#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_spgemm.hpp>
#include <KokkosSparse_spmv.hpp>

#include "spk/csr_matrix.hpp"
#include "yardstick_common.hpp"

#if defined(KOKKOSKERNELS_VERSION) && KOKKOSKERNELS_VERSION >= 40300
#define SPK_KOKKOSKERNELS_SPMV_HANDLE 1
#else
#define SPK_KOKKOSKERNELS_SPMV_HANDLE 0
#endif

// 4.6 moved the view-based spgemm_symbolic/spgemm_numeric out of KokkosSparse::Experimental (old names deprecated).
#if defined(KOKKOSKERNELS_VERSION) && KOKKOSKERNELS_VERSION >= 40600
#define SPK_KOKKOSKERNELS_SPGEMM_NS KokkosSparse
#else
#define SPK_KOKKOSKERNELS_SPGEMM_NS KokkosSparse::Experimental
#endif

namespace spk::yardstick::kokkoskernels {

inline std::string version() {
#if defined(KOKKOSKERNELS_VERSION)
  return std::to_string(KOKKOSKERNELS_VERSION / 10000) + "." + std::to_string(KOKKOSKERNELS_VERSION / 100 % 100) +
         "." + std::to_string(KOKKOSKERNELS_VERSION % 100);
#else
  return "3.x (Trilinos build, no KOKKOSKERNELS_VERSION)";
#endif
}

// True when Kokkos Kernels may hand "default" calls to a vendor library (cuSPARSE, rocSPARSE, MKL).
constexpr bool has_vendor_tpl() {
#if defined(KOKKOSKERNELS_ENABLE_TPL_CUSPARSE) || defined(KOKKOSKERNELS_ENABLE_TPL_ROCSPARSE) || \
    defined(KOKKOSKERNELS_ENABLE_TPL_MKL)
  return true;
#else
  return false;
#endif
}

inline std::vector<std::string> spmv_algorithms() {
  std::vector<std::string> out{"default"};
  if (has_vendor_tpl()) out.emplace_back("native");
#if SPK_KOKKOSKERNELS_SPMV_HANDLE
  out.emplace_back("native-merge-path");
  if (has_vendor_tpl()) out.emplace_back("merge-path");
#endif
  return out;
}

inline std::vector<std::string> spmm_algorithms() {
  std::vector<std::string> out{"default"};
  if (has_vendor_tpl()) out.emplace_back("native");
  return out;
}

inline std::vector<std::string> spgemm_algorithms() { return {"kk", "kk-memory", "kk-lp"}; }

template <class Matrix>
using crs_matrix_t = KokkosSparse::CrsMatrix<typename Matrix::scalar_type, typename Matrix::ordinal_type,
                                             typename Matrix::device_type, void, typename Matrix::offset_type>;

// A KokkosSparse::CrsMatrix viewing A's arrays (reference-counted, no copies).
template <class Matrix>
crs_matrix_t<Matrix> to_crs(const Matrix& A) {
  static_assert(spk::is_csr_matrix<Matrix>::value, "kokkoskernels::to_crs: A must be an spk::CsrMatrix");
  using Crs = crs_matrix_t<Matrix>;
  typename Crs::row_map_type row_map = A.row_map();
  typename Crs::index_type entries = A.entries();
  typename Crs::values_type values = A.values();
  return Crs("spk::kokkoskernels::A", A.num_rows(), A.num_cols(), A.nnz(), values, row_map, entries);
}

// y = A * x (alpha 1, beta 0) for rank-1 x, y (SpMV) or rank-2 x, y (SpMM as rank-2 SpMV). The constructor picks
// the algorithm; the first run() sets up whatever Kokkos Kernels caches in its handle.
template <class Matrix, class XView, class YView>
class Spmv {
  using crs = crs_matrix_t<Matrix>;
  using scalar = typename Matrix::scalar_type;
  using exec = typename Matrix::execution_space;
  static constexpr bool rank2 = static_cast<int>(XView::rank) == 2;

 public:
  Spmv(const Matrix& A, const XView& x, const YView& y, const std::string& algorithm)
      : A_(to_crs(A)), x_(x), y_(y), algorithm_(algorithm) {
    require_algorithm("Kokkos Kernels", rank2 ? "rank-2 SpMV" : "SpMV", algorithm,
                      rank2 ? spmm_algorithms() : spmv_algorithms());
#if SPK_KOKKOSKERNELS_SPMV_HANDLE
    KokkosSparse::SPMVAlgorithm alg = KokkosSparse::SPMV_DEFAULT;
    if (algorithm == "native") alg = KokkosSparse::SPMV_NATIVE;
    if (algorithm == "merge-path") alg = KokkosSparse::SPMV_MERGE_PATH;
    if (algorithm == "native-merge-path") alg = KokkosSparse::SPMV_NATIVE_MERGE_PATH;
    handle_ = std::make_unique<handle_type>(alg);
#else
    if (algorithm == "native") controls_.setParameter("algorithm", "native");
#endif
  }

  void run() {
#if SPK_KOKKOSKERNELS_SPMV_HANDLE
    KokkosSparse::spmv(exec(), handle_.get(), "N", scalar(1), A_, x_, scalar(0), y_);
#else
    KokkosSparse::spmv(controls_, "N", scalar(1), A_, x_, scalar(0), y_);
#endif
  }

  const std::string& algorithm() const { return algorithm_; }

 private:
  crs A_;
  XView x_;
  YView y_;
  std::string algorithm_;
#if SPK_KOKKOSKERNELS_SPMV_HANDLE
  using handle_type = KokkosSparse::SPMVHandle<typename Matrix::device_type, crs, XView, YView>;
  std::unique_ptr<handle_type> handle_;
#else
  KokkosKernels::Experimental::Controls controls_;
#endif
};

// C = A * B through Kokkos Kernels' two-phase SpGEMM. symbolic() makes a fresh handle and C's row offsets;
// numeric() allocates C's columns and values and fills them; numeric_reuse() reruns the numeric phase on the
// same structure. C's rows may come out unsorted (Kokkos Kernels does not sort them).
template <class Matrix>
class Spgemm {
  using scalar = typename Matrix::scalar_type;
  using ordinal = typename Matrix::ordinal_type;
  using offset = typename Matrix::offset_type;
  using exec = typename Matrix::execution_space;
  using mem = typename Matrix::memory_space;
  using handle_type = KokkosKernels::Experimental::KokkosKernelsHandle<offset, ordinal, scalar, exec, mem, mem>;

 public:
  Spgemm(const Matrix& A, const Matrix& B, const std::string& algorithm) : A_(A), B_(B) {
    if (A.num_cols() != B.num_rows())
      throw std::invalid_argument("Kokkos Kernels SpGEMM: A.cols " + std::to_string(A.num_cols()) +
                                  " != B.rows " + std::to_string(B.num_rows()));
    require_algorithm("Kokkos Kernels", "SpGEMM", algorithm, spgemm_algorithms());
    if (algorithm == "kk")
      algorithm_ = KokkosSparse::SPGEMM_KK;
    else if (algorithm == "kk-memory")
      algorithm_ = KokkosSparse::SPGEMM_KK_MEMORY;
    else if (algorithm == "kk-lp")
      algorithm_ = KokkosSparse::SPGEMM_KK_LP;
  }

  void symbolic() {
    reset();
    handle_ = std::make_unique<handle_type>();
    handle_->create_spgemm_handle(algorithm_);
    c_row_map_ = typename Matrix::row_map_type("spk::kokkoskernels::C_row_map", A_.num_rows() + 1);
    SPK_KOKKOSKERNELS_SPGEMM_NS::spgemm_symbolic(handle_.get(), A_.num_rows(), A_.num_cols(), B_.num_cols(),
                                                A_.row_map(), A_.entries(), false, B_.row_map(), B_.entries(), false,
                                                c_row_map_);
  }

  void numeric() {
    if (!handle_) throw std::logic_error("Kokkos Kernels SpGEMM: numeric() before symbolic()");
    const auto nnz = handle_->get_spgemm_handle()->get_c_nnz();
    c_entries_ = typename Matrix::entries_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "spk::kk::C_entries"),
                                               nnz);
    c_values_ = typename Matrix::values_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "spk::kk::C_values"),
                                             nnz);
    numeric_reuse();
  }

  void numeric_reuse() {
    if (!handle_) throw std::logic_error("Kokkos Kernels SpGEMM: numeric_reuse() before symbolic()");
    SPK_KOKKOSKERNELS_SPGEMM_NS::spgemm_numeric(handle_.get(), A_.num_rows(), A_.num_cols(), B_.num_cols(),
                                               A_.row_map(), A_.entries(), A_.values(), false, B_.row_map(),
                                               B_.entries(), B_.values(), false, c_row_map_, c_entries_, c_values_);
  }

  void reset() {
    if (handle_) handle_->destroy_spgemm_handle();
    handle_.reset();
    c_row_map_ = {};
    c_entries_ = {};
    c_values_ = {};
  }

  Matrix result() const { return Matrix(A_.num_rows(), B_.num_cols(), c_row_map_, c_entries_, c_values_); }

 private:
  Matrix A_, B_;
  KokkosSparse::SPGEMMAlgorithm algorithm_ = KokkosSparse::SPGEMM_KK;
  std::unique_ptr<handle_type> handle_;
  typename Matrix::row_map_type c_row_map_;
  typename Matrix::entries_type c_entries_;
  typename Matrix::values_type c_values_;
};

}  // namespace spk::yardstick::kokkoskernels
