#pragma once
// Timing per design/PERFORMANCE.md: warm-up calls, then --reps individually timed calls; the median is reported.
// On CUDA and HIP a call is bracketed by events recorded on the Kokkos default instance's stream (the stream every
// kernel here, and the vendor libraries, run on), so host-side launch gaps inside the call count and nothing else
// does. On host back-ends the call is bracketed by Kokkos::fence() and std::chrono::steady_clock.
//
// Memory (SpGEMM): AllocationTracker hooks Kokkos Tools' allocate/deallocate callbacks and follows the bytes live in
// one memory space, so its peak is the exact peak extra memory of a Kokkos-based call (spk, Kokkos Kernels) with
// the output included. The vendor adapters measure their own peak from cudaMemGetInfo/hipMemGetInfo samples.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <Kokkos_Core.hpp>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif
#if defined(KOKKOS_ENABLE_HIP)
#include <hip/hip_runtime_api.h>
#endif

namespace spk_bench {

using ExecSpace = Kokkos::DefaultExecutionSpace;

#if defined(KOKKOS_ENABLE_HIP)
#if KOKKOS_VERSION >= 40000
using HipSpace = Kokkos::HIP;
#else
using HipSpace = Kokkos::Experimental::HIP;
#endif
#endif

constexpr bool device_is_cuda() {
#if defined(KOKKOS_ENABLE_CUDA)
  return std::is_same_v<ExecSpace, Kokkos::Cuda>;
#else
  return false;
#endif
}
constexpr bool device_is_hip() {
#if defined(KOKKOS_ENABLE_HIP)
  return std::is_same_v<ExecSpace, HipSpace>;
#else
  return false;
#endif
}

inline double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Marks points in time on the default instance; elapsed() returns the milliseconds between consecutive marks.
class Stopwatch {
 public:
  Stopwatch() = default;
  Stopwatch(const Stopwatch&) = delete;
  Stopwatch& operator=(const Stopwatch&) = delete;
  ~Stopwatch() { release(); }

  void mark() {
    if constexpr (device_is_cuda()) {
      mark_cuda();
    } else if constexpr (device_is_hip()) {
      mark_hip();
    } else {
      Kokkos::fence();
      host_marks_.push_back(std::chrono::steady_clock::now());
    }
  }

  // Waits for the last mark and returns the intervals (ms); the marks are then cleared for reuse.
  std::vector<double> elapsed() {
    std::vector<double> out;
    if constexpr (device_is_cuda()) {
      elapsed_cuda(out);
    } else if constexpr (device_is_hip()) {
      elapsed_hip(out);
    } else {
      for (std::size_t i = 1; i < host_marks_.size(); ++i)
        out.push_back(std::chrono::duration<double, std::milli>(host_marks_[i] - host_marks_[i - 1]).count());
      host_marks_.clear();
    }
    return out;
  }

 private:
  void mark_cuda() {
#if defined(KOKKOS_ENABLE_CUDA)
    if (used_ == cuda_events_.size()) {
      cudaEvent_t e;
      throw_if(cudaEventCreate(&e) != cudaSuccess, "cudaEventCreate");
      cuda_events_.push_back(e);
    }
    throw_if(cudaEventRecord(cuda_events_[used_++], Kokkos::Cuda().cuda_stream()) != cudaSuccess, "cudaEventRecord");
#endif
  }
  void elapsed_cuda(std::vector<double>& out) {
#if defined(KOKKOS_ENABLE_CUDA)
    if (used_ == 0) return;
    throw_if(cudaEventSynchronize(cuda_events_[used_ - 1]) != cudaSuccess, "cudaEventSynchronize");
    for (std::size_t i = 1; i < used_; ++i) {
      float ms = 0;
      throw_if(cudaEventElapsedTime(&ms, cuda_events_[i - 1], cuda_events_[i]) != cudaSuccess,
               "cudaEventElapsedTime");
      out.push_back(ms);
    }
    used_ = 0;
#else
    (void)out;
#endif
  }
  void mark_hip() {
#if defined(KOKKOS_ENABLE_HIP)
    if (used_ == hip_events_.size()) {
      hipEvent_t e;
      throw_if(hipEventCreate(&e) != hipSuccess, "hipEventCreate");
      hip_events_.push_back(e);
    }
    throw_if(hipEventRecord(hip_events_[used_++], HipSpace().hip_stream()) != hipSuccess, "hipEventRecord");
#endif
  }
  void elapsed_hip(std::vector<double>& out) {
#if defined(KOKKOS_ENABLE_HIP)
    if (used_ == 0) return;
    throw_if(hipEventSynchronize(hip_events_[used_ - 1]) != hipSuccess, "hipEventSynchronize");
    for (std::size_t i = 1; i < used_; ++i) {
      float ms = 0;
      throw_if(hipEventElapsedTime(&ms, hip_events_[i - 1], hip_events_[i]) != hipSuccess, "hipEventElapsedTime");
      out.push_back(ms);
    }
    used_ = 0;
#else
    (void)out;
#endif
  }
  static void throw_if(bool failed, const char* call) {
    if (failed) throw std::runtime_error(std::string("spk-bench timing: ") + call + " failed");
  }
  void release() {
#if defined(KOKKOS_ENABLE_CUDA)
    for (auto e : cuda_events_) cudaEventDestroy(e);
#endif
#if defined(KOKKOS_ENABLE_HIP)
    for (auto e : hip_events_) (void)hipEventDestroy(e);
#endif
  }
  std::size_t used_ = 0;
  std::vector<std::chrono::steady_clock::time_point> host_marks_;
#if defined(KOKKOS_ENABLE_CUDA)
  std::vector<cudaEvent_t> cuda_events_;
#endif
#if defined(KOKKOS_ENABLE_HIP)
  std::vector<hipEvent_t> hip_events_;
#endif
};

struct Timing {
  std::vector<double> samples_ms;
  double median_ms() const { return median_of(samples_ms); }
  double min_ms() const { return samples_ms.empty() ? 0 : *std::min_element(samples_ms.begin(), samples_ms.end()); }
  double max_ms() const { return samples_ms.empty() ? 0 : *std::max_element(samples_ms.begin(), samples_ms.end()); }
};

// warmup untimed calls, then reps calls each timed on its own.
template <class F>
Timing time_calls(F&& call, int warmup, int reps) {
  for (int i = 0; i < warmup; ++i) call();
  Kokkos::fence();
  Stopwatch watch;
  Timing t;
  for (int i = 0; i < reps; ++i) {
    watch.mark();
    call();
    watch.mark();
    t.samples_ms.push_back(watch.elapsed().at(0));
  }
  return t;
}

// A call made of consecutive phases (SpGEMM: symbolic, numeric). Each repetition runs prepare() untimed, then the
// phases back to back with a mark between them; the medians are taken per phase and over the per-rep totals.
struct PhaseTiming {
  std::vector<Timing> phases;
  Timing total;
};

inline PhaseTiming time_phases(const std::function<void()>& prepare, const std::vector<std::function<void()>>& phases,
                               int warmup, int reps) {
  const auto run_once = [&]() {
    for (const auto& p : phases) p();
  };
  for (int i = 0; i < warmup; ++i) {
    prepare();
    run_once();
  }
  Kokkos::fence();
  Stopwatch watch;
  PhaseTiming t;
  t.phases.resize(phases.size());
  for (int i = 0; i < reps; ++i) {
    prepare();
    watch.mark();
    for (const auto& p : phases) {
      p();
      watch.mark();
    }
    const auto intervals = watch.elapsed();
    double sum = 0;
    for (std::size_t k = 0; k < intervals.size(); ++k) {
      t.phases[k].samples_ms.push_back(intervals[k]);
      sum += intervals[k];
    }
    t.total.samples_ms.push_back(sum);
  }
  return t;
}

// Follows the bytes live in one Kokkos memory space (by its name(), e.g. "Cuda", "Host") between construction and
// destruction, through Kokkos Tools' allocation callbacks. One tracker at a time.
class AllocationTracker {
 public:
  explicit AllocationTracker(const char* space_name) {
    std::strncpy(state().space, space_name, sizeof(state().space) - 1);
    state().live = state().peak = 0;
    Kokkos::Tools::Experimental::set_allocate_data_callback(&on_allocate);
    Kokkos::Tools::Experimental::set_deallocate_data_callback(&on_deallocate);
  }
  ~AllocationTracker() {
    Kokkos::Tools::Experimental::set_allocate_data_callback(nullptr);
    Kokkos::Tools::Experimental::set_deallocate_data_callback(nullptr);
  }
  AllocationTracker(const AllocationTracker&) = delete;
  AllocationTracker& operator=(const AllocationTracker&) = delete;
  std::int64_t peak_bytes() const { return state().peak; }
  std::int64_t live_bytes() const { return state().live; }
  void reset_peak() { state().peak = state().live; }

 private:
  struct State {
    char space[64] = {};
    std::int64_t live = 0, peak = 0;
  };
  static State& state() {
    static State s;
    return s;
  }
  static void on_allocate(const Kokkos_Profiling_SpaceHandle handle, const char*, const void*, const uint64_t size) {
    if (std::strncmp(handle.name, state().space, sizeof(state().space)) != 0) return;
    state().live += static_cast<std::int64_t>(size);
    state().peak = std::max(state().peak, state().live);
  }
  static void on_deallocate(const Kokkos_Profiling_SpaceHandle handle, const char*, const void*,
                            const uint64_t size) {
    if (std::strncmp(handle.name, state().space, sizeof(state().space)) != 0) return;
    state().live -= static_cast<std::int64_t>(size);
  }
};

}  // namespace spk_bench
