#pragma once
// What the run ran on, for the header and the reports.
#include <string>

namespace spk_bench {

std::string device_description();  // GPU name and size, or the CPU model and thread count
std::string backend_name();        // Kokkos's default execution space
std::string kokkos_version();      // "4.7.0"
std::string tuning_tables();       // the tables the selectors read here: "SpMV spmv_cuda_h100, SpMM spmm_cuda"

}  // namespace spk_bench
