#pragma once
// CsrMatrix::validate(): finds the first bad row on the device, then diagnoses that row on the host.
#include <limits>
#include <vector>

#include "csr_matrix.hpp"

namespace spk {

namespace detail {

template <class View>
typename View::non_const_value_type read_element(const View& v, std::size_t i) {
  typename View::non_const_value_type out;
  Kokkos::deep_copy(out, Kokkos::subview(v, i));
  return out;
}

// Smallest row index for which bad(row) is true, or rows when none is.
template <class ExecSpace, class Pred>
std::int64_t first_row_where(std::int64_t rows, const Pred& bad) {
  std::int64_t first = rows;
  Kokkos::parallel_reduce(
      "spk::validate", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(0, rows),
      KOKKOS_LAMBDA(const std::int64_t row, std::int64_t& lowest) {
        if (row < lowest && bad(row)) lowest = row;
      },
      Kokkos::Min<std::int64_t>(first));
  return first < rows ? first : rows;  // the reducer starts from its identity (INT64_MAX), not from first
}

}  // namespace detail

template <class Scalar, class Ordinal, class Offset, class Space>
void CsrMatrix<Scalar, Ordinal, Offset, Space>::validate(const ValidateOptions& options) const {
  using exec = execution_space;
  const std::int64_t rows = rows_;
  const std::int64_t nnz = static_cast<std::int64_t>(entries_.extent(0));
  const Offset first_offset = detail::read_element(row_map_, 0);
  if (first_offset != 0)
    throw invalid_argument(detail::concat("spk::CsrMatrix::validate: row_map[0] is ", first_offset, ", expected 0"));
  const Offset last_offset = detail::read_element(row_map_, rows);
  if (last_offset != nnz)
    throw invalid_argument(detail::concat("spk::CsrMatrix::validate: row_map[", rows, "] is ", last_offset,
                                          ", expected the number of stored entries ", nnz));

  const auto row_map = row_map_;
  const std::int64_t bad_offsets =
      detail::first_row_where<exec>(rows, KOKKOS_LAMBDA(std::int64_t row) { return row_map(row + 1) < row_map(row); });
  if (bad_offsets < rows)
    throw invalid_argument(detail::concat("spk::CsrMatrix::validate: row_map is not monotone at row ", bad_offsets,
                                          ": row_map[", bad_offsets, "] = ", detail::read_element(row_map_, bad_offsets),
                                          " > row_map[", bad_offsets + 1,
                                          "] = ", detail::read_element(row_map_, bad_offsets + 1)));
  if (!options.check_columns && !options.check_sorted) return;

  const auto entries = entries_;
  const Ordinal cols = cols_;
  const bool check_columns = options.check_columns, check_sorted = options.check_sorted;
  const std::int64_t bad_row = detail::first_row_where<exec>(rows, KOKKOS_LAMBDA(std::int64_t row) {
    for (Offset k = row_map(row); k < row_map(row + 1); ++k) {
      const Ordinal c = entries(k);
      if (check_columns && (c < 0 || c >= cols)) return true;
      if (check_sorted && k + 1 < row_map(row + 1) && entries(k + 1) <= c) return true;
    }
    return false;
  });
  if (bad_row == rows) return;

  // Diagnose the first bad row on the host.
  const Offset begin = detail::read_element(row_map_, bad_row), end = detail::read_element(row_map_, bad_row + 1);
  std::vector<Ordinal> row(static_cast<std::size_t>(end - begin));
  Kokkos::deep_copy(Kokkos::View<Ordinal*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(row.data(), row.size()),
                    Kokkos::subview(entries_, Kokkos::make_pair(begin, end)));
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (check_columns && (row[i] < 0 || row[i] >= cols))
      throw invalid_argument(detail::concat("spk::CsrMatrix::validate: row ", bad_row, " entry ", i,
                                            " has column index ", row[i], ", expected 0 <= column < ", cols));
    if (check_sorted && i + 1 < row.size() && row[i + 1] <= row[i])
      throw invalid_argument(detail::concat("spk::CsrMatrix::validate: row ", bad_row, " is ",
                                            row[i + 1] == row[i] ? "not duplicate-free" : "not sorted",
                                            ": column ", row[i + 1], " at entry ", i + 1, " follows column ", row[i],
                                            ", expected strictly increasing columns"));
  }
}

}  // namespace spk
