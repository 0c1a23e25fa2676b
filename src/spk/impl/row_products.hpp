#pragma once
// A team's walk over the intermediate products of one row of C = A*B, for the hash and dense accumulators. The row's
// entries of A are staged a chunk at a time in team scratch (where each one's row of B starts, its value, and an
// exclusive sum of the rows' lengths), then every lane of the team takes every team_lanes-th product of the chunk,
// finds its entry by galloping forward over the sums and loads the product from B: the expansion of ESC (Dalton,
// Olson and Bell, "Optimizing sparse matrix-matrix multiplication for the GPU", 2015) one chunk at a time, with the
// accumulation left to the caller.
//
// The other mapping, threads over A's entries and lanes over each one's row of B, chains three dependent loads per
// entry (A's column, B's offsets, B's entries) and idles the lanes of short rows of B; the flat walk loads a chunk's
// offsets with all lanes at once, and a lane's products do not wait on one another, so it keeps several loads in
// flight. It costs registers and instructions per product, though: where B's rows fill a vector, threads over A's
// entries do better (H200, fp64, numeric phase, by entries and flat: st3d27 64 9.4 and 14.6 ms; rmat 16 8 12.4 and
// 9.0 ms; Cornell5 12.0 and 7.5 ms). select::spgemm_walk_chunk chooses.
#include <cstdint>

#include <Kokkos_Core.hpp>

#include "lane_groups.hpp"
#include "sorted_search.hpp"
#include "vector_scan.hpp"

namespace spk::impl {

// Most threads a team walking products may have: the stage keeps a running total per thread.
inline constexpr int product_walk_max_threads = 64;

// The walk's team scratch: `chunk` entries of A at a time.
template <class Views>
struct ProductStage {
  using Scalar = typename Views::scalar_type;
  using BOffset = typename Views::b_offset_type;
  using scratch_space = typename Views::execution_space::scratch_memory_space;
  template <class T>
  using scratch = Kokkos::View<T*, scratch_space, Kokkos::MemoryUnmanaged>;

  std::int64_t* first = nullptr;          // chunk + 1: each staged entry's first product, then the chunk's total
  BOffset* b_at = nullptr;                // chunk: where the entry's row of B (or the part of it walked) starts
  Scalar* a = nullptr;                    // chunk, numeric only: the entry's value
  std::int64_t* thread_totals = nullptr;  // one per thread
  int chunk = 0;

  // chunk = 0: no stage (the walk by entries).
  static std::size_t bytes(int chunk, bool numeric) {
    if (chunk == 0) return 0;
    return scratch<std::int64_t>::shmem_size(chunk + 1) + scratch<BOffset>::shmem_size(chunk) +
           (numeric ? scratch<Scalar>::shmem_size(chunk) : 0) +
           scratch<std::int64_t>::shmem_size(product_walk_max_threads);
  }

  template <class Member>
  KOKKOS_INLINE_FUNCTION ProductStage(const Member& team, int chunk_, bool numeric) : chunk(chunk_) {
    if (chunk == 0) return;
    first = scratch<std::int64_t>(team.team_scratch(0), chunk + 1).data();
    b_at = scratch<BOffset>(team.team_scratch(0), chunk).data();
    if (numeric) a = scratch<Scalar>(team.team_scratch(0), chunk).data();
    thread_totals = scratch<std::int64_t>(team.team_scratch(0), product_walk_max_threads).data();
  }
};

// Where A's entry j's row of B starts and ends; with `narrow` (B's rows sorted), only its part in columns [lo, hi).
template <class Views>
struct BRowPart {
  typename Views::b_offset_type begin, end;
};
template <class Views>
KOKKOS_INLINE_FUNCTION BRowPart<Views> b_row_part(const Views& v, typename Views::ordinal_type j, bool narrow,
                                                  std::int64_t lo, std::int64_t hi) {
  BRowPart<Views> part{v.b_map(j), v.b_map(j + 1)};
  if (narrow) {
    part.begin = lower_bound(v.b_ent, part.begin, part.end, lo);
    part.end = lower_bound(v.b_ent, part.begin, part.end, hi);
  }
  return part;
}

// Threads over A's row, lanes over each entry's row of B.
template <bool numeric, class Member, class Views, class Visit>
KOKKOS_INLINE_FUNCTION void walk_by_entries(const Member& team, const Views& v, int row, bool narrow,
                                            std::int64_t lo, std::int64_t hi, const Visit& visit) {
  using Scalar = typename Views::scalar_type;
  using Offset = typename Views::offset_type;
  const Offset a_begin = v.a_map(row);
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, static_cast<int>(v.a_map(row + 1) - a_begin)), [&](int p) {
    const auto b = b_row_part(v, v.a_ent(a_begin + p), narrow, lo, hi);
    const Scalar a = numeric ? v.a_val(a_begin + p) : Scalar(0);
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, static_cast<int>(b.end - b.begin)), [&](const int q) {
      visit(v.b_ent(b.begin + q), numeric ? a * v.b_val(b.begin + q) : Scalar(0));
    });
  });
  team.team_barrier();
}

// The staged walk: a chunk of A's row at a time, every lane over every team_lanes-th product of the chunk.
template <bool numeric, class Member, class Views, class Visit>
KOKKOS_INLINE_FUNCTION void walk_flat(const Member& team, const Views& v, int row, const ProductStage<Views>& stage,
                                      int lanes, bool narrow, std::int64_t lo, std::int64_t hi, const Visit& visit) {
  using Scalar = typename Views::scalar_type;
  using Ordinal = typename Views::ordinal_type;
  using Offset = typename Views::offset_type;
  using BOffset = typename Views::b_offset_type;
  constexpr int batch = 4;  // products a lane loads before it visits them
  const int team_lanes = team.team_size() * lanes;
  const int lane = team.team_rank() * lanes + vector_lane();
  const Offset a_begin = v.a_map(row);
  const int a_len = static_cast<int>(v.a_map(row + 1) - a_begin);
  for (int c0 = 0; c0 < a_len; c0 += stage.chunk) {
    const int n = a_len - c0 < stage.chunk ? a_len - c0 : stage.chunk;
    const LaneRun run = team_lane_run(team, n, lanes);
    std::int64_t mine = 0;
    for (int t = run.first; t < run.last; ++t) {
      const Offset at = a_begin + c0 + t;
      const auto b = b_row_part(v, v.a_ent(at), narrow, lo, hi);
      stage.b_at[t] = b.begin;
      if (numeric) stage.a[t] = v.a_val(at);
      stage.first[t] = mine;
      mine += static_cast<std::int64_t>(b.end - b.begin);
    }
    std::int64_t total = 0;
    const std::int64_t before = exclusive_sum_over_team(team, mine, stage.thread_totals, total);
    for (int t = run.first; t < run.last; ++t) stage.first[t] += before;
    if (lane == 0) stage.first[n] = total;
    team.team_barrier();
    int e = 0;  // the entry of this lane's last product: its products only move forward
    for (std::int64_t k0 = lane; k0 < total; k0 += batch * team_lanes) {
      Ordinal column[batch];
      Scalar value[batch];
      for (int u = 0; u < batch; ++u) {
        const std::int64_t k = k0 + std::int64_t{u} * team_lanes;
        if (k >= total) continue;
        if (stage.first[e + 1] <= k) {
          // Gallop from e, then bisect: a step crosses one entry of a long row of B or many of short ones.
          int step = 1;
          ++e;
          while (e + step < n && stage.first[e + step] <= k) {
            e += step;
            step *= 2;
          }
          int past = e + step < n ? e + step : n;  // stage.first[e] <= k < stage.first[past]
          while (past - e > 1) {
            const int mid = (e + past) / 2;
            if (stage.first[mid] <= k)
              e = mid;
            else
              past = mid;
          }
        }
        const BOffset q = stage.b_at[e] + static_cast<BOffset>(k - stage.first[e]);
        column[u] = v.b_ent(q);
        value[u] = numeric ? stage.a[e] * v.b_val(q) : Scalar(0);
      }
      for (int u = 0; u < batch; ++u)
        if (k0 + std::int64_t{u} * team_lanes < total) visit(column[u], value[u]);
    }
    team.team_barrier();  // the next chunk overwrites the stage and the threads' totals
  }
}

// Calls visit(column, value) once for every product of A's row `row`, value = a * b when numeric (else zero). With
// `narrow` (B's rows sorted), only the products with columns in [lo, hi) are visited, and only they are loaded.
// Visits run concurrently on the team's lanes. `flat`: the staged walk through `stage` (whose chunk is then not 0),
// else threads over A's entries and lanes over B's rows. Every lane of the team calls it (`lanes`: the team's vector
// length); it ends with a team barrier after the last visit (a row of A without entries visits nothing).
template <bool numeric, bool flat, class Member, class Views, class Visit>
KOKKOS_INLINE_FUNCTION void for_each_product(const Member& team, const Views& v, int row,
                                             const ProductStage<Views>& stage, int lanes, bool narrow,
                                             std::int64_t lo, std::int64_t hi, const Visit& visit) {
  if constexpr (flat)
    walk_flat<numeric>(team, v, row, stage, lanes, narrow, lo, hi, visit);
  else
    walk_by_entries<numeric>(team, v, row, narrow, lo, hi, visit);
}

}  // namespace spk::impl
