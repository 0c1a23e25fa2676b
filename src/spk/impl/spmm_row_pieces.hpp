#pragma once
// SpMM row-pieces: rows cut into pieces of at most `chunk` nonzeros (split rows' parts first, in column order, then
// the whole rows, longest first), a vector per (piece, column tile), column tiles outermost in the league. The
// vector's lane groups share the piece's nonzeros (lane_groups.hpp), each lane owning columns_per_lane columns of the
// tile, and read A straight from global memory (no staging, no team barrier). A piece that is a whole row stores its
// row of C; the pieces of a longer row leave partial tiles that a fix-up adds in a fixed order (deterministic, no
// atomics): in piece order, or by teams when a row has more than long_fixup_carries pieces (spmm_long_fixups.hpp).
// Why each part: pieces bound the work of one vector, so a row holding a large share of the nonzeros (ogbl_ddi's
// longest is 4.5x its mean, arrow's is all of one column) does not finish alone after the rest; longest first lets
// the hardware's in-order block dispatch balance the rest (longest processing time first); tiles outermost keep the
// teams that run at once on one tile of B. A probe on an H100 (perf/results/h100-cuda.md) ran ogbl_ddi fp32 at
// k = 256 in 0.162 ms against 0.243 for spk's `automatic` then (flat), and Cornell5 at k = 32 in 0.030 against
// 0.048; with the pieces in stored row order the same kernel was 13-22% slower on both.
// A host team (one thread) takes one piece across all of k, reading A in place.
#include <limits>

#include "device_arena.hpp"
#include "device_array.hpp"
#include "row_reorder.hpp"
#include "spmm_common.hpp"
#include "spmm_long_fixups.hpp"

namespace spk::impl {

struct RowPiece {
  std::int64_t row, begin, end;  // nonzeros [begin, end) of row
  std::int64_t part;             // the partial tile it leaves (the row has several pieces), or -1: it stores C
};

template <class Device, class Scalar>
struct SpmmRowPieces {
  template <class T>
  using array = typename DeviceArena<Device>::template array<T>;
  DeviceArena<Device> storage;  // holds the three arrays below and the cursors that placed the pieces
  array<RowPiece> pieces;       // split rows' parts by first column, then whole rows longest first
  array<std::int64_t> split_rows;   // rows cut into several pieces ...
  array<std::int64_t> split_parts;  // ... whose partials are parts split_parts(f) .. (f+1) - 1 (none if no split)
  array<std::int64_t> long_splits;  // the f of more than long_fixup_carries parts, in order: teams add them up
  Kokkos::View<Scalar**, Kokkos::LayoutRight, Device> partials;  // one row of k per part
  std::int64_t count = 0;
};

// The rows of at most c nonzeros, a piece each, counted into (Place false) or placed at (Place true) their buckets'
// cursors: a team per block of rows finds, for each row, the block's first row of its bucket and how many of them come
// before it and in all; that first row adds the block's count to the bucket or reserves its places for the block (one
// atomic), and each row takes its place in row order. One atomic per bucket and block, not per row: skewed 1M's
// million rows of 8 counted one atomic each on one bucket took 0.74 ms (H100, ncu), more than its SpMM call at k = 32.
// Quadratic in the block, which is small.
template <bool Place, class Exec, class Length, class RowMap, class Cursor, class Pieces>
void bucket_whole_rows(std::int64_t rows, std::int64_t c, const Length& length, const RowMap& row_map,
                       const Cursor& cursor, const Pieces& pieces) {
  using team_policy = Kokkos::TeamPolicy<Exec>;
  using scratch = Kokkos::View<std::int64_t*, typename Exec::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  constexpr int block = is_host_space<Exec>() ? 16 : 128;
  const std::int64_t blocks = (rows + block - 1) / block;
  team_policy policy(static_cast<int>(blocks), is_host_space<Exec>() ? 1 : block);
  policy.set_scratch_size(0, Kokkos::PerTeam(4 * scratch::shmem_size(block)));
  Kokkos::parallel_for(
      Place ? "spk::spmm_row_pieces::place_rows" : "spk::spmm_row_pieces::count_rows", policy,
      KOKKOS_LAMBDA(const typename team_policy::member_type& team) {
        const scratch key(team.team_scratch(0), block), base(team.team_scratch(0), block);
        const scratch lead(team.team_scratch(0), block), before(team.team_scratch(0), block);
        const std::int64_t first = static_cast<std::int64_t>(team.league_rank()) * block;
        const int n = static_cast<int>(rows - first < block ? rows - first : block);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const int i) {
          const std::int64_t len = length(first + i);
          key(i) = len <= c ? length_bucket(len) : -1;  // -1: a split row, placed part by part
        });
        team.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const int i) {
          if (key(i) < 0) return;
          std::int64_t first_of_key = i, ahead = 0, all = 0;
          for (int j = 0; j < n; ++j)
            if (key(j) == key(i)) {
              if (j < i) ++ahead;
              ++all;
              if (j < first_of_key) first_of_key = j;
            }
          lead(i) = first_of_key, before(i) = ahead;
          if (first_of_key != i) return;
          if (Place)  // a plain if: nvcc's extended lambdas cannot first-capture a variable under if constexpr
            base(i) = Kokkos::atomic_fetch_add(&cursor(key(i)), all);
          else
            Kokkos::atomic_add(&cursor(key(i)), all);
        });
        if (Place) {
          team.team_barrier();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const int i) {
            if (key(i) < 0) return;
            const std::int64_t r = first + i, b = row_map(r);
            pieces(base(lead(i)) + before(i)) = RowPiece{r, b, b + length(r), -1};
          });
        }
      });
}

// Pieces of at most `chunk` nonzeros (a longer row is cut into pieces of equal length, give or take one), built on the
// device: the split rows and their parts (scans), a histogram of the parts by the column each starts at (column_bins
// bins, an atomic per part) and of the whole rows by length (row reordering's buckets, length_bucket; an atomic per
// bucket and block of rows), its start offsets (a scan), then the pieces take their places.
// The parts come first, in column order: the pieces that run at once then gather from one stretch of B's rows, which
// the long rows share (a row of 200,000 random columns, skewed 1M's, spans all of B; its parts, in row order, kept
// many such stretches in flight at once: 0.90 against 0.75 ms at fp32 k = 32, H100). The whole rows follow, longest
// first: a team per block of rows reserves each bucket's places for its block with one atomic and fills them in row
// order, so rows stay in stored order within a block (one atomic per row interleaved the blocks' rows: arrow fp32
// k = 256 ran 10% slower, H100); parts take one atomic each. The order of the blocks within a bucket, and of the parts
// within a bin, is not fixed, and need not be: a piece's sums are one vector's, and split rows add their partials in
// a fixed order. (The host form before it, a copy of the row offsets and a serial counting sort, took 321-387 ms on
// R-MAT 22 16.)
// A small matrix's plan is paced by allocations and host waits, not by these passes, so every array but the partials
// comes from one allocation sized by bounds known up front, and the two scans' totals are the only host waits (with no
// row longer than the chunk, neither scan runs), but for a third, the count of the rows of more than
// long_fixup_carries parts, when the longest row has that many.
inline constexpr std::int64_t column_bins = 4096;

// longest_row: A's longest row (the plan's features); none longer than chunk leaves the scans out.
template <class Matrix>
SpmmRowPieces<typename Matrix::device_type, typename Matrix::scalar_type> make_spmm_row_pieces(
    const Matrix& A, int chunk, int k, std::int64_t longest_row) {
  using Device = typename Matrix::device_type;
  using exec = typename Matrix::execution_space;
  using policy = Kokkos::RangePolicy<exec, Kokkos::IndexType<std::int64_t>>;
  using Arena = DeviceArena<Device>;
  SpmmRowPieces<Device, typename Matrix::scalar_type> out;
  const std::int64_t rows = A.num_rows(), c = chunk, nnz = A.nnz();
  if (rows == 0) return out;
  // A split row has more than c nonzeros, and a row of n nonzeros makes at most n / c + 1 pieces (at most one when
  // n <= c), so there are at most nnz / (c + 1) split rows and rows + nnz / c pieces.
  const bool any_split = longest_row > c;
  const std::int64_t most_splits = any_split ? std::min(rows, nnz / (c + 1)) : 0, most_pieces = rows + nnz / c;
  // Likewise at most nnz / (long_fixup_carries * c + 1) rows of more than long_fixup_carries parts. Their fix-up
  // teams (one per row and column block) must fit a league, or every split row takes the one-thread fix-up.
  const std::int64_t long_length = long_fixup_carries * c;
  const std::int64_t most_longs = longest_row > long_length ? std::min(rows, nnz / (long_length + 1)) : 0;
  const bool any_long =
      most_longs > 0 && most_longs * long_fixup_columns<exec>(k).blocks <= std::numeric_limits<int>::max();
  // The split rows' parts come first, by the column they start at (column_bins bins), then the whole rows, longest
  // first (length buckets): bins and buckets share one array of cursors, the bins after the buckets.
  const std::int64_t buckets = length_bucket(c) + 1;  // pieces hold at most c nonzeros
  const std::int64_t cols = A.num_cols(), bins = cols < column_bins ? cols : column_bins;
  out.storage = Arena("spk::spmm_row_pieces",
                      Arena::template bytes_for<std::int64_t>(most_splits) +
                          Arena::template bytes_for<std::int64_t>(most_splits + 1) +
                          Arena::template bytes_for<std::int64_t>(any_long ? most_longs : 0) +
                          Arena::template bytes_for<std::int64_t>(buckets + bins) +
                          Arena::template bytes_for<RowPiece>(most_pieces));
  const auto split_room = out.storage.template take<std::int64_t>(most_splits);
  const auto parts_room = out.storage.template take<std::int64_t>(most_splits + 1);
  const auto long_room = out.storage.template take<std::int64_t>(any_long ? most_longs : 0);
  const auto cursor = out.storage.template take<std::int64_t>(buckets + bins);
  const auto pieces_room = out.storage.template take<RowPiece>(most_pieces);
  Kokkos::deep_copy(exec(), cursor, std::int64_t{0});

  const auto row_map = A.row_map();
  const auto length = KOKKOS_LAMBDA(const std::int64_t r)->std::int64_t {
    return static_cast<std::int64_t>(row_map(r + 1)) - static_cast<std::int64_t>(row_map(r));
  };
  const std::int64_t splits = !any_split ? 0 : compact_into<exec>(
      "spk::spmm_row_pieces::split_rows", rows, KOKKOS_LAMBDA(const std::int64_t r) { return length(r) > c; },
      KOKKOS_LAMBDA(const std::int64_t pos, const std::int64_t r) {
        if (pos < most_splits) split_room(pos) = r;
      });
  if (splits > most_splits)
    throw std::logic_error(detail::concat("spk::impl::make_spmm_row_pieces: ", splits,
                                          " split rows, but their bound was ", most_splits));
  const auto split_rows = Kokkos::subview(split_room, std::make_pair(std::int64_t{0}, splits));
  const auto split_parts = Kokkos::subview(parts_room, std::make_pair(std::int64_t{0}, splits ? splits + 1 : 0));
  const std::int64_t parts = splits == 0 ? 0 : scan_into<exec>(
      "spk::spmm_row_pieces::split_parts", splits + 1,
      KOKKOS_LAMBDA(const std::int64_t f)->std::int64_t {
        return f < splits ? (length(split_rows(f)) + c - 1) / c : 0;
      },
      KOKKOS_LAMBDA(const std::int64_t f, const std::int64_t pos, std::int64_t) { split_parts(f) = pos; });
  out.count = rows - splits + parts;  // the whole rows, a piece each, and the parts
  const std::int64_t longs = !any_long ? 0 : compact_into<exec>(
      "spk::spmm_row_pieces::long_splits", splits,
      KOKKOS_LAMBDA(const std::int64_t f) { return is_long_fixup(split_parts(f + 1) - split_parts(f)); },
      KOKKOS_LAMBDA(const std::int64_t pos, const std::int64_t f) {
        if (pos < most_longs) long_room(pos) = f;
      });
  if (longs > most_longs)
    throw std::logic_error(detail::concat("spk::impl::make_spmm_row_pieces: ", longs,
                                          " rows of more than ", long_fixup_carries, " parts, but their bound was ",
                                          most_longs));
  out.long_splits = Kokkos::subview(long_room, std::make_pair(std::int64_t{0}, longs));
  if (out.count > most_pieces)
    throw std::logic_error(detail::concat("spk::impl::make_spmm_row_pieces: ", out.count,
                                          " pieces, but their bound was ", most_pieces));
  // Split row f: its n parts hold len / n nonzeros, the first len % n of them one more.
  const auto split_piece = KOKKOS_LAMBDA(const std::int64_t f, const std::int64_t q, std::int64_t& begin,
                                         std::int64_t& end) {
    const std::int64_t r = split_rows(f), len = length(r), n = split_parts(f + 1) - split_parts(f);
    const std::int64_t base = len / n, longer = len % n;
    begin = static_cast<std::int64_t>(row_map(r)) + q * base + (q < longer ? q : longer);
    end = begin + base + (q < longer ? 1 : 0);
  };
  const auto entries = A.entries();
  // Part `part`'s row (in split_rows), nonzeros and the cursor of its column bin.
  const auto locate_part = KOKKOS_LAMBDA(const std::int64_t part, std::int64_t& f, std::int64_t& begin,
                                         std::int64_t& end)->std::int64_t {
    f = segment_of(split_parts, splits, part);
    split_piece(f, part - split_parts(f), begin, end);
    return buckets + static_cast<std::int64_t>(entries(begin)) * bins / cols;
  };
  const typename Arena::template array<RowPiece> no_pieces;
  bucket_whole_rows<false, exec>(rows, c, length, row_map, cursor, no_pieces);
  if (parts > 0)
    Kokkos::parallel_for(
        "spk::spmm_row_pieces::count_parts", policy(0, parts), KOKKOS_LAMBDA(const std::int64_t part) {
          std::int64_t f = 0, begin = 0, end = 0;
          Kokkos::atomic_add(&cursor(locate_part(part, f, begin, end)), std::int64_t{1});
        });
  // Each cursor becomes its bin's or bucket's first place: the column bins in column order from 0, then bucket b after
  // the longer buckets' pieces.
  Kokkos::parallel_scan(
      "spk::spmm_row_pieces::places", policy(0, buckets + bins),
      KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& pos, const bool final) {
        const std::int64_t at = i < bins ? buckets + i : buckets - 1 - (i - bins);
        const std::int64_t n = cursor(at);
        if (final) cursor(at) = pos;
        pos += n;
      });
  const auto pieces = Kokkos::subview(pieces_room, std::make_pair(std::int64_t{0}, out.count));
  bucket_whole_rows<true, exec>(rows, c, length, row_map, cursor, pieces);
  if (parts > 0)
    Kokkos::parallel_for(
        "spk::spmm_row_pieces::place_parts", policy(0, parts), KOKKOS_LAMBDA(const std::int64_t part) {
          std::int64_t f = 0, begin = 0, end = 0;
          const std::int64_t bin = locate_part(part, f, begin, end);
          pieces(Kokkos::atomic_fetch_add(&cursor(bin), std::int64_t{1})) = RowPiece{split_rows(f), begin, end, part};
        });
  out.pieces = pieces;
  out.split_rows = split_rows;
  out.split_parts = split_parts;
  // Written by every piece of a split row before the fix-up reads it.
  if (parts > 0) out.partials = decltype(out.partials)(uninitialized<exec>("spk::spmm_row_pieces::partials"), parts, k);
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

// Groups: the lane groups of the launch's vectors (lanes >> slot_bits, the same for every piece), or 0: the kernel
// switches on the count at run time, its five paths in one kernel. fp64 launches a kernel per count: 1.01-1.02x over
// the seven real matrices at k = 32-256 in two A/B calls, 1.05-1.07x on R-MAT 22 16 and skewed 1M at k = 256. fp32
// keeps the switch: there a kernel per count ran k = 256 5% slower (H200, perf/results/h200-cuda.md).
template <int CPL, int Groups, class Matrix, class BView, class CView>
struct SpmmRowPiecesTeam {
  using T = SpmmTypes<Matrix>;
  using Scalar = typename T::scalar;
  using Offset = typename T::offset;
  using exec = typename T::exec;

  DeviceArray<const typename T::ordinal> entries;
  DeviceArray<const Scalar> values;
  DeviceArray<const RowPiece> pieces;
  Kokkos::View<Scalar**, Kokkos::LayoutRight, typename T::device> partials;
  std::int64_t count;
  int blocks;      // teams per column tile
  int tile_width;  // columns of C per team
  BView B;
  CView C;
  Scalar alpha, beta;
  int lanes;
  int slot_bits;  // 2^slot_bits lanes per lane group: tile_width / CPL, at most the vector

  // acc = the piece's sums for the lane's columns: its lane group takes every G-th nonzero (G = 0: g.groups, known
  // at run time), then the groups' sums are added (lane_groups.hpp). A compile-time step folds the gathers' offsets
  // into the loads: ogbl_ddi fp32 k = 256 0.188 -> 0.170 ms, other rows up to 1.18x (H100 A/B, results file).
  template <int G>
  KOKKOS_INLINE_FUNCTION void accumulate_piece(Scalar (&acc)[CPL], Offset b, Offset e, LaneColumns lc, int k,
                                               const LaneGroup& g) const {
    constexpr int U = row_pieces_unroll<Scalar, CPL>();
    if constexpr (G > 0)
      accumulate_lane<CPL, exec, U>(acc, entries, values, b + g.group, e, B, lc, k, FixedStep<G>{});
    else
      accumulate_lane<CPL, exec, U>(acc, entries, values, b + g.group, e, B, lc, k, g.groups);
    if (G > 1 || (G == 0 && g.groups > 1))
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
          if constexpr (Groups > 0) {
            accumulate_piece<Groups>(acc, b, e, lc, k, g);
          } else {
            switch (g.groups) {  // the nonzero step known at compile time: the gathers' offsets fold into the loads
              case 1: accumulate_piece<1>(acc, b, e, lc, k, g); break;
              case 2: accumulate_piece<2>(acc, b, e, lc, k, g); break;
              case 4: accumulate_piece<4>(acc, b, e, lc, k, g); break;
              case 8: accumulate_piece<8>(acc, b, e, lc, k, g); break;
              default: accumulate_piece<0>(acc, b, e, lc, k, g); break;
            }
          }
          if (g.group == 0) finish(acc, lc);
        });
    }
  }
};

// Adds each split row's partial tiles into C: in part order, one thread per (split row, column), or in a team's order
// (spmm_long_fixups.hpp), a team per (split row, column block), for the rows of more than long_fixup_carries parts.
template <class Device, class Scalar, class CView>
void spmm_row_pieces_fixup(const typename Device::execution_space& space, const SpmmRowPieces<Device, Scalar>& rp,
                           Scalar alpha, Scalar beta, const CView& C) {
  using exec = typename Device::execution_space;
  const std::int64_t splits = static_cast<std::int64_t>(rp.split_rows.extent(0));
  const std::int64_t longs = static_cast<std::int64_t>(rp.long_splits.extent(0));
  const int k = static_cast<int>(C.extent(1));
  const auto split_rows = rp.split_rows, split_parts = rp.split_parts, long_splits = rp.long_splits;
  const auto partials = rp.partials;
  if (splits > longs)
    Kokkos::parallel_for(
        "spk::spmm_row_pieces::fixup", Kokkos::RangePolicy<exec, Kokkos::IndexType<std::int64_t>>(space, 0, splits * k),
        KOKKOS_LAMBDA(const std::int64_t i) {
          const std::int64_t f = i / k, first = split_parts(f), end = split_parts(f + 1);
          if (longs > 0 && is_long_fixup(end - first)) return;  // a team's
          const int c = static_cast<int>(i % k);
          const Scalar sum = sum_carries<Scalar>(first, end, [&](std::int64_t q) { return partials(q, c); });
          spmm_store(C, split_rows(f), c, alpha, sum, beta);
        });
  if (longs == 0) return;
  using policy_type = team_policy_for<exec>;
  const auto columns = long_fixup_columns<exec>(k);
  const int lanes = columns.lanes, blocks = columns.blocks;
  const auto body = KOKKOS_LAMBDA(const typename policy_type::member_type& team) {
    const int rank = team.league_rank();
    const std::int64_t f = long_splits(rank / blocks), row = split_rows(f);
    team_sum_partials(team, partials, split_parts(f), split_parts(f + 1), (rank % blocks) * lanes, lanes, k,
                      [&](const int c, const Scalar sum) { spmm_store(C, row, c, alpha, sum, beta); });
  };
  const int threads = long_fixup_threads(policy_type(space, 1, 1, lanes), body, lanes);
  policy_type policy(space, static_cast<int>(longs * blocks), threads, lanes);  // the plan checked it fits
  policy.set_scratch_size(0, Kokkos::PerTeam(long_fixup_scratch_bytes<exec, Scalar>(threads, lanes)));
  Kokkos::parallel_for("spk::spmm_row_pieces::long_fixup", policy, body);
}

// f(std::integral_constant<int, G>): with PerCount, G = the lane groups' count when it is 1, 2, 4 or 8; else (and
// always without PerCount) G = 0, the kernel that switches on the count.
template <bool PerCount, class F>
void with_lane_group_count(int groups, F&& f) {
  if constexpr (!PerCount) {
    f(std::integral_constant<int, 0>{});
  } else {
    switch (groups) {
      case 1: f(std::integral_constant<int, 1>{}); break;
      case 2: f(std::integral_constant<int, 2>{}); break;
      case 4: f(std::integral_constant<int, 4>{}); break;
      case 8: f(std::integral_constant<int, 8>{}); break;
      default: f(std::integral_constant<int, 0>{}); break;
    }
  }
}

template <class Matrix, class BView, class CView>
void spmm_row_pieces(const typename Matrix::execution_space& space, const LaunchShape& shape,
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
    // The plan checked the shape's tile. A B that cannot take packed loads runs one column per lane: its lane groups
    // then cover the tile in several passes when the vector is narrower than the tile's columns.
    const int tile = row_pieces_tile_width<exec>(shape, k);
    const int slot_bits = spmm_lane_slot_bits(shape.vector_length, CPL, tile);
    const int blocks = static_cast<int>((rp.count + shape.team_size - 1) / shape.team_size);
    // A kernel per lane-group count in fp64 on GPUs (SpmmRowPiecesTeam); host teams read whole rows, without lanes.
    constexpr bool per_count = !is_host_space<exec>() && sizeof(Scalar) > 4;
    with_lane_group_count<per_count>(shape.vector_length >> slot_bits, [&](auto groups) {
      using Team = SpmmRowPiecesTeam<CPL, decltype(groups)::value, Matrix, BView, CView>;
      const Team body{A.entries(), A.values(), rp.pieces, rp.partials, rp.count, blocks, tile, B, C, alpha, beta,
                      shape.vector_length, slot_bits};
      // Three teams of 512 threads per SM in fp32 (40 registers; 42 unbounded, so two teams); fp64 takes 64 (two).
      using policy_type =
          Kokkos::TeamPolicy<exec, Kokkos::Experimental::WorkItemProperty::HintLightWeight_t,
                             Kokkos::LaunchBounds<row_pieces_max_threads, sizeof(Scalar) <= 4 ? 3 : 2>>;
      policy_type policy(space, blocks * ((k + tile - 1) / tile), shape.team_size, shape.vector_length);
      Kokkos::parallel_for("spk::spmm_row_pieces", policy, body);
    });
  });
  spmm_row_pieces_fixup(space, rp, alpha, beta, C);
}

}  // namespace spk::impl
