#pragma once
// spk SpMV tuning table 'spmv_hip': the fastest algorithm and launch shape per swept matrix and precision.
// Written by spk-bench --sweep; regenerate rather than edit.
// command: .carry/bin/spk-bench --suite sweep-gpu --precision float --algo automatic,cusparse,kokkoskernels --sweep backends/tuning/spmv_cuda.hpp --sweep-hip backends/tuning/spmv_hip.hpp --reps 10 --warmup 2 
// command: .carry/bin/spk-bench --suite sweep-gpu --precision double --algo automatic,cusparse,kokkoskernels --sweep backends/tuning/spmv_cuda.hpp --sweep-hip backends/tuning/spmv_hip.hpp --reps 10 --warmup 2 
// (one sweep run per precision, their entries merged into this table)
// device: NVIDIA H200 (sm_90, 132 SMs, 139 GiB, L2 60 MiB); back-end: Cuda (Kokkos 4.6.99); ceiling 4315.13 GB/s
// HIP starting table: derived from the measurements above with a full warp (32) widened to a full
// wavefront (64) and teams of at least 64 threads; not measured on an AMD GPU.
#include <spk/select/spmv_tuning_entry.hpp>

namespace spk::tuning {

// matrix, scalar bytes, rows, mean, stddev, max row length, algorithm,
// {team, vector, rows/thread, stage, chunk, long row}, GB/s in the sweep
inline constexpr SpmvTuningEntry spmv_hip[] = {
    {"Cornell5", 4, 18660, 84.7564, 85.9895, 3156, SpmvAlgorithm::stream, {8, 64, 1, 4096, 0, 0}, 671.203},
    {"Cornell5", 8, 18660, 84.7564, 85.9895, 3156, SpmvAlgorithm::stream, {8, 64, 1, 2048, 0, 0}, 845.798},
    {"band:4000000:16", 4, 4000000, 16, 0, 16, SpmvAlgorithm::vector_row, {128, 2, 1, 0, 0, 0}, 2047.5},
    {"band:4000000:16", 8, 4000000, 16, 0, 16, SpmvAlgorithm::flat, {128, 2, 1, 0, 4096, 0}, 2028.4},
    {"band:8000000:5", 4, 8000000, 5, 0, 5, SpmvAlgorithm::thread_row, {256, 1, 1, 1024, 0, 0}, 2651.44},
    {"band:8000000:5", 8, 8000000, 5, 0, 5, SpmvAlgorithm::thread_row, {256, 1, 1, 1024, 0, 0}, 2333.04},
    {"lap2d:1024", 4, 1048576, 4.99609, 0.0624389, 5, SpmvAlgorithm::thread_row, {128, 1, 1, 512, 0, 0}, 2193.06},
    {"lap2d:1024", 8, 1048576, 4.99609, 0.0624389, 5, SpmvAlgorithm::thread_row, {128, 1, 1, 512, 0, 0}, 2455.39},
    {"lap2d:4096", 4, 16777216, 4.99902, 0.0312424, 5, SpmvAlgorithm::thread_row, {128, 1, 1, 512, 0, 0}, 3143.86},
    {"lap2d:4096", 8, 16777216, 4.99902, 0.0312424, 5, SpmvAlgorithm::thread_row, {128, 1, 1, 1024, 0, 0}, 3342.12},
    {"ogbl_ddi", 4, 4267, 500.544, 420.478, 2234, SpmvAlgorithm::stream, {8, 64, 1, 4096, 0, 0}, 1059.46},
    {"ogbl_ddi", 8, 4267, 500.544, 420.478, 2234, SpmvAlgorithm::stream, {8, 64, 1, 2048, 0, 0}, 1247.83},
    {"rmat:20:8", 4, 1048576, 7.79683, 75.2164, 23140, SpmvAlgorithm::stream, {64, 4, 1, 4096, 0, 0}, 653.555},
    {"rmat:20:8", 8, 1048576, 7.79683, 75.2164, 23140, SpmvAlgorithm::stream, {64, 4, 1, 2048, 0, 0}, 926.824},
    {"rmat:22:16", 4, 4194304, 15.5558, 186.109, 97631, SpmvAlgorithm::stream, {64, 4, 1, 4096, 0, 0}, 991.867},
    {"rmat:22:16", 8, 4194304, 15.5558, 186.109, 97631, SpmvAlgorithm::flat, {64, 4, 1, 0, 2048, 0}, 1167.74},
    {"skewed:1000000", 4, 1000000, 20.7995, 1599.88, 200000, SpmvAlgorithm::long_row_split, {64, 4, 1, 0, 8192, 8192}, 1380.43},
    {"skewed:1000000", 8, 1000000, 20.7995, 1599.88, 200000, SpmvAlgorithm::long_row_split, {64, 4, 1, 0, 8192, 8192}, 1743.18},
    {"skewed:4000000", 4, 4000000, 11.1999, 799.962, 200000, SpmvAlgorithm::long_row_split, {64, 4, 1, 0, 8192, 8192}, 1124.63},
    {"skewed:4000000", 8, 4000000, 11.1999, 799.962, 200000, SpmvAlgorithm::long_row_split, {64, 4, 1, 0, 8192, 8192}, 1275.01},
    {"st3d27:160", 4, 4096000, 26.6639, 1.7187, 27, SpmvAlgorithm::flat, {256, 1, 1, 0, 4096, 0}, 2783.5},
    {"st3d27:160", 8, 4096000, 26.6639, 1.7187, 27, SpmvAlgorithm::flat, {256, 1, 1, 0, 4096, 0}, 2978.49},
    {"st3d7:160", 4, 4096000, 6.9625, 0.192435, 7, SpmvAlgorithm::thread_row, {128, 1, 1, 512, 0, 0}, 2868.93},
    {"st3d7:160", 8, 4096000, 6.9625, 0.192435, 7, SpmvAlgorithm::thread_row, {256, 1, 1, 2048, 0, 0}, 3199.23},
    {"uniform:1048576:128", 4, 1048576, 128, 0, 128, SpmvAlgorithm::vector_row, {8, 64, 1, 0, 0, 0}, 1144.71},
    {"uniform:1048576:128", 8, 1048576, 128, 0, 128, SpmvAlgorithm::vector_row, {8, 64, 1, 0, 0, 0}, 1611.09},
    {"uniform:2097152:32", 4, 2097152, 32, 0, 32, SpmvAlgorithm::stream, {128, 2, 1, 4096, 0, 0}, 1138.65},
    {"uniform:2097152:32", 8, 2097152, 32, 0, 32, SpmvAlgorithm::stream, {64, 4, 1, 2048, 0, 0}, 1603.23},
    {"uniform:65536:16", 4, 65536, 16, 0, 16, SpmvAlgorithm::vector_row, {32, 8, 1, 0, 0, 0}, 545.095},
    {"uniform:65536:16", 8, 65536, 16, 0, 16, SpmvAlgorithm::vector_row, {32, 8, 1, 0, 0, 0}, 827.791},
    {"uniform:8388608:4", 4, 8388608, 4, 0, 4, SpmvAlgorithm::thread_row, {256, 1, 1, 1024, 0, 0}, 1097.99},
    {"uniform:8388608:4", 8, 8388608, 4, 0, 4, SpmvAlgorithm::thread_row, {256, 1, 1, 1024, 0, 0}, 969.636},
    {},  // end of table
};

}  // namespace spk::tuning
