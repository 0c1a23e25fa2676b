#pragma once
// Lane groups for SpMM, and the whole-vector shuffles of SpGEMM's row merge. When a row's dense columns need fewer
// lanes than the Kokkos vector has, the vector is cut into groups of `slots` lanes that each own the same columns, group g takes every groups-th nonzero of the row from
// the g-th on, and the groups' partial sums are added with shuffles before group 0 stores. At k = 32 in fp32 a warp
// then moves one row with float4 loads (8 lanes x 4 columns, 4 nonzeros at once) instead of one float per lane per
// nonzero, and a row's gathers are spread over the whole warp instead of one long chain.
//
// Kokkos has no reduction over part of a vector, hence the intrinsics. Kokkos lays a team out as blockDim.x = vector
// length and blockDim.y = team size on CUDA and HIP, so the lanes of one vector are threadIdx.x of one threadIdx.y.
// Host back-ends have one lane, hence one group, and never shuffle.
#include <type_traits>

#include <Kokkos_Core.hpp>

namespace spk::impl {

// Where a vector can be cut into lane groups: CUDA and HIP (the shuffles below), and host back-ends (one lane).
template <class ExecSpace>
constexpr bool lane_groups_supported() {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) return true;
#endif
#if defined(KOKKOS_ENABLE_HIP)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::HIP>) return true;
#endif
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
}

// The fewest lanes (a power of two, at most `lanes`) whose `cpl` columns each cover `columns` columns.
inline int spmm_lane_slots(int lanes, int cpl, int columns) {
  int slots = 1;
  while (slots < lanes && slots * cpl < columns) slots *= 2;
  return slots;
}

// log2 of spmm_lane_slots: the kernels split a lane index with a shift and a mask (a division by a runtime slot
// count costs a GPU some 20 instructions per row).
inline int spmm_lane_slot_bits(int lanes, int cpl, int columns) {
  const int slots = spmm_lane_slots(lanes, cpl, columns);
  int bits = 0;
  while ((1 << bits) < slots) ++bits;
  return bits;
}

// A lane's place in its vector: group `group` of `groups`, slot `slot` of the group's `slots` lanes.
struct LaneGroup {
  int group, groups, slot, slots, lanes;
};

KOKKOS_INLINE_FUNCTION LaneGroup lane_group(int lane, int lanes, int slot_bits) {
  return {lane >> slot_bits, lanes >> slot_bits, lane & ((1 << slot_bits) - 1), 1 << slot_bits, lanes};
}

#if defined(__CUDA_ARCH__)
// The lanes of the calling thread's vector within its warp, for the shuffles' member masks.
__device__ inline unsigned vector_mask() {
  const unsigned width = blockDim.x;
  return width >= 32u ? 0xffffffffu : ((1u << width) - 1u) << ((threadIdx.y * width) & 31u);
}
#endif

// v summed over the lanes of this vector that share lane % slots (butterfly: every lane gets the same sum, added in
// the same order on every call, so results are deterministic). Every lane of the vector must call it.
template <class Scalar>
KOKKOS_INLINE_FUNCTION Scalar sum_over_lane_groups(Scalar v, int slots, int lanes) {
#if defined(__CUDA_ARCH__)
  const unsigned mask = vector_mask();
  for (int d = slots; d < lanes; d *= 2) v += __shfl_xor_sync(mask, v, d, blockDim.x);
#elif defined(__HIP_DEVICE_COMPILE__)
  for (int d = slots; d < lanes; d *= 2) v += __shfl_xor(v, d, static_cast<int>(blockDim.x));
#else
  (void)slots;
  (void)lanes;
#endif
  return v;
}

// v as lane src of this vector holds it, on every lane (src in [0, lanes), lanes the vector length). Every lane of
// the vector must call it; host back-ends have one lane.
template <class T>
KOKKOS_INLINE_FUNCTION T broadcast_in_vector(T v, int src, int lanes) {
#if defined(__CUDA_ARCH__)
  return __shfl_sync(vector_mask(), v, src, lanes);
#elif defined(__HIP_DEVICE_COMPILE__)
  return __shfl(v, src, lanes);
#else
  (void)src;
  (void)lanes;
  return v;
#endif
}

// Makes the scratch writes of one thread's lanes visible to each other: on CUDA a vector-range loop ends with
// __syncwarp over the thread's lanes (Kokkos_Cuda_Team.hpp), on HIP the lanes run in lockstep, on the host there
// is one lane.
template <class Member>
KOKKOS_INLINE_FUNCTION void vector_sync(const Member& team) {
  Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, 0), [](const int) {});
}

// This lane's index in its vector (0 on host back-ends, which have one lane).
KOKKOS_INLINE_FUNCTION int vector_lane() {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return static_cast<int>(threadIdx.x);
#else
  return 0;
#endif
}

// The smallest v over the `lanes` lanes of this vector, on every lane. Every lane of the vector must call it.
template <class T>
KOKKOS_INLINE_FUNCTION T min_over_vector(T v, int lanes) {
#if defined(__CUDA_ARCH__)
  const unsigned mask = vector_mask();
  for (int d = 1; d < lanes; d *= 2) {
    const T other = __shfl_xor_sync(mask, v, d, blockDim.x);
    v = other < v ? other : v;
  }
#elif defined(__HIP_DEVICE_COMPILE__)
  for (int d = 1; d < lanes; d *= 2) {
    const T other = __shfl_xor(v, d, static_cast<int>(blockDim.x));
    v = other < v ? other : v;
  }
#else
  (void)lanes;
#endif
  return v;
}

}  // namespace spk::impl
