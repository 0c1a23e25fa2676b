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
#include "hash_table.hpp"
#include "spgemm_common.hpp"
#include "team_bitonic_sort.hpp"

namespace spk::impl {

// One row through a team-wide hash table of `slots` keys (and values when numeric); `counter` is one team-shared
// int. Symbolic writes the distinct count to c_map(row); numeric writes the row, sorted or in table order.
template <bool numeric, class Member, class Views, class Ordinal, class Scalar>
KOKKOS_INLINE_FUNCTION void hash_row(const Member& team, const Views& v, int row, Ordinal* keys, Scalar* vals,
                                     int slots, int* counter, bool sorted) {
  using Offset = typename Views::offset_type;
  using BOffset = typename Views::b_offset_type;
  using memory_space = typename Views::execution_space::memory_space;  // a host team is one thread
  constexpr bool shared = !Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible;
  Kokkos::parallel_for(Kokkos::TeamVectorRange(team, slots), [&](const int s) {
    keys[s] = HashSlots<Ordinal>::empty;
    if (numeric) vals[s] = Scalar(0);
  });
  Kokkos::single(Kokkos::PerTeam(team), [&]() { *counter = 0; });
  team.team_barrier();

  const HashSlots<Ordinal> table{keys, slots - 1};
  const Offset a_begin = v.a_map(row);
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, static_cast<int>(v.a_map(row + 1) - a_begin)), [&](const int p) {
    const Ordinal j = v.a_ent(a_begin + p);
    const BOffset b_begin = v.b_map(j);
    const int b_len = static_cast<int>(v.b_map(j + 1) - b_begin);
    if (numeric) {
      const Scalar a = v.a_val(a_begin + p);
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, b_len), [&](const int q) {
        bool inserted;
        const int slot = table.template insert<shared>(v.b_ent(b_begin + q), inserted);
        add_to<shared>(&vals[slot], a * v.b_val(b_begin + q));
      });
    } else {
      int added = 0;
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(team, b_len),
          [&](const int q, int& fresh) {
            bool inserted;
            table.template insert<shared>(v.b_ent(b_begin + q), inserted);
            fresh += inserted ? 1 : 0;
          },
          added);
      Kokkos::single(Kokkos::PerThread(team), [&]() { Kokkos::atomic_add(counter, added); });
    }
  });
  team.team_barrier();

  if (!numeric) {
    Kokkos::single(Kokkos::PerTeam(team), [&]() { v.c_map(row) = static_cast<Offset>(*counter); });
    return;
  }
  const Offset c_begin = v.c_map(row);
  if constexpr (!shared) {
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

template <bool numeric, class Views, class Space>
void spgemm_hash_rows(const LaunchShape& shape, const Views& v, const RowSlice<Space>& rows, int slots, bool sorted) {
  using exec = typename Views::execution_space;
  using Scalar = typename Views::scalar_type;
  using Ordinal = typename Views::ordinal_type;
  using policy_type = team_policy_for<exec>;
  using member_type = typename policy_type::member_type;
  using scratch_space = typename exec::scratch_memory_space;
  using key_scratch = Kokkos::View<Ordinal*, scratch_space, Kokkos::MemoryUnmanaged>;
  using value_scratch = Kokkos::View<Scalar*, scratch_space, Kokkos::MemoryUnmanaged>;
  using count_scratch = Kokkos::View<int*, scratch_space, Kokkos::MemoryUnmanaged>;
  if (rows.count == 0) return;
  const std::size_t bytes = (numeric ? value_scratch::shmem_size(slots) : 0) + key_scratch::shmem_size(slots) +
                            count_scratch::shmem_size(1);
  policy_type policy(static_cast<int>(rows.count), shape.team_size, shape.vector_length);
  policy.set_scratch_size(0, Kokkos::PerTeam(bytes));
  Kokkos::parallel_for(
      numeric ? "spk::spgemm_hash::numeric" : "spk::spgemm_hash::symbolic", policy,
      KOKKOS_LAMBDA(const member_type& team) {
        value_scratch vals;
        if (numeric) vals = value_scratch(team.team_scratch(0), slots);
        key_scratch keys(team.team_scratch(0), slots);
        count_scratch counter(team.team_scratch(0), 1);
        hash_row<numeric>(team, v, rows(team.league_rank()), keys.data(), vals.data(), slots, counter.data(),
                          sorted);
      });
}

}  // namespace spk::impl
