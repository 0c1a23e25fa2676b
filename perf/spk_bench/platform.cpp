#include "platform.hpp"

#include <fstream>
#include <sstream>

#include <Kokkos_Core.hpp>
#include <spk/impl/host_row_dot.hpp>
#include <spk/impl/host_simd.hpp>
#include <spk/select/spmm_select.hpp>
#include <spk/select/spmv_select.hpp>

#include "timing.hpp"

namespace spk_bench {

std::string device_description() {
  std::ostringstream os;
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (device_is_cuda()) {
    int dev = 0;
    cudaDeviceProp p{};
    if (cudaGetDevice(&dev) == cudaSuccess && cudaGetDeviceProperties(&p, dev) == cudaSuccess) {
      os << p.name << " (sm_" << p.major << p.minor << ", " << p.multiProcessorCount << " SMs, "
         << (p.totalGlobalMem >> 30) << " GiB, L2 " << (p.l2CacheSize >> 20) << " MiB)";
      return os.str();
    }
  }
#endif
#if defined(KOKKOS_ENABLE_HIP)
  if constexpr (device_is_hip()) {
    int dev = 0;
    hipDeviceProp_t p{};
    if (hipGetDevice(&dev) == hipSuccess && hipGetDeviceProperties(&p, dev) == hipSuccess) {
      os << p.name << " (" << p.gcnArchName << ", " << p.multiProcessorCount << " CUs, "
         << (p.totalGlobalMem >> 30) << " GiB)";
      return os.str();
    }
  }
#endif
  std::string model = "unknown CPU";
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);)
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) model = line.substr(line.find_first_not_of(" \t", colon + 1));
      break;
    }
  os << model << ", " << ExecSpace().concurrency() << " thread" << (ExecSpace().concurrency() == 1 ? "" : "s")
     << " in " << ExecSpace::name() << ", host SpMM code for " << spk::impl::to_string(spk::impl::host_isa());
  if (spk::impl::host_isa() != spk::impl::HostIsa::baseline)
    os << ", SpMV row vectors by " << spk::impl::to_string(spk::impl::host_gather_form());
  return os.str();
}

std::string backend_name() { return ExecSpace::name(); }

std::string kokkos_version() {
  return std::to_string(KOKKOS_VERSION / 10000) + "." + std::to_string(KOKKOS_VERSION / 100 % 100) + "." +
         std::to_string(KOKKOS_VERSION % 100);
}

std::string tuning_tables() {
  const char* forced = std::getenv("SPK_TUNING_DEVICE");
  return std::string("SpMV ") + spk::select::spmv_tuning<ExecSpace>().name + ", SpMM " +
         spk::select::spmm_tuning<ExecSpace>().name +
         (forced ? std::string(" (SPK_TUNING_DEVICE=") + forced + ")" : std::string());
}

}  // namespace spk_bench
