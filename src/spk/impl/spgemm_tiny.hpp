#pragma once
// SpGEMM tiny rows: the vector lanes of one thread take a row whose table fits in a few dozen slots, in a private
// slice of the team's scratch, so a team works on many rows at once. The row's products are flattened: the lanes
// first read all of the row's entries of A (and where their rows of B start) at once, then each lane takes every
// V-th product, so the loads of a row are issued together instead of one row of B after another. The numeric phase
// writes each column at its rank among the row's columns, which sorts the row without a sort pass.
#include <cstdint>

#include <Kokkos_Core.hpp>

#include "../execution.hpp"
#include "../launch_shape.hpp"
#include "hash_table.hpp"
#include "lane_groups.hpp"
#include "spgemm_common.hpp"

namespace spk::impl {

template <bool numeric, class Views, class Space>
void spgemm_tiny_rows(const LaunchShape& shape, const Views& v, const RowSlice<Space>& rows, int slots, bool sorted,
                      const typename Views::execution_space& space = {}) {
  using exec = typename Views::execution_space;
  using Scalar = typename Views::scalar_type;
  using Ordinal = typename Views::ordinal_type;
  using Offset = typename Views::offset_type;
  using BOffset = typename Views::b_offset_type;
  using policy_type = team_policy_for<exec>;
  using member_type = typename policy_type::member_type;
  using scratch_space = typename exec::scratch_memory_space;
  using key_scratch = Kokkos::View<Ordinal*, scratch_space, Kokkos::MemoryUnmanaged>;
  using value_scratch = Kokkos::View<Scalar*, scratch_space, Kokkos::MemoryUnmanaged>;
  using start_scratch = Kokkos::View<BOffset*, scratch_space, Kokkos::MemoryUnmanaged>;
  using prefix_scratch = Kokkos::View<int*, scratch_space, Kokkos::MemoryUnmanaged>;
  constexpr bool shared = !is_host_space<exec>();  // several lanes per row
  if (rows.count == 0) return;

  const int threads = shape.team_size, per_thread = shape.rows_per_thread;
  const std::int64_t per_team = static_cast<std::int64_t>(threads) * per_thread;
  const int league = static_cast<int>((rows.count + per_team - 1) / per_team);
  const int n = threads * slots;  // the bin rule guarantees a row's entries of A fit in `slots` too
  const std::size_t bytes = (numeric ? value_scratch::shmem_size(n) : 0) + start_scratch::shmem_size(n) +
                            key_scratch::shmem_size(n) + prefix_scratch::shmem_size(n + threads);
  policy_type policy(space, league, threads, shape.vector_length);
  policy.set_scratch_size(0, Kokkos::PerTeam(bytes));
  Kokkos::parallel_for(
      numeric ? "spk::spgemm_tiny::numeric" : "spk::spgemm_tiny::symbolic", policy,
      KOKKOS_LAMBDA(const member_type& team) {
        value_scratch vals_s;
        if (numeric) vals_s = value_scratch(team.team_scratch(0), n);
        start_scratch starts_s(team.team_scratch(0), n);
        key_scratch keys_s(team.team_scratch(0), n);
        prefix_scratch prefix_s(team.team_scratch(0), n + threads);
        const int me = team.team_rank();
        Ordinal* keys = keys_s.data() + me * slots;
        Scalar* vals = numeric ? vals_s.data() + me * slots : nullptr;
        BOffset* starts = starts_s.data() + me * slots;
        int* prefix = prefix_s.data() + me * (slots + 1);  // prefix[p]: the row's products before its p-th entry
        const HashSlots<Ordinal> table{keys, slots - 1};
        const std::int64_t first = (team.league_rank() * per_team) + me * per_thread;
        for (int k = 0; k < per_thread && first + k < rows.count; ++k) {
          const int row = rows(first + k);
          const Offset a_begin = v.a_map(row);
          const int a_len = static_cast<int>(v.a_map(row + 1) - a_begin);
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, slots), [&](const int s) {
            keys[s] = HashSlots<Ordinal>::empty;
            if (numeric) vals[s] = Scalar(0);
          });
          Kokkos::parallel_scan(Kokkos::ThreadVectorRange(team, a_len), [&](const int p, int& before, const bool last) {
            const Ordinal j = v.a_ent(a_begin + p);
            const BOffset b_begin = v.b_map(j);
            const int len = static_cast<int>(v.b_map(j + 1) - b_begin);
            if (last) {
              starts[p] = b_begin;
              prefix[p] = before;
              if (p == a_len - 1) prefix[a_len] = before + len;
            }
            before += len;
          });
          vector_sync(team);
          const int products = a_len ? prefix[a_len] : 0;
          // Product i belongs to the last entry p with prefix[p] <= i (entries with empty rows of B share a prefix).
          const auto entry_of = [&](const int i) {
            int lo = 0, hi = a_len;
            while (hi - lo > 1) {
              const int mid = (lo + hi) / 2;
              if (prefix[mid] <= i) lo = mid; else hi = mid;
            }
            return lo;
          };
          int distinct = 0;
          if (numeric) {
            Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, products), [&](const int i) {
              const int p = entry_of(i);
              const BOffset q = starts[p] + (i - prefix[p]);
              bool inserted;
              const int slot = table.template insert<shared>(v.b_ent(q), inserted);
              add_to<shared>(&vals[slot], v.a_val(a_begin + p) * v.b_val(q));
            });
          } else {
            Kokkos::parallel_reduce(
                Kokkos::ThreadVectorRange(team, products),
                [&](const int i, int& fresh) {
                  const int p = entry_of(i);
                  bool inserted;
                  table.template insert<shared>(v.b_ent(starts[p] + (i - prefix[p])), inserted);
                  fresh += inserted ? 1 : 0;
                },
                distinct);
          }
          if (!numeric) {
            Kokkos::single(Kokkos::PerThread(team), [&]() { v.c_map(row) = static_cast<Offset>(distinct); });
            vector_sync(team);  // the next row rewrites starts and prefix
            continue;
          }
          const Offset c_begin = v.c_map(row);
          if (!shared) {  // one lane: sorting the few entries beats ranking against every slot
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
            vector_sync(team);
          }
        }
      });
}

}  // namespace spk::impl
