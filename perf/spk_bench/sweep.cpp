#include "sweep.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <tuple>

namespace spk_bench {
namespace {

std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// SpMM keeps a row's column tile as wide as it was: a full warp with 2+ columns per lane becomes a full wavefront
// with half as many; a warp with one column per lane stays 32 lanes (64 would idle half of them at k = 32).
spk::LaunchShape to_wavefront64(spk::LaunchShape s, bool spmm) {
  int threads = s.team_size * s.vector_length;
  if (s.vector_length == 32 && (!spmm || s.columns_per_lane >= 2)) {
    s.vector_length = 64;
    if (spmm) s.columns_per_lane /= 2;
    if (!spmm) threads *= 2;  // SpMV keeps its rows per team
  }
  threads = std::max(64, threads);
  s.team_size = std::max(1, std::min(1024, threads) / s.vector_length);
  return s;
}

std::string shape_initializer(const spk::LaunchShape& s) {
  std::string out = "{" + std::to_string(s.team_size) + ", " + std::to_string(s.vector_length) + ", " +
                    std::to_string(s.rows_per_thread) + ", " + std::to_string(s.stage_capacity) + ", " +
                    std::to_string(s.chunk) + ", " + std::to_string(s.long_row);
  const bool stream_options = s.pipelined || s.balanced || s.windowed;
  if (s.columns_per_lane != 1 || s.tile_width || stream_options) out += ", " + std::to_string(s.columns_per_lane);
  if (s.tile_width || stream_options) out += ", " + std::to_string(s.tile_width);
  if (stream_options) out += s.pipelined ? ", true" : ", false";
  if (s.balanced || s.windowed) out += s.balanced ? ", true" : ", false";
  if (s.windowed) out += ", true";
  return out + "}";
}

// op: "SpMV" or "SpMM"; the table's rows are keyed by (matrix, precision) for SpMV and (matrix, precision, k) for
// SpMM.
void write_tuning_table(const std::string& path, const RunInfo& info, const std::vector<SweepRecord>& records,
                        bool wavefront64, bool spmm) {
  const std::string table = std::filesystem::path(path).stem().string();  // e.g. spmv_cuda, spmm_openmp
  std::map<std::tuple<std::string, int, int>, const SweepRecord*> best;
  for (const auto& r : records) {
    auto& b = best[{r.matrix, r.scalar_bytes, r.k}];
    if (!b || r.time_ms < b->time_ms) b = &r;
  }
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write the tuning table " + path);
  const std::string op = spmm ? "SpMM" : "SpMV", entry = spmm ? "SpmmTuningEntry" : "SpmvTuningEntry";
  const std::string header = spmm ? "spmm_tuning_entry.hpp" : "spmv_tuning_entry.hpp";
  out << "#pragma once\n// spk " << op << " tuning table '" << table << "': the fastest algorithm and launch shape per "
      << "swept\n// matrix, precision" << (spmm ? " and k" : "") << ". Written by spk-bench --sweep; regenerate "
      << "rather than edit.\n// command: " << info.command_line << "\n// device: " << info.device
      << "; back-end: " << info.backend << " (Kokkos " << info.kokkos_version << "); ceiling "
      << number(info.ceiling_gbs) << " GB/s\n";
  if (wavefront64)
    out << "// HIP starting table: derived from the measurements above with a full warp (32) widened to a full\n"
        << "// wavefront (64) and teams of at least 64 threads"
        << (spmm ? " (SpMM: columns per lane halved, so a row's\n// column tile keeps its width; one column per lane "
                   "stays 32 lanes)"
                 : "")
        << "; not measured on an AMD GPU" << (spmm ? "" : " (nor is packing: no entry packs column indices)")
        << ".\n";
  out << "#include <spk/select/" << header << ">\n\nnamespace spk::tuning {\n\n"
      << "// matrix, scalar bytes, " << (spmm ? "k, " : "") << "rows, mean, stddev, max row length, algorithm,\n"
      << "// {team, vector, rows/thread, stage, chunk, long row"
      << (spmm ? "[, columns/lane[, tile]]"
                  : "[, 1, 0, pipelined stage[, balanced row sums[, true: column windows]]]") << "}, "
      << (spmm ? "GFLOP/s in the sweep\n" : "GB/s in the sweep[, true: it read packed column indices]\n")
      << "inline constexpr " << entry << " " << table << "[] = {\n";
  for (const auto& [key, r] : best) {
    const spk::LaunchShape s = wavefront64 ? to_wavefront64(r->shape, spmm) : r->shape;
    out << "    {\"" << r->matrix << "\", " << r->scalar_bytes << ", ";
    if (spmm) out << r->k << ", ";
    out << r->stats.rows << ", " << number(r->stats.mean_length) << ", " << number(r->stats.stddev_length) << ", "
        << r->stats.max_length << ", " << r->algorithm << ", " << shape_initializer(s) << ", " << number(r->rate)
        << (r->packed_columns && !wavefront64 ? ", true" : "") << "},\n";  // packing is unmeasured on AMD
  }
  out << "    {},  // end of table\n};\n\n}  // namespace spk::tuning\n";
  if (!out) throw std::runtime_error("cannot write the tuning table " + path);
}

}  // namespace

void write_spmv_tuning_table(const std::string& path, const RunInfo& info, const std::vector<SweepRecord>& records,
                             bool wavefront64) {
  write_tuning_table(path, info, records, wavefront64, false);
}

void write_spmm_tuning_table(const std::string& path, const RunInfo& info, const std::vector<SweepRecord>& records,
                             bool wavefront64) {
  write_tuning_table(path, info, records, wavefront64, true);
}

}  // namespace spk_bench
