#pragma once
// spk SpMM tuning table 'spmm_hip': the fastest algorithm and launch shape per swept
// matrix, precision and k. Written by spk-bench --sweep; regenerate rather than edit.
// command: .carry/bin/spk-bench --suite sweep-spmm-gpu --op spmm --k 32,64,128,256 --precision float --algo automatic --sweep /root/out/spmm_cuda.hpp --sweep-hip /root/out/spmm_hip.hpp --reps 5 --warmup 1 --json /root/out/sweep_spmm.json
// device: NVIDIA H200 (sm_90, 132 SMs, 139 GiB, L2 60 MiB); back-end: Cuda (Kokkos 4.6.99); ceiling 4366.22 GB/s
// HIP starting table: derived from the measurements above with a full warp (32) widened to a full
// wavefront (64) and teams of at least 64 threads (SpMM: columns per lane halved, so a row's
// column tile keeps its width; one column per lane stays 32 lanes); not measured on an AMD GPU.
#include <spk/select/spmm_tuning_entry.hpp>

namespace spk::tuning {

// matrix, scalar bytes, k, rows, mean, stddev, max row length, algorithm,
// {team, vector, rows/thread, stage, chunk, long row[, columns/lane]}, GFLOP/s in the sweep
inline constexpr SpmmTuningEntry spmm_hip[] = {
    {"Cornell5", 4, 32, 18660, 84.7564, 85.9895, 3156, SpmmAlgorithm::flat, {8, 32, 1, 0, 256, 0}, 1659.55},
    {"Cornell5", 4, 64, 18660, 84.7564, 85.9895, 3156, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0}, 2602.31},
    {"Cornell5", 4, 128, 18660, 84.7564, 85.9895, 3156, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0, 2}, 2979.15},
    {"Cornell5", 4, 256, 18660, 84.7564, 85.9895, 3156, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0, 4}, 3606.22},
    {"band:2000000:5", 4, 32, 2000000, 5, 0, 5, SpmmAlgorithm::row_team, {32, 8, 1, 2048, 0, 0, 4}, 1991.83},
    {"band:2000000:5", 4, 64, 2000000, 5, 0, 5, SpmmAlgorithm::row_team, {16, 16, 1, 2048, 0, 0, 4}, 2288.33},
    {"band:2000000:5", 4, 128, 2000000, 5, 0, 5, SpmmAlgorithm::row_team, {4, 64, 1, 512, 0, 0, 2}, 2868.41},
    {"band:2000000:5", 4, 256, 2000000, 5, 0, 5, SpmmAlgorithm::row_team, {4, 64, 1, 512, 0, 0, 2}, 3029.84},
    {"lap2d:1024", 4, 32, 1048576, 4.99609, 0.0624389, 5, SpmmAlgorithm::row_team, {32, 8, 1, 2048, 0, 0, 4}, 1929.93},
    {"lap2d:1024", 4, 64, 1048576, 4.99609, 0.0624389, 5, SpmmAlgorithm::row_team, {16, 16, 1, 2048, 0, 0, 4}, 2213.03},
    {"lap2d:1024", 4, 128, 1048576, 4.99609, 0.0624389, 5, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 2775.51},
    {"lap2d:1024", 4, 256, 1048576, 4.99609, 0.0624389, 5, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 2977.22},
    {"ogbl_ddi", 4, 32, 4267, 500.544, 420.478, 2234, SpmmAlgorithm::row_team, {32, 8, 1, 512, 0, 0, 4}, 1627.91},
    {"ogbl_ddi", 4, 64, 4267, 500.544, 420.478, 2234, SpmmAlgorithm::row_team, {16, 16, 1, 512, 0, 0, 4}, 2692.5},
    {"ogbl_ddi", 4, 128, 4267, 500.544, 420.478, 2234, SpmmAlgorithm::row_team, {4, 64, 1, 512, 0, 0, 2}, 3725},
    {"ogbl_ddi", 4, 256, 4267, 500.544, 420.478, 2234, SpmmAlgorithm::k_tiled, {4, 64, 1, 512, 0, 0, 2}, 4343.31},
    {"rmat:18:8", 4, 32, 262144, 7.69365, 57.067, 9447, SpmmAlgorithm::flat, {8, 32, 1, 0, 128, 0}, 1088.71},
    {"rmat:18:8", 4, 64, 262144, 7.69365, 57.067, 9447, SpmmAlgorithm::flat, {4, 64, 1, 0, 128, 0}, 1668.19},
    {"rmat:18:8", 4, 128, 262144, 7.69365, 57.067, 9447, SpmmAlgorithm::flat, {4, 64, 1, 0, 128, 0, 2}, 2461.82},
    {"rmat:18:8", 4, 256, 262144, 7.69365, 57.067, 9447, SpmmAlgorithm::flat, {4, 64, 1, 0, 128, 0, 2}, 2608.06},
    {"rmat:20:16", 4, 32, 1048576, 15.3408, 140.336, 39268, SpmmAlgorithm::flat, {8, 32, 1, 0, 128, 0}, 1664.7},
    {"rmat:20:16", 4, 64, 1048576, 15.3408, 140.336, 39268, SpmmAlgorithm::flat, {4, 64, 1, 0, 128, 0}, 2249.4},
    {"rmat:20:16", 4, 128, 1048576, 15.3408, 140.336, 39268, SpmmAlgorithm::flat, {4, 64, 1, 0, 128, 0, 2}, 2947.03},
    {"rmat:20:16", 4, 256, 1048576, 15.3408, 140.336, 39268, SpmmAlgorithm::flat, {4, 64, 1, 0, 128, 0, 2}, 2923.13},
    {"skewed:1000000", 4, 32, 1000000, 20.7995, 1599.88, 200000, SpmmAlgorithm::flat, {16, 16, 1, 0, 256, 0, 2}, 1363.68},
    {"skewed:1000000", 4, 64, 1000000, 20.7995, 1599.88, 200000, SpmmAlgorithm::flat, {16, 16, 1, 0, 256, 0, 4}, 1646.28},
    {"skewed:1000000", 4, 128, 1000000, 20.7995, 1599.88, 200000, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0, 2}, 1835.53},
    {"skewed:1000000", 4, 256, 1000000, 20.7995, 1599.88, 200000, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0, 4}, 1942.94},
    {"st3d27:64", 4, 32, 262144, 26.165, 2.66063, 27, SpmmAlgorithm::row_team, {32, 8, 1, 2048, 0, 0, 4}, 3166.67},
    {"st3d27:64", 4, 64, 262144, 26.165, 2.66063, 27, SpmmAlgorithm::row_team, {16, 16, 1, 2048, 0, 0, 4}, 4531.13},
    {"st3d27:64", 4, 128, 262144, 26.165, 2.66063, 27, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 6131.63},
    {"st3d27:64", 4, 256, 262144, 26.165, 2.66063, 27, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 6391.24},
    {"uniform:1048576:32", 4, 32, 1048576, 32, 0, 32, SpmmAlgorithm::row_team, {32, 8, 1, 2048, 0, 0, 4}, 2130.91},
    {"uniform:1048576:32", 4, 64, 1048576, 32, 0, 32, SpmmAlgorithm::row_team, {16, 16, 1, 2048, 0, 0, 4}, 2158.26},
    {"uniform:1048576:32", 4, 128, 1048576, 32, 0, 32, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 2118.37},
    {"uniform:1048576:32", 4, 256, 1048576, 32, 0, 32, SpmmAlgorithm::k_tiled, {4, 64, 1, 2048, 0, 0, 2}, 2134.18},
    {"uniform:262144:8", 4, 32, 262144, 8, 0, 8, SpmmAlgorithm::row_team, {32, 8, 1, 2048, 0, 0, 4}, 2029.17},
    {"uniform:262144:8", 4, 64, 262144, 8, 0, 8, SpmmAlgorithm::row_team, {16, 16, 1, 2048, 0, 0, 4}, 2013.59},
    {"uniform:262144:8", 4, 128, 262144, 8, 0, 8, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 2115.4},
    {"uniform:262144:8", 4, 256, 262144, 8, 0, 8, SpmmAlgorithm::k_tiled, {4, 64, 1, 512, 0, 0, 2}, 2183.4},
    {},  // end of table
};

}  // namespace spk::tuning
