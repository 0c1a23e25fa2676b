#pragma once
// spk SpMV tuning table 'spmv_cuda_h100': the fastest algorithm and launch shape per swept
// matrix, precision. Written by spk-bench --sweep; regenerate rather than edit.
// command: spk-bench --suite sweep-gpu --op spmv --precision both --algo automatic,cusparse --sweep spmv_cuda_h100.hpp --reps 10 --warmup 2 --quiet --csv sweep_h100.csv
// device: NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79 GiB, L2 50 MiB); back-end: Cuda (Kokkos 4.6.99); ceiling 2854.42 GB/s
#include <spk/select/spmv_tuning_entry.hpp>

namespace spk::tuning {

// matrix, scalar bytes, rows, mean, stddev, max row length, algorithm,
// {team, vector, rows/thread, stage, chunk, long row[, 1, 0, pipelined stage[, true: balanced row sums]]}, GB/s in the sweep[, true: it read packed column indices]
inline constexpr SpmvTuningEntry spmv_cuda_h100[] = {
    {"Cornell5", 4, 18660, 84.7564, 85.9895, 3156, SpmvAlgorithm::stream, {128, 2, 1, 4096, 0, 0, 1, 0, false, true}, 714.084},
    {"Cornell5", 8, 18660, 84.7564, 85.9895, 3156, SpmvAlgorithm::stream, {32, 4, 1, 1024, 0, 0, 1, 0, false, true}, 804.183},
    {"band:4000000:16", 4, 4000000, 16, 0, 16, SpmvAlgorithm::stream, {8, 32, 1, 4096, 0, 0}, 2312.98},
    {"band:4000000:16", 8, 4000000, 16, 0, 16, SpmvAlgorithm::stream, {32, 8, 1, 2048, 0, 0}, 2312.39, true},
    {"band:8000000:5", 4, 8000000, 5, 0, 5, SpmvAlgorithm::thread_row, {256, 1, 1, 1024, 0, 0}, 2497.12, true},
    {"band:8000000:5", 8, 8000000, 5, 0, 5, SpmvAlgorithm::stream, {64, 8, 1, 4096, 0, 0}, 2358.91, true},
    {"lap2d:1024", 4, 1048576, 4.99609, 0.0624389, 5, SpmvAlgorithm::thread_row, {128, 1, 1, 512, 0, 0}, 2017.67, true},
    {"lap2d:1024", 8, 1048576, 4.99609, 0.0624389, 5, SpmvAlgorithm::stream, {256, 1, 1, 4096, 0, 0}, 2325.7, true},
    {"lap2d:4096", 4, 16777216, 4.99902, 0.0312424, 5, SpmvAlgorithm::thread_row, {128, 1, 1, 512, 0, 0}, 3193.59, true},
    {"lap2d:4096", 8, 16777216, 4.99902, 0.0312424, 5, SpmvAlgorithm::thread_row, {256, 1, 1, 2048, 0, 0}, 2990.26, true},
    {"ogbl_ddi", 4, 4267, 500.544, 420.478, 2234, SpmvAlgorithm::stream, {8, 32, 1, 8192, 0, 0, 1, 0, false, true}, 1076.49},
    {"ogbl_ddi", 8, 4267, 500.544, 420.478, 2234, SpmvAlgorithm::stream, {4, 32, 1, 1024, 0, 0}, 1352.86},
    {"rmat:20:8", 4, 1048576, 7.79683, 75.2164, 23140, SpmvAlgorithm::stream, {8, 32, 1, 4096, 4096, 0}, 917.413},
    {"rmat:20:8", 8, 1048576, 7.79683, 75.2164, 23140, SpmvAlgorithm::flat, {4, 32, 1, 0, 1024, 0}, 1219.27},
    {"rmat:22:16", 4, 4194304, 15.5558, 186.109, 97631, SpmvAlgorithm::flat, {4, 32, 1, 0, 2048, 0}, 1138.88},
    {"rmat:22:16", 8, 4194304, 15.5558, 186.109, 97631, SpmvAlgorithm::flat, {4, 32, 1, 0, 1024, 0}, 1352.84},
    {"skewed:1000000", 4, 1000000, 20.7995, 1599.88, 200000, SpmvAlgorithm::flat, {4, 32, 1, 0, 2048, 0}, 1516.35},
    {"skewed:1000000", 8, 1000000, 20.7995, 1599.88, 200000, SpmvAlgorithm::flat, {8, 32, 1, 0, 4096, 0}, 1900.48},
    {"skewed:4000000", 4, 4000000, 11.1999, 799.962, 200000, SpmvAlgorithm::flat, {8, 32, 1, 0, 4096, 0}, 1154.8},
    {"skewed:4000000", 8, 4000000, 11.1999, 799.962, 200000, SpmvAlgorithm::flat, {8, 32, 1, 0, 2048, 0}, 1152.78},
    {"st3d27:160", 4, 4096000, 26.6639, 1.7187, 27, SpmvAlgorithm::stream, {16, 8, 1, 8192, 0, 0, 1, 0, true}, 2613.37, true},
    {"st3d27:160", 8, 4096000, 26.6639, 1.7187, 27, SpmvAlgorithm::flat, {16, 8, 1, 0, 2048, 0}, 2798.62, true},
    {"st3d7:160", 4, 4096000, 6.9625, 0.192435, 7, SpmvAlgorithm::thread_row, {128, 1, 1, 512, 0, 0}, 2923.12, true},
    {"st3d7:160", 8, 4096000, 6.9625, 0.192435, 7, SpmvAlgorithm::thread_row, {256, 1, 1, 2048, 0, 0}, 2871.09, true},
    {"uniform:1048576:128", 4, 1048576, 128, 0, 128, SpmvAlgorithm::vector_row, {8, 32, 2, 0, 0, 0}, 969.864},
    {"uniform:1048576:128", 8, 1048576, 128, 0, 128, SpmvAlgorithm::vector_row, {8, 32, 2, 0, 0, 0}, 1376.87},
    {"uniform:2097152:32", 4, 2097152, 32, 0, 32, SpmvAlgorithm::stream, {16, 32, 1, 8192, 0, 0}, 993.869},
    {"uniform:2097152:32", 8, 2097152, 32, 0, 32, SpmvAlgorithm::stream, {128, 4, 1, 4096, 0, 0}, 1410.65},
    {"uniform:65536:16", 4, 65536, 16, 0, 16, SpmvAlgorithm::vector_row, {32, 8, 2, 0, 0, 0}, 524.168},
    {"uniform:65536:16", 8, 65536, 16, 0, 16, SpmvAlgorithm::vector_row, {32, 8, 1, 0, 0, 0}, 730.322},
    {"uniform:8388608:4", 4, 8388608, 4, 0, 4, SpmvAlgorithm::stream, {128, 2, 1, 2048, 0, 0}, 873.317},
    {"uniform:8388608:4", 8, 8388608, 4, 0, 4, SpmvAlgorithm::long_row_split, {64, 4, 1, 0, 2048, 2048}, 681.024},
    {},  // end of table
};

}  // namespace spk::tuning
