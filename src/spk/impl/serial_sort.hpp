#pragma once
// One thread's in-place ascending sort by key, usable in device code: insertion sort for short runs, heapsort
// beyond (no recursion, no extra memory). swap(i, j) exchanges entries i and j, so values can travel with keys.
#include <Kokkos_Core.hpp>

namespace spk::impl {

template <class Key, class Swap>
KOKKOS_INLINE_FUNCTION void serial_sort(const Key* keys, int n, const Swap& swap) {
  if (n <= 32) {
    for (int i = 1; i < n; ++i)
      for (int k = i; k > 0 && keys[k - 1] > keys[k]; --k) swap(k - 1, k);
    return;
  }
  const auto sift = [&](int root, int end) {
    while (2 * root + 1 < end) {
      int child = 2 * root + 1;
      if (child + 1 < end && keys[child] < keys[child + 1]) ++child;
      if (keys[root] >= keys[child]) return;
      swap(root, child);
      root = child;
    }
  };
  for (int i = n / 2 - 1; i >= 0; --i) sift(i, n);
  for (int end = n - 1; end > 0; --end) {
    swap(0, end);
    sift(0, end);
  }
}

}  // namespace spk::impl
