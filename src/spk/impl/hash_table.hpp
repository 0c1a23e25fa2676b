#pragma once
// Open-addressing hash set/map over a caller-provided slice of memory (team scratch or global), shared by the
// lanes of a GPU team through atomics (a host team's one thread inserts without them). Keys are column indices; an empty slot holds the largest ordinal, so a sorted
// table ends with its empty slots. The table size is a power of two no smaller than the number of distinct keys,
// so linear probing always terminates.
#include <Kokkos_Core.hpp>

#include "serial_sort.hpp"
#include "team_bitonic_sort.hpp"

namespace spk::impl {

template <class Ordinal>
struct HashSlots {
  static constexpr Ordinal empty = Kokkos::reduction_identity<Ordinal>::min();
  Ordinal* keys;
  int mask;  // size - 1

  KOKKOS_INLINE_FUNCTION static int first_slot(Ordinal key, int mask) {
    return static_cast<int>((static_cast<unsigned>(key) * 2654435761u) & static_cast<unsigned>(mask));
  }

  // Returns the slot holding key; sets inserted when this call claimed a fresh slot. `shared`: other lanes insert
  // concurrently (GPU teams); a host team is one thread and skips the atomics.
  template <bool shared = true>
  KOKKOS_INLINE_FUNCTION int insert(Ordinal key, bool& inserted) const {
    inserted = false;
    int h = first_slot(key, mask);
    while (true) {
      const Ordinal seen = keys[h];
      if (seen == key) return h;
      if (seen == empty) {
        if constexpr (!shared) {
          keys[h] = key;
          inserted = true;
          return h;
        }
        const Ordinal prior = Kokkos::atomic_compare_exchange(&keys[h], empty, key);
        if (prior == empty) {
          inserted = true;
          return h;
        }
        if (prior == key) return h;
      }
      h = (h + 1) & mask;
    }
  }

  // The slot holding key, which the table must hold.
  KOKKOS_INLINE_FUNCTION int find(Ordinal key) const {
    int h = first_slot(key, mask);
    while (keys[h] != key) h = (h + 1) & mask;
    return h;
  }
};

template <bool shared, class T>
KOKKOS_INLINE_FUNCTION void add_to(T* slot, T value) {
  if constexpr (shared)
    Kokkos::atomic_add(slot, value);
  else
    *slot += value;
}

// One thread's in-place sort of a table: occupied slots moved to the front, then sorted by key (insertion sort for
// the short rows, heapsort beyond). Returns the number of entries.
template <class Ordinal, class Scalar>
KOKKOS_INLINE_FUNCTION int compact_and_sort(Ordinal* keys, Scalar* vals, int slots) {
  int n = 0;
  for (int s = 0; s < slots; ++s)
    if (keys[s] != HashSlots<Ordinal>::empty) {
      keys[n] = keys[s];
      vals[n] = vals[s];
      ++n;
    }
  serial_sort(keys, n, [&](int i, int j) { swap_pairs(keys, vals, i, j); });
  return n;
}

// One thread writes a table's entries out as a row of C: sorted, or in slot order.
template <class Ordinal, class Scalar>
KOKKOS_INLINE_FUNCTION void write_table_row(Ordinal* keys, Scalar* vals, int slots, bool sorted, Ordinal* out_keys,
                                            Scalar* out_vals) {
  const int n = sorted ? compact_and_sort(keys, vals, slots) : slots;
  for (int s = 0, at = 0; s < n; ++s)
    if (keys[s] != HashSlots<Ordinal>::empty) {
      out_keys[at] = keys[s];
      out_vals[at] = vals[s];
      ++at;
    }
}

}  // namespace spk::impl
