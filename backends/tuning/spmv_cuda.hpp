#pragma once
// spk SpMV tuning table 'spmv_cuda': the fastest algorithm and launch shape per swept matrix and precision.
// Written by spk-bench --sweep; regenerate rather than edit.
// command: spk-bench --suite sweep-gpu --precision float --algo automatic,cusparse,kokkoskernels --sweep spmv_cuda_float.hpp --sweep-hip spmv_hip_float.hpp --reps 10 --warmup 2 --quiet --json sweep_float.json
// command: spk-bench --suite sweep-gpu --precision double --algo automatic,cusparse,kokkoskernels --sweep spmv_cuda_double.hpp --sweep-hip spmv_hip_double.hpp --reps 10 --warmup 2 --quiet --json sweep_double.json
// (one sweep run per precision, their entries merged into this table)
// command (2026-11-28, the entries of Cornell5, ogbl_ddi, skewed:1000000 and rmat:22:16 replaced by this sweep's on an
// H200 with the kernels of that day: one run per precision P of
// spk-bench --matrix matrices/bench/Cornell5.mtx.gz matrices/bench/ogbl_ddi.mtx.gz gen:skewed:1000000 gen:rmat:22:16
//   --op spmv --precision P --algo automatic,cusparse --sweep spmv_cuda_P.hpp --reps 30 --warmup 3 --quiet)
// command (2026-11-29, the entries of Groebner_id2003_aug, arrow, bayer10, pushpull and sparse-images-1024_subset
// added from this sweep on an H200, ceiling 4160.24 GB/s: one run per precision P of
// spk-bench --matrix matrices/small/arrow.mtx matrices/small/bayer10.mtx matrices/small/pushpull.mtx
//   matrices/small/sparse-images-1024_subset.mtx matrices/small/Groebner_id2003_aug.mtx --op spmv --precision P
//   --algo automatic,cusparse --sweep spmv_cuda_P.hpp --sweep-hip spmv_hip_P.hpp --reps 30 --warmup 3 --quiet)
// command (2026-11-29, evening, the entries of skewed:1000000 and skewed:4000000 replaced by this sweep's on an H200,
// the first with stream's pieces first in the league and by column windows among the candidates, ceiling 4152.13 /
// 4154.32 GB/s: one run per precision P of
// spk-bench --matrix gen:skewed:1000000 gen:skewed:4000000 gen:rmat:20:8 matrices/bench/Cornell5.mtx.gz
//   matrices/bench/ogbl_ddi.mtx.gz matrices/small/arrow.mtx --op spmv --precision P --algo automatic,cusparse
//   --sweep spmv_cuda_P.hpp --sweep-hip spmv_hip_P.hpp --reps 30 --warmup 3 --quiet; the other four kept theirs)
// device: NVIDIA H200 (sm_90, 132 SMs, 139 GiB, L2 60 MiB); back-end: Cuda (Kokkos 4.6.99); ceiling 4168.9 / 4146.11 GB/s (float / double run)
#include <spk/select/spmv_tuning_entry.hpp>

namespace spk::tuning {

// matrix, scalar bytes, rows, mean, stddev, max row length, algorithm,
// {team, vector, rows/thread, stage, chunk, long row}, GB/s in the sweep[, true: it read packed column indices]
inline constexpr SpmvTuningEntry spmv_cuda[] = {
    {"Cornell5", 4, 18660, 84.7564, 85.9895, 3156, SpmvAlgorithm::stream, {4, 32, 1, 2048, 0, 0, 1, 0, true, true}, 709.05},
    {"Cornell5", 8, 18660, 84.7564, 85.9895, 3156, SpmvAlgorithm::stream, {32, 4, 1, 1024, 0, 0, 1, 0, false, true}, 848.17},
    {"Groebner_id2003_aug", 4, 4967, 34.9648, 97.0428, 829, SpmvAlgorithm::stream, {16, 32, 1, 2048, 0, 0}, 140.96},
    {"Groebner_id2003_aug", 8, 4967, 34.9648, 97.0428, 829, SpmvAlgorithm::stream, {8, 32, 1, 1024, 0, 0}, 195.102},
    {"arrow", 4, 46500, 2.99996, 215.627, 46500, SpmvAlgorithm::stream, {8, 32, 1, 2048, 2048, 0}, 123.087},
    {"arrow", 8, 46500, 2.99996, 215.627, 46500, SpmvAlgorithm::stream, {8, 32, 1, 1024, 1024, 0}, 204.458},
    {"band:4000000:16", 4, 4000000, 16, 0, 16, SpmvAlgorithm::stream, {32, 8, 1, 4096, 0, 0}, 2581.31},
    {"band:4000000:16", 8, 4000000, 16, 0, 16, SpmvAlgorithm::stream, {64, 4, 1, 2048, 0, 0}, 2577.44},
    {"band:8000000:5", 4, 8000000, 5, 0, 5, SpmvAlgorithm::thread_row, {256, 1, 1, 1024, 0, 0}, 2923.65, true},
    {"band:8000000:5", 8, 8000000, 5, 0, 5, SpmvAlgorithm::stream, {128, 4, 1, 4096, 0, 0}, 2629.5},
    {"bayer10", 4, 13436, 7.06505, 7.44954, 27, SpmvAlgorithm::vector_row, {16, 16, 2, 0, 0, 0}, 100.07},
    {"bayer10", 8, 13436, 7.06505, 7.44954, 27, SpmvAlgorithm::vector_row, {32, 8, 2, 0, 0, 0}, 149.388},
    {"lap2d:1024", 4, 1048576, 4.99609, 0.0624389, 5, SpmvAlgorithm::thread_row, {256, 1, 1, 1024, 0, 0}, 2700.89, true},
    {"lap2d:1024", 8, 1048576, 4.99609, 0.0624389, 5, SpmvAlgorithm::stream, {8, 32, 1, 4096, 0, 0}, 2869.56, true},
    {"lap2d:4096", 4, 16777216, 4.99902, 0.0312424, 5, SpmvAlgorithm::thread_row, {128, 1, 1, 512, 0, 0}, 3701.14, true},
    {"lap2d:4096", 8, 16777216, 4.99902, 0.0312424, 5, SpmvAlgorithm::thread_row, {256, 1, 1, 2048, 0, 0}, 3749.55, true},
    {"ogbl_ddi", 4, 4267, 500.544, 420.478, 2234, SpmvAlgorithm::stream, {8, 32, 1, 8192, 0, 0}, 1160.47},
    {"ogbl_ddi", 8, 4267, 500.544, 420.478, 2234, SpmvAlgorithm::stream, {4, 32, 1, 1024, 0, 0}, 1447.93},
    {"pushpull", 4, 4000, 49.0763, 46.5341, 124, SpmvAlgorithm::stream, {16, 32, 1, 2048, 0, 0}, 162.887},
    {"pushpull", 8, 4000, 49.0763, 46.5341, 124, SpmvAlgorithm::vector_row, {8, 32, 2, 0, 0, 0}, 244.348},
    {"rmat:20:8", 4, 1048576, 7.79683, 75.2164, 23140, SpmvAlgorithm::stream, {8, 32, 1, 4096, 0, 0}, 1051.84},
    {"rmat:20:8", 8, 1048576, 7.79683, 75.2164, 23140, SpmvAlgorithm::flat, {16, 8, 1, 0, 1024, 0}, 1382.32},
    {"rmat:22:16", 4, 4194304, 15.5558, 186.109, 97631, SpmvAlgorithm::flat, {4, 32, 1, 0, 2048, 0}, 1252.67},
    {"rmat:22:16", 8, 4194304, 15.5558, 186.109, 97631, SpmvAlgorithm::flat, {8, 32, 1, 0, 4096, 0}, 1503.67},
    {"skewed:1000000", 4, 1000000, 20.7995, 1599.88, 200000, SpmvAlgorithm::stream, {8, 32, 1, 8192, 32768, 0}, 1728.64},
    {"skewed:1000000", 8, 1000000, 20.7995, 1599.88, 200000, SpmvAlgorithm::stream, {8, 32, 1, 4096, 4096, 0, 1, 0, false, false, true}, 2235.59},
    {"skewed:4000000", 4, 4000000, 11.1999, 799.962, 200000, SpmvAlgorithm::stream, {8, 32, 1, 4096, 4096, 0, 1, 0, false, false, true}, 1351.55},
    {"skewed:4000000", 8, 4000000, 11.1999, 799.962, 200000, SpmvAlgorithm::stream, {8, 32, 1, 2048, 8192, 0}, 1565.59},
    {"sparse-images-1024_subset", 4, 1200, 102.261, 37.8487, 276, SpmvAlgorithm::vector_row, {8, 32, 2, 0, 0, 0}, 96.9046},
    {"sparse-images-1024_subset", 8, 1200, 102.261, 37.8487, 276, SpmvAlgorithm::vector_row, {8, 32, 2, 0, 0, 0}, 149.995},
    {"st3d27:160", 4, 4096000, 26.6639, 1.7187, 27, SpmvAlgorithm::flat, {16, 8, 1, 0, 2048, 0}, 3049.9},
    {"st3d27:160", 8, 4096000, 26.6639, 1.7187, 27, SpmvAlgorithm::flat, {32, 4, 1, 0, 2048, 0}, 3223.15, true},
    {"st3d7:160", 4, 4096000, 6.9625, 0.192435, 7, SpmvAlgorithm::thread_row, {128, 1, 1, 512, 0, 0}, 3597.18, true},
    {"st3d7:160", 8, 4096000, 6.9625, 0.192435, 7, SpmvAlgorithm::thread_row, {256, 1, 1, 2048, 0, 0}, 3546.33, true},
    {"uniform:1048576:128", 4, 1048576, 128, 0, 128, SpmvAlgorithm::vector_row, {8, 32, 4, 0, 0, 0}, 1153},
    {"uniform:1048576:128", 8, 1048576, 128, 0, 128, SpmvAlgorithm::stream, {16, 8, 1, 2048, 0, 0}, 1608.14},
    {"uniform:2097152:32", 4, 2097152, 32, 0, 32, SpmvAlgorithm::stream, {64, 8, 1, 8192, 0, 0}, 1160.66},
    {"uniform:2097152:32", 8, 2097152, 32, 0, 32, SpmvAlgorithm::stream, {128, 2, 1, 2048, 0, 0}, 1641.96},
    {"uniform:65536:16", 4, 65536, 16, 0, 16, SpmvAlgorithm::stream, {128, 2, 1, 2048, 0, 0}, 566.641},
    {"uniform:65536:16", 8, 65536, 16, 0, 16, SpmvAlgorithm::vector_row, {32, 8, 1, 0, 0, 0}, 776.007},
    {"uniform:8388608:4", 4, 8388608, 4, 0, 4, SpmvAlgorithm::stream, {128, 2, 1, 4096, 0, 0}, 1188.37},
    {"uniform:8388608:4", 8, 8388608, 4, 0, 4, SpmvAlgorithm::stream, {64, 8, 1, 2048, 0, 0}, 954.246},
    {},  // end of table
};

}  // namespace spk::tuning
