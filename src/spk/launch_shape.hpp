#pragma once
// LaunchShape: how a TeamPolicy kernel is laid out. Selectors fill it in; options can override parts of it.
#include <cstdint>
#include <string>

#include "error.hpp"
#include "execution.hpp"

namespace spk {

struct LaunchShape {
  int team_size = 1;        // threads per team (1 on host back-ends)
  int vector_length = 1;    // vector lanes per thread (1 on host back-ends)
  int rows_per_thread = 1;  // consecutive rows one thread handles (host back-ends batch rows to cut team overhead)
  int stage_capacity = 0;   // nonzeros a team may stage through scratch; 0 disables staging
  int chunk = 0;            // flat: merge-path items (rows + nonzeros) per team (SpMV) or per thread (SpMM);
                            // long-row-split: nonzeros per piece; SpMV stream: nonzeros per piece of a row longer
                            // than the stage (0: a team per such row)
  int long_row = 0;         // long-row-split: rows longer than this are split across teams
  int columns_per_lane = 1; // SpMM: dense columns each vector lane accumulates in registers
  int tile_width = 0;       // SpMM row-pieces: columns of C per team (0: the lanes k needs x columns per lane)
  bool pipelined = false;   // SpMV stream: a lane loads its next nonzeros of A while it gathers x for these
  bool balanced = false;    // SpMV stream: staged rows summed in equal shares of rows and nonzeros a lane
  bool windowed = false;    // SpMV stream with a chunk: long rows cut at shared column windows, a team summing one
                            // window of team_size rows (impl/long_row_windows.hpp)

  std::int64_t rows_per_team() const { return static_cast<std::int64_t>(team_size) * rows_per_thread; }
  friend bool operator==(const LaunchShape& a, const LaunchShape& b) {
    return a.team_size == b.team_size && a.vector_length == b.vector_length &&
           a.rows_per_thread == b.rows_per_thread && a.stage_capacity == b.stage_capacity && a.chunk == b.chunk &&
           a.long_row == b.long_row && a.columns_per_lane == b.columns_per_lane && a.tile_width == b.tile_width &&
           a.pipelined == b.pipelined && a.balanced == b.balanced && a.windowed == b.windowed;
  }
};

inline std::string describe(const LaunchShape& s) {
  std::string out = detail::concat("team ", s.team_size, " x vector ", s.vector_length);
  if (s.rows_per_thread != 1) out += detail::concat(", ", s.rows_per_thread, " rows/thread");
  if (s.stage_capacity) out += detail::concat(", stage ", s.stage_capacity);
  if (s.chunk) out += detail::concat(", chunk ", s.chunk);
  if (s.long_row) out += detail::concat(", long row > ", s.long_row);
  if (s.columns_per_lane != 1) out += detail::concat(", ", s.columns_per_lane, " columns/lane");
  if (s.tile_width) out += detail::concat(", tile ", s.tile_width);
  if (s.pipelined) out += ", pipelined";
  if (s.balanced) out += ", balanced rows";
  if (s.windowed) out += ", column windows";
  return out;
}

// The options' overrides (0: keep the selector's value). A forced vector length alone keeps the team's thread count
// (a 64 x 4 team forced to 32 lanes becomes 8 x 32), so a tuned team never grows past what a block may hold.
inline void apply_overrides(LaunchShape& s, int vector_length, int team_size) {
  if (vector_length > 0) {
    const int threads = s.team_size * s.vector_length;
    s.vector_length = vector_length;
    if (team_size <= 0) s.team_size = threads / vector_length > 0 ? threads / vector_length : 1;
  }
  if (team_size > 0) s.team_size = team_size;
}

// Throws unless the shape can launch on ExecSpace (used for shapes a caller forces).
template <class ExecSpace>
void check_launch_shape(const LaunchShape& s, const char* who) {
  const int max_v = max_vector_length<ExecSpace>();
  if (s.vector_length < 1 || s.vector_length > max_v || (s.vector_length & (s.vector_length - 1)) != 0)
    throw invalid_argument(detail::concat(who, ": vector length ", s.vector_length,
                                          " is invalid, expected a power of two in [1, ", max_v, "]"));
  const int max_threads = is_host_space<ExecSpace>() ? 1 : 1024;
  if (s.team_size < 1 || s.team_size * s.vector_length > max_threads)
    throw invalid_argument(detail::concat(who, ": team size ", s.team_size, " x vector length ", s.vector_length,
                                          " is invalid, expected team size >= 1 and a product <= ", max_threads));
  if (s.rows_per_thread < 1 || s.stage_capacity < 0 || s.chunk < 0 || s.long_row < 0 || s.tile_width < 0)
    throw invalid_argument(detail::concat(who, ": rows per thread ", s.rows_per_thread, " must be >= 1 and stage ",
                                          s.stage_capacity, ", chunk ", s.chunk, ", long row ", s.long_row,
                                          ", tile width ", s.tile_width, " must be >= 0"));
}

}  // namespace spk
