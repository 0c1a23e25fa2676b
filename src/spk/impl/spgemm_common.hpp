#pragma once
// What every SpGEMM path shares: the operand views and the list of rows a path was given. Every path follows
// Gustavson's row-by-row formulation: row i of C is the sum over a_ij of a_ij * row j of B.
#include <cstdint>

#include <Kokkos_Core.hpp>

namespace spk::impl {

// The views a path kernel reads and writes. Symbolic: c_map(row) receives row's distinct-column count. Numeric: C's
// row is written at c_entries / c_values from c_map(row).
template <class MatA, class MatB>
struct SpgemmViews {
  using scalar_type = typename MatA::scalar_type;
  using ordinal_type = typename MatA::ordinal_type;
  using offset_type = typename MatA::offset_type;
  using b_offset_type = typename MatB::offset_type;
  using execution_space = typename MatA::execution_space;
  using device_type = typename MatA::device_type;

  typename MatA::row_map_type a_map;
  typename MatA::entries_type a_ent;
  typename MatA::values_type a_val;
  typename MatB::row_map_type b_map;
  typename MatB::entries_type b_ent;
  typename MatB::values_type b_val;
  typename MatA::row_map_type c_map;
  typename MatA::entries_type c_ent;  // empty in the symbolic phase
  typename MatA::values_type c_val;

  SpgemmViews(const MatA& A, const MatB& B, const typename MatA::row_map_type& c_map_,
              const typename MatA::entries_type& c_ent_ = {}, const typename MatA::values_type& c_val_ = {})
      : a_map(A.row_map()), a_ent(A.entries()), a_val(A.values()), b_map(B.row_map()), b_ent(B.entries()),
        b_val(B.values()), c_map(c_map_), c_ent(c_ent_), c_val(c_val_) {}
};

// The rows one launch handles: rows(begin .. begin + count) of a binned row list.
template <class Space>
struct RowSlice {
  Kokkos::View<int*, Space, Kokkos::MemoryUnmanaged> rows;  // held by the plan's arena
  std::int64_t begin = 0, count = 0;
  KOKKOS_INLINE_FUNCTION int operator()(std::int64_t i) const { return rows(begin + i); }
};

}  // namespace spk::impl
