#pragma once
// SpGEMM with a dense accumulator per worker, the CPU formulation (F. G. Gustavson, "Two fast algorithms for sparse
// matrices: multiplication and permuted transposition", ACM TOMS 4(3), 1978): a worker owns a marker and a value
// per column of B, so adding a product is one indexed load and store with no hashing and no probing. Workers are
// one-thread teams that take chunks of rows from a shared counter, so uneven rows balance themselves. A row with
// more products than columns in its span accumulates over the whole span with no per-product test and is read off
// it in column order; any other row collects its columns in first-touch order (already sorted for banded
// products), then reads them off the marks when the span is short or sorts them. It is the host back-ends'
// automatic choice; forced on a GPU it runs correctly but one thread per row.
#include <algorithm>
#include <cstdint>

#include <Kokkos_Core.hpp>

#include "../execution.hpp"
#include "device_memory.hpp"
#include "serial_sort.hpp"
#include "spgemm_common.hpp"

namespace spk::impl {

// How many workers run and how wide each one's accumulator is (B's columns). workers == 0: it does not fit.
struct GustavsonWorkspace {
  int workers = 0;
  std::int64_t columns = 0;

  // Bytes per column of one worker: a marker, and a value in the numeric phase.
  template <class Scalar>
  static constexpr std::int64_t column_bytes(bool numeric) {
    return static_cast<std::int64_t>(sizeof(int) + (numeric ? sizeof(Scalar) : 0));
  }
  std::int64_t bytes(std::int64_t column_bytes) const { return workers * columns * column_bytes; }
};

// One worker per host thread; a GPU gets a fixed number of one-thread workers. Fewer when the accumulators would
// not fit in `budget` bytes.
template <class ExecSpace>
GustavsonWorkspace gustavson_workspace(std::int64_t columns, std::int64_t column_bytes, std::int64_t budget) {
  GustavsonWorkspace w;
  w.columns = columns;
  w.workers = is_host_space<ExecSpace>() ? ExecSpace().concurrency() : 1024;
  const std::int64_t per_worker = columns * column_bytes;
  if (per_worker > 0)
    w.workers = static_cast<int>(std::min<std::int64_t>(w.workers, std::max<std::int64_t>(budget, 0) / per_worker));
  return w;
}

// Ascending sort of a row's columns in place: std::sort on the host, insertion or heap sort on a GPU.
template <class Ordinal>
KOKKOS_INLINE_FUNCTION void sort_columns(Ordinal* keys, int n) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__) || defined(__SYCL_DEVICE_ONLY__)
  serial_sort(keys, n, [&](int i, int j) {
    const Ordinal t = keys[i];
    keys[i] = keys[j];
    keys[j] = t;
  });
#else
  std::sort(keys, keys + n);
#endif
}

template <bool numeric, class Views, class Space, class Bounds>
void spgemm_gustavson_rows(const Views& v, const RowSlice<Space>& rows, const Bounds& lo, const Bounds& hi,
                           const GustavsonWorkspace& ws, bool sorted) {
  using exec = typename Views::execution_space;
  using Scalar = typename Views::scalar_type;
  using Ordinal = typename Views::ordinal_type;
  using Offset = typename Views::offset_type;
  using BOffset = typename Views::b_offset_type;
  using policy_type = team_policy_for<exec>;
  using member_type = typename policy_type::member_type;
  if (rows.count == 0) return;
  const int workers = static_cast<int>(std::min<std::int64_t>(ws.workers, rows.count));
  const std::int64_t columns = ws.columns;
  Kokkos::View<int*, Space> marks(uninitialized<exec>("spk::spgemm_gustavson::marks"), workers * columns);
  Kokkos::View<Scalar*, Space> sums(uninitialized<exec>("spk::spgemm_gustavson::sums"),
                                    numeric ? workers * columns : 0);
  Kokkos::View<std::int64_t, Space> next(zeroed<exec>("spk::spgemm_gustavson::next"));
  // About 16 chunks per worker: enough to even out rows of different cost, few enough that the counter stays cold.
  const std::int64_t chunk = std::clamp<std::int64_t>(rows.count / (16 * workers), 1, 1024);
  const std::int64_t count = rows.count;
  Kokkos::parallel_for(
      numeric ? "spk::spgemm_gustavson::numeric" : "spk::spgemm_gustavson::symbolic", policy_type(workers, 1, 1),
      KOKKOS_LAMBDA(const member_type& team) {
        int* mark = marks.data() + team.league_rank() * columns;
        Scalar* sum = numeric ? sums.data() + team.league_rank() * columns : nullptr;
        for (std::int64_t c = 0; c < columns; ++c) mark[c] = -1;  // a mark holds the last row that touched it
        while (true) {
          const std::int64_t first = Kokkos::atomic_fetch_add(&next(), chunk);
          if (first >= count) break;
          const std::int64_t last = first + chunk < count ? first + chunk : count;
          for (std::int64_t i = first; i < last; ++i) {
            const int row = rows(i);
            const Offset a_begin = v.a_map(row), a_end = v.a_map(row + 1);
            const Ordinal low = lo(row), high = hi(row);
            std::int64_t products = 0;
            for (Offset p = a_begin; p < a_end; ++p) products += v.b_map(v.a_ent(p) + 1) - v.b_map(v.a_ent(p));
            Ordinal* out = numeric ? v.c_ent.data() + v.c_map(row) : nullptr;
            Scalar* values = numeric ? v.c_val.data() + v.c_map(row) : nullptr;
            // f(column, a_ij * b_jc) for every product of the row, in A's then B's order (symbolic: product 0).
            const auto each_product = [&](const auto& f) {
              for (Offset p = a_begin; p < a_end; ++p) {
                const Ordinal j = v.a_ent(p);
                const Scalar a = numeric ? v.a_val(p) : Scalar(0);
                const BOffset b_end = v.b_map(j + 1);
                for (BOffset q = v.b_map(j); q < b_end; ++q) f(v.b_ent(q), numeric ? a * v.b_val(q) : Scalar(0));
              }
            };
            int n = 0;
            if (high - low < products) {
              // Output dense in its span: zero the span's sums and accumulate with no test per product (a test
              // that fails at random mispredicts), then read the row off the span in column order. The marks
              // need no clearing: none holds this row yet.
              if (numeric)
                for (Ordinal c = low; c <= high; ++c) sum[c] = Scalar(0);
              each_product([&](const Ordinal c, const Scalar product) {
                mark[c] = row;
                if (numeric) sum[c] += product;
              });
              for (Ordinal c = low; c <= high; ++c)
                if (mark[c] == row) {
                  if (numeric) {
                    out[n] = c;
                    values[n] = sum[c];
                  }
                  ++n;
                }
              if (!numeric) v.c_map(row) = static_cast<Offset>(n);
              continue;
            }
            bool ascending = true;
            Ordinal previous = 0;
            each_product([&](const Ordinal c, const Scalar product) {
              if (mark[c] != row) {
                mark[c] = row;
                if (numeric) {
                  sum[c] = product;
                  ascending = ascending && (n == 0 || c > previous);
                  previous = c;
                  out[n] = c;
                }
                ++n;
              } else if (numeric) {
                sum[c] += product;
              }
            });
            if (!numeric) {
              v.c_map(row) = static_cast<Offset>(n);
              continue;
            }
            if (sorted && !ascending) {
              // Reading the marks over the span costs one pass over it; a sort about n log n compares.
              if (high - low < 16 * std::int64_t(n)) {
                int at = 0;
                for (Ordinal c = low; c <= high; ++c)
                  if (mark[c] == row) out[at++] = c;
              } else {
                sort_columns(out, n);
              }
            }
            for (int k = 0; k < n; ++k) values[k] = sum[out[k]];
          }
        }
      });
}

}  // namespace spk::impl
