#pragma once
// Open-addressing hash set/map over a caller-provided slice of memory (team scratch or global), shared by the
// lanes of a team through atomics. Keys are column indices; an empty slot holds -1. The table size is a power of
// two no smaller than the number of distinct keys, so linear probing always terminates.
#include <Kokkos_Core.hpp>

namespace spk::impl {

template <class Ordinal>
struct HashSlots {
  static constexpr Ordinal empty = -1;
  Ordinal* keys;
  int mask;  // size - 1

  // Returns the slot holding key; sets inserted when this call claimed a fresh slot.
  KOKKOS_INLINE_FUNCTION int insert(Ordinal key, bool& inserted) const {
    inserted = false;
    int h = static_cast<int>((static_cast<unsigned>(key) * 2654435761u) & static_cast<unsigned>(mask));
    while (true) {
      const Ordinal seen = keys[h];
      if (seen == key) return h;
      if (seen == empty) {
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
};

}  // namespace spk::impl
