#pragma once
// Allocation properties that keep an allocation off the host's critical path, and free memory in an execution
// space's memory (the default SpGEMM memory budget).
#include <cstdint>
#include <string>
#include <type_traits>

#include <unistd.h>

#include <Kokkos_Core.hpp>

namespace spk::impl {

// An allocation whose header copy (and, for zeroed, its fill) is queued on Exec's default instance. Without an
// instance Kokkos 4 fences the whole device after copying the header: a host wait for everything queued on every
// allocation, which paces small SpGEMM products and plans. Kokkos 3 uses the instance for the fill only.
template <class Exec>
auto uninitialized(std::string label) {
  return Kokkos::view_alloc(Exec(), Kokkos::WithoutInitializing, std::move(label));
}
template <class Exec>
auto zeroed(std::string label) {
  return Kokkos::view_alloc(Exec(), std::move(label));
}

template <class ExecSpace>
std::int64_t free_memory_bytes() {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
    std::size_t free = 0, total = 0;
    if (cudaMemGetInfo(&free, &total) == cudaSuccess) return static_cast<std::int64_t>(free);
  }
#endif
#if defined(KOKKOS_ENABLE_HIP)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::HIP>) {
    std::size_t free = 0, total = 0;
    if (hipMemGetInfo(&free, &total) == hipSuccess) return static_cast<std::int64_t>(free);
  }
#endif
  const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<std::int64_t>(pages) * page : std::int64_t{1} << 40;
}

}  // namespace spk::impl
