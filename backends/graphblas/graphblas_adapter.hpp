#pragma once
// SuiteSparse:GraphBLAS yardstick (CPU only): SpMV (GrB_mxv), SpMM (GrB_mxm with B a full matrix) and SpGEMM
// (GrB_mxm), all y = A*x / C = A*B over the PLUS_TIMES semiring, on the host copy of an spk::CsrMatrix. Used by
// spk-bench (speed); spk never calls it.
//
// GraphBLAS 7 stores its own CSR with 64-bit GrB_Index offsets and column indices, so every operation's constructor
// copies A (and B, x) into GraphBLAS objects once, untimed; int32 and int64 row offsets are both accepted. run() /
// multiply() is what the benchmark times: the operation followed by GrB_wait(..., GrB_MATERIALIZE), so that
// GraphBLAS's non-blocking mode cannot leave work (pending tuples, unsorted rows) past the timer. Results stay in
// GraphBLAS's objects, as for any GraphBLAS user; copy_result() writes them into the caller's arrays (untimed: the
// benchmark's check).
//
// The header is free of GraphBLAS types (GraphBLAS.h 7.x is not wrapped in extern "C" for C++ callers, and its
// macros are best kept out of the benchmark's translation units); graphblas_adapter.cpp holds the calls. Every
// GrB_Info is checked: a failure throws graphblas::error naming the call, the code and GraphBLAS's own message.
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "yardstick_common.hpp"

namespace spk::yardstick::graphblas {

using spk::yardstick::Value;

// A CSR matrix in host memory (zero-based, rows sorted or not): rows + 1 offsets of 32 or 64 bits, 32-bit columns.
struct CsrArrays {
  std::int64_t rows = 0, cols = 0, nnz = 0;
  const void* row_offsets = nullptr;
  bool offsets64 = false;
  const std::int32_t* col_indices = nullptr;
  const void* values = nullptr;
  Value value_type = Value::f64;
};

// A dense rows x cols block in host memory (spk::yardstick::DenseArrays).
using spk::yardstick::DenseArrays;

// Describes the host copy of an spk::CsrMatrix (float/double values, int32 columns, int32/int64 offsets); the
// arrays must stay alive while the operation built from them is constructed (it copies them).
template <class Matrix>
CsrArrays csr_arrays(const Matrix& A) {
  using S = typename Matrix::scalar_type;
  using Off = typename Matrix::offset_type;
  static_assert(std::is_same_v<S, float> || std::is_same_v<S, double>, "graphblas: float or double values");
  static_assert(std::is_same_v<typename Matrix::ordinal_type, std::int32_t>, "graphblas: int32 column indices");
  static_assert(sizeof(Off) == 4 || sizeof(Off) == 8, "graphblas: 32- or 64-bit row offsets");
  CsrArrays a;
  a.rows = A.num_rows();
  a.cols = A.num_cols();
  a.nnz = static_cast<std::int64_t>(A.nnz());
  a.row_offsets = A.row_map().data();
  a.offsets64 = sizeof(Off) == 8;
  a.col_indices = A.entries().data();
  a.values = A.values().data();
  a.value_type = std::is_same_v<S, float> ? Value::f32 : Value::f64;
  return a;
}

class error : public std::runtime_error {
 public:
  error(const std::string& call, int info, const std::string& what)
      : std::runtime_error(call + " failed: " + what), info_(info) {}
  int info() const noexcept { return info_; }  // the GrB_Info

 private:
  int info_;
};

// GraphBLAS itself: GrB_init(GrB_NONBLOCKING) on construction (once per process: GraphBLAS cannot be started again
// after GrB_finalize, which the destructor calls), and the number of OpenMP threads every GraphBLAS call may use
// (GxB_NTHREADS). Construct one before any operation below and keep it alive while they run.
class Library {
 public:
  explicit Library(int threads);
  ~Library();
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  std::string version() const;  // "7.4.0", the library's own (runtime) version
  int threads() const { return threads_; }

 private:
  int threads_;
};

// Algorithm names accepted by the classes below, in the order the benchmark tries them.
//   SpMV:   replace (w = A*x), accumulate (w = 0, then w += A*x: GraphBLAS updates the full w in place)
//   SpMM:   by-row, by-col (B, a full matrix, and C held by row or by column; C = A*B), and the same with
//           -accumulate (C = 0, then C += A*B in place)
//   SpGEMM: default, gustavson, hash (GxB_AxB_METHOD; GraphBLAS's dot-product method would form a dense C)
std::vector<std::string> spmv_algorithms();
std::vector<std::string> spmm_algorithms();
std::vector<std::string> spgemm_algorithms();

// A sparse times dense product with a dense result held by GraphBLAS (Spmv, Spmm): run() is the timed call.
class DenseProduct {
 public:
  ~DenseProduct();
  DenseProduct(const DenseProduct&) = delete;
  DenseProduct& operator=(const DenseProduct&) = delete;
  void run();

 protected:
  DenseProduct();
  struct State;
  std::unique_ptr<State> s_;
};

// y = A * x. The constructor builds A and a full vector holding a copy of x (x.size() == A.cols); run() computes
// w = A*x into GraphBLAS's own vector; copy_result(y) writes it to y (A.rows values; rows without entries are 0).
class Spmv : public DenseProduct {
 public:
  Spmv(const CsrArrays& A, const void* x, const std::string& algorithm);
  void copy_result(void* y) const;
};

// C = A * B for dense B (A.cols x k, either layout). The constructor copies B into a full GrB_Matrix held by row
// ("by-row...") or by column ("by-col..."), whichever layout B had, and makes C with the same orientation; run()
// computes C = A*B in GraphBLAS's storage; copy_result(C) writes it to a dense block of either layout.
class Spmm : public DenseProduct {
 public:
  Spmm(const CsrArrays& A, const DenseArrays& B, const std::string& algorithm);
  void copy_result(const DenseArrays& C) const;
};

// C = A * B, both CSR. GraphBLAS has no separate symbolic phase: multiply() forms C completely (allocation
// included) in a fresh GrB_Matrix; reset() frees it. copy_result() writes C as CSR with sorted rows into arrays of
// result_rows() + 1 offsets (32 or 64 bits) and result_nnz() columns and values.
class Spgemm {
 public:
  Spgemm(const CsrArrays& A, const CsrArrays& B, const std::string& algorithm);
  ~Spgemm();
  Spgemm(const Spgemm&) = delete;
  Spgemm& operator=(const Spgemm&) = delete;
  void multiply();
  void reset();
  std::int64_t result_rows() const;
  std::int64_t result_cols() const;
  std::int64_t result_nnz() const;
  void copy_result(void* row_offsets, bool offsets64, std::int32_t* col_indices, void* values);

  // C as a host matrix of the caller's type (an spk::HostCsrMatrix: row_map_type, entries_type, values_type views
  // and a (rows, cols, row_map, entries, values) constructor).
  template <class Matrix>
  Matrix result() {
    using Off = typename Matrix::offset_type;
    const std::int64_t rows = result_rows(), nnz = result_nnz();
    typename Matrix::row_map_type row_map("graphblas::C_row_map", rows + 1);
    typename Matrix::entries_type entries("graphblas::C_entries", nnz);
    typename Matrix::values_type values("graphblas::C_values", nnz);
    copy_result(row_map.data(), sizeof(Off) == 8, entries.data(), values.data());
    return Matrix(static_cast<typename Matrix::ordinal_type>(rows),
                  static_cast<typename Matrix::ordinal_type>(result_cols()), row_map, entries, values);
  }

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace spk::yardstick::graphblas
