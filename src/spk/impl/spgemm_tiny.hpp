#pragma once
// SpGEMM tiny rows: the vector lanes of one thread take a row whose table fits in a few dozen slots, in a private
// slice of the team's scratch, so a team works on many rows at once. The numeric phase writes each column at its
// rank among the row's columns, which sorts the row without a sort pass.
#include <cstdint>

#include <Kokkos_Core.hpp>

#include "../execution.hpp"
#include "../launch_shape.hpp"
#include "hash_table.hpp"
#include "spgemm_common.hpp"

namespace spk::impl {

template <bool numeric, class Views, class Space>
void spgemm_tiny_rows(const LaunchShape& shape, const Views& v, const RowSlice<Space>& rows, int slots, bool sorted) {
  using exec = typename Views::execution_space;
  using Scalar = typename Views::scalar_type;
  using Ordinal = typename Views::ordinal_type;
  using Offset = typename Views::offset_type;
  using BOffset = typename Views::b_offset_type;
  using policy_type = Kokkos::TeamPolicy<exec>;
  using member_type = typename policy_type::member_type;
  using scratch_space = typename exec::scratch_memory_space;
  using key_scratch = Kokkos::View<Ordinal*, scratch_space, Kokkos::MemoryUnmanaged>;
  using value_scratch = Kokkos::View<Scalar*, scratch_space, Kokkos::MemoryUnmanaged>;
  constexpr bool shared = !is_host_space<exec>();  // several lanes per row
  if (rows.count == 0) return;

  const int threads = shape.team_size, per_thread = shape.rows_per_thread;
  const std::int64_t per_team = static_cast<std::int64_t>(threads) * per_thread;
  const int league = static_cast<int>((rows.count + per_team - 1) / per_team);
  const int n = threads * slots;
  const std::size_t bytes = key_scratch::shmem_size(n) + (numeric ? value_scratch::shmem_size(n) : 0);
  policy_type policy(league, threads, shape.vector_length);
  policy.set_scratch_size(0, Kokkos::PerTeam(bytes));
  Kokkos::parallel_for(
      numeric ? "spk::spgemm_tiny::numeric" : "spk::spgemm_tiny::symbolic", policy,
      KOKKOS_LAMBDA(const member_type& team) {
        key_scratch keys_s(team.team_scratch(0), n);
        value_scratch vals_s;
        if (numeric) vals_s = value_scratch(team.team_scratch(0), n);
        Ordinal* keys = keys_s.data() + team.team_rank() * slots;
        Scalar* vals = numeric ? vals_s.data() + team.team_rank() * slots : nullptr;
        const HashSlots<Ordinal> table{keys, slots - 1};
        const std::int64_t first = (team.league_rank() * per_team) + team.team_rank() * per_thread;
        for (int k = 0; k < per_thread && first + k < rows.count; ++k) {
          const int row = rows(first + k);
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, slots), [&](const int s) {
            keys[s] = HashSlots<Ordinal>::empty;
            if (numeric) vals[s] = Scalar(0);
          });
          int distinct = 0;
          for (Offset p = v.a_map(row); p < v.a_map(row + 1); ++p) {
            const Ordinal j = v.a_ent(p);
            const BOffset b_begin = v.b_map(j);
            const int b_len = static_cast<int>(v.b_map(j + 1) - b_begin);
            if (numeric) {
              const Scalar a = v.a_val(p);
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
              distinct += added;
            }
          }
          if (!numeric) {
            Kokkos::single(Kokkos::PerThread(team), [&]() { v.c_map(row) = static_cast<Offset>(distinct); });
            continue;
          }
          const Offset c_begin = v.c_map(row);
          if constexpr (!shared) {  // one lane: sorting the few entries beats ranking against every slot
            write_table_row(keys, vals, slots, sorted, v.c_ent.data() + c_begin, v.c_val.data() + c_begin);
          } else if (sorted) {
            Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, slots), [&](const int s) {
              const Ordinal key = keys[s];
              if (key == HashSlots<Ordinal>::empty) return;
              int rank = 0;
              for (int u = 0; u < slots; ++u) rank += keys[u] < key ? 1 : 0;
              v.c_ent(c_begin + rank) = key;
              v.c_val(c_begin + rank) = vals[s];
            });
          } else {
            Kokkos::parallel_scan(Kokkos::ThreadVectorRange(team, slots), [&](const int s, int& at, const bool last) {
              if (keys[s] == HashSlots<Ordinal>::empty) return;
              if (last) {
                v.c_ent(c_begin + at) = keys[s];
                v.c_val(c_begin + at) = vals[s];
              }
              ++at;
            });
          }
        }
      });
}

}  // namespace spk::impl
