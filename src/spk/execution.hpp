#pragma once
// What the kernels need to know about where they run: host or GPU, and the widest useful vector length.
#include <Kokkos_Core.hpp>

namespace spk {

// True when ExecSpace runs on the host (Serial, OpenMP, Threads): teams of one thread, vector length one. Callable
// from kernels (KOKKOS_INLINE_FUNCTION), as are the compile-time helpers built on it: nvcc warns (#20013-D) when a
// host-device function calls a host-only constexpr function, even at compile time.
template <class ExecSpace>
KOKKOS_INLINE_FUNCTION constexpr bool is_host_space() {
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
}

// Hardware SIMT width: 32 lanes on NVIDIA, 64 on AMD GCN/CDNA, 1 on CPUs.
template <class ExecSpace>
constexpr int max_vector_length() {
#if defined(KOKKOS_ENABLE_HIP)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::HIP>) return 64;
#endif
  return is_host_space<ExecSpace>() ? 1 : 32;
}

// The team policy of spk's kernels. HintLightWeight makes Kokkos pass the functor as a kernel argument: by default a
// CUDA functor over 512 bytes (ours hold a dozen Views) is copied to constant memory before each launch, after the
// host waits on an event for the previous such kernel, which costs a copy and a host wait on every call. The
// mechanism also changes what ptxas makes of a kernel, in both directions (H200 A/B in perf/results/h200-cuda.md,
// SpMM fp32 k = 32 unless noted): pushpull 7% faster this way, uniform 2M x 32 29%, skewed fp64 17%, but R-MAT 22 16
// flat 23% slower (83 registers instead of 61: half the resident teams) and skewed fp32 6% slower. Big calls are
// not consistently better either way, so there is no size rule: every launch takes this one.
template <class ExecSpace>
using team_policy_for = Kokkos::TeamPolicy<ExecSpace, Kokkos::Experimental::WorkItemProperty::HintLightWeight_t>;

inline constexpr int pow2_ceil(long long v) {
  int p = 1;
  while (p < v) p *= 2;
  return p;
}

}  // namespace spk
