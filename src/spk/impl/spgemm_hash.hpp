#pragma once
// SpGEMM, row-wise two-phase (Gustavson's row-by-row product) with a hash accumulator per row: a team takes a
// row of C, its threads walk the row of A and its lanes the matching rows of B, inserting into a hash table in
// team scratch, or, for rows whose upper bound does not fit there, into a slice of a global-memory pool.
// Symbolic counts each row's distinct columns; numeric accumulates values, sorts the table and writes the row.
// (Nagasaka, Matsuoka, Azad, Buluc, "High-performance sparse matrix-matrix products on Intel KNL and multicore
// architectures", 2018, for hash accumulators; Deveci, Trott, Rajamanickam, "Multithreaded sparse matrix-matrix
// multiplication for many-core and GPU architectures", 2018, for the hierarchical team/vector mapping.)
#include <cstdint>

#include "../csr_matrix.hpp"
#include "../launch_shape.hpp"
#include "hash_table.hpp"
#include "team_bitonic_sort.hpp"

namespace spk::impl {

// Per-row hash layout decided in the symbolic phase and reused by the numeric phase.
template <class Space>
struct SpgemmHashLayout {
  Kokkos::View<int*, Space> table_size;             // power of two >= distinct columns; 0: row of A has <= 1 entry
  Kokkos::View<std::int64_t*, Space> pool_offset;   // start of the row's slice in the global pool (global rows)
  std::int64_t pool_slots = 0;                      // total global slots
  int scratch_slots = 0;                            // rows with table_size <= this use team scratch
  std::int64_t products = 0;                        // intermediate products, sum over a_ij of nnz(B row j)
  std::int64_t global_rows = 0;                     // rows that fell back to the global pool
};

// One pass over A: per-row product upper bound -> hash table size and global-pool offsets.
template <class MatA, class MatB>
SpgemmHashLayout<typename MatA::device_type> spgemm_hash_layout(const MatA& A, const MatB& B, int scratch_slots) {
  using exec = typename MatA::execution_space;
  using Offset = typename MatA::offset_type;
  using policy = Kokkos::RangePolicy<exec, Kokkos::IndexType<std::int64_t>>;
  SpgemmHashLayout<typename MatA::device_type> layout;
  const std::int64_t rows = A.num_rows();
  layout.scratch_slots = scratch_slots;
  layout.table_size = Kokkos::View<int*, typename MatA::device_type>("spk::spgemm::table_size", rows);
  layout.pool_offset = Kokkos::View<std::int64_t*, typename MatA::device_type>("spk::spgemm::pool_offset", rows + 1);
  const auto a_map = A.row_map();
  const auto a_ent = A.entries();
  const auto b_map = B.row_map();
  const std::int64_t b_cols = B.num_cols();
  const auto table_size = layout.table_size;
  const auto pool_offset = layout.pool_offset;
  Kokkos::parallel_reduce(
      "spk::spgemm::upper_bound", policy(0, rows),
      KOKKOS_LAMBDA(std::int64_t row, std::int64_t & products) {
        std::int64_t bound = 0;
        for (Offset p = a_map(row); p < a_map(row + 1); ++p) bound += b_map(a_ent(p) + 1) - b_map(a_ent(p));
        products += bound;
        const std::int64_t distinct = bound < b_cols ? bound : b_cols;
        int size = 0;  // rows with at most one nonzero of A need no table: C's row is a scaled row of B
        if (a_map(row + 1) - a_map(row) > 1 && distinct > 0) {
          size = 1;
          while (size < distinct) size *= 2;
        }
        table_size(row) = size;
        pool_offset(row) = size > scratch_slots ? size : 0;
      },
      layout.products);
  Kokkos::parallel_reduce(
      "spk::spgemm::global_rows", policy(0, rows),
      KOKKOS_LAMBDA(std::int64_t row, std::int64_t & count) { count += table_size(row) > scratch_slots ? 1 : 0; },
      layout.global_rows);
  Kokkos::parallel_scan(
      "spk::spgemm::pool_offsets", policy(0, rows),
      KOKKOS_LAMBDA(std::int64_t row, std::int64_t & running, const bool final) {
        const std::int64_t need = pool_offset(row);
        if (final) pool_offset(row) = running;
        running += need;
        if (final && row == rows - 1) pool_offset(rows) = running;
      });
  Kokkos::deep_copy(layout.pool_slots, Kokkos::subview(layout.pool_offset, rows));
  return layout;
}

// The shared row loop. Symbolic (C entries empty): writes each row's distinct-column count into counts(row).
// Numeric: writes the row's sorted columns and summed values into c_entries / c_values at c_map(row).
template <bool numeric, class MatA, class MatB, class Layout, class CMap, class CEntries, class CValues>
void spgemm_hash_rows(const LaunchShape& shape, const MatA& A, const MatB& B, const Layout& layout, const CMap& c_map,
                      const CEntries& c_entries, const CValues& c_values) {
  using exec = typename MatA::execution_space;
  using Scalar = typename MatA::scalar_type;
  using Ordinal = typename MatA::ordinal_type;
  using Offset = typename MatA::offset_type;
  using BOffset = typename MatB::offset_type;
  using policy_type = Kokkos::TeamPolicy<exec>;
  using member_type = typename policy_type::member_type;
  using scratch_space = typename exec::scratch_memory_space;
  using key_scratch = Kokkos::View<Ordinal*, scratch_space, Kokkos::MemoryUnmanaged>;
  using value_scratch = Kokkos::View<Scalar*, scratch_space, Kokkos::MemoryUnmanaged>;
  using count_scratch = Kokkos::View<int*, scratch_space, Kokkos::MemoryUnmanaged>;

  const std::int64_t rows = A.num_rows();
  if (rows == 0) return;
  const int slots = layout.scratch_slots;
  const std::size_t bytes = key_scratch::shmem_size(slots) + (numeric ? value_scratch::shmem_size(slots) : 0) +
                            count_scratch::shmem_size(1);
  Kokkos::View<Ordinal*, typename MatA::device_type> pool_keys(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "spk::spgemm::pool_keys"), layout.pool_slots);
  Kokkos::View<Scalar*, typename MatA::device_type> pool_values(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "spk::spgemm::pool_values"), numeric ? layout.pool_slots : 0);
  const auto a_map = A.row_map();
  const auto a_ent = A.entries();
  const auto a_val = A.values();
  const auto b_map = B.row_map();
  const auto b_ent = B.entries();
  const auto b_val = B.values();
  const auto table_size = layout.table_size;
  const auto pool_offset = layout.pool_offset;

  policy_type policy(static_cast<int>(rows), shape.team_size, shape.vector_length);
  policy.set_scratch_size(0, Kokkos::PerTeam(bytes));
  Kokkos::parallel_for(
      numeric ? "spk::spgemm_hash::numeric" : "spk::spgemm_hash::symbolic", policy,
      KOKKOS_LAMBDA(const member_type& team) {
        const int row = team.league_rank();
        const int size = table_size(row);
        const Offset a_begin = a_map(row);
        if (size == 0) {  // zero or one nonzero in A's row: C's row is empty or a scaled copy of one row of B
          const bool one = a_map(row + 1) - a_begin == 1;
          const BOffset b_begin = one ? b_map(a_ent(a_begin)) : 0;
          const int b_len = one ? static_cast<int>(b_map(a_ent(a_begin) + 1) - b_begin) : 0;
          if (!numeric) {
            Kokkos::single(Kokkos::PerTeam(team), [&]() { c_map(row) = static_cast<Offset>(b_len); });
          } else {
            const Offset c_begin = c_map(row);
            Kokkos::parallel_for(Kokkos::TeamVectorRange(team, b_len), [&](const int i) {
              c_entries(c_begin + i) = b_ent(b_begin + i);
              c_values(c_begin + i) = a_val(a_begin) * b_val(b_begin + i);
            });
          }
          return;
        }
        key_scratch keys_s(team.team_scratch(0), slots);
        value_scratch values_s;
        if (numeric) values_s = value_scratch(team.team_scratch(0), slots);
        count_scratch counter(team.team_scratch(0), 1);
        const bool in_scratch = size <= slots;
        Ordinal* keys = in_scratch ? keys_s.data() : pool_keys.data() + pool_offset(row);
        Scalar* vals = nullptr;
        if (numeric) vals = in_scratch ? values_s.data() : pool_values.data() + pool_offset(row);

        Kokkos::parallel_for(Kokkos::TeamVectorRange(team, size), [&](const int i) {
          keys[i] = HashSlots<Ordinal>::empty;
          if (numeric) vals[i] = Scalar(0);
        });
        Kokkos::single(Kokkos::PerTeam(team), [&]() { counter(0) = 0; });
        team.team_barrier();

        const HashSlots<Ordinal> table{keys, size - 1};
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, static_cast<int>(a_map(row + 1) - a_begin)),
                             [&](const int p) {
                               const Ordinal j = a_ent(a_begin + p);
                               const Scalar a = a_val(a_begin + p);
                               const BOffset b_begin = b_map(j);
                               Kokkos::parallel_for(
                                   Kokkos::ThreadVectorRange(team, static_cast<int>(b_map(j + 1) - b_begin)),
                                   [&](const int q) {
                                     bool inserted;
                                     const int slot = table.insert(b_ent(b_begin + q), inserted);
                                     if (numeric)
                                       Kokkos::atomic_add(&vals[slot], a * b_val(b_begin + q));
                                     else if (inserted)
                                       Kokkos::atomic_add(&counter(0), 1);
                                   });
                             });
        team.team_barrier();

        if (!numeric) {
          Kokkos::single(Kokkos::PerTeam(team), [&]() { c_map(row) = static_cast<Offset>(counter(0)); });
          return;
        }
        // Empty slots sort last, so the row's distinct columns end up first, in order.
        Kokkos::parallel_for(Kokkos::TeamVectorRange(team, size), [&](const int i) {
          if (keys[i] == HashSlots<Ordinal>::empty) keys[i] = Kokkos::reduction_identity<Ordinal>::min();
        });
        team.team_barrier();
        team_bitonic_sort(team, keys, vals, size);
        const Offset c_begin = c_map(row);
        Kokkos::parallel_for(Kokkos::TeamVectorRange(team, static_cast<int>(c_map(row + 1) - c_begin)),
                             [&](const int i) {
                               c_entries(c_begin + i) = keys[i];
                               c_values(c_begin + i) = vals[i];
                             });
      });
}

}  // namespace spk::impl
