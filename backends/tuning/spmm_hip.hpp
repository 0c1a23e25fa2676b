#pragma once
// spk SpMM tuning table 'spmm_hip': the fastest algorithm and launch shape per swept
// matrix, precision and k. Written by spk-bench --sweep; regenerate rather than edit.
// command: /tmp/bin/spk-bench --suite sweep-spmm-gpu --op spmm --k 32 --precision float --algo automatic --sweep /root/out/spmm_cuda_k32.hpp --sweep-hip /root/out/spmm_hip_k32.hpp --reps 5 --warmup 1 --json /tmp/sweep_k32.json
// command: /tmp/bin/spk-bench --suite sweep-spmm-gpu --op spmm --k 64 --precision float --algo automatic --sweep /root/out/spmm_cuda_k64.hpp --sweep-hip /root/out/spmm_hip_k64.hpp --reps 5 --warmup 1 --json /tmp/sweep_k64.json
// command: /tmp/bin/spk-bench --suite sweep-spmm-gpu --op spmm --k 128 --precision float --algo automatic --sweep /root/out/spmm_cuda_k128.hpp --sweep-hip /root/out/spmm_hip_k128.hpp --reps 5 --warmup 1 --json /tmp/sweep_k128.json
// command: /tmp/bin/spk-bench --suite sweep-spmm-gpu --op spmm --k 256 --precision float --algo automatic --sweep /root/out/spmm_cuda_k256.hpp --sweep-hip /root/out/spmm_hip_k256.hpp --reps 5 --warmup 1 --json /tmp/sweep_k256.json
// (one sweep run per k, their entries merged into this table; the candidates include a full warp whose
// surplus lanes form lane groups sharing each row's nonzeros)
// device: NVIDIA H200 (sm_90, 132 SMs, 139 GiB, L2 60 MiB); back-end: Cuda (Kokkos 4.6.99); ceiling 4187.5 GB/s
// HIP starting table: derived from the measurements above with a full warp (32) widened to a full
// wavefront (64) and teams of at least 64 threads (SpMM: columns per lane halved, so a row's
// column tile keeps its width; one column per lane stays 32 lanes); not measured on an AMD GPU.
#include <spk/select/spmm_tuning_entry.hpp>

namespace spk::tuning {

// matrix, scalar bytes, k, rows, mean, stddev, max row length, algorithm,
// {team, vector, rows/thread, stage, chunk, long row[, columns/lane]}, GFLOP/s in the sweep
inline constexpr SpmmTuningEntry spmm_hip[] = {
    {"band:2000000:5", 4, 32, 2000000, 5, 0, 5, SpmmAlgorithm::row_team, {64, 4, 1, 2048, 0, 0, 8}, 1723.25},
    {"band:2000000:5", 4, 64, 2000000, 5, 0, 5, SpmmAlgorithm::row_team, {32, 8, 1, 2048, 0, 0, 8}, 2125.74},
    {"band:2000000:5", 4, 128, 2000000, 5, 0, 5, SpmmAlgorithm::row_team, {4, 64, 1, 512, 0, 0, 2}, 2355.44},
    {"band:2000000:5", 4, 256, 2000000, 5, 0, 5, SpmmAlgorithm::row_team, {4, 64, 1, 512, 0, 0, 2}, 2666.49},
    {"Cornell5", 4, 32, 18660, 84.7564, 85.9895, 3156, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0, 2}, 1633.84},
    {"Cornell5", 4, 64, 18660, 84.7564, 85.9895, 3156, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0, 2}, 2628.26},
    {"Cornell5", 4, 128, 18660, 84.7564, 85.9895, 3156, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0, 2}, 3398.45},
    {"Cornell5", 4, 256, 18660, 84.7564, 85.9895, 3156, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0, 2}, 3722.95},
    {"lap2d:1024", 4, 32, 1048576, 4.99609, 0.0624389, 5, SpmmAlgorithm::row_team, {64, 4, 1, 2048, 0, 0, 8}, 1705.33},
    {"lap2d:1024", 4, 64, 1048576, 4.99609, 0.0624389, 5, SpmmAlgorithm::row_team, {32, 8, 1, 2048, 0, 0, 8}, 2079.5},
    {"lap2d:1024", 4, 128, 1048576, 4.99609, 0.0624389, 5, SpmmAlgorithm::row_team, {16, 16, 1, 2048, 0, 0, 8}, 2344.76},
    {"lap2d:1024", 4, 256, 1048576, 4.99609, 0.0624389, 5, SpmmAlgorithm::row_team, {4, 64, 1, 512, 0, 0, 4}, 2569.45},
    {"lap2d:128", 4, 32, 16384, 4.96875, 0.17539, 5, SpmmAlgorithm::row_team, {64, 4, 1, 512, 0, 0, 8}, 470.566},
    {"lap2d:128", 4, 64, 16384, 4.96875, 0.17539, 5, SpmmAlgorithm::row_team, {16, 16, 1, 512, 0, 0, 4}, 768},
    {"lap2d:128", 4, 128, 16384, 4.96875, 0.17539, 5, SpmmAlgorithm::row_team, {4, 64, 1, 512, 0, 0, 2}, 1096.4},
    {"lap2d:128", 4, 256, 16384, 4.96875, 0.17539, 5, SpmmAlgorithm::row_team, {4, 64, 1, 512, 0, 0, 2}, 1575},
    {"ogbl_ddi", 4, 32, 4267, 500.544, 420.478, 2234, SpmmAlgorithm::row_team, {32, 8, 1, 128, 0, 0, 4}, 2077.65},
    {"ogbl_ddi", 4, 64, 4267, 500.544, 420.478, 2234, SpmmAlgorithm::row_team, {16, 16, 1, 128, 0, 0, 4}, 3171.23},
    {"ogbl_ddi", 4, 128, 4267, 500.544, 420.478, 2234, SpmmAlgorithm::row_team, {4, 64, 1, 128, 0, 0, 2}, 4012.82},
    {"ogbl_ddi", 4, 256, 4267, 500.544, 420.478, 2234, SpmmAlgorithm::k_tiled, {4, 64, 1, 128, 0, 0, 2}, 4347.73},
    {"rmat:12:16", 4, 32, 4096, 13.0388, 38.7347, 957, SpmmAlgorithm::row_team, {8, 32, 1, 128, 0, 0}, 226.781},
    {"rmat:12:16", 4, 64, 4096, 13.0388, 38.7347, 957, SpmmAlgorithm::row_team, {4, 64, 1, 128, 0, 0, 2}, 396.341},
    {"rmat:12:16", 4, 128, 4096, 13.0388, 38.7347, 957, SpmmAlgorithm::flat, {4, 64, 1, 0, 32, 0, 2}, 706.208},
    {"rmat:12:16", 4, 256, 4096, 13.0388, 38.7347, 957, SpmmAlgorithm::flat, {4, 64, 1, 0, 32, 0, 4}, 1083.03},
    {"rmat:12:32", 4, 32, 4096, 23.7368, 63.6239, 1376, SpmmAlgorithm::row_team, {4, 64, 1, 512, 0, 0, 2}, 375.39},
    {"rmat:12:32", 4, 64, 4096, 23.7368, 63.6239, 1376, SpmmAlgorithm::row_team, {4, 64, 1, 128, 0, 0, 4}, 614.382},
    {"rmat:12:32", 4, 128, 4096, 23.7368, 63.6239, 1376, SpmmAlgorithm::flat, {4, 64, 1, 0, 64, 0, 2}, 1028.85},
    {"rmat:12:32", 4, 256, 4096, 23.7368, 63.6239, 1376, SpmmAlgorithm::flat, {4, 64, 1, 0, 64, 0, 4}, 1554.06},
    {"rmat:18:8", 4, 32, 262144, 7.69365, 57.067, 9447, SpmmAlgorithm::row_team, {8, 32, 1, 2048, 0, 0}, 748.365},
    {"rmat:18:8", 4, 64, 262144, 7.69365, 57.067, 9447, SpmmAlgorithm::flat, {16, 16, 1, 0, 128, 0, 4}, 1190.76},
    {"rmat:18:8", 4, 128, 262144, 7.69365, 57.067, 9447, SpmmAlgorithm::flat, {4, 64, 1, 0, 128, 0, 2}, 1876.35},
    {"rmat:18:8", 4, 256, 262144, 7.69365, 57.067, 9447, SpmmAlgorithm::flat, {4, 64, 1, 0, 128, 0, 4}, 2307.44},
    {"rmat:20:16", 4, 32, 1048576, 15.3408, 140.336, 39268, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 1103.25},
    {"rmat:20:16", 4, 64, 1048576, 15.3408, 140.336, 39268, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 1721.81},
    {"rmat:20:16", 4, 128, 1048576, 15.3408, 140.336, 39268, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 2357.05},
    {"rmat:20:16", 4, 256, 1048576, 15.3408, 140.336, 39268, SpmmAlgorithm::flat, {4, 64, 1, 0, 128, 0, 4}, 2704.58},
    {"skewed:1000000", 4, 32, 1000000, 20.7995, 1599.88, 200000, SpmmAlgorithm::flat, {16, 16, 1, 0, 256, 0, 2}, 1326.2},
    {"skewed:1000000", 4, 64, 1000000, 20.7995, 1599.88, 200000, SpmmAlgorithm::flat, {16, 16, 1, 0, 256, 0, 4}, 1773.75},
    {"skewed:1000000", 4, 128, 1000000, 20.7995, 1599.88, 200000, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0, 2}, 1895.88},
    {"skewed:1000000", 4, 256, 1000000, 20.7995, 1599.88, 200000, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0, 4}, 1955.15},
    {"st3d27:64", 4, 32, 262144, 26.165, 2.66063, 27, SpmmAlgorithm::row_team, {64, 4, 1, 2048, 0, 0, 8}, 3012.3},
    {"st3d27:64", 4, 64, 262144, 26.165, 2.66063, 27, SpmmAlgorithm::row_team, {16, 16, 1, 2048, 0, 0, 4}, 3432.5},
    {"st3d27:64", 4, 128, 262144, 26.165, 2.66063, 27, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 4431.95},
    {"st3d27:64", 4, 256, 262144, 26.165, 2.66063, 27, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 4760.72},
    {"uniform:1048576:32", 4, 32, 1048576, 32, 0, 32, SpmmAlgorithm::row_team, {32, 8, 1, 2048, 0, 0, 4}, 2101.42},
    {"uniform:1048576:32", 4, 64, 1048576, 32, 0, 32, SpmmAlgorithm::row_team, {32, 8, 1, 2048, 0, 0, 8}, 2202.89},
    {"uniform:1048576:32", 4, 128, 1048576, 32, 0, 32, SpmmAlgorithm::row_team, {16, 16, 1, 2048, 0, 0, 8}, 2131.47},
    {"uniform:1048576:32", 4, 256, 1048576, 32, 0, 32, SpmmAlgorithm::k_tiled, {4, 64, 1, 512, 0, 0, 2}, 2110.53},
    {"uniform:2048:128", 4, 32, 2048, 128, 0, 128, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 4}, 1208.04},
    {"uniform:2048:128", 4, 64, 2048, 128, 0, 128, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 2072.28},
    {"uniform:2048:128", 4, 128, 2048, 128, 0, 128, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 3075},
    {"uniform:2048:128", 4, 256, 2048, 128, 0, 128, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 3669.56},
    {"uniform:262144:8", 4, 32, 262144, 8, 0, 8, SpmmAlgorithm::row_team, {64, 4, 1, 2048, 0, 0, 8}, 1839.61},
    {"uniform:262144:8", 4, 64, 262144, 8, 0, 8, SpmmAlgorithm::row_team, {32, 8, 1, 2048, 0, 0, 8}, 2053.51},
    {"uniform:262144:8", 4, 128, 262144, 8, 0, 8, SpmmAlgorithm::row_team, {16, 16, 1, 512, 0, 0, 8}, 2123.7},
    {"uniform:262144:8", 4, 256, 262144, 8, 0, 8, SpmmAlgorithm::k_tiled, {4, 64, 1, 512, 0, 0, 2}, 2140.77},
    {"uniform:4096:64", 4, 32, 4096, 64, 0, 64, SpmmAlgorithm::row_team, {16, 16, 1, 2048, 0, 0, 2}, 1239.45},
    {"uniform:4096:64", 4, 64, 4096, 64, 0, 64, SpmmAlgorithm::row_team, {16, 16, 1, 2048, 0, 0, 4}, 2097.15},
    {"uniform:4096:64", 4, 128, 4096, 64, 0, 64, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 2748.56},
    {"uniform:4096:64", 4, 256, 4096, 64, 0, 64, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 3581.81},
    {"uniform:8192:32", 4, 32, 8192, 32, 0, 32, SpmmAlgorithm::row_team, {16, 16, 1, 2048, 0, 0, 2}, 1152.28},
    {"uniform:8192:32", 4, 64, 8192, 32, 0, 32, SpmmAlgorithm::row_team, {16, 16, 1, 2048, 0, 0, 4}, 2012.62},
    {"uniform:8192:32", 4, 128, 8192, 32, 0, 32, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 2557.5},
    {"uniform:8192:32", 4, 256, 8192, 32, 0, 32, SpmmAlgorithm::row_team, {4, 64, 1, 512, 0, 0, 2}, 3368.92},
    {},  // end of table
};

}  // namespace spk::tuning
