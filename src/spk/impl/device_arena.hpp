#pragma once
// One allocation carved into aligned, unmanaged arrays. On CUDA every Kokkos allocation is a cudaMalloc plus a copy
// of its header (about 50 us on the H200 from 1 MiB up, more than most SpGEMM kernels of a small matrix), and every
// free a cudaFree, so a phase that needs a dozen arrays asks for their total once.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <Kokkos_Core.hpp>

#include "../error.hpp"
#include "device_memory.hpp"

namespace spk::impl {

template <class Space>
class DeviceArena {
 public:
  template <class T>
  using array = Kokkos::View<T*, Space, Kokkos::MemoryUnmanaged>;
  static constexpr std::int64_t alignment = 128;  // every array starts on its own cache line

  // Bytes an array of n T takes inside an arena.
  template <class T>
  static std::int64_t bytes_for(std::int64_t n) {
    const std::int64_t raw = n * static_cast<std::int64_t>(sizeof(T));
    return (raw + alignment - 1) / alignment * alignment;
  }

  DeviceArena() = default;
  DeviceArena(const char* label, std::int64_t bytes)
      : block_(uninitialized<typename Space::execution_space>(label),
               static_cast<std::size_t>((bytes + alignment - 1) / alignment * (alignment / sizeof(std::uint64_t)))) {}

  // The next n T, uninitialized. The caller sized the arena with bytes_for of every array it takes.
  template <class T>
  array<T> take(std::int64_t n) {
    const std::int64_t bytes = bytes_for<T>(n);
    if (used_ + bytes > capacity())
      throw std::logic_error(detail::concat("spk::impl::DeviceArena: taking ", bytes, " bytes at ", used_, " of ",
                                       capacity(), "; the arena was sized too small"));
    auto* at = reinterpret_cast<T*>(reinterpret_cast<char*>(block_.data()) + used_);
    used_ += bytes;
    return array<T>(at, static_cast<std::size_t>(n));
  }

  std::int64_t capacity() const { return static_cast<std::int64_t>(block_.span() * sizeof(std::uint64_t)); }
  std::int64_t used() const { return used_; }

 private:
  Kokkos::View<std::uint64_t*, Space> block_;
  std::int64_t used_ = 0;
};

}  // namespace spk::impl
