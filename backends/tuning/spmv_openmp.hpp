#pragma once
// spk SpMV tuning table 'spmv_openmp': the fastest algorithm and launch shape per swept
// matrix, precision. Written by spk-bench --sweep; regenerate rather than edit.
// command: build/openmp/perf/spk-bench --suite sweep-cpu --precision both --algo automatic,kokkoskernels,graphblas,eigen --sweep backends/tuning/spmv_openmp.hpp --interleave --reps 20 --warmup 2 --json /tmp/r/sweepA.json --quiet
// device: AMD EPYC, 2 threads in OpenMP, host SpMM code for AVX2 + FMA, SpMV row vectors by scalar loads; back-end: OpenMP (Kokkos 4.6.99); ceiling 13.6833 GB/s
#include <spk/select/spmv_tuning_entry.hpp>

namespace spk::tuning {

// matrix, scalar bytes, rows, mean, stddev, max row length, algorithm,
// {team, vector, rows/thread, stage, chunk, long row[, 1, 0, pipelined stage[, true: balanced row sums]]}, GB/s in the sweep[, true: it read packed column indices]
inline constexpr SpmvTuningEntry spmv_openmp[] = {
    {"Cornell5", 4, 18660, 84.7564, 85.9895, 3156, SpmvAlgorithm::vector_row, {1, 1, 256, 0, 0, 0}, 17.1726},
    {"Cornell5", 8, 18660, 84.7564, 85.9895, 3156, SpmvAlgorithm::thread_row, {1, 1, 1024, 0, 0, 0}, 16.6794},
    {"band:2000000:5", 4, 2000000, 5, 0, 5, SpmvAlgorithm::thread_row, {1, 1, 1024, 0, 0, 0}, 10.2367},
    {"band:2000000:5", 8, 2000000, 5, 0, 5, SpmvAlgorithm::vector_row, {1, 1, 256, 0, 0, 0}, 11.2085},
    {"lap2d:1024", 4, 1048576, 4.99609, 0.0624389, 5, SpmvAlgorithm::thread_row, {1, 1, 1024, 0, 0, 0}, 10.9583},
    {"lap2d:1024", 8, 1048576, 4.99609, 0.0624389, 5, SpmvAlgorithm::vector_row, {1, 1, 256, 0, 0, 0}, 14.5228},
    {"lap2d:256", 4, 65536, 4.98438, 0.124511, 5, SpmvAlgorithm::vector_row, {1, 1, 256, 0, 0, 0}, 12.119},
    {"lap2d:256", 8, 65536, 4.98438, 0.124511, 5, SpmvAlgorithm::vector_row, {1, 1, 256, 0, 0, 0}, 26.5419},
    {"ogbl_ddi", 4, 4267, 500.544, 420.478, 2234, SpmvAlgorithm::vector_row, {1, 1, 256, 0, 0, 0}, 14.8516},
    {"ogbl_ddi", 8, 4267, 500.544, 420.478, 2234, SpmvAlgorithm::vector_row, {1, 1, 256, 0, 0, 0}, 17.1454},
    {"rmat:16:8", 4, 65536, 7.54433, 42.6475, 3825, SpmvAlgorithm::thread_row, {1, 1, 1024, 0, 0, 0}, 8.61945},
    {"rmat:16:8", 8, 65536, 7.54433, 42.6475, 3825, SpmvAlgorithm::vector_row, {1, 1, 256, 0, 0, 0}, 11.6878},
    {"rmat:18:16", 4, 262144, 15.026, 104.759, 15772, SpmvAlgorithm::vector_row, {1, 1, 256, 0, 0, 0}, 5.74676},
    {"rmat:18:16", 8, 262144, 15.026, 104.759, 15772, SpmvAlgorithm::long_row_split, {1, 1, 256, 0, 65536, 65536}, 7.55508},
    {"skewed:262144", 4, 262144, 56.8262, 3124.49, 200000, SpmvAlgorithm::thread_row, {1, 1, 1024, 0, 0, 0}, 13.0268},
    {"skewed:262144", 8, 262144, 56.8262, 3124.49, 200000, SpmvAlgorithm::thread_row, {1, 1, 256, 0, 0, 0}, 12.8976},
    {"st3d27:64", 4, 262144, 26.165, 2.66063, 27, SpmvAlgorithm::thread_row, {1, 1, 1024, 0, 0, 0}, 12.9313},
    {"st3d27:64", 8, 262144, 26.165, 2.66063, 27, SpmvAlgorithm::thread_row, {1, 1, 256, 0, 0, 0}, 14.4679},
    {"uniform:1048576:16", 4, 1048576, 16, 0, 16, SpmvAlgorithm::thread_row, {1, 1, 1024, 0, 0, 0}, 4.39395},
    {"uniform:1048576:16", 8, 1048576, 16, 0, 16, SpmvAlgorithm::long_row_split, {1, 1, 256, 0, 65536, 65536}, 5.10903},
    {"uniform:1048576:4", 4, 1048576, 4, 0, 4, SpmvAlgorithm::thread_row, {1, 1, 1024, 0, 0, 0}, 5.64562},
    {"uniform:1048576:4", 8, 1048576, 4, 0, 4, SpmvAlgorithm::vector_row, {1, 1, 256, 0, 0, 0}, 7.00845},
    {"uniform:65536:256", 4, 65536, 256, 0, 256, SpmvAlgorithm::thread_row, {1, 1, 1024, 0, 0, 0}, 10.4063},
    {"uniform:65536:256", 8, 65536, 256, 0, 256, SpmvAlgorithm::thread_row, {1, 1, 64, 0, 0, 0}, 11.0024},
    {},  // end of table
};

}  // namespace spk::tuning
