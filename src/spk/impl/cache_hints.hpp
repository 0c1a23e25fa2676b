#pragma once
// Loads with a cache hint, for data in global memory only (never scratch: the hinted instructions address global
// memory). A's column indices and values are read once per SpMV; marked evict-first (CUDA `ld.global.cs`, HIP
// non-temporal) they stop pushing the gathered vector x out of L2. On R-MAT 22 16 (fp64, H200, ncu) spk's flat
// SpMV read 1.24 GB of DRAM against cuSPARSE's 0.99 GB and 0.83 GB compulsory; with the hint, 1.00 GB. x goes
// through the read-only path (`ld.global.nc`). Host back-ends load plainly.
//
// The CUDA loads are written as non-volatile PTX: CUDA's own __ldcs / __ldg are `asm volatile`, which keeps every
// load in program order and stops the compiler from batching a loop's loads. A first build put those in every SpMV
// kernel, and thread-row SpMV on lap2d 4096 slowed from 0.28 to 0.37 ms, so thread-row (short rows, local x) loads
// plainly. The data are never written during the kernel, so letting the compiler move or merge these loads is safe.
#include <type_traits>

#include <Kokkos_Core.hpp>

namespace spk::impl {

#if defined(__CUDA_ARCH__)
#define SPK_PTX_LOAD(NAME, HINT, T, PTX_TYPE, REG)                         \
  __device__ __forceinline__ T NAME(const T* p) {                          \
    T r;                                                                   \
    asm("ld.global." HINT "." PTX_TYPE " %0, [%1];" : "=" REG(r) : "l"(p)); \
    return r;                                                              \
  }
#define SPK_PTX_LOADS(NAME, HINT)                                   \
  SPK_PTX_LOAD(NAME, HINT, float, "f32", "f")                       \
  SPK_PTX_LOAD(NAME, HINT, double, "f64", "d")                      \
  SPK_PTX_LOAD(NAME, HINT, unsigned short, "u16", "h")              \
  SPK_PTX_LOAD(NAME, HINT, int, "s32", "r")                         \
  SPK_PTX_LOAD(NAME, HINT, unsigned, "u32", "r")                    \
  SPK_PTX_LOAD(NAME, HINT, long, "s64", "l")                        \
  SPK_PTX_LOAD(NAME, HINT, unsigned long, "u64", "l")               \
  SPK_PTX_LOAD(NAME, HINT, long long, "s64", "l")                   \
  SPK_PTX_LOAD(NAME, HINT, unsigned long long, "u64", "l")
SPK_PTX_LOADS(ptx_load_streaming, "cs")
SPK_PTX_LOADS(ptx_load_read_only, "nc")
#undef SPK_PTX_LOADS
#undef SPK_PTX_LOAD
#endif

// The types the PTX loads above cover (any other type loads plainly).
template <class T>
inline constexpr bool hinted_load_type =
    std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, unsigned short> ||
    std::is_same_v<T, int> || std::is_same_v<T, unsigned> ||
    std::is_same_v<T, long> || std::is_same_v<T, unsigned long> || std::is_same_v<T, long long> ||
    std::is_same_v<T, unsigned long long>;

// `ref` read once by this call: evict it first.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION std::remove_cv_t<T> load_once(const T& ref) {
#if defined(__CUDA_ARCH__)
  if constexpr (hinted_load_type<std::remove_cv_t<T>>) return ptx_load_streaming(&ref);
#elif defined(__HIP_DEVICE_COMPILE__)
  if constexpr (std::is_arithmetic_v<T>) return __builtin_nontemporal_load(&ref);
#endif
  return ref;
}

// `ref` gathered and reused, never written during the call: the read-only cache path.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION std::remove_cv_t<T> load_reused(const T& ref) {
#if defined(__CUDA_ARCH__)
  if constexpr (hinted_load_type<std::remove_cv_t<T>>) return ptx_load_read_only(&ref);
#endif
  return ref;
}

}  // namespace spk::impl
