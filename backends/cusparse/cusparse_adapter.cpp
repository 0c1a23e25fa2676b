// cuSPARSE generic-API calls behind cusparse_adapter.hpp. Follows the call sequences of NVIDIA's cuSPARSE
// documentation (SpMV/SpMM: bufferSize, preprocess, compute; SpGEMM: workEstimation, estimateMemory, compute, copy;
// SpGEMMreuse: workEstimation, nnz, copy, compute).
#include "cusparse_adapter.hpp"

#include <algorithm>
#include <string>

#include <cuda_runtime.h>
#include <cusparse.h>

namespace spk::yardstick::cusparse {
namespace {

void check(cusparseStatus_t status, const char* call) {
  if (status != CUSPARSE_STATUS_SUCCESS)
    throw error(call, static_cast<int>(status), false,
                std::string(cusparseGetErrorName(status)) + " (" + cusparseGetErrorString(status) + ")");
}

void check_cuda(cudaError_t status, const char* call) {
  if (status != cudaSuccess) {
    cudaGetLastError();  // clear the sticky-free error state so later calls are not blamed
    throw error(call, static_cast<int>(status), true,
                std::string(cudaGetErrorName(status)) + " (" + cudaGetErrorString(status) + ")");
  }
}

[[noreturn]] void unsupported(const std::string& what) {
  throw error(what, static_cast<int>(CUSPARSE_STATUS_NOT_SUPPORTED), false, "unsupported");
}

cudaDataType data_type(Value v) { return v == Value::f32 ? CUDA_R_32F : CUDA_R_64F; }
cusparseIndexType_t index_type(Index i) { return i == Index::i32 ? CUSPARSE_INDEX_32I : CUSPARSE_INDEX_64I; }
std::size_t value_size(Value v) { return v == Value::f32 ? 4 : 8; }
std::size_t index_size(Index i) { return i == Index::i32 ? 4 : 8; }

// alpha = 1, beta = 0 in the compute type (host pointer mode, cuSPARSE's default).
struct Scalars {
  float f1 = 1, f0 = 0;
  double d1 = 1, d0 = 0;
  const void* one(Value v) const { return v == Value::f32 ? static_cast<const void*>(&f1) : &d1; }
  const void* zero(Value v) const { return v == Value::f32 ? static_cast<const void*>(&f0) : &d0; }
};
const Scalars scalars{};

// A cudaMalloc'ed block; size 0 still allocates a few bytes, because cuSPARSE reads a null buffer as "query size".
struct DeviceBuffer {
  void* ptr = nullptr;
  std::size_t bytes = 0;
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { release(); }
  void allocate(std::size_t n) {
    release();
    check_cuda(cudaMalloc(&ptr, std::max<std::size_t>(n, 16)), "cudaMalloc");
    bytes = n;
  }
  void release() {
    if (ptr) cudaFree(ptr);
    ptr = nullptr;
    bytes = 0;
  }
};

cusparseConstSpMatDescr_t make_const_csr(const CsrArrays& A) {
  cusparseConstSpMatDescr_t d = nullptr;
  check(cusparseCreateConstCsr(&d, A.rows, A.cols, A.nnz, A.row_offsets, A.col_indices, A.values,
                               index_type(A.index_type), index_type(A.index_type), CUSPARSE_INDEX_BASE_ZERO,
                               data_type(A.value_type)),
        "cusparseCreateConstCsr");
  return d;
}

struct Named {
  const char* name;
  int value;
};
const Named spmv_table[] = {{"default", CUSPARSE_SPMV_ALG_DEFAULT},
                            {"csr-alg1", CUSPARSE_SPMV_CSR_ALG1},
                            {"csr-alg2", CUSPARSE_SPMV_CSR_ALG2}};
const Named spmm_table[] = {{"default", CUSPARSE_SPMM_ALG_DEFAULT},
                            {"csr-alg1", CUSPARSE_SPMM_CSR_ALG1},
                            {"csr-alg2", CUSPARSE_SPMM_CSR_ALG2},
                            {"csr-alg3", CUSPARSE_SPMM_CSR_ALG3}};
constexpr int reuse_flow = -1;  // marks the SpGEMMreuse flow in spgemm_table
const Named spgemm_table[] = {{"alg1", CUSPARSE_SPGEMM_ALG1},
                              {"alg2", CUSPARSE_SPGEMM_ALG2},
                              {"alg3", CUSPARSE_SPGEMM_ALG3},
                              {"reuse", reuse_flow}};

template <std::size_t N>
int lookup(const Named (&table)[N], const std::string& name, const char* what) {
  std::string choices;
  for (const auto& e : table) {
    if (name == e.name) return e.value;
    choices += (choices.empty() ? "" : ", ") + std::string(e.name);
  }
  throw std::invalid_argument(std::string("cuSPARSE ") + what + ": unknown algorithm '" + name +
                              "', expected one of: " + choices);
}

template <std::size_t N>
std::vector<std::string> names(const Named (&table)[N]) {
  std::vector<std::string> out;
  for (const auto& e : table) out.emplace_back(e.name);
  return out;
}

std::size_t free_device_bytes() {
  std::size_t free = 0, total = 0;
  check_cuda(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  return free;
}

}  // namespace

// ---------------------------------------------------------------------------------------------------------------
Handle::Handle(CUstream_st* stream) : stream_(stream) {
  check(cusparseCreate(&handle_), "cusparseCreate");
  try {
    check(cusparseSetStream(handle_, stream), "cusparseSetStream");
  } catch (...) {
    cusparseDestroy(handle_);
    throw;
  }
}

Handle::~Handle() {
  if (handle_) cusparseDestroy(handle_);
}

std::string Handle::version() const {
  int v = 0;
  check(cusparseGetVersion(handle_, &v), "cusparseGetVersion");
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 100) + "." + std::to_string(v % 100);
}

std::vector<std::string> spmv_algorithms() { return names(spmv_table); }
std::vector<std::string> spmm_algorithms() { return names(spmm_table); }
std::vector<std::string> spgemm_algorithms() { return names(spgemm_table); }

// ---------------------------------------------------------------------------------------------------------------
struct Spmv::State {
  Handle* handle = nullptr;
  cusparseConstSpMatDescr_t A = nullptr;
  cusparseConstDnVecDescr_t x = nullptr;
  cusparseDnVecDescr_t y = nullptr;
  cusparseSpMVAlg_t alg = CUSPARSE_SPMV_ALG_DEFAULT;
  Value value = Value::f64;
  DeviceBuffer buffer;
  ~State() {
    if (y) cusparseDestroyDnVec(y);
    if (x) cusparseDestroyDnVec(x);
    if (A) cusparseDestroySpMat(A);
  }
};

Spmv::Spmv(Handle& handle, const CsrArrays& A, const void* x, void* y, const std::string& algorithm)
    : s_(std::make_unique<State>()) {
  s_->handle = &handle;
  s_->alg = static_cast<cusparseSpMVAlg_t>(lookup(spmv_table, algorithm, "SpMV"));
  s_->value = A.value_type;
  const cudaDataType type = data_type(A.value_type);
  s_->A = make_const_csr(A);
  check(cusparseCreateConstDnVec(&s_->x, A.cols, x, type), "cusparseCreateConstDnVec");
  check(cusparseCreateDnVec(&s_->y, A.rows, y, type), "cusparseCreateDnVec");
  std::size_t bytes = 0;
  check(cusparseSpMV_bufferSize(handle.get(), CUSPARSE_OPERATION_NON_TRANSPOSE, scalars.one(s_->value), s_->A, s_->x,
                                scalars.zero(s_->value), s_->y, type, s_->alg, &bytes),
        "cusparseSpMV_bufferSize");
  s_->buffer.allocate(bytes);
#if CUSPARSE_VERSION >= 12400
  check(cusparseSpMV_preprocess(handle.get(), CUSPARSE_OPERATION_NON_TRANSPOSE, scalars.one(s_->value), s_->A, s_->x,
                                scalars.zero(s_->value), s_->y, type, s_->alg, s_->buffer.ptr),
        "cusparseSpMV_preprocess");
#endif
}

Spmv::~Spmv() = default;

void Spmv::run() {
  check(cusparseSpMV(s_->handle->get(), CUSPARSE_OPERATION_NON_TRANSPOSE, scalars.one(s_->value), s_->A, s_->x,
                     scalars.zero(s_->value), s_->y, data_type(s_->value), s_->alg, s_->buffer.ptr),
        "cusparseSpMV");
}

std::size_t Spmv::buffer_bytes() const { return s_->buffer.bytes; }

// ---------------------------------------------------------------------------------------------------------------
struct Spmm::State {
  Handle* handle = nullptr;
  cusparseConstSpMatDescr_t A = nullptr;
  cusparseConstDnMatDescr_t B = nullptr;
  cusparseDnMatDescr_t C = nullptr;
  cusparseSpMMAlg_t alg = CUSPARSE_SPMM_ALG_DEFAULT;
  Value value = Value::f64;
  DeviceBuffer buffer;
  ~State() {
    if (C) cusparseDestroyDnMat(C);
    if (B) cusparseDestroyDnMat(B);
    if (A) cusparseDestroySpMat(A);
  }
};

Spmm::Spmm(Handle& handle, const CsrArrays& A, const DenseArrays& B, const DenseArrays& C,
           const std::string& algorithm)
    : s_(std::make_unique<State>()) {
  s_->handle = &handle;
  s_->alg = static_cast<cusparseSpMMAlg_t>(lookup(spmm_table, algorithm, "SpMM"));
  s_->value = A.value_type;
  if (B.row_major != C.row_major) unsupported("cuSPARSE SpMM with B and C in different layouts");
  const cudaDataType type = data_type(A.value_type);
  const cusparseOrder_t order = B.row_major ? CUSPARSE_ORDER_ROW : CUSPARSE_ORDER_COL;
  s_->A = make_const_csr(A);
  check(cusparseCreateConstDnMat(&s_->B, B.rows, B.cols, B.ld, B.values, type, order), "cusparseCreateConstDnMat");
  check(cusparseCreateDnMat(&s_->C, C.rows, C.cols, C.ld, C.values, type, order), "cusparseCreateDnMat");
  std::size_t bytes = 0;
  const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
  check(cusparseSpMM_bufferSize(handle.get(), op, op, scalars.one(s_->value), s_->A, s_->B, scalars.zero(s_->value),
                                s_->C, type, s_->alg, &bytes),
        "cusparseSpMM_bufferSize");
  s_->buffer.allocate(bytes);
  check(cusparseSpMM_preprocess(handle.get(), op, op, scalars.one(s_->value), s_->A, s_->B, scalars.zero(s_->value),
                                s_->C, type, s_->alg, s_->buffer.ptr),
        "cusparseSpMM_preprocess");
}

Spmm::~Spmm() = default;

void Spmm::run() {
  const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
  check(cusparseSpMM(s_->handle->get(), op, op, scalars.one(s_->value), s_->A, s_->B, scalars.zero(s_->value), s_->C,
                     data_type(s_->value), s_->alg, s_->buffer.ptr),
        "cusparseSpMM");
}

std::size_t Spmm::buffer_bytes() const { return s_->buffer.bytes; }

// ---------------------------------------------------------------------------------------------------------------
struct Spgemm::State {
  Handle* handle = nullptr;
  CsrArrays a, b;
  int alg = CUSPARSE_SPGEMM_ALG1;  // or reuse_flow
  cusparseConstSpMatDescr_t A = nullptr, B = nullptr;
  cusparseSpMatDescr_t C = nullptr;
  cusparseSpGEMMDescr_t descr = nullptr;
  DeviceBuffer buffer[5];  // work buffers 1..5 of the cuSPARSE documentation (index 0 is buffer 1)
  DeviceBuffer c_offsets, c_columns, c_values;
  std::int64_t c_nnz = 0;
  bool structure_ready = false, values_ready = false;
  bool sampling = true;
  std::size_t baseline_free = 0, peak_extra = 0, peak_buffers = 0;

  cusparseSpGEMMAlg_t cu_alg() const {
    return alg == reuse_flow ? CUSPARSE_SPGEMM_DEFAULT : static_cast<cusparseSpGEMMAlg_t>(alg);
  }
  cudaDataType type() const { return data_type(a.value_type); }
  void sample() {
    std::size_t live = 0;
    for (const auto& b : buffer) live += b.bytes;
    peak_buffers = std::max(peak_buffers, live);
    if (!sampling) return;
    const std::size_t now = free_device_bytes();
    if (baseline_free > now) peak_extra = std::max(peak_extra, baseline_free - now);
  }
  void allocate(int which, std::size_t bytes) {
    buffer[which - 1].allocate(bytes);
    sample();
  }
  void release_descriptors() {
    if (descr) cusparseSpGEMM_destroyDescr(descr);
    if (C) cusparseDestroySpMat(C);
    descr = nullptr;
    C = nullptr;
  }
  ~State() {
    release_descriptors();
    if (B) cusparseDestroySpMat(B);
    if (A) cusparseDestroySpMat(A);
  }
};

Spgemm::Spgemm(Handle& handle, const CsrArrays& A, const CsrArrays& B, const std::string& algorithm)
    : s_(std::make_unique<State>()) {
  s_->handle = &handle;
  s_->alg = lookup(spgemm_table, algorithm, "SpGEMM");
  if (A.index_type != Index::i32 || B.index_type != Index::i32)
    unsupported("cuSPARSE SpGEMM with 64-bit indices (cuSPARSE's SpGEMM takes 32-bit indices only)");
  if (A.cols != B.rows) throw std::invalid_argument("cuSPARSE SpGEMM: A.cols != B.rows");
  s_->a = A;
  s_->b = B;
  s_->A = make_const_csr(A);
  s_->B = make_const_csr(B);
}

Spgemm::~Spgemm() = default;

bool Spgemm::has_numeric_reuse() const { return s_->alg == reuse_flow; }

void Spgemm::reset() {
  s_->release_descriptors();
  for (auto& b : s_->buffer) b.release();
  s_->c_offsets.release();
  s_->c_columns.release();
  s_->c_values.release();
  s_->c_nnz = 0;
  s_->structure_ready = s_->values_ready = false;
  s_->peak_extra = s_->peak_buffers = 0;
}

void Spgemm::symbolic() {
  State& s = *s_;
  reset();
  if (s.sampling) {
    check_cuda(cudaStreamSynchronize(s.handle->stream()), "cudaStreamSynchronize");
    s.baseline_free = free_device_bytes();
  }
  const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
  const cusparseHandle_t h = s.handle->get();
  const void* one = scalars.one(s.a.value_type);
  const void* zero = scalars.zero(s.a.value_type);
  const cusparseSpGEMMAlg_t alg = s.cu_alg();
  const std::size_t isz = index_size(Index::i32);

  check(cusparseSpGEMM_createDescr(&s.descr), "cusparseSpGEMM_createDescr");
  std::size_t size[5] = {0, 0, 0, 0, 0};
  if (s.alg == reuse_flow) {
    // The reuse flow writes C's offsets in reuse_nnz, so they exist from the start.
    s.c_offsets.allocate(static_cast<std::size_t>(s.a.rows + 1) * isz);
    check(cusparseCreateCsr(&s.C, s.a.rows, s.b.cols, 0, s.c_offsets.ptr, nullptr, nullptr, CUSPARSE_INDEX_32I,
                            CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, s.type()),
          "cusparseCreateCsr");
    check(cusparseSpGEMMreuse_workEstimation(h, op, op, s.A, s.B, s.C, alg, s.descr, &size[0], nullptr),
          "cusparseSpGEMMreuse_workEstimation");
    s.allocate(1, size[0]);
    check(cusparseSpGEMMreuse_workEstimation(h, op, op, s.A, s.B, s.C, alg, s.descr, &size[0], s.buffer[0].ptr),
          "cusparseSpGEMMreuse_workEstimation");
    check(cusparseSpGEMMreuse_nnz(h, op, op, s.A, s.B, s.C, alg, s.descr, &size[1], nullptr, &size[2], nullptr,
                                  &size[3], nullptr),
          "cusparseSpGEMMreuse_nnz");
    s.allocate(2, size[1]);
    s.allocate(3, size[2]);
    s.allocate(4, size[3]);
    check(cusparseSpGEMMreuse_nnz(h, op, op, s.A, s.B, s.C, alg, s.descr, &size[1], s.buffer[1].ptr, &size[2],
                                  s.buffer[2].ptr, &size[3], s.buffer[3].ptr),
          "cusparseSpGEMMreuse_nnz");
    s.sample();
    s.buffer[0].release();
    s.buffer[1].release();
    std::int64_t rows = 0, cols = 0, nnz = 0;
    check(cusparseSpMatGetSize(s.C, &rows, &cols, &nnz), "cusparseSpMatGetSize");
    s.c_nnz = nnz;
    s.c_columns.allocate(static_cast<std::size_t>(nnz) * isz);
    s.c_values.allocate(static_cast<std::size_t>(nnz) * value_size(s.a.value_type));
    check(cusparseCsrSetPointers(s.C, s.c_offsets.ptr, s.c_columns.ptr, s.c_values.ptr), "cusparseCsrSetPointers");
    s.sample();
    check(cusparseSpGEMMreuse_copy(h, op, op, s.A, s.B, s.C, alg, s.descr, &size[4], nullptr),
          "cusparseSpGEMMreuse_copy");
    s.allocate(5, size[4]);
    check(cusparseSpGEMMreuse_copy(h, op, op, s.A, s.B, s.C, alg, s.descr, &size[4], s.buffer[4].ptr),
          "cusparseSpGEMMreuse_copy");
    s.sample();
    s.buffer[2].release();
  } else {
    check(cusparseCreateCsr(&s.C, s.a.rows, s.b.cols, 0, nullptr, nullptr, nullptr, CUSPARSE_INDEX_32I,
                            CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, s.type()),
          "cusparseCreateCsr");
    check(cusparseSpGEMM_workEstimation(h, op, op, one, s.A, s.B, zero, s.C, s.type(), alg, s.descr, &size[0],
                                        nullptr),
          "cusparseSpGEMM_workEstimation");
    s.allocate(1, size[0]);
    check(cusparseSpGEMM_workEstimation(h, op, op, one, s.A, s.B, zero, s.C, s.type(), alg, s.descr, &size[0],
                                        s.buffer[0].ptr),
          "cusparseSpGEMM_workEstimation");
    s.sample();
    if (alg == CUSPARSE_SPGEMM_ALG2 || alg == CUSPARSE_SPGEMM_ALG3) {
      // ALG3 computes in chunks of this fraction of the products; ALG2 ignores it.
      const float chunk_fraction = 0.2f;
      check(cusparseSpGEMM_estimateMemory(h, op, op, one, s.A, s.B, zero, s.C, s.type(), alg, s.descr, chunk_fraction,
                                          &size[2], nullptr, nullptr),
            "cusparseSpGEMM_estimateMemory");
      s.allocate(3, size[2]);
      check(cusparseSpGEMM_estimateMemory(h, op, op, one, s.A, s.B, zero, s.C, s.type(), alg, s.descr, chunk_fraction,
                                          &size[2], s.buffer[2].ptr, &size[1]),
            "cusparseSpGEMM_estimateMemory");
      s.sample();
      s.buffer[2].release();
    } else {
      check(cusparseSpGEMM_compute(h, op, op, one, s.A, s.B, zero, s.C, s.type(), alg, s.descr, &size[1], nullptr),
            "cusparseSpGEMM_compute");
    }
    s.allocate(2, size[1]);
    check(cusparseSpGEMM_compute(h, op, op, one, s.A, s.B, zero, s.C, s.type(), alg, s.descr, &size[1],
                                 s.buffer[1].ptr),
          "cusparseSpGEMM_compute");
    s.sample();
    std::int64_t rows = 0, cols = 0, nnz = 0;
    check(cusparseSpMatGetSize(s.C, &rows, &cols, &nnz), "cusparseSpMatGetSize");
    s.c_nnz = nnz;
  }
  s.structure_ready = true;
}

void Spgemm::numeric() {
  State& s = *s_;
  if (!s.structure_ready) throw std::logic_error("cuSPARSE SpGEMM: numeric() before symbolic()");
  const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
  const void* one = scalars.one(s.a.value_type);
  const void* zero = scalars.zero(s.a.value_type);
  if (s.alg == reuse_flow) {
    check(cusparseSpGEMMreuse_compute(s.handle->get(), op, op, one, s.A, s.B, zero, s.C, s.type(), s.cu_alg(),
                                      s.descr),
          "cusparseSpGEMMreuse_compute");
  } else {
    const std::size_t isz = index_size(Index::i32);
    s.c_offsets.allocate(static_cast<std::size_t>(s.a.rows + 1) * isz);
    s.c_columns.allocate(static_cast<std::size_t>(s.c_nnz) * isz);
    s.c_values.allocate(static_cast<std::size_t>(s.c_nnz) * value_size(s.a.value_type));
    check(cusparseCsrSetPointers(s.C, s.c_offsets.ptr, s.c_columns.ptr, s.c_values.ptr), "cusparseCsrSetPointers");
    s.sample();
    check(cusparseSpGEMM_copy(s.handle->get(), op, op, one, s.A, s.B, zero, s.C, s.type(), s.cu_alg(), s.descr),
          "cusparseSpGEMM_copy");
    s.sample();
    for (auto& b : s.buffer) b.release();
  }
  s.values_ready = true;
}

void Spgemm::numeric_reuse() {
  if (!has_numeric_reuse()) unsupported("cuSPARSE SpGEMM numeric-only reuse with this algorithm (use 'reuse')");
  if (!s_->values_ready) throw std::logic_error("cuSPARSE SpGEMM: numeric_reuse() before numeric()");
  numeric();
}

CsrArrays Spgemm::result() const {
  if (!s_->values_ready) throw std::logic_error("cuSPARSE SpGEMM: result() before numeric()");
  CsrArrays c;
  c.rows = s_->a.rows;
  c.cols = s_->b.cols;
  c.nnz = s_->c_nnz;
  c.row_offsets = s_->c_offsets.ptr;
  c.col_indices = s_->c_columns.ptr;
  c.values = s_->c_values.ptr;
  c.index_type = Index::i32;
  c.value_type = s_->a.value_type;
  return c;
}

std::size_t Spgemm::buffer_bytes() const { return s_->peak_buffers; }
std::size_t Spgemm::peak_extra_bytes() const { return s_->peak_extra; }
void Spgemm::sample_memory(bool on) { s_->sampling = on; }

}  // namespace spk::yardstick::cusparse
