#pragma once
// SpMM vector-row: one vector per row, no team staging and no team barrier. The vector reads its row's column
// indices and values `lanes` at a time with one coalesced load per lane, keeps them in registers, and hands each
// nonzero to the lanes that need it with a shuffle; each lane owns columns_per_lane columns of the row (lane groups
// share the nonzeros when k needs fewer lanes than the vector has, lane_groups.hpp) and keeps their sums in
// registers until one store. A small matrix then fills the GPU with one warp per row and spends no instructions on a
// team's bookkeeping: row-team's staged blocks of 128 nonzeros held 2-3 of pushpull's rows for a team of 8 warps.
// The register broadcast follows Yang, Buluc and Owens, "Design Principles for Sparse Matrix Multiplication on the
// GPU" (Euro-Par 2018), row-split SpMM. Rows longer than `long_row` (when set) would leave one vector working alone:
// each gets a whole team of its own in the same launch (team_long_row, deterministic), and the vectors skip them.
// A host team (one thread) reads A in place, rows_per_thread rows at a time, long rows included.
#include "device_array.hpp"
#include "lane_groups.hpp"
#include "spmm_common.hpp"

namespace spk::impl {

// acc[j] += the row's nonzeros [b, e) times B's rows, for the lane's columns lc. The vector walks the row `lanes`
// nonzeros at a time: lane q loads nonzero base + q, then lane group g takes the batch's nonzeros g, g + groups, ...
// from their owners, U at a time so the gathers of B overlap. Every lane of the vector must call it (the shuffles
// are uniform: a lane past the batch's end still takes part, with a zero value and no load).
template <int CPL, class ExecSpace, class Scalar, class Entries, class Values, class Offset, class BView>
KOKKOS_INLINE_FUNCTION void accumulate_broadcast_row(Scalar (&acc)[CPL], const Entries& entries, const Values& values,
                                                     Offset b, Offset e, const BView& B, LaneColumns lc, int k,
                                                     const LaneGroup& g, int lane) {
  using Ordinal = typename Entries::non_const_value_type;
  constexpr int U = spmm_gathers_in_flight<Scalar, CPL>();
  constexpr bool packed = spmm_packed_loads<ExecSpace, CPL, BView>();
  const LaneRows<BView> lane_rows(B, lc);
  const bool whole = lc.first + (CPL - 1) * lc.step < k;  // every column of the lane exists
  // The next batch's indices and values are loaded before this batch's gathers, so their latency overlaps.
  Ordinal next_c = b + lane < e ? entries(b + lane) : Ordinal(0);
  Scalar next_v = b + lane < e ? values(b + lane) : Scalar(0);
  for (Offset base = b; base < e; base += g.lanes) {
    const int n = e - base < g.lanes ? static_cast<int>(e - base) : g.lanes;
    const Ordinal mine_c = next_c;
    const Scalar mine_v = next_v;
    if (base + g.lanes < e) {
      const Offset p = base + g.lanes + lane;
      next_c = p < e ? entries(p) : Ordinal(0);
      next_v = p < e ? values(p) : Scalar(0);
    }
    for (int q = 0; q < n; q += U * g.groups) {
      Scalar v[U], x[U][CPL];
      for (int u = 0; u < U; ++u) {
        const int i = q + u * g.groups + g.group;
        const int src = i < n ? i : 0;
        const Ordinal c = broadcast_in_vector(mine_c, src, g.lanes);
        v[u] = broadcast_in_vector(mine_v, src, g.lanes);
        if (i < n && whole) {
          lane_rows.template load<CPL, packed>(c, x[u]);
        } else {
          const auto* row = lane_rows.row(c);
          for (int j = 0; j < CPL; ++j)
            x[u][j] = i < n && lc.first + j * lc.step < k ? row[j * lane_rows.column_step] : Scalar(0);
          if (i >= n) v[u] = Scalar(0);
        }
      }
      for (int u = U - 1; u >= 0; --u)  // the last gather first (spmm_gathers_in_flight)
        for (int j = 0; j < CPL; ++j) acc[j] += v[u] * x[u][j];
    }
  }
}

template <int CPL, class Matrix, class BView, class CView>
struct SpmmVectorRowTeam {
  using T = SpmmTypes<Matrix>;
  using Scalar = typename T::scalar;
  using exec = typename T::exec;

  DeviceArray<const typename T::offset> row_map;
  DeviceArray<const typename T::ordinal> entries;
  DeviceArray<const Scalar> values;
  DeviceArray<const std::int64_t> order;      // empty: rows in stored order
  DeviceArray<const std::int64_t> long_rows;  // rows of their own team, after the vectors'
  BView B;
  CView C;
  Scalar alpha, beta;
  std::int64_t rows;
  std::int64_t vector_teams;  // teams of vectors; team vector_teams + l takes long_rows(l)
  std::int64_t long_row;      // rows longer than this are long_rows' (0: none)
  int rows_per_vector;
  int lanes;
  int slot_bits;  // 2^slot_bits lanes per lane group (lane_groups.hpp)

  static std::size_t scratch_bytes(int team_size, int lanes, bool any_long) {
    return any_long ? T::scalar_scratch::shmem_size(static_cast<std::size_t>(team_size) * lanes * CPL) : 0;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const typename T::member& team) const {
    const int k = static_cast<int>(B.extent(1)), width = CPL << slot_bits;
    if (team.league_rank() >= vector_teams) {
      typename T::scalar_scratch partials(team.team_scratch(0), team.team_size() * lanes * CPL);
      const std::int64_t row = long_rows(team.league_rank() - vector_teams);
      team_long_row<CPL, exec>(team, partials, entries, values, row_map(row), row_map(row + 1), B, C, row, 0, k,
                               lanes, slot_bits, alpha, beta);
      return;
    }
    const std::int64_t vector = static_cast<std::int64_t>(team.league_rank()) * team.team_size() + team.team_rank();
    const std::int64_t r0 = vector * rows_per_vector;
    const std::int64_t r1 = r0 + rows_per_vector < rows ? r0 + rows_per_vector : rows;
    if constexpr (HostSpaceFlag<exec>::value) {  // one thread: no long rows, no lanes
      with_host_isa([&](auto isa) {
        for (std::int64_t r = r0; r < r1; ++r) {
          const std::int64_t row = order ? order(r) : r;
          host_row_strips<CPL, exec>(isa, entries, values, row_map(row), row_map(row + 1), B, 0, k,
                                     [&](const Scalar(&acc)[CPL], LaneColumns lc) {
                                       store_lane<CPL>(C, row, acc, lc, k, alpha, beta);
                                     });
        }
      });
    } else {
      for (std::int64_t r = r0; r < r1; ++r) {
        const std::int64_t row = order ? order(r) : r;
        const auto b = row_map(row), e = row_map(row + 1);
        if (long_row > 0 && e - b > long_row) continue;  // a team of its own
        for (int c0 = 0; c0 < k; c0 += width) {
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, lanes), [&](const int lane) {
            const LaneGroup g = lane_group(lane, lanes, slot_bits);
            const LaneColumns lc = lane_columns<exec, CPL, BView>(c0, g.slot, g.slots);
            Scalar acc[CPL] = {};
            accumulate_broadcast_row<CPL, exec>(acc, entries, values, b, e, B, lc, k, g, lane);
            if (g.groups > 1)
              for (int j = 0; j < CPL; ++j) acc[j] = sum_over_lane_groups(acc[j], g.slots, g.lanes);
            if (g.group == 0) store_lane<CPL>(C, row, acc, lc, k, alpha, beta);
          });
        }
      }
    }
  }
};

// The rows a vector-row plan gives a team each: longer than shape.long_row, on GPUs only (a host thread is the
// whole team either way).
template <class Matrix>
Kokkos::View<std::int64_t*, typename Matrix::device_type> make_vector_row_long_rows(const Matrix& A,
                                                                                   const LaunchShape& shape,
                                                                                   std::int64_t max_length) {
  using exec = typename Matrix::execution_space;
  const std::int64_t threshold = shape.long_row;
  if (is_host_space<exec>() || threshold <= 0 || max_length <= threshold) return {};
  const auto row_map = A.row_map();
  return compact_indices<exec, typename Matrix::device_type>(
      "spk::spmm_vector_row::long_rows", A.num_rows(),
      KOKKOS_LAMBDA(const std::int64_t r)->bool { return row_map(r + 1) - row_map(r) > threshold; });
}

// Teams the vector-row launch needs (the plan checks it fits a Kokkos league).
inline std::int64_t vector_row_teams(std::int64_t rows, std::int64_t long_rows, const LaunchShape& shape) {
  const std::int64_t per_team = shape.rows_per_team();
  return (rows + per_team - 1) / per_team + long_rows;
}

template <class Matrix, class BView, class CView>
void spmm_vector_row(const typename Matrix::execution_space& space, const LaunchShape& shape,
                     const Kokkos::View<std::int64_t*, typename Matrix::device_type>& order,
                     const Kokkos::View<std::int64_t*, typename Matrix::device_type>& long_rows,
                     typename Matrix::scalar_type alpha, const Matrix& A, const BView& B,
                     typename Matrix::scalar_type beta, const CView& C) {
  using policy_type = typename SpmvTypes<Matrix>::team_policy;
  const std::int64_t longs = static_cast<std::int64_t>(long_rows.extent(0));
  const std::int64_t teams = vector_row_teams(A.num_rows(), longs, shape);
  if (teams == 0 || B.extent(1) == 0) return;
  using exec = typename Matrix::execution_space;
  with_columns_per_lane<exec>(spmm_columns_per_lane<exec>(B, shape.columns_per_lane), [&](auto cpl) {
    constexpr int CPL = decltype(cpl)::value;
    using Team = SpmmVectorRowTeam<CPL, Matrix, BView, CView>;
    const Team body{A.row_map(), A.entries(), A.values(), order, long_rows, B, C, alpha, beta, A.num_rows(),
                    teams - longs, longs ? shape.long_row : 0, shape.rows_per_thread, shape.vector_length,
                    spmm_lane_slot_bits(shape.vector_length, CPL, static_cast<int>(B.extent(1)))};
    policy_type policy(space, static_cast<int>(teams), shape.team_size, shape.vector_length);
    policy.set_scratch_size(0, Kokkos::PerTeam(Team::scratch_bytes(shape.team_size, shape.vector_length, longs > 0)));
    Kokkos::parallel_for("spk::spmm_vector_row", policy, body);
  });
}

}  // namespace spk::impl
