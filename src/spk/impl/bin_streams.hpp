#pragma once
// Execution space instances that a phase's SpGEMM bins run on side by side. The bins are independent (each writes
// its own rows), and on a small matrix each is a launch of a few hundred rows that leaves most of a GPU idle (H200,
// bayer10: 8 numeric launches of 7-52 us one after another on one stream); Nagasaka et al.'s nsparse gives every
// bin its own CUDA stream for the same reason. Instances are made once per process (a new CUDA instance allocates
// its own buffers) and released when Kokkos finalizes. Host back-ends, and Kokkos before 4.0, keep one instance.
#include <vector>

#include <Kokkos_Core.hpp>

#include "../execution.hpp"

namespace spk::impl {

inline constexpr int bin_stream_count = 4;

template <class ExecSpace>
const std::vector<ExecSpace>& bin_instances() {
  static std::vector<ExecSpace>* kept = nullptr;
  if (!kept) {
    kept = new std::vector<ExecSpace>(1, ExecSpace());
#if KOKKOS_VERSION >= 40000
    if constexpr (!is_host_space<ExecSpace>())
      *kept = Kokkos::Experimental::partition_space(ExecSpace(), std::vector<int>(bin_stream_count, 1));
#endif
    Kokkos::push_finalize_hook([] {
      delete kept;
      kept = nullptr;
    });
  }
  return *kept;
}

}  // namespace spk::impl
