#pragma once
// CsrMatrix: compressed sparse row storage over Kokkos Views, plus host/device mirroring and validate().
#include <cstdint>
#include <limits>
#include <type_traits>

#include <Kokkos_Core.hpp>

#include "error.hpp"

namespace spk {

// What validate() checks. The structural checks (offsets, column range) are cheap; sortedness is one more pass.
struct ValidateOptions {
  bool check_columns = true;  // every column index in [0, cols)
  bool check_sorted = true;   // columns strictly increasing within each row (sorted and duplicate-free)
};

// Space is a Kokkos memory space or a Kokkos::Device<ExecSpace, MemorySpace>; kernels run on its execution space.
template <class Scalar, class Ordinal = std::int32_t, class Offset = std::int32_t,
          class Space = typename Kokkos::DefaultExecutionSpace::memory_space>
class CsrMatrix {
  static_assert(std::is_floating_point_v<Scalar>, "spk::CsrMatrix: Scalar must be float or double");
  static_assert(std::is_same_v<Ordinal, std::int32_t>, "spk::CsrMatrix: Ordinal must be int32");
  static_assert(std::is_same_v<Offset, std::int32_t> || std::is_same_v<Offset, std::int64_t>,
                "spk::CsrMatrix: Offset must be int32 or int64");

 public:
  using scalar_type = Scalar;
  using ordinal_type = Ordinal;
  using offset_type = Offset;
  using row_map_type = Kokkos::View<Offset*, Space>;
  using entries_type = Kokkos::View<Ordinal*, Space>;
  using values_type = Kokkos::View<Scalar*, Space>;
  using memory_space = typename values_type::memory_space;
  using execution_space = typename values_type::execution_space;
  using device_type = typename values_type::device_type;

  CsrMatrix() : row_map_("spk::row_map", 1) {}

  // Takes the three arrays as they are; the constructor checks their lengths against each other, validate() checks
  // their contents.
  CsrMatrix(Ordinal rows, Ordinal cols, row_map_type row_map, entries_type entries, values_type values)
      : rows_(rows), cols_(cols), row_map_(row_map), entries_(entries), values_(values) {
    if (rows < 0 || cols < 0)
      throw invalid_argument(detail::concat("spk::CsrMatrix: dimensions must be non-negative, got ", rows, " x ",
                                            cols));
    if (row_map.extent(0) != static_cast<std::size_t>(rows) + 1)
      throw invalid_argument(detail::concat("spk::CsrMatrix: row_map has ", row_map.extent(0),
                                            " entries, expected rows + 1 = ", static_cast<std::int64_t>(rows) + 1));
    if (entries.extent(0) != values.extent(0))
      throw invalid_argument(detail::concat("spk::CsrMatrix: entries has ", entries.extent(0),
                                            " elements but values has ", values.extent(0)));
    if (entries.extent(0) > static_cast<std::size_t>(std::numeric_limits<Offset>::max()))
      throw invalid_argument(detail::concat("spk::CsrMatrix: ", entries.extent(0),
                                            " nonzeros overflow the offset type (max ",
                                            std::numeric_limits<Offset>::max(), "); use int64 offsets"));
  }

  Ordinal num_rows() const { return rows_; }
  Ordinal num_cols() const { return cols_; }
  Offset nnz() const { return static_cast<Offset>(entries_.extent(0)); }
  const row_map_type& row_map() const { return row_map_; }
  const entries_type& entries() const { return entries_; }
  const values_type& values() const { return values_; }

  // Throws spk::invalid_argument naming the first offending row and value. Runs on the matrix's execution space.
  void validate(const ValidateOptions& options = {}) const;

 private:
  Ordinal rows_ = 0;
  Ordinal cols_ = 0;
  row_map_type row_map_;
  entries_type entries_;
  values_type values_;
};

template <class Scalar, class Ordinal = std::int32_t, class Offset = std::int32_t>
using HostCsrMatrix = CsrMatrix<Scalar, Ordinal, Offset, Kokkos::HostSpace>;

template <class T>
struct is_csr_matrix : std::false_type {};
template <class S, class O, class Off, class Sp>
struct is_csr_matrix<CsrMatrix<S, O, Off, Sp>> : std::true_type {};

// Deep copy of A into Space (a memory space or Kokkos::Device); a no-op share when the spaces are the same type.
template <class Space, class S, class O, class Off, class From>
CsrMatrix<S, O, Off, Space> copy_to(const CsrMatrix<S, O, Off, From>& A) {
  using Out = CsrMatrix<S, O, Off, Space>;
  if constexpr (std::is_same_v<Space, From>) {
    return A;
  } else {
    typename Out::row_map_type row_map(Kokkos::view_alloc(Kokkos::WithoutInitializing, "spk::row_map"),
                                       A.row_map().extent(0));
    typename Out::entries_type entries(Kokkos::view_alloc(Kokkos::WithoutInitializing, "spk::entries"),
                                       A.entries().extent(0));
    typename Out::values_type values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "spk::values"),
                                     A.values().extent(0));
    Kokkos::deep_copy(row_map, A.row_map());
    Kokkos::deep_copy(entries, A.entries());
    Kokkos::deep_copy(values, A.values());
    return Out(A.num_rows(), A.num_cols(), row_map, entries, values);
  }
}

template <class S, class O, class Off, class From>
HostCsrMatrix<S, O, Off> to_host(const CsrMatrix<S, O, Off, From>& A) {
  return copy_to<Kokkos::HostSpace>(A);
}

}  // namespace spk

#include "csr_validate.hpp"
