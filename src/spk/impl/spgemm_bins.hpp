#pragma once
// SpGEMM rows binned by work: each row's bound on distinct output columns picks its accumulator (copy, tiny
// per-thread table, team hash table of the right size, dense tile, global hash; or, on host back-ends, one
// Gustavson bin for every row), and rows of one bin are listed
// together so each bin runs as one launch sized for it (Nagasaka, Nukada, Matsuoka, "High-performance and
// memory-saving sparse general matrix-matrix multiplication for NVIDIA Pascal GPU", ICPP 2017).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <Kokkos_Core.hpp>

#include "../algorithms.hpp"
#include "../execution.hpp"
#include "../select/spgemm_select.hpp"
#include "device_arena.hpp"
#include "spgemm_common.hpp"

namespace spk::impl {

enum class SpgemmPath : int { none, copy, merge, sort, tiny, hash, dense, global, gustavson };

inline const char* to_string(SpgemmPath p) {
  constexpr const char* names[] = {"none", "copy", "merge", "sort", "tiny", "hash", "dense", "global", "gustavson"};
  return names[static_cast<int>(p)];
}

struct SpgemmBin {
  SpgemmPath path = SpgemmPath::none;
  int slots = 0;  // table size of a tiny or hash bin, products per row of a sort bin
  int lanes = 0;  // vector lanes per row of a merge bin
};

// Decides a row's bin on the device. Bin indices: 0 none (no products), 1 copy (one nonzero in A's row: C's row
// is a scaled row of B), one per merge lane count, one per sort size, one per tiny table size, one per hash table
// size, dense, global, gustavson (a forced Gustavson sends every row with products there).
struct SpgemmBinRule {
  static constexpr int min_slots = 8;
  SpgemmAlgorithm forced = SpgemmAlgorithm::automatic;
  bool numeric = false;    // numeric tables get room (twice the exact count), symbolic ones the bound
  bool allow_copy = true;  // B's rows are sorted and duplicate-free: a scaled copy or a merge is a valid C row
  bool allow_merge = true;  // also needs allow_copy; automatic leaves small matrices' rows to tables
  int tiny_slots = 0, hash_slots = 0, dense_width = 0, dense_max_passes = 0;
  int merge_lanes = 0, merge_cursors = 0, merge_max_columns = 0, sort_max_products = 0;
  std::int64_t global_slots = 0;  // largest table the memory budget lets the global pool give one row
  int first_merge = 2, first_sort = 0, first_tiny = 0, first_hash = 0, dense = 0, global = 0, gustavson = 0;

  SpgemmBinRule(SpgemmAlgorithm forced_, bool numeric_, bool allow_copy_, const select::SpgemmCapacity& cap,
                std::int64_t global_slots_, bool allow_merge_ = true)
      : forced(forced_), numeric(numeric_), allow_copy(allow_copy_), allow_merge(allow_merge_),
        tiny_slots(cap.tiny_slots),
        hash_slots(numeric_ ? cap.hash_slots_numeric : cap.hash_slots_symbolic),
        dense_width(numeric_ ? cap.dense_width_numeric : cap.dense_width_symbolic),
        dense_max_passes(cap.dense_max_passes), merge_lanes(cap.merge_lanes), merge_cursors(cap.merge_cursors),
        merge_max_columns(cap.merge_max_columns), sort_max_products(cap.sort_max_products),
        global_slots(global_slots_) {
    first_sort = first_merge + log2_of(merge_lanes) + 1;
    first_tiny = first_sort + log2_of(sort_max_products / min_slots) + 1;
    first_hash = first_tiny + log2_of(tiny_slots / min_slots) + 1;
    dense = first_hash + log2_of(hash_slots / min_slots) + 1;
    global = dense + 1;
    gustavson = global + 1;
  }

  KOKKOS_INLINE_FUNCTION static int log2_of(std::int64_t pow2) {
    int l = 0;
    while ((std::int64_t{1} << l) < pow2) ++l;
    return l;
  }

  // The smallest power of two of at least min_slots slots holding n.
  KOKKOS_INLINE_FUNCTION static std::int64_t pow2_slots(std::int64_t n) {
    std::int64_t slots = min_slots;
    while (slots < n) slots *= 2;
    return slots;
  }

  // The symbolic phase's bound on a row's distinct columns: its products, at most the width of its span.
  KOKKOS_INLINE_FUNCTION static std::int64_t bound(std::int64_t products, std::int64_t range) {
    return products < range ? products : range;
  }

  // Table size for a row needing `need` distinct columns within a span of `range` columns.
  KOKKOS_INLINE_FUNCTION std::int64_t slots_for(std::int64_t need, std::int64_t range) const {
    std::int64_t want = numeric ? 2 * need : need;
    return pow2_slots(want < range ? want : range);
  }

  // a_len: nonzeros in A's row; need: bound on its distinct columns (symbolic: min(products, range); numeric: the
  // exact count); range: the width of the span of columns its products can hit; products: its intermediate
  // products.
  KOKKOS_INLINE_FUNCTION int operator()(std::int64_t a_len, std::int64_t need, std::int64_t range,
                                        std::int64_t products) const {
    if (need == 0) return 0;
    if (forced == SpgemmAlgorithm::gustavson) return gustavson;
    const std::int64_t slots = slots_for(need, range);
    // A tiny row keeps its entries of A in `slots` scratch entries too.
    const int tiny = slots <= tiny_slots && a_len <= slots ? first_tiny + log2_of(slots / min_slots) : -1;
    const int hash = slots <= hash_slots ? first_hash + log2_of(slots / min_slots) : -1;
    const int fallback = slots <= global_slots ? global : dense;  // dense tiles need no memory beyond scratch
    // A sort bin holds a row's products and its entries of A, one per slot.
    const std::int64_t sort_slots = pow2_slots(products > a_len ? products : a_len);
    const int sort = sort_slots <= sort_max_products ? first_sort + log2_of(sort_slots / min_slots) : -1;
    // A merge bin per lane count: enough lanes that each follows at most merge_cursors rows of B.
    const std::int64_t merge_lanes_needed = (a_len + merge_cursors - 1) / merge_cursors;
    const int merge = allow_copy && allow_merge && merge_lanes_needed <= merge_lanes && need <= merge_max_columns
                          ? first_merge + log2_of(merge_lanes_needed)
                          : -1;
    switch (forced) {
      case SpgemmAlgorithm::row_merge: return merge >= 0 ? merge : fallback;
      case SpgemmAlgorithm::sort_rows: return sort >= 0 ? sort : fallback;
      case SpgemmAlgorithm::tiny_rows: return tiny >= 0 ? tiny : fallback;
      case SpgemmAlgorithm::hash: return hash >= 0 ? hash : fallback;
      case SpgemmAlgorithm::dense_tile: return dense;
      case SpgemmAlgorithm::global: return fallback;
      default: break;
    }
    if (a_len == 1 && allow_copy) return 1;
    // A sort's work follows the row's products, a merge's its distinct columns: a row that loses a third of its
    // products to duplicates merges (H200, lap2d 1024, 25 products and 13 columns a row: numeric merge 364 us,
    // sort 572 us; band 1M x 5 and uniform 256k x 8, no duplicates: merge 965 and 822 us, sort 695 and 472 us).
    const bool duplicates = merge >= 0 && 3 * need <= 2 * products;
    if (sort >= 0 && !duplicates) return sort;
    if (merge >= 0) return merge;  // no table to clear, probe or sort, and a group of lanes instead of a team
    if (range <= dense_width && 4 * need >= range) return dense;  // dense relative to its span: one tile, no sort
    if (tiny >= 0) return tiny;
    if (hash >= 0) return hash;
    const std::int64_t passes = (range + dense_width - 1) / dense_width;
    return passes <= dense_max_passes ? dense : fallback;
  }

  // Whether this rule and `other`, which may differ in the memory-bound fields only, place every row of a product
  // with `b_cols` columns in the same bin: the same algorithm, and a global pool that either both or neither rule
  // has room in for the largest table a row can ask (that of a row spanning every column).
  bool places_rows_as(const SpgemmBinRule& other, std::int64_t b_cols) const {
    if (forced != other.forced) return false;
    if (global_slots == other.global_slots) return true;
    const std::int64_t largest = slots_for(b_cols, b_cols);
    return global_slots >= largest && other.global_slots >= largest;
  }

  std::vector<SpgemmBin> bins() const {
    std::vector<SpgemmBin> out(static_cast<std::size_t>(gustavson) + 1);
    out[1].path = SpgemmPath::copy;
    for (int b = first_merge; b < first_sort; ++b) out[b] = {SpgemmPath::merge, 0, 1 << (b - first_merge)};
    for (int b = first_sort; b < first_tiny; ++b) out[b] = {SpgemmPath::sort, min_slots << (b - first_sort)};
    for (int b = first_tiny; b < first_hash; ++b) out[b] = {SpgemmPath::tiny, min_slots << (b - first_tiny)};
    for (int b = first_hash; b < dense; ++b) out[b] = {SpgemmPath::hash, min_slots << (b - first_hash)};
    out[dense].path = SpgemmPath::dense;
    out[global].path = SpgemmPath::global;
    out[gustavson].path = SpgemmPath::gustavson;
    return out;
  }
};

// Width of a row's column span [lo, hi]; 0 when the row has no products (hi < lo).
template <class Ordinal>
KOKKOS_INLINE_FUNCTION std::int64_t span_width(Ordinal lo, Ordinal hi) {
  return hi >= lo ? std::int64_t(hi) - lo + 1 : 0;
}

// Rows grouped by bin: rows(begin[b] .. begin[b + 1]) are bin b's, in no particular order. Bin 0 (no products)
// is not listed. The list lives in an arena its owner keeps.
template <class Space>
struct BinnedRows {
  std::vector<SpgemmBin> bins;
  std::vector<std::int64_t> begin;
  std::vector<std::int64_t> widest;  // per bin: the largest width_of(row) over its rows (bin_rows' argument)
  Kokkos::View<int*, Space, Kokkos::MemoryUnmanaged> rows;

  RowSlice<Space> slice(std::size_t bin) const { return {rows, begin[bin], begin[bin + 1] - begin[bin]}; }
  std::int64_t rows_on(SpgemmPath path) const {
    std::int64_t n = 0;
    for (std::size_t b = 0; b < bins.size(); ++b)
      if (bins[b].path == path) n += begin[b + 1] - begin[b];
    return n;
  }
};

// One launch of run_spgemm_bins: a bin's rows, with those of the smaller bins that joined it.
template <class Space>
struct BinLaunch {
  std::size_t bin = 0;
  RowSlice<Space> rows;
  std::int64_t widest = 0;  // the largest width_of(row) over those rows
};

// Whether bin `to`, after `from` in the bin order, can take `from`'s rows at little cost: a table, sort or lane group
// of the same path at most 4 times as large (a row costs its bin's size: a numeric hash row sorts its whole table, and
// when rows could join any larger bin the numeric phases of rajat01, Cornell5 and rmat 16 8 lost 13%, 6% and 5% on
// the H200), or a team hash table 1 to 4 times the size of a tiny row's table. A hash bin takes no row wider than its
// own widest (`*_widest`): that could cost the whole bin its ranked output (spgemm_hash.hpp).
inline bool bin_takes_rows_of(const SpgemmBin& to, std::int64_t to_widest, const SpgemmBin& from,
                              std::int64_t from_widest) {
  const bool near = from.path == SpgemmPath::merge ? to.lanes <= 4 * from.lanes
                                                   : to.slots >= from.slots && to.slots <= 4 * from.slots;
  const bool hash_takes = to.path == SpgemmPath::hash && from_widest <= to_widest;
  switch (from.path) {
    case SpgemmPath::merge:
    case SpgemmPath::sort: return to.path == from.path && near;
    case SpgemmPath::hash: return hash_takes && near;
    case SpgemmPath::tiny: return (to.path == SpgemmPath::tiny || hash_takes) && near;
    default: return false;
  }
}

// No sort bin joins for fitting the device (bin_launches' default).
struct NoSortWave {
  std::int64_t operator()(int) const { return 0; }
};

// The launches for a binned row list: a busy bin of at most `few` rows joins the next busy bin when that one can
// take its rows (bins are contiguous in the list, so the joined rows stay one slice), so that a few rows cost no
// launch of their own. A sort bin of any size also joins the next sort bin when both bins' rows fit what the device's
// threads hold of that bin's rows, `sort_wave_rows(its slots)`.
template <class Space, class SortWaveRows = NoSortWave>
std::vector<BinLaunch<Space>> bin_launches(const BinnedRows<Space>& binned, std::int64_t few,
                                           const SortWaveRows& sort_wave_rows = {}) {
  std::vector<BinLaunch<Space>> out;
  std::int64_t carried_from = -1, carried_widest = 0;  // the first row and widest row of bins joining the next
  for (std::size_t b = 0; b < binned.bins.size(); ++b) {
    RowSlice<Space> rows = binned.slice(b);
    if (rows.count == 0) continue;
    std::int64_t widest = binned.widest[b];
    if (carried_from >= 0) {
      rows.count += rows.begin - carried_from;
      rows.begin = carried_from;
      widest = std::max(widest, carried_widest);
      carried_from = -1;
    }
    std::size_t next = b + 1;
    while (next < binned.bins.size() && binned.slice(next).count == 0) ++next;
    if (next == binned.bins.size()) {
      out.push_back({b, rows, widest});
      continue;
    }
    const bool one_wave = binned.bins[b].path == SpgemmPath::sort && binned.bins[next].path == SpgemmPath::sort &&
                          rows.count + binned.slice(next).count <= sort_wave_rows(binned.bins[next].slots);
    if ((rows.count <= few || one_wave) &&
        bin_takes_rows_of(binned.bins[next], binned.widest[next], binned.bins[b], widest)) {
      carried_from = rows.begin;
      carried_widest = widest;
      continue;
    }
    out.push_back({b, rows, widest});
  }
  return out;
}

constexpr int bin_chunk = 1024;  // rows one team of bin_rows counts: 4 per thread, many teams on small matrices

// Scratch bytes bin_rows takes from its arena for `rows` rows and `bins` bins.
template <class Space>
std::int64_t bin_rows_scratch_bytes(std::int64_t rows, std::size_t bins) {
  const std::int64_t league = (rows + bin_chunk - 1) / bin_chunk, nb = static_cast<std::int64_t>(bins);
  return DeviceArena<Space>::template bytes_for<std::uint8_t>(rows) +
         DeviceArena<Space>::template bytes_for<std::int64_t>(3 * nb + 1) +
         DeviceArena<Space>::template bytes_for<int>(league * nb);
}

// Counting sort of rows 0 .. rows-1 by bin_of(row) on the device, with one host wait: both kernels are queued (the
// scatter finds each bin's start from the device counts), then one copy brings back the bin sizes, each bin's
// largest width_of(row) and the sum of weight_of(row) over all rows (into weight_sum). Host waits, not the kernels,
// are what a small matrix pays for (about 10 us each on the H200). A team counts a chunk of rows in scratch and
// touches each global counter once, so the few busy bins never see one atomic per row. Its temporaries come from
// `scratch`; the sorted list goes to `list_room` (room for `rows`).
template <class ExecSpace, class Space, class BinOf, class WeightOf, class WidthOf>
BinnedRows<Space> bin_rows(std::int64_t rows, std::vector<SpgemmBin> bins, const BinOf& bin_of,
                           const WeightOf& weight_of, const WidthOf& width_of, std::int64_t& weight_sum,
                           DeviceArena<Space>& scratch,
                           const Kokkos::View<int*, Space, Kokkos::MemoryUnmanaged>& list_room) {
  using policy_type = team_policy_for<ExecSpace>;
  using member_type = typename policy_type::member_type;
  using scratch_space = typename ExecSpace::scratch_memory_space;
  using count_scratch = Kokkos::View<int*, scratch_space, Kokkos::MemoryUnmanaged>;
  using base_scratch = Kokkos::View<std::int64_t*, scratch_space, Kokkos::MemoryUnmanaged>;
  using width_scratch = base_scratch;
  constexpr int chunk = bin_chunk;
  const int nb = static_cast<int>(bins.size());
  const int threads = is_host_space<ExecSpace>() ? 1 : 256;
  const int league = static_cast<int>((rows + chunk - 1) / chunk);
  const auto bin_id = scratch.template take<std::uint8_t>(rows);
  // counters(b): bin b's rows; counters(nb): the weight sum; counters(nb + 1 + b): bin b's rows placed so far;
  // counters(2 * nb + 1 + b): bin b's widest row.
  const auto counters = scratch.template take<std::int64_t>(3 * nb + 1);
  const Kokkos::View<int**, Space, Kokkos::MemoryUnmanaged> team_counts(
      scratch.template take<int>(std::int64_t(league) * nb).data(), league, nb);
  Kokkos::deep_copy(ExecSpace(), counters, std::int64_t{0});
  policy_type count_policy(league, threads, 1);
  count_policy.set_scratch_size(0, Kokkos::PerTeam(count_scratch::shmem_size(nb) + width_scratch::shmem_size(nb)));
  Kokkos::parallel_for(
      "spk::spgemm::bin_count", count_policy, KOKKOS_LAMBDA(const member_type& team) {
        count_scratch local(team.team_scratch(0), nb);
        width_scratch widest(team.team_scratch(0), nb);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nb), [&](const int b) {
          local(b) = 0;
          widest(b) = 0;
        });
        team.team_barrier();
        const std::int64_t first = static_cast<std::int64_t>(team.league_rank()) * chunk;
        const int n = static_cast<int>(rows - first < chunk ? rows - first : chunk);
        std::int64_t weight = 0;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, n),
            [&](const int i, std::int64_t& w) {
              const int b = bin_of(first + i);
              bin_id(first + i) = static_cast<std::uint8_t>(b);
              if (b) {
                Kokkos::atomic_add(&local(b), 1);
                const std::int64_t width = width_of(first + i);
                if (width > widest(b)) Kokkos::atomic_fetch_max(&widest(b), width);
              }
              w += weight_of(first + i);
            },
            weight);
        team.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nb), [&](const int b) {
          team_counts(team.league_rank(), b) = local(b);
          if (local(b)) Kokkos::atomic_add(&counters(b), static_cast<std::int64_t>(local(b)));
          if (widest(b)) Kokkos::atomic_fetch_max(&counters(2 * nb + 1 + b), widest(b));
        });
        Kokkos::single(Kokkos::PerTeam(team), [&]() {
          if (weight) Kokkos::atomic_add(&counters(nb), weight);
        });
      });
  const auto list = list_room;
  policy_type scatter_policy(league, threads, 1);
  scatter_policy.set_scratch_size(0, Kokkos::PerTeam(base_scratch::shmem_size(nb) + count_scratch::shmem_size(nb)));
  Kokkos::parallel_for(
      "spk::spgemm::bin_scatter", scatter_policy, KOKKOS_LAMBDA(const member_type& team) {
        base_scratch base(team.team_scratch(0), nb);
        count_scratch next(team.team_scratch(0), nb);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nb), [&](const int b) {
          const int mine = team_counts(team.league_rank(), b);  // this team's rows per bin, from bin_count
          std::int64_t start = 0;  // bin b's first place: the rows of bins 1 .. b-1 (bin 0 is not listed)
          for (int e = 1; e < b; ++e) start += counters(e);
          base(b) = mine ? start + Kokkos::atomic_fetch_add(&counters(nb + 1 + b), static_cast<std::int64_t>(mine))
                         : 0;
          next(b) = 0;
        });
        team.team_barrier();
        const std::int64_t first = static_cast<std::int64_t>(team.league_rank()) * chunk;
        const int n = static_cast<int>(rows - first < chunk ? rows - first : chunk);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const int i) {
          if (const int b = bin_id(first + i))
            list(base(b) + Kokkos::atomic_fetch_add(&next(b), 1)) = static_cast<int>(first + i);
        });
      });
  const auto counts = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), counters);
  BinnedRows<Space> out;
  out.bins = std::move(bins);
  out.begin.assign(static_cast<std::size_t>(nb) + 1, 0);
  for (int b = 1; b < nb; ++b) out.begin[b + 1] = out.begin[b] + counts(b);
  weight_sum = counts(nb);
  out.widest.assign(static_cast<std::size_t>(nb), 0);
  for (int b = 0; b < nb; ++b) out.widest[b] = counts(2 * nb + 1 + b);
  out.rows = Kokkos::subview(list_room, std::make_pair(std::int64_t{0}, out.begin[nb]));
  return out;
}

}  // namespace spk::impl
