#pragma once
// Result rows and their output: the aligned table, the per-op summary, CSV and JSON.
#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "metrics.hpp"

namespace spk_bench {

// One algorithm a yardstick offers, as tried on one (matrix, op, precision, k).
struct Variant {
  std::string name;
  std::string status;  // ok, FAILED (wrong result), error (threw; e.g. unsupported), skipped
  std::string message;
  double time_ms = nan();  // median; SpGEMM: end to end
  double host_ms = nan();  // median host time of a call (Timing::host_samples_ms); SpMV and SpMM
  double rel_error = nan();
  double symbolic_ms = nan(), numeric_ms = nan(), reuse_ms = nan();  // SpGEMM only
  std::int64_t peak_bytes = -1;
};

struct Row {
  std::string matrix;
  std::int64_t rows = 0, cols = 0, nnz = 0;
  std::string op, precision;
  int offset_bits = 32;
  int k = 0;                 // SpMM width (0 otherwise)
  std::string layout;        // SpMM dense layout
  std::string algo;          // spk algorithm name, or the yardstick's name
  bool yardstick = false;
  std::string chosen;        // spk: what the plan ran (automatic's choice); yardstick: its best variant
  double time_ms = nan();    // median; SpGEMM: end to end (symbolic + numeric + allocation)
  double min_ms = nan(), max_ms = nan();
  double host_ms = nan();    // median host time of a call (Timing::host_samples_ms); not SpGEMM's
  double setup_ms = nan();   // spk plan setup (SpMV/SpMM)
  double features_ms = nan();  // of which the row-length statistics
  double gbs = nan(), pct_ceiling = nan(), gflops = nan();
  // SpGEMM only
  double symbolic_ms = nan(), numeric_ms = nan(), reuse_ms = nan();
  std::int64_t products = -1, c_nnz = -1, peak_bytes = -1, output_bytes = -1;
  std::string memory_method;
  std::map<std::string, double> speedup;  // yardstick -> yardstick best time / this time
  std::string check = "ok";  // ok, FAILED, error, skipped
  double rel_error = nan();
  std::string message;
  std::vector<Variant> variants;
};

struct RunInfo {
  std::string command_line;
  std::string device, backend, kokkos_version, kokkoskernels_version, vendor_versions;
  std::string tuning;  // the tuning tables the selectors read on this device
  double ceiling_gbs = 0;
  double ceiling_bytes = 0;
  std::string ceiling_method;
  int reps = 0, warmup = 0;
  bool interleave = false;  // SpMV and SpMM timed in rounds across the algorithms
  std::uint64_t seed = 0;
  int offset_bits = 32;
  std::string layout;
  std::vector<std::string> yardsticks;
  std::vector<std::string> notes;
  double wall_seconds = 0;
};

// Fills Row::speedup: for every spk row, each yardstick's best time on the same (matrix, op, precision, k) divided
// by the row's time.
void compute_speedups(std::vector<Row>& rows, const std::vector<std::string>& yardsticks);

void print_header(std::ostream& os, const RunInfo& info);
void print_table(std::ostream& os, const std::vector<Row>& rows, const std::vector<std::string>& yardsticks);
// Geometric-mean and minimum speedup of `automatic` against each yardstick, per op and precision.
void print_summary(std::ostream& os, const std::vector<Row>& rows, const std::vector<std::string>& yardsticks);

void write_csv(const std::string& path, const RunInfo& info, const std::vector<Row>& rows,
               const std::vector<std::string>& yardsticks);
void write_json(const std::string& path, const RunInfo& info, const std::vector<Row>& rows,
                const std::vector<std::string>& yardsticks);

}  // namespace spk_bench
