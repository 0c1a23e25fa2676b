#pragma once
// HostMailbox: an integer a kernel writes and the host reads after a fence, in pinned host memory on GPUs. Reading a
// count back through deep_copy costs a copy of its own: on an H100 (probe, perf/results/h100-cuda.md) compacting
// ogbl_ddi's and Cornell5's row-block starts took 33-42 us with the count copied back, 25-32 us with it written to
// pinned memory, of which 9-12 are the allocation of the starts. One slot per execution space type, allocated at its
// first use and freed at Kokkos::finalize; a mailbox holds the slot's lock from before the launch until the read, so
// two host threads never share the slot (whether they may launch on one instance at once is Kokkos's rule).
#include <cstdint>
#include <mutex>
#include <type_traits>

#include <Kokkos_Core.hpp>

namespace spk::impl {

// The host memory a kernel of Exec writes directly: pinned memory on CUDA and HIP (Kokkos 4); void on host back-ends,
// whose kernels write host memory anyway.
template <class Exec>
struct pinned_space {
  using type = void;
};
#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct pinned_space<Kokkos::Cuda> {
  using type = Kokkos::CudaHostPinnedSpace;
};
#endif
#if defined(KOKKOS_ENABLE_HIP) && KOKKOS_VERSION >= 40000
template <>
struct pinned_space<Kokkos::HIP> {
  using type = Kokkos::HIPHostPinnedSpace;
};
#endif

template <class Exec>
inline constexpr bool has_host_mailbox = !std::is_void_v<typename pinned_space<Exec>::type>;

template <class Exec>
class HostMailbox {
  static_assert(has_host_mailbox<Exec>, "spk::impl::HostMailbox: Exec's kernels cannot write pinned host memory");
  using Space = typename pinned_space<Exec>::type;

 public:
  HostMailbox() : lock_(mutex()), slot_(slot_storage()) {
    if (slot_ == nullptr) {
      slot_ = static_cast<std::int64_t*>(Kokkos::kokkos_malloc<Space>("spk::host_mailbox", sizeof(std::int64_t)));
      slot_storage() = slot_;
      Kokkos::push_finalize_hook([] {
        Kokkos::kokkos_free<Space>(slot_storage());
        slot_storage() = nullptr;
      });
    }
  }

  // Where a kernel launched while this mailbox lives writes its value.
  std::int64_t* slot() const { return slot_; }

  // The value, once exec's kernels have finished.
  std::int64_t read(const Exec& exec) const {
    exec.fence();
    return *static_cast<volatile std::int64_t*>(slot_);
  }

 private:
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  static std::int64_t*& slot_storage() {
    static std::int64_t* slot = nullptr;
    return slot;
  }

  std::unique_lock<std::mutex> lock_;
  std::int64_t* slot_;
};

}  // namespace spk::impl
