#pragma once
// SpMV reads a column index per nonzero: 4 of the 8 bytes a nonzero costs in fp32, 4 of 12 in fp64. Where a matrix's
// nonzeros come in runs of 256 whose columns all lie within 65,536 of each other (stencils, banded and narrow
// matrices: lap2d, st3d27, any matrix of at most 65,536 columns), the plan keeps a packed copy of the pattern: per
// run the smallest column (`bases`, 4 bytes per 256 nonzeros) and per nonzero its 16-bit distance from it
// (`offsets`), so the kernels stream 2 bytes of index per nonzero instead of 4 (index compression after Willcock and
// Lumsdaine, "Accelerating sparse matrix computations via data compression", ICS'06). A run's base is shared by all
// its lanes, so its load hits L1; any nonzero decodes alone, which keeps every kernel's loads independent.
//
// The kernels take a column reader: ColumnsInPlace reads A's own indices, PackedColumns the packed copy. Each has
// streamed(j) (evict-first, for kernels that stream A once) and plain(j) (thread-row's plain loads, see
// cache_hints.hpp).
#include <algorithm>
#include <cstdint>

#include <Kokkos_Core.hpp>

#include "../error.hpp"
#include "cache_hints.hpp"
#include "device_array.hpp"
#include "device_memory.hpp"

namespace spk::impl {

inline constexpr int packed_run_shift = 8;                        // runs of 256 nonzeros
inline constexpr std::int64_t packed_run = std::int64_t{1} << packed_run_shift;
inline constexpr std::int64_t packed_span_max = 65535;            // what a 16-bit offset holds

template <class Entries>
struct ColumnsInPlace {
  using ordinal = typename Entries::non_const_value_type;
  Entries entries;
  template <class Offset>
  KOKKOS_FORCEINLINE_FUNCTION ordinal streamed(Offset j) const { return load_once(entries(j)); }
  template <class Offset>
  KOKKOS_FORCEINLINE_FUNCTION ordinal plain(Offset j) const { return entries(j); }
};

template <class Entries>
ColumnsInPlace<DeviceArray<const typename Entries::non_const_value_type>> columns_in_place(const Entries& entries) {
  return {entries};
}

template <class Device, class Ordinal>
struct PackedColumns {
  using ordinal = Ordinal;
  using unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
  // One allocation holds both arrays (bases first, so both stay aligned): a large cudaMalloc costs the plan time in
  // proportion to its size, and a second one its fixed cost again.
  Kokkos::View<Ordinal*, Device> storage;
  Kokkos::View<Ordinal*, Device, unmanaged> bases;          // smallest column of each run of packed_run nonzeros
  Kokkos::View<std::uint16_t*, Device, unmanaged> offsets;  // column - bases(j >> packed_run_shift), per nonzero j
  bool packed = false;                                      // false: the matrix did not fit (or was not packed)

  template <class Offset>
  KOKKOS_FORCEINLINE_FUNCTION Ordinal streamed(Offset j) const {
    return static_cast<Ordinal>(load_reused(bases(j >> packed_run_shift)) + load_once(offsets(j)));
  }
  template <class Offset>
  KOKKOS_FORCEINLINE_FUNCTION Ordinal plain(Offset j) const {
    return static_cast<Ordinal>(bases(j >> packed_run_shift) + offsets(j));
  }
};

template <class Columns>
inline constexpr bool is_packed_columns = false;
template <class Device, class Ordinal>
inline constexpr bool is_packed_columns<PackedColumns<Device, Ordinal>> = true;

// Packs A's column indices when every run of packed_run nonzeros spans at most packed_span_max columns: one pass
// (a vector of lanes per run finds its smallest and largest column in one reduction and writes the offsets) and one
// host wait for the widest span. Returns an unpacked result when a run is wider; with `must_fit`, throws naming that
// run instead.
template <class Matrix>
PackedColumns<typename Matrix::device_type, typename Matrix::ordinal_type> pack_columns(const Matrix& A,
                                                                                        bool must_fit) {
  using exec = typename Matrix::execution_space;
  using Ordinal = typename Matrix::ordinal_type;
  using policy_type = Kokkos::TeamPolicy<exec>;
  using member = typename policy_type::member_type;
  PackedColumns<typename Matrix::device_type, Ordinal> pc;
  const std::int64_t nnz = A.nnz();
  if (nnz == 0) return pc;
  const std::int64_t runs = (nnz + packed_run - 1) / packed_run;
  const std::int64_t offset_words = (nnz * 2 + sizeof(Ordinal) - 1) / sizeof(Ordinal);
  pc.storage = decltype(pc.storage)(uninitialized<exec>("spk::packed_columns"), runs + offset_words);
  pc.bases = decltype(pc.bases)(pc.storage.data(), runs);
  pc.offsets = decltype(pc.offsets)(reinterpret_cast<std::uint16_t*>(pc.storage.data() + runs), nnz);
  // A vector of `lanes` per run, lane v taking nonzeros v, v + lanes, ...: a fixed count per lane, so its loads are
  // independent and can all be in flight at once; each vector takes runs_per_vector consecutive runs, so a team's
  // reduction of the widest span is paid once per 64 runs: 140-147 us for band 8M x 5 on an H100 under ncu, 48-50%
  // of DRAM bandwidth (one run per vector, a team per 8 runs: 339 us, 20%; a loop over the run's length: 383 us).
  constexpr bool host = Kokkos::SpaceAccessibility<exec, Kokkos::HostSpace>::accessible;
  constexpr int lanes = host ? 1 : 32, threads = host ? 1 : 8, per_lane = static_cast<int>(packed_run) / lanes;
  constexpr std::int64_t runs_per_vector = host ? 64 : 8, runs_per_team = runs_per_vector * threads;
  const auto entries = A.entries();
  const auto offsets = pc.offsets;
  const auto bases = pc.bases;
  // The widest run's span and, to name it, its index (the first of the widest): max over span * runs + (runs - 1 - r).
  std::int64_t widest = 0;
  Kokkos::parallel_reduce(
      "spk::pack_columns",
      policy_type(static_cast<int>((runs + runs_per_team - 1) / runs_per_team), threads, lanes),
      KOKKOS_LAMBDA(const member& team, std::int64_t& most) {
        const std::int64_t first = team.league_rank() * runs_per_team + team.team_rank() * runs_per_vector;
        const std::int64_t last = first + runs_per_vector < runs ? first + runs_per_vector : runs;
        for (std::int64_t r = first; r < last; ++r) {
          const std::int64_t begin = r * packed_run;
          const int n = static_cast<int>(nnz - begin < packed_run ? nnz - begin : packed_run);
          Kokkos::MinMaxScalar<Ordinal> range;  // one reduction for both ends of the run's columns
          Kokkos::parallel_reduce(
              Kokkos::ThreadVectorRange(team, lanes),
              [&](const int v, Kokkos::MinMaxScalar<Ordinal>& m) {
                Ordinal c[per_lane];
                for (int k = 0; k < per_lane; ++k) {  // past the run's end: its first column, which changes nothing
                  const int i = v + k * lanes;
                  c[k] = entries(begin + (i < n ? i : 0));
                }
                for (int k = 0; k < per_lane; ++k) {
                  m.min_val = c[k] < m.min_val ? c[k] : m.min_val;
                  m.max_val = c[k] > m.max_val ? c[k] : m.max_val;
                }
              },
              Kokkos::MinMax<Ordinal>(range));
          const Ordinal lo = range.min_val, hi = range.max_val;
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, lanes), [&](const int v) {
            for (int k = 0; k < per_lane; ++k) {  // the same lane's nonzeros again: in its cache
              const int i = v + k * lanes;
              if (i < n) offsets(begin + i) = static_cast<std::uint16_t>(entries(begin + i) - lo);
            }
          });
          Kokkos::single(Kokkos::PerThread(team), [&]() {
            bases(r) = lo;
            const std::int64_t cap = std::int64_t{1} << 30, span = static_cast<std::int64_t>(hi) - lo;
            const std::int64_t key = (span < cap ? span : cap) * runs + (runs - 1 - r);  // capped: cannot overflow
            most = key > most ? key : most;
          });
        }
      },
      Kokkos::Max<std::int64_t>(widest));
  const std::int64_t span = widest / runs, run = runs - 1 - widest % runs;
  if (span <= packed_span_max) {
    pc.packed = true;
    return pc;
  }
  if (must_fit)
    throw invalid_argument(detail::concat("spk::make_spmv_plan: 16-bit packed columns need every run of ", packed_run,
                                          " nonzeros to span at most ", packed_span_max, " columns; nonzeros ",
                                          run * packed_run, " to ", std::min(nnz, (run + 1) * packed_run) - 1,
                                          " span ", span));
  return {};
}

}  // namespace spk::impl
