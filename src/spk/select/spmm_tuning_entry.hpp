#pragma once
// One row of an SpMM tuning table (backends/tuning/spmm_<backend>.hpp, written by `spk-bench --sweep` with
// --op spmm): the features of a swept matrix, the dense width k, and the algorithm and launch shape (lanes per
// row, columns per lane, team size, stage capacity or chunk) that were fastest there.
#include "../algorithms.hpp"
#include "../launch_shape.hpp"

namespace spk::tuning {

struct SpmmTuningEntry {
  const char* matrix = nullptr;  // the swept matrix; nullptr ends a table
  int scalar_bytes = 0;          // 4 (float) or 8 (double)
  int k = 0;                     // dense columns
  double rows = 0, mean = 0, stddev = 0, max = 0;  // its row-length features
  SpmmAlgorithm algorithm = SpmmAlgorithm::automatic;
  LaunchShape shape;
  double gflops = 0;  // what it reached in the sweep (documentation only)
};

}  // namespace spk::tuning
