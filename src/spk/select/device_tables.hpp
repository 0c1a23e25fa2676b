#pragma once
// Tuning tables per GPU model. A back-end's table (backends/tuning/<op>_<backend>.hpp) comes from a sweep on one GPU;
// where a sweep on another model of the same back-end chose other shapes, that model gets a table of its own
// (<op>_<backend>_<model>.hpp), picked at run time by the device's name. The H100 and the H200 share an architecture
// but not a memory system (3.35 against 4.8 TB/s), and their SpMV sweeps disagree on a few matrices by more than
// noise: each table run on the other GPU cost it 4-8% on some matrices (perf/results/h100-cuda.md, h200-cuda.md).
// SPK_TUNING_DEVICE=<name> makes the selectors choose as if the device had that name ("default": the back-end's own
// table), so that one binary can run two tables side by side.
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <type_traits>

#include <Kokkos_Core.hpp>

namespace spk::select {

// A table and the name reports give it.
template <class Entry>
struct TuningTable {
  const Entry* entries = nullptr;
  const char* name = "none";
};

// A table for the devices whose name contains `model` (e.g. "H100").
template <class Entry>
struct ModelTable {
  const char* model;
  TuningTable<Entry> table;
};

// The first model table whose model the device name contains, else the back-end's table.
template <class Entry, std::size_t N>
TuningTable<Entry> table_for_device(const std::string& device, const ModelTable<Entry> (&models)[N],
                                    TuningTable<Entry> fallback) {
  for (const auto& m : models)
    if (device.find(m.model) != std::string::npos) return m.table;
  return fallback;
}

namespace detail {
// Device names by device number, asked of the runtime once each (it takes a millisecond; plans are built often).
template <class Query>
std::string cached_device_name(int device, const Query& query) {
  static std::mutex lock;
  static std::map<int, std::string> names;
  const std::lock_guard<std::mutex> guard(lock);
  const auto it = names.find(device);
  return it != names.end() ? it->second : names.emplace(device, query(device)).first->second;
}
}  // namespace detail

// The name the selectors match model tables against: SPK_TUNING_DEVICE when set, else the GPU's name as its
// runtime reports it (e.g. "NVIDIA H100 80GB HBM3"); empty on host back-ends.
template <class ExecSpace>
std::string tuning_device_name() {
  if (const char* forced = std::getenv("SPK_TUNING_DEVICE")) return forced;
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>)
    return detail::cached_device_name(ExecSpace().cuda_device(), [](int device) {
      cudaDeviceProp p{};
      return cudaGetDeviceProperties(&p, device) == cudaSuccess ? std::string(p.name) : std::string();
    });
#endif
#if defined(KOKKOS_ENABLE_HIP)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::HIP>)
    return detail::cached_device_name(ExecSpace().hip_device(), [](int device) {
      hipDeviceProp_t p{};
      return hipGetDeviceProperties(&p, device) == hipSuccess ? std::string(p.name) + " " + p.gcnArchName
                                                              : std::string();
    });
#endif
  return {};
}

}  // namespace spk::select
