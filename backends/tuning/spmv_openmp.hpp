#pragma once
// spk SpMV tuning table 'spmv_openmp': the fastest algorithm and launch shape per swept
// matrix, precision. Written by spk-bench --sweep; regenerate rather than edit.
// command: build/openmp/perf/spk-bench --suite sweep-cpu --precision both --algo automatic,kokkoskernels,graphblas,eigen --sweep backends/tuning/spmv_openmp.hpp --interleave --reps 20 --warmup 2 --json /tmp/sweep_spmv_il.json --quiet
// device: AMD EPYC, 2 threads in OpenMP, host SpMM code for AVX2 + FMA, SpMV row vectors by scalar loads; back-end: OpenMP (Kokkos 4.6.99); ceiling 12.3296 GB/s
#include <spk/select/spmv_tuning_entry.hpp>

namespace spk::tuning {

// matrix, scalar bytes, rows, mean, stddev, max row length, algorithm,
// {team, vector, rows/thread, stage, chunk, long row[, 1, 0, pipelined stage[, true: balanced row sums]]}, GB/s in the sweep[, true: it read packed column indices]
inline constexpr SpmvTuningEntry spmv_openmp[] = {
    {"Cornell5", 4, 18660, 84.7564, 85.9895, 3156, SpmvAlgorithm::long_row_split, {1, 1, 256, 0, 65536, 65536}, 6.95172},
    {"Cornell5", 8, 18660, 84.7564, 85.9895, 3156, SpmvAlgorithm::thread_row, {1, 1, 1024, 0, 0, 0}, 13.4326},
    {"band:2000000:5", 4, 2000000, 5, 0, 5, SpmvAlgorithm::thread_row, {1, 1, 1024, 0, 0, 0}, 9.60545},
    {"band:2000000:5", 8, 2000000, 5, 0, 5, SpmvAlgorithm::vector_row, {1, 1, 256, 0, 0, 0}, 9.33416},
    {"lap2d:1024", 4, 1048576, 4.99609, 0.0624389, 5, SpmvAlgorithm::thread_row, {1, 1, 256, 0, 0, 0}, 11.8688},
    {"lap2d:1024", 8, 1048576, 4.99609, 0.0624389, 5, SpmvAlgorithm::vector_row, {1, 1, 256, 0, 0, 0}, 15.6192},
    {"lap2d:256", 4, 65536, 4.98438, 0.124511, 5, SpmvAlgorithm::thread_row, {1, 1, 1024, 0, 0, 0}, 11.7454},
    {"lap2d:256", 8, 65536, 4.98438, 0.124511, 5, SpmvAlgorithm::vector_row, {1, 1, 256, 0, 0, 0}, 25.8173},
    {"ogbl_ddi", 4, 4267, 500.544, 420.478, 2234, SpmvAlgorithm::vector_row, {1, 1, 256, 0, 0, 0}, 17.3621},
    {"ogbl_ddi", 8, 4267, 500.544, 420.478, 2234, SpmvAlgorithm::vector_row, {1, 1, 256, 0, 0, 0}, 15.076},
    {"rmat:16:8", 4, 65536, 7.54433, 42.6475, 3825, SpmvAlgorithm::thread_row, {1, 1, 1024, 0, 0, 0}, 7.41841},
    {"rmat:16:8", 8, 65536, 7.54433, 42.6475, 3825, SpmvAlgorithm::vector_row, {1, 1, 256, 0, 0, 0}, 10.7202},
    {"rmat:18:16", 4, 262144, 15.026, 104.759, 15772, SpmvAlgorithm::vector_row, {1, 1, 256, 0, 0, 0}, 6.60069},
    {"rmat:18:16", 8, 262144, 15.026, 104.759, 15772, SpmvAlgorithm::thread_row, {1, 1, 256, 0, 0, 0}, 9.05198},
    {"skewed:262144", 4, 262144, 56.8262, 3124.49, 200000, SpmvAlgorithm::vector_row, {1, 1, 256, 0, 0, 0}, 12.9767},
    {"skewed:262144", 8, 262144, 56.8262, 3124.49, 200000, SpmvAlgorithm::thread_row, {1, 1, 1024, 0, 0, 0}, 11.592},
    {"st3d27:64", 4, 262144, 26.165, 2.66063, 27, SpmvAlgorithm::vector_row, {1, 1, 256, 0, 0, 0}, 14.164},
    {"st3d27:64", 8, 262144, 26.165, 2.66063, 27, SpmvAlgorithm::vector_row, {1, 1, 256, 0, 0, 0}, 16.0386},
    {"uniform:1048576:16", 4, 1048576, 16, 0, 16, SpmvAlgorithm::vector_row, {1, 1, 256, 0, 0, 0}, 5.60045},
    {"uniform:1048576:16", 8, 1048576, 16, 0, 16, SpmvAlgorithm::vector_row, {1, 1, 256, 0, 0, 0}, 6.14756},
    {"uniform:1048576:4", 4, 1048576, 4, 0, 4, SpmvAlgorithm::thread_row, {1, 1, 1024, 0, 0, 0}, 5.28764},
    {"uniform:1048576:4", 8, 1048576, 4, 0, 4, SpmvAlgorithm::thread_row, {1, 1, 1024, 0, 0, 0}, 5.80295},
    {"uniform:65536:256", 4, 65536, 256, 0, 256, SpmvAlgorithm::long_row_split, {1, 1, 256, 0, 16384, 16384}, 9.00394},
    {"uniform:65536:256", 8, 65536, 256, 0, 256, SpmvAlgorithm::vector_row, {1, 1, 256, 0, 0, 0}, 10.2829},
    {},  // end of table
};

}  // namespace spk::tuning
