// SuiteSparse:GraphBLAS calls behind graphblas_adapter.hpp (GraphBLAS 7.x C API: GxB pack/unpack to move CSR and
// full arrays in and out, GrB_mxv / GrB_mxm over GrB_PLUS_TIMES_SEMIRING_FP32/FP64, GrB_wait to materialise).
#include "graphblas_adapter.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <new>

// GraphBLAS.h 7.x declares its C functions without extern "C" when compiled as C++.
extern "C" {
#include <GraphBLAS.h>
}

namespace spk::yardstick::graphblas {
namespace {

const char* info_name(GrB_Info info) {
#define SPK_GRB_INFO(code) \
  if (info == code) return #code;
  SPK_GRB_INFO(GrB_SUCCESS) SPK_GRB_INFO(GrB_NO_VALUE) SPK_GRB_INFO(GrB_UNINITIALIZED_OBJECT)
  SPK_GRB_INFO(GrB_NULL_POINTER) SPK_GRB_INFO(GrB_INVALID_VALUE) SPK_GRB_INFO(GrB_INVALID_INDEX)
  SPK_GRB_INFO(GrB_DOMAIN_MISMATCH) SPK_GRB_INFO(GrB_DIMENSION_MISMATCH) SPK_GRB_INFO(GrB_OUTPUT_NOT_EMPTY)
  SPK_GRB_INFO(GrB_NOT_IMPLEMENTED) SPK_GRB_INFO(GrB_PANIC) SPK_GRB_INFO(GrB_OUT_OF_MEMORY)
  SPK_GRB_INFO(GrB_INSUFFICIENT_SPACE) SPK_GRB_INFO(GrB_INVALID_OBJECT) SPK_GRB_INFO(GrB_INDEX_OUT_OF_BOUNDS)
  SPK_GRB_INFO(GrB_EMPTY_OBJECT)
#undef SPK_GRB_INFO
  return "unknown GrB_Info";
}

// GraphBLAS's own message about the object a call failed on.
const char* message(GrB_Matrix m) {
  const char* text = nullptr;
  return m && GrB_Matrix_error(&text, m) == GrB_SUCCESS ? text : nullptr;
}
const char* message(GrB_Vector v) {
  const char* text = nullptr;
  return v && GrB_Vector_error(&text, v) == GrB_SUCCESS ? text : nullptr;
}
const char* message(std::nullptr_t) { return nullptr; }

// Throws graphblas::error on anything but GrB_SUCCESS; object: the GrB_Matrix or GrB_Vector the call worked on.
template <class Object = std::nullptr_t>
void check(GrB_Info info, const char* call, Object object = nullptr) {
  if (info == GrB_SUCCESS) return;
  std::string what = std::string(info_name(info)) + " (" + std::to_string(static_cast<int>(info)) + ")";
  const char* detail = message(object);
  if (detail && *detail) what += ": " + std::string(detail);
  throw error(call, static_cast<int>(info), what);
}

GrB_Type type_of(Value v) { return v == Value::f32 ? GrB_FP32 : GrB_FP64; }
GrB_Semiring plus_times(Value v) { return v == Value::f32 ? GrB_PLUS_TIMES_SEMIRING_FP32 : GrB_PLUS_TIMES_SEMIRING_FP64; }
GrB_BinaryOp plus(Value v) { return v == Value::f32 ? GrB_PLUS_FP32 : GrB_PLUS_FP64; }
std::size_t value_size(Value v) { return v == Value::f32 ? sizeof(float) : sizeof(double); }

// A GraphBLAS object, freed with the handle.
template <class T, GrB_Info (*Free)(T*)>
struct Handle {
  T h = nullptr;
  Handle() = default;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { release(); }
  void release() {
    if (h) Free(&h);
    h = nullptr;
  }
};
using Matrix = Handle<GrB_Matrix, GrB_Matrix_free>;
using Vector = Handle<GrB_Vector, GrB_Vector_free>;
using Descriptor = Handle<GrB_Descriptor, GrB_Descriptor_free>;

// An array from malloc, the allocator GrB_init gives GraphBLAS. Pack takes it over (and sets p to null); unpack
// hands one back, which is then freed here.
struct Malloced {
  void* p = nullptr;
  std::size_t bytes = 0;
  Malloced() = default;
  explicit Malloced(std::size_t n) : bytes(std::max<std::size_t>(n, 16)) {
    p = std::malloc(bytes);
    if (!p) throw std::bad_alloc();
  }
  Malloced(const Malloced&) = delete;
  Malloced& operator=(const Malloced&) = delete;
  ~Malloced() { std::free(p); }
  template <class T>
  T* as() const {
    return static_cast<T*>(p);
  }
  GrB_Index** index() { return reinterpret_cast<GrB_Index**>(&p); }
};

std::int64_t offset_at(const CsrArrays& a, std::int64_t i) {
  return a.offsets64 ? static_cast<const std::int64_t*>(a.row_offsets)[i]
                     : static_cast<const std::int32_t*>(a.row_offsets)[i];
}

void new_matrix(Matrix& out, Value v, std::int64_t rows, std::int64_t cols, bool by_row) {
  out.release();
  check(GrB_Matrix_new(&out.h, type_of(v), static_cast<GrB_Index>(rows), static_cast<GrB_Index>(cols)),
        "GrB_Matrix_new");
  check(GxB_Matrix_Option_set_INT32(out.h, GxB_FORMAT, by_row ? GxB_BY_ROW : GxB_BY_COL),
        "GxB_Matrix_Option_set(GxB_FORMAT)", out.h);
}

// A's arrays widened to GrB_Index and packed into a new by-row GrB_Matrix, rows sorted and every pending step done.
void make_csr(Matrix& out, const CsrArrays& a) {
  if (a.rows < 0 || a.cols < 0 || a.nnz < 0 || (a.nnz > 0 && (!a.col_indices || !a.values)) || !a.row_offsets)
    throw std::invalid_argument("GraphBLAS: malformed CSR arrays");
  if (offset_at(a, 0) != 0 || offset_at(a, a.rows) != a.nnz)
    throw std::invalid_argument("GraphBLAS: row offsets must start at 0 and end at nnz");
  new_matrix(out, a.value_type, a.rows, a.cols, true);
  Malloced p((a.rows + 1) * sizeof(GrB_Index)), j(a.nnz * sizeof(GrB_Index)), x(a.nnz * value_size(a.value_type));
  for (std::int64_t i = 0; i <= a.rows; ++i) p.as<GrB_Index>()[i] = static_cast<GrB_Index>(offset_at(a, i));
  for (std::int64_t q = 0; q < a.nnz; ++q) j.as<GrB_Index>()[q] = static_cast<GrB_Index>(a.col_indices[q]);
  if (a.nnz > 0) std::memcpy(x.p, a.values, a.nnz * value_size(a.value_type));
  // jumbled = true: spk allows unsorted rows (validate() can be told to accept them); the wait below sorts them.
  check(GxB_Matrix_pack_CSR(out.h, p.index(), j.index(), &x.p, p.bytes, j.bytes, x.bytes, false, true, nullptr),
        "GxB_Matrix_pack_CSR", out.h);
  check(GrB_Matrix_wait(out.h, GrB_MATERIALIZE), "GrB_Matrix_wait", out.h);
}

// A full matrix held by row or by column, from a dense block of either layout (copied).
void make_full(Matrix& out, const DenseArrays& d, bool by_row) {
  new_matrix(out, d.value_type, d.rows, d.cols, by_row);
  const std::size_t vs = value_size(d.value_type);
  Malloced x(static_cast<std::size_t>(d.rows * d.cols) * vs);
  const char* src = static_cast<const char*>(d.values);
  for (std::int64_t i = 0; i < d.rows; ++i)
    for (std::int64_t c = 0; c < d.cols; ++c) {
      const std::int64_t from = d.row_major ? i * d.ld + c : i + c * d.ld;
      const std::int64_t to = by_row ? i * d.cols + c : i + c * d.rows;
      std::memcpy(x.as<char>() + to * vs, src + from * vs, vs);
    }
  if (by_row)
    check(GxB_Matrix_pack_FullR(out.h, &x.p, x.bytes, false, nullptr), "GxB_Matrix_pack_FullR", out.h);
  else
    check(GxB_Matrix_pack_FullC(out.h, &x.p, x.bytes, false, nullptr), "GxB_Matrix_pack_FullC", out.h);
}

// out = A * in; with accumulate, out = 0 (GraphBLAS makes that an O(1) iso-valued full object) and then
// out += A * in, which GraphBLAS 7 computes in place into the full out (its dot4 / saxpy5 kernels). Ends with
// GrB_wait(out, GrB_MATERIALIZE): nothing is left pending.
void product(GrB_Vector out, GrB_Matrix A, GrB_Vector in, Value v, bool accumulate) {
  if (accumulate) {
    GrB_Index n = 0;
    check(GrB_Vector_size(&n, out), "GrB_Vector_size", out);
    check(v == Value::f32 ? GrB_Vector_assign_FP32(out, nullptr, nullptr, 0.0f, GrB_ALL, n, nullptr)
                          : GrB_Vector_assign_FP64(out, nullptr, nullptr, 0.0, GrB_ALL, n, nullptr),
          "GrB_Vector_assign (zero)", out);
  }
  check(GrB_mxv(out, nullptr, accumulate ? plus(v) : nullptr, plus_times(v), A, in, nullptr), "GrB_mxv", out);
  check(GrB_Vector_wait(out, GrB_MATERIALIZE), "GrB_Vector_wait", out);
}
void product(GrB_Matrix out, GrB_Matrix A, GrB_Matrix in, Value v, bool accumulate, GrB_Descriptor desc) {
  if (accumulate) {
    GrB_Index rows = 0, cols = 0;
    check(GrB_Matrix_nrows(&rows, out), "GrB_Matrix_nrows", out);
    check(GrB_Matrix_ncols(&cols, out), "GrB_Matrix_ncols", out);
    check(v == Value::f32 ? GrB_Matrix_assign_FP32(out, nullptr, nullptr, 0.0f, GrB_ALL, rows, GrB_ALL, cols, nullptr)
                          : GrB_Matrix_assign_FP64(out, nullptr, nullptr, 0.0, GrB_ALL, rows, GrB_ALL, cols, nullptr),
          "GrB_Matrix_assign (zero)", out);
  }
  check(GrB_mxm(out, nullptr, accumulate ? plus(v) : nullptr, plus_times(v), A, in, desc), "GrB_mxm", out);
  check(GrB_Matrix_wait(out, GrB_MATERIALIZE), "GrB_Matrix_wait", out);
}

// The entries of a GrB_Vector (J == nullptr) or GrB_Matrix as (I[, J], X) tuples.
template <class S, class Object>
std::vector<S> tuples(Object obj, std::vector<GrB_Index>& I, std::vector<GrB_Index>* J) {
  GrB_Index n = 0;
  if constexpr (std::is_same_v<Object, GrB_Vector>)
    check(GrB_Vector_nvals(&n, obj), "GrB_Vector_nvals", obj);
  else
    check(GrB_Matrix_nvals(&n, obj), "GrB_Matrix_nvals", obj);
  I.resize(n);
  if (J) J->resize(n);
  std::vector<S> X(n);
  GrB_Info info;
  if constexpr (std::is_same_v<Object, GrB_Vector> && std::is_same_v<S, float>)
    info = GrB_Vector_extractTuples_FP32(I.data(), X.data(), &n, obj);
  else if constexpr (std::is_same_v<Object, GrB_Vector>)
    info = GrB_Vector_extractTuples_FP64(I.data(), X.data(), &n, obj);
  else if constexpr (std::is_same_v<S, float>)
    info = GrB_Matrix_extractTuples_FP32(I.data(), J->data(), X.data(), &n, obj);
  else
    info = GrB_Matrix_extractTuples_FP64(I.data(), J->data(), X.data(), &n, obj);
  check(info, "GrB_extractTuples", obj);
  return X;
}

// out as a dense array: a vector of length rows (J unused), or a rows x cols block of either layout; entries
// GraphBLAS does not hold are 0.
template <class S, class Object>
void to_dense(Object obj, const DenseArrays& d) {
  std::vector<GrB_Index> I, J;
  const std::vector<S> X = tuples<S>(obj, I, std::is_same_v<Object, GrB_Vector> ? nullptr : &J);
  S* out = static_cast<S*>(d.values);
  const auto at = [&d](std::int64_t i, std::int64_t j) { return d.row_major ? i * d.ld + j : i + j * d.ld; };
  for (std::int64_t i = 0; i < d.rows; ++i)
    for (std::int64_t j = 0; j < d.cols; ++j) out[at(i, j)] = S(0);
  for (std::size_t t = 0; t < X.size(); ++t)
    out[at(static_cast<std::int64_t>(I[t]), J.empty() ? 0 : static_cast<std::int64_t>(J[t]))] = X[t];
}

template <class Object>
void to_dense(Object obj, const DenseArrays& d) {
  if (d.value_type == Value::f32)
    to_dense<float>(obj, d);
  else
    to_dense<double>(obj, d);
}

bool& initialized() {
  static bool once = false;
  return once;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

// --- Library ------------------------------------------------------------------------------------------------------

Library::Library(int threads) : threads_(std::max(threads, 1)) {
  if (initialized())
    throw std::logic_error("graphblas::Library: GraphBLAS can be initialised only once per process");
  check(GrB_init(GrB_NONBLOCKING), "GrB_init(GrB_NONBLOCKING)");
  initialized() = true;
  check(GxB_Global_Option_set_INT32(GxB_GLOBAL_NTHREADS, threads_), "GxB_set(GxB_NTHREADS)");
}

Library::~Library() { GrB_finalize(); }

std::string Library::version() const {
  int v[3] = {GxB_IMPLEMENTATION_MAJOR, GxB_IMPLEMENTATION_MINOR, GxB_IMPLEMENTATION_SUB};
  GxB_Global_Option_get(GxB_LIBRARY_VERSION, v);  // the library's own; the header's if that fails
  return std::to_string(v[0]) + "." + std::to_string(v[1]) + "." + std::to_string(v[2]);
}

std::vector<std::string> spmv_algorithms() { return {"replace", "accumulate"}; }
std::vector<std::string> spmm_algorithms() {
  return {"by-row", "by-col", "by-row-accumulate", "by-col-accumulate"};
}
std::vector<std::string> spgemm_algorithms() { return {"default", "gustavson", "hash"}; }

// --- Spmv, Spmm ---------------------------------------------------------------------------------------------------

struct DenseProduct::State {
  Matrix A;
  Vector x, y;  // Spmv
  Matrix B, C;  // Spmm
  Value value_type = Value::f64;
  std::int64_t rows = 0;
  bool accumulate = false;

  void start(const CsrArrays& a, const std::string& algorithm) {
    value_type = a.value_type;
    rows = a.rows;
    accumulate = ends_with(algorithm, "accumulate");
    make_csr(A, a);
  }
};

DenseProduct::DenseProduct() : s_(std::make_unique<State>()) {}
DenseProduct::~DenseProduct() = default;

void DenseProduct::run() {
  if (s_->y.h)
    product(s_->y.h, s_->A.h, s_->x.h, s_->value_type, s_->accumulate);
  else
    product(s_->C.h, s_->A.h, s_->B.h, s_->value_type, s_->accumulate, nullptr);
}

Spmv::Spmv(const CsrArrays& A, const void* x, const std::string& algorithm) {
  require_algorithm("GraphBLAS", "SpMV", algorithm, spmv_algorithms());
  s_->start(A, algorithm);
  const GrB_Type type = type_of(A.value_type);
  check(GrB_Vector_new(&s_->x.h, type, static_cast<GrB_Index>(A.cols)), "GrB_Vector_new");
  Malloced xs(A.cols * value_size(A.value_type));
  if (A.cols > 0) std::memcpy(xs.p, x, A.cols * value_size(A.value_type));
  check(GxB_Vector_pack_Full(s_->x.h, &xs.p, xs.bytes, false, nullptr), "GxB_Vector_pack_Full", s_->x.h);
  check(GrB_Vector_new(&s_->y.h, type, static_cast<GrB_Index>(A.rows)), "GrB_Vector_new");
}

void Spmv::copy_result(void* y) const {
  DenseArrays d;
  d.rows = s_->rows;
  d.cols = 1;
  d.ld = s_->rows;
  d.values = y;
  d.row_major = false;
  d.value_type = s_->value_type;
  to_dense(s_->y.h, d);
}

Spmm::Spmm(const CsrArrays& A, const DenseArrays& B, const std::string& algorithm) {
  require_algorithm("GraphBLAS", "SpMM", algorithm, spmm_algorithms());
  if (B.rows != A.cols)
    throw std::invalid_argument("GraphBLAS SpMM: B has " + std::to_string(B.rows) + " rows, A has " +
                                std::to_string(A.cols) + " columns");
  if (B.value_type != A.value_type) throw std::invalid_argument("GraphBLAS SpMM: A and B value types differ");
  const bool by_row = algorithm.rfind("by-row", 0) == 0;
  s_->start(A, algorithm);
  make_full(s_->B, B, by_row);
  new_matrix(s_->C, A.value_type, A.rows, B.cols, by_row);
}

void Spmm::copy_result(const DenseArrays& C) const {
  if (C.value_type != s_->value_type) throw std::invalid_argument("GraphBLAS SpMM: C's value type differs from A's");
  to_dense(s_->C.h, C);
}

// --- Spgemm -------------------------------------------------------------------------------------------------------

struct Spgemm::State {
  Matrix A, B, C;
  bool same = false;  // B is A: one GrB_Matrix serves both
  Descriptor desc;
  Value value_type = Value::f64;
  std::int64_t rows = 0, cols = 0;
};

Spgemm::Spgemm(const CsrArrays& A, const CsrArrays& B, const std::string& algorithm)
    : s_(std::make_unique<State>()) {
  require_algorithm("GraphBLAS", "SpGEMM", algorithm, spgemm_algorithms());
  if (A.cols != B.rows)
    throw std::invalid_argument("GraphBLAS SpGEMM: A.cols " + std::to_string(A.cols) + " != B.rows " +
                                std::to_string(B.rows));
  if (A.value_type != B.value_type) throw std::invalid_argument("GraphBLAS SpGEMM: A and B value types differ");
  s_->value_type = A.value_type;
  s_->rows = A.rows;
  s_->cols = B.cols;
  make_csr(s_->A, A);
  s_->same = A.row_offsets == B.row_offsets && A.col_indices == B.col_indices && A.values == B.values &&
             A.rows == B.rows && A.cols == B.cols && A.offsets64 == B.offsets64;
  if (!s_->same) make_csr(s_->B, B);
  if (algorithm != "default") {
    check(GrB_Descriptor_new(&s_->desc.h), "GrB_Descriptor_new");
    check(GxB_Desc_set_INT32(s_->desc.h, GxB_AxB_METHOD, algorithm == "hash" ? GxB_AxB_HASH : GxB_AxB_GUSTAVSON),
          "GxB_Desc_set(GxB_AxB_METHOD)");
  }
}

Spgemm::~Spgemm() = default;

void Spgemm::multiply() {
  new_matrix(s_->C, s_->value_type, s_->rows, s_->cols, true);
  product(s_->C.h, s_->A.h, s_->same ? s_->A.h : s_->B.h, s_->value_type, false, s_->desc.h);
}

void Spgemm::reset() { s_->C.release(); }

std::int64_t Spgemm::result_rows() const { return s_->rows; }
std::int64_t Spgemm::result_cols() const { return s_->cols; }

std::int64_t Spgemm::result_nnz() const {
  if (!s_->C.h) throw std::logic_error("GraphBLAS SpGEMM: no result before multiply()");
  GrB_Index n = 0;
  check(GrB_Matrix_nvals(&n, s_->C.h), "GrB_Matrix_nvals", s_->C.h);
  return static_cast<std::int64_t>(n);
}

void Spgemm::copy_result(void* row_offsets, bool offsets64, std::int32_t* col_indices, void* values) {
  if (!s_->C.h) throw std::logic_error("GraphBLAS SpGEMM: no result before multiply()");
  // Unpack C's CSR arrays (jumbled == nullptr asks for sorted rows), copy them out, and pack them back unchanged.
  Malloced p, j, x;
  GrB_Index p_size = 0, j_size = 0, x_size = 0;
  bool iso = false;
  check(GxB_Matrix_unpack_CSR(s_->C.h, p.index(), j.index(), &x.p, &p_size, &j_size, &x_size, &iso, nullptr, nullptr),
        "GxB_Matrix_unpack_CSR", s_->C.h);
  const GrB_Index* cp = p.as<GrB_Index>();
  const GrB_Index* cj = j.as<GrB_Index>();
  const std::int64_t nnz = cp ? static_cast<std::int64_t>(cp[s_->rows]) : 0;
  for (std::int64_t i = 0; i <= s_->rows; ++i) {
    const GrB_Index o = cp ? cp[i] : 0;
    if (offsets64)
      static_cast<std::int64_t*>(row_offsets)[i] = static_cast<std::int64_t>(o);
    else
      static_cast<std::int32_t*>(row_offsets)[i] = static_cast<std::int32_t>(o);
  }
  for (std::int64_t q = 0; q < nnz; ++q) col_indices[q] = static_cast<std::int32_t>(cj[q]);
  const std::size_t vs = value_size(s_->value_type);
  for (std::int64_t q = 0; q < nnz; ++q)  // an iso C holds its one value once
    std::memcpy(static_cast<char*>(values) + q * vs, x.as<char>() + (iso ? 0 : q * vs), vs);
  if (nnz == 0) return;  // the unpacked C is empty, which is what it held (GraphBLAS may return null arrays here)
  check(GxB_Matrix_pack_CSR(s_->C.h, p.index(), j.index(), &x.p, p_size, j_size, x_size, iso, false, nullptr),
        "GxB_Matrix_pack_CSR", s_->C.h);
}

}  // namespace spk::yardstick::graphblas
