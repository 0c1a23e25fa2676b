#pragma once
// SpGEMM sorted rows: a group of G vector lanes takes a row of at most N = G * E products (E per lane) and does the
// expand-sort-compress of ESC on it. Each lane copies the rows of B of its entries of A (scaled, in the numeric
// phase) into the row's N slots in scratch; the lanes take E slots each into registers; a bitonic network sorts
// them by column (swaps within a lane, shuffles between lanes; the numeric phase sorts column * N + slot, so the
// values stay in scratch); each run of one column becomes one entry of C, its values summed in slot order. No table
// to clear or probe, no step-by-step merge, and the output is sorted and deterministic
// (Dalton, Olson, Bell, "Optimizing sparse matrix-matrix multiplication for the GPU", ACM TOMS 41(4), 2015, for
// ESC; Liu, Vinter, "An efficient GPU general sparse matrix-matrix multiplication for irregular data", IPDPS 2014,
// for sorting the few products of short rows in one group).
#include <cstdint>
#include <limits>

#include <Kokkos_Core.hpp>

#include "../execution.hpp"
#include "lane_groups.hpp"
#include "spgemm_common.hpp"
#include "vector_scan.hpp"

namespace spk::impl {

// Lanes per row of a sort bin of N products: eight products per lane, so that a warp holds several rows and most
// of the network's stages are register swaps (H200, band 1M x 5, a row of 25 products, symbolic phase: 570 us with
// a warp per row, 363 us with 4 products per lane); host back-ends: one lane holding all N.
template <class ExecSpace>
constexpr int sort_lanes(int n) {
  const int lanes = n / 8 > 1 ? n / 8 : 1;
  return lanes < max_vector_length<ExecSpace>() ? lanes : max_vector_length<ExecSpace>();
}

// Whether the numeric phase's keys, column * slots + slot, fit an Ordinal for products with `columns` columns in
// bins of up to `slots` slots; where they do not, the numeric rule sends no row here.
template <class Ordinal>
constexpr bool sort_keys_fit(std::int64_t columns, int slots) {
  return slots <= 0 || columns <= std::numeric_limits<Ordinal>::max() / slots;
}

// Unrolls the loop that follows in device code, where register arrays need constant indices.
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define SPK_SORT_UNROLL _Pragma("unroll")
#else
#define SPK_SORT_UNROLL
#endif

template <int N, bool numeric, class Views, class Space>
void spgemm_sort_rows_of(const Views& v, const RowSlice<Space>& rows, const typename Views::execution_space& space) {
  using exec = typename Views::execution_space;
  using Scalar = typename Views::scalar_type;
  using Ordinal = typename Views::ordinal_type;
  using Offset = typename Views::offset_type;
  using BOffset = typename Views::b_offset_type;
  // At most 64 registers a thread, so that 8 teams of 128 lanes fit a multiprocessor: the loads of B wait long
  // (H200, band 1M x 5: 94 registers, 19 resident warps, the numeric kernel mostly stalled on memory).
  using policy_type = Kokkos::TeamPolicy<exec, Kokkos::LaunchBounds<128, 8>,
                                         Kokkos::Experimental::WorkItemProperty::HintLightWeight_t>;
  using member_type = typename policy_type::member_type;
  using scratch_space = typename exec::scratch_memory_space;
  using key_scratch = Kokkos::View<Ordinal*, scratch_space, Kokkos::MemoryUnmanaged>;
  using value_scratch = Kokkos::View<Scalar*, scratch_space, Kokkos::MemoryUnmanaged>;
  constexpr int G = sort_lanes<exec>(N), E = N / G;
  static_assert(G * E == N, "N and the vector width are powers of two");
  const int threads = is_host_space<exec>() ? 1 : (128 + G - 1) / G;  // 128 lanes per team on GPUs
  const int league = static_cast<int>((rows.count + threads - 1) / threads);
  policy_type policy(space, league, threads, G);
  // A row's N slots in scratch: the products are expanded there, and the numeric phase sums runs of one column
  // from the sorted row there and gathers its entries of C in N more, so that the group stores C's row in
  // contiguous pieces (a lane storing its own entries wrote 8-byte pieces 64 bytes apart). Rows sit N + 1 slots
  // apart: at N apart, slot k of every row of a warp fell in one shared-memory bank.
  constexpr int row_slots = N + 1;
  const int arrays = numeric ? 2 : 1;
  policy.set_scratch_size(0, Kokkos::PerTeam(arrays * key_scratch::shmem_size(threads * row_slots) +
                                             (numeric ? 2 * value_scratch::shmem_size(threads * row_slots) : 0)));
  Kokkos::parallel_for(
      numeric ? "spk::spgemm_sort::numeric" : "spk::spgemm_sort::symbolic", policy,
      KOKKOS_LAMBDA(const member_type& team) {
        const std::int64_t i = static_cast<std::int64_t>(team.league_rank()) * threads + team.team_rank();
        if (i >= rows.count) return;  // the whole vector leaves: it uses no team barrier
        const int row = rows(i);
        const int lane = vector_lane();
        const Offset a_begin = v.a_map(row);
        const int a_len = static_cast<int>(v.a_map(row + 1) - a_begin);  // at most N (the bin rule)
        const int me = team.team_rank();
        const key_scratch keys_s(team.team_scratch(0), threads * row_slots);
        Ordinal* keys = keys_s.data() + me * row_slots;
        Scalar* vals = nullptr;
        Ordinal* c_cols = nullptr;
        Scalar* c_vals = nullptr;
        if (numeric) {
          vals = value_scratch(team.team_scratch(0), threads * row_slots).data() + me * row_slots;
          c_cols = key_scratch(team.team_scratch(0), threads * row_slots).data() + me * row_slots;
          c_vals = value_scratch(team.team_scratch(0), threads * row_slots).data() + me * row_slots;
        }

        // Expand: each lane walks the rows of B of its entries of A (lane, lane + G, ...) and writes their products
        // from its place among the lanes' product counts; the slots' order does not matter to the sort.
        BOffset start[E];
        int len[E];
        int mine = 0;
        SPK_SORT_UNROLL
        for (int t = 0; t < E; ++t) {
          const int p = lane + G * t;
          start[t] = 0;
          len[t] = 0;
          if (p < a_len) {
            const Ordinal j = v.a_ent(a_begin + p);
            start[t] = v.b_map(j);
            len[t] = static_cast<int>(v.b_map(j + 1) - start[t]);
            mine += len[t];
          }
        }
        int products = 0;
        int at = exclusive_sum_over_vector(mine, products);  // at most N (the bin rule)
        SPK_SORT_UNROLL
        for (int t = 0; t < E; ++t) {
          if (len[t] == 0) continue;
          const Scalar a = numeric ? v.a_val(a_begin + lane + G * t) : Scalar(0);
          // Loads in fours before their stores: the compiler cannot tell scratch from B and would otherwise wait
          // on each load before the next.
          for (int q = 0; q < len[t]; q += 4) {
            Ordinal c[4];
            Scalar b[4];
            SPK_SORT_UNROLL
            for (int u = 0; u < 4; ++u) {
              if (q + u < len[t]) {
                c[u] = v.b_ent(start[t] + q + u);
                if (numeric) b[u] = v.b_val(start[t] + q + u);
              }
            }
            SPK_SORT_UNROLL
            for (int u = 0; u < 4; ++u) {
              if (q + u < len[t]) {
                keys[at + q + u] = c[u];
                if (numeric) vals[at + q + u] = a * b[u];
              }
            }
          }
          at += len[t];
        }
        vector_sync(team);
        // The numeric phase sorts column * N + slot: the values stay in their slots and are read from there after
        // the sort, which moves one int per slot (H200, band 1M x 5: sorting (column, value) pairs, 696 us; this,
        // 605 us).
        const Ordinal none = Kokkos::reduction_identity<Ordinal>::min();  // sorts after every column
        Ordinal key[E];
        SPK_SORT_UNROLL
        for (int e = 0; e < E; ++e) {
          const int k = lane * E + e;
          key[e] = k >= products ? none : numeric ? keys[k] * N + k : keys[k];
        }
        vector_sync(team);  // the slots' columns are rewritten with the sorted row below

        // Sort: bitonic network over the N slots, slot k = lane * E + e; strides below E stay within a lane.
        SPK_SORT_UNROLL
        for (int size = 2; size <= N; size *= 2) {
          SPK_SORT_UNROLL
          for (int stride = size / 2; stride > 0; stride /= 2) {
            if (stride < E) {
              SPK_SORT_UNROLL
              for (int e = 0; e < E; ++e) {
                if (e & stride) continue;
                const int f = e | stride;
                const bool up = ((lane * E + e) & size) == 0;
                const Ordinal low = key[e] < key[f] ? key[e] : key[f], high = key[e] < key[f] ? key[f] : key[e];
                key[e] = up ? low : high;
                key[f] = up ? high : low;
              }
            } else {
              const int d = stride / E;  // lane distance
              const bool lower = (lane & d) == 0;
              SPK_SORT_UNROLL
              for (int e = 0; e < E; ++e) {
                const Ordinal other = broadcast_in_vector(key[e], lane ^ d, G);
                const bool up = ((lane * E + e) & size) == 0;
                // The lower slot of an ascending pair keeps the smaller key.
                key[e] = lower == up ? (other < key[e] ? other : key[e]) : (key[e] < other ? other : key[e]);
              }
            }
          }
        }

        // Compress: a slot starts a run when its column differs from the slot before it.
        const auto column_of = [](const Ordinal k) { return numeric ? k / N : k; };
        const Ordinal last_of_previous_lane = broadcast_in_vector(key[E - 1], lane > 0 ? lane - 1 : 0, G);
        bool head[E];
        int heads = 0;
        SPK_SORT_UNROLL
        for (int e = 0; e < E; ++e) {
          const Ordinal before_me = e > 0 ? key[e - 1] : last_of_previous_lane;
          head[e] = key[e] != none && (lane * E + e == 0 || column_of(before_me) != column_of(key[e]));
          heads += head[e] ? 1 : 0;
        }
        int distinct = 0;
        const int first_out = exclusive_sum_over_vector(heads, distinct);
        if (!numeric) {  // an else rather than a return: nvcc flags the loops after a return as unreachable
          if (lane == 0) v.c_map(row) = static_cast<Offset>(distinct);
        } else {
          SPK_SORT_UNROLL
          for (int e = 0; e < E; ++e) keys[lane * E + e] = key[e];
          vector_sync(team);
          int out = first_out;
          SPK_SORT_UNROLL
          for (int e = 0; e < E; ++e) {
            if (!head[e]) continue;
            const Ordinal column = column_of(key[e]);
            Scalar sum = vals[key[e] % N];  // a run's values in slot order: deterministic
            for (int k = lane * E + e + 1; k < N && column_of(keys[k]) == column; ++k) sum += vals[keys[k] % N];
            c_cols[out] = column;
            c_vals[out] = sum;
            ++out;
          }
          vector_sync(team);
          const Offset c_begin = v.c_map(row);
          for (int q = lane; q < distinct; q += G) {
            v.c_ent(c_begin + q) = c_cols[q];
            v.c_val(c_begin + q) = c_vals[q];
          }
        }
      });
}

// Rows of at most `n` products and n entries of A (n the bin's: a power of two from 8 to 128, the most that
// SpgemmCapacity::sort_max_products allows).
template <bool numeric, class Views, class Space>
void spgemm_sort_rows(const Views& v, const RowSlice<Space>& rows, int n,
                      const typename Views::execution_space& space = {}) {
  if (rows.count == 0) return;
  switch (n) {
    case 8: spgemm_sort_rows_of<8, numeric>(v, rows, space); break;
    case 16: spgemm_sort_rows_of<16, numeric>(v, rows, space); break;
    case 32: spgemm_sort_rows_of<32, numeric>(v, rows, space); break;
    case 64: spgemm_sort_rows_of<64, numeric>(v, rows, space); break;
    default: spgemm_sort_rows_of<128, numeric>(v, rows, space); break;
  }
}

}  // namespace spk::impl

#undef SPK_SORT_UNROLL
