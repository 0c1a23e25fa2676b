#pragma once
// The dot product of one CSR row with x in the host row loops (thread-row, vector-row and long-row-split on host
// back-ends, one lane per row). Under AVX2 (host_simd.hpp's dispatch; AVX-512 CPUs take it too) it reads x four
// doubles or eight floats at a time into two vector accumulators: a row's vectors are then independent of each
// other, where the scalar loop chains every product through one running sum. On a 2-core AMD EPYC (Zen 4) a
// stand-alone loop over a 1M x 16 random matrix took 6.0 ms against 12.5 (fp64) and 7.8 against 9.5 (fp32) with
// AVX2's gather instructions; AVX-512 gathers (eight doubles) were slower than AVX2's there, so AVX-512 CPUs run the
// AVX2 version. A vector of x is filled either by those gather instructions or by one scalar load per element
// (HostGather below): the same elements in the same lanes, so a row both forms vector gets the same bits.
// Sums are formed in a fixed order per instruction set and form: deterministic, but not the scalar loop's order.
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>

#include <Kokkos_Core.hpp>

#include "../execution.hpp"
#include "host_simd.hpp"
#include "packed_columns.hpp"

#if SPK_HOST_ISA_DISPATCH
#include <immintrin.h>
#endif

namespace spk::impl {

template <class Columns>
struct ReadsColumnsInPlace : std::false_type {};
template <class Entries>
struct ReadsColumnsInPlace<ColumnsInPlace<Entries>> : std::true_type {};

// Whether the row loops may address x as x.data() plus a column (a View, or host_rows_by_value's pointer; not grouped
// columns' GroupedX, which reads two arrays).
template <class XView>
struct XIsArray : std::bool_constant<Kokkos::is_view<XView>::value> {};
template <class T>
struct XIsArray<DeviceArray<T>> : std::true_type {};
template <class XView>
constexpr bool x_is_array() {
  return XIsArray<XView>::value;
}

// Whether row_dot can gather: a host compiler with the dispatch, fp32 or fp64 values, 32-bit column indices.
template <class Scalar, class Columns>
constexpr bool row_dot_gathers() {
  return SPK_HOST_ISA_DISPATCH && (std::is_same_v<Scalar, float> || std::is_same_v<Scalar, double>) &&
         std::is_same_v<std::remove_cv_t<typename Columns::ordinal>, std::int32_t>;
}

// Which rows gather. The scalar loop waits on its running sum or on x's cache misses, so gathers pay where a row is
// long (a long chain of adds: ogbl_ddi, 500 a row, 1.2-1.4x) or its columns lie far apart (x read from beyond the
// L2: uniform 1M x 16 fp64, 1.6x). A short row over nearby columns is neither, and there the scalar loop's plain
// loads beat the gathers (st3d27 64, 27 a row within 8,322 columns: 0.66x in fp32 when every row gathered). Rows
// under row_dot_short nonzeros never vector: they would be mostly gather_dot's scalar tail (one vector is 8 floats).
// By loads, only long rows vector: a far row's loads are the scalar loop's own, and the vector form only adds the
// inserts (rmat 18 16 on the Zen 3: 0.65-0.90x of Kokkos Kernels when its far rows vectored by loads, 0.94-1.05x
// when they did not).
inline constexpr std::int64_t row_dot_short = 8;                        // nonzeros
inline constexpr std::int64_t row_dot_long_row = 128;                   // nonzeros
inline constexpr std::int64_t row_dot_far_bytes = std::int64_t{1} << 19;  // span of x a row reads: half a Zen 4 L2
inline constexpr int row_dot_ahead = 64;  // nonzeros: how far rows read x ahead (row_dot's Ahead, below)
inline constexpr std::int64_t row_dot_split = 8;  // nonzeros: from here rows sum in four (split_dot, below)

// How a host row loop reads x: one element at a time (`none`), or a vector at a time, filled by AVX2's gather
// instructions (`hardware`) or by one scalar load per element (`loads`). On Zen 3 (2-core AMD EPYC, no AVX-512),
// where gathers are microcoded, the loads ran ogbl_ddi 1.4-1.6x (fp32) and 1.0-1.4x (fp64) faster than the gather
// instructions in a stand-alone two-thread loop, and Cornell5 1.0-1.2x. CPUs with AVX-512 (the Zen 4 and Xeon the
// gathers were measured on) keep the instructions; SPK_HOST_GATHER=hardware|loads overrides (A/B runs).
enum class HostGather : int { none = 0, hardware = 1, loads = 2 };

// Whether a row of n nonzeros may take vectors in this form: the rule above, short of the far-span test, which needs
// the row's columns (row_dot applies it; host_row_gathers asks it of A's longest row).
KOKKOS_INLINE_FUNCTION constexpr bool row_may_vector(HostGather form, std::int64_t n) {
  return form != HostGather::none && n >= row_dot_short && (n >= row_dot_long_row || form == HostGather::hardware);
}

inline HostGather detect_host_gather() {
  const char* form = std::getenv("SPK_HOST_GATHER");
  if (form != nullptr && std::strcmp(form, "hardware") == 0) return HostGather::hardware;
  if (form != nullptr && std::strcmp(form, "loads") == 0) return HostGather::loads;
#if SPK_HOST_ISA_DISPATCH
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return HostGather::hardware;
#endif
  return HostGather::loads;
}

inline const char* to_string(HostGather form) {
  if (form == HostGather::hardware) return "gather instructions";
  return form == HostGather::loads ? "scalar loads" : "no vectors";
}

// -1: the detected form; otherwise hardware or loads, which the tests set to run both in one process.
inline std::atomic<int>& host_gather_choice() {
  static std::atomic<int> choice{-1};
  return choice;
}

// The vector form this process's row loops use where they vector (host_isa() permitting).
inline HostGather host_gather_form() {
  static const HostGather detected = detect_host_gather();
  const int choice = host_gather_choice().load(std::memory_order_relaxed);
  return choice > 0 ? static_cast<HostGather>(choice) : detected;
}

// How the host row loops of kernels on ExecSpace read x, given A's longest row: in vectors (host_gather_form) on a
// host space on a CPU with AVX2 (AVX-512 CPUs included) where x is a contiguous View (the vectors address x.data()
// plus a column; grouped columns' GroupedX reads two arrays) and some row may take them (row_dot's rule), else one
// element at a time. Decided once per launch; the kernels pass it to row_dot (through host_row_loop).
template <class ExecSpace, class XView>
HostGather host_row_gathers(const XView& x, std::int64_t longest_row) {
  if constexpr (is_host_space<ExecSpace>() && Kokkos::is_view<XView>::value) {
    if (host_isa() == HostIsa::baseline || !x.span_is_contiguous() || x.stride(0) != 1) return HostGather::none;
    const HostGather form = host_gather_form();
    return row_may_vector(form, longest_row) ? form : HostGather::none;
  }
  return HostGather::none;
}

#if SPK_HOST_ISA_DISPATCH
// Columns k .. k + 3 (k + 7) as a vector of ints: one load from A's own indices (straight into the register: going
// through a small array made each 32-byte load wait on two 16-byte stores, and fp32 rows ran at half speed), else
// decoded one by one (packed columns): the same x entries in the same order, so packed and unpacked plans still
// agree bit for bit.
template <class Columns, class Offset>
__attribute__((target("avx2,fma"))) inline __m128i columns4(const Columns& columns, Offset k) {
  if constexpr (ReadsColumnsInPlace<Columns>::value) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(&columns.entries(k)));
  } else {
    return _mm_setr_epi32(columns.plain(k), columns.plain(k + 1), columns.plain(k + 2), columns.plain(k + 3));
  }
}
template <class Columns, class Offset>
__attribute__((target("avx2,fma"))) inline __m256i columns8(const Columns& columns, Offset k) {
  if constexpr (ReadsColumnsInPlace<Columns>::value) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&columns.entries(k)));
  } else {
    return _mm256_set_m128i(columns4(columns, k + 4), columns4(columns, k));
  }
}

// What gather_dot needs of AVX2 per value type: a vector of W lanes, its load, gathers (instructions or loads),
// fused multiply-add and sum.
#define SPK_AVX2 __attribute__((target("avx2,fma"))) static
template <class Scalar>
struct Avx2Lanes;
template <>
struct Avx2Lanes<double> {
  using V = __m256d;
  static constexpr int W = 4;
  SPK_AVX2 V zero() { return _mm256_setzero_pd(); }
  SPK_AVX2 V load(const double* p) { return _mm256_loadu_pd(p); }
  template <class Columns, class Offset>
  SPK_AVX2 V gather(const double* x, const Columns& columns, Offset k) {
    return _mm256_i32gather_pd(x, columns4(columns, k), 8);
  }
  template <class Columns, class Offset>
  SPK_AVX2 V gather_by_loads(const double* x, const Columns& columns, Offset k) {
    return _mm256_set_pd(x[columns.plain(k + 3)], x[columns.plain(k + 2)], x[columns.plain(k + 1)],
                         x[columns.plain(k)]);
  }
  SPK_AVX2 V fma(V a, V b, V c) { return _mm256_fmadd_pd(a, b, c); }
  SPK_AVX2 double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
  SPK_AVX2 double sum(V a, V b) {
    double l[4];
    _mm256_storeu_pd(l, _mm256_add_pd(a, b));
    return (l[0] + l[1]) + (l[2] + l[3]);
  }
};
template <>
struct Avx2Lanes<float> {
  using V = __m256;
  static constexpr int W = 8;
  SPK_AVX2 V zero() { return _mm256_setzero_ps(); }
  SPK_AVX2 V load(const float* p) { return _mm256_loadu_ps(p); }
  template <class Columns, class Offset>
  SPK_AVX2 V gather(const float* x, const Columns& columns, Offset k) {
    return _mm256_i32gather_ps(x, columns8(columns, k), 4);
  }
  template <class Columns, class Offset>
  SPK_AVX2 V gather_by_loads(const float* x, const Columns& columns, Offset k) {
    return _mm256_set_ps(x[columns.plain(k + 7)], x[columns.plain(k + 6)], x[columns.plain(k + 5)],
                         x[columns.plain(k + 4)], x[columns.plain(k + 3)], x[columns.plain(k + 2)],
                         x[columns.plain(k + 1)], x[columns.plain(k)]);
  }
  SPK_AVX2 V fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
  SPK_AVX2 float fma(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
  SPK_AVX2 float sum(V a, V b) {
    float l[8];
    _mm256_storeu_ps(l, _mm256_add_ps(a, b));
    return ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]));
  }
};
#undef SPK_AVX2

// x at columns k .. k + W - 1 as one vector: by gather instructions, or by loads. (A function, not a lambda: GCC
// compiles a lambda without its enclosing function's target.)
template <bool ByLoads, class L, class Scalar, class Columns, class Offset>
__attribute__((target("avx2,fma"))) inline typename L::V x_vector(const Scalar* x, const Columns& columns, Offset k) {
  if constexpr (ByLoads) {
    return L::gather_by_loads(x, columns, k);
  } else {
    return L::gather(x, columns, k);
  }
}

// The row's dot product in two vector accumulators of W lanes (2W nonzeros an iteration), one more vector if W are
// left, then the rest one by one; x's vectors by gather instructions (ByLoads false) or by loads. With Ahead, x's
// entries row_dot_ahead nonzeros on are prefetched while those lie below `limit` (row_dot, below). The
// tail fuses its multiply-adds explicitly: left to GCC's contraction, one instantiation fused and another did not,
// and packed and unpacked columns stopped agreeing bit for bit.
template <bool ByLoads, bool Ahead, class Values, class Columns, class Scalar, class Offset>
__attribute__((target("avx2,fma"), noinline)) Scalar gather_dot(const Values& values, const Columns& columns,
                                                              const Scalar* x, Offset b, Offset e, Offset limit) {
  using L = Avx2Lanes<Scalar>;
  constexpr int W = L::W;
  typename L::V s0 = L::zero(), s1 = L::zero();
  Offset k = b;
  if constexpr (Ahead) {
    for (; k + 2 * W <= e && k + 2 * W + row_dot_ahead <= limit; k += 2 * W) {
      for (int i = 0; i < 2 * W; ++i) __builtin_prefetch(x + columns.plain(k + row_dot_ahead + i));
      s0 = L::fma(L::load(&values(k)), x_vector<ByLoads, L>(x, columns, k), s0);
      s1 = L::fma(L::load(&values(k + W)), x_vector<ByLoads, L>(x, columns, k + W), s1);
    }
  } else {
    (void)limit;
  }
  for (; k + 2 * W <= e; k += 2 * W) {
    s0 = L::fma(L::load(&values(k)), x_vector<ByLoads, L>(x, columns, k), s0);
    s1 = L::fma(L::load(&values(k + W)), x_vector<ByLoads, L>(x, columns, k + W), s1);
  }
  if (k + W <= e) {
    s0 = L::fma(L::load(&values(k)), x_vector<ByLoads, L>(x, columns, k), s0);
    k += W;
  }
  Scalar sum = L::sum(s0, s1);
  for (; k < e; ++k) sum = L::fma(values(k), x[columns.plain(k)], sum);
  return sum;
}

// The rows the vectors leave to scalar loads, from row_dot_split nonzeros up (fp32 and fp64), where they do not
// read x ahead: four running sums (nonzero k into sum (k - b) mod 4, added pairwise at the end, then the last few
// one by one), where the plain loop chains every product through one sum and waits on each add. On the 2-core Zen 3,
// spk's row loops with and without it alternating in one process (median of 80 calls, two processes): Cornell5 (85 a
// row) 1.08-1.10x (fp32) and 1.11-1.13x (fp64), st3d27 64 1.01-1.06x and 1.15-1.21x, lap2d 1024 (5 a row, none
// split) even. Rows that read ahead keep the one sum: split, uniform 1M x 16 ran 0.94x (fp32) and 0.85x (fp64), rmat
// 18 16 0.93-0.99x. A call of its own: inlined into row_dot, it slowed even lap2d's unsplit rows (fp32 0.73x of Kokkos
// Kernels against 0.95x). The empty asm keeps the sums in four registers: GCC's vectorizer otherwise packed them into
// one SSE vector filled by element inserts, slower than the single sum.
template <class Values, class Columns, class XView, class Offset>
__attribute__((noinline)) typename Values::non_const_value_type split_dot(const Values& values, const Columns& columns,
                                                                          const XView& x, Offset b, Offset e) {
  using Scalar = typename Values::non_const_value_type;
  Scalar s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  Offset k = b;
  for (; k + 4 <= e; k += 4) {
    s0 += values(k) * x(columns.plain(k));
    s1 += values(k + 1) * x(columns.plain(k + 1));
    s2 += values(k + 2) * x(columns.plain(k + 2));
    s3 += values(k + 3) * x(columns.plain(k + 3));
    asm("" : "+x"(s0), "+x"(s1), "+x"(s2), "+x"(s3));  // x86-64's SSE registers
  }
  Scalar sum = (s0 + s1) + (s2 + s3);
  for (; k < e; ++k) sum += values(k) * x(columns.plain(k));
  return sum;
}
#endif

// sum over k in [b, e) of values(k) * x(column k): with `gathers` (host_row_gathers of this x) other than none,
// gather_dot in that form where the row is long or spread out (above); else, on x86-64 hosts without Ahead,
// split_dot's four sums from row_dot_split nonzeros up, and otherwise (GPUs too) one running sum in the order of k.
// gather_dot is a call of its own, compiled for AVX2: the scalar loops stay compiled for the baseline (in an AVX-512
// context GCC turned it into gathers too, and every short row paid for them: st3d27 64 fp32 0.6x).
// With Ahead, gather_dot and the one-sum loop prefetch x's entry for the nonzero row_dot_ahead places on while that
// is below `limit` (the end of the team's nonzeros): the vector rows and the rows under row_dot_split get the same
// bits as without it, the other rows (one sum against split_dot's four) agree to rounding. Where most rows span far
// more of x than the L2 holds (uniform 1M x 16, rmat 18 16), the plain loop waits on x's cache misses one row at a
// time; 64 nonzeros ahead, a stand-alone two-thread loop on the 2-core Zen 3 ran uniform 1M x 16 1.4-2.8x faster in
// fp64 (1.1-1.4x fp32) and rmat 18 16 1.1-1.4x (1.1x), while lap2d, st3d27, Cornell5 and ogbl_ddi, whose rows read
// nearby x, lost up to 10% (25% Cornell5 fp32): hence only for plans that find far columns (far_columns.hpp).
// Force-inlined: inside host_rows_by_value GCC left it a call per row.
template <bool Ahead = false, class Values, class Columns, class XView, class Offset>
KOKKOS_FORCEINLINE_FUNCTION typename Values::non_const_value_type row_dot(HostGather gathers, const Values& values,
                                                                          const Columns& columns, const XView& x,
                                                                          Offset b, Offset e, Offset limit = 0) {
  using Scalar = typename Values::non_const_value_type;
  Scalar sum = 0;
  Offset k = b;
#if SPK_HOST_ISA_DISPATCH
  if constexpr (row_dot_gathers<Scalar, Columns>() && x_is_array<XView>()) {
    const std::int64_t n = e - b;
    if (row_may_vector(gathers, n) &&
        (n >= row_dot_long_row ||  // a row's columns are sorted: its span is its last column less its first
         (static_cast<std::int64_t>(columns.plain(e - 1)) - columns.plain(b)) * std::int64_t{sizeof(Scalar)} >
             row_dot_far_bytes))
      return gathers == HostGather::loads ? gather_dot<true, Ahead>(values, columns, x.data(), b, e, limit)
                                          : gather_dot<false, Ahead>(values, columns, x.data(), b, e, limit);
  }
  if constexpr (!Ahead && (std::is_same_v<Scalar, float> || std::is_same_v<Scalar, double>)) {
    if (e - b >= row_dot_split) return split_dot(values, columns, x, b, e);
  }
  if constexpr (Ahead && x_is_array<XView>()) {
    const Offset stop = limit - row_dot_ahead < e ? limit - row_dot_ahead : e;
    for (; k < stop; ++k) {
      __builtin_prefetch(&x(columns.plain(k + row_dot_ahead)));
      sum += values(k) * x(columns.plain(k));
    }
  }
#else
  (void)gathers, (void)limit;
#endif
  for (; k < e; ++k) sum += values(k) * x(columns.plain(k));
  return sum;
}

// How a launch's host row loops read x: in vectors (host_row_gathers) and with x's entries prefetched ahead.
struct HostRowReads {
  HostGather gathers = HostGather::none;
  bool ahead = false;
};

// host_row_gathers, and prefetching where the plan found far columns and x is a View (grouped columns' GroupedX is
// not) on a host compiler that has it.
template <class ExecSpace, class XView>
HostRowReads host_row_reads(const XView& x, std::int64_t longest_row, bool far_columns) {
  HostRowReads reads;
  reads.gathers = host_row_gathers<ExecSpace>(x, longest_row);
  reads.ahead = SPK_HOST_ISA_DISPATCH && is_host_space<ExecSpace>() && Kokkos::is_view<XView>::value && far_columns;
  return reads;
}

// host_row_loop's `longest` where no row is left to other teams.
inline constexpr std::int64_t host_rows_of_any_length = std::numeric_limits<std::int64_t>::max();

// Calls f(row, b, e) for each of rows first .. first + count - 1 of at most `longest` nonzeros that fall to the
// team thread `rank` of `threads` (TeamThreadRange's split, one thread per row), [b, e) its nonzeros. With four
// copies of the row loop in one functor, the TeamThreadRange form ran lap2d 1024 fp32 up to 10% slower (the same loop
// with its choices fixed at compile time did not), most likely its per-row lambda left uninlined.
template <class RowMap, class F>
KOKKOS_FORCEINLINE_FUNCTION void for_team_rows(int rank, int threads, std::int64_t first, int count,
                                               std::int64_t longest, const RowMap& row_map, const F& f) {
  for (int i = rank; i < count; i += threads) {
    const std::int64_t row = first + i;
    const auto b = row_map(row), e = row_map(row + 1);
    if (e - b <= longest) f(row, b, e);
  }
}

// host_row_loop's rows (below) of the team thread `rank` of `threads`.
template <class RowMap, class Values, class Columns, class XView, class YView>
KOKKOS_FORCEINLINE_FUNCTION void host_rows(int rank, int threads, std::int64_t first, int count, std::int64_t longest,
                                           HostRowReads reads, const RowMap& row_map, const Values& values,
                                           const Columns& columns, const XView& x,
                                           typename Values::non_const_value_type alpha,
                                           typename Values::non_const_value_type beta, const YView& y) {
  using Scalar = typename Values::non_const_value_type;
  if (reads.ahead) {  // rows that wait on memory: one copy of the loop, beta and vectors tested per row
    const auto limit = row_map(first + count);
    for_team_rows(rank, threads, first, count, longest, row_map, [&](std::int64_t row, auto b, auto e) {
      const Scalar sum = row_dot<true>(reads.gathers, values, columns, x, b, e, limit);
      y(row) = beta == Scalar(0) ? alpha * sum : alpha * sum + beta * y(row);
    });
    return;
  }
  const auto rows = [&](auto vectors, auto beta_zero) {
    for_team_rows(rank, threads, first, count, longest, row_map, [&](std::int64_t row, auto b, auto e) {
      // without vectors, row_dot's scalar loop alone: `none` is a constant there, and its vector branch folds away
      const Scalar sum =
          row_dot(decltype(vectors)::value ? reads.gathers : HostGather::none, values, columns, x, b, e);
      if constexpr (decltype(beta_zero)::value) {
        y(row) = alpha * sum;
      } else {
        y(row) = alpha * sum + beta * y(row);
      }
    });
  };
  using yes = std::true_type;
  using no = std::false_type;
  if (reads.gathers == HostGather::none) {
    if (beta == Scalar(0)) rows(no{}, yes{});
    else rows(no{}, no{});
  } else {
    if (beta == Scalar(0)) rows(yes{}, yes{});
    else rows(yes{}, no{});
  }
}

#if SPK_HOST_ISA_DISPATCH
// Whether host_row_loop may hand its arrays to host_rows_by_value: plain pointers (row map, values, columns read in
// place) and Views for x and y (taken as pointers where they are contiguous).
template <class RowMap, class Values, class Columns, class XView, class YView>
constexpr bool host_rows_take_copies() {
  return std::is_trivially_copyable_v<RowMap> && std::is_trivially_copyable_v<Values> &&
         std::is_trivially_copyable_v<Columns> && Kokkos::is_view<XView>::value && Kokkos::is_view<YView>::value;
}

// host_rows on copies: a call of its own whose arguments are its locals, so GCC keeps A's, x's and y's addresses in
// registers across the row loop; inlined into the kernel's functor, the loop read them from the functor again for
// each row. On the 2-core Zen 3 a stand-alone Kokkos team loop over lap2d 1024 fp32 (five nonzeros a row) ran 1.11x
// faster with its arrays passed this way, level with a raw OpenMP loop, and spk's thread-row went from 0.95-0.96x of
// Kokkos Kernels to 0.98-1.01x (four processes each). Thread-row only (host_row_loop's ByValue): for vector-row and
// long-row-split too, the cpu suite in rounds measured 1.089x -> 1.073x (fp64) and 0.988x -> 0.994x (fp32) of the best
// library, ten processes per build; for thread-row alone 1.017x -> 1.141x and 0.987x -> 1.006x.
template <class RowMap, class Values, class Columns, class Scalar>
__attribute__((noinline)) void host_rows_by_value(int rank, int threads, std::int64_t first, int count,
                                                  std::int64_t longest, HostRowReads reads, RowMap row_map,
                                                  Values values, Columns columns, DeviceArray<const Scalar> x,
                                                  Scalar alpha, Scalar beta, DeviceArray<Scalar> y) {
  host_rows(rank, threads, first, count, longest, reads, row_map, values, columns, x, alpha, beta, y);
}
#endif

// One team's host row loop (thread-row, vector-row and long-row-split on host back-ends, one thread per row): rows
// first .. first + count - 1, those of at most `longest` nonzeros (long-row-split leaves the longer ones to its
// teams), each y(row) = alpha * sum + beta * y(row), y not read where beta is 0. Whether beta is 0, whether any
// row takes vectors and whether rows read x ahead (`reads`) are decided here once per team, the first two ways
// compiled apart: tested per row, they cost lap2d 1024 (five nonzeros a row) 12% and 10% on a 2-core Zen 3, where
// Kokkos Kernels' loop (one instantiation per beta case, no vectors) ran 16% ahead of spk's. Force-inlined: with the
// read-ahead path added GCC stopped inlining it into vector-row's functor, and lap2d 1024 fp32 (which never reads
// ahead) lost 10-15% there. ByValue (thread-row): through host_rows_by_value where x and y are contiguous.
template <bool ByValue = false, class Member, class RowMap, class Values, class Columns, class XView, class YView>
KOKKOS_FORCEINLINE_FUNCTION void host_row_loop(const Member& team, std::int64_t first, int count,
                                               std::int64_t longest, HostRowReads reads, const RowMap& row_map,
                                               const Values& values, const Columns& columns, const XView& x,
                                               typename Values::non_const_value_type alpha,
                                               typename Values::non_const_value_type beta, const YView& y) {
#if SPK_HOST_ISA_DISPATCH
  if constexpr (ByValue && host_rows_take_copies<RowMap, Values, Columns, XView, YView>()) {
    if (x.span_is_contiguous() && y.span_is_contiguous()) {  // what DeviceArray's View constructor requires
      using Scalar = typename Values::non_const_value_type;
      host_rows_by_value(team.team_rank(), team.team_size(), first, count, longest, reads, row_map, values, columns,
                         DeviceArray<const Scalar>(x), alpha, beta, DeviceArray<Scalar>(y));
      return;
    }
  }
#endif
  host_rows(team.team_rank(), team.team_size(), first, count, longest, reads, row_map, values, columns, x, alpha, beta,
            y);
}

}  // namespace spk::impl
