#pragma once
// What the kernels need to know about where they run: host or GPU, and the widest useful vector length.
#include <Kokkos_Core.hpp>

namespace spk {

// True when ExecSpace runs on the host (Serial, OpenMP, Threads): teams of one thread, vector length one.
template <class ExecSpace>
constexpr bool is_host_space() {
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

inline constexpr int pow2_ceil(long long v) {
  int p = 1;
  while (p < v) p *= 2;
  return p;
}

}  // namespace spk
