#pragma once
// DeviceArray: a contiguous array a kernel reads, held as its pointer alone. A Kokkos View also carries its
// allocation tracker and its extent (40 bytes on CUDA with Kokkos 4.6), and a kernel's functor is its parameter block:
// each 64-byte line of parameters a small launch reads costs about 70 ns (a constant-cache miss; H100 probe in
// perf/results/h100-cuda.md, "Small SpMM calls"), and spk's row-team SpMM kernel read six lines of its functor. The
// kernels keep Views for what the caller passes (x, y, B, C may be strided) and use DeviceArray for the matrix's and
// the plan's own arrays, which are contiguous.
#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include <Kokkos_Core.hpp>

namespace spk::impl {

template <class T>
struct DeviceArray {
  using value_type = T;
  using non_const_value_type = std::remove_const_t<T>;

  T* ptr = nullptr;  // null for an empty array

  DeviceArray() = default;
  // From a contiguous rank-1 View (implicit, so functors built from Views by aggregate initialisation take it).
  template <class View, class = std::enable_if_t<Kokkos::is_view<View>::value>>
  DeviceArray(const View& v) : ptr(v.extent(0) > 0 ? v.data() : nullptr) {
    static_assert(View::rank == 1, "DeviceArray holds a rank-1 View");
    if (!v.span_is_contiguous()) throw std::logic_error("spk::impl::DeviceArray: a strided View");
  }

  KOKKOS_FORCEINLINE_FUNCTION T& operator()(std::int64_t i) const { return ptr[i]; }
  KOKKOS_FORCEINLINE_FUNCTION T* data() const { return ptr; }
  KOKKOS_FORCEINLINE_FUNCTION explicit operator bool() const { return ptr != nullptr; }
};

}  // namespace spk::impl
