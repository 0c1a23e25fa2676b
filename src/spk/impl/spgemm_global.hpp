#pragma once
// SpGEMM global fallback: rows whose table fits no team scratch take a slice of a global-memory pool and run the
// same team hash body as spgemm_hash.hpp. The pool is sized per batch of rows so that it stays within the plan's
// memory budget; rows are processed batch after batch, and the result does not depend on the batching.
#include <cstdint>
#include <vector>

#include <Kokkos_Core.hpp>

#include "../execution.hpp"
#include "../launch_shape.hpp"
#include "device_memory.hpp"
#include "spgemm_bins.hpp"
#include "row_products.hpp"
#include "spgemm_hash.hpp"

namespace spk::impl {

// The global rows' table offsets in the pool (one exclusive scan over the bin's rows) and the batches that keep
// each launch's pool within `pool_slots_cap` slots.
template <class Space>
struct GlobalBatches {
  Kokkos::View<std::int64_t*, Space> offset;  // offset(i): first slot of the bin's i-th row, offset(count): total
  std::vector<std::int64_t> cut;              // batch b is rows cut[b] .. cut[b + 1] of the bin
  std::int64_t pool_slots = 0;                // the largest batch's slots: the pool allocated per launch

  std::size_t batches() const { return cut.empty() ? 0 : cut.size() - 1; }
};

// slots_of(row): the row's table size under the bin rule.
template <class ExecSpace, class Space, class SlotsOf>
GlobalBatches<Space> plan_global_batches(const RowSlice<Space>& rows, const SlotsOf& slots_of,
                                         std::int64_t pool_slots_cap) {
  GlobalBatches<Space> out;
  if (rows.count == 0) return out;
  out.offset = Kokkos::View<std::int64_t*, Space>(zeroed<ExecSpace>("spk::spgemm::global_offset"), rows.count + 1);
  const auto offset = out.offset;
  const std::int64_t count = rows.count;
  Kokkos::parallel_scan(
      "spk::spgemm::global_offsets", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(0, count),
      KOKKOS_LAMBDA(std::int64_t i, std::int64_t & running, const bool final) {
        const std::int64_t need = slots_of(rows(i));
        if (final) offset(i) = running;
        running += need;
        if (final && i == count - 1) offset(count) = running;
      });
  // The bin holds the few rows that fit nowhere else, so cutting batches on the host is cheap.
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out.offset);
  out.cut.push_back(0);
  for (std::int64_t i = 0; i < count; ++i) {
    const std::int64_t start = h(out.cut.back());
    if (i > out.cut.back() && h(i + 1) - start > pool_slots_cap) out.cut.push_back(i);
  }
  out.cut.push_back(count);
  for (std::size_t b = 0; b + 1 < out.cut.size(); ++b)
    out.pool_slots = std::max(out.pool_slots, h(out.cut[b + 1]) - h(out.cut[b]));
  return out;
}

template <bool numeric, class Views, class Space>
void spgemm_global_rows(const LaunchShape& shape, const Views& v, const RowSlice<Space>& rows,
                        const GlobalBatches<Space>& batches, bool sorted) {
  using exec = typename Views::execution_space;
  using Scalar = typename Views::scalar_type;
  using Ordinal = typename Views::ordinal_type;
  using policy_type = team_policy_for<exec>;
  using member_type = typename policy_type::member_type;
  using count_scratch = Kokkos::View<int*, typename exec::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  if (rows.count == 0) return;
  Kokkos::View<Ordinal*, Space> keys(uninitialized<exec>("spk::spgemm::pool_keys"), batches.pool_slots);
  Kokkos::View<Scalar*, Space> vals(uninitialized<exec>("spk::spgemm::pool_values"), numeric ? batches.pool_slots : 0);
  const auto offset = batches.offset;
  const int lanes = shape.vector_length;
  for (std::size_t b = 0; b < batches.batches(); ++b) {
    const std::int64_t first = batches.cut[b];
    policy_type policy(static_cast<int>(batches.cut[b + 1] - first), shape.team_size, shape.vector_length);
    policy.set_scratch_size(0, Kokkos::PerTeam(count_scratch::shmem_size(1)));
    Kokkos::parallel_for(
        numeric ? "spk::spgemm_global::numeric" : "spk::spgemm_global::symbolic", policy,
        KOKKOS_LAMBDA(const member_type& team) {
          const std::int64_t i = first + team.league_rank();
          const std::int64_t start = offset(i) - offset(first);
          const int slots = static_cast<int>(offset(i + 1) - offset(i));
          const ProductStage<Views> by_entries(team, 0, numeric);  // the pool's few rows walk by entries
          count_scratch counter(team.team_scratch(0), 1);
          hash_row<numeric, false>(team, v, rows(i), keys.data() + start, numeric ? vals.data() + start : nullptr,
                                   slots, counter.data(), by_entries, lanes, sorted);
        });
  }
}

}  // namespace spk::impl
