#pragma once
// cuSPARSE yardstick: SpMV, SpMM and SpGEMM through cuSPARSE's generic API on CSR arrays that already live on the
// GPU (an spk::CsrMatrix's views, no copies), with every CSR algorithm reachable by name. Used by spk-bench (speed)
// and the parity tests; spk never calls it.
//
// The header is free of CUDA and Kokkos types so that any translation unit can include it; cusparse_adapter.cpp
// holds the calls. Every cuSPARSE/CUDA status is checked: a failure throws cusparse::error naming the call and the
// status (CUSPARSE_STATUS_INSUFFICIENT_RESOURCES from an SpGEMM algorithm is an ordinary, catchable failure).
//
// Index types: int32 row offsets and column indices are used as they are. cuSPARSE's generic API wants one index
// width for both arrays, so a matrix with int64 row offsets is described with 64-bit column indices too; the caller
// provides an int64 copy of the column indices (the benchmark makes one on the device). cuSPARSE's SpGEMM takes
// 32-bit indices only, so Spgemm throws cusparse::error with "unsupported" for 64-bit input.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "yardstick_common.hpp"

struct CUstream_st;      // cudaStream_t is CUstream_st*
struct cusparseContext;  // cusparseHandle_t is cusparseContext*

namespace spk::yardstick::cusparse {

using spk::yardstick::Value;
enum class Index { i32, i64 };

// A CSR matrix on the device: rows + 1 offsets, nnz column indices and values (zero-based).
struct CsrArrays {
  std::int64_t rows = 0, cols = 0, nnz = 0;
  const void* row_offsets = nullptr;
  const void* col_indices = nullptr;
  const void* values = nullptr;
  Index index_type = Index::i32;  // width of both offsets and column indices
  Value value_type = Value::f64;
};

// A dense rows x cols block on the device (spk::yardstick::DenseArrays).
using spk::yardstick::DenseArrays;

class error : public std::runtime_error {
 public:
  // status is the cusparseStatus_t (or cudaError_t for CUDA runtime calls, with cuda == true).
  error(const std::string& call, int status, bool cuda, const std::string& what)
      : std::runtime_error(call + " failed: " + what), status_(status), cuda_(cuda) {}
  int status() const noexcept { return status_; }
  bool from_cuda_runtime() const noexcept { return cuda_; }

 private:
  int status_;
  bool cuda_;
};

// One cusparseHandle_t bound to a stream (the benchmark passes Kokkos::Cuda().cuda_stream()).
class Handle {
 public:
  explicit Handle(CUstream_st* stream);
  ~Handle();
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  cusparseContext* get() const { return handle_; }
  CUstream_st* stream() const { return stream_; }
  std::string version() const;  // "12.6.3"

 private:
  cusparseContext* handle_ = nullptr;
  CUstream_st* stream_ = nullptr;
};

// Algorithm names accepted by the classes below, in the order the benchmark tries them.
std::vector<std::string> spmv_algorithms();    // default, csr-alg1, csr-alg2
std::vector<std::string> spmm_algorithms();    // default, csr-alg1, csr-alg2, csr-alg3
std::vector<std::string> spgemm_algorithms();  // alg1, alg2, alg3, reuse

// y = A * x (alpha 1, beta 0). The constructor creates the descriptors, sizes and allocates the work buffer and runs
// the preprocessing step where cuSPARSE has one; run() is the timed call.
class Spmv {
 public:
  Spmv(Handle& handle, const CsrArrays& A, const void* x, void* y, const std::string& algorithm);
  ~Spmv();
  Spmv(const Spmv&) = delete;
  Spmv& operator=(const Spmv&) = delete;
  void run();
  std::size_t buffer_bytes() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// C = A * B (alpha 1, beta 0) for dense B (A.cols x k) and C (A.rows x k), both row- or both column-major.
// Throws cusparse::error when the algorithm does not support the layout (CUSPARSE_STATUS_NOT_SUPPORTED).
class Spmm {
 public:
  Spmm(Handle& handle, const CsrArrays& A, const DenseArrays& B, const DenseArrays& C, const std::string& algorithm);
  ~Spmm();
  Spmm(const Spmm&) = delete;
  Spmm& operator=(const Spmm&) = delete;
  void run();
  std::size_t buffer_bytes() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// C = A * B, all CSR. One end-to-end product is symbolic() then numeric():
//   alg1/alg2/alg3 (cusparseSpGEMM): symbolic() = workEstimation (+ estimateMemory for alg2/alg3) + compute, which
//     already forms C in cuSPARSE's buffers; numeric() = allocate C + copy. cuSPARSE cannot rerun the numeric part
//     alone, so has_numeric_reuse() is false and the split of the two phases is not comparable to spk's.
//   reuse (cusparseSpGEMMreuse, CUSPARSE_SPGEMM_DEFAULT): symbolic() = workEstimation + nnz + allocate C + copy
//     (structure only); numeric() = compute, which numeric_reuse() reruns on the same structure.
// Memory: every buffer and C's arrays are cudaMalloc'ed here; peak_extra_bytes() is the largest drop of
// cudaMemGetInfo's free memory since reset(), sampled after every step (it sees cuSPARSE's internal allocations
// too), and buffer_bytes() the largest sum of this object's live work buffers (C's arrays excluded).
class Spgemm {
 public:
  Spgemm(Handle& handle, const CsrArrays& A, const CsrArrays& B, const std::string& algorithm);
  ~Spgemm();
  Spgemm(const Spgemm&) = delete;
  Spgemm& operator=(const Spgemm&) = delete;
  void symbolic();
  void numeric();
  void numeric_reuse();  // throws unless has_numeric_reuse()
  bool has_numeric_reuse() const;
  void reset();  // frees C and every buffer: the next symbolic() starts a fresh product
  CsrArrays result() const;  // C after numeric(); arrays owned by this object (columns sorted by cuSPARSE)
  std::size_t buffer_bytes() const;
  std::size_t peak_extra_bytes() const;
  // Memory sampling (on by default) synchronises the stream and queries free memory after every step; switch it
  // off while timing.
  void sample_memory(bool on);

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace spk::yardstick::cusparse
