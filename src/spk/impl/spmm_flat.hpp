#pragma once
// SpMM nonzero-balanced flat: the merge-path partition (merge_path.hpp) gives every thread one chunk of `chunk`
// items (rows + nonzeros), so a row holding most of the nonzeros is spread over many threads instead of holding one.
// A team stages the nonzeros of its threads' chunks into scratch (coalesced), then each thread walks its chunk row by
// row with its lanes accumulating columns in registers (lane groups sharing each row's nonzeros when k needs fewer
// lanes than the vector has, lane_groups.hpp): rows ending inside the chunk are stored, the partial of a row
// continuing past the chunk goes to carry(t, :), the in-chunk part of a row that began earlier to head(t, :). A
// fix-up pass then adds, for each split row, its carries in chunk order and its head: deterministic, no atomics.
// A row split over more than long_fixup_carries chunks (one row holding most of the nonzeros) gets teams for its
// fix-up, one per block of columns (spmm_long_fixups.hpp), instead of one thread per column, whose serial sum of 700
// carries took 67 us under ncu where the main kernel took 25 (arrow, fp32, k = 32).
// A host team (one thread) reads A in place instead of staging it.
// Carries cost 2 x chunks x k scalars, so the selector keeps chunks several times longer than the mean row.
#include "device_array.hpp"
#include "merge_path.hpp"
#include "spmm_common.hpp"
#include "spmm_long_fixups.hpp"

namespace spk::impl {

// Short fix-up columns up to which they share the long fix-ups' launch (about one wave of an H100's threads). Beyond
// it they keep a launch of their own: in the shared one they take the long fix-ups' team shape and registers, and
// skewed 1M (a million short fix-ups, fp32, k = 32) ran 8% slower that way.
constexpr std::int64_t shared_fixup_items_max = std::int64_t{1} << 18;

template <class Device, class Scalar>
struct SpmmMergePath : MergePartition<Device> {
  Kokkos::View<Scalar**, Kokkos::LayoutRight, Device> carry;  // partial of row split_row(t+1) inside chunk t
  Kokkos::View<Scalar**, Kokkos::LayoutRight, Device> head;   // in-chunk part of row split_row(t) begun earlier
  Kokkos::View<std::int64_t*, Device> long_fixups;  // the f whose fix-up adds more than long_fixup_carries (GPUs)
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
  using exec = typename Matrix::execution_space;
  const decltype(mp.carry) block(uninitialized<exec>("spk::spmm_flat::carry_head"), 2 * mp.chunks, k);  // one for both
  mp.carry = Kokkos::subview(block, std::make_pair(std::int64_t{0}, mp.chunks), Kokkos::ALL);
  mp.head = Kokkos::subview(block, std::make_pair(mp.chunks, 2 * mp.chunks), Kokkos::ALL);
  const auto fix = mp.fixups, fixup_first = mp.fixup_first;
  if (!is_host_space<exec>() && fix.extent(0) > 0)
    mp.long_fixups = compact_indices<exec, Device>(
        "spk::spmm_flat::long_fixups", static_cast<std::int64_t>(fix.extent(0)),
        KOKKOS_LAMBDA(const std::int64_t f)->bool { return is_long_fixup(fix(f) - fixup_first(f)); });
  return mp;
}

template <int CPL, class Matrix, class BView, class CView>
struct SpmmFlatTeam {
  using T = SpmmTypes<Matrix>;
  using Scalar = typename T::scalar;
  using exec = typename T::exec;
  using Partials = Kokkos::View<Scalar**, Kokkos::LayoutRight, typename T::device>;

  DeviceArray<const typename T::offset> row_map;
  DeviceArray<const typename T::ordinal> entries;
  DeviceArray<const Scalar> values;
  DeviceArray<const std::int64_t> split_row, split_nnz;
  Partials carry, head;
  std::int64_t chunks, rows;
  BView B;
  CView C;
  Scalar alpha, beta;
  int lanes;
  int slot_bits;  // 2^slot_bits lanes per lane group (lane_groups.hpp); the groups share each row's nonzeros
  int capacity;  // nonzeros of one team's chunks at most: team_size * chunk

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
      with_host_isa([&](auto isa) {
        for (std::int64_t t = t0; t < t1; ++t) {
          const std::int64_t first = split_row(t), last = split_row(t + 1);
          for (std::int64_t row = first; row <= end_row_of(t); ++row) {
            const auto [b, e] = span_in_chunk(t, row);
            const bool begun_earlier = row_map(row) < split_nnz(t);
            host_row_strips<CPL, exec>(isa, entries, values, b, e, B, 0, k,
                                       [&](const Scalar(&acc)[CPL], LaneColumns lc) {
                                         finish_row(t, row, first, last, begun_earlier, acc, lc, k);
                                       });
          }
        }
      });
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
                                      lc, k, g);
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

// A short fix-up's column: item f * k + c adds chunk-ordered carries and the head of fix-up f into C(row, c), one
// thread each, for the range launch and the shared launch's short teams alike. skip_long: leave the long fix-ups to
// their teams.
template <class Device, class Scalar, class CView>
struct ShortFixup {
  Kokkos::View<std::int64_t*, Device> fix, fixup_first, split_row;
  Kokkos::View<Scalar**, Kokkos::LayoutRight, Device> carry, head;
  CView C;
  Scalar alpha, beta;
  int k;
  bool skip_long;

  ShortFixup(const SpmmMergePath<Device, Scalar>& mp, Scalar alpha_, Scalar beta_, const CView& C_, bool skip_long_)
      : fix(mp.fixups), fixup_first(mp.fixup_first), split_row(mp.split_row), carry(mp.carry), head(mp.head), C(C_),
        alpha(alpha_), beta(beta_), k(static_cast<int>(C_.extent(1))), skip_long(skip_long_) {}

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t item) const {
    const std::int64_t f = item / k, t = fix(f), first = fixup_first(f);
    if (skip_long && is_long_fixup(t - first)) return;  // the carries first .. t - 1
    const int c = static_cast<int>(item % k);
    const Scalar sum = sum_carries<Scalar>(first, t, [&](std::int64_t s) { return carry(s, c); }) + head(t, c);
    spmm_store(C, split_row(t), c, alpha, sum, beta);
  }
};

// The long fix-ups, a team per (fix-up, column block) (teams [0, longs x blocks), spmm_long_fixups.hpp), each adding
// the row's carries in its team's order and then the head. with_short: the teams after them take the short fix-ups,
// one column of one fix-up per lane, as the range launch does: one launch instead of two made arrow's flat calls
// 1.03-1.20x faster (H100, k = 32-256, perf/results/h100-cuda.md), whose short fix-ups are a few thousand columns'
// worth.
template <class Device, class Scalar, class CView>
void spmm_flat_fixups_with_long(const typename Device::execution_space& space, const SpmmMergePath<Device, Scalar>& mp,
                                Scalar alpha, Scalar beta, const CView& C, bool with_short) {
  using exec = typename Device::execution_space;
  using policy_type = team_policy_for<exec>;
  const int k = static_cast<int>(C.extent(1));
  const auto columns = long_fixup_columns<exec>(k);
  const int lanes = columns.lanes, blocks = columns.blocks;
  const std::int64_t long_teams = static_cast<std::int64_t>(mp.long_fixups.extent(0)) * blocks;
  // (fix-up, column) pairs of the short fix-ups' teams
  const std::int64_t short_items = with_short ? static_cast<std::int64_t>(mp.fixups.extent(0)) * k : 0;
  const auto long_fixups = mp.long_fixups, fix = mp.fixups, fixup_first = mp.fixup_first, split_row = mp.split_row;
  const auto carry = mp.carry, head = mp.head;
  const ShortFixup<Device, Scalar, CView> short_fixup(mp, alpha, beta, C, true);
  const auto body = KOKKOS_LAMBDA(const typename policy_type::member_type& team) {
    const int rank = team.league_rank();
    if (rank >= long_teams) {
      const int n = team.team_size();
      const std::int64_t first_item = (rank - long_teams) * static_cast<std::int64_t>(n) * lanes;
      Kokkos::parallel_for(Kokkos::TeamVectorRange(team, n * lanes), [&](const int q) {
        if (first_item + q < short_items) short_fixup(first_item + q);
      });
      return;
    }
    const std::int64_t f = long_fixups(rank / blocks), t = fix(f), row = split_row(t);
    team_sum_partials(team, carry, fixup_first(f), t, (rank % blocks) * lanes, lanes, k,
                      [&](const int c, const Scalar sum) { spmm_store(C, row, c, alpha, sum + head(t, c), beta); });
  };
  // As many threads as a team takes: arrow's 700 carries took 18 us with 256 threads, one chain of 90 per thread.
  const int threads = long_fixup_threads(policy_type(space, 1, 1, lanes), body, lanes);
  const std::int64_t per_team = static_cast<std::int64_t>(threads) * lanes;
  policy_type policy(space, static_cast<int>(long_teams + (short_items + per_team - 1) / per_team), threads, lanes);
  policy.set_scratch_size(0, Kokkos::PerTeam(long_fixup_scratch_bytes<exec, Scalar>(threads, lanes)));
  Kokkos::parallel_for("spk::spmm_flat::fixup_with_long", policy, body);
}

template <class Matrix, class BView, class CView>
void spmm_flat(const typename Matrix::execution_space& space, const LaunchShape& shape,
               const SpmmMergePath<typename Matrix::device_type, typename Matrix::scalar_type>& mp,
               typename Matrix::scalar_type alpha, const Matrix& A, const BView& B, typename Matrix::scalar_type beta,
               const CView& C) {
  using T = SpmmTypes<Matrix>;
  using Scalar = typename T::scalar;
  const int k = static_cast<int>(B.extent(1));
  if (mp.chunks == 0 || k == 0) return;
  const int capacity = shape.team_size * shape.chunk;
  const std::int64_t teams = (mp.chunks + shape.team_size - 1) / shape.team_size;
  using exec = typename T::exec;
  with_columns_per_lane<exec>(spmm_columns_per_lane<exec>(B, shape.columns_per_lane), [&](auto cpl) {
    using Team = SpmmFlatTeam<decltype(cpl)::value, Matrix, BView, CView>;
    const Team body{A.row_map(), A.entries(), A.values(), mp.split_row, mp.split_nnz, mp.carry, mp.head,
                    mp.chunks, A.num_rows(), B, C, alpha, beta, shape.vector_length,
                    spmm_lane_slot_bits(shape.vector_length, decltype(cpl)::value, k), capacity};
    typename T::team_policy policy(space, static_cast<int>(teams), shape.team_size, shape.vector_length);
    policy.set_scratch_size(0, Kokkos::PerTeam(Team::scratch_bytes(capacity)));
    Kokkos::parallel_for("spk::spmm_flat", policy, body);
  });

  const std::int64_t fixups = static_cast<std::int64_t>(mp.fixups.extent(0));
  if (fixups == 0) return;
  const bool long_apart = mp.long_fixups.extent(0) > 0;  // then the long fix-ups are a team launch's
  if (long_apart && fixups * k <= shared_fixup_items_max) {
    spmm_flat_fixups_with_long(space, mp, alpha, beta, C, true);
    return;
  }
  Kokkos::parallel_for("spk::spmm_flat::fixup", typename T::range_policy(space, 0, fixups * k),
                       ShortFixup<typename T::device, Scalar, CView>(mp, alpha, beta, C, long_apart));
  if (long_apart) spmm_flat_fixups_with_long(space, mp, alpha, beta, C, false);
}

// Teams the flat launch needs (the plan checks it fits a Kokkos league).
inline std::int64_t flat_teams(std::int64_t chunks, const LaunchShape& shape) {
  return (chunks + shape.team_size - 1) / shape.team_size;
}

}  // namespace spk::impl
