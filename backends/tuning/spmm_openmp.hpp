#pragma once
// spk SpMM tuning table 'spmm_openmp': the fastest algorithm and launch shape per swept
// matrix, precision and k. Written by spk-bench --sweep; regenerate rather than edit.
// command: build/openmp/perf/spk-bench --suite sweep-spmm-cpu --op spmm --k 32 --precision both --algo automatic --interleave --reps 5 --warmup 1 --sweep backends/tuning/spmm_openmp.hpp --json /tmp/sweep_spmm_il1.json --quiet
// device: AMD EPYC, 2 threads in OpenMP, host SpMM code for AVX2 + FMA, SpMV row vectors by scalar loads; back-end: OpenMP (Kokkos 4.6.99); ceiling 12.8494 GB/s
#include <spk/select/spmm_tuning_entry.hpp>

namespace spk::tuning {

// matrix, scalar bytes, k, rows, mean, stddev, max row length, algorithm,
// {team, vector, rows/thread, stage, chunk, long row[, columns/lane[, tile]]}, GFLOP/s in the sweep
inline constexpr SpmmTuningEntry spmm_openmp[] = {
    {"Cornell5", 4, 32, 18660, 84.7564, 85.9895, 3156, SpmmAlgorithm::k_tiled, {1, 1, 1, 16384, 0, 0, 16}, 29.5215},
    {"Cornell5", 8, 32, 18660, 84.7564, 85.9895, 3156, SpmmAlgorithm::row_team, {1, 1, 1, 16384, 0, 0, 16}, 11.4107},
    {"band:262144:5", 4, 32, 262144, 5, 0, 5, SpmmAlgorithm::row_team, {1, 1, 1, 16384, 0, 0, 16}, 3.39285},
    {"band:262144:5", 8, 32, 262144, 5, 0, 5, SpmmAlgorithm::row_team, {1, 1, 1, 2048, 0, 0, 8}, 2.38224},
    {"lap2d:512", 4, 32, 262144, 4.99219, 0.0882155, 5, SpmmAlgorithm::vector_row, {1, 1, 64, 0, 0, 0, 16}, 14.2688},
    {"lap2d:512", 8, 32, 262144, 4.99219, 0.0882155, 5, SpmmAlgorithm::vector_row, {1, 1, 512, 0, 0, 0, 8}, 7.38279},
    {"ogbl_ddi", 4, 32, 4267, 500.544, 420.478, 2234, SpmmAlgorithm::k_tiled, {1, 1, 1, 16384, 0, 0, 16}, 30.4136},
    {"ogbl_ddi", 8, 32, 4267, 500.544, 420.478, 2234, SpmmAlgorithm::k_tiled, {1, 1, 1, 16384, 0, 0, 16}, 19.4324},
    {"rmat:16:16", 4, 32, 65536, 14.5759, 77.0832, 6336, SpmmAlgorithm::k_tiled, {1, 1, 1, 16384, 0, 0, 16}, 5.49137},
    {"rmat:16:16", 8, 32, 65536, 14.5759, 77.0832, 6336, SpmmAlgorithm::row_team, {1, 1, 1, 16384, 0, 0, 16}, 2.93515},
    {"skewed:65536", 4, 32, 65536, 71.9922, 2046.75, 65536, SpmmAlgorithm::vector_row, {1, 1, 512, 0, 0, 0, 16}, 20.742},
    {"skewed:65536", 8, 32, 65536, 71.9922, 2046.75, 65536, SpmmAlgorithm::row_pieces, {1, 1, 1, 0, 4096, 0, 16}, 5.2778},
    {"uniform:131072:16", 4, 32, 131072, 16, 0, 16, SpmmAlgorithm::row_team, {1, 1, 1, 2048, 0, 0, 16}, 2.73277},
    {"uniform:131072:16", 8, 32, 131072, 16, 0, 16, SpmmAlgorithm::row_team, {1, 1, 1, 16384, 0, 0, 16}, 1.66596},
    {},  // end of table
};

}  // namespace spk::tuning
