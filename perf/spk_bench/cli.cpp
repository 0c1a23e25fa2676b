// Command-line parsing with CLI11; every check that needs no Kokkos happens here, before Kokkos starts.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <set>
#include <stdexcept>

#include <spk/algorithms.hpp>

#include "options.hpp"
#include "suites.hpp"

namespace spk_bench {

std::vector<std::string> available_yardsticks() {
  std::vector<std::string> out;
#ifdef SPK_HAVE_KOKKOSKERNELS
  out.emplace_back("kokkoskernels");
#endif
#ifdef SPK_HAVE_CUSPARSE
  out.emplace_back("cusparse");
#endif
#ifdef SPK_HAVE_ROCSPARSE
  out.emplace_back("rocsparse");
#endif
#ifdef SPK_HAVE_GRAPHBLAS
  out.emplace_back("graphblas");
#endif
#ifdef SPK_HAVE_EIGEN
  out.emplace_back("eigen");
#endif
  return out;
}

namespace {

const std::vector<std::string> all_yardsticks = {"kokkoskernels", "cusparse", "rocsparse", "graphblas", "eigen"};

template <class Enum>
std::vector<std::string> spk_names() {
  std::vector<std::string> out{std::string(spk::to_string(Enum::automatic))};
  for (const Enum a : spk::all_algorithms<Enum>()) out.emplace_back(spk::to_string(a));
  return out;
}

std::vector<std::string> spk_names(int op) {
  switch (op) {
    case 0: return spk_names<spk::SpmvAlgorithm>();
    case 1: return spk_names<spk::SpmmAlgorithm>();
    default: return spk_names<spk::SpgemmAlgorithm>();
  }
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// Splits --algo into per-op spk algorithm lists and yardsticks; throws CLI::ValidationError on an unknown name.
void resolve_algorithms(const std::vector<std::string>& tokens, Options& o) {
  const std::vector<std::string> built = available_yardsticks();
  for (auto& list : o.spk_algorithms) list.clear();
  o.yardsticks.clear();
  for (const auto& t : tokens) {
    if (contains(all_yardsticks, t)) {
      if (!contains(built, t))
        throw CLI::ValidationError("--algo", "yardstick '" + t + "' is not built into this spk-bench (built: " +
                                                 (built.empty() ? std::string("none") : join(built)) + ")");
      if (!contains(o.yardsticks, t)) o.yardsticks.push_back(t);
      continue;
    }
    bool known = false;
    for (int op = 0; op < 3; ++op) {
      const auto names = spk_names(op);
      if (t == "all") {
        for (const auto& n : names)
          if (!contains(o.spk_algorithms[op], n)) o.spk_algorithms[op].push_back(n);
        known = true;
      } else if (contains(names, t)) {
        if (!contains(o.spk_algorithms[op], t)) o.spk_algorithms[op].push_back(t);
        known = true;
      }
    }
    if (!known) {
      std::set<std::string> valid{"all"};
      for (int op = 0; op < 3; ++op)
        for (const auto& n : spk_names(op)) valid.insert(n);
      for (const auto& y : all_yardsticks) valid.insert(y);
      throw CLI::ValidationError("--algo", "unknown algorithm '" + t + "', expected one of: " +
                                               join(std::vector<std::string>(valid.begin(), valid.end())));
    }
  }
}

}  // namespace

bool parse_command_line(int argc, char** argv, Options& o, int& exit_code) {
  CLI::App app{"spk-bench: times spk's SpMV, SpMM and SpGEMM against Kokkos Kernels and the vendor libraries, "
               "checks every result against the sequential oracle, and reports GB/s against a measured bandwidth "
               "ceiling (design/PERFORMANCE.md).",
               "spk-bench"};
  app.footer("Suites:\n" + describe_suites() +
             "Exit status: 0 when every check passed, 1 when a check failed or a matrix could not be read, "
             "other non-zero values for usage errors.\nKokkos options (--kokkos-...) are passed to Kokkos.");

  std::vector<std::string> ops, matrices, algos;
  std::string precision = "double";
  std::vector<int> ks{32};
  std::vector<std::string> default_algos{"automatic"};
  for (const auto& y : available_yardsticks()) default_algos.push_back(y);
  algos = default_algos;

  app.add_option("--op", ops, "operations to run, comma-separated (default: the suite's, else all three)")
      ->delimiter(',')
      ->check(CLI::IsMember({"spmv", "spmm", "spgemm"}));
  app.add_option("--matrix", matrices, "Matrix Market files (.mtx, .mtx.gz) or generator specs gen:SPEC "
                                       "(lap2d:N st3d7:N st3d27:N rmat:SCALE:EF uniform:ROWS:PER_ROW "
                                       "band:ROWS:PER_ROW skewed:ROWS)");
  app.add_option("--suite", o.suite, "built-in matrix suite (default: 'default' when no --matrix is given)")
      ->check(CLI::IsMember(suite_names()));
  std::vector<std::string> spk_all;
  for (int op = 0; op < 3; ++op)
    for (const auto& n : spk_names(op))
      if (!contains(spk_all, n)) spk_all.push_back(n);
  app.add_option("--algo", algos,
                 "comma-separated: spk algorithms (" + join(spk_all) +
                     "; all = every spk algorithm of the op, automatic included) and yardsticks (kokkoskernels, "
                     "cusparse, rocsparse, graphblas, eigen; built here: " +
                     (available_yardsticks().empty() ? std::string("none") : join(available_yardsticks())) + ")")
      ->delimiter(',')
      ->default_str(join(default_algos));
  app.add_option("--precision", precision, "float, double or both")
      ->check(CLI::IsMember({"float", "double", "both"}))
      ->capture_default_str();
  app.add_option("--offset", o.offset_bits, "row-offset width in bits")
      ->check(CLI::IsMember({32, 64}))
      ->capture_default_str();
  app.add_option("--k", ks, "SpMM dense widths, comma-separated")
      ->delimiter(',')
      ->check(CLI::Range(1, 1 << 20))
      ->default_str("32");
  app.add_option("--layout", o.layout, "SpMM dense layout: right (row-major) or left (column-major)")
      ->check(CLI::IsMember({"right", "left"}))
      ->capture_default_str();
  app.add_option("--reps", o.reps, "timed repetitions (the median is reported)")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  app.add_option("--warmup", o.warmup, "untimed calls before timing")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  app.add_option("--seed", o.seed, "seed of the generators and of the dense inputs")->capture_default_str();
  app.add_option("--csv", o.csv_path, "write every result row as CSV to this file");
  app.add_option("--json", o.json_path, "write every result row and the run's metadata as JSON to this file");
  app.add_flag("--gather-bound", o.gather_bound,
               "SpMV: add a 'gather-bound' row per matrix, the least time a CSR kernel that reads A as stored and "
               "gathers x per nonzero could take here (the larger of a flat pass over the nonzeros and the CSR bytes "
               "at the measured ceiling); its speedups over the yardsticks are the most any such kernel could show "
               "(GPUs: on a host back-end the flat pass is a plain loop and no floor)");
  app.add_flag("--interleave", o.interleave,
               "SpMV and SpMM: time the calls in rounds, each round calling every checked spk plan and yardstick "
               "variant of the matrix (and width) once, instead of each one's --reps back to back, so that a noisy "
               "machine's slow drifts fall on all of them alike (the sweep's candidates included); holds every plan "
               "and yardstick operation of the matrix at once");
  app.add_option("--streams", o.streams,
                 "SpMV and SpMM: also time rounds of N calls at once, each on its own execution space instance "
                 "(Kokkos 4: partitioned from the default one, CUDA/HIP streams) with its own plan and output, spk "
                 "through its instance forms and cuSPARSE / rocSPARSE with a handle on each stream; rows of op "
                 "'spmv xN' / 'spmm xN', whose time is the round's")
      ->check(CLI::Range(2, 64));
  app.add_option("--check-memory", o.check_memory_mib,
                 "host memory (MiB) that checking a result may hold (default: 40% of the host's memory). An SpMM "
                 "whose oracle C does not fit is checked in blocks of rows, the oracle computing each block again "
                 "for every check; one whose B does not fit either, or an SpGEMM whose C does not fit, is skipped "
                 "with a note")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40));
  app.add_flag("--quiet", o.quiet, "no progress lines on stderr");
  app.add_option("--sweep", o.sweep_path,
                 "tuning sweep of one op (--op spmv, the default, or spmm with its --k widths): run every algorithm at "
                 "every candidate launch shape (each checked and timed) and "
                 "write the fastest per matrix and precision as the tuning table FILE "
                 "(backends/tuning/spmv_<backend>.hpp or spmm_<backend>.hpp; the file's stem names the table)");
  app.add_option("--reorder", o.reorder,
                 "SpMM row reordering on spk's plans, the sweep's candidates included but flat's (flat refuses it; "
                 "a table swept so records shapes, not the order): none, by-length or rcm")
      ->check(CLI::IsMember({"none", "by-length", "rcm"}))
      ->capture_default_str();
  app.add_option("--pack-columns", o.pack_columns,
                 "SpMV 16-bit packed column indices on spk's plans, the sweep's candidates included: automatic (large "
                 "matrices on GPUs), off, or on (forced: a plan whose algorithm or matrix cannot take it is an error "
                 "row)")
      ->check(CLI::IsMember({"automatic", "off", "on"}))
      ->capture_default_str();
  app.add_option("--group-columns", o.group_columns,
                 "SpMV columns renumbered by nonzero count, hubs first, on spk's plans, the sweep's candidates "
                 "included: automatic (power-law matrices on GPUs), off, or on (forced: long-row-split, or packing "
                 "forced on too, is an error row)")
      ->check(CLI::IsMember({"automatic", "off", "on"}))
      ->capture_default_str();
  app.add_option("--spgemm-walk", o.spgemm_walk,
                 "SpGEMM product walk of spk's hash and dense rows: automatic, flat or by-entries")
      ->check(CLI::IsMember({"automatic", "flat", "by-entries"}))
      ->capture_default_str();
  app.add_option("--sweep-hip", o.sweep_hip_path,
                 "with --sweep on CUDA: also write the HIP starting table derived from the same measurements "
                 "(wavefront 64) to FILE");

  try {
    app.parse(argc, argv);
    if (o.suite.empty() && matrices.empty()) o.suite = "default";
    if (!o.sweep_hip_path.empty() && o.sweep_path.empty())
      throw CLI::ValidationError("--sweep-hip", "needs --sweep (it derives from the same measurements)");
    if (!o.sweep_path.empty() && ops.empty()) ops = {"spmv"};
    if (!o.sweep_path.empty() && (ops.size() != 1 || ops.front() == "spgemm"))
      throw CLI::ValidationError("--sweep", "sweeps one op at a time: --op spmv or --op spmm");
    if (ops.empty()) ops = o.suite.empty() ? suite_default_ops("") : suite_default_ops(o.suite);
    o.ops.clear();
    for (const char* op : op_names)  // canonical order, no duplicates
      if (contains(ops, op)) o.ops.emplace_back(op);
    resolve_algorithms(algos, o);
    o.precisions = precision == "both" ? std::vector<std::string>{"float", "double"}
                                       : std::vector<std::string>{precision};
    std::sort(ks.begin(), ks.end());
    ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
    o.ks = ks;
    o.matrices.clear();
    for (const auto& m : matrices) {
      if (m == "gen:") throw CLI::ValidationError("--matrix", "'gen:' needs a generator spec, e.g. gen:lap2d:1024");
      o.matrices.push_back(matrix_source(m));
    }
    if (!o.suite.empty()) {
      for (auto& m : suite_matrices(o.suite, o.notes)) o.matrices.push_back(m);
    }
  } catch (const CLI::ParseError& e) {
    exit_code = app.exit(e);
    return false;
  }
  return true;
}

}  // namespace spk_bench
