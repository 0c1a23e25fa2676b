#pragma once
// spk-bench's command line, parsed (cli.cpp) into Options before Kokkos starts.
#include <cstdint>
#include <string>
#include <vector>

namespace spk_bench {

// One matrix to run: a Matrix Market file or a generator spec (the part after "gen:").
struct MatrixSource {
  std::string name;  // shown in the table: the file's stem, or the generator spec
  std::string path;  // file path; empty for generated matrices
  std::string spec;  // generator spec, e.g. "lap2d:1024"; empty for files
  bool optional = false;  // a suite's scan (real): an unreadable file is a note, not a failure
  bool generated() const { return !spec.empty(); }
};

struct Options {
  std::vector<std::string> ops;         // spmv, spmm, spgemm (in this order)
  std::vector<MatrixSource> matrices;   // --matrix entries, then the suite's
  std::string suite;                    // empty: none
  std::vector<std::string> spk_algorithms[3];  // per op (index of op_names), names as spk prints them
  std::vector<std::string> yardsticks;  // kokkoskernels, cusparse, rocsparse, graphblas, eigen
  std::vector<std::string> precisions;  // float, double
  int offset_bits = 32;
  std::vector<int> ks;                  // SpMM widths
  std::string layout = "right";         // SpMM dense layout
  int reps = 20;
  int warmup = 3;
  std::uint64_t seed = 1;
  std::string csv_path, json_path;
  std::string sweep_path;      // --sweep: tuning sweep of the one op, table written here
  std::string reorder = "none";  // SpMM row reordering on spk's plans
  std::string pack_columns = "automatic";  // SpMV 16-bit packed column indices on spk's plans
  std::string group_columns = "automatic";  // SpMV columns renumbered hubs first on spk's plans
  std::string spgemm_walk = "automatic";  // SpGEMM hash and dense teams' product walk on spk's plans
  std::string sweep_hip_path;  // --sweep-hip: the HIP starting table derived from the same sweep
  bool gather_bound = false;   // --gather-bound: SpMV's floor per matrix (gather_bound.hpp)
  bool interleave = false;     // --interleave: SpMV and SpMM calls timed in rounds (runner.hpp, time_interleaved)
  int streams = 0;             // --streams N (N >= 2): also N SpMV / SpMM calls at once on N instances (streams.hpp)
  std::int64_t check_memory_mib = 0;  // --check-memory: host memory the checks may hold (0: 40% of the host's)
  bool quiet = false;
  std::string command_line;             // as typed, for the reports
  std::vector<std::string> notes;       // what the suite skipped (missing files), printed in the header
};

inline const char* const op_names[3] = {"spmv", "spmm", "spgemm"};
inline int op_index(const std::string& op) {
  for (int i = 0; i < 3; ++i)
    if (op == op_names[i]) return i;
  return -1;
}

// Yardsticks compiled into this binary.
std::vector<std::string> available_yardsticks();

// Parses argv (Kokkos's own --kokkos-* arguments already removed). On a usage error prints CLI11's message and
// returns false with exit_code set; --help also returns false with exit_code 0.
bool parse_command_line(int argc, char** argv, Options& options, int& exit_code);

}  // namespace spk_bench
