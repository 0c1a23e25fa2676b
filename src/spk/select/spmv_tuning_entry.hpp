#pragma once
// One row of an SpMV tuning table (backends/tuning/spmv_<backend>.hpp, written by `spk-bench --sweep`): the
// features of a swept matrix and the algorithm and launch shape that were fastest on it.
#include <cstdint>

#include "../algorithms.hpp"
#include "../launch_shape.hpp"

namespace spk::tuning {

struct SpmvTuningEntry {
  const char* matrix = nullptr;  // the swept matrix; nullptr ends a table
  int scalar_bytes = 0;          // 4 (float) or 8 (double)
  double rows = 0, mean = 0, stddev = 0, max = 0;  // its row-length features
  SpmvAlgorithm algorithm = SpmvAlgorithm::automatic;
  LaunchShape shape;
  double gbs = 0;  // what it reached in the sweep (documentation only)
  bool packed_columns = false;  // the winner read 16-bit packed column indices (impl/packed_columns.hpp)
};

}  // namespace spk::tuning
