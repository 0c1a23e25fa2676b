#pragma once
// SpGEMM capacities and launch shapes per back-end: how much team scratch a path may use, what fits in it, and how
// threads and lanes are laid over a row.
#include <algorithm>
#include <cstdint>

#include "../algorithms.hpp"
#include "../error.hpp"
#include "../impl/lane_groups.hpp"
#include "../impl/row_products.hpp"
#include "../launch_shape.hpp"

namespace spk::select {

// What the SpGEMM paths can hold on one back-end for one scalar type. Tables are powers of two.
struct SpgemmCapacity {
  int scratch_bytes = 0;          // team scratch a path may use
  int table_bytes = 0;            // of which hash tables, dense tiles and column ranks: the rest stages products
  int stage_entries = 0;          // entries of A a team's product walk stages at a time (row_products.hpp)
  int tiny_slots = 0;             // largest per-row table of the tiny path (the lanes of one thread)
  int hash_slots_symbolic = 0;    // largest team hash table: keys only
  int hash_slots_numeric = 0;     // keys and values
  int dense_width_symbolic = 0;   // columns per dense tile: a bit each
  int dense_width_numeric = 0;    // a bit, a value and a rank's share each
  int dense_max_passes = 0;       // rows needing more tiles than this go to the global hash when it fits
  int merge_lanes = 0;            // most vector lanes a row merge spreads its cursors over
  int merge_cursors = 0;          // rows of B each of those lanes follows
  int merge_max_columns = 0;      // rows with at most this many distinct columns (or a bound on them) merge
  std::int64_t merge_min_rows = 0;  // automatic merges only in matrices with at least this many rows
  int sort_max_products = 0;      // rows with at most this many products (and entries of A) sort in registers
  std::int64_t small_bin_rows = 0;  // a bin of at most this many rows joins the next busy bin that holds its rows
  std::int64_t sort_wave_lanes = 0;  // the device's threads (concurrency()): sort bins join while their lanes fit
  // The symbolic phase's temporaries up to this size live in the plan's allocation (kept with the plan) rather than
  // in one of their own: a separate cudaMalloc and cudaFree cost a small matrix's SpGEMM 15 to 90 us on the H200.
  static constexpr std::int64_t plan_keeps_temporaries_bytes = std::int64_t{4} << 20;
};

// Cursors per lane of the row merge: GPUs spread a row over lanes, a host thread follows every row of B itself. Four
// rather than two puts twice the rows in a warp for a few more compares per step (H200, same-process A/B, end to
// end: lap2d 1024 1.53-1.86 to 1.20-1.26 ms, band 1M x 5 2.36 to 1.88-1.99 ms, bayer10 unchanged).
template <class ExecSpace>
constexpr int merge_cursors_per_lane() {
  return is_host_space<ExecSpace>() ? 32 : 4;
}

// Team scratch a product walk of `entries` entries at a time takes, at most (ProductStage: a sum, an offset of B and
// a value per entry, a total per thread, each array padded by Kokkos for alignment).
inline long product_stage_bytes(long entries, long scalar_bytes) {
  return 8 * (entries + 2) + 8 * (entries + 1) + scalar_bytes * (entries + 1) +
         8 * (impl::product_walk_max_threads + 1);
}

inline int pow2_floor(long v) {
  int p = 1;
  while (2L * p <= v) p *= 2;
  return p;
}

// scratch_bytes: 0 for the back-end's budget, else a smaller budget (tests use it to force multi-pass tiles and
// global rows on small matrices).
template <class ExecSpace, class Scalar, class Ordinal>
SpgemmCapacity spgemm_capacity(int scratch_bytes) {
  long budget;
  if constexpr (is_host_space<ExecSpace>()) {
    budget = 256 * 1024;  // about a core's L2
  } else {
    // 48 KiB keeps several teams per SM resident; the reserve covers Kokkos's own team reduction space.
    budget = std::min<long>(Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(0), 48 * 1024) - 512;
  }
  if (scratch_bytes < 0)
    throw invalid_argument(detail::concat("spk::spgemm: scratch_bytes is ", scratch_bytes, ", expected >= 0"));
  if (scratch_bytes > 0) budget = std::min<long>(budget, scratch_bytes);
  const long key = sizeof(Ordinal), pair = sizeof(Ordinal) + sizeof(Scalar);
  if (budget < 1024)
    throw invalid_argument(detail::concat("spk::spgemm: scratch_bytes ", budget,
                                          " is below the 1024 bytes the smallest accumulators need"));
  SpgemmCapacity c;
  c.scratch_bytes = static_cast<int>(budget);
  // An eighth of the budget at most stages products (on GPUs 128 entries: about half a team's lanes stage an entry
  // each, and the tables keep 36 of Kokkos's 40 KiB).
  c.stage_entries = pow2_floor(std::min<long>(256, budget / 8 / (16 + static_cast<long>(sizeof(Scalar)))));
  const long tables = budget - product_stage_bytes(c.stage_entries, sizeof(Scalar));
  c.table_bytes = static_cast<int>(tables);
  c.tiny_slots = 64;
  c.hash_slots_symbolic = pow2_floor(tables / key);
  c.hash_slots_numeric = pow2_floor(tables / pair);
  // A dense tile's column takes a bit (symbolic), or a value, a bit and a bit's share of the words' ranks (numeric);
  // 320 bytes go to the threads' counts and Kokkos's padding.
  const long tile = tables - 320;
  c.dense_width_symbolic = static_cast<int>(8 * tile);
  c.dense_width_numeric = static_cast<int>(8 * tile / (8 * static_cast<long>(sizeof(Scalar)) + 2));
  c.dense_max_passes = 16;
  c.merge_lanes = impl::lane_groups_supported<ExecSpace>() ? max_vector_length<ExecSpace>() : 0;  // its shuffles
  c.merge_cursors = merge_cursors_per_lane<ExecSpace>();
  c.merge_max_columns = 64;  // one emitted column per step: longer rows do better in a table
  // A merge step waits on its lane's next load of B, so a merge kernel takes about its longest row's latency chain
  // however few rows it has. Only many rows at once hide that (H200, bayer10, 13k rows: its merge bins took 225 us
  // of numeric time where tiny and hash tables took 155 us for every row; lap2d 1024 and band 1M x 5 gained).
  c.merge_min_rows = is_host_space<ExecSpace>() ? 0 : 65536;
  // 8 slots a lane, at most 16 lanes a row (a bitonic network grows as n log^2 n). 128 rather than 64 sends the rows
  // of 65-128 products from hash tables to the sort: bayer10's numeric-only time 0.105 to 0.094 ms (H200, medians of
  // 4 processes); with 256, bayer10 and rajat01 took 0.51 and 0.90 ms end to end against 0.43 and 0.82 ms.
  c.sort_max_products = 128;
  // A GPU launch costs the host about 5 us (H200, Kokkos 4.6), as long as a small matrix's whole bin takes on the
  // device, and the ten-odd launches of a phase then set its pace; 512 rows fill less than one wave of the H200's
  // hash teams. A host "launch" costs next to nothing.
  c.small_bin_rows = is_host_space<ExecSpace>() ? 0 : 512;
  // Sort bins of any size also join while the joined launch's lanes fit the device's threads (the sort kernel's
  // launch bounds keep half of them resident, so at most two waves): the network runs in registers, so a short row in
  // a larger network costs little beside a launch (bayer10's five sort bins in one launch: numeric-only time 0.095 to
  // 0.078 ms, rmat 16 8's 9.6 to 8.2 ms, H200, medians of 4).
  c.sort_wave_lanes = is_host_space<ExecSpace>() ? 0 : static_cast<std::int64_t>(ExecSpace().concurrency());
  return c;
}

// Lanes follow the mean length of B's rows (the innermost loop); a tiny row gets one thread's lanes, a hash or
// dense row a whole team of `threads` lanes. Host back-ends run a thread per team and batch tiny rows.
template <class ExecSpace>
LaunchShape spgemm_shape(double mean_b_row_length, int threads, int tiny_slots) {
  LaunchShape shape;
  if constexpr (is_host_space<ExecSpace>()) {
    if (tiny_slots) shape.rows_per_thread = 32;
    return shape;
  }
  const int lanes = std::clamp(pow2_ceil(static_cast<long long>(mean_b_row_length + 0.5)), 4,
                               max_vector_length<ExecSpace>());
  // A tiny row's lanes take its flattened products, so they follow the table size rather than B's rows.
  shape.vector_length = tiny_slots ? std::clamp(tiny_slots / 4, 4, max_vector_length<ExecSpace>()) : lanes;
  shape.team_size = std::max(1, threads / shape.vector_length);
  return shape;
}

// The chunk of a hash or dense team's flat product walk, or 0 to walk by entries (row_products.hpp). Automatic walks
// flat on GPUs when B's rows are shorter than a full vector (the shape's lanes follow their mean length), whose
// lanes then idle over each row of B, or when B's longest row is over 8 times the mean (power-law graphs), which
// holds up one thread of the team while the others wait. Even, full rows keep the walk by entries ahead (H200, fp64,
// end to end, same session: st3d27 64 (27 a row) 11.3 ms by entries, 18.0 flat; Cornell5 (85 a row, longest many
// times that) 13.7 and 9.5 ms; ogbl_ddi (500 a row) 17.1 and 17.9 ms).
template <class ExecSpace>
int spgemm_walk_chunk(SpgemmWalk walk, const SpgemmCapacity& cap, const LaunchShape& shape, double mean_b_len,
                      std::int64_t max_b_len) {
  if (shape.team_size > impl::product_walk_max_threads) return 0;  // the stage keeps that many threads' totals
  if (walk == SpgemmWalk::flat) return cap.stage_entries;
  if (walk == SpgemmWalk::by_entries || is_host_space<ExecSpace>()) return 0;
  const bool skewed = static_cast<double>(max_b_len) > 8 * mean_b_len;
  return shape.vector_length < max_vector_length<ExecSpace>() || skewed ? cap.stage_entries : 0;
}

// A row merge's group of `lanes` lanes per row (the bin's), 128 threads per team on GPUs.
template <class ExecSpace>
LaunchShape spgemm_merge_shape(int lanes) {
  LaunchShape shape;
  if constexpr (!is_host_space<ExecSpace>()) {
    shape.vector_length = lanes;
    shape.team_size = std::max(1, 128 / lanes);
  }
  return shape;
}

}  // namespace spk::select
