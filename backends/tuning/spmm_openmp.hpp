#pragma once
// spk SpMM tuning table 'spmm_openmp': the fastest algorithm and launch shape per swept
// matrix, precision and k. Written by spk-bench --sweep; regenerate rather than edit.
// command: build/openmp/perf/spk-bench --suite sweep-spmm-cpu --op spmm --k 32 --precision both --algo automatic --reps 5 --warmup 1 --sweep backends/tuning/spmm_openmp.hpp --json /tmp/sweep_spmm_cpu.json
// device: AMD EPYC, 2 threads in OpenMP; back-end: OpenMP (Kokkos 4.6.99); ceiling 11.4508 GB/s
#include <spk/select/spmm_tuning_entry.hpp>

namespace spk::tuning {

// matrix, scalar bytes, k, rows, mean, stddev, max row length, algorithm,
// {team, vector, rows/thread, stage, chunk, long row[, columns/lane]}, GFLOP/s in the sweep
inline constexpr SpmmTuningEntry spmm_openmp[] = {
    {"Cornell5", 4, 32, 18660, 84.7564, 85.9895, 3156, SpmmAlgorithm::row_team, {1, 1, 1, 2048, 0, 0, 16}, 11.6047},
    {"Cornell5", 8, 32, 18660, 84.7564, 85.9895, 3156, SpmmAlgorithm::k_tiled, {1, 1, 1, 16384, 0, 0, 16}, 6.59196},
    {"band:262144:5", 4, 32, 262144, 5, 0, 5, SpmmAlgorithm::row_team, {1, 1, 1, 2048, 0, 0, 16}, 4.84181},
    {"band:262144:5", 8, 32, 262144, 5, 0, 5, SpmmAlgorithm::row_team, {1, 1, 1, 16384, 0, 0, 16}, 3.61248},
    {"lap2d:512", 4, 32, 262144, 4.99219, 0.0882155, 5, SpmmAlgorithm::row_team, {1, 1, 1, 16384, 0, 0, 16}, 16.0474},
    {"lap2d:512", 8, 32, 262144, 4.99219, 0.0882155, 5, SpmmAlgorithm::row_team, {1, 1, 1, 16384, 0, 0, 16}, 9.84775},
    {"ogbl_ddi", 4, 32, 4267, 500.544, 420.478, 2234, SpmmAlgorithm::k_tiled, {1, 1, 1, 16384, 0, 0, 16}, 25.7002},
    {"ogbl_ddi", 8, 32, 4267, 500.544, 420.478, 2234, SpmmAlgorithm::row_team, {1, 1, 1, 2048, 0, 0, 16}, 10.0674},
    {"rmat:16:16", 4, 32, 65536, 14.5759, 77.0832, 6336, SpmmAlgorithm::row_team, {1, 1, 1, 2048, 0, 0, 16}, 7.91401},
    {"rmat:16:16", 8, 32, 65536, 14.5759, 77.0832, 6336, SpmmAlgorithm::flat, {1, 1, 1, 0, 256, 0, 8}, 4.22783},
    {"skewed:65536", 4, 32, 65536, 71.9922, 2046.75, 65536, SpmmAlgorithm::k_tiled, {1, 1, 1, 16384, 0, 0, 16}, 17.9364},
    {"skewed:65536", 8, 32, 65536, 71.9922, 2046.75, 65536, SpmmAlgorithm::flat, {1, 1, 1, 0, 1024, 0, 16}, 4.70799},
    {"uniform:131072:16", 4, 32, 131072, 16, 0, 16, SpmmAlgorithm::row_team, {1, 1, 1, 16384, 0, 0, 16}, 4.07673},
    {"uniform:131072:16", 8, 32, 131072, 16, 0, 16, SpmmAlgorithm::row_team, {1, 1, 1, 2048, 0, 0, 16}, 2.22543},
    {},  // end of table
};

}  // namespace spk::tuning
