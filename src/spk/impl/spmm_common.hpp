#pragma once
// What the SpMM kernels share. A vector lane owns CPL output columns of a row and keeps their sums in registers
// until one final store. With row-major B the lane's columns are consecutive, c0 + lane * CPL + j, so one lane
// reads them with one 8- or 16-byte load when B is aligned (float4 / double2 on GPUs: a warp moves a 128-byte row
// slice per instruction); otherwise they are strided, c0 + lane + j * lanes, so consecutive lanes read consecutive
// columns. The row's column indices and values come from scratch, where the team staged them with coalesced loads.
#include <cstdint>
#include <type_traits>
#include <utility>

#include "../error.hpp"
#include "../execution.hpp"
#include "host_simd.hpp"
#include "lane_groups.hpp"
#include "spmv_common.hpp"

namespace spk::impl {

template <class Matrix>
struct SpmmTypes : SpmvTypes<Matrix> {
  using ordinal = typename Matrix::ordinal_type;
  using ordinal_scratch =
      Kokkos::View<ordinal*, typename SpmvTypes<Matrix>::exec::scratch_memory_space, Kokkos::MemoryUnmanaged>;
};

// is_host_space as a constant that device code may read (nvcc refuses calls to host constexpr functions there).
template <class ExecSpace>
struct HostSpaceFlag {
  static constexpr bool value = is_host_space<ExecSpace>();
};

// The columns-per-lane values compiled for each kernel (the selector picks one). GPUs use few with many lanes;
// host back-ends have one lane, so wide register tiles that the compiler vectorises: 16 columns are 64 bytes of
// fp32, one cache line per nonzero; 32 spill the 16 SSE registers (3x slower on lap2d).
template <class ExecSpace>
constexpr bool spmm_columns_per_lane_compiled(int cpl) {
  if constexpr (is_host_space<ExecSpace>())
    return cpl == 1 || cpl == 8 || cpl == 16;
  else
    return cpl == 1 || cpl == 2 || cpl == 4 || cpl == 8;
}

template <class ExecSpace, class F>
void with_columns_per_lane(int cpl, F&& f) {
  const auto call = [&](auto c) {
    if constexpr (spmm_columns_per_lane_compiled<ExecSpace>(decltype(c)::value)) f(c);
  };
  switch (cpl) {
    case 1: call(std::integral_constant<int, 1>{}); break;
    case 2: call(std::integral_constant<int, 2>{}); break;
    case 4: call(std::integral_constant<int, 4>{}); break;
    case 8: call(std::integral_constant<int, 8>{}); break;
    case 16: call(std::integral_constant<int, 16>{}); break;
    default: break;
  }
}

// Which columns a lane owns: first, first + step, ... (CPL of them). Host back-ends have one lane.
struct LaneColumns {
  int first, step;
};

template <class ExecSpace, int CPL, class BView>
KOKKOS_INLINE_FUNCTION LaneColumns lane_columns(int c0, int lane, int lanes) {
  constexpr bool row_major = std::is_same_v<typename BView::array_layout, Kokkos::LayoutRight>;
  if constexpr (row_major || HostSpaceFlag<ExecSpace>::value) {
    (void)lanes;
    return {c0 + lane * CPL, 1};
  } else {
    return {c0 + lane, lanes};
  }
}

// Row-major B on GPUs: a lane's CPL consecutive columns are read with aligned 8- or 16-byte loads (load_packed),
// decided at compile time so the gather loop carries no scalar fallback. The launchers run a B whose data or row
// stride is not aligned to that width with one column per lane instead (spmm_columns_per_lane).
template <class ExecSpace, class BView>
KOKKOS_INLINE_FUNCTION constexpr bool spmm_row_major_on_device() {
  return !is_host_space<ExecSpace>() && std::is_same_v<typename BView::array_layout, Kokkos::LayoutRight>;
}
template <class ExecSpace, int CPL, class BView>
KOKKOS_INLINE_FUNCTION constexpr bool spmm_packed_loads() {
  return spmm_row_major_on_device<ExecSpace, BView>() && CPL > 1;
}

// The columns per lane a launch runs: the shape's, or 1 when packed loads need an alignment B lacks.
template <class ExecSpace, class BView>
int spmm_columns_per_lane(const BView& B, int cpl) {
  using S = typename BView::non_const_value_type;
  if (!spmm_row_major_on_device<ExecSpace, BView>() || cpl <= 1) return cpl;
  const std::size_t bytes = cpl * sizeof(S) < 16 ? cpl * sizeof(S) : 16;
  const bool aligned =
      reinterpret_cast<std::uintptr_t>(B.data()) % bytes == 0 && (B.stride(0) * sizeof(S)) % bytes == 0;
  return aligned ? cpl : 1;
}

// x[j] = p[j] for j < N with loads of up to 16 bytes; p must be aligned to min(16, N * sizeof(S)).
template <int N, class S>
KOKKOS_INLINE_FUNCTION void load_packed(const S* p, S (&x)[N]) {
  constexpr int bytes = N * sizeof(S) < 16 ? static_cast<int>(N * sizeof(S)) : 16;
  constexpr int per = bytes / static_cast<int>(sizeof(S));
  struct alignas(bytes) Pack {
    S v[per];
  };
  for (int q = 0; q < N; q += per) {
    const Pack pk = *reinterpret_cast<const Pack*>(p + q);
    for (int i = 0; i < per; ++i) x[q + i] = pk.v[i];
  }
}

// Nonzeros whose B loads a lane keeps in flight at once: U nonzeros x CPL columns, about 128 bytes, so the gathers of
// a row overlap instead of queueing one latency after another. The sums then take the U gathers last to first: the
// chain of adds starts with the last load, so every load is issued before the first add. Taken first to first, ptxas
// placed each add right behind its own load to save registers and kept one or two loads in flight (Cornell5 fp64,
// k = 32: 56 registers, 24 cycles between a warp's issues instead of 10, the call 9% slower).
template <class Scalar, int CPL>
KOKKOS_INLINE_FUNCTION constexpr int spmm_gathers_in_flight() {
  constexpr int n = (sizeof(Scalar) <= 4 ? 32 : 16) / CPL;
  return n < 2 ? 2 : (n > 16 ? 16 : n);
}

// A lane's columns of B's row c, B(c, lc.first + j * lc.step), as the lane's base pointer plus c times B's row
// stride rather than the View's operator(), which recomputes the full 64-bit index per gather: 9% faster on pushpull
// (k = 32, fp32, H200 A/B in perf/results/h200-cuda.md). The row offset is in bytes, an unsigned 32-bit index times a
// 32-bit stride (spmm() checks that B's row stride fits), so a GPU forms the address in one wide multiply-add.
template <class BView>
struct LaneRows {
  using pointer = decltype(std::declval<BView>().data());
  using byte = std::conditional_t<std::is_const_v<std::remove_pointer_t<pointer>>, const char, char>;
  pointer base;
  std::uint32_t row_bytes;
  std::int64_t column_step;

  KOKKOS_INLINE_FUNCTION LaneRows(const BView& B, LaneColumns lc)
      : base(B.data() + static_cast<std::int64_t>(lc.first) * B.stride(1)),
        row_bytes(static_cast<std::uint32_t>(B.stride(0) * sizeof(typename BView::non_const_value_type))),
        column_step(static_cast<std::int64_t>(lc.step) * B.stride(1)) {}

  template <class Ordinal>
  KOKKOS_INLINE_FUNCTION pointer row(Ordinal c) const {
    std::uint64_t offset;
    if constexpr (sizeof(Ordinal) <= sizeof(std::uint32_t))
      offset = static_cast<std::uint64_t>(static_cast<std::uint32_t>(c)) * row_bytes;
    else
      offset = static_cast<std::uint64_t>(c) * row_bytes;
    return reinterpret_cast<pointer>(reinterpret_cast<byte*>(base) + offset);
  }
  // x = the lane's CPL columns of row c, every one of which exists; Packed: spmm_packed_loads.
  template <int CPL, bool Packed, class Ordinal, class Scalar>
  KOKKOS_INLINE_FUNCTION void load(Ordinal c, Scalar (&x)[CPL]) const {
    const auto* r = row(c);
    if constexpr (Packed)
      load_packed<CPL>(r, x);
    else
      for (int j = 0; j < CPL; ++j) x[j] = r[j * column_step];
  }
};

// A nonzero step known at compile time (std::integral_constant converts to int on the host only, for nvcc).
template <int N>
struct FixedStep {
  KOKKOS_INLINE_FUNCTION constexpr operator int() const { return N; }
};
using UnitStep = FixedStep<1>;

// acc[j] += sum over p = b, b + step, ... < e of vals(p) * B(cols(p), lc.first + j * lc.step). cols/vals are staged
// scratch or the matrix's own arrays (long rows). step > 1: the lane is in one of `step` lane groups sharing the row
// (lane_groups.hpp). Unroll: nonzeros in flight per lane (0: spmm_gathers_in_flight).
template <int CPL, class ExecSpace, int Unroll = 0, class Scalar, class Cols, class Vals, class Index, class BView,
          class Step = int>
KOKKOS_INLINE_FUNCTION void accumulate_lane(Scalar (&sums)[CPL], const Cols& cols, const Vals& vals, Index b, Index e,
                                            const BView& B, LaneColumns lc, int k, Step step = 1) {
  // A local copy: the caller's array might alias B as far as the compiler knows, which would make every update a
  // store and a reload (1.4x slower on the CPU, before vectorisation).
  Scalar acc[CPL];
  for (int j = 0; j < CPL; ++j) acc[j] = sums[j];
  if constexpr (HostSpaceFlag<ExecSpace>::value) {
    // A CPU hides the gather latency itself: the plain loop, which the compiler vectorises across the lane's
    // consecutive columns (lane_columns gives a host lane a step of 1).
    const int first_col = lc.first;
    if (first_col + CPL - 1 < k) {
      for (Index p = b; p < e; p += step) {
        const auto c = cols(p);
        const Scalar v = vals(p);
        for (int j = 0; j < CPL; ++j) acc[j] += v * B(c, first_col + j);
      }
      for (int j = 0; j < CPL; ++j) sums[j] = acc[j];
      return;
    }
  }
  // U nonzeros' loads in flight per lane. The last block is masked rather than finished one by one, so a short row
  // (the common case: 5-50 nonzeros) issues all of its loads before its first use. A gather costs a warp about 15
  // instructions (Cornell5's SASS; 19 while packed loads were a runtime choice with a scalar fallback).
  constexpr int U = Unroll > 0 ? Unroll : spmm_gathers_in_flight<Scalar, CPL>();
  constexpr bool packed = spmm_packed_loads<ExecSpace, CPL, BView>();
  const int first_col = lc.first, stride = lc.step;
  const LaneRows<BView> lane_rows(B, lc);
  const auto gather = [&](Index p, Scalar& v, Scalar(&x)[CPL]) {
    v = vals(p);
    lane_rows.template load<CPL, packed>(cols(p), x);
  };
  // s: the nonzero step, a compile-time 1 without lane groups, so that loop stays what it was before them.
  const auto every_column = [&](auto s) {
    for (Index p = b; p < e; p += U * s) {
      Scalar v[U], x[U][CPL];
      for (int u = 0; u < U; ++u) {
        if (p + u * s < e) {
          gather(p + u * s, v[u], x[u]);
        } else {
          v[u] = Scalar(0);
          for (int j = 0; j < CPL; ++j) x[u][j] = Scalar(0);
        }
      }
      for (int u = U - 1; u >= 0; --u)  // the last gather first (spmm_gathers_in_flight)
        for (int j = 0; j < CPL; ++j) acc[j] += v[u] * x[u][j];
    }
  };
  if (first_col + (CPL - 1) * stride < k) {  // every column of the lane exists
    if (step == 1)
      every_column(UnitStep{});
    else
      every_column(step);
  } else {
    for (Index p = b; p < e; p += step) {
      const auto c = cols(p);
      const Scalar v = vals(p);
      for (int j = 0; j < CPL; ++j)
        if (first_col + j * stride < k) acc[j] += v * B(c, first_col + j * stride);
    }
  }
  for (int j = 0; j < CPL; ++j) sums[j] = acc[j];
}

// acc[j] = the sum over nonzeros [b, e) of the row for the lane's columns: the lane's group takes every groups-th
// nonzero from its own on, then the groups' sums are added (lane_groups.hpp), so group 0's lanes hold the row's
// sums. Every lane of the vector must call it.
template <int CPL, class ExecSpace, class Scalar, class Cols, class Vals, class Index, class BView>
KOKKOS_INLINE_FUNCTION void accumulate_row(Scalar (&acc)[CPL], const Cols& cols, const Vals& vals, Index b, Index e,
                                           const BView& B, LaneColumns lc, int k, const LaneGroup& g) {
  accumulate_lane<CPL, ExecSpace>(acc, cols, vals, b + g.group, e, B, lc, k, g.groups);
  if (g.groups > 1)
    for (int j = 0; j < CPL; ++j) acc[j] = sum_over_lane_groups(acc[j], g.slots, g.lanes);
}

// A host thread's pass over one row's nonzeros [b, e) for C's columns [c_begin, c_end), a strip of CPL columns at
// a time (a host team has one lane), compiled for Isa (host_simd.hpp): whole vectors of B's row where the strip
// allows, else accumulate_lane's loop. finish(acc, lc) takes each strip's sums.
template <int CPL, class ExecSpace, class Isa, class Cols, class Vals, class Index, class BView, class Finish>
KOKKOS_INLINE_FUNCTION void host_row_strips(Isa, const Cols& cols, const Vals& vals, Index b, Index e, const BView& B,
                                            int c_begin, int c_end, const Finish& finish) {
  using Scalar = typename Vals::non_const_value_type;
  const int k = static_cast<int>(B.extent(1));
  for (int c0 = c_begin; c0 < c_end; c0 += CPL) {
    const LaneColumns lc = lane_columns<ExecSpace, CPL, BView>(c0, 0, 1);
    Scalar acc[CPL] = {};
    if constexpr (host_vectors_fit<Isa, Scalar, CPL, BView>()) {
      if (c0 + CPL - 1 < k)
        accumulate_host_vectors<Isa>(acc, cols, vals, b, e, B, c0);
      else
        accumulate_lane<CPL, ExecSpace>(acc, cols, vals, b, e, B, lc, k);
    } else {
      accumulate_lane<CPL, ExecSpace>(acc, cols, vals, b, e, B, lc, k);
    }
    finish(acc, lc);
  }
}

// C(row, c) = alpha * sum + beta * C(row, c), never reading C when beta == 0 (BLAS semantics: C may hold NaN then).
template <class Scalar, class CView>
KOKKOS_INLINE_FUNCTION void spmm_store(const CView& C, std::int64_t row, int c, Scalar alpha, Scalar sum, Scalar beta) {
  C(row, c) = beta == Scalar(0) ? alpha * sum : alpha * sum + beta * C(row, c);
}

// C(row, ...) = alpha * acc + beta * C(row, ...) for the lane's columns; beta == 0 never reads C (BLAS semantics).
template <int CPL, class Scalar, class CView>
KOKKOS_INLINE_FUNCTION void store_lane(const CView& C, std::int64_t row, const Scalar (&acc)[CPL], LaneColumns lc,
                                       int k, Scalar alpha, Scalar beta) {
  if (lc.first + (CPL - 1) * lc.step < k) {  // every column exists: no test per column, so the stores vectorise
    if (beta == Scalar(0)) {
      for (int j = 0; j < CPL; ++j) C(row, lc.first + j * lc.step) = alpha * acc[j];
    } else {
      for (int j = 0; j < CPL; ++j) {
        const int c = lc.first + j * lc.step;
        C(row, c) = alpha * acc[j] + beta * C(row, c);
      }
    }
    return;
  }
  for (int j = 0; j < CPL; ++j) {
    const int c = lc.first + j * lc.step;
    if (c < k) spmm_store(C, row, c, alpha, acc[j], beta);
  }
}

template <class Member, class Cols, class Vals, class Entries, class Values, class Offset>
KOKKOS_INLINE_FUNCTION void stage_nonzeros(const Member& team, const Cols& cols, const Vals& vals,
                                           const Entries& entries, const Values& values, Offset base, int n) {
  Kokkos::parallel_for(Kokkos::TeamVectorRange(team, n), [&](const int i) {
    cols(i) = entries(base + i);
    vals(i) = values(base + i);
  });
}

// A row too long to stage, by the whole team (team-per-long-row): thread i of the team accumulates the i-th
// contiguous piece of nonzeros [begin, end) straight from global memory (its lane groups striding it), leaves its
// partial tile in `partials` (team_size x lanes*CPL scratch), and the team adds the partials in thread order
// (deterministic), column tile by column tile over [c_begin, c_end). 2^slot_bits lanes per group (lane_groups.hpp).
template <int CPL, class ExecSpace, class Member, class Partials, class Entries, class Values, class Offset,
          class BView, class CView, class Scalar>
KOKKOS_INLINE_FUNCTION void team_long_row(const Member& team, const Partials& partials, const Entries& entries,
                                          const Values& values, Offset begin, Offset end, const BView& B,
                                          const CView& C, std::int64_t row, int c_begin, int c_end, int lanes,
                                          int slot_bits, Scalar alpha, Scalar beta) {
  const int threads = team.team_size(), width = CPL << slot_bits;
  const int k = static_cast<int>(B.extent(1));
  const std::int64_t n = end - begin;
  for (int c0 = c_begin; c0 < c_end; c0 += width) {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, threads), [&](const int i) {
      const Offset b = begin + static_cast<Offset>(n * i / threads);
      const Offset e = begin + static_cast<Offset>(n * (i + 1) / threads);
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, lanes), [&](const int lane) {
        const LaneGroup g = lane_group(lane, lanes, slot_bits);
        const LaneColumns lc = lane_columns<ExecSpace, CPL, BView>(c0, g.slot, g.slots);
        Scalar acc[CPL] = {};
        accumulate_row<CPL, ExecSpace>(acc, entries, values, b, e, B, lc, k, g);
        if (g.group == 0)
          for (int j = 0; j < CPL; ++j) partials(i * width + lc.first - c0 + j * lc.step) = acc[j];
      });
    });
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamVectorRange(team, width), [&](const int q) {
      if (c0 + q < k) {
        Scalar sum = 0;
        for (int i = 0; i < threads; ++i) sum += partials(i * width + q);
        spmm_store(C, row, c0 + q, alpha, sum, beta);
      }
    });
    team.team_barrier();
  }
}

}  // namespace spk::impl
