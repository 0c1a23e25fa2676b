#pragma once
// rocSPARSE yardstick: SpMV, SpMM and SpGEMM through rocSPARSE's generic API on CSR arrays that already live on the
// GPU, every CSR algorithm reachable by name; the same shape as backends/cusparse/cusparse_adapter.hpp. Used by
// spk-bench and the parity tests; spk never calls it.
//
// Free of HIP and Kokkos types so any translation unit can include it; rocsparse_adapter.cpp holds the calls. Every
// rocSPARSE/HIP status is checked and a failure throws rocsparse::error naming the call and the status.
// Index types: int32 offsets and indices as they are; int64 row offsets are described with 64-bit column indices
// too (the caller provides an int64 copy of the column indices), for SpGEMM as well.
// Written against rocSPARSE 2.x (ROCm 5, Debian 12) and 3.x (ROCm 6, where rocsparse_spmv gained a stage argument).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "yardstick_common.hpp"

struct ihipStream_t;       // hipStream_t is ihipStream_t*
struct _rocsparse_handle;  // rocsparse_handle is _rocsparse_handle*

namespace spk::yardstick::rocsparse {

using spk::yardstick::Value;
enum class Index { i32, i64 };

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
  error(const std::string& call, int status, bool hip, const std::string& what)
      : std::runtime_error(call + " failed: " + what), status_(status), hip_(hip) {}
  int status() const noexcept { return status_; }
  bool from_hip_runtime() const noexcept { return hip_; }

 private:
  int status_;
  bool hip_;
};

// One rocsparse_handle bound to a stream (the benchmark passes the Kokkos HIP default instance's stream).
class Handle {
 public:
  explicit Handle(ihipStream_t* stream);
  ~Handle();
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  _rocsparse_handle* get() const { return handle_; }
  ihipStream_t* stream() const { return stream_; }
  std::string version() const;

 private:
  _rocsparse_handle* handle_ = nullptr;
  ihipStream_t* stream_ = nullptr;
};

std::vector<std::string> spmv_algorithms();    // default, csr-adaptive, csr-stream
std::vector<std::string> spmm_algorithms();    // default, csr, csr-row-split, csr-merge
std::vector<std::string> spgemm_algorithms();  // default

// y = A * x (alpha 1, beta 0); the constructor sizes the buffer and runs the analysis, run() is the timed call.
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

// C = A * B (alpha 1, beta 0), B and C dense, both row- or both column-major.
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

// C = A * B: symbolic() = buffer size + nnz stage + allocate C + symbolic stage; numeric() = numeric stage, which
// numeric_reuse() reruns on the same structure. Memory as in the cuSPARSE adapter (hipMemGetInfo drop since
// symbolic() started, sampled after every step, C included; buffer_bytes() = the work buffer).
class Spgemm {
 public:
  Spgemm(Handle& handle, const CsrArrays& A, const CsrArrays& B, const std::string& algorithm);
  ~Spgemm();
  Spgemm(const Spgemm&) = delete;
  Spgemm& operator=(const Spgemm&) = delete;
  void symbolic();
  void numeric();
  void numeric_reuse();
  bool has_numeric_reuse() const { return true; }
  void reset();
  CsrArrays result() const;
  std::size_t buffer_bytes() const;
  std::size_t peak_extra_bytes() const;
  // Memory sampling (on by default) synchronises the stream and queries free memory after every step; switch it
  // off while timing.
  void sample_memory(bool on);

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace spk::yardstick::rocsparse
