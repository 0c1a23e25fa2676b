#pragma once
// The tuning sweep (--sweep): SpMV or SpMM with every algorithm at every candidate launch shape, each checked and
// timed; the fastest per (matrix, precision[, k]) becomes an entry of the back-end's tuning table
// (backends/tuning/spmv_<backend>.hpp or spmm_<backend>.hpp).
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <Kokkos_Core.hpp>
#include <spk/algorithms.hpp>
#include <spk/impl/spmm_common.hpp>
#include <spk/execution.hpp>
#include <spk/launch_shape.hpp>
#include <spk/matrix_stats.hpp>
#include <spk/select/spmm_select.hpp>

#include "report.hpp"

namespace spk_bench {

struct SweepRecord {
  std::string matrix;
  int scalar_bytes = 0;
  int k = 0;  // SpMM's dense width (0 for SpMV)
  spk::RowLengthStats stats;
  std::string algorithm;  // the enumerator, e.g. SpmvAlgorithm::flat
  spk::LaunchShape shape;
  double time_ms = 0, rate = 0;  // rate: GB/s (SpMV) or GFLOP/s (SpMM)
  bool packed_columns = false;   // SpMV: the candidate read 16-bit packed column indices
};

template <class Enum>
std::string enumerator(Enum a, const char* type) {
  std::string n(spk::to_string(a));
  for (auto& ch : n)
    if (ch == '-') ch = '_';
  return std::string(type) + "::" + n;
}

// The launch shapes the sweep tries: GPU shapes are whole teams of 128-256 threads with 8-48 KiB of scratch at
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
    for (int v = 2; v <= warp; v *= 2)
      for (const int rows_at_once : {1, 2, 4}) add(A::vector_row, threads / v, v, rows_at_once, 0, 0, 0);
    // stream's blocks fill about half their capacity (make_row_blocks), so 8 KiB gives blocks of 4 KiB of products:
    // more teams for a small matrix
    for (int v = 1; v <= warp; v *= 2)
      for (const int kib : {8, 16, 32}) add(A::stream, threads / v, v, 1, kib * 1024 / scalar_bytes, 0, 0);
    for (const int v : {1, 2, 4, 8, warp})
      for (const int kib : {8, 16, 32}) add(A::flat, threads / v, v, 1, 0, kib * 1024 / scalar_bytes, 0);
    // Teams of 128 and 512 threads too: the same stage over half or twice the threads (a team's fixed costs against
    // the nonzeros each thread stages; Cornell5's stream teams stage about 4 a thread, cuSPARSE's blocks 7).
    for (const int team_threads : {128, 512})
      for (const int v : {4, 8, warp})
        for (const int kib : {8, 16, 32}) {
          add(A::stream, team_threads / v, v, 1, kib * 1024 / scalar_bytes, 0, 0);
          add(A::flat, team_threads / v, v, 1, 0, kib * 1024 / scalar_bytes, 0);
        }
    // every stream shape so far pipelined too (LaunchShape::pipelined: it pays on small matrices only), then each
    // of those with balanced row sums (LaunchShape::balanced: it paid on Cornell5 and ogbl_ddi at some shapes only)
    for (std::size_t i = 0, n = out.size(); i < n; ++i)
      if (out[i].first == A::stream) {
        out.push_back(out[i]);
        out.back().second.pipelined = true;
      }
    // (run_spmv skips the copies whose stage and lanes' carries overflow a team's scratch)
    for (std::size_t i = 0, n = out.size(); i < n; ++i)
      if (out[i].first == A::stream) {
        out.push_back(out[i]);
        out.back().second.balanced = true;
      }
    for (const int v : {4, 8, warp})
      for (const int piece : {2048, 8192}) add(A::long_row_split, threads / v, v, 1, 0, piece, piece);
    // stream with its rows longer than the stage cut into pieces of 1 or 4 stages (run_spmv skips these shapes on a
    // matrix with no such row), each also by column windows (LaunchShape::windowed)
    for (const int v : {4, 8, warp})
      for (const int kib : {8, 16, 32})
        for (const int stages : {1, 4}) {
          const int stage = kib * 1024 / scalar_bytes;
          add(A::stream, threads / v, v, 1, stage, stages * stage, 0);
          out.push_back(out.back());
          out.back().second.windowed = true;
        }
  }
  return out;
}

// SpMM shapes: every columns-per-lane value the back-end compiles, with lanes to cover k (up to a warp), for each
// algorithm at stage capacities (row-team, k-tiled: 128, 512 and 2048 nonzeros on GPUs), chunks relative to the
// mean row (flat: half, 2x and 8x on GPUs) or rows per thread (vector-row: 1 and 4 on GPUs, and 1 with rows over 8
// mean rows to a team each), row-pieces' pieces and tiles (below); the small ones spread a small matrix over more
// warps.
// Shapes that need more team scratch than the back-end gives are left out.
template <class ExecSpace>
std::vector<std::pair<spk::SpmmAlgorithm, spk::LaunchShape>> spmm_sweep_candidates(int k, int scalar_bytes,
                                                                                   double mean_length) {
  using A = spk::SpmmAlgorithm;
  std::vector<std::pair<A, spk::LaunchShape>> out;
  const bool host = spk::is_host_space<ExecSpace>();
  const std::size_t scratch_max = spk::select::spmm_scratch_max<ExecSpace>();
  const int warp = spk::max_vector_length<ExecSpace>();
  const int chunk = std::max(host ? 256 : 16, spk::pow2_ceil(static_cast<long long>(2 * (mean_length + 1))));
  const int half_chunk = std::max(16, spk::pow2_ceil(static_cast<long long>(mean_length / 2 + 1)));
  const std::vector<int> capacities = host ? std::vector<int>{2048, 16384} : std::vector<int>{128, 512, 2048};
  std::vector<int> chunks{chunk, 4 * chunk};
  if (!host && half_chunk < chunk) chunks.insert(chunks.begin(), half_chunk);
  // `staged` nonzeros (values + 32-bit indices) plus the long-row partials fit the team scratch.
  const auto fits = [&](const spk::LaunchShape& s, int staged) {
    return static_cast<std::size_t>(staged) * (scalar_bytes + 4) + 64 +
               static_cast<std::size_t>(s.team_size) * s.vector_length * s.columns_per_lane * scalar_bytes <=
           scratch_max;
  };
  for (const int cpl : {1, 2, 4, 8, 16}) {
    if (!spk::impl::spmm_columns_per_lane_compiled<ExecSpace>(cpl)) continue;
    // The lanes k needs and, where that is less than a warp, a full warp whose surplus lanes form groups sharing
    // each row's nonzeros (lane_groups.hpp).
    const int needed = host ? 1 : std::clamp(spk::pow2_ceil(k) / cpl, 1, warp);
    std::vector<int> lane_counts{needed};
    if (needed < warp) lane_counts.push_back(warp);
    for (const int lanes : lane_counts) {
      spk::LaunchShape s;
      s.columns_per_lane = cpl;
      s.vector_length = lanes;
      s.team_size = host ? 1 : std::max(1, 256 / s.vector_length);
      for (const A a : {A::row_team, A::k_tiled})
        for (const int capacity : capacities) {
          s.stage_capacity = capacity;
          if (fits(s, capacity) && (a == A::row_team || s.vector_length * cpl < k)) out.emplace_back(a, s);
        }
      s.stage_capacity = 0;
      for (const int c : chunks) {
        s.chunk = c;
        if (fits(s, s.team_size * c)) out.emplace_back(A::flat, s);
      }
      s.chunk = 0;
      for (const int rows : host ? std::vector<int>{64, 512} : std::vector<int>{1, 4}) {
        s.rows_per_thread = rows;
        out.emplace_back(A::vector_row, s);
      }
      s.rows_per_thread = 1;
      if (!host) {  // rows of more than 8 mean rows (at least 256 nonzeros) to a team each
        s.long_row = std::max(256, spk::pow2_ceil(static_cast<long long>(8 * (mean_length + 1))));
        out.emplace_back(A::vector_row, s);
        s.long_row = 0;
      }
    }
    // k-tiled with column tiles of 128 or 256 bytes of a row of B, read with 16-byte loads by a vector of 8 or 16
    // lanes per row and 32 or 16 rows per team (cuSPARSE's csrmm_v3 runs 8 lanes x float4 per row): narrower than
    // the lanes k needs, so never tried above.
    if (!host && cpl * scalar_bytes == 16)
      for (const int tile_bytes : {128, 256}) {
        spk::LaunchShape s;
        s.columns_per_lane = cpl;
        s.vector_length = tile_bytes / 16;
        s.team_size = 256 / s.vector_length;
        if (s.vector_length >= warp || s.vector_length * cpl >= k) continue;
        for (const int capacity : {512, 2048}) {
          s.stage_capacity = capacity;
          if (fits(s, capacity)) out.emplace_back(A::k_tiled, s);
        }
      }
    // row-pieces: 16-byte loads, a warp per piece of 128-512 nonzeros, column tiles of 4-32 lanes' columns (lane
    // groups share the piece), 16 warps a team; a host thread takes a piece of up to 4096 across all of k.
    if (host && cpl == 16) {
      spk::LaunchShape s;
      s.columns_per_lane = cpl;
      s.chunk = 4096;
      out.emplace_back(A::row_pieces, s);
    }
    if (!host && cpl * scalar_bytes == 16)
      for (const int group : {4, 8, 16, 32}) {
        if (group > 4 && group * cpl > spk::pow2_ceil(k)) continue;  // wider than k: the same as a narrower tile
        spk::LaunchShape s;
        s.columns_per_lane = cpl;
        s.vector_length = warp;
        s.team_size = 512 / warp;
        s.tile_width = group * cpl;
        for (const int c : {128, 256, 512}) {
          s.chunk = c;
          out.emplace_back(A::row_pieces, s);
        }
      }
  }
  return out;
}

// Writes a tuning table: the fastest record per (matrix, precision[, k]), as a C++ header the selector includes.
// wavefront64: derive the HIP starting table from these (CUDA) measurements: a full warp becomes a full
// wavefront and teams keep at least one wavefront of threads. Throws when the file cannot be written.
void write_spmv_tuning_table(const std::string& path, const RunInfo& info, const std::vector<SweepRecord>& records,
                             bool wavefront64);
void write_spmm_tuning_table(const std::string& path, const RunInfo& info, const std::vector<SweepRecord>& records,
                             bool wavefront64);

}  // namespace spk_bench
