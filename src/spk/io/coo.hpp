#pragma once
// Coordinate (COO) triplets to CSR with duplicates summed. Used by the Matrix Market reader and the R-MAT generator
// on ~100M entries, so it avoids per-entry allocations and releases each array as soon as it has been consumed.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../csr_matrix.hpp"
#include "../error.hpp"

namespace spk::io {

namespace detail {

template <class Offset>
void check_nnz_fits(std::int64_t nnz, const std::string& source) {
  if (nnz > static_cast<std::int64_t>(std::numeric_limits<Offset>::max()))
    throw invalid_argument(spk::detail::concat(source, ": ", nnz, " nonzeros overflow the ", 8 * sizeof(Offset),
                                               "-bit offset type (max ", std::numeric_limits<Offset>::max(),
                                               "); use int64 offsets"));
}

// Allocates the three CSR arrays of a host matrix without initialising them.
template <class Scalar, class Ordinal, class Offset>
struct HostCsrArrays {
  using Matrix = HostCsrMatrix<Scalar, Ordinal, Offset>;
  typename Matrix::row_map_type row_map;
  typename Matrix::entries_type entries;
  typename Matrix::values_type values;

  HostCsrArrays(std::int64_t rows, std::int64_t nnz)
      : row_map(Kokkos::view_alloc(Kokkos::WithoutInitializing, "spk::row_map"), static_cast<std::size_t>(rows + 1)),
        entries(Kokkos::view_alloc(Kokkos::WithoutInitializing, "spk::entries"), static_cast<std::size_t>(nnz)),
        values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "spk::values"), static_cast<std::size_t>(nnz)) {}

  Matrix finish(std::int64_t rows, std::int64_t cols) const {
    return Matrix(static_cast<Ordinal>(rows), static_cast<Ordinal>(cols), row_map, entries, values);
  }
};

template <class Scalar>
const char* scalar_name() {
  return std::is_same_v<Scalar, float> ? "float" : std::is_same_v<Scalar, double> ? "double" : "the scalar type";
}

// Whether v rounds to a finite Scalar: in float, below its largest value plus half an ulp (a tie rounds up, to even).
template <class Scalar>
bool rounds_to_finite(double v) {
  if constexpr (std::is_same_v<Scalar, float>) {
    constexpr int e = std::numeric_limits<float>::max_exponent, d = std::numeric_limits<float>::digits;
    return std::abs(v) < std::ldexp(1.0, e) - std::ldexp(1.0, e - d - 1);
  } else {
    return std::isfinite(v);
  }
}

template <class T>
void release(std::vector<T>& v) {
  std::vector<T>().swap(v);
}

// Bits needed for the indices [0, extent).
inline int index_bits(std::int64_t extent) {
  int bits = 0;
  while ((std::int64_t{1} << bits) < extent) ++bits;
  return bits;
}

// Stable LSD radix sort by the low key_bits bits of key_of(record). Digits of at most 11 bits keep each scatter
// pass's write positions in cache; sorted input and passes whose digit is the same for every record are skipped.
template <class Record, class KeyOf>
void radix_sort(std::vector<Record>& records, int key_bits, KeyOf key_of) {
  const auto by_key = [&](const Record& x, const Record& y) { return key_of(x) < key_of(y); };
  const int passes = (key_bits + 10) / 11;
  if (passes == 0 || std::is_sorted(records.begin(), records.end(), by_key)) return;  // e.g. files we wrote
  const int digit_bits = (key_bits + passes - 1) / passes;
  const std::size_t buckets = std::size_t{1} << digit_bits;
  const std::uint64_t mask = buckets - 1;
  std::vector<std::size_t> count(static_cast<std::size_t>(passes) * buckets, 0);
  for (const Record& r : records)
    for (int p = 0; p < passes; ++p)
      ++count[static_cast<std::size_t>(p) * buckets + (key_of(r) >> (p * digit_bits) & mask)];
  std::vector<Record> scratch;
  for (int p = 0; p < passes; ++p) {
    std::size_t* next = count.data() + static_cast<std::size_t>(p) * buckets;
    const int shift = p * digit_bits;
    if (next[key_of(records[0]) >> shift & mask] == records.size()) continue;
    for (std::size_t d = 0, sum = 0; d < buckets; ++d) sum += std::exchange(next[d], sum);
    scratch.resize(records.size());
    for (const Record& r : records) scratch[next[key_of(r) >> shift & mask]++] = r;
    records.swap(scratch);
  }
}

// CSR from records sorted by key = row << col_bits | column. Each run of equal keys becomes one entry whose value
// is run_value(first, last). With finite_only (every input value finite), an entry that is not finite in Scalar
// throws: a value beyond Scalar's range (1e39 in float) or duplicates whose sum overflows would otherwise become an
// infinity that no kernel's result can be checked against.
template <class Scalar, class Ordinal, class Offset, class Record, class KeyOf, class RunValue>
HostCsrMatrix<Scalar, Ordinal, Offset> sorted_to_csr(std::int64_t rows, std::int64_t cols, int col_bits,
                                                     const std::vector<Record>& sorted, KeyOf key_of,
                                                     RunValue run_value, const std::string& source,
                                                     bool finite_only = false) {
  const std::size_t n = sorted.size();
  std::int64_t nnz = 0;
  for (std::size_t k = 0; k < n; ++k) nnz += k == 0 || key_of(sorted[k]) != key_of(sorted[k - 1]);
  check_nnz_fits<Offset>(nnz, source);

  HostCsrArrays<Scalar, Ordinal, Offset> csr(rows, nnz);
  Offset* row_map = csr.row_map.data();
  Ordinal* entries = csr.entries.data();
  Scalar* values = csr.values.data();
  const std::uint64_t col_mask = (std::uint64_t{1} << col_bits) - 1;
  std::int64_t row = 0;  // row_map[0..row] are set
  Offset out = 0;
  row_map[0] = 0;
  for (std::size_t k = 0; k < n;) {
    const std::uint64_t key = key_of(sorted[k]);
    const std::size_t first = k;
    while (k < n && key_of(sorted[k]) == key) ++k;
    for (const auto r = static_cast<std::int64_t>(key >> col_bits); row < r;) row_map[++row] = out;
    entries[out] = static_cast<Ordinal>(key & col_mask);
    const double sum = run_value(sorted.data() + first, sorted.data() + k);
    if (finite_only && !rounds_to_finite<Scalar>(sum))
      throw invalid_argument(spk::detail::concat(
          source, ": the entry at row ", key >> col_bits, ", column ", key & col_mask, " (0-based) is ", sum,
          k - first > 1 ? spk::detail::concat(" (", k - first, " duplicates summed)") : std::string(),
          ", outside the range of ", scalar_name<Scalar>(), " (largest finite ",
          static_cast<double>(std::numeric_limits<Scalar>::max()), ")"));
    values[out++] = static_cast<Scalar>(sum);
  }
  while (row < rows) row_map[++row] = out;
  return csr.finish(rows, cols);
}

}  // namespace detail

// Sorts (row, column) keys with a stable radix sort, then sums runs of equal keys: O(nnz) for any row-length
// distribution, and duplicates are summed in input order (the result does not depend on the platform).
template <class Scalar, class Ordinal = std::int32_t, class Offset = std::int32_t>
HostCsrMatrix<Scalar, Ordinal, Offset> coo_to_csr(std::int64_t rows, std::int64_t cols, std::vector<Ordinal> row_idx,
                                                  std::vector<Ordinal> col_idx, std::vector<double> vals,
                                                  const std::string& source = "coo_to_csr") {
  using spk::detail::concat;
  constexpr std::int64_t max_ordinal = std::numeric_limits<Ordinal>::max();
  if (rows < 0 || cols < 0 || rows > max_ordinal || cols > max_ordinal)
    throw invalid_argument(concat(source, ": dimensions ", rows, " x ", cols, " must be in [0, ", max_ordinal, "]"));
  if (row_idx.size() != col_idx.size() || row_idx.size() != vals.size())
    throw invalid_argument(concat(source, ": row_idx, col_idx and vals must have the same length, got ", row_idx.size(),
                                  ", ", col_idx.size(), " and ", vals.size()));
  struct Entry {
    std::uint64_t key;  // row << col_bits | column
    double val;
  };
  const int col_bits = detail::index_bits(cols);
  std::vector<Entry> entries(row_idx.size());
  bool finite = true;  // the caller's own NaNs and infinities pass through; a finite input never becomes one
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const Ordinal r = row_idx[k], c = col_idx[k];
    if (r < 0 || r >= rows || c < 0 || c >= cols)
      throw invalid_argument(concat(source, ": entry ", k, " is (", r, ", ", c, "), expected 0 <= row < ", rows,
                                    " and 0 <= column < ", cols));
    entries[k] = {static_cast<std::uint64_t>(r) << col_bits | static_cast<std::uint64_t>(c), vals[k]};
    finite = finite && std::isfinite(vals[k]);
  }
  detail::release(row_idx);
  detail::release(col_idx);
  detail::release(vals);
  const auto key_of = [](const Entry& e) { return e.key; };
  detail::radix_sort(entries, detail::index_bits(rows) + col_bits, key_of);
  return detail::sorted_to_csr<Scalar, Ordinal, Offset>(
      rows, cols, col_bits, entries, key_of,
      [](const Entry* first, const Entry* last) {
        double sum = 0;
        for (; first != last; ++first) sum += first->val;
        return sum;
      },
      source, finite);
}

}  // namespace spk::io
