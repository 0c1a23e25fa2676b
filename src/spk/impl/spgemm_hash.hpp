#pragma once
// SpGEMM hash rows: a team per row, its threads over the row of A and its lanes over the matching rows of B,
// inserting into one hash table sized for the row's bin (Nagasaka et al. 2017 for per-bin tables; Deveci, Trott,
// Rajamanickam, "Multithreaded sparse matrix-matrix multiplication for many-core and GPU architectures", 2018, for
// the team/vector mapping). The table lives in team scratch here and in a global pool for the global fallback
// (spgemm_global.hpp), which shares the row body below.
#include <cstdint>

#include <Kokkos_Core.hpp>

#include "../execution.hpp"
#include "../launch_shape.hpp"
#include "column_ranks.hpp"
#include "hash_table.hpp"
#include "row_products.hpp"
#include "spgemm_common.hpp"
#include "team_bitonic_sort.hpp"

namespace spk::impl {

// One row through a team-wide hash table of `slots` keys (and values when numeric), its products walked by
// for_each_product through `stage`; `counter` is one team-shared int and `lanes` the team's vector length. Symbolic
// writes the distinct count to c_map(row); numeric writes the row, sorted or in table order. A sorted row is
// bitonic-sorted, or with `ranked` written in order from `ranks` over its columns first .. first + span - 1 (a
// separate instantiation: compiled into the sorting kernel, the rank code cost st3d27 64's numeric phase 12% on the
// H200 though none of its rows took ranks).
template <bool numeric, bool flat, bool ranked = false, class Member, class Views, class Ordinal, class Scalar>
KOKKOS_INLINE_FUNCTION void hash_row(const Member& team, const Views& v, int row, Ordinal* keys, Scalar* vals,
                                     int slots, int* counter, const ProductStage<Views>& stage, int lanes,
                                     bool sorted, const ColumnRanks& ranks = {}, std::int64_t first = 0,
                                     std::int64_t span = 0) {
  using Offset = typename Views::offset_type;
  using memory_space = typename Views::execution_space::memory_space;  // a host team is one thread
  constexpr bool shared = !Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible;
  Kokkos::parallel_for(Kokkos::TeamVectorRange(team, slots), [&](const int s) {
    keys[s] = HashSlots<Ordinal>::empty;
    if (numeric) vals[s] = Scalar(0);
  });
  constexpr bool by_rank = numeric && ranked;  // ranked kernels are launched for sorted output only
  if constexpr (by_rank) ranks.clear(team, span);
  Kokkos::single(Kokkos::PerTeam(team), [&]() { *counter = 0; });
  team.team_barrier();

  const HashSlots<Ordinal> table{keys, slots - 1};
  int fresh = 0;  // this lane's new keys (symbolic)
  const auto insert = [&](const Ordinal column, const Scalar value) {
    bool inserted;
    const int slot = table.template insert<shared>(column, inserted);
    if (numeric)
      add_to<shared>(&vals[slot], value);
    else
      fresh += inserted ? 1 : 0;
  };
  for_each_product<numeric, flat>(team, v, row, stage, lanes, false, 0, 0, insert);  // ends with a team barrier
  if (!numeric) {
    if (fresh > 0) Kokkos::atomic_add(counter, fresh);
    team.team_barrier();
    Kokkos::single(Kokkos::PerTeam(team), [&]() { v.c_map(row) = static_cast<Offset>(*counter); });
    return;
  }
  const Offset c_begin = v.c_map(row);
  if constexpr (by_rank) {
    Kokkos::parallel_for(Kokkos::TeamVectorRange(team, slots), [&](const int s) {
      if (keys[s] != HashSlots<Ordinal>::empty) ranks.mark(keys[s] - first);
    });
    team.team_barrier();
    ranks.count(team, span, lanes);
    ranks.for_each_in_order(team, span, lanes, [&](const int place, const std::int64_t offset) {
      const Ordinal column = static_cast<Ordinal>(first + offset);
      v.c_ent(c_begin + place) = column;
      v.c_val(c_begin + place) = vals[table.find(column)];
    });
  } else if constexpr (!shared) {
    write_table_row(keys, vals, slots, sorted, v.c_ent.data() + c_begin, v.c_val.data() + c_begin);
  } else if (sorted) {
    team_bitonic_sort(team, keys, vals, slots);  // empty slots sort last: the row's columns come first, in order
    Kokkos::parallel_for(Kokkos::TeamVectorRange(team, static_cast<int>(v.c_map(row + 1) - c_begin)),
                         [&](const int i) {
                           v.c_ent(c_begin + i) = keys[i];
                           v.c_val(c_begin + i) = vals[i];
                         });
  } else {
    Kokkos::parallel_for(Kokkos::TeamVectorRange(team, slots), [&](const int s) {
      if (keys[s] == HashSlots<Ordinal>::empty) return;
      const int at = Kokkos::atomic_fetch_add(counter, 1);
      v.c_ent(c_begin + at) = keys[s];
      v.c_val(c_begin + at) = vals[s];
    });
  }
  team.team_barrier();  // the caller may reuse the table for its next row
}

// One launch over a bin's rows: sorted numeric rows placed by column ranks (`ranked`, `words` bitmap words per team)
// or, otherwise, by the table body alone.
template <bool numeric, bool ranked, bool flat, class Views, class Space, class Bounds>
void launch_hash_rows(const LaunchShape& shape, const Views& v, const RowSlice<Space>& rows, int slots, bool sorted,
                      const Bounds& lo, const Bounds& hi, int words, int stage_entries,
                      const typename Views::execution_space& space) {
  using exec = typename Views::execution_space;
  using Scalar = typename Views::scalar_type;
  using Ordinal = typename Views::ordinal_type;
  using policy_type = team_policy_for<exec>;
  using member_type = typename policy_type::member_type;
  using scratch_space = typename exec::scratch_memory_space;
  using key_scratch = Kokkos::View<Ordinal*, scratch_space, Kokkos::MemoryUnmanaged>;
  using value_scratch = Kokkos::View<Scalar*, scratch_space, Kokkos::MemoryUnmanaged>;
  using count_scratch = Kokkos::View<int*, scratch_space, Kokkos::MemoryUnmanaged>;
  using word_scratch = Kokkos::View<unsigned*, scratch_space, Kokkos::MemoryUnmanaged>;
  const int lanes = shape.vector_length;
  const std::size_t bytes =
      ProductStage<Views>::bytes(stage_entries, numeric) + (numeric ? value_scratch::shmem_size(slots) : 0) +
      key_scratch::shmem_size(slots) + count_scratch::shmem_size(1) +
      (ranked ? 2 * word_scratch::shmem_size(words) + count_scratch::shmem_size(shape.team_size) : 0);
  policy_type policy(space, static_cast<int>(rows.count), shape.team_size, shape.vector_length);
  policy.set_scratch_size(0, Kokkos::PerTeam(bytes));
  Kokkos::parallel_for(
      numeric ? "spk::spgemm_hash::numeric" : "spk::spgemm_hash::symbolic", policy,
      KOKKOS_LAMBDA(const member_type& team) {
        const ProductStage<Views> stage(team, stage_entries, numeric);
        value_scratch vals;
        if (numeric) vals = value_scratch(team.team_scratch(0), slots);
        key_scratch keys(team.team_scratch(0), slots);
        count_scratch counter(team.team_scratch(0), 1);
        const int row = rows(team.league_rank());
        if (ranked) {  // not constexpr: nvcc refuses a lambda's first capture inside `if constexpr`
          ColumnRanks ranks;
          ranks.bits = word_scratch(team.team_scratch(0), words).data();
          ranks.before = count_scratch(team.team_scratch(0), words).data();
          ranks.thread_counts = count_scratch(team.team_scratch(0), team.team_size()).data();
          hash_row<numeric, flat, true>(team, v, row, keys.data(), vals.data(), slots, counter.data(), stage, lanes,
                                  sorted, ranks, lo(row),
                                  std::int64_t(hi(row)) - lo(row) + 1);  // a hash row has products
        } else {
          hash_row<numeric, flat>(team, v, row, keys.data(), vals.data(), slots, counter.data(), stage, lanes, sorted);
        }
      });
}

// Numeric sorted rows are written in order from column ranks over their spans [lo(row), hi(row)] when the bitmap
// for the bin's widest span (`widest` columns) costs at most twice the table's own scratch, both fit in
// `scratch_budget` bytes, and the span is at most 64 columns per slot; else the table is sorted. (The earlier limits,
// half the table and 4 columns per slot, sorted bins that ranks serve faster: rajat01's numeric-only time went from
// 0.365 to 0.327 ms, medians of 4 processes on the H200, with rmat 16 8 and Cornell5 within their run-to-run spread.)
// stage_entries: the flat product walk's chunk, or 0 to walk by entries (row_products.hpp).
template <bool numeric, class Views, class Space, class Bounds>
void spgemm_hash_rows(const LaunchShape& shape, const Views& v, const RowSlice<Space>& rows, int slots, bool sorted,
                      const Bounds& lo, const Bounds& hi, std::int64_t widest, int scratch_budget,
                      int stage_entries, const typename Views::execution_space& space = {}) {
  if (rows.count == 0) return;
  const std::int64_t table_bytes =
      std::int64_t{slots} * static_cast<std::int64_t>(sizeof(typename Views::ordinal_type) +
                                                      (numeric ? sizeof(typename Views::scalar_type) : 0));
  const std::int64_t rank_bytes = ColumnRanks::bytes_for(widest, shape.team_size);
  const bool by_rank = numeric && sorted && rank_bytes <= 2 * table_bytes &&
                       table_bytes + rank_bytes + 64 <= scratch_budget && ColumnRanks::words_for(widest) <= 2 * slots;
  if constexpr (numeric) {
    if (by_rank) {
      const int words = static_cast<int>(ColumnRanks::words_for(widest));
      if (stage_entries > 0)
        return launch_hash_rows<true, true, true>(shape, v, rows, slots, sorted, lo, hi, words, stage_entries, space);
      return launch_hash_rows<true, true, false>(shape, v, rows, slots, sorted, lo, hi, words, 0, space);
    }
  }
  if (stage_entries > 0)
    return launch_hash_rows<numeric, false, true>(shape, v, rows, slots, sorted, lo, hi, 0, stage_entries, space);
  launch_hash_rows<numeric, false, false>(shape, v, rows, slots, sorted, lo, hi, 0, 0, space);
}

}  // namespace spk::impl
