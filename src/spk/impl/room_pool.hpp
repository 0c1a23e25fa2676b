#pragma once
// The small index arrays that plans keep (row-block starts, split rows, long rows: compact_indices' one-pass rooms),
// reused from plan to plan in a process. On the H200 one cudaMalloc of Cornell5 fp64's 25 KiB room took 11-26 us in
// most plan builds and 76-242 us in others (not for its size: ogbl_ddi's 34 KiB took 11-21 us in every build), the
// whole plan 58-84 us without it: the misses of issue 3's plan target (perf/results/h200-cuda.md, "Plan cost and the
// first row of a matrix"). A room goes back to the pool when the last View of it goes (its plan destroyed); a
// process's first plans still allocate theirs.
#include <cstdint>
#include <mutex>
#include <vector>

#include <Kokkos_Core.hpp>

#include "device_memory.hpp"

namespace spk::impl {

// Rooms are kept in sizes of a power of two from 512 indices (4 KiB) up to this many (64 KiB), at most
// room_pool_rooms of them per memory space (1 MiB at most, whatever plans come and go); a new size replaces a free
// room of another once the pool is full.
inline constexpr std::int64_t room_pool_largest = std::int64_t{1} << 13;
inline constexpr std::size_t room_pool_rooms = 16;

inline std::int64_t room_pool_size(std::int64_t n) {
  std::int64_t size = 512;
  while (size < n) size *= 2;
  return size;
}

template <class Device>
class RoomPool {
 public:
  using Room = Kokkos::View<std::int64_t*, Device>;

  static RoomPool& instance() {
    static RoomPool* pool = new RoomPool;  // never destroyed: its rooms go at Kokkos's finalize (release_all)
    return *pool;
  }

  // A room of at least n indices (n <= room_pool_largest), uninitialized. A room is free when the pool holds its
  // only View; before handing one out again the whole device is fenced, as the cudaFree of a plan's array would have
  // been: its last plan's kernels may still run on another execution space instance.
  template <class Exec>
  Room take(std::int64_t n) {
    const std::int64_t size = room_pool_size(n);
    std::lock_guard<std::mutex> lock(mutex_);
    for (const Room& room : rooms_)
      if (static_cast<std::int64_t>(room.extent(0)) == size && room.use_count() == 1) {
        Kokkos::fence();
        return room;
      }
    const Room room(uninitialized<Exec>("spk::plan_room"), static_cast<std::size_t>(size));
    if (!hooked_) Kokkos::push_finalize_hook([this] { release_all(); });  // Views must go before finalize
    hooked_ = true;
    if (rooms_.size() < room_pool_rooms) {
      rooms_.push_back(room);
    } else {  // full: the room takes the place of a free one of another size, if there is one
      for (Room& kept : rooms_)
        if (kept.use_count() == 1) {
          kept = room;
          break;
        }
    }
    return room;
  }

  // Rooms the pool holds (in use or free), and whether one of them starts at data.
  std::size_t size() {
    std::lock_guard<std::mutex> lock(mutex_);
    return rooms_.size();
  }
  bool holds(const void* data) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const Room& room : rooms_)
      if (room.data() == data) return true;
    return false;
  }

 private:
  void release_all() {
    std::lock_guard<std::mutex> lock(mutex_);
    rooms_.clear();
    hooked_ = false;
  }

  std::mutex mutex_;
  std::vector<Room> rooms_;
  bool hooked_ = false;
};

}  // namespace spk::impl
