#include "sweep.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

namespace spk_bench {
namespace {

std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string enum_name(spk::SpmvAlgorithm a) {
  std::string n(spk::to_string(a));
  std::replace(n.begin(), n.end(), '-', '_');
  return "SpmvAlgorithm::" + n;
}

spk::LaunchShape to_wavefront64(spk::LaunchShape s) {
  if (s.vector_length == 32) s.vector_length = 64;
  const int threads = std::max(64, s.team_size * s.vector_length);
  s.team_size = std::max(1, std::min(1024, threads) / s.vector_length);
  return s;
}

}  // namespace

void write_spmv_tuning_table(const std::string& path, const RunInfo& info, const std::vector<SweepRecord>& records,
                             bool wavefront64) {
  const std::string table = std::filesystem::path(path).stem().string();  // spmv_cuda, spmv_hip, spmv_openmp
  std::map<std::pair<std::string, int>, const SweepRecord*> best;
  for (const auto& r : records) {
    auto& b = best[{r.matrix, r.scalar_bytes}];
    if (!b || r.time_ms < b->time_ms) b = &r;
  }
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write the tuning table " + path);
  out << "#pragma once\n// spk SpMV tuning table '" << table << "': the fastest algorithm and launch shape per swept "
      << "matrix and precision.\n// Written by spk-bench --sweep; regenerate rather than edit.\n"
      << "// command: " << info.command_line << "\n// device: " << info.device << "; back-end: " << info.backend
      << " (Kokkos " << info.kokkos_version << "); ceiling " << number(info.ceiling_gbs) << " GB/s\n";
  if (wavefront64)
    out << "// HIP starting table: derived from the measurements above with a full warp (32) widened to a full\n"
        << "// wavefront (64) and teams of at least 64 threads; not measured on an AMD GPU.\n";
  out << "#include <spk/select/spmv_tuning_entry.hpp>\n\nnamespace spk::tuning {\n\n"
      << "// matrix, scalar bytes, rows, mean, stddev, max row length, algorithm,\n"
      << "// {team, vector, rows/thread, stage, chunk, long row}, GB/s in the sweep\n"
      << "inline constexpr SpmvTuningEntry " << table << "[] = {\n";
  for (const auto& [key, r] : best) {
    const spk::LaunchShape s = wavefront64 ? to_wavefront64(r->shape) : r->shape;
    out << "    {\"" << r->matrix << "\", " << r->scalar_bytes << ", " << r->stats.rows << ", "
        << number(r->stats.mean_length) << ", " << number(r->stats.stddev_length) << ", " << r->stats.max_length
        << ", " << enum_name(r->algorithm) << ", {" << s.team_size << ", " << s.vector_length << ", "
        << s.rows_per_thread << ", " << s.stage_capacity << ", " << s.chunk << ", " << s.long_row << "}, "
        << number(r->gbs) << "},\n";
  }
  out << "    {},  // end of table\n};\n\n}  // namespace spk::tuning\n";
  if (!out) throw std::runtime_error("cannot write the tuning table " + path);
}

}  // namespace spk_bench
