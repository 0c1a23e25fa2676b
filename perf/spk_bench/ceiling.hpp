#pragma once
// The bandwidth ceiling this run measures itself: a plain streaming read (a sum over a large array) on the default
// execution space, 2 GiB on GPUs and 256 MiB on host back-ends, median of several timed runs.
#include <string>

namespace spk_bench {

struct Ceiling {
  double gbs = 0;
  double bytes = 0;
  std::string method;  // how it was measured, for the header and the reports
};

// Call after Kokkos::initialize.
Ceiling measure_ceiling();

}  // namespace spk_bench
