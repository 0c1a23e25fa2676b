#pragma once
// spk SpMV tuning table 'spmv_cuda': the fastest algorithm and launch shape per swept matrix and precision.
// Written by spk-bench --sweep; regenerate rather than edit.
// command: spk-bench --suite sweep-gpu --precision float --algo automatic,cusparse,kokkoskernels --sweep spmv_cuda_float.hpp --sweep-hip spmv_hip_float.hpp --reps 10 --warmup 2 --quiet --json sweep_float.json
// command: spk-bench --suite sweep-gpu --precision double --algo automatic,cusparse,kokkoskernels --sweep spmv_cuda_double.hpp --sweep-hip spmv_hip_double.hpp --reps 10 --warmup 2 --quiet --json sweep_double.json
// (one sweep run per precision, their entries merged into this table)
// device: NVIDIA H200 (sm_90, 132 SMs, 139 GiB, L2 60 MiB); back-end: Cuda (Kokkos 4.6.99); ceiling 4195.35 / 4176.42 GB/s (float / double run)
#include <spk/select/spmv_tuning_entry.hpp>

namespace spk::tuning {

// matrix, scalar bytes, rows, mean, stddev, max row length, algorithm,
// {team, vector, rows/thread, stage, chunk, long row}, GB/s in the sweep[, true: it read packed column indices]
inline constexpr SpmvTuningEntry spmv_cuda[] = {
    {"Cornell5", 4, 18660, 84.7564, 85.9895, 3156, SpmvAlgorithm::stream, {8, 32, 1, 8192, 0, 0}, 632.683},
    {"Cornell5", 8, 18660, 84.7564, 85.9895, 3156, SpmvAlgorithm::stream, {8, 32, 1, 2048, 0, 0}, 803.115},
    {"band:4000000:16", 4, 4000000, 16, 0, 16, SpmvAlgorithm::stream, {256, 1, 1, 4096, 0, 0}, 2444.13},
    {"band:4000000:16", 8, 4000000, 16, 0, 16, SpmvAlgorithm::stream, {128, 2, 1, 2048, 0, 0}, 2580.46},
    {"band:8000000:5", 4, 8000000, 5, 0, 5, SpmvAlgorithm::thread_row, {256, 1, 1, 1024, 0, 0}, 2949.18, true},
    {"band:8000000:5", 8, 8000000, 5, 0, 5, SpmvAlgorithm::flat, {128, 2, 1, 0, 2048, 0}, 2597.23},
    {"lap2d:1024", 4, 1048576, 4.99609, 0.0624389, 5, SpmvAlgorithm::thread_row, {128, 1, 1, 512, 0, 0}, 3008.68, true},
    {"lap2d:1024", 8, 1048576, 4.99609, 0.0624389, 5, SpmvAlgorithm::stream, {32, 8, 1, 4096, 0, 0}, 2826.22, true},
    {"lap2d:4096", 4, 16777216, 4.99902, 0.0312424, 5, SpmvAlgorithm::thread_row, {128, 1, 1, 512, 0, 0}, 3720.59, true},
    {"lap2d:4096", 8, 16777216, 4.99902, 0.0312424, 5, SpmvAlgorithm::thread_row, {128, 1, 1, 1024, 0, 0}, 3752.41, true},
    {"ogbl_ddi", 4, 4267, 500.544, 420.478, 2234, SpmvAlgorithm::stream, {8, 32, 1, 8192, 0, 0}, 1179.64},
    {"ogbl_ddi", 8, 4267, 500.544, 420.478, 2234, SpmvAlgorithm::flat, {8, 32, 1, 0, 4096, 0}, 1354},
    {"rmat:20:8", 4, 1048576, 7.79683, 75.2164, 23140, SpmvAlgorithm::stream, {8, 32, 1, 4096, 0, 0}, 1049.35},
    {"rmat:20:8", 8, 1048576, 7.79683, 75.2164, 23140, SpmvAlgorithm::flat, {8, 32, 1, 0, 2048, 0}, 1374.15},
    {"rmat:22:16", 4, 4194304, 15.5558, 186.109, 97631, SpmvAlgorithm::flat, {8, 32, 1, 0, 2048, 0}, 1126.79},
    {"rmat:22:16", 8, 4194304, 15.5558, 186.109, 97631, SpmvAlgorithm::flat, {8, 32, 1, 0, 2048, 0}, 1510.04},
    {"skewed:1000000", 4, 1000000, 20.7995, 1599.88, 200000, SpmvAlgorithm::flat, {8, 32, 1, 0, 4096, 0}, 1604.28},
    {"skewed:1000000", 8, 1000000, 20.7995, 1599.88, 200000, SpmvAlgorithm::flat, {8, 32, 1, 0, 4096, 0}, 2012.86},
    {"skewed:4000000", 4, 4000000, 11.1999, 799.962, 200000, SpmvAlgorithm::flat, {8, 32, 1, 0, 2048, 0}, 1259.6},
    {"skewed:4000000", 8, 4000000, 11.1999, 799.962, 200000, SpmvAlgorithm::flat, {8, 32, 1, 0, 2048, 0}, 1485.57},
    {"st3d27:160", 4, 4096000, 26.6639, 1.7187, 27, SpmvAlgorithm::flat, {32, 8, 1, 0, 4096, 0}, 3051.19},
    {"st3d27:160", 8, 4096000, 26.6639, 1.7187, 27, SpmvAlgorithm::stream, {8, 32, 1, 4096, 0, 0}, 3170.43},
    {"st3d7:160", 4, 4096000, 6.9625, 0.192435, 7, SpmvAlgorithm::thread_row, {128, 1, 1, 512, 0, 0}, 3604.66, true},
    {"st3d7:160", 8, 4096000, 6.9625, 0.192435, 7, SpmvAlgorithm::thread_row, {256, 1, 1, 2048, 0, 0}, 3570.21, true},
    {"uniform:1048576:128", 4, 1048576, 128, 0, 128, SpmvAlgorithm::vector_row, {8, 32, 4, 0, 0, 0}, 1155.63},
    {"uniform:1048576:128", 8, 1048576, 128, 0, 128, SpmvAlgorithm::stream, {32, 8, 1, 4096, 0, 0}, 1607.94},
    {"uniform:2097152:32", 4, 2097152, 32, 0, 32, SpmvAlgorithm::stream, {8, 32, 1, 4096, 0, 0}, 1162.89},
    {"uniform:2097152:32", 8, 2097152, 32, 0, 32, SpmvAlgorithm::stream, {64, 4, 1, 2048, 0, 0}, 1642.57},
    {"uniform:65536:16", 4, 65536, 16, 0, 16, SpmvAlgorithm::stream, {8, 32, 1, 2048, 0, 0}, 599.833},
    {"uniform:65536:16", 8, 65536, 16, 0, 16, SpmvAlgorithm::vector_row, {32, 8, 1, 0, 0, 0}, 834.152},
    {"uniform:8388608:4", 4, 8388608, 4, 0, 4, SpmvAlgorithm::stream, {64, 4, 1, 2048, 0, 0}, 1187.88},
    {"uniform:8388608:4", 8, 8388608, 4, 0, 4, SpmvAlgorithm::vector_row, {64, 4, 2, 0, 0, 0}, 956.525},
    {},  // end of table
};

}  // namespace spk::tuning
