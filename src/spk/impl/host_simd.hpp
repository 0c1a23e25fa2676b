#pragma once
// Run-time choice of the host vector instruction set for the host paths of the SpMM kernels. A portable build
// targets baseline x86-64 (SSE2: two doubles per instruction, no fused multiply-add). with_host_isa(f) calls
// f(HostAvx512{}) or f(HostAvx2{}) from a function compiled for AVX-512 or AVX2 (both with FMA) where the CPU has
// them (the function multiversioning that GraphBLAS and MKL do), else f(HostBaseline{}); the tag tells the code
// inside which one it is compiled for, so it can use 64- or 32-byte vectors only where they exist (GCC lowers them
// to slow code for SSE2, and left to itself did not vectorise the fp32 column loop for AVX2 at all).
// Only g++/clang++ on x86-64 compile these versions; nvcc and hipcc builds (and other CPUs) run the baseline.
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include <Kokkos_Core.hpp>

// -DSPK_NO_HOST_ISA_DISPATCH builds the baseline only.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__) && \
    !defined(__HIPCC__) && !defined(__NVCOMPILER) && !defined(__INTEL_LLVM_COMPILER) &&      \
    !defined(SPK_NO_HOST_ISA_DISPATCH)
#define SPK_HOST_ISA_DISPATCH 1
#else
#define SPK_HOST_ISA_DISPATCH 0
#endif

namespace spk::impl {

enum class HostIsa : int { baseline = 0, avx2 = 1, avx512 = 2 };

struct HostBaseline {
  static constexpr int vector_bytes = 0;  // no explicit vectors: the compiler's SSE2 code
};
struct HostAvx2 {
  static constexpr int vector_bytes = 32;
};
struct HostAvx512 {
  static constexpr int vector_bytes = 64;
};

// The widest set this CPU runs, at most SPK_HOST_ISA (baseline, avx2 or avx512) when that is set (A/B runs).
inline HostIsa detect_host_isa() {
  HostIsa best = HostIsa::baseline;
#if SPK_HOST_ISA_DISPATCH
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) best = HostIsa::avx2;
  if (best == HostIsa::avx2 && __builtin_cpu_supports("avx512f")) best = HostIsa::avx512;
#endif
  const char* cap = std::getenv("SPK_HOST_ISA");
  if (cap != nullptr && std::strcmp(cap, "baseline") == 0) return HostIsa::baseline;
  if (cap != nullptr && std::strcmp(cap, "avx2") == 0 && best == HostIsa::avx512) return HostIsa::avx2;
  return best;
}

inline const char* to_string(HostIsa isa) {
  if (isa == HostIsa::avx512) return "AVX-512 + FMA";
  return isa == HostIsa::avx2 ? "AVX2 + FMA" : "the baseline instruction set";
}

// -1: the detected set; otherwise a cap, which the tests set to run both versions in one process.
inline std::atomic<int>& host_isa_cap() {
  static std::atomic<int> cap{-1};
  return cap;
}

inline HostIsa host_isa() {
  static const HostIsa detected = detect_host_isa();
  const int cap = host_isa_cap().load(std::memory_order_relaxed);
  return cap >= 0 && cap < static_cast<int>(detected) ? static_cast<HostIsa>(cap) : detected;
}

#if SPK_HOST_ISA_DISPATCH
// `flatten` inlines f's whole body (accumulation loops, View accessors) here, where it is compiled for the set.
template <class F>
__attribute__((target("avx2,fma"), flatten, noinline)) void run_avx2(const F& f) {
  f(HostAvx2{});
}
template <class F>
__attribute__((target("avx512f,avx2,fma"), flatten, noinline)) void run_avx512(const F& f) {
  f(HostAvx512{});
}
#endif

// Runs f(tag) compiled for host_isa(). Called once per team (a block of rows), so the test costs nothing per row.
template <class F>
KOKKOS_INLINE_FUNCTION void with_host_isa(const F& f) {
#if SPK_HOST_ISA_DISPATCH
  switch (host_isa()) {
    case HostIsa::avx512: run_avx512(f); return;
    case HostIsa::avx2: run_avx2(f); return;
    default: break;
  }
#endif
  f(HostBaseline{});
}

// The vector size accumulate_host_vectors uses for CPL columns: Isa's widest, or 32 bytes where CPL columns are not
// a whole number of 64-byte vectors (8 floats under AVX-512).
template <class Isa, class Scalar, int CPL>
constexpr int host_vector_bytes() {
  return (CPL * sizeof(Scalar)) % Isa::vector_bytes == 0 ? Isa::vector_bytes : 32;
}

// Whether accumulate_host_vectors applies: Isa has vectors, and a lane's CPL columns of a row of B are contiguous
// (row-major B) and a whole number of vectors.
template <class Isa, class Scalar, int CPL, class BView>
constexpr bool host_vectors_fit() {
  if constexpr (!SPK_HOST_ISA_DISPATCH || Isa::vector_bytes == 0 ||
                !std::is_same_v<typename BView::array_layout, Kokkos::LayoutRight>) {
    return false;
  } else {
    return (CPL * sizeof(Scalar)) % 32 == 0;
  }
}

// acc[j] += sum over p in [b, e) of vals(p) * B(cols(p), first + j), whole vectors of B's row at a time. Each column
// adds its products in the order of p, as the scalar loop does.
template <class Isa, int CPL, class Scalar, class Cols, class Vals, class Index, class BView>
inline void accumulate_host_vectors(Scalar (&acc)[CPL], const Cols& cols, const Vals& vals, Index b, Index e,
                                    const BView& B, int first) {
#if SPK_HOST_ISA_DISPATCH
  constexpr int bytes = host_vector_bytes<Isa, Scalar, CPL>();
  constexpr int width = bytes / sizeof(Scalar), count = CPL / width;
  typedef Scalar Vector __attribute__((vector_size(bytes)));
  Vector sums[count];
  std::memcpy(sums, acc, sizeof(sums));
  for (Index p = b; p < e; ++p) {
    const Scalar* row = &B(cols(p), first);
    const Scalar v = vals(p);
    for (int u = 0; u < count; ++u) {
      Vector x;
      std::memcpy(&x, row + u * width, sizeof(Vector));  // B's rows are only scalar-aligned
      sums[u] += v * x;
    }
  }
  std::memcpy(acc, sums, sizeof(sums));
#else
  static_assert(!sizeof(Isa*), "host_vectors_fit is false without the dispatch: never instantiated");
#endif
}

}  // namespace spk::impl
