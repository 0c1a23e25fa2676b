#pragma once
// Binary search over a row's columns, shared by SpGEMM's walks and SpMV's column windows.
#include <cstdint>

#include <Kokkos_Core.hpp>

namespace spk::impl {

// First position in entries[begin, end) holding a column >= col, the entries sorted. On unsorted entries it still
// ends in [begin, end], never earlier for a larger col (each probe's test only turns true as col grows).
template <class Entries, class Index>
KOKKOS_INLINE_FUNCTION Index lower_bound(const Entries& entries, Index begin, Index end, std::int64_t col) {
  while (begin < end) {
    const Index mid = begin + (end - begin) / 2;
    if (entries(mid) < col)
      begin = mid + 1;
    else
      end = mid;
  }
  return begin;
}

}  // namespace spk::impl
