// rocSPARSE generic-API calls behind rocsparse_adapter.hpp (buffer size, preprocess/analysis, compute; SpGEMM's
// buffer_size, nnz, symbolic and numeric stages), following rocSPARSE's documentation.
#include "rocsparse_adapter.hpp"

#include <algorithm>
#include <string>

#include <hip/hip_runtime_api.h>
#include <rocsparse/rocsparse.h>

namespace spk::yardstick::rocsparse {
namespace {

const char* status_name(rocsparse_status s) {
  switch (s) {
    case rocsparse_status_success: return "rocsparse_status_success";
    case rocsparse_status_invalid_handle: return "rocsparse_status_invalid_handle";
    case rocsparse_status_not_implemented: return "rocsparse_status_not_implemented";
    case rocsparse_status_invalid_pointer: return "rocsparse_status_invalid_pointer";
    case rocsparse_status_invalid_size: return "rocsparse_status_invalid_size";
    case rocsparse_status_memory_error: return "rocsparse_status_memory_error";
    case rocsparse_status_internal_error: return "rocsparse_status_internal_error";
    case rocsparse_status_invalid_value: return "rocsparse_status_invalid_value";
    case rocsparse_status_arch_mismatch: return "rocsparse_status_arch_mismatch";
    case rocsparse_status_zero_pivot: return "rocsparse_status_zero_pivot";
    case rocsparse_status_not_initialized: return "rocsparse_status_not_initialized";
    case rocsparse_status_type_mismatch: return "rocsparse_status_type_mismatch";
    case rocsparse_status_requires_sorted_storage: return "rocsparse_status_requires_sorted_storage";
    default: return "unknown rocsparse_status";
  }
}

void check(rocsparse_status status, const char* call) {
  if (status != rocsparse_status_success)
    throw error(call, static_cast<int>(status), false,
                std::string(status_name(status)) + " (" + std::to_string(static_cast<int>(status)) + ")");
}

void check_hip(hipError_t status, const char* call) {
  if (status != hipSuccess) {
    (void)hipGetLastError();
    throw error(call, static_cast<int>(status), true,
                std::string(hipGetErrorName(status)) + " (" + hipGetErrorString(status) + ")");
  }
}

[[noreturn]] void unsupported(const std::string& what) {
  throw error(what, static_cast<int>(rocsparse_status_not_implemented), false, "unsupported");
}

rocsparse_datatype data_type(Value v) { return v == Value::f32 ? rocsparse_datatype_f32_r : rocsparse_datatype_f64_r; }
rocsparse_indextype index_type(Index i) { return i == Index::i32 ? rocsparse_indextype_i32 : rocsparse_indextype_i64; }
std::size_t value_size(Value v) { return v == Value::f32 ? 4 : 8; }
std::size_t index_size(Index i) { return i == Index::i32 ? 4 : 8; }

struct Scalars {
  float f1 = 1, f0 = 0;
  double d1 = 1, d0 = 0;
  const void* one(Value v) const { return v == Value::f32 ? static_cast<const void*>(&f1) : &d1; }
  const void* zero(Value v) const { return v == Value::f32 ? static_cast<const void*>(&f0) : &d0; }
};
const Scalars scalars{};

// A hipMalloc'ed block; never null, because rocSPARSE reads a null buffer as "query size".
struct DeviceBuffer {
  void* ptr = nullptr;
  std::size_t bytes = 0;
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { release(); }
  void allocate(std::size_t n) {
    release();
    check_hip(hipMalloc(&ptr, std::max<std::size_t>(n, 16)), "hipMalloc");
    bytes = n;
  }
  void release() {
    if (ptr) (void)hipFree(ptr);
    ptr = nullptr;
    bytes = 0;
  }
};

// rocSPARSE 2.x descriptors take non-const pointers; the arrays are only read.
rocsparse_spmat_descr make_csr(const CsrArrays& A) {
  rocsparse_spmat_descr d = nullptr;
  check(rocsparse_create_csr_descr(&d, A.rows, A.cols, A.nnz, const_cast<void*>(A.row_offsets),
                                   const_cast<void*>(A.col_indices), const_cast<void*>(A.values),
                                   index_type(A.index_type), index_type(A.index_type), rocsparse_index_base_zero,
                                   data_type(A.value_type)),
        "rocsparse_create_csr_descr");
  return d;
}

struct Named {
  const char* name;
  int value;
};
const Named spmv_table[] = {{"default", rocsparse_spmv_alg_default},
                            {"csr-adaptive", rocsparse_spmv_alg_csr_adaptive},
                            {"csr-stream", rocsparse_spmv_alg_csr_stream}};
const Named spmm_table[] = {{"default", rocsparse_spmm_alg_default},
                            {"csr", rocsparse_spmm_alg_csr},
                            {"csr-row-split", rocsparse_spmm_alg_csr_row_split},
                            {"csr-merge", rocsparse_spmm_alg_csr_merge}};
const Named spgemm_table[] = {{"default", rocsparse_spgemm_alg_default}};

template <std::size_t N>
int lookup(const Named (&table)[N], const std::string& name, const char* what) {
  std::string choices;
  for (const auto& e : table) {
    if (name == e.name) return e.value;
    choices += (choices.empty() ? "" : ", ") + std::string(e.name);
  }
  throw std::invalid_argument(std::string("rocSPARSE ") + what + ": unknown algorithm '" + name +
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
  check_hip(hipMemGetInfo(&free, &total), "hipMemGetInfo");
  return free;
}

}  // namespace

// ---------------------------------------------------------------------------------------------------------------
Handle::Handle(ihipStream_t* stream) : stream_(stream) {
  check(rocsparse_create_handle(&handle_), "rocsparse_create_handle");
  try {
    check(rocsparse_set_stream(handle_, stream), "rocsparse_set_stream");
  } catch (...) {
    rocsparse_destroy_handle(handle_);
    throw;
  }
}

Handle::~Handle() {
  if (handle_) rocsparse_destroy_handle(handle_);
}

std::string Handle::version() const {
  int v = 0;
  check(rocsparse_get_version(handle_, &v), "rocsparse_get_version");
  return std::to_string(v / 100000) + "." + std::to_string(v / 100 % 1000) + "." + std::to_string(v % 100);
}

std::vector<std::string> spmv_algorithms() { return names(spmv_table); }
std::vector<std::string> spmm_algorithms() { return names(spmm_table); }
std::vector<std::string> spgemm_algorithms() { return names(spgemm_table); }

// ---------------------------------------------------------------------------------------------------------------
struct Spmv::State {
  Handle* handle = nullptr;
  rocsparse_spmat_descr A = nullptr;
  rocsparse_dnvec_descr x = nullptr, y = nullptr;
  rocsparse_spmv_alg alg = rocsparse_spmv_alg_default;
  Value value = Value::f64;
  DeviceBuffer buffer;
  ~State() {
    if (y) rocsparse_destroy_dnvec_descr(y);
    if (x) rocsparse_destroy_dnvec_descr(x);
    if (A) rocsparse_destroy_spmat_descr(A);
  }
  // One call of rocsparse_spmv; 2.x has no stage argument (a null buffer queries the size, the first call with a
  // buffer analyses), 3.x names the stage.
  void call(int stage, std::size_t* bytes, void* buf, const char* what) {
#if ROCSPARSE_VERSION_MAJOR >= 3
    check(rocsparse_spmv(handle->get(), rocsparse_operation_none, scalars.one(value), A, x, scalars.zero(value), y,
                         data_type(value), alg, static_cast<rocsparse_spmv_stage>(stage), bytes, buf),
          what);
#else
    (void)stage;
    check(rocsparse_spmv(handle->get(), rocsparse_operation_none, scalars.one(value), A, x, scalars.zero(value), y,
                         data_type(value), alg, bytes, buf),
          what);
#endif
  }
};

#if ROCSPARSE_VERSION_MAJOR >= 3
constexpr int spmv_stage_buffer_size = rocsparse_spmv_stage_buffer_size;
constexpr int spmv_stage_preprocess = rocsparse_spmv_stage_preprocess;
constexpr int spmv_stage_compute = rocsparse_spmv_stage_compute;
#else
constexpr int spmv_stage_buffer_size = 0, spmv_stage_compute = 0;  // 2.x: no stages
#endif

Spmv::Spmv(Handle& handle, const CsrArrays& A, const void* x, void* y, const std::string& algorithm)
    : s_(std::make_unique<State>()) {
  s_->handle = &handle;
  s_->alg = static_cast<rocsparse_spmv_alg>(lookup(spmv_table, algorithm, "SpMV"));
  s_->value = A.value_type;
  s_->A = make_csr(A);
  check(rocsparse_create_dnvec_descr(&s_->x, A.cols, const_cast<void*>(x), data_type(A.value_type)),
        "rocsparse_create_dnvec_descr");
  check(rocsparse_create_dnvec_descr(&s_->y, A.rows, y, data_type(A.value_type)), "rocsparse_create_dnvec_descr");
  std::size_t bytes = 0;
  s_->call(spmv_stage_buffer_size, &bytes, nullptr, "rocsparse_spmv(buffer size)");
  s_->buffer.allocate(bytes);
#if ROCSPARSE_VERSION_MAJOR >= 3
  s_->call(spmv_stage_preprocess, &bytes, s_->buffer.ptr, "rocsparse_spmv(preprocess)");
#else
  s_->call(spmv_stage_compute, &bytes, s_->buffer.ptr, "rocsparse_spmv(analysis)");  // 2.x analyses on first call
#endif
}

Spmv::~Spmv() = default;

void Spmv::run() {
  std::size_t bytes = s_->buffer.bytes;
  s_->call(spmv_stage_compute, &bytes, s_->buffer.ptr, "rocsparse_spmv");
}

std::size_t Spmv::buffer_bytes() const { return s_->buffer.bytes; }

// ---------------------------------------------------------------------------------------------------------------
struct Spmm::State {
  Handle* handle = nullptr;
  rocsparse_spmat_descr A = nullptr;
  rocsparse_dnmat_descr B = nullptr, C = nullptr;
  rocsparse_spmm_alg alg = rocsparse_spmm_alg_default;
  Value value = Value::f64;
  DeviceBuffer buffer;
  ~State() {
    if (C) rocsparse_destroy_dnmat_descr(C);
    if (B) rocsparse_destroy_dnmat_descr(B);
    if (A) rocsparse_destroy_spmat_descr(A);
  }
  void call(rocsparse_spmm_stage stage, std::size_t* bytes, void* buf, const char* what) {
    check(rocsparse_spmm(handle->get(), rocsparse_operation_none, rocsparse_operation_none, scalars.one(value), A, B,
                         scalars.zero(value), C, data_type(value), alg, stage, bytes, buf),
          what);
  }
};

Spmm::Spmm(Handle& handle, const CsrArrays& A, const DenseArrays& B, const DenseArrays& C,
           const std::string& algorithm)
    : s_(std::make_unique<State>()) {
  s_->handle = &handle;
  s_->alg = static_cast<rocsparse_spmm_alg>(lookup(spmm_table, algorithm, "SpMM"));
  s_->value = A.value_type;
  if (B.row_major != C.row_major) unsupported("rocSPARSE SpMM with B and C in different layouts");
  const rocsparse_order order = B.row_major ? rocsparse_order_row : rocsparse_order_column;
  s_->A = make_csr(A);
  check(rocsparse_create_dnmat_descr(&s_->B, B.rows, B.cols, B.ld, B.values, data_type(A.value_type), order),
        "rocsparse_create_dnmat_descr");
  check(rocsparse_create_dnmat_descr(&s_->C, C.rows, C.cols, C.ld, C.values, data_type(A.value_type), order),
        "rocsparse_create_dnmat_descr");
  std::size_t bytes = 0;
  s_->call(rocsparse_spmm_stage_buffer_size, &bytes, nullptr, "rocsparse_spmm(buffer size)");
  s_->buffer.allocate(bytes);
  s_->call(rocsparse_spmm_stage_preprocess, &bytes, s_->buffer.ptr, "rocsparse_spmm(preprocess)");
}

Spmm::~Spmm() = default;

void Spmm::run() {
  std::size_t bytes = s_->buffer.bytes;
  s_->call(rocsparse_spmm_stage_compute, &bytes, s_->buffer.ptr, "rocsparse_spmm");
}

std::size_t Spmm::buffer_bytes() const { return s_->buffer.bytes; }

// ---------------------------------------------------------------------------------------------------------------
struct Spgemm::State {
  Handle* handle = nullptr;
  CsrArrays a, b;
  rocsparse_spmat_descr A = nullptr, B = nullptr, C = nullptr, D = nullptr;
  DeviceBuffer buffer, d_offsets;  // D = the empty addend (beta = 0) rocsparse_spgemm requires
  DeviceBuffer c_offsets, c_columns, c_values;
  std::int64_t c_nnz = 0;
  bool structure_ready = false, values_ready = false;
  bool sampling = true;
  std::size_t baseline_free = 0, peak_extra = 0;

  void sample() {
    if (!sampling) return;
    const std::size_t now = free_device_bytes();
    if (baseline_free > now) peak_extra = std::max(peak_extra, baseline_free - now);
  }
  void stage(rocsparse_spgemm_stage st, std::size_t* bytes, void* buf, const char* what) {
    const Value v = a.value_type;
    check(rocsparse_spgemm(handle->get(), rocsparse_operation_none, rocsparse_operation_none, scalars.one(v), A, B,
                           scalars.zero(v), D, C, data_type(v), rocsparse_spgemm_alg_default, st, bytes, buf),
          what);
  }
  ~State() {
    for (auto* d : {C, D, B, A})
      if (d) rocsparse_destroy_spmat_descr(d);
  }
};

Spgemm::Spgemm(Handle& handle, const CsrArrays& A, const CsrArrays& B, const std::string& algorithm)
    : s_(std::make_unique<State>()) {
  lookup(spgemm_table, algorithm, "SpGEMM");
  if (A.cols != B.rows) throw std::invalid_argument("rocSPARSE SpGEMM: A.cols != B.rows");
  if (A.index_type != B.index_type) unsupported("rocSPARSE SpGEMM with different index types for A and B");
  s_->handle = &handle;
  s_->a = A;
  s_->b = B;
  s_->A = make_csr(A);
  s_->B = make_csr(B);
  const std::size_t isz = index_size(A.index_type);
  s_->d_offsets.allocate(static_cast<std::size_t>(A.rows + 1) * isz);
  check_hip(hipMemsetAsync(s_->d_offsets.ptr, 0, static_cast<std::size_t>(A.rows + 1) * isz, handle.stream()),
            "hipMemsetAsync");
  check(rocsparse_create_csr_descr(&s_->D, A.rows, B.cols, 0, s_->d_offsets.ptr, nullptr, nullptr,
                                   index_type(A.index_type), index_type(A.index_type), rocsparse_index_base_zero,
                                   data_type(A.value_type)),
        "rocsparse_create_csr_descr");
}

Spgemm::~Spgemm() = default;

void Spgemm::reset() {
  if (s_->C) rocsparse_destroy_spmat_descr(s_->C);
  s_->C = nullptr;
  s_->buffer.release();
  s_->c_offsets.release();
  s_->c_columns.release();
  s_->c_values.release();
  s_->c_nnz = 0;
  s_->structure_ready = s_->values_ready = false;
  s_->peak_extra = 0;
}

void Spgemm::symbolic() {
  State& s = *s_;
  reset();
  if (s.sampling) {
    check_hip(hipStreamSynchronize(s.handle->stream()), "hipStreamSynchronize");
    s.baseline_free = free_device_bytes();
  }
  const std::size_t isz = index_size(s.a.index_type);
  s.c_offsets.allocate(static_cast<std::size_t>(s.a.rows + 1) * isz);
  check(rocsparse_create_csr_descr(&s.C, s.a.rows, s.b.cols, 0, s.c_offsets.ptr, nullptr, nullptr,
                                   index_type(s.a.index_type), index_type(s.a.index_type), rocsparse_index_base_zero,
                                   data_type(s.a.value_type)),
        "rocsparse_create_csr_descr");
  std::size_t bytes = 0;
  s.stage(rocsparse_spgemm_stage_buffer_size, &bytes, nullptr, "rocsparse_spgemm(buffer size)");
  s.buffer.allocate(bytes);
  s.sample();
  s.stage(rocsparse_spgemm_stage_nnz, &bytes, s.buffer.ptr, "rocsparse_spgemm(nnz)");
  s.sample();
  std::int64_t rows = 0, cols = 0, nnz = 0;
  check(rocsparse_spmat_get_size(s.C, &rows, &cols, &nnz), "rocsparse_spmat_get_size");
  s.c_nnz = nnz;
  s.c_columns.allocate(static_cast<std::size_t>(nnz) * isz);
  s.c_values.allocate(static_cast<std::size_t>(nnz) * value_size(s.a.value_type));
  check(rocsparse_csr_set_pointers(s.C, s.c_offsets.ptr, s.c_columns.ptr, s.c_values.ptr),
        "rocsparse_csr_set_pointers");
  s.sample();
  s.stage(rocsparse_spgemm_stage_symbolic, &bytes, s.buffer.ptr, "rocsparse_spgemm(symbolic)");
  s.sample();
  s.structure_ready = true;
}

void Spgemm::numeric() {
  State& s = *s_;
  if (!s.structure_ready) throw std::logic_error("rocSPARSE SpGEMM: numeric() before symbolic()");
  std::size_t bytes = s.buffer.bytes;
  s.stage(rocsparse_spgemm_stage_numeric, &bytes, s.buffer.ptr, "rocsparse_spgemm(numeric)");
  s.values_ready = true;
}

void Spgemm::numeric_reuse() { numeric(); }

CsrArrays Spgemm::result() const {
  if (!s_->values_ready) throw std::logic_error("rocSPARSE SpGEMM: result() before numeric()");
  CsrArrays c;
  c.rows = s_->a.rows;
  c.cols = s_->b.cols;
  c.nnz = s_->c_nnz;
  c.row_offsets = s_->c_offsets.ptr;
  c.col_indices = s_->c_columns.ptr;
  c.values = s_->c_values.ptr;
  c.index_type = s_->a.index_type;
  c.value_type = s_->a.value_type;
  return c;
}

std::size_t Spgemm::buffer_bytes() const { return s_->buffer.bytes; }
std::size_t Spgemm::peak_extra_bytes() const { return s_->peak_extra; }
void Spgemm::sample_memory(bool on) { s_->sampling = on; }

}  // namespace spk::yardstick::rocsparse
