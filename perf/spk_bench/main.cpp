// spk-bench: for every matrix (read or generated once per precision), every requested op and algorithm: check
// against the oracle, time, and report next to the bandwidth ceiling this run measured and the yardsticks' best.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include <Kokkos_Core.hpp>
#include <spk/error.hpp>
#include <spk/io/generators.hpp>
#include <spk/io/matrix_market.hpp>

#include "ceiling.hpp"
#include "options.hpp"
#include "platform.hpp"
#include "report.hpp"
#include "runner.hpp"
#include "streams.hpp"

#ifdef SPK_HAVE_KOKKOSKERNELS
#include <kokkoskernels/kokkoskernels_adapter.hpp>
#endif

namespace spk_bench {
namespace {

std::string quote_argument(const std::string& a) {
  if (!a.empty() && a.find_first_of(" \t\"'\\$;&|<>()*?") == std::string::npos) return a;
  std::string q = "'";
  for (const char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f s", s);
  return buf;
}

std::string with_commas(std::int64_t v) {
  std::string s = std::to_string(v);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
  return s;
}

// Loads one matrix in (S, Off) and runs the ops on it. Returns false when it could not be loaded.
template <class S, class Off>
bool run_matrix(const MatrixSource& src, RunContext& ctx, RunInfo& info, const std::string& progress) {
  const auto t0 = std::chrono::steady_clock::now();
  MatrixCase<S, Off> m;
  m.name = src.name;
  try {
    m.host = src.generated() ? spk::gen::generate<S, Off>(src.spec, ctx.options.seed)
                             : spk::io::read_matrix_market<S, std::int32_t, Off>(src.path);
  } catch (const std::exception& e) {
    // spk::format_error (a malformed file) or spk::invalid_argument (a bad spec, an offset overflow)
    const std::string what = (src.generated() ? "gen:" + src.spec : src.path) + ": " + e.what();
    std::cerr << "spk-bench: cannot " << (src.generated() ? "generate " : "read ") << what
              << (src.optional ? " (skipped)" : "") << "\n";
    info.notes.push_back((src.optional ? "skipped " : "failed ") + what);
    if (!src.optional) {
      ctx.failed = true;
      ++ctx.unreadable;
    }
    return false;
  }
  m.device = spk::copy_to<Device>(m.host);
  m.max_row_length = max_row_length(m.host);
  if (!ctx.options.quiet)
    std::cerr << progress << " " << m.name << " " << (std::is_same_v<S, float> ? "float" : "double") << ": "
              << with_commas(m.host.num_rows()) << " rows, " << with_commas(m.host.nnz()) << " nnz (ready in "
              << seconds_text(seconds_since(t0)) << ")" << std::flush;
  for (const auto& op : ctx.options.ops) {
    try {
      if (op == "spmv") run_spmv(m, ctx);
      if (op == "spmm") run_spmm(m, ctx);
      if (op == "spgemm") run_spgemm(m, ctx);
    } catch (const std::exception& e) {
      std::cerr << "\nspk-bench: " << op << " on " << m.name << " stopped: " << e.what() << "\n";
      info.notes.push_back(op + " on " + m.name + " stopped: " + e.what());
      ctx.failed = true;
    }
  }
  if (!ctx.options.quiet) std::cerr << " ... done in " << seconds_text(seconds_since(t0)) << "\n";
  return true;
}

template <class S>
void run_matrix_offset(const MatrixSource& src, RunContext& ctx, RunInfo& info, const std::string& progress) {
  if (ctx.options.offset_bits == 64)
    run_matrix<S, std::int64_t>(src, ctx, info, progress);
  else
    run_matrix<S, std::int32_t>(src, ctx, info, progress);
}

int run(int argc, char** argv, const std::string& command_line) {
  Options options;
  int exit_code = 0;
  if (!parse_command_line(argc, argv, options, exit_code)) return exit_code;
  options.command_line = command_line;
  const auto t0 = std::chrono::steady_clock::now();

  const Ceiling ceiling = measure_ceiling();
  Vendors vendors;
  try {
    vendors.start(options.yardsticks);
  } catch (const std::exception& e) {
    std::cerr << "spk-bench: " << e.what() << "\n";
    return 2;
  }

  RunInfo info;
  info.command_line = options.command_line;
  info.device = device_description();
  info.backend = backend_name();
  info.kokkos_version = kokkos_version();
  info.tuning = tuning_tables();
#ifdef SPK_HAVE_KOKKOSKERNELS
  for (const auto& y : options.yardsticks)
    if (y == "kokkoskernels") info.kokkoskernels_version = spk::yardstick::kokkoskernels::version();
#endif
  info.vendor_versions = vendors.versions();
  info.ceiling_gbs = ceiling.gbs;
  info.ceiling_bytes = ceiling.bytes;
  info.ceiling_method = ceiling.method;
  info.reps = options.reps;
  info.warmup = options.warmup;
  info.interleave = options.interleave;
  info.seed = options.seed;
  info.offset_bits = options.offset_bits;
  info.layout = options.layout;
  info.yardsticks = options.yardsticks;
  info.notes = options.notes;
  if (options.streams > 1) info.notes.push_back(streams_note(options.streams));
  print_header(std::cout, info);
  std::cout << std::flush;

  std::vector<Row> rows;
  RunContext ctx{options, ceiling, vendors, rows};
  const std::size_t total = options.matrices.size() * options.precisions.size();
  std::size_t done = 0;
  for (const auto& src : options.matrices)
    for (const auto& precision : options.precisions) {
      const std::string progress = "[" + std::to_string(++done) + "/" + std::to_string(total) + "]";
      if (precision == "float")
        run_matrix_offset<float>(src, ctx, info, progress);
      else
        run_matrix_offset<double>(src, ctx, info, progress);
    }
  vendors.stop();

  compute_speedups(rows, options.yardsticks);
  info.wall_seconds = seconds_since(t0);
  std::cout << "\n";
  print_table(std::cout, rows, options.yardsticks);
  std::cout << "\n";
  print_summary(std::cout, rows, options.yardsticks);
  for (std::size_t i = options.notes.size(); i < info.notes.size(); ++i) std::cout << "note: " << info.notes[i] << "\n";
  std::size_t failed_rows = 0;
  for (const auto& r : rows)
    if (r.check == "FAILED" || (!r.yardstick && r.check == "error")) ++failed_rows;
  char buf[240];
  std::snprintf(buf, sizeof buf, "%zu result rows, %zu failed, %d matrices unreadable; wall time %.1f s\n",
                rows.size(), failed_rows, ctx.unreadable, info.wall_seconds);
  std::cout << buf;

  try {
    const auto write_table = options.ops.front() == "spmm" ? write_spmm_tuning_table : write_spmv_tuning_table;
    if (!options.sweep_path.empty()) write_table(options.sweep_path, info, ctx.sweep, false);
    if (!options.sweep_hip_path.empty()) write_table(options.sweep_hip_path, info, ctx.sweep, true);
    if (!options.csv_path.empty()) write_csv(options.csv_path, info, rows, options.yardsticks);
    if (!options.json_path.empty()) write_json(options.json_path, info, rows, options.yardsticks);
  } catch (const std::exception& e) {
    std::cerr << "spk-bench: " << e.what() << "\n";
    return 1;
  }
  return ctx.failed ? 1 : 0;
}

}  // namespace
}  // namespace spk_bench

int main(int argc, char** argv) {
  // Kokkos's own arguments go to Kokkos; the rest to the parser.
  std::vector<char*> kokkos_args{argv[0]}, bench_args{argv[0]};
  std::string command_line = spk_bench::quote_argument(argv[0]);
  for (int i = 1; i < argc; ++i) {
    (std::strncmp(argv[i], "--kokkos-", 9) == 0 ? kokkos_args : bench_args).push_back(argv[i]);
    command_line += " " + spk_bench::quote_argument(argv[i]);
  }
  int kokkos_argc = static_cast<int>(kokkos_args.size());
  kokkos_args.push_back(nullptr);
  bench_args.push_back(nullptr);

  // Parse before starting Kokkos so that a usage error costs nothing; run() parses again (cheap) to keep one path.
  {
    spk_bench::Options probe;
    int exit_code = 0;
    if (!spk_bench::parse_command_line(static_cast<int>(bench_args.size()) - 1, bench_args.data(), probe, exit_code))
      return exit_code;
  }
  Kokkos::ScopeGuard kokkos(kokkos_argc, kokkos_args.data());
  try {
    return spk_bench::run(static_cast<int>(bench_args.size()) - 1, bench_args.data(), command_line);
  } catch (const std::exception& e) {
    std::cerr << "spk-bench: " << e.what() << "\n";
    return 1;
  }
}
