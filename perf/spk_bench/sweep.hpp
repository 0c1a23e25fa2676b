#pragma once
// The tuning sweep (--sweep): SpMV with every algorithm at every candidate launch shape, each checked and timed;
// the fastest per (matrix, precision) becomes an entry of the back-end's tuning table (backends/tuning/).
#include <string>
#include <utility>
#include <vector>

#include <Kokkos_Core.hpp>
#include <spk/algorithms.hpp>
#include <spk/execution.hpp>
#include <spk/launch_shape.hpp>
#include <spk/matrix_stats.hpp>

#include "report.hpp"

namespace spk_bench {

struct SweepRecord {
  std::string matrix;
  int scalar_bytes = 0;
  spk::RowLengthStats stats;
  spk::SpmvAlgorithm algorithm = spk::SpmvAlgorithm::automatic;
  spk::LaunchShape shape;
  double time_ms = 0, gbs = 0;
};

// The launch shapes the sweep tries: GPU shapes are whole teams of 128-256 threads with 16-48 KiB of scratch at
// most; host shapes vary the work per team.
template <class ExecSpace>
std::vector<std::pair<spk::SpmvAlgorithm, spk::LaunchShape>> spmv_sweep_candidates(int scalar_bytes) {
  using A = spk::SpmvAlgorithm;
  std::vector<std::pair<A, spk::LaunchShape>> out;
  const auto add = [&](A a, int team, int vector, int rows_per_thread, int stage, int chunk, int long_row) {
    spk::LaunchShape s;
    s.team_size = team;
    s.vector_length = vector;
    s.rows_per_thread = rows_per_thread;
    s.stage_capacity = stage;
    s.chunk = chunk;
    s.long_row = long_row;
    out.emplace_back(a, s);
  };
  if constexpr (spk::is_host_space<ExecSpace>()) {
    for (const int r : {64, 256, 1024}) add(A::thread_row, 1, 1, r, 0, 0, 0);
    add(A::vector_row, 1, 1, 256, 0, 0, 0);
    for (const int c : {2048, 8192, 32768}) add(A::stream, 1, 1, 1, c, 0, 0);
    for (const int c : {4096, 16384, 65536}) add(A::flat, 1, 1, 1, 0, c, 0);
    for (const int c : {16384, 65536}) add(A::long_row_split, 1, 1, 256, 0, c, c);
  } else {
    const int warp = spk::max_vector_length<ExecSpace>();
    const int threads = 256;
    // thread-row stages values and column indices; stay under what Kokkos gives a team (less alignment)
    const int max_stage = (Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(0) - 64) / (scalar_bytes + 4);
    for (const int team : {128, 256})
      for (const int per_row : {4, 8, 16})
        if (team * per_row <= max_stage) add(A::thread_row, team, 1, 1, team * per_row, 0, 0);
    for (int v = 2; v <= warp; v *= 2) add(A::vector_row, threads / v, v, 1, 0, 0, 0);
    for (int v = 1; v <= warp; v *= 2)
      for (const int kib : {16, 32}) add(A::stream, threads / v, v, 1, kib * 1024 / scalar_bytes, 0, 0);
    for (const int v : {1, 2, 4, 8, warp})
      for (const int kib : {8, 16, 32}) add(A::flat, threads / v, v, 1, 0, kib * 1024 / scalar_bytes, 0);
    for (const int v : {4, 8, warp})
      for (const int piece : {2048, 8192}) add(A::long_row_split, threads / v, v, 1, 0, piece, piece);
  }
  return out;
}

// Writes the tuning table: the fastest record per (matrix, precision), as a C++ header the selector includes.
// wavefront64: derive the HIP starting table from these (CUDA) measurements: a full warp becomes a full
// wavefront and teams keep at least one wavefront of threads. Throws when the file cannot be written.
void write_spmv_tuning_table(const std::string& path, const RunInfo& info, const std::vector<SweepRecord>& records,
                             bool wavefront64);

}  // namespace spk_bench
