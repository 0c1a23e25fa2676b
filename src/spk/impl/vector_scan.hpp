#pragma once
// Exclusive prefix sum over the lanes of one Kokkos vector, by shuffles (Kokkos's own vector scan calls its body
// twice per index and cannot take one value per lane). Every lane of the vector must call it.
#include <Kokkos_Core.hpp>

#include "lane_groups.hpp"

namespace spk::impl {

// Returns the sum of v over the lanes before this one in its vector, and sets total to the sum over all its lanes.
template <class T>
KOKKOS_INLINE_FUNCTION T exclusive_sum_over_vector(T v, T& total) {
#if defined(__CUDA_ARCH__)
  const unsigned mask = vector_mask();
  const int width = static_cast<int>(blockDim.x);
  T inclusive = v;
  for (int d = 1; d < width; d *= 2) {
    const T below = __shfl_up_sync(mask, inclusive, d, width);
    if (static_cast<int>(threadIdx.x) >= d) inclusive += below;
  }
  total = __shfl_sync(mask, inclusive, width - 1, width);
  return inclusive - v;
#elif defined(__HIP_DEVICE_COMPILE__)
  const int width = static_cast<int>(blockDim.x);
  T inclusive = v;
  for (int d = 1; d < width; d *= 2) {
    const T below = __shfl_up(inclusive, d, width);
    if (static_cast<int>(threadIdx.x) >= d) inclusive += below;
  }
  total = __shfl(inclusive, width - 1, width);
  return inclusive - v;
#else
  total = v;  // host back-ends: one lane
  return T(0);
#endif
}

}  // namespace spk::impl
