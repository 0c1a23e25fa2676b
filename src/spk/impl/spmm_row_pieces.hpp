#pragma once
// SpMM row-pieces: rows cut into pieces of at most `chunk` nonzeros, the pieces ordered longest first, a vector per
// (piece, column tile), column tiles outermost in the league. The vector's lane groups share the piece's nonzeros
// (lane_groups.hpp), each lane owning columns_per_lane columns of the tile, and read A straight from global memory
// (no staging, no team barrier). A piece that is a whole row stores its row of C; the pieces of a longer row leave
// partial tiles that a fix-up adds in piece order (deterministic, no atomics).
// Why each part: pieces bound the work of one vector, so a row holding a large share of the nonzeros (ogbl_ddi's
// longest is 4.5x its mean, arrow's is all of one column) does not finish alone after the rest; longest first lets
// the hardware's in-order block dispatch balance the rest (longest processing time first); tiles outermost keep the
// teams that run at once on one tile of B. A probe on an H100 (perf/results/h100-cuda.md) ran ogbl_ddi fp32 at
// k = 256 in 0.162 ms against 0.243 for spk's `automatic` then (flat), and Cornell5 at k = 32 in 0.030 against
// 0.048; with the pieces in stored row order the same kernel was 13-22% slower on both.
// A host team (one thread) takes one piece across all of k, reading A in place.
#include <string>
#include <vector>

#include "row_reorder.hpp"
#include "spmm_common.hpp"

namespace spk::impl {

struct RowPiece {
  std::int64_t row, begin, end;  // nonzeros [begin, end) of row
  std::int64_t part;             // the partial tile it leaves (the row has several pieces), or -1: it stores C
};

template <class Device, class Scalar>
struct SpmmRowPieces {
  Kokkos::View<RowPiece*, Device> pieces;  // longest first
  Kokkos::View<std::int64_t*, Device> split_rows;   // rows cut into several pieces ...
  Kokkos::View<std::int64_t*, Device> split_parts;  // ... whose partials are parts split_parts(f) .. (f+1) - 1
  Kokkos::View<Scalar**, Kokkos::LayoutRight, Device> partials;  // one row of k per part
  std::int64_t count = 0;
};

// Pieces of at most `chunk` nonzeros (a longer row is cut into equal pieces), sorted by length, longest first, with
// row reordering's counting sort (order_by_length); built on the host from a copy of the row offsets.
template <class Matrix>
SpmmRowPieces<typename Matrix::device_type, typename Matrix::scalar_type> make_spmm_row_pieces(const Matrix& A,
                                                                                               int chunk, int k) {
  using Device = typename Matrix::device_type;
  using Scalar = typename Matrix::scalar_type;
  SpmmRowPieces<Device, Scalar> out;
  const std::int64_t rows = A.num_rows();
  if (rows == 0) return out;
  const auto row_map = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.row_map());
  std::vector<RowPiece> pieces;
  std::vector<std::int64_t> split_rows, split_parts;
  std::int64_t parts = 0;
  pieces.reserve(static_cast<std::size_t>(rows));
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t b = row_map(r), len = static_cast<std::int64_t>(row_map(r + 1)) - b;
    const std::int64_t n = len > chunk ? (len + chunk - 1) / chunk : 1;
    if (n > 1) split_rows.push_back(r), split_parts.push_back(parts);
    for (std::int64_t q = 0; q < n; ++q)
      pieces.push_back({r, b + len * q / n, b + len * (q + 1) / n, n > 1 ? parts++ : -1});
  }
  split_parts.push_back(parts);
  std::vector<std::int64_t> offsets{0};  // the pieces as the rows of a CSR offset array
  offsets.reserve(pieces.size() + 1);
  for (const auto& p : pieces) offsets.push_back(offsets.back() + (p.end - p.begin));
  const std::vector<std::int64_t> order = order_by_length(offsets);
  const Kokkos::View<RowPiece*, Kokkos::HostSpace> sorted(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("spk::spmm_row_pieces::sorted")), pieces.size());
  for (std::size_t i = 0; i < order.size(); ++i) sorted(i) = pieces[static_cast<std::size_t>(order[i])];
  const auto to_device = [](const std::vector<std::int64_t>& v, const char* label) {
    const Kokkos::View<const std::int64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> h(v.data(), v.size());
    const std::string name(label);  // Kokkos 3 would take a bare char pointer for memory to wrap
    Kokkos::View<std::int64_t*, Device> d(Kokkos::view_alloc(Kokkos::WithoutInitializing, name), v.size());
    Kokkos::deep_copy(d, h);
    return d;
  };
  out.pieces = Kokkos::View<RowPiece*, Device>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "spk::spmm_row_pieces::pieces"), pieces.size());
  Kokkos::deep_copy(out.pieces, sorted);
  out.split_rows = to_device(split_rows, "spk::spmm_row_pieces::split_rows");
  out.split_parts = to_device(split_parts, "spk::spmm_row_pieces::split_parts");
  // Written by every piece of a split row before the fix-up reads it.
  out.partials = decltype(out.partials)(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "spk::spmm_row_pieces::partials"), parts, k);
  out.count = static_cast<std::int64_t>(pieces.size());
  return out;
}

// The column tile a row-pieces launch gives a team: the shape's tile_width, or (0) the lanes k needs times the
// columns per lane, like the other kernels' passes; all of k on host back-ends (one lane).
template <class ExecSpace>
int row_pieces_tile_width(const LaunchShape& shape, int k) {
  if (is_host_space<ExecSpace>() || k == 0) return k > 0 ? k : 1;
  if (shape.tile_width > 0) return shape.tile_width;
  return spmm_lane_slots(shape.vector_length, shape.columns_per_lane, k) * shape.columns_per_lane;
}

// Teams the row-pieces launch needs (the plan checks it fits a Kokkos league).
template <class ExecSpace>
std::int64_t row_pieces_teams(std::int64_t pieces, const LaunchShape& shape, int k) {
  if (pieces == 0 || k == 0) return 0;
  const int tile = row_pieces_tile_width<ExecSpace>(shape, k);
  return (pieces + shape.team_size - 1) / shape.team_size * ((k + tile - 1) / tile);
}

// Nonzeros a lane keeps in flight: 16 floats or 4 doubles of B, the H100 probe's best (4 or 2 nonzeros of a 16-byte
// load), and fewer registers than spmm_gathers_in_flight's 128 bytes (fp32: 42 against 62; 40 under the launch
// bounds below).
template <class Scalar, int CPL>
KOKKOS_INLINE_FUNCTION constexpr int row_pieces_unroll() {
  constexpr int n = (sizeof(Scalar) <= 4 ? 16 : 4) / CPL;
  return n < 2 ? 2 : n;
}

// The most threads a row-pieces team may have (its launch bounds; the plan checks forced shapes).
inline constexpr int row_pieces_max_threads = 512;

template <int CPL, class Matrix, class BView, class CView>
struct SpmmRowPiecesTeam {
  using T = SpmmTypes<Matrix>;
  using Scalar = typename T::scalar;
  using Offset = typename T::offset;
  using exec = typename T::exec;

  typename Matrix::entries_type::const_type entries;
  typename Matrix::values_type::const_type values;
  Kokkos::View<const RowPiece*, typename T::device> pieces;
  Kokkos::View<Scalar**, Kokkos::LayoutRight, typename T::device> partials;
  std::int64_t count;
  int blocks;      // teams per column tile
  int tile_width;  // columns of C per team
  BView B;
  CView C;
  Scalar alpha, beta;
  int lanes;
  int slot_bits;  // 2^slot_bits lanes per lane group: tile_width / CPL, at most the vector

  // acc = the piece's sums for the lane's columns: its lane group takes every Groups-th nonzero (0: g.groups, known
  // at run time), then the groups' sums are added (lane_groups.hpp). A compile-time step folds the gathers' offsets
  // into the loads: ogbl_ddi fp32 k = 256 0.188 -> 0.170 ms, other rows up to 1.18x (H100 A/B, results file).
  template <int Groups>
  KOKKOS_INLINE_FUNCTION void accumulate_piece(Scalar (&acc)[CPL], Offset b, Offset e, LaneColumns lc, int k,
                                               const LaneGroup& g) const {
    constexpr int U = row_pieces_unroll<Scalar, CPL>();
    if constexpr (Groups > 0)
      accumulate_lane<CPL, exec, U>(acc, entries, values, b + g.group, e, B, lc, k, FixedStep<Groups>{});
    else
      accumulate_lane<CPL, exec, U>(acc, entries, values, b + g.group, e, B, lc, k, g.groups);
    if (g.groups > 1)
      for (int j = 0; j < CPL; ++j) acc[j] = sum_over_lane_groups(acc[j], g.slots, g.lanes);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const typename T::member& team) const {
    // 32-bit division (the league fits an int), skipped for the first tile, as in spmm_row_block.hpp.
    const int rank = team.league_rank();
    const int tile = rank < blocks ? 0 : rank / blocks;
    const std::int64_t piece = static_cast<std::int64_t>(rank - tile * blocks) * team.team_size() + team.team_rank();
    if (piece >= count) return;  // no team barrier follows
    const int k = static_cast<int>(B.extent(1));
    const int c_begin = tile * tile_width, c_end = c_begin + tile_width < k ? c_begin + tile_width : k;
    const RowPiece p = pieces(piece);
    const auto finish = [&](const Scalar(&acc)[CPL], LaneColumns lc) {
      if (p.part < 0) {
        store_lane<CPL>(C, p.row, acc, lc, k, alpha, beta);
      } else {
        for (int j = 0; j < CPL; ++j)
          if (lc.first + j * lc.step < k) partials(p.part, lc.first + j * lc.step) = acc[j];
      }
    };
    if constexpr (HostSpaceFlag<exec>::value) {
      with_host_isa([&](auto isa) {
        host_row_strips<CPL, exec>(isa, entries, values, p.begin, p.end, B, c_begin, c_end, finish);
      });
    } else {
      const int width = CPL << slot_bits;
      for (int c0 = c_begin; c0 < c_end; c0 += width)
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, lanes), [&](const int lane) {
          const LaneGroup g = lane_group(lane, lanes, slot_bits);
          const LaneColumns lc = lane_columns<exec, CPL, BView>(c0, g.slot, g.slots);
          Scalar acc[CPL] = {};
          // In the matrix's offset type: 32-bit offsets keep the gather loop's index arithmetic 32-bit.
          const Offset b = static_cast<Offset>(p.begin), e = static_cast<Offset>(p.end);
          switch (g.groups) {  // the nonzero step known at compile time: the gathers' offsets fold into the loads
            case 1: accumulate_piece<1>(acc, b, e, lc, k, g); break;
            case 2: accumulate_piece<2>(acc, b, e, lc, k, g); break;
            case 4: accumulate_piece<4>(acc, b, e, lc, k, g); break;
            case 8: accumulate_piece<8>(acc, b, e, lc, k, g); break;
            default: accumulate_piece<0>(acc, b, e, lc, k, g); break;
          }
          if (g.group == 0) finish(acc, lc);
        });
    }
  }
};

template <class Matrix, class BView, class CView>
void spmm_row_pieces(const LaunchShape& shape,
                     const SpmmRowPieces<typename Matrix::device_type, typename Matrix::scalar_type>& rp,
                     typename Matrix::scalar_type alpha, const Matrix& A, const BView& B,
                     typename Matrix::scalar_type beta, const CView& C) {
  using T = SpmmTypes<Matrix>;
  using Scalar = typename T::scalar;
  using exec = typename T::exec;
  const int k = static_cast<int>(B.extent(1));
  if (rp.count == 0 || k == 0) return;
  with_columns_per_lane<exec>(spmm_columns_per_lane<exec>(B, shape.columns_per_lane), [&](auto cpl) {
    constexpr int CPL = decltype(cpl)::value;
    using Team = SpmmRowPiecesTeam<CPL, Matrix, BView, CView>;
    // The plan checked the shape's tile. A B that cannot take packed loads runs one column per lane: its lane groups
    // then cover the tile in several passes when the vector is narrower than the tile's columns.
    const int tile = row_pieces_tile_width<exec>(shape, k);
    const int slot_bits = spmm_lane_slot_bits(shape.vector_length, CPL, tile);
    const int blocks = static_cast<int>((rp.count + shape.team_size - 1) / shape.team_size);
    const Team body{A.entries(), A.values(), rp.pieces, rp.partials, rp.count, blocks, tile, B, C, alpha, beta,
                    shape.vector_length, slot_bits};
    // Three teams of 512 threads per SM in fp32 (40 registers; 42 unbounded, so two teams); fp64 takes 64 (two).
    using policy_type = Kokkos::TeamPolicy<exec, Kokkos::Experimental::WorkItemProperty::HintLightWeight_t,
                                           Kokkos::LaunchBounds<row_pieces_max_threads, sizeof(Scalar) <= 4 ? 3 : 2>>;
    policy_type policy(blocks * ((k + tile - 1) / tile), shape.team_size, shape.vector_length);
    Kokkos::parallel_for("spk::spmm_row_pieces", policy, body);
  });
  const std::int64_t splits = static_cast<std::int64_t>(rp.split_rows.extent(0));
  if (splits == 0) return;
  const auto split_rows = rp.split_rows, split_parts = rp.split_parts;
  const auto partials = rp.partials;
  Kokkos::parallel_for(
      "spk::spmm_row_pieces::fixup", typename T::range_policy(0, splits * k), KOKKOS_LAMBDA(const std::int64_t i) {
        const std::int64_t f = i / k;
        const int c = static_cast<int>(i % k);
        const Scalar sum = sum_carries<Scalar>(split_parts(f), split_parts(f + 1),
                                               [&](std::int64_t q) { return partials(q, c); });
        spmm_store(C, split_rows(f), c, alpha, sum, beta);
      });
}

}  // namespace spk::impl
