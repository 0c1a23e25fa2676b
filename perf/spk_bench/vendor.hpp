#pragma once
// Glue between the benchmark's Kokkos views and the vendor adapters (backends/cusparse, backends/rocsparse, and the
// CPU yardsticks backends/graphblas, backends/eigen), whose headers take raw arrays. Compiled in only when the
// adapters are (SPK_HAVE_CUSPARSE / SPK_HAVE_ROCSPARSE / SPK_HAVE_GRAPHBLAS / SPK_HAVE_EIGEN).
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <Kokkos_Core.hpp>

#include "timing.hpp"

#ifdef SPK_HAVE_CUSPARSE
#include <cusparse/cusparse_adapter.hpp>
#endif
#ifdef SPK_HAVE_ROCSPARSE
#include <rocsparse/rocsparse_adapter.hpp>
#endif
#ifdef SPK_HAVE_GRAPHBLAS
#include <graphblas/graphblas_adapter.hpp>
#endif
#ifdef SPK_HAVE_EIGEN
#include <eigen/eigen_adapter.hpp>
#endif

namespace spk_bench {

// Library handles bound to the Kokkos default instance's stream, made once per run; the CPU yardsticks' thread
// counts, set to the Kokkos default execution space's concurrency (OMP_NUM_THREADS on OpenMP, 1 on Serial).
struct Vendors {
#ifdef SPK_HAVE_CUSPARSE
  std::unique_ptr<spk::yardstick::cusparse::Handle> cusparse;
#endif
#ifdef SPK_HAVE_ROCSPARSE
  std::unique_ptr<spk::yardstick::rocsparse::Handle> rocsparse;
#endif
#ifdef SPK_HAVE_GRAPHBLAS
  std::unique_ptr<spk::yardstick::graphblas::Library> graphblas;
#endif
  std::string eigen_threads;  // empty unless the Eigen yardstick was started

  void start(const std::vector<std::string>& yardsticks) {
    for (const auto& y : yardsticks) {
      if (y == "cusparse") {
#if defined(SPK_HAVE_CUSPARSE) && defined(KOKKOS_ENABLE_CUDA)
        if constexpr (device_is_cuda()) {
          cusparse = std::make_unique<spk::yardstick::cusparse::Handle>(ExecSpace().cuda_stream());
          continue;
        }
#endif
        throw std::runtime_error("the cuSPARSE yardstick needs Kokkos's CUDA back-end as the default execution space");
      }
      if (y == "rocsparse") {
#if defined(SPK_HAVE_ROCSPARSE) && defined(KOKKOS_ENABLE_HIP)
        if constexpr (device_is_hip()) {
          rocsparse = std::make_unique<spk::yardstick::rocsparse::Handle>(ExecSpace().hip_stream());
          continue;
        }
#endif
        throw std::runtime_error("the rocSPARSE yardstick needs Kokkos's HIP back-end as the default execution space");
      }
      if (y == "graphblas" || y == "eigen") {
        if constexpr (device_is_cuda() || device_is_hip())
          throw std::runtime_error("the " + y + " yardstick runs on the host: it needs a host default execution space");
        const int threads = ExecSpace().concurrency();
#ifdef SPK_HAVE_GRAPHBLAS
        if (y == "graphblas") graphblas = std::make_unique<spk::yardstick::graphblas::Library>(threads);
#endif
#ifdef SPK_HAVE_EIGEN
        if (y == "eigen")
          eigen_threads = spk::yardstick::eigen::set_threads(threads)
                              ? threads_text(spk::yardstick::eigen::threads())
                              : std::string("sequential: built without OpenMP");
#endif
        (void)threads;
      }
    }
  }

  void stop() {
#ifdef SPK_HAVE_CUSPARSE
    cusparse.reset();
#endif
#ifdef SPK_HAVE_ROCSPARSE
    rocsparse.reset();
#endif
#ifdef SPK_HAVE_GRAPHBLAS
    graphblas.reset();
#endif
  }

  static std::string threads_text(int n) { return std::to_string(n) + (n == 1 ? " thread" : " threads"); }

  std::string versions() const {
    std::string out;
#ifdef SPK_HAVE_CUSPARSE
    if (cusparse) out += "cuSPARSE " + cusparse->version();
#endif
#ifdef SPK_HAVE_ROCSPARSE
    if (rocsparse) out += std::string(out.empty() ? "" : ", ") + "rocSPARSE " + rocsparse->version();
#endif
#ifdef SPK_HAVE_GRAPHBLAS
    if (graphblas)
      out += std::string(out.empty() ? "" : ", ") + "GraphBLAS " + graphblas->version() + " (" +
             threads_text(graphblas->threads()) + ")";
#endif
#ifdef SPK_HAVE_EIGEN
    if (!eigen_threads.empty())
      out += std::string(out.empty() ? "" : ", ") + "Eigen " + spk::yardstick::eigen::version() + " (" +
             eigen_threads + ")";
#endif
    return out;
  }
};

// The GPU vendor libraries' adapters have one shape (a Handle on a stream; Spmv, Spmm and Spgemm over CsrArrays and
// DenseArrays; their algorithm lists), so the benchmark drives each through one of these and for_each_gpu_library.
#ifdef SPK_HAVE_CUSPARSE
struct CusparseLibrary {
  static constexpr const char* name = "cusparse";
  static constexpr const char* memory_note =
      "cudaMemGetInfo: largest drop of free device memory, sampled after every step, C included";
  using Handle = spk::yardstick::cusparse::Handle;
  using CsrArrays = spk::yardstick::cusparse::CsrArrays;
  using DenseArrays = spk::yardstick::cusparse::DenseArrays;
  using Spmv = spk::yardstick::cusparse::Spmv;
  using Spmm = spk::yardstick::cusparse::Spmm;
  using Spgemm = spk::yardstick::cusparse::Spgemm;
  static std::vector<std::string> spmv_algorithms() { return spk::yardstick::cusparse::spmv_algorithms(); }
  static std::vector<std::string> spmm_algorithms() { return spk::yardstick::cusparse::spmm_algorithms(); }
  static std::vector<std::string> spgemm_algorithms() { return spk::yardstick::cusparse::spgemm_algorithms(); }
  static Handle* handle(const Vendors& v) { return v.cusparse.get(); }
  template <class Instances>  // streams.hpp
  static Handle& handle(const Instances& in, int i) {
    return in.cusparse(i);
  }
};
#endif
#ifdef SPK_HAVE_ROCSPARSE
struct RocsparseLibrary {
  static constexpr const char* name = "rocsparse";
  static constexpr const char* memory_note =
      "hipMemGetInfo: largest drop of free device memory, sampled after every step, C included";
  using Handle = spk::yardstick::rocsparse::Handle;
  using CsrArrays = spk::yardstick::rocsparse::CsrArrays;
  using DenseArrays = spk::yardstick::rocsparse::DenseArrays;
  using Spmv = spk::yardstick::rocsparse::Spmv;
  using Spmm = spk::yardstick::rocsparse::Spmm;
  using Spgemm = spk::yardstick::rocsparse::Spgemm;
  static std::vector<std::string> spmv_algorithms() { return spk::yardstick::rocsparse::spmv_algorithms(); }
  static std::vector<std::string> spmm_algorithms() { return spk::yardstick::rocsparse::spmm_algorithms(); }
  static std::vector<std::string> spgemm_algorithms() { return spk::yardstick::rocsparse::spgemm_algorithms(); }
  static Handle* handle(const Vendors& v) { return v.rocsparse.get(); }
  template <class Instances>  // streams.hpp
  static Handle& handle(const Instances& in, int i) {
    return in.rocsparse(i);
  }
};
#endif

// f(library) for each GPU vendor library compiled in whose yardstick this run started.
template <class Context, class F>
void for_each_gpu_library(const Context& ctx, F&& f) {
  const auto started = [&](auto library) {
    if (ctx.has_yardstick(decltype(library)::name) && decltype(library)::handle(ctx.vendors)) f(library);
  };
#ifdef SPK_HAVE_CUSPARSE
  started(CusparseLibrary{});
#endif
#ifdef SPK_HAVE_ROCSPARSE
  started(RocsparseLibrary{});
#endif
  (void)started;
}

// Describes a device CsrMatrix for a vendor adapter (Arrays: cusparse::CsrArrays or rocsparse::CsrArrays). The
// generic APIs want one index width, so int64 offsets come with an int64 copy of the column indices, made in cols64.
template <class Arrays, class Matrix>
Arrays describe_csr(const Matrix& A, Kokkos::View<std::int64_t*, typename Matrix::device_type>& cols64) {
  using IndexEnum = decltype(Arrays{}.index_type);
  using ValueEnum = decltype(Arrays{}.value_type);
  Arrays a;
  a.rows = A.num_rows();
  a.cols = A.num_cols();
  a.nnz = A.nnz();
  a.row_offsets = A.row_map().data();
  a.values = A.values().data();
  a.value_type = std::is_same_v<typename Matrix::scalar_type, float> ? ValueEnum::f32 : ValueEnum::f64;
  if constexpr (sizeof(typename Matrix::offset_type) == 8) {
    if (cols64.extent(0) != static_cast<std::size_t>(A.nnz())) {
      cols64 = Kokkos::View<std::int64_t*, typename Matrix::device_type>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "spk_bench::cols64"), A.nnz());
      const auto src = A.entries();
      const auto dst = cols64;
      Kokkos::parallel_for(
          "spk_bench::widen_columns",
          Kokkos::RangePolicy<typename Matrix::execution_space, Kokkos::IndexType<std::int64_t>>(0, A.nnz()),
          KOKKOS_LAMBDA(const std::int64_t p) { dst(p) = src(p); });
      Kokkos::fence();
    }
    a.col_indices = cols64.data();
    a.index_type = IndexEnum::i64;
  } else {
    a.col_indices = A.entries().data();
    a.index_type = IndexEnum::i32;
  }
  return a;
}

// A rank-2 View (LayoutRight: row-major, LayoutLeft: column-major) for a vendor adapter.
template <class Dense, class View>
Dense describe_dense(const View& v) {
  using ValueEnum = decltype(Dense{}.value_type);
  Dense d;
  d.rows = static_cast<std::int64_t>(v.extent(0));
  d.cols = static_cast<std::int64_t>(v.extent(1));
  d.values = v.data();
  d.row_major = std::is_same_v<typename View::array_layout, Kokkos::LayoutRight>;
  d.ld = static_cast<std::int64_t>(d.row_major ? v.stride(0) : v.stride(1));
  if (d.ld == 0) d.ld = d.row_major ? std::max<std::int64_t>(d.cols, 1) : std::max<std::int64_t>(d.rows, 1);
  d.value_type = std::is_same_v<typename View::non_const_value_type, float> ? ValueEnum::f32 : ValueEnum::f64;
  return d;
}

}  // namespace spk_bench
