#pragma once
// What the SpMV kernels share: the BLAS update of one y entry, the index type of host-side partitions, and the
// policy types of a matrix's execution space.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <Kokkos_Core.hpp>

#include "../execution.hpp"
#include "cache_hints.hpp"
#include "device_memory.hpp"
#include "host_mailbox.hpp"
#include "packed_columns.hpp"
#include "room_pool.hpp"

namespace spk::impl {

// y = alpha * sum + beta * y, never reading y when beta == 0 (BLAS semantics: y may hold NaN then).
template <class Scalar, class YView>
KOKKOS_INLINE_FUNCTION void spmv_store(const YView& y, std::int64_t row, Scalar alpha, Scalar sum, Scalar beta) {
  y(row) = beta == Scalar(0) ? alpha * sum : alpha * sum + beta * y(row);
}

template <class Matrix>
struct SpmvTypes {
  using exec = typename Matrix::execution_space;
  using device = typename Matrix::device_type;
  using scalar = typename Matrix::scalar_type;
  using offset = typename Matrix::offset_type;
  using team_policy = team_policy_for<exec>;
  using member = typename team_policy::member_type;
  using range_policy = Kokkos::RangePolicy<exec, Kokkos::IndexType<std::int64_t>>;
  using scalar_scratch = Kokkos::View<scalar*, typename exec::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  using int_scratch = Kokkos::View<int*, typename exec::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  using index_view = Kokkos::View<std::int64_t*, device>;
};

// Independent gathers each lane keeps in flight while streaming nonzeros: lane q handles q, q + n/U, q + 2n/U, ...,
// so every one of the U loads is still coalesced across the team and the x gathers overlap instead of queueing.
inline constexpr int gathers_per_lane = 4;

// Which rows a staged kernel (stream, flat) must handle, so that it compiles only the paths they need: the long-row
// paths hold registers (8 each on sm_90), and fewer registers let more teams share an SM.
enum class StagedRows {
  short_only,    // no row longer than serial_row_max: every row is one lane's serial sum
  within_stage,  // no row longer than stream's capacity: no team-per-row path (flat has no such form)
  any,
};

// How a team's lanes lay out nonzeros [base, base + n) in U segments of `stride` slots, one slot of each per lane,
// aligned: the nonzeros from the first 32-nonzero boundary at or after `base` (the body) fill the slots in order,
// each segment a whole number of 32 long, so a warp's load of 32 values or column indices covers whole 128-byte
// lines (A's arrays start on one) instead of straddling two; the few nonzeros before that boundary (the head) take
// the slots the body leaves free at the end. A lane runs as many rounds as with plain segments of ceil(n / U).
struct AlignedSegments {
  int head;    // nonzeros before the first 32-nonzero boundary at or after base (at most n)
  int body;    // n - head
  int n;
  int stride;  // slots per segment, a multiple of 32
  // The nonzero (counted from base) in slot q of segment u; n or more: none.
  KOKKOS_INLINE_FUNCTION int at(int q, int u) const {
    const int s = q + u * stride;
    return s < body ? s + head : s < n ? s - body : n;
  }
};

template <int U, class Offset>
KOKKOS_INLINE_FUNCTION AlignedSegments aligned_segments(Offset base, int n) {
  const int to_boundary = static_cast<int>((32 - base % 32) % 32);
  const int head = to_boundary < n ? to_boundary : n;
  return {head, n - head, n, ((n + U - 1) / U + 31) / 32 * 32};
}

// products(k) = values(base + k) * x(column base + k) for k in [0, n), by the whole team (no barrier), U gathers a
// lane; `columns` is a column reader (packed_columns.hpp). Aligned: in aligned segments (above), which flat takes
// with A's own or renumbered column indices: on an H100 (probe, flat's table shapes) skewed 1M ran 1.06-1.08x and
// R-MAT 22 16 fp64 1.05x faster (unaligned, skewed's flat kernel sent L2 8% more read requests than cuSPARSE for the
// same sectors, at 90% of L2 throughput), but packed columns 0.75-0.95x (st3d27 160) and stream on Cornell5 and
// ogbl_ddi 0.83-0.96x on most shapes, so the others keep plain segments.
template <int U = gathers_per_lane, bool Aligned = false, class Member, class Products, class Values, class Columns,
          class XView, class Offset>
KOKKOS_INLINE_FUNCTION void stage_products(const Member& team, const Products& products, const Values& values,
                                           const Columns& columns, const XView& x, Offset base, int n) {
  // slot(q, u): the nonzero (counted from base) in slot q of segment u, n or more for none
  const auto stage = [&](const int slots, const auto& slot) {
    Kokkos::parallel_for(Kokkos::TeamVectorRange(team, slots), [&](const int q) {
      typename Values::non_const_value_type v[U];
      typename Columns::ordinal c[U];
      for (int u = 0; u < U; ++u) {
        const int k = slot(q, u);
        if (k < n) v[u] = load_once(values(base + k)), c[u] = columns.streamed(base + k);
      }
      for (int u = 0; u < U; ++u) {
        const int k = slot(q, u);
        if (k < n) products(k) = v[u] * load_reused(x(c[u]));
      }
    });
  };
  if constexpr (Aligned) {
    const AlignedSegments seg = aligned_segments<U>(base, n);
    stage(seg.stride, [&](const int q, const int u) { return seg.at(q, u); });
  } else {
    const int stride = (n + U - 1) / U;
    stage(stride, [&](const int q, const int u) { return q + u * stride; });
  }
}

// Nonzeros a lane of a pipelined stage loads per round: 16 bytes of values (fp64 at 4 a round lost 3-6% on the
// tabled Cornell5 and ogbl_ddi shapes where 2 gained 3-5%: its registers).
template <class Scalar>
inline constexpr int pipelined_gathers = sizeof(Scalar) <= 4 ? 4 : 2;

// stage_products software-pipelined: each lane loads its next round of U values and column indices before it
// gathers x for the current round, so the two memory round trips of a round overlap instead of adding up.
// `threads`: the team's threads (team size x vector length). It pays where a small matrix's teams all fit in one
// wave and each lane stages several rounds, so nothing else hides the latency (ogbl_ddi fp32, stream 8 x 32 with
// 8,192-nonzero stages, H100: 12.8 -> 10.4 us); where many waves keep the memory busy, its registers cost occupancy
// (the H100 sweep's best pipelined stream shape ran 0.69-1.00x of the best plain candidate on the large matrices).
// Hence a launch-shape option (LaunchShape::pipelined) the sweep decides.
template <int U, class Member, class Products, class Values, class Columns, class XView, class Offset>
KOKKOS_INLINE_FUNCTION void stage_products_pipelined(const Member& team, int threads, const Products& products,
                                                     const Values& values, const Columns& columns, const XView& x,
                                                     Offset base, int n) {
  using Scalar = typename Values::non_const_value_type;
  using Column = typename Columns::ordinal;
  const int stride = (n + U - 1) / U;
  Kokkos::parallel_for(Kokkos::TeamVectorRange(team, threads), [&](const int lane) {
    Scalar v[U];
    Column c[U];
    const auto load = [&](const int q, Scalar* vs, Column* cs) {
      for (int u = 0; u < U; ++u) {
        const int k = q + u * stride;
        const bool in = q < stride && k < n;
        vs[u] = in ? load_once(values(base + k)) : Scalar(0);
        cs[u] = in ? columns.streamed(base + k) : Column(0);
      }
    };
    load(lane, v, c);
    for (int q = lane; q < stride; q += threads) {
      Scalar next_v[U];
      Column next_c[U];
      load(q + threads, next_v, next_c);
      for (int u = 0; u < U; ++u) {
        const int k = q + u * stride;
        if (k < n) products(k) = v[u] * load_reused(x(c[u]));
      }
      for (int u = 0; u < U; ++u) v[u] = next_v[u], c[u] = next_c[u];
    }
  });
}

// Staged rows of at most this many products are summed by one lane each (reduce_staged_rows).
inline constexpr int serial_row_max = 32;

// Scratch ints reduce_staged_rows needs when a team stages at most `capacity` products: a count, then one slot per
// possible longer row (each holds more than serial_row_max of the products).
KOKKOS_INLINE_FUNCTION constexpr int long_row_slots(int capacity) { return 2 + capacity / (serial_row_max + 1); }

// Level-0 scratch of a team that stages `capacity` products and reduces them with reduce_staged_rows<ShortRows>.
template <class Types, bool ShortRows = false>
std::size_t staged_rows_scratch_bytes(int capacity) {
  return Types::scalar_scratch::shmem_size(capacity) +
         (ShortRows ? 0 : Types::int_scratch::shmem_size(long_row_slots(capacity)));
}

// Sums `count` rows whose products lie in scratch, row i over products [segment(i).first, segment(i).second), and
// calls finish(i, sum). A row of at most serial_row_max products is summed by one lane, every lane of the team
// taking a row; the longer ones are listed in `slots` and then reduced by a thread's vector lanes each. Giving
// every row a vector group instead left most lanes idle on short rows and paid a shuffle reduction per row: on R-MAT
// 22 16 (fp64, flat, 4 lanes per row) that loop ran 4.8 of 32 threads per warp and, with the per-row overhead, was
// 60% of the kernel's instructions (ncu, H200). Which path a row takes depends on its length only: deterministic.
// ShortRows: the caller knows that no row holds more than serial_row_max products (`slots` is then unused).
template <bool ShortRows = false, class Member, class Products, class Slots, class Segment, class Finish>
KOKKOS_INLINE_FUNCTION void reduce_staged_rows(const Member& team, const Products& products, const Slots& slots,
                                               int count, const Segment& segment, const Finish& finish) {
  using Scalar = typename Products::non_const_value_type;
  if (!ShortRows) {
    Kokkos::single(Kokkos::PerTeam(team), [&]() { slots(0) = 0; });
    team.team_barrier();
  }
  Kokkos::parallel_for(Kokkos::TeamVectorRange(team, count), [&](const int i) {
    const Kokkos::pair<int, int> seg = segment(i);
    if (!ShortRows && seg.second - seg.first > serial_row_max) {
      slots(1 + Kokkos::atomic_fetch_add(&slots(0), 1)) = i;
      return;
    }
    // Each lane starts its row at a different place (the row's index modulo 32, then modulo its length) and wraps
    // around: rows of one length would otherwise put every lane of a warp on the same scratch bank (32 products per
    // row: up to a 32-way conflict on every load). Two plain loops: a first version with a wrap test per product
    // made st3d27 160 (fp32, stream) 21% slower than summing from the row's start.
    Scalar sum = 0;
    const int len = seg.second - seg.first;
    const int start = len > 0 ? seg.first + (i & 31) % len : seg.first;
    for (int k = start; k < seg.second; ++k) sum += products(k);
    for (int k = seg.first; k < start; ++k) sum += products(k);
    finish(i, sum);
  });
  if (ShortRows) return;
  team.team_barrier();
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, slots(0)), [&](const int s) {
    const int i = slots(1 + s);
    const Kokkos::pair<int, int> seg = segment(i);
    Scalar sum = 0;
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(team, seg.second - seg.first),
        [&](const int k, Scalar& partial) { partial += products(seg.first + k); }, sum);
    Kokkos::single(Kokkos::PerThread(team), [&]() { finish(i, sum); });
  });
}

// The dot product of nonzeros [begin, begin + n) with x straight from global memory, by the lanes of range(count) (a
// team's lanes: team_dot; a thread's vector lanes), gathers_per_lane in flight a lane: lane q at q, q + n/U, ...
template <class Range, class Values, class Columns, class XView, class Offset>
KOKKOS_INLINE_FUNCTION typename Values::non_const_value_type strided_dot(const Range& range, const Values& values,
                                                                         const Columns& columns, const XView& x,
                                                                         Offset begin, int n) {
  using Scalar = typename Values::non_const_value_type;
  constexpr int U = gathers_per_lane;
  const int stride = (n + U - 1) / U;
  Scalar sum = 0;
  Kokkos::parallel_reduce(
      range(stride),
      [&](const int q, Scalar& partial) {
        Scalar v[U];
        typename Columns::ordinal c[U];
        for (int u = 0; u < U; ++u) {
          const int k = q + u * stride;
          v[u] = k < n ? load_once(values(begin + k)) : Scalar(0);
          c[u] = k < n ? columns.streamed(begin + k) : 0;
        }
        for (int u = 0; u < U; ++u)
          if (q + u * stride < n) partial += v[u] * load_reused(x(c[u]));
      },
      sum);
  return sum;
}

// The dot product of nonzeros [begin, begin + n) with x, by the whole team straight from global memory.
template <class Member, class Values, class Columns, class XView, class Offset>
KOKKOS_INLINE_FUNCTION typename Values::non_const_value_type team_dot(const Member& team, const Values& values,
                                                                      const Columns& columns, const XView& x,
                                                                      Offset begin, int n) {
  return strided_dot([&](const int count) { return Kokkos::TeamVectorRange(team, count); }, values, columns, x, begin,
                     n);
}

// The segment holding item p of segments whose first items are first(0) <= first(1) <= ... (first(0) <= p): the last
// s in [0, count) with first(s) <= p, by binary search.
template <class First>
KOKKOS_INLINE_FUNCTION std::int64_t segment_of(const First& first, std::int64_t count, std::int64_t p) {
  std::int64_t lo = 0, hi = count - 1;
  while (lo < hi) {
    const std::int64_t mid = (lo + hi + 1) / 2;
    if (first(mid) <= p)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

// sum over s in [begin, end) of term(s) with U independent partial sums, so the loads of a row's many carries
// overlap instead of waiting one memory latency each (62 us of 116 on the arrow matrix's one dense row, SpMM
// k = 32, when they were added one by one). The remainder is added one by one after the partials: indexing the
// partials with a run-time index would put them in local memory, and most split rows have one or two carries (SpMM
// runs a fix-up per split row and column). The association is fixed, so the result is the same on every run.
template <class Scalar, int U = 8, class Term>
KOKKOS_INLINE_FUNCTION Scalar sum_carries(std::int64_t begin, std::int64_t end, const Term& term) {
  Scalar sum = 0;
  std::int64_t s = begin;
  if (end - begin >= U) {
    Scalar part[U] = {};
    for (; s + U <= end; s += U)
      for (int u = 0; u < U; ++u) part[u] += term(s + u);
    for (int u = 0; u < U; ++u) sum += part[u];
  }
  for (; s < end; ++s) sum += term(s);
  return sum;
}

// scan_into's pass: count(i) for every index i in [0, n), then, in the final pass, write(i, pos, count(i)) with pos the
// sum of the counts before i; the last index leaves the total in *total when there is one (a HostMailbox's slot).
template <class Count, class Write>
struct CountScan {
  Count count;
  Write write;
  std::int64_t n;
  std::int64_t* total;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, std::int64_t& pos, const bool final) const {
    const std::int64_t c = count(i);
    if (final) write(i, pos, c);
    pos += c;
    if (total != nullptr && final && i == n - 1) *total = pos;
  }
};

// An exclusive scan of count over [0, n) that hands each index its offset (write, above) and returns the total: one
// launch and one host wait, for output whose room is already allocated. On GPUs the scan's last index leaves the total
// in a HostMailbox (Kokkos's scan total would be copied back: about 10 us more).
template <class Exec, class Count, class Write>
std::int64_t scan_into(const char* label, std::int64_t n, const Count& count, const Write& write) {
  using policy = Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>;
  if (n == 0) return 0;
  if constexpr (has_host_mailbox<Exec>) {
    const HostMailbox<Exec> mailbox;
    Kokkos::parallel_scan(label, policy(0, n), CountScan<Count, Write>{count, write, n, mailbox.slot()});
    return mailbox.read(Exec());
  } else {
    std::int64_t total = 0;
    Kokkos::parallel_scan(label, policy(0, n), CountScan<Count, Write>{count, write, n, nullptr}, total);
    return total;
  }
}

// Calls write(pos, i) for the pos-th index i in [0, n) with flag(i), in order, and returns how many there were.
template <class Exec, class Flag, class Write>
std::int64_t compact_into(const char* label, std::int64_t n, const Flag& flag, const Write& write) {
  return scan_into<Exec>(
      label, n, KOKKOS_LAMBDA(const std::int64_t i)->std::int64_t { return flag(i) ? 1 : 0; },
      KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t pos, const std::int64_t c) {
        if (c != 0) write(pos, i);
      });
}

// Up to this many candidates, compact_indices fills a room of n indices in one pass (a plan's set-up on a small
// matrix is paced by its launches and host waits); the result then keeps that room (at most 64 KiB, from the
// RoomPool) alive. A larger room cost more than the pass saved: on the H200 a 146 KiB cudaMalloc often took 40 us
// (Cornell5's row blocks).
inline constexpr std::int64_t compact_one_pass_max = room_pool_largest;

// The indices i in [0, n) with flag(i), in order (a stream compaction on the device). `most`: an upper bound on
// their count the caller knows (it sizes the one-pass room; a count past it is a bug in that bound, and throws).
template <class Exec, class Device, class Flag>
Kokkos::View<std::int64_t*, Device> compact_indices(const char* label, std::int64_t n, const Flag& flag,
                                                    std::int64_t most = -1) {
  using policy = Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>;
  const std::int64_t room_size = most >= 0 && most < n ? most : n;
  if (room_size <= compact_one_pass_max) {
    if (n == 0) return {};
    // An empty result holds no room, so a plan without split or long rows leaves the pool's rooms free; a bound of
    // 0 takes none (the default View allocates nothing) and the pass only checks that bound.
    const auto room = room_size > 0 ? RoomPool<Device>::instance().template take<Exec>(room_size)
                                    : Kokkos::View<std::int64_t*, Device>();
    const std::int64_t count = compact_into<Exec>(
        label, n, flag, KOKKOS_LAMBDA(const std::int64_t pos, const std::int64_t i) {
          if (pos < room_size) room(pos) = i;
        });
    if (count > room_size)
      throw std::logic_error(std::string(label) + ": " + std::to_string(count) + " indices, but their bound was " +
                             std::to_string(room_size));
    if (count == 0) return {};
    return Kokkos::subview(room, std::make_pair(std::int64_t{0}, count));
  }
  std::int64_t count = 0;
  Kokkos::parallel_reduce(
      label, policy(0, n), KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& c) { c += flag(i) ? 1 : 0; }, count);
  Kokkos::View<std::int64_t*, Device> out(uninitialized<Exec>(label), count);
  if (count == 0) return out;
  Kokkos::parallel_scan(
      label, policy(0, n), KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& pos, const bool final) {
        if (flag(i)) {
          if (final) out(pos) = i;
          ++pos;
        }
      });
  return out;
}

}  // namespace spk::impl
