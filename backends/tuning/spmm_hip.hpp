#pragma once
// spk SpMM tuning table 'spmm_hip': the fastest algorithm and launch shape per swept
// matrix, precision and k. Written by spk-bench --sweep; regenerate rather than edit.
// command: bin/x/spk-bench --matrix gen:rmat:20:16 gen:rmat:18:8 gen:uniform:1048576:32 gen:uniform:262144:8 gen:band:2000000:5 gen:skewed:1000000 gen:lap2d:1024 gen:st3d27:64 gen:rmat:12:32 gen:rmat:12:16 gen:lap2d:128 gen:uniform:8192:32 gen:uniform:4096:64 gen:uniform:2048:128 matrices/bench/ogbl_ddi.mtx.gz matrices/bench/Cornell5.mtx.gz matrices/small/Groebner_id2003_aug.mtx matrices/small/arrow.mtx matrices/small/bayer10.mtx matrices/small/pushpull.mtx matrices/small/sparse-images-1024_subset.mtx --op spmm --k 32 --precision float --algo automatic --sweep /root/out/spmm_cuda_k32.hpp --sweep-hip /root/out/spmm_hip.hpp --reps 5 --warmup 1 --quiet
// command: bin/x/spk-bench --matrix gen:rmat:20:16 gen:rmat:18:8 gen:uniform:1048576:32 gen:uniform:262144:8 gen:band:2000000:5 gen:skewed:1000000 gen:lap2d:1024 gen:st3d27:64 gen:rmat:12:32 gen:rmat:12:16 gen:lap2d:128 gen:uniform:8192:32 gen:uniform:4096:64 gen:uniform:2048:128 matrices/bench/ogbl_ddi.mtx.gz matrices/bench/Cornell5.mtx.gz matrices/small/Groebner_id2003_aug.mtx matrices/small/arrow.mtx matrices/small/bayer10.mtx matrices/small/pushpull.mtx matrices/small/sparse-images-1024_subset.mtx --op spmm --k 64 --precision float --algo automatic --sweep /root/out/spmm_cuda_k64.hpp --sweep-hip /root/out/spmm_hip_k64.hpp --reps 5 --warmup 1 --quiet
// command: bin/x/spk-bench --matrix gen:rmat:20:16 gen:rmat:18:8 gen:uniform:1048576:32 gen:uniform:262144:8 gen:band:2000000:5 gen:skewed:1000000 gen:lap2d:1024 gen:st3d27:64 gen:rmat:12:32 gen:rmat:12:16 gen:lap2d:128 gen:uniform:8192:32 gen:uniform:4096:64 gen:uniform:2048:128 matrices/bench/ogbl_ddi.mtx.gz matrices/bench/Cornell5.mtx.gz matrices/small/Groebner_id2003_aug.mtx matrices/small/arrow.mtx matrices/small/bayer10.mtx matrices/small/pushpull.mtx matrices/small/sparse-images-1024_subset.mtx --op spmm --k 128 --precision float --algo automatic --sweep /root/out/spmm_cuda_k128.hpp --sweep-hip /root/out/spmm_hip_k128.hpp --reps 5 --warmup 1 --quiet
// command: bin/x/spk-bench --matrix gen:rmat:20:16 gen:rmat:18:8 gen:uniform:1048576:32 gen:uniform:262144:8 gen:band:2000000:5 gen:skewed:1000000 gen:lap2d:1024 gen:st3d27:64 gen:rmat:12:32 gen:rmat:12:16 gen:lap2d:128 gen:uniform:8192:32 gen:uniform:4096:64 gen:uniform:2048:128 matrices/bench/ogbl_ddi.mtx.gz matrices/bench/Cornell5.mtx.gz matrices/small/Groebner_id2003_aug.mtx matrices/small/arrow.mtx matrices/small/bayer10.mtx matrices/small/pushpull.mtx matrices/small/sparse-images-1024_subset.mtx --op spmm --k 256 --precision float --algo automatic --sweep /root/out/spmm_cuda_k256.hpp --sweep-hip /root/out/spmm_hip_k256.hpp --reps 5 --warmup 1 --quiet
// (one sweep run per k, their entries merged into this table; the candidates include lane groups and vector-row)
// device: NVIDIA H200 (sm_90, 132 SMs, 139 GiB, L2 60 MiB); back-end: Cuda (Kokkos 4.6.99); ceiling 4357.44 GB/s
// HIP starting table: derived from the measurements above with a full warp (32) widened to a full
// wavefront (64) and teams of at least 64 threads (SpMM: columns per lane halved, so a row's
// column tile keeps its width; one column per lane stays 32 lanes); not measured on an AMD GPU.
#include <spk/select/spmm_tuning_entry.hpp>

namespace spk::tuning {

// matrix, scalar bytes, k, rows, mean, stddev, max row length, algorithm,
// {team, vector, rows/thread, stage, chunk, long row[, columns/lane]}, GFLOP/s in the sweep
inline constexpr SpmmTuningEntry spmm_hip[] = {
    {"Cornell5", 4, 32, 18660, 84.7564, 85.9895, 3156, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0, 2}, 2083.73},
    {"Cornell5", 4, 64, 18660, 84.7564, 85.9895, 3156, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0}, 3128.69},
    {"Cornell5", 4, 128, 18660, 84.7564, 85.9895, 3156, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0, 2}, 3534.2},
    {"Cornell5", 4, 256, 18660, 84.7564, 85.9895, 3156, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0, 2}, 3849.82},
    {"Groebner_id2003_aug", 4, 32, 4967, 34.9648, 97.0428, 829, SpmmAlgorithm::vector_row, {4, 64, 1, 0, 0, 512, 4}, 584.747},
    {"Groebner_id2003_aug", 4, 64, 4967, 34.9648, 97.0428, 829, SpmmAlgorithm::row_team, {16, 16, 1, 128, 0, 0, 4}, 1021.59},
    {"Groebner_id2003_aug", 4, 128, 4967, 34.9648, 97.0428, 829, SpmmAlgorithm::row_team, {4, 64, 1, 128, 0, 0, 2}, 1690.22},
    {"Groebner_id2003_aug", 4, 256, 4967, 34.9648, 97.0428, 829, SpmmAlgorithm::k_tiled, {4, 64, 1, 128, 0, 0, 2}, 2523.81},
    {"arrow", 4, 32, 46500, 2.99996, 215.627, 46500, SpmmAlgorithm::flat, {16, 16, 1, 0, 64, 0, 2}, 218.649},
    {"arrow", 4, 64, 46500, 2.99996, 215.627, 46500, SpmmAlgorithm::flat, {16, 16, 1, 0, 64, 0, 4}, 368.798},
    {"arrow", 4, 128, 46500, 2.99996, 215.627, 46500, SpmmAlgorithm::flat, {4, 64, 1, 0, 64, 0, 2}, 469.69},
    {"arrow", 4, 256, 46500, 2.99996, 215.627, 46500, SpmmAlgorithm::flat, {4, 64, 1, 0, 64, 0, 4}, 503.262},
    {"band:2000000:5", 4, 32, 2000000, 5, 0, 5, SpmmAlgorithm::vector_row, {64, 4, 4, 0, 0, 0, 8}, 2059.31},
    {"band:2000000:5", 4, 64, 2000000, 5, 0, 5, SpmmAlgorithm::vector_row, {32, 8, 4, 0, 0, 0, 8}, 2294.24},
    {"band:2000000:5", 4, 128, 2000000, 5, 0, 5, SpmmAlgorithm::row_team, {4, 64, 1, 512, 0, 0, 2}, 2745.93},
    {"band:2000000:5", 4, 256, 2000000, 5, 0, 5, SpmmAlgorithm::row_team, {4, 64, 1, 512, 0, 0, 2}, 2897.76},
    {"bayer10", 4, 32, 13436, 7.06505, 7.44954, 27, SpmmAlgorithm::row_team, {32, 8, 1, 512, 0, 0, 4}, 459.69},
    {"bayer10", 4, 64, 13436, 7.06505, 7.44954, 27, SpmmAlgorithm::row_team, {16, 16, 1, 512, 0, 0, 4}, 797.698},
    {"bayer10", 4, 128, 13436, 7.06505, 7.44954, 27, SpmmAlgorithm::row_team, {4, 64, 1, 128, 0, 0, 2}, 1293.71},
    {"bayer10", 4, 256, 13436, 7.06505, 7.44954, 27, SpmmAlgorithm::k_tiled, {4, 64, 1, 512, 0, 0, 2}, 1886.73},
    {"lap2d:1024", 4, 32, 1048576, 4.99609, 0.0624389, 5, SpmmAlgorithm::row_team, {64, 4, 1, 2048, 0, 0, 8}, 2022.31},
    {"lap2d:1024", 4, 64, 1048576, 4.99609, 0.0624389, 5, SpmmAlgorithm::row_team, {32, 8, 1, 2048, 0, 0, 8}, 2426.77},
    {"lap2d:1024", 4, 128, 1048576, 4.99609, 0.0624389, 5, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 2651.71},
    {"lap2d:1024", 4, 256, 1048576, 4.99609, 0.0624389, 5, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 2896.66},
    {"lap2d:128", 4, 32, 16384, 4.96875, 0.17539, 5, SpmmAlgorithm::row_team, {64, 4, 1, 512, 0, 0, 8}, 442.435},
    {"lap2d:128", 4, 64, 16384, 4.96875, 0.17539, 5, SpmmAlgorithm::vector_row, {16, 16, 4, 0, 0, 0, 4}, 779.024},
    {"lap2d:128", 4, 128, 16384, 4.96875, 0.17539, 5, SpmmAlgorithm::row_team, {4, 64, 1, 128, 0, 0, 2}, 1158.83},
    {"lap2d:128", 4, 256, 16384, 4.96875, 0.17539, 5, SpmmAlgorithm::row_team, {4, 64, 1, 128, 0, 0, 2}, 1659.27},
    {"ogbl_ddi", 4, 32, 4267, 500.544, 420.478, 2234, SpmmAlgorithm::row_team, {4, 64, 1, 128, 0, 0, 2}, 2935.84},
    {"ogbl_ddi", 4, 64, 4267, 500.544, 420.478, 2234, SpmmAlgorithm::row_team, {4, 64, 1, 128, 0, 0, 2}, 4077.94},
    {"ogbl_ddi", 4, 128, 4267, 500.544, 420.478, 2234, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0}, 4540.68},
    {"ogbl_ddi", 4, 256, 4267, 500.544, 420.478, 2234, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0}, 4759.49},
    {"pushpull", 4, 32, 4000, 49.0763, 46.5341, 124, SpmmAlgorithm::vector_row, {4, 64, 1, 0, 0, 0, 2}, 952.937},
    {"pushpull", 4, 64, 4000, 49.0763, 46.5341, 124, SpmmAlgorithm::vector_row, {4, 64, 1, 0, 0, 512, 2}, 1737.21},
    {"pushpull", 4, 128, 4000, 49.0763, 46.5341, 124, SpmmAlgorithm::vector_row, {4, 64, 1, 0, 0, 512, 2}, 2643.84},
    {"pushpull", 4, 256, 4000, 49.0763, 46.5341, 124, SpmmAlgorithm::vector_row, {4, 64, 1, 0, 0, 512, 4}, 3282.01},
    {"rmat:12:16", 4, 32, 4096, 13.0388, 38.7347, 957, SpmmAlgorithm::row_team, {4, 64, 1, 128, 0, 0}, 221.147},
    {"rmat:12:16", 4, 64, 4096, 13.0388, 38.7347, 957, SpmmAlgorithm::row_team, {4, 64, 1, 128, 0, 0}, 481.144},
    {"rmat:12:16", 4, 128, 4096, 13.0388, 38.7347, 957, SpmmAlgorithm::row_team, {4, 64, 1, 128, 0, 0}, 707.377},
    {"rmat:12:16", 4, 256, 4096, 13.0388, 38.7347, 957, SpmmAlgorithm::k_tiled, {4, 64, 1, 128, 0, 0, 2}, 1085.78},
    {"rmat:12:32", 4, 32, 4096, 23.7368, 63.6239, 1376, SpmmAlgorithm::vector_row, {4, 64, 1, 0, 0, 256, 2}, 363.462},
    {"rmat:12:32", 4, 64, 4096, 23.7368, 63.6239, 1376, SpmmAlgorithm::vector_row, {4, 64, 1, 0, 0, 256, 4}, 708.386},
    {"rmat:12:32", 4, 128, 4096, 23.7368, 63.6239, 1376, SpmmAlgorithm::vector_row, {4, 64, 1, 0, 0, 256, 2}, 1112.74},
    {"rmat:12:32", 4, 256, 4096, 23.7368, 63.6239, 1376, SpmmAlgorithm::flat, {4, 64, 1, 0, 64, 0, 4}, 1584.13},
    {"rmat:18:8", 4, 32, 262144, 7.69365, 57.067, 9447, SpmmAlgorithm::flat, {32, 8, 1, 0, 32, 0, 4}, 910.128},
    {"rmat:18:8", 4, 64, 262144, 7.69365, 57.067, 9447, SpmmAlgorithm::flat, {16, 16, 1, 0, 128, 0, 4}, 1478.9},
    {"rmat:18:8", 4, 128, 262144, 7.69365, 57.067, 9447, SpmmAlgorithm::flat, {4, 64, 1, 0, 128, 0, 2}, 2200.89},
    {"rmat:18:8", 4, 256, 262144, 7.69365, 57.067, 9447, SpmmAlgorithm::flat, {4, 64, 1, 0, 128, 0, 4}, 2284.24},
    {"rmat:20:16", 4, 32, 1048576, 15.3408, 140.336, 39268, SpmmAlgorithm::flat, {32, 8, 1, 0, 128, 0, 4}, 1384.28},
    {"rmat:20:16", 4, 64, 1048576, 15.3408, 140.336, 39268, SpmmAlgorithm::flat, {16, 16, 1, 0, 128, 0, 4}, 1975.44},
    {"rmat:20:16", 4, 128, 1048576, 15.3408, 140.336, 39268, SpmmAlgorithm::flat, {4, 64, 1, 0, 128, 0, 2}, 2691.03},
    {"rmat:20:16", 4, 256, 1048576, 15.3408, 140.336, 39268, SpmmAlgorithm::k_tiled, {4, 64, 1, 512, 0, 0, 2}, 2578.76},
    {"skewed:1000000", 4, 32, 1000000, 20.7995, 1599.88, 200000, SpmmAlgorithm::flat, {16, 16, 1, 0, 256, 0, 2}, 1564.46},
    {"skewed:1000000", 4, 64, 1000000, 20.7995, 1599.88, 200000, SpmmAlgorithm::flat, {16, 16, 1, 0, 256, 0, 4}, 1723.85},
    {"skewed:1000000", 4, 128, 1000000, 20.7995, 1599.88, 200000, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0, 2}, 1865.24},
    {"skewed:1000000", 4, 256, 1000000, 20.7995, 1599.88, 200000, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0, 2}, 1899.67},
    {"sparse-images-1024_subset", 4, 32, 1200, 102.261, 37.8487, 276, SpmmAlgorithm::vector_row, {4, 64, 1, 0, 0, 0, 4}, 578.835},
    {"sparse-images-1024_subset", 4, 64, 1200, 102.261, 37.8487, 276, SpmmAlgorithm::vector_row, {4, 64, 1, 0, 0, 1024, 4}, 1055.6},
    {"sparse-images-1024_subset", 4, 128, 1200, 102.261, 37.8487, 276, SpmmAlgorithm::flat, {4, 64, 1, 0, 64, 0, 2}, 1661.09},
    {"sparse-images-1024_subset", 4, 256, 1200, 102.261, 37.8487, 276, SpmmAlgorithm::flat, {4, 64, 1, 0, 64, 0, 2}, 2337.39},
    {"st3d27:64", 4, 32, 262144, 26.165, 2.66063, 27, SpmmAlgorithm::row_team, {64, 4, 1, 2048, 0, 0, 8}, 3910.49},
    {"st3d27:64", 4, 64, 262144, 26.165, 2.66063, 27, SpmmAlgorithm::vector_row, {32, 8, 1, 0, 0, 256, 8}, 4678.72},
    {"st3d27:64", 4, 128, 262144, 26.165, 2.66063, 27, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 5942.39},
    {"st3d27:64", 4, 256, 262144, 26.165, 2.66063, 27, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 6174.06},
    {"uniform:1048576:32", 4, 32, 1048576, 32, 0, 32, SpmmAlgorithm::vector_row, {64, 4, 1, 0, 0, 0, 8}, 2472.97},
    {"uniform:1048576:32", 4, 64, 1048576, 32, 0, 32, SpmmAlgorithm::vector_row, {16, 16, 1, 0, 0, 0, 4}, 2276.61},
    {"uniform:1048576:32", 4, 128, 1048576, 32, 0, 32, SpmmAlgorithm::vector_row, {16, 16, 1, 0, 0, 512, 8}, 2205.93},
    {"uniform:1048576:32", 4, 256, 1048576, 32, 0, 32, SpmmAlgorithm::vector_row, {4, 64, 1, 0, 0, 512, 4}, 2157.2},
    {"uniform:2048:128", 4, 32, 2048, 128, 0, 128, SpmmAlgorithm::vector_row, {4, 64, 1, 0, 0, 0, 2}, 1510.92},
    {"uniform:2048:128", 4, 64, 2048, 128, 0, 128, SpmmAlgorithm::vector_row, {4, 64, 1, 0, 0, 2048, 2}, 2532.79},
    {"uniform:2048:128", 4, 128, 2048, 128, 0, 128, SpmmAlgorithm::vector_row, {4, 64, 1, 0, 0, 0, 2}, 3591.01},
    {"uniform:2048:128", 4, 256, 2048, 128, 0, 128, SpmmAlgorithm::vector_row, {4, 64, 1, 0, 0, 0, 4}, 4707.41},
    {"uniform:262144:8", 4, 32, 262144, 8, 0, 8, SpmmAlgorithm::vector_row, {64, 4, 1, 0, 0, 256, 8}, 2045},
    {"uniform:262144:8", 4, 64, 262144, 8, 0, 8, SpmmAlgorithm::vector_row, {32, 8, 4, 0, 0, 0, 8}, 2169.84},
    {"uniform:262144:8", 4, 128, 262144, 8, 0, 8, SpmmAlgorithm::vector_row, {16, 16, 4, 0, 0, 0, 8}, 2167.88},
    {"uniform:262144:8", 4, 256, 262144, 8, 0, 8, SpmmAlgorithm::k_tiled, {4, 64, 1, 2048, 0, 0, 2}, 2107.03},
    {"uniform:4096:64", 4, 32, 4096, 64, 0, 64, SpmmAlgorithm::row_team, {16, 16, 1, 2048, 0, 0, 2}, 1334.07},
    {"uniform:4096:64", 4, 64, 4096, 64, 0, 64, SpmmAlgorithm::row_team, {16, 16, 1, 2048, 0, 0, 4}, 2198.27},
    {"uniform:4096:64", 4, 128, 4096, 64, 0, 64, SpmmAlgorithm::vector_row, {16, 16, 1, 0, 0, 0, 8}, 3097.71},
    {"uniform:4096:64", 4, 256, 4096, 64, 0, 64, SpmmAlgorithm::k_tiled, {4, 64, 1, 2048, 0, 0, 2}, 4040.76},
    {"uniform:8192:32", 4, 32, 8192, 32, 0, 32, SpmmAlgorithm::vector_row, {32, 8, 1, 0, 0, 512, 4}, 1376.08},
    {"uniform:8192:32", 4, 64, 8192, 32, 0, 32, SpmmAlgorithm::vector_row, {32, 8, 1, 0, 0, 512, 8}, 2036.07},
    {"uniform:8192:32", 4, 128, 8192, 32, 0, 32, SpmmAlgorithm::row_team, {4, 64, 1, 512, 0, 0, 2}, 2896.62},
    {"uniform:8192:32", 4, 256, 8192, 32, 0, 32, SpmmAlgorithm::row_team, {4, 64, 1, 512, 0, 0, 2}, 3809.54},
    {},  // end of table
};

}  // namespace spk::tuning
