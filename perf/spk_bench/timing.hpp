#pragma once
// Timing per design/PERFORMANCE.md: warm-up calls, then --reps individually timed calls; the median is reported.
// On CUDA and HIP a call is bracketed by events recorded on the Kokkos default instance's stream (the stream every
// kernel here, and the vendor libraries, run on), so host-side launch gaps inside the call count and nothing else
// does. On host back-ends the call is bracketed by Kokkos::fence() and std::chrono::steady_clock. Each timed call's
// host time (until the call returned, read from steady_clock) is recorded beside it.
//
// Memory (SpGEMM): AllocationTracker hooks Kokkos Tools' allocate/deallocate callbacks and follows the bytes live in
// one memory space, so its peak is the exact peak extra memory of a Kokkos-based call (spk, Kokkos Kernels) with
// the output included. The vendor adapters measure their own peak from cudaMemGetInfo/hipMemGetInfo samples.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <stdexcept>
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

// The GPU runtime's events, one code path for CUDA and HIP: the Stopwatch's marks and --streams' fork and join
// (streams.hpp) use them. Host back-ends have none.
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
#define SPK_BENCH_GPU_EVENTS 1
namespace gpu {
#if defined(KOKKOS_ENABLE_CUDA)
using event = cudaEvent_t;
inline cudaStream_t stream(const Kokkos::Cuda& space) { return space.cuda_stream(); }
inline bool create(event* e, bool timing) {
  return cudaEventCreateWithFlags(e, timing ? cudaEventDefault : cudaEventDisableTiming) == cudaSuccess;
}
inline bool record(event e, cudaStream_t s) { return cudaEventRecord(e, s) == cudaSuccess; }
inline bool wait(cudaStream_t s, event e) { return cudaStreamWaitEvent(s, e, 0) == cudaSuccess; }
inline bool synchronize(event e) { return cudaEventSynchronize(e) == cudaSuccess; }
inline bool elapsed(float* ms, event from, event to) { return cudaEventElapsedTime(ms, from, to) == cudaSuccess; }
inline void destroy(event e) { cudaEventDestroy(e); }
#else
using event = hipEvent_t;
inline hipStream_t stream(const HipSpace& space) { return space.hip_stream(); }
inline bool create(event* e, bool timing) {
  return hipEventCreateWithFlags(e, timing ? hipEventDefault : hipEventDisableTiming) == hipSuccess;
}
inline bool record(event e, hipStream_t s) { return hipEventRecord(e, s) == hipSuccess; }
inline bool wait(hipStream_t s, event e) { return hipStreamWaitEvent(s, e, 0) == hipSuccess; }
inline bool synchronize(event e) { return hipEventSynchronize(e) == hipSuccess; }
inline bool elapsed(float* ms, event from, event to) { return hipEventElapsedTime(ms, from, to) == hipSuccess; }
inline void destroy(event e) { (void)hipEventDestroy(e); }
#endif
}  // namespace gpu
#endif

inline void throw_unless(bool ok, const char* who, const char* call) {
  if (!ok) throw std::runtime_error(std::string(who) + ": " + call + " failed");
}

// Events of the GPU runtime, created as they are first asked for and destroyed with the object (timing: whether
// elapsed times can be read between them). Holds none on host back-ends.
class GpuEvents {
 public:
  explicit GpuEvents(bool timing) : timing_(timing) {}
  ~GpuEvents() {
#ifdef SPK_BENCH_GPU_EVENTS
    for (auto e : events_) gpu::destroy(e);
#endif
  }
  GpuEvents(const GpuEvents&) = delete;
  GpuEvents& operator=(const GpuEvents&) = delete;

#ifdef SPK_BENCH_GPU_EVENTS
  gpu::event operator[](std::size_t i) {
    while (events_.size() <= i) {
      gpu::event e;
      throw_unless(gpu::create(&e, timing_), "spk-bench", "creating a GPU event");
      events_.push_back(e);
    }
    return events_[i];
  }

 private:
  std::vector<gpu::event> events_;
#else
 private:
#endif
  bool timing_;
};

// Marks points in time on the default instance; elapsed() returns the milliseconds between consecutive marks.
class Stopwatch {
 public:
  Stopwatch() = default;
  Stopwatch(const Stopwatch&) = delete;
  Stopwatch& operator=(const Stopwatch&) = delete;

  void mark() {
#ifdef SPK_BENCH_GPU_EVENTS
    if constexpr (device_is_cuda() || device_is_hip())
      throw_unless(gpu::record(events_[used_++], gpu::stream(ExecSpace())), "spk-bench timing", "recording an event");
    else
#endif
    {
      Kokkos::fence();
      host_marks_.push_back(std::chrono::steady_clock::now());
    }
  }

  // Waits for the last mark and returns the intervals (ms); the marks are then cleared for reuse.
  std::vector<double> elapsed() {
    std::vector<double> out;
#ifdef SPK_BENCH_GPU_EVENTS
    if constexpr (device_is_cuda() || device_is_hip()) {
      if (used_ > 0)
        throw_unless(gpu::synchronize(events_[used_ - 1]), "spk-bench timing", "waiting for an event");
      for (std::size_t i = 1; i < used_; ++i) {
        float ms = 0;
        throw_unless(gpu::elapsed(&ms, events_[i - 1], events_[i]), "spk-bench timing", "reading an event's time");
        out.push_back(ms);
      }
      used_ = 0;
    } else
#endif
    {
      for (std::size_t i = 1; i < host_marks_.size(); ++i)
        out.push_back(std::chrono::duration<double, std::milli>(host_marks_[i] - host_marks_[i - 1]).count());
      host_marks_.clear();
    }
    return out;
  }

 private:
  GpuEvents events_{true};
  std::size_t used_ = 0;
  std::vector<std::chrono::steady_clock::time_point> host_marks_;
};

struct Timing {
  std::vector<double> samples_ms;
  // The host's share of each call: from just after its opening mark until the call returned. On GPUs, what the host
  // spends enqueueing the call (launches, and any wait inside it); on host back-ends, the whole call.
  std::vector<double> host_samples_ms;
  double median_ms() const { return median_of(samples_ms); }
  double host_median_ms() const {
    return host_samples_ms.empty() ? std::numeric_limits<double>::quiet_NaN() : median_of(host_samples_ms);
  }
  double min_ms() const { return samples_ms.empty() ? 0 : *std::min_element(samples_ms.begin(), samples_ms.end()); }
  double max_ms() const { return samples_ms.empty() ? 0 : *std::max_element(samples_ms.begin(), samples_ms.end()); }
};

// One call between two marks of watch, its time and its host time added to t.
template <class F>
void time_one_call(Stopwatch& watch, F&& call, Timing& t) {
  watch.mark();
  const auto issued = std::chrono::steady_clock::now();
  call();
  const auto returned = std::chrono::steady_clock::now();
  watch.mark();
  t.samples_ms.push_back(watch.elapsed().at(0));
  t.host_samples_ms.push_back(std::chrono::duration<double, std::milli>(returned - issued).count());
}

// warmup untimed calls, then reps calls each timed on its own.
template <class F>
Timing time_calls(F&& call, int warmup, int reps) {
  for (int i = 0; i < warmup; ++i) call();
  Kokkos::fence();
  Stopwatch watch;
  Timing t;
  for (int i = 0; i < reps; ++i) time_one_call(watch, call, t);
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
