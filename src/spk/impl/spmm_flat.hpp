#pragma once
// SpMM nonzero-balanced flat: the merge-path partition (merge_path.hpp) gives every thread one chunk of `chunk`
// items (rows + nonzeros), so a row holding most of the nonzeros is spread over many threads instead of holding one.
// A team stages the nonzeros of its threads' chunks into scratch (coalesced), then each thread walks its chunk row by
// row with its lanes accumulating columns in registers (lane groups sharing each row's nonzeros when k needs fewer
// lanes than the vector has, lane_groups.hpp): rows ending inside the chunk are stored, the partial of a row
// continuing past the chunk goes to carry(t, :), the in-chunk part of a row that began earlier to head(t, :). A
// fix-up pass then adds, for each split row, its carries in chunk order and its head: deterministic, no atomics.
// A host team (one thread) reads A in place instead of staging it.
// Carries cost 2 x chunks x k scalars, so the selector keeps chunks several times longer than the mean row.
#include "merge_path.hpp"
#include "spmm_common.hpp"

namespace spk::impl {

template <class Device, class Scalar>
struct SpmmMergePath : MergePartition<Device> {
  Kokkos::View<Scalar**, Kokkos::LayoutRight, Device> carry;  // partial of row split_row(t+1) inside chunk t
  Kokkos::View<Scalar**, Kokkos::LayoutRight, Device> head;   // in-chunk part of row split_row(t) begun earlier
};

template <class Matrix>
SpmmMergePath<typename Matrix::device_type, typename Matrix::scalar_type> make_spmm_merge_path(const Matrix& A,
                                                                                                int chunk, int k) {
  using Scalar = typename Matrix::scalar_type;
  using Device = typename Matrix::device_type;
  SpmmMergePath<Device, Scalar> mp;
  static_cast<MergePartition<Device>&>(mp) = make_merge_partition(A, chunk);
  if (mp.chunks == 0) return mp;
  // Written before they are read: carry(t) by every chunk with a continuing row, head(t) by every fix-up chunk.
  mp.carry = decltype(mp.carry)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "spk::spmm_flat::carry"),
                                mp.chunks, k);
  mp.head = decltype(mp.head)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "spk::spmm_flat::head"), mp.chunks,
                              k);
  return mp;
}

template <int CPL, class Matrix, class BView, class CView>
struct SpmmFlatTeam {
  using T = SpmmTypes<Matrix>;
  using Scalar = typename T::scalar;
  using exec = typename T::exec;
  using Partials = Kokkos::View<Scalar**, Kokkos::LayoutRight, typename T::device>;

  typename Matrix::row_map_type::const_type row_map;
  typename Matrix::entries_type::const_type entries;
  typename Matrix::values_type::const_type values;
  Kokkos::View<const std::int64_t*, typename T::device> split_row, split_nnz;
  Partials carry, head;
  std::int64_t chunks, rows;
  BView B;
  CView C;
  Scalar alpha, beta;
  int lanes;
  int slot_bits;  // 2^slot_bits lanes per lane group (lane_groups.hpp); the groups share each row's nonzeros
  int capacity;  // nonzeros of one team's chunks at most: team_size * chunk
  bool packed;   // packed_loads_ok(B)

  static std::size_t scratch_bytes(int capacity) {
    return T::ordinal_scratch::shmem_size(capacity) + T::scalar_scratch::shmem_size(capacity);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const typename T::member& team) const {
    const std::int64_t t0 = static_cast<std::int64_t>(team.league_rank()) * team.team_size();
    const std::int64_t t1 = t0 + team.team_size() < chunks ? t0 + team.team_size() : chunks;
    const int k = static_cast<int>(B.extent(1)), width = CPL << slot_bits;
    if constexpr (HostSpaceFlag<exec>::value) {
      // One thread: A read in place, and each row finished across all its column strips before the next, so the
      // strips of a row of B are read back to back.
      for (std::int64_t t = t0; t < t1; ++t) {
        const std::int64_t first = split_row(t), last = split_row(t + 1);
        for (std::int64_t row = first; row <= end_row_of(t); ++row) {
          const auto [b, e] = span_in_chunk(t, row);
          for (int c0 = 0; c0 < k; c0 += width) {
            const LaneColumns lc = lane_columns<exec, CPL, BView>(c0, 0, 1);
            Scalar acc[CPL] = {};
            accumulate_lane<CPL, exec>(acc, entries, values, b, e, B, lc, packed, k);
            finish_row(t, row, first, last, row_map(row) < split_nnz(t), acc, lc, k);
          }
        }
      }
      return;
    }
    const std::int64_t base = split_nnz(t0);
    typename T::ordinal_scratch cols(team.team_scratch(0), capacity);
    typename T::scalar_scratch vals(team.team_scratch(0), capacity);
    stage_nonzeros(team, cols, vals, entries, values, base, static_cast<int>(split_nnz(t1) - base));
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, static_cast<int>(t1 - t0)), [&](const int i) {
      const std::int64_t t = t0 + i, first = split_row(t), last = split_row(t + 1), end_row = end_row_of(t);
      for (int c0 = 0; c0 < k; c0 += width)
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, lanes), [&](const int lane) {
          const LaneGroup g = lane_group(lane, lanes, slot_bits);
          const LaneColumns lc = lane_columns<exec, CPL, BView>(c0, g.slot, g.slots);
          for (std::int64_t row = first; row <= end_row; ++row) {
            const auto [b, e] = span_in_chunk(t, row);  // staged: offsets from base
            Scalar acc[CPL] = {};
            accumulate_row<CPL, exec>(acc, cols, vals, static_cast<int>(b - base), static_cast<int>(e - base), B,
                                      lc, packed, k, g);
            if (g.group == 0) finish_row(t, row, first, last, row_map(row) < split_nnz(t), acc, lc, k);
          }
        });
    });
  }

  // The last row chunk t touches: rows split_row(t)..split_row(t+1)-1 end in it, and row split_row(t+1), when it
  // exists, continues into the next chunk.
  KOKKOS_INLINE_FUNCTION std::int64_t end_row_of(std::int64_t t) const {
    const std::int64_t last = split_row(t + 1);
    return last < rows ? last : last - 1;
  }

  // The nonzeros [b, e) of `row` that lie in chunk t (a row begun earlier starts at the chunk, one continuing past
  // it ends there).
  KOKKOS_INLINE_FUNCTION Kokkos::pair<std::int64_t, std::int64_t> span_in_chunk(std::int64_t t,
                                                                                std::int64_t row) const {
    const std::int64_t rb = row_map(row), j0 = split_nnz(t);
    const std::int64_t e = row < split_row(t + 1) ? static_cast<std::int64_t>(row_map(row + 1)) : split_nnz(t + 1);
    return {rb > j0 ? rb : j0, e};
  }

  // A row continuing past chunk t leaves its partial in carry(t); the part of a row begun before chunk t goes to
  // head(t); any other row of the chunk is complete and stored.
  KOKKOS_INLINE_FUNCTION void finish_row(std::int64_t t, std::int64_t row, std::int64_t first, std::int64_t last,
                                         bool begun_earlier, const Scalar (&acc)[CPL], LaneColumns lc, int k) const {
    if (row == last || (row == first && begun_earlier)) {
      const auto& out = row == last ? carry : head;
      for (int j = 0; j < CPL; ++j)
        if (lc.first + j * lc.step < k) out(t, lc.first + j * lc.step) = acc[j];
    } else {
      store_lane<CPL>(C, row, acc, lc, k, alpha, beta);
    }
  }
};

template <class Matrix, class BView, class CView>
void spmm_flat(const LaunchShape& shape,
               const SpmmMergePath<typename Matrix::device_type, typename Matrix::scalar_type>& mp,
               typename Matrix::scalar_type alpha, const Matrix& A, const BView& B, typename Matrix::scalar_type beta,
               const CView& C) {
  using T = SpmmTypes<Matrix>;
  using Scalar = typename T::scalar;
  const int k = static_cast<int>(B.extent(1));
  if (mp.chunks == 0 || k == 0) return;
  const int capacity = shape.team_size * shape.chunk;
  const std::int64_t teams = (mp.chunks + shape.team_size - 1) / shape.team_size;
  with_columns_per_lane<typename T::exec>(shape.columns_per_lane, [&](auto cpl) {
    using Team = SpmmFlatTeam<decltype(cpl)::value, Matrix, BView, CView>;
    const Team body{A.row_map(), A.entries(), A.values(), mp.split_row, mp.split_nnz, mp.carry, mp.head,
                    mp.chunks, A.num_rows(), B, C, alpha, beta, shape.vector_length,
                    spmm_lane_slot_bits(shape.vector_length, decltype(cpl)::value, k), capacity,
                    packed_loads_ok<decltype(cpl)::value>(B)};
    typename T::team_policy policy(static_cast<int>(teams), shape.team_size, shape.vector_length);
    policy.set_scratch_size(0, Kokkos::PerTeam(Team::scratch_bytes(capacity)));
    Kokkos::parallel_for("spk::spmm_flat", policy, body);
  });

  const std::int64_t fixups = static_cast<std::int64_t>(mp.fixups.extent(0));
  if (fixups == 0) return;
  const auto fix = mp.fixups, fixup_first = mp.fixup_first;
  const auto split_row = mp.split_row;
  const auto carry = mp.carry, head = mp.head;
  Kokkos::parallel_for(
      "spk::spmm_flat::fixup", typename T::range_policy(0, fixups * k), KOKKOS_LAMBDA(const std::int64_t f) {
        const std::int64_t t = fix(f / k), row = split_row(t);
        const int c = static_cast<int>(f % k);
        const Scalar sum =
            sum_carries<Scalar>(fixup_first(f / k), t, [&](std::int64_t s) { return carry(s, c); }) + head(t, c);
        C(row, c) = beta == Scalar(0) ? alpha * sum : alpha * sum + beta * C(row, c);
      });
}

// Teams the flat launch needs (the plan checks it fits a Kokkos league).
inline std::int64_t flat_teams(std::int64_t chunks, const LaunchShape& shape) {
  return (chunks + shape.team_size - 1) / shape.team_size;
}

}  // namespace spk::impl
