#pragma once
// spk SpMV tuning table 'spmv_openmp': the fastest algorithm and launch shape per swept matrix and precision.
// Written by spk-bench --sweep; regenerate rather than edit.
// command: build/openmp/perf/spk-bench --suite sweep-cpu --precision both --algo automatic,kokkoskernels,graphblas,eigen --sweep backends/tuning/spmv_openmp.hpp --reps 10 --warmup 2 
// device: AMD EPYC, 2 threads in OpenMP; back-end: OpenMP (Kokkos 4.6.99); ceiling 11.529 GB/s
#include <spk/select/spmv_tuning_entry.hpp>

namespace spk::tuning {

// matrix, scalar bytes, rows, mean, stddev, max row length, algorithm,
// {team, vector, rows/thread, stage, chunk, long row}, GB/s in the sweep
inline constexpr SpmvTuningEntry spmv_openmp[] = {
    {"Cornell5", 4, 18660, 84.7564, 85.9895, 3156, SpmvAlgorithm::vector_row, {1, 1, 256, 0, 0, 0}, 17.8464},
    {"Cornell5", 8, 18660, 84.7564, 85.9895, 3156, SpmvAlgorithm::thread_row, {1, 1, 64, 0, 0, 0}, 28.1019},
    {"band:2000000:5", 4, 2000000, 5, 0, 5, SpmvAlgorithm::thread_row, {1, 1, 1024, 0, 0, 0}, 17.5896},
    {"band:2000000:5", 8, 2000000, 5, 0, 5, SpmvAlgorithm::thread_row, {1, 1, 1024, 0, 0, 0}, 16.4366},
    {"lap2d:1024", 4, 1048576, 4.99609, 0.0624389, 5, SpmvAlgorithm::vector_row, {1, 1, 256, 0, 0, 0}, 19.9203},
    {"lap2d:1024", 8, 1048576, 4.99609, 0.0624389, 5, SpmvAlgorithm::thread_row, {1, 1, 64, 0, 0, 0}, 25.8009},
    {"lap2d:256", 4, 65536, 4.98438, 0.124511, 5, SpmvAlgorithm::long_row_split, {1, 1, 256, 0, 65536, 65536}, 16.5476},
    {"lap2d:256", 8, 65536, 4.98438, 0.124511, 5, SpmvAlgorithm::thread_row, {1, 1, 1024, 0, 0, 0}, 42.4011},
    {"ogbl_ddi", 4, 4267, 500.544, 420.478, 2234, SpmvAlgorithm::thread_row, {1, 1, 64, 0, 0, 0}, 14.983},
    {"ogbl_ddi", 8, 4267, 500.544, 420.478, 2234, SpmvAlgorithm::thread_row, {1, 1, 64, 0, 0, 0}, 21.3441},
    {"rmat:16:8", 4, 65536, 7.54433, 42.6475, 3825, SpmvAlgorithm::vector_row, {1, 1, 256, 0, 0, 0}, 8.07174},
    {"rmat:16:8", 8, 65536, 7.54433, 42.6475, 3825, SpmvAlgorithm::thread_row, {1, 1, 1024, 0, 0, 0}, 12.8541},
    {"rmat:18:16", 4, 262144, 15.026, 104.759, 15772, SpmvAlgorithm::vector_row, {1, 1, 256, 0, 0, 0}, 9.2542},
    {"rmat:18:16", 8, 262144, 15.026, 104.759, 15772, SpmvAlgorithm::thread_row, {1, 1, 256, 0, 0, 0}, 11.7784},
    {"skewed:262144", 4, 262144, 56.8262, 3124.49, 200000, SpmvAlgorithm::thread_row, {1, 1, 1024, 0, 0, 0}, 14.181},
    {"skewed:262144", 8, 262144, 56.8262, 3124.49, 200000, SpmvAlgorithm::thread_row, {1, 1, 256, 0, 0, 0}, 21.0053},
    {"st3d27:64", 4, 262144, 26.165, 2.66063, 27, SpmvAlgorithm::long_row_split, {1, 1, 256, 0, 16384, 16384}, 21.5926},
    {"st3d27:64", 8, 262144, 26.165, 2.66063, 27, SpmvAlgorithm::long_row_split, {1, 1, 256, 0, 65536, 65536}, 24.739},
    {"uniform:1048576:16", 4, 1048576, 16, 0, 16, SpmvAlgorithm::long_row_split, {1, 1, 256, 0, 65536, 65536}, 11.5035},
    {"uniform:1048576:16", 8, 1048576, 16, 0, 16, SpmvAlgorithm::long_row_split, {1, 1, 256, 0, 65536, 65536}, 8.39667},
    {"uniform:1048576:4", 4, 1048576, 4, 0, 4, SpmvAlgorithm::thread_row, {1, 1, 256, 0, 0, 0}, 9.23533},
    {"uniform:1048576:4", 8, 1048576, 4, 0, 4, SpmvAlgorithm::vector_row, {1, 1, 256, 0, 0, 0}, 8.59053},
    {"uniform:65536:256", 4, 65536, 256, 0, 256, SpmvAlgorithm::long_row_split, {1, 1, 256, 0, 65536, 65536}, 15.0527},
    {"uniform:65536:256", 8, 65536, 256, 0, 256, SpmvAlgorithm::thread_row, {1, 1, 1024, 0, 0, 0}, 17.7601},
    {},  // end of table
};

}  // namespace spk::tuning
