#pragma once
// spk SpMV tuning table 'spmv_hip': the fastest algorithm and launch shape per swept matrix and precision.
// Written by spk-bench --sweep; regenerate rather than edit.
// command: spk-bench --suite sweep-gpu --precision float --algo automatic,cusparse,kokkoskernels --sweep spmv_cuda_float.hpp --sweep-hip spmv_hip_float.hpp --reps 10 --warmup 2 --quiet --json sweep_float.json
// command: spk-bench --suite sweep-gpu --precision double --algo automatic,cusparse,kokkoskernels --sweep spmv_cuda_double.hpp --sweep-hip spmv_hip_double.hpp --reps 10 --warmup 2 --quiet --json sweep_double.json
// (one sweep run per precision, their entries merged into this table)
// device: NVIDIA H200 (sm_90, 132 SMs, 139 GiB, L2 60 MiB); back-end: Cuda (Kokkos 4.6.99); ceiling 4369.21 / 4182.67 GB/s (float / double run)
// HIP starting table: derived from the measurements above with a full warp (32) widened to a full
// wavefront (64) and teams of at least 64 threads; not measured on an AMD GPU (nor is packing, so no
// entry packs column indices).
#include <spk/select/spmv_tuning_entry.hpp>

namespace spk::tuning {

// matrix, scalar bytes, rows, mean, stddev, max row length, algorithm,
// {team, vector, rows/thread, stage, chunk, long row}, GB/s in the sweep[, true: it read packed column indices]
inline constexpr SpmvTuningEntry spmv_hip[] = {
    {"Cornell5", 4, 18660, 84.7564, 85.9895, 3156, SpmvAlgorithm::stream, {8, 64, 1, 4096, 0, 0}, 620.009},
    {"Cornell5", 8, 18660, 84.7564, 85.9895, 3156, SpmvAlgorithm::stream, {8, 64, 1, 2048, 0, 0}, 791.034},
    {"band:4000000:16", 4, 4000000, 16, 0, 16, SpmvAlgorithm::stream, {8, 64, 1, 4096, 0, 0}, 2502.86},
    {"band:4000000:16", 8, 4000000, 16, 0, 16, SpmvAlgorithm::stream, {64, 4, 1, 2048, 0, 0}, 2557.17},
    {"band:8000000:5", 4, 8000000, 5, 0, 5, SpmvAlgorithm::thread_row, {256, 1, 1, 1024, 0, 0}, 2876.74},
    {"band:8000000:5", 8, 8000000, 5, 0, 5, SpmvAlgorithm::flat, {32, 8, 1, 0, 2048, 0}, 2592.35},
    {"lap2d:1024", 4, 1048576, 4.99609, 0.0624389, 5, SpmvAlgorithm::thread_row, {128, 1, 1, 512, 0, 0}, 2713.8},
    {"lap2d:1024", 8, 1048576, 4.99609, 0.0624389, 5, SpmvAlgorithm::stream, {32, 8, 1, 4096, 0, 0}, 2812.56},
    {"lap2d:4096", 4, 16777216, 4.99902, 0.0312424, 5, SpmvAlgorithm::thread_row, {128, 1, 1, 512, 0, 0}, 3649.11},
    {"lap2d:4096", 8, 16777216, 4.99902, 0.0312424, 5, SpmvAlgorithm::thread_row, {128, 1, 1, 1024, 0, 0}, 3754.25},
    {"ogbl_ddi", 4, 4267, 500.544, 420.478, 2234, SpmvAlgorithm::stream, {8, 64, 1, 8192, 0, 0}, 1023.03},
    {"ogbl_ddi", 8, 4267, 500.544, 420.478, 2234, SpmvAlgorithm::flat, {8, 64, 1, 0, 4096, 0}, 1285.76},
    {"rmat:20:8", 4, 1048576, 7.79683, 75.2164, 23140, SpmvAlgorithm::stream, {8, 64, 1, 4096, 0, 0}, 1015.46},
    {"rmat:20:8", 8, 1048576, 7.79683, 75.2164, 23140, SpmvAlgorithm::stream, {8, 64, 1, 4096, 0, 0}, 1344.61},
    {"rmat:22:16", 4, 4194304, 15.5558, 186.109, 97631, SpmvAlgorithm::flat, {8, 64, 1, 0, 2048, 0}, 1122.26},
    {"rmat:22:16", 8, 4194304, 15.5558, 186.109, 97631, SpmvAlgorithm::flat, {8, 64, 1, 0, 2048, 0}, 1506.14},
    {"skewed:1000000", 4, 1000000, 20.7995, 1599.88, 200000, SpmvAlgorithm::flat, {8, 64, 1, 0, 4096, 0}, 1559.4},
    {"skewed:1000000", 8, 1000000, 20.7995, 1599.88, 200000, SpmvAlgorithm::flat, {8, 64, 1, 0, 4096, 0}, 1994.98},
    {"skewed:4000000", 4, 4000000, 11.1999, 799.962, 200000, SpmvAlgorithm::flat, {8, 64, 1, 0, 4096, 0}, 1253.69},
    {"skewed:4000000", 8, 4000000, 11.1999, 799.962, 200000, SpmvAlgorithm::flat, {8, 64, 1, 0, 2048, 0}, 1472.65},
    {"st3d27:160", 4, 4096000, 26.6639, 1.7187, 27, SpmvAlgorithm::flat, {64, 4, 1, 0, 4096, 0}, 3041.21},
    {"st3d27:160", 8, 4096000, 26.6639, 1.7187, 27, SpmvAlgorithm::stream, {64, 4, 1, 4096, 0, 0}, 3165.47},
    {"st3d7:160", 4, 4096000, 6.9625, 0.192435, 7, SpmvAlgorithm::thread_row, {128, 1, 1, 512, 0, 0}, 3467.63},
    {"st3d7:160", 8, 4096000, 6.9625, 0.192435, 7, SpmvAlgorithm::thread_row, {256, 1, 1, 2048, 0, 0}, 3515.76},
    {"uniform:1048576:128", 4, 1048576, 128, 0, 128, SpmvAlgorithm::vector_row, {8, 64, 4, 0, 0, 0}, 1141.46},
    {"uniform:1048576:128", 8, 1048576, 128, 0, 128, SpmvAlgorithm::vector_row, {8, 64, 2, 0, 0, 0}, 1610.71},
    {"uniform:2097152:32", 4, 2097152, 32, 0, 32, SpmvAlgorithm::stream, {8, 64, 1, 4096, 0, 0}, 1145.93},
    {"uniform:2097152:32", 8, 2097152, 32, 0, 32, SpmvAlgorithm::stream, {16, 16, 1, 2048, 0, 0}, 1640.74},
    {"uniform:65536:16", 4, 65536, 16, 0, 16, SpmvAlgorithm::vector_row, {64, 4, 2, 0, 0, 0}, 500.821},
    {"uniform:65536:16", 8, 65536, 16, 0, 16, SpmvAlgorithm::vector_row, {32, 8, 1, 0, 0, 0}, 816.888},
    {"uniform:8388608:4", 4, 8388608, 4, 0, 4, SpmvAlgorithm::stream, {64, 4, 1, 4096, 0, 0}, 1181.74},
    {"uniform:8388608:4", 8, 8388608, 4, 0, 4, SpmvAlgorithm::vector_row, {64, 4, 2, 0, 0, 0}, 953.837},
    {},  // end of table
};

}  // namespace spk::tuning
