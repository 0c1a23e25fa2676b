#pragma once
// In-place ascending bitonic sort of (key, value) pairs of power-of-two length n by all threads and lanes of a
// team (Batcher, "Sorting networks and their applications", 1968). Works on team scratch or global memory; the
// caller's data must be visible to the whole team on entry (team_barrier), and is again on exit.
#include <Kokkos_Core.hpp>

namespace spk::impl {

// Exchanges entries i and j of a (key, value) pair array; shared with the one-thread sort in hash_table.hpp.
template <class Key, class Value>
KOKKOS_INLINE_FUNCTION void swap_pairs(Key* keys, Value* values, int i, int j) {
  const Key k = keys[i];
  keys[i] = keys[j];
  keys[j] = k;
  const Value v = values[i];
  values[i] = values[j];
  values[j] = v;
}

template <class Member, class Key, class Value>
KOKKOS_INLINE_FUNCTION void team_bitonic_sort(const Member& team, Key* keys, Value* values, int n) {
  for (int size = 2; size <= n; size *= 2) {
    for (int stride = size / 2; stride > 0; stride /= 2) {
      Kokkos::parallel_for(Kokkos::TeamVectorRange(team, n), [&](const int i) {
        const int partner = i ^ stride;
        if (partner > i) {
          const bool ascending = (i & size) == 0;
          if ((keys[i] > keys[partner]) == ascending) swap_pairs(keys, values, i, partner);
        }
      });
      team.team_barrier();
    }
  }
}

}  // namespace spk::impl
