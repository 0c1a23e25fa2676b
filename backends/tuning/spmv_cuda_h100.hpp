#pragma once
// spk SpMV tuning table 'spmv_cuda_h100': the fastest algorithm and launch shape per swept
// matrix, precision. Written by spk-bench --sweep; regenerate rather than edit.
// command: spk-bench --suite sweep-gpu --op spmv --precision both --algo automatic,cusparse --sweep spmv_cuda_h100.hpp --reps 30 --warmup 3 --quiet --csv sweep_h100.csv
// device: NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79 GiB, L2 50 MiB); back-end: Cuda (Kokkos 4.6.99); ceiling 2850.18 GB/s
// command (2026-12-07, the entries of skewed:1000000 and skewed:4000000 replaced by this sweep's on an H100, stream's
// pieces first in the league and column windows among the candidates, ceiling 2863.43 GB/s:
// spk-bench --matrix gen:skewed:1000000 gen:skewed:4000000 --op spmv --precision both --algo automatic,cusparse
//   --sweep spmv_cuda_h100.hpp --reps 30 --warmup 3 --quiet --csv sweep_h100.csv)
#include <spk/select/spmv_tuning_entry.hpp>

namespace spk::tuning {

// matrix, scalar bytes, rows, mean, stddev, max row length, algorithm,
// {team, vector, rows/thread, stage, chunk, long row[, 1, 0, pipelined stage[, true: balanced row sums]]}, GB/s in the sweep[, true: it read packed column indices]
inline constexpr SpmvTuningEntry spmv_cuda_h100[] = {
    {"Cornell5", 4, 18660, 84.7564, 85.9895, 3156, SpmvAlgorithm::stream, {32, 8, 1, 4096, 0, 0, 1, 0, false, true}, 687.84},
    {"Cornell5", 8, 18660, 84.7564, 85.9895, 3156, SpmvAlgorithm::stream, {4, 32, 1, 1024, 0, 0, 1, 0, false, true}, 800.987},
    {"band:4000000:16", 4, 4000000, 16, 0, 16, SpmvAlgorithm::stream, {64, 4, 1, 4096, 0, 0}, 2308.86},
    {"band:4000000:16", 8, 4000000, 16, 0, 16, SpmvAlgorithm::stream, {128, 2, 1, 2048, 0, 0}, 2304.65, true},
    {"band:8000000:5", 4, 8000000, 5, 0, 5, SpmvAlgorithm::thread_row, {256, 1, 1, 1024, 0, 0}, 2523.29, true},
    {"band:8000000:5", 8, 8000000, 5, 0, 5, SpmvAlgorithm::stream, {16, 32, 1, 4096, 0, 0}, 2355.3, true},
    {"lap2d:1024", 4, 1048576, 4.99609, 0.0624389, 5, SpmvAlgorithm::thread_row, {128, 1, 1, 512, 0, 0}, 2060.39, true},
    {"lap2d:1024", 8, 1048576, 4.99609, 0.0624389, 5, SpmvAlgorithm::stream, {8, 32, 1, 4096, 0, 0}, 2366.67, true},
    {"lap2d:4096", 4, 16777216, 4.99902, 0.0312424, 5, SpmvAlgorithm::thread_row, {128, 1, 1, 512, 0, 0}, 3161, true},
    {"lap2d:4096", 8, 16777216, 4.99902, 0.0312424, 5, SpmvAlgorithm::thread_row, {256, 1, 1, 2048, 0, 0}, 2989.09, true},
    {"ogbl_ddi", 4, 4267, 500.544, 420.478, 2234, SpmvAlgorithm::stream, {8, 32, 1, 8192, 0, 0}, 1166.79},
    {"ogbl_ddi", 8, 4267, 500.544, 420.478, 2234, SpmvAlgorithm::stream, {4, 32, 1, 1024, 0, 0}, 1350.59},
    {"rmat:20:8", 4, 1048576, 7.79683, 75.2164, 23140, SpmvAlgorithm::stream, {8, 32, 1, 4096, 4096, 0}, 890.756},
    {"rmat:20:8", 8, 1048576, 7.79683, 75.2164, 23140, SpmvAlgorithm::flat, {4, 32, 1, 0, 1024, 0}, 1162.15},
    {"rmat:22:16", 4, 4194304, 15.5558, 186.109, 97631, SpmvAlgorithm::flat, {16, 8, 1, 0, 2048, 0}, 1136.7},
    {"rmat:22:16", 8, 4194304, 15.5558, 186.109, 97631, SpmvAlgorithm::flat, {4, 32, 1, 0, 1024, 0}, 1354.91},
    {"skewed:1000000", 4, 1000000, 20.7995, 1599.88, 200000, SpmvAlgorithm::stream, {64, 4, 1, 8192, 32768, 0}, 1514.09},
    {"skewed:1000000", 8, 1000000, 20.7995, 1599.88, 200000, SpmvAlgorithm::stream, {8, 32, 1, 4096, 4096, 0, 1, 0, false, false, true}, 1893.22},
    {"skewed:4000000", 4, 4000000, 11.1999, 799.962, 200000, SpmvAlgorithm::stream, {8, 32, 1, 2048, 8192, 0, 1, 0, false, false, true}, 1168.4},
    {"skewed:4000000", 8, 4000000, 11.1999, 799.962, 200000, SpmvAlgorithm::stream, {8, 32, 1, 4096, 4096, 0, 1, 0, false, false, true}, 1178.83},
    {"st3d27:160", 4, 4096000, 26.6639, 1.7187, 27, SpmvAlgorithm::stream, {16, 8, 1, 8192, 0, 0, 1, 0, true}, 2630.29, true},
    {"st3d27:160", 8, 4096000, 26.6639, 1.7187, 27, SpmvAlgorithm::flat, {16, 8, 1, 0, 2048, 0}, 2802.23, true},
    {"st3d7:160", 4, 4096000, 6.9625, 0.192435, 7, SpmvAlgorithm::thread_row, {128, 1, 1, 512, 0, 0}, 3009.41, true},
    {"st3d7:160", 8, 4096000, 6.9625, 0.192435, 7, SpmvAlgorithm::thread_row, {256, 1, 1, 2048, 0, 0}, 2832.14, true},
    {"uniform:1048576:128", 4, 1048576, 128, 0, 128, SpmvAlgorithm::vector_row, {8, 32, 4, 0, 0, 0}, 971.668},
    {"uniform:1048576:128", 8, 1048576, 128, 0, 128, SpmvAlgorithm::vector_row, {8, 32, 2, 0, 0, 0}, 1373.61},
    {"uniform:2097152:32", 4, 2097152, 32, 0, 32, SpmvAlgorithm::stream, {64, 4, 1, 4096, 0, 0}, 983.737},
    {"uniform:2097152:32", 8, 2097152, 32, 0, 32, SpmvAlgorithm::stream, {128, 4, 1, 4096, 0, 0}, 1405.56},
    {"uniform:65536:16", 4, 65536, 16, 0, 16, SpmvAlgorithm::long_row_split, {32, 8, 1, 0, 2048, 2048}, 504.789},
    {"uniform:65536:16", 8, 65536, 16, 0, 16, SpmvAlgorithm::vector_row, {32, 8, 1, 0, 0, 0}, 744.728},
    {"uniform:8388608:4", 4, 8388608, 4, 0, 4, SpmvAlgorithm::stream, {16, 32, 1, 4096, 0, 0}, 883.214},
    {"uniform:8388608:4", 8, 8388608, 4, 0, 4, SpmvAlgorithm::vector_row, {64, 4, 1, 0, 0, 0}, 679.596},
    {},  // end of table
};

}  // namespace spk::tuning
