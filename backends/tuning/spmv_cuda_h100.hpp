#pragma once
// spk SpMV tuning table 'spmv_cuda_h100': the fastest algorithm and launch shape per swept
// matrix, precision. Written by spk-bench --sweep; regenerate rather than edit.
// command: spk-bench --suite sweep-gpu --op spmv --precision both --algo automatic,cusparse --sweep spmv_cuda_h100.hpp --reps 10 --warmup 2 --quiet --csv sweep_h100.csv
// device: NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79 GiB, L2 50 MiB); back-end: Cuda (Kokkos 4.6.99); ceiling 2877.68 GB/s
#include <spk/select/spmv_tuning_entry.hpp>

namespace spk::tuning {

// matrix, scalar bytes, rows, mean, stddev, max row length, algorithm,
// {team, vector, rows/thread, stage, chunk, long row[, 1, 0, true: a pipelined stage]}, GB/s in the sweep[, true: it read packed column indices]
inline constexpr SpmvTuningEntry spmv_cuda_h100[] = {
    {"Cornell5", 4, 18660, 84.7564, 85.9895, 3156, SpmvAlgorithm::stream, {16, 32, 1, 8192, 0, 0}, 640.232},
    {"Cornell5", 8, 18660, 84.7564, 85.9895, 3156, SpmvAlgorithm::stream, {4, 32, 1, 1024, 0, 0}, 712.723},
    {"band:4000000:16", 4, 4000000, 16, 0, 16, SpmvAlgorithm::stream, {16, 16, 1, 4096, 0, 0}, 2334.89},
    {"band:4000000:16", 8, 4000000, 16, 0, 16, SpmvAlgorithm::stream, {64, 4, 1, 2048, 0, 0}, 2325.58, true},
    {"band:8000000:5", 4, 8000000, 5, 0, 5, SpmvAlgorithm::thread_row, {256, 1, 1, 1024, 0, 0}, 2543.78, true},
    {"band:8000000:5", 8, 8000000, 5, 0, 5, SpmvAlgorithm::stream, {16, 32, 1, 4096, 0, 0}, 2366.72, true},
    {"lap2d:1024", 4, 1048576, 4.99609, 0.0624389, 5, SpmvAlgorithm::thread_row, {128, 1, 1, 512, 0, 0}, 2083.07, true},
    {"lap2d:1024", 8, 1048576, 4.99609, 0.0624389, 5, SpmvAlgorithm::stream, {16, 16, 1, 4096, 0, 0}, 2368.81, true},
    {"lap2d:4096", 4, 16777216, 4.99902, 0.0312424, 5, SpmvAlgorithm::thread_row, {128, 1, 1, 512, 0, 0}, 3183.89, true},
    {"lap2d:4096", 8, 16777216, 4.99902, 0.0312424, 5, SpmvAlgorithm::thread_row, {256, 1, 1, 2048, 0, 0}, 2976.04, true},
    {"ogbl_ddi", 4, 4267, 500.544, 420.478, 2234, SpmvAlgorithm::stream, {8, 32, 1, 8192, 0, 0, 1, 0, true}, 1143.13},
    {"ogbl_ddi", 8, 4267, 500.544, 420.478, 2234, SpmvAlgorithm::stream, {4, 32, 1, 1024, 0, 0}, 1252.69},
    {"rmat:20:8", 4, 1048576, 7.79683, 75.2164, 23140, SpmvAlgorithm::stream, {8, 32, 1, 4096, 4096, 0}, 904.811},
    {"rmat:20:8", 8, 1048576, 7.79683, 75.2164, 23140, SpmvAlgorithm::flat, {4, 32, 1, 0, 1024, 0}, 1159.79},
    {"rmat:22:16", 4, 4194304, 15.5558, 186.109, 97631, SpmvAlgorithm::stream, {32, 8, 1, 4096, 4096, 0}, 1079.29},
    {"rmat:22:16", 8, 4194304, 15.5558, 186.109, 97631, SpmvAlgorithm::flat, {4, 32, 1, 0, 1024, 0}, 1300.65},
    {"skewed:1000000", 4, 1000000, 20.7995, 1599.88, 200000, SpmvAlgorithm::flat, {8, 32, 1, 0, 4096, 0}, 1421.25},
    {"skewed:1000000", 8, 1000000, 20.7995, 1599.88, 200000, SpmvAlgorithm::flat, {8, 32, 1, 0, 4096, 0}, 1787.95},
    {"skewed:4000000", 4, 4000000, 11.1999, 799.962, 200000, SpmvAlgorithm::stream, {32, 8, 1, 4096, 4096, 0}, 1123.24},
    {"skewed:4000000", 8, 4000000, 11.1999, 799.962, 200000, SpmvAlgorithm::stream, {8, 32, 1, 2048, 8192, 0}, 1134.45},
    {"st3d27:160", 4, 4096000, 26.6639, 1.7187, 27, SpmvAlgorithm::stream, {16, 8, 1, 8192, 0, 0, 1, 0, true}, 2624.31, true},
    {"st3d27:160", 8, 4096000, 26.6639, 1.7187, 27, SpmvAlgorithm::flat, {32, 4, 1, 0, 2048, 0}, 2774.53, true},
    {"st3d7:160", 4, 4096000, 6.9625, 0.192435, 7, SpmvAlgorithm::thread_row, {256, 1, 1, 1024, 0, 0}, 3003.15, true},
    {"st3d7:160", 8, 4096000, 6.9625, 0.192435, 7, SpmvAlgorithm::thread_row, {256, 1, 1, 2048, 0, 0}, 2849.49, true},
    {"uniform:1048576:128", 4, 1048576, 128, 0, 128, SpmvAlgorithm::vector_row, {8, 32, 4, 0, 0, 0}, 973.116},
    {"uniform:1048576:128", 8, 1048576, 128, 0, 128, SpmvAlgorithm::stream, {32, 8, 1, 4096, 0, 0, 1, 0, true}, 1379.76},
    {"uniform:2097152:32", 4, 2097152, 32, 0, 32, SpmvAlgorithm::stream, {16, 8, 1, 2048, 0, 0}, 993.588},
    {"uniform:2097152:32", 8, 2097152, 32, 0, 32, SpmvAlgorithm::stream, {64, 8, 1, 4096, 0, 0}, 1409.83},
    {"uniform:65536:16", 4, 65536, 16, 0, 16, SpmvAlgorithm::vector_row, {32, 8, 2, 0, 0, 0}, 560.548},
    {"uniform:65536:16", 8, 65536, 16, 0, 16, SpmvAlgorithm::stream, {128, 2, 1, 1024, 0, 0, 1, 0, true}, 820.749},
    {"uniform:8388608:4", 4, 8388608, 4, 0, 4, SpmvAlgorithm::stream, {16, 16, 1, 2048, 0, 0}, 886.302},
    {"uniform:8388608:4", 8, 8388608, 4, 0, 4, SpmvAlgorithm::long_row_split, {64, 4, 1, 0, 2048, 2048}, 681.596},
    {},  // end of table
};

}  // namespace spk::tuning
