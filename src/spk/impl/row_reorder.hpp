#pragma once
// Row orders for SpMM's opt-in row reordering, built on the host once per plan (the plan reports the cost):
// - by length: rows grouped by length, longest first (a counting sort, stable), so the rows one team takes have
//   similar lengths and its threads finish together;
// - rcm: reverse Cuthill-McKee (Cuthill & McKee 1969; George's reversal) over A's pattern, a bandwidth-reducing
//   order: rows visited together share columns, so the B rows they gather stay in cache. Square matrices only;
//   for an unsymmetric pattern the breadth-first search follows each row's own column indices.
// Only the visiting order changes: A, B and C stay as they are and each row is stored in its own place.
#include <algorithm>
#include <numeric>
#include <queue>
#include <vector>

#include "../algorithms.hpp"
#include "../error.hpp"
#include "spmm_row_block.hpp"

namespace spk::impl {

// The counting sorts' bucket of a length: exact lengths up to 4096, then one bucket per power of two (the order among
// very long rows matters little).
KOKKOS_INLINE_FUNCTION std::int64_t length_bucket(std::int64_t len) {
  if (len <= 4096) return len;
  std::int64_t b = 4096;
  while (len > 1) len >>= 1, ++b;
  return b;
}

inline std::vector<std::int64_t> order_by_length(const std::vector<std::int64_t>& row_map) {
  const std::int64_t rows = static_cast<std::int64_t>(row_map.size()) - 1;
  std::int64_t longest = 0;
  for (std::int64_t r = 0; r < rows; ++r) longest = std::max(longest, row_map[r + 1] - row_map[r]);
  std::vector<std::int64_t> count(static_cast<std::size_t>(length_bucket(longest)) + 2, 0);
  for (std::int64_t r = 0; r < rows; ++r) ++count[length_bucket(row_map[r + 1] - row_map[r])];
  std::vector<std::int64_t> start(count.size(), 0);  // longest first
  for (std::int64_t b = static_cast<std::int64_t>(count.size()) - 2; b >= 0; --b)
    start[b] = start[b + 1] + count[b + 1];
  std::vector<std::int64_t> order(static_cast<std::size_t>(rows));
  for (std::int64_t r = 0; r < rows; ++r) order[start[length_bucket(row_map[r + 1] - row_map[r])]++] = r;
  return order;
}

template <class Entries>
std::vector<std::int64_t> order_rcm(const std::vector<std::int64_t>& row_map, const Entries& entries) {
  const std::int64_t n = static_cast<std::int64_t>(row_map.size()) - 1;
  const auto degree = [&](std::int64_t v) { return row_map[v + 1] - row_map[v]; };
  std::vector<std::int64_t> by_degree(static_cast<std::size_t>(n));
  std::iota(by_degree.begin(), by_degree.end(), 0);
  std::stable_sort(by_degree.begin(), by_degree.end(),
                   [&](std::int64_t a, std::int64_t b) { return degree(a) < degree(b); });
  std::vector<char> seen(static_cast<std::size_t>(n), 0);
  std::vector<std::int64_t> order, neighbours;
  order.reserve(static_cast<std::size_t>(n));
  for (const std::int64_t root : by_degree) {  // one breadth-first search per component, from a low-degree row
    if (seen[root]) continue;
    seen[root] = 1;
    std::size_t head = order.size();
    order.push_back(root);
    while (head < order.size()) {
      const std::int64_t v = order[head++];
      neighbours.clear();
      for (std::int64_t p = row_map[v]; p < row_map[v + 1]; ++p) {
        const std::int64_t w = entries(p);
        if (!seen[w]) seen[w] = 1, neighbours.push_back(w);
      }
      std::stable_sort(neighbours.begin(), neighbours.end(),
                       [&](std::int64_t a, std::int64_t b) { return degree(a) < degree(b); });
      order.insert(order.end(), neighbours.begin(), neighbours.end());
    }
  }
  std::reverse(order.begin(), order.end());
  return order;
}

template <class Matrix>
RowOrder<typename Matrix::device_type, typename Matrix::offset_type> make_row_order(const Matrix& A,
                                                                                    RowReordering kind) {
  using Device = typename Matrix::device_type;
  using Offset = typename Matrix::offset_type;
  RowOrder<Device, Offset> out;
  if (kind == RowReordering::none || A.num_rows() == 0) return out;
  if (kind == RowReordering::rcm && A.num_rows() != A.num_cols())
    throw invalid_argument(detail::concat("spk::make_spmm_plan: rcm reordering needs a square matrix, A is ",
                                          A.num_rows(), " x ", A.num_cols(), "; use by-length"));
  const auto h_row_map = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.row_map());
  std::vector<std::int64_t> row_map(h_row_map.extent(0));
  for (std::size_t i = 0; i < row_map.size(); ++i) row_map[i] = static_cast<std::int64_t>(h_row_map(i));
  std::vector<std::int64_t> order;
  if (kind == RowReordering::rcm)
    order = order_rcm(row_map, Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.entries()));
  else
    order = order_by_length(row_map);
  const std::size_t rows = order.size();
  out.rows = Kokkos::View<std::int64_t*, Device>("spk::row_order", rows);
  out.offsets = Kokkos::View<Offset*, Device>("spk::row_order::offsets", rows + 1);
  const auto h_rows = Kokkos::create_mirror_view(out.rows);
  const auto h_offsets = Kokkos::create_mirror_view(out.offsets);
  h_offsets(0) = 0;
  for (std::size_t i = 0; i < rows; ++i) {
    h_rows(i) = order[i];
    h_offsets(i + 1) = static_cast<Offset>(h_offsets(i) + (row_map[order[i] + 1] - row_map[order[i]]));
  }
  Kokkos::deep_copy(out.rows, h_rows);
  Kokkos::deep_copy(out.offsets, h_offsets);
  return out;
}

}  // namespace spk::impl
