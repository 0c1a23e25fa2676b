#pragma once
// spk SpMM tuning table 'spmm_hip': the fastest algorithm and launch shape per swept
// matrix, precision and k. Written by spk-bench --sweep; regenerate rather than edit.
// command: bin/x/spk-bench --matrix gen:rmat:20:16 gen:rmat:18:8 gen:uniform:1048576:32 gen:uniform:262144:8 gen:band:2000000:5 gen:skewed:1000000 gen:lap2d:1024 gen:st3d27:64 gen:rmat:12:32 gen:rmat:12:16 gen:lap2d:128 gen:uniform:8192:32 gen:uniform:4096:64 gen:uniform:2048:128 matrices/bench/ogbl_ddi.mtx.gz matrices/bench/Cornell5.mtx.gz matrices/small/Groebner_id2003_aug.mtx matrices/small/arrow.mtx matrices/small/bayer10.mtx matrices/small/pushpull.mtx matrices/small/sparse-images-1024_subset.mtx --op spmm --k 32 --precision float --algo automatic --sweep /root/out/spmm_cuda_k32.hpp --sweep-hip /root/out/spmm_hip_k32.hpp --reps 5 --warmup 1 --quiet
// command: bin/x/spk-bench --matrix gen:rmat:20:16 gen:rmat:18:8 gen:uniform:1048576:32 gen:uniform:262144:8 gen:band:2000000:5 gen:skewed:1000000 gen:lap2d:1024 gen:st3d27:64 gen:rmat:12:32 gen:rmat:12:16 gen:lap2d:128 gen:uniform:8192:32 gen:uniform:4096:64 gen:uniform:2048:128 matrices/bench/ogbl_ddi.mtx.gz matrices/bench/Cornell5.mtx.gz matrices/small/Groebner_id2003_aug.mtx matrices/small/arrow.mtx matrices/small/bayer10.mtx matrices/small/pushpull.mtx matrices/small/sparse-images-1024_subset.mtx --op spmm --k 64 --precision float --algo automatic --sweep /root/out/spmm_cuda_k64.hpp --sweep-hip /root/out/spmm_hip_k64.hpp --reps 5 --warmup 1 --quiet
// command: bin/x/spk-bench --matrix gen:rmat:20:16 gen:rmat:18:8 gen:uniform:1048576:32 gen:uniform:262144:8 gen:band:2000000:5 gen:skewed:1000000 gen:lap2d:1024 gen:st3d27:64 gen:rmat:12:32 gen:rmat:12:16 gen:lap2d:128 gen:uniform:8192:32 gen:uniform:4096:64 gen:uniform:2048:128 matrices/bench/ogbl_ddi.mtx.gz matrices/bench/Cornell5.mtx.gz matrices/small/Groebner_id2003_aug.mtx matrices/small/arrow.mtx matrices/small/bayer10.mtx matrices/small/pushpull.mtx matrices/small/sparse-images-1024_subset.mtx --op spmm --k 128 --precision float --algo automatic --sweep /root/out/spmm_cuda_k128.hpp --sweep-hip /root/out/spmm_hip_k128.hpp --reps 5 --warmup 1 --quiet
// command: bin/x/spk-bench --matrix gen:rmat:20:16 gen:rmat:18:8 gen:uniform:1048576:32 gen:uniform:262144:8 gen:band:2000000:5 gen:skewed:1000000 gen:lap2d:1024 gen:st3d27:64 gen:rmat:12:32 gen:rmat:12:16 gen:lap2d:128 gen:uniform:8192:32 gen:uniform:4096:64 gen:uniform:2048:128 matrices/bench/ogbl_ddi.mtx.gz matrices/bench/Cornell5.mtx.gz matrices/small/Groebner_id2003_aug.mtx matrices/small/arrow.mtx matrices/small/bayer10.mtx matrices/small/pushpull.mtx matrices/small/sparse-images-1024_subset.mtx --op spmm --k 256 --precision float --algo automatic --sweep /root/out/spmm_cuda_k256.hpp --sweep-hip /root/out/spmm_hip_k256.hpp --reps 5 --warmup 1 --quiet
// (one sweep run per k, their entries merged into this table; the candidates include lane groups and vector-row)
// device: NVIDIA H200 (sm_90, 132 SMs, 139 GiB, L2 60 MiB); back-end: Cuda (Kokkos 4.6.99); ceiling 4183.71 GB/s
// HIP starting table: derived from the measurements above with a full warp (32) widened to a full
// wavefront (64) and teams of at least 64 threads (SpMM: columns per lane halved, so a row's
// column tile keeps its width; one column per lane stays 32 lanes); not measured on an AMD GPU.
#include <spk/select/spmm_tuning_entry.hpp>

namespace spk::tuning {

// matrix, scalar bytes, k, rows, mean, stddev, max row length, algorithm,
// {team, vector, rows/thread, stage, chunk, long row[, columns/lane]}, GFLOP/s in the sweep
inline constexpr SpmmTuningEntry spmm_hip[] = {
    {"Cornell5", 4, 32, 18660, 84.7564, 85.9895, 3156, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0, 2}, 1821.02},
    {"Cornell5", 4, 64, 18660, 84.7564, 85.9895, 3156, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0, 2}, 2640.32},
    {"Cornell5", 4, 128, 18660, 84.7564, 85.9895, 3156, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0, 2}, 3420.5},
    {"Cornell5", 4, 256, 18660, 84.7564, 85.9895, 3156, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0, 2}, 3736.14},
    {"Groebner_id2003_aug", 4, 32, 4967, 34.9648, 97.0428, 829, SpmmAlgorithm::vector_row, {4, 64, 1, 0, 0, 512, 2}, 517.645},
    {"Groebner_id2003_aug", 4, 64, 4967, 34.9648, 97.0428, 829, SpmmAlgorithm::row_team, {16, 16, 1, 128, 0, 0, 4}, 890.615},
    {"Groebner_id2003_aug", 4, 128, 4967, 34.9648, 97.0428, 829, SpmmAlgorithm::row_team, {4, 64, 1, 128, 0, 0, 2}, 1511.82},
    {"Groebner_id2003_aug", 4, 256, 4967, 34.9648, 97.0428, 829, SpmmAlgorithm::k_tiled, {4, 64, 1, 128, 0, 0, 2}, 2083},
    {"arrow", 4, 32, 46500, 2.99996, 215.627, 46500, SpmmAlgorithm::flat, {16, 16, 1, 0, 64, 0, 2}, 147.227},
    {"arrow", 4, 64, 46500, 2.99996, 215.627, 46500, SpmmAlgorithm::flat, {16, 16, 1, 0, 64, 0, 4}, 292.142},
    {"arrow", 4, 128, 46500, 2.99996, 215.627, 46500, SpmmAlgorithm::flat, {16, 16, 1, 0, 64, 0, 8}, 406.108},
    {"arrow", 4, 256, 46500, 2.99996, 215.627, 46500, SpmmAlgorithm::flat, {4, 64, 1, 0, 64, 0, 4}, 465.381},
    {"band:2000000:5", 4, 32, 2000000, 5, 0, 5, SpmmAlgorithm::row_team, {64, 4, 1, 2048, 0, 0, 8}, 1752.08},
    {"band:2000000:5", 4, 64, 2000000, 5, 0, 5, SpmmAlgorithm::row_team, {32, 8, 1, 2048, 0, 0, 8}, 2152.51},
    {"band:2000000:5", 4, 128, 2000000, 5, 0, 5, SpmmAlgorithm::row_team, {4, 64, 1, 512, 0, 0, 2}, 2344.18},
    {"band:2000000:5", 4, 256, 2000000, 5, 0, 5, SpmmAlgorithm::row_team, {4, 64, 1, 512, 0, 0, 4}, 2661.48},
    {"bayer10", 4, 32, 13436, 7.06505, 7.44954, 27, SpmmAlgorithm::row_team, {32, 8, 1, 512, 0, 0, 4}, 510.355},
    {"bayer10", 4, 64, 13436, 7.06505, 7.44954, 27, SpmmAlgorithm::row_team, {16, 16, 1, 512, 0, 0, 4}, 727.402},
    {"bayer10", 4, 128, 13436, 7.06505, 7.44954, 27, SpmmAlgorithm::row_team, {4, 64, 1, 512, 0, 0, 2}, 1161.17},
    {"bayer10", 4, 256, 13436, 7.06505, 7.44954, 27, SpmmAlgorithm::k_tiled, {4, 64, 1, 512, 0, 0, 2}, 1718.12},
    {"lap2d:1024", 4, 32, 1048576, 4.99609, 0.0624389, 5, SpmmAlgorithm::row_team, {64, 4, 1, 2048, 0, 0, 8}, 1708.95},
    {"lap2d:1024", 4, 64, 1048576, 4.99609, 0.0624389, 5, SpmmAlgorithm::row_team, {32, 8, 1, 2048, 0, 0, 8}, 2122.04},
    {"lap2d:1024", 4, 128, 1048576, 4.99609, 0.0624389, 5, SpmmAlgorithm::row_team, {16, 16, 1, 2048, 0, 0, 8}, 2331.72},
    {"lap2d:1024", 4, 256, 1048576, 4.99609, 0.0624389, 5, SpmmAlgorithm::row_team, {4, 64, 1, 512, 0, 0, 4}, 2565.2},
    {"lap2d:128", 4, 32, 16384, 4.96875, 0.17539, 5, SpmmAlgorithm::row_team, {32, 8, 1, 512, 0, 0, 4}, 467.862},
    {"lap2d:128", 4, 64, 16384, 4.96875, 0.17539, 5, SpmmAlgorithm::row_team, {16, 16, 1, 512, 0, 0, 4}, 762.604},
    {"lap2d:128", 4, 128, 16384, 4.96875, 0.17539, 5, SpmmAlgorithm::row_team, {4, 64, 1, 512, 0, 0, 2}, 1090.89},
    {"lap2d:128", 4, 256, 16384, 4.96875, 0.17539, 5, SpmmAlgorithm::k_tiled, {4, 64, 1, 512, 0, 0, 2}, 1521.64},
    {"ogbl_ddi", 4, 32, 4267, 500.544, 420.478, 2234, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0, 2}, 2249.42},
    {"ogbl_ddi", 4, 64, 4267, 500.544, 420.478, 2234, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0, 2}, 3129.41},
    {"ogbl_ddi", 4, 128, 4267, 500.544, 420.478, 2234, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0, 2}, 3983.81},
    {"ogbl_ddi", 4, 256, 4267, 500.544, 420.478, 2234, SpmmAlgorithm::k_tiled, {4, 64, 1, 128, 0, 0, 2}, 4330.1},
    {"pushpull", 4, 32, 4000, 49.0763, 46.5341, 124, SpmmAlgorithm::vector_row, {4, 64, 1, 0, 0, 512, 2}, 952.937},
    {"pushpull", 4, 64, 4000, 49.0763, 46.5341, 124, SpmmAlgorithm::vector_row, {4, 64, 1, 0, 0, 0, 2}, 1414.81},
    {"pushpull", 4, 128, 4000, 49.0763, 46.5341, 124, SpmmAlgorithm::vector_row, {4, 64, 1, 0, 0, 0, 2}, 2110.81},
    {"pushpull", 4, 256, 4000, 49.0763, 46.5341, 124, SpmmAlgorithm::vector_row, {4, 64, 1, 0, 0, 0, 4}, 2839.86},
    {"rmat:12:16", 4, 32, 4096, 13.0388, 38.7347, 957, SpmmAlgorithm::row_team, {4, 64, 1, 128, 0, 0, 2}, 230.203},
    {"rmat:12:16", 4, 64, 4096, 13.0388, 38.7347, 957, SpmmAlgorithm::row_team, {4, 64, 1, 128, 0, 0, 4}, 423.026},
    {"rmat:12:16", 4, 128, 4096, 13.0388, 38.7347, 957, SpmmAlgorithm::flat, {4, 64, 1, 0, 32, 0, 2}, 667.588},
    {"rmat:12:16", 4, 256, 4096, 13.0388, 38.7347, 957, SpmmAlgorithm::flat, {4, 64, 1, 0, 32, 0, 4}, 1084.41},
    {"rmat:12:32", 4, 32, 4096, 23.7368, 63.6239, 1376, SpmmAlgorithm::row_team, {4, 64, 1, 128, 0, 0, 2}, 360.096},
    {"rmat:12:32", 4, 64, 4096, 23.7368, 63.6239, 1376, SpmmAlgorithm::row_team, {4, 64, 1, 128, 0, 0, 4}, 625.248},
    {"rmat:12:32", 4, 128, 4096, 23.7368, 63.6239, 1376, SpmmAlgorithm::flat, {4, 64, 1, 0, 64, 0, 2}, 1008.83},
    {"rmat:12:32", 4, 256, 4096, 23.7368, 63.6239, 1376, SpmmAlgorithm::flat, {4, 64, 1, 0, 64, 0, 4}, 1558.73},
    {"rmat:18:8", 4, 32, 262144, 7.69365, 57.067, 9447, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 777.354},
    {"rmat:18:8", 4, 64, 262144, 7.69365, 57.067, 9447, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 1196.76},
    {"rmat:18:8", 4, 128, 262144, 7.69365, 57.067, 9447, SpmmAlgorithm::flat, {4, 64, 1, 0, 128, 0, 2}, 1941.14},
    {"rmat:18:8", 4, 256, 262144, 7.69365, 57.067, 9447, SpmmAlgorithm::flat, {4, 64, 1, 0, 128, 0, 4}, 2314.39},
    {"rmat:20:16", 4, 32, 1048576, 15.3408, 140.336, 39268, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 1173},
    {"rmat:20:16", 4, 64, 1048576, 15.3408, 140.336, 39268, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 1754.15},
    {"rmat:20:16", 4, 128, 1048576, 15.3408, 140.336, 39268, SpmmAlgorithm::flat, {4, 64, 1, 0, 128, 0, 2}, 2439.53},
    {"rmat:20:16", 4, 256, 1048576, 15.3408, 140.336, 39268, SpmmAlgorithm::flat, {4, 64, 1, 0, 128, 0, 4}, 2709.48},
    {"skewed:1000000", 4, 32, 1000000, 20.7995, 1599.88, 200000, SpmmAlgorithm::flat, {16, 16, 1, 0, 256, 0, 2}, 1325.27},
    {"skewed:1000000", 4, 64, 1000000, 20.7995, 1599.88, 200000, SpmmAlgorithm::flat, {16, 16, 1, 0, 256, 0, 4}, 1775.87},
    {"skewed:1000000", 4, 128, 1000000, 20.7995, 1599.88, 200000, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0, 2}, 1886.38},
    {"skewed:1000000", 4, 256, 1000000, 20.7995, 1599.88, 200000, SpmmAlgorithm::flat, {4, 64, 1, 0, 256, 0, 4}, 1953.91},
    {"sparse-images-1024_subset", 4, 32, 1200, 102.261, 37.8487, 276, SpmmAlgorithm::vector_row, {4, 64, 1, 0, 0, 1024, 4}, 576.117},
    {"sparse-images-1024_subset", 4, 64, 1200, 102.261, 37.8487, 276, SpmmAlgorithm::flat, {4, 64, 1, 0, 64, 0, 2}, 859.636},
    {"sparse-images-1024_subset", 4, 128, 1200, 102.261, 37.8487, 276, SpmmAlgorithm::flat, {4, 64, 1, 0, 64, 0, 2}, 1533.91},
    {"sparse-images-1024_subset", 4, 256, 1200, 102.261, 37.8487, 276, SpmmAlgorithm::flat, {4, 64, 1, 0, 64, 0, 2}, 2283.03},
    {"st3d27:64", 4, 32, 262144, 26.165, 2.66063, 27, SpmmAlgorithm::row_team, {64, 4, 1, 2048, 0, 0, 8}, 3014.94},
    {"st3d27:64", 4, 64, 262144, 26.165, 2.66063, 27, SpmmAlgorithm::vector_row, {32, 8, 4, 0, 0, 0, 8}, 3408.2},
    {"st3d27:64", 4, 128, 262144, 26.165, 2.66063, 27, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 4414.48},
    {"st3d27:64", 4, 256, 262144, 26.165, 2.66063, 27, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 4670.16},
    {"uniform:1048576:32", 4, 32, 1048576, 32, 0, 32, SpmmAlgorithm::vector_row, {32, 8, 1, 0, 0, 0, 4}, 2313.06},
    {"uniform:1048576:32", 4, 64, 1048576, 32, 0, 32, SpmmAlgorithm::row_team, {32, 8, 1, 2048, 0, 0, 8}, 2204.12},
    {"uniform:1048576:32", 4, 128, 1048576, 32, 0, 32, SpmmAlgorithm::vector_row, {4, 64, 1, 0, 0, 512, 2}, 2133.64},
    {"uniform:1048576:32", 4, 256, 1048576, 32, 0, 32, SpmmAlgorithm::k_tiled, {4, 64, 1, 512, 0, 0, 2}, 2109.73},
    {"uniform:2048:128", 4, 32, 2048, 128, 0, 128, SpmmAlgorithm::vector_row, {4, 64, 1, 0, 0, 2048, 2}, 1401.84},
    {"uniform:2048:128", 4, 64, 2048, 128, 0, 128, SpmmAlgorithm::vector_row, {4, 64, 1, 0, 0, 2048, 2}, 1993.49},
    {"uniform:2048:128", 4, 128, 2048, 128, 0, 128, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 2849.39},
    {"uniform:2048:128", 4, 256, 2048, 128, 0, 128, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 3819.95},
    {"uniform:262144:8", 4, 32, 262144, 8, 0, 8, SpmmAlgorithm::row_team, {64, 4, 1, 2048, 0, 0, 8}, 1859.18},
    {"uniform:262144:8", 4, 64, 262144, 8, 0, 8, SpmmAlgorithm::row_team, {32, 8, 1, 2048, 0, 0, 8}, 2048.5},
    {"uniform:262144:8", 4, 128, 262144, 8, 0, 8, SpmmAlgorithm::row_team, {16, 16, 1, 512, 0, 0, 8}, 2128.01},
    {"uniform:262144:8", 4, 256, 262144, 8, 0, 8, SpmmAlgorithm::k_tiled, {4, 64, 1, 512, 0, 0, 2}, 2139.95},
    {"uniform:4096:64", 4, 32, 4096, 64, 0, 64, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 1239.45},
    {"uniform:4096:64", 4, 64, 4096, 64, 0, 64, SpmmAlgorithm::row_team, {16, 16, 1, 2048, 0, 0, 4}, 2114.06},
    {"uniform:4096:64", 4, 128, 4096, 64, 0, 64, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 2785.06},
    {"uniform:4096:64", 4, 256, 4096, 64, 0, 64, SpmmAlgorithm::row_team, {4, 64, 1, 2048, 0, 0, 2}, 3530.56},
    {"uniform:8192:32", 4, 32, 8192, 32, 0, 32, SpmmAlgorithm::vector_row, {32, 8, 1, 0, 0, 512, 4}, 1310.72},
    {"uniform:8192:32", 4, 64, 8192, 32, 0, 32, SpmmAlgorithm::vector_row, {32, 8, 1, 0, 0, 512, 8}, 2052.01},
    {"uniform:8192:32", 4, 128, 8192, 32, 0, 32, SpmmAlgorithm::row_team, {4, 64, 1, 512, 0, 0, 2}, 2576.35},
    {"uniform:8192:32", 4, 256, 8192, 32, 0, 32, SpmmAlgorithm::row_team, {4, 64, 1, 512, 0, 0, 2}, 3355.44},
    {},  // end of table
};

}  // namespace spk::tuning
