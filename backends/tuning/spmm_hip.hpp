#pragma once
// spk SpMM tuning table 'spmm_hip': the fastest algorithm and launch shape per swept
// matrix, precision and k. Written by spk-bench --sweep; regenerate rather than edit.
// command: .carry/bin/spk-bench --suite sweep-spmm-gpu --op spmm --k 32,64 --precision float --algo automatic --sweep /root/out/spmm_cuda_a.hpp --sweep-hip /root/out/spmm_hip_a.hpp --reps 5 --warmup 1 --json /root/out/sweep_a.json
// command: .carry/bin/spk-bench --suite sweep-spmm-gpu --op spmm --k 128,256 --precision float --algo automatic --sweep /root/out/spmm_cuda_b.hpp --sweep-hip /root/out/spmm_hip_b.hpp --reps 5 --warmup 1 --json /root/out/sweep_b.json
// (one sweep run per pair of k values, their entries merged into this table)
// device: NVIDIA H200 (sm_90, 132 SMs, 139 GiB, L2 60 MiB); back-end: Cuda (Kokkos 4.6.99); ceiling 4121.15 GB/s
// HIP starting table: derived from the measurements above with a full warp (32) widened to a full
// wavefront (64) and teams of at least 64 threads (SpMM: columns per lane halved, so a row's
// column tile keeps its width; one column per lane stays 32 lanes); not measured on an AMD GPU.
#include <spk/select/spmm_tuning_entry.hpp>

namespace spk::tuning {

// matrix, scalar bytes, k, rows, mean, stddev, max row length, algorithm,
// {team, vector, rows/thread, stage, chunk, long row[, columns/lane]}, GFLOP/s in the sweep
inline constexpr SpmmTuningEntry spmm_hip[] = {
    {"Cornell5", 4, 32, 18660, 84.7564, 85.9895, 3156, SpmmAlgorithm::flat, {8, 32, 1, 0, 256, 0}, 1499.1},
    {"Cornell5", 4, 64, 18660, 84.7564, 85.9895, 3156, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0}, 2501.47},
    {"Cornell5", 4, 128, 18660, 84.7564, 85.9895, 3156, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0, 2}, 3093.5},
    {"Cornell5", 4, 256, 18660, 84.7564, 85.9895, 3156, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0, 4}, 3618.6},
    {"band:2000000:5", 4, 32, 2000000, 5, 0, 5, SpmmAlgorithm::row_team, {32, 8, 1, 2048, 0, 0, 4}, 1803.43},
    {"band:2000000:5", 4, 64, 2000000, 5, 0, 5, SpmmAlgorithm::row_team, {16, 16, 1, 2048, 0, 0, 4}, 2120.67},
    {"band:2000000:5", 4, 128, 2000000, 5, 0, 5, SpmmAlgorithm::row_team, {4, 64, 1, 512, 0, 0, 2}, 2593.11},
    {"band:2000000:5", 4, 256, 2000000, 5, 0, 5, SpmmAlgorithm::row_team, {4, 64, 1, 512, 0, 0, 2}, 2938.48},
    {"lap2d:1024", 4, 32, 1048576, 4.99609, 0.0624389, 5, SpmmAlgorithm::row_team, {32, 8, 1, 2048, 0, 0, 4}, 1691.57},
    {"lap2d:1024", 4, 64, 1048576, 4.99609, 0.0624389, 5, SpmmAlgorithm::row_team, {32, 8, 1, 2048, 0, 0, 8}, 2067.6},
    {"lap2d:1024", 4, 128, 1048576, 4.99609, 0.0624389, 5, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 2543.72},
    {"lap2d:1024", 4, 256, 1048576, 4.99609, 0.0624389, 5, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 2820.44},
    {"lap2d:128", 4, 32, 16384, 4.96875, 0.17539, 5, SpmmAlgorithm::row_team, {32, 8, 1, 512, 0, 0, 4}, 368.362},
    {"lap2d:128", 4, 64, 16384, 4.96875, 0.17539, 5, SpmmAlgorithm::row_team, {16, 16, 1, 512, 0, 0, 4}, 626.215},
    {"lap2d:128", 4, 128, 16384, 4.96875, 0.17539, 5, SpmmAlgorithm::row_team, {4, 64, 1, 512, 0, 0, 2}, 1083.63},
    {"lap2d:128", 4, 256, 16384, 4.96875, 0.17539, 5, SpmmAlgorithm::k_tiled, {4, 64, 1, 512, 0, 0, 2}, 1600.16},
    {"ogbl_ddi", 4, 32, 4267, 500.544, 420.478, 2234, SpmmAlgorithm::row_team, {32, 8, 1, 128, 0, 0, 4}, 2281.86},
    {"ogbl_ddi", 4, 64, 4267, 500.544, 420.478, 2234, SpmmAlgorithm::row_team, {16, 16, 1, 128, 0, 0, 4}, 3411.86},
    {"ogbl_ddi", 4, 128, 4267, 500.544, 420.478, 2234, SpmmAlgorithm::row_team, {4, 64, 1, 128, 0, 0, 2}, 4310.44},
    {"ogbl_ddi", 4, 256, 4267, 500.544, 420.478, 2234, SpmmAlgorithm::k_tiled, {4, 64, 1, 128, 0, 0, 2}, 4644.98},
    {"rmat:12:16", 4, 32, 4096, 13.0388, 38.7347, 957, SpmmAlgorithm::row_team, {16, 16, 1, 128, 0, 0, 2}, 181.041},
    {"rmat:12:16", 4, 64, 4096, 13.0388, 38.7347, 957, SpmmAlgorithm::row_team, {16, 16, 1, 128, 0, 0, 4}, 327.65},
    {"rmat:12:16", 4, 128, 4096, 13.0388, 38.7347, 957, SpmmAlgorithm::row_team, {4, 64, 1, 128, 0, 0, 2}, 626.475},
    {"rmat:12:16", 4, 256, 4096, 13.0388, 38.7347, 957, SpmmAlgorithm::k_tiled, {4, 64, 1, 128, 0, 0, 2}, 1022.14},
    {"rmat:12:32", 4, 32, 4096, 23.7368, 63.6239, 1376, SpmmAlgorithm::row_team, {8, 32, 1, 128, 0, 0}, 283.045},
    {"rmat:12:32", 4, 64, 4096, 23.7368, 63.6239, 1376, SpmmAlgorithm::row_team, {16, 16, 1, 128, 0, 0, 4}, 517.848},
    {"rmat:12:32", 4, 128, 4096, 23.7368, 63.6239, 1376, SpmmAlgorithm::row_team, {4, 64, 1, 128, 0, 0, 2}, 955.538},
    {"rmat:12:32", 4, 256, 4096, 23.7368, 63.6239, 1376, SpmmAlgorithm::flat, {4, 64, 1, 0, 64, 0, 4}, 1466.18},
    {"rmat:18:8", 4, 32, 262144, 7.69365, 57.067, 9447, SpmmAlgorithm::flat, {8, 32, 1, 0, 128, 0}, 838.256},
    {"rmat:18:8", 4, 64, 262144, 7.69365, 57.067, 9447, SpmmAlgorithm::flat, {16, 16, 1, 0, 128, 0, 4}, 1432.93},
    {"rmat:18:8", 4, 128, 262144, 7.69365, 57.067, 9447, SpmmAlgorithm::flat, {4, 64, 1, 0, 128, 0, 2}, 2404.22},
    {"rmat:18:8", 4, 256, 262144, 7.69365, 57.067, 9447, SpmmAlgorithm::flat, {4, 64, 1, 0, 128, 0, 2}, 2547.93},
    {"rmat:20:16", 4, 32, 1048576, 15.3408, 140.336, 39268, SpmmAlgorithm::flat, {32, 8, 1, 0, 128, 0, 4}, 1448.01},
    {"rmat:20:16", 4, 64, 1048576, 15.3408, 140.336, 39268, SpmmAlgorithm::flat, {16, 16, 1, 0, 128, 0, 4}, 2188.42},
    {"rmat:20:16", 4, 128, 1048576, 15.3408, 140.336, 39268, SpmmAlgorithm::flat, {4, 64, 1, 0, 128, 0, 2}, 2990.24},
    {"rmat:20:16", 4, 256, 1048576, 15.3408, 140.336, 39268, SpmmAlgorithm::flat, {4, 64, 1, 0, 128, 0, 2}, 2809.14},
    {"skewed:1000000", 4, 32, 1000000, 20.7995, 1599.88, 200000, SpmmAlgorithm::flat, {16, 16, 1, 0, 256, 0, 2}, 1329.25},
    {"skewed:1000000", 4, 64, 1000000, 20.7995, 1599.88, 200000, SpmmAlgorithm::flat, {16, 16, 1, 0, 256, 0, 4}, 1640.11},
    {"skewed:1000000", 4, 128, 1000000, 20.7995, 1599.88, 200000, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0, 2}, 1818.36},
    {"skewed:1000000", 4, 256, 1000000, 20.7995, 1599.88, 200000, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0, 4}, 1924.33},
    {"st3d27:64", 4, 32, 262144, 26.165, 2.66063, 27, SpmmAlgorithm::row_team, {64, 4, 1, 2048, 0, 0, 8}, 3023.58},
    {"st3d27:64", 4, 64, 262144, 26.165, 2.66063, 27, SpmmAlgorithm::row_team, {16, 16, 1, 2048, 0, 0, 4}, 4053.18},
    {"st3d27:64", 4, 128, 262144, 26.165, 2.66063, 27, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 5385.42},
    {"st3d27:64", 4, 256, 262144, 26.165, 2.66063, 27, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 5911.02},
    {"uniform:1048576:32", 4, 32, 1048576, 32, 0, 32, SpmmAlgorithm::row_team, {64, 4, 1, 2048, 0, 0, 8}, 2137.16},
    {"uniform:1048576:32", 4, 64, 1048576, 32, 0, 32, SpmmAlgorithm::row_team, {32, 8, 1, 2048, 0, 0, 8}, 2200.87},
    {"uniform:1048576:32", 4, 128, 1048576, 32, 0, 32, SpmmAlgorithm::row_team, {16, 16, 1, 2048, 0, 0, 8}, 2130.02},
    {"uniform:1048576:32", 4, 256, 1048576, 32, 0, 32, SpmmAlgorithm::row_team, {4, 64, 1, 512, 0, 0, 4}, 2106.66},
    {"uniform:2048:128", 4, 32, 2048, 128, 0, 128, SpmmAlgorithm::row_team, {8, 32, 1, 2048, 0, 0}, 916.587},
    {"uniform:2048:128", 4, 64, 2048, 128, 0, 128, SpmmAlgorithm::row_team, {16, 16, 1, 2048, 0, 0, 4}, 1691.25},
    {"uniform:2048:128", 4, 128, 2048, 128, 0, 128, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 3111.5},
    {"uniform:2048:128", 4, 256, 2048, 128, 0, 128, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 4275.54},
    {"uniform:262144:8", 4, 32, 262144, 8, 0, 8, SpmmAlgorithm::row_team, {64, 4, 1, 2048, 0, 0, 8}, 1823.61},
    {"uniform:262144:8", 4, 64, 262144, 8, 0, 8, SpmmAlgorithm::row_team, {32, 8, 1, 2048, 0, 0, 8}, 1970.08},
    {"uniform:262144:8", 4, 128, 262144, 8, 0, 8, SpmmAlgorithm::row_team, {16, 16, 1, 512, 0, 0, 8}, 2060.07},
    {"uniform:262144:8", 4, 256, 262144, 8, 0, 8, SpmmAlgorithm::k_tiled, {4, 64, 1, 2048, 0, 0, 2}, 2055.28},
    {"uniform:4096:64", 4, 32, 4096, 64, 0, 64, SpmmAlgorithm::row_team, {16, 16, 1, 2048, 0, 0, 2}, 1022},
    {"uniform:4096:64", 4, 64, 4096, 64, 0, 64, SpmmAlgorithm::row_team, {16, 16, 1, 2048, 0, 0, 4}, 1829.98},
    {"uniform:4096:64", 4, 128, 4096, 64, 0, 64, SpmmAlgorithm::row_team, {16, 16, 1, 2048, 0, 0, 8}, 2845.53},
    {"uniform:4096:64", 4, 256, 4096, 64, 0, 64, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 4}, 3572.66},
    {"uniform:8192:32", 4, 32, 8192, 32, 0, 32, SpmmAlgorithm::row_team, {32, 8, 1, 2048, 0, 0, 4}, 1010.19},
    {"uniform:8192:32", 4, 64, 8192, 32, 0, 32, SpmmAlgorithm::row_team, {16, 16, 1, 2048, 0, 0, 4}, 1693.98},
    {"uniform:8192:32", 4, 128, 8192, 32, 0, 32, SpmmAlgorithm::row_team, {16, 16, 1, 2048, 0, 0, 8}, 2449.94},
    {"uniform:8192:32", 4, 256, 8192, 32, 0, 32, SpmmAlgorithm::row_team, {4, 64, 1, 512, 0, 0, 2}, 3223.91},
    {},  // end of table
};

}  // namespace spk::tuning
