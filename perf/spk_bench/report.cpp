#include "report.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace spk_bench {
namespace {

std::string fmt(const char* format, double v) {
  if (std::isnan(v)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string fmt_time(double ms) {
  if (std::isnan(ms)) return "-";
  return fmt(ms < 1 ? "%.4f" : ms < 100 ? "%.3f" : "%.1f", ms);
}

std::string fmt_bytes(std::int64_t b) {
  if (b < 0) return "-";
  const double mib = static_cast<double>(b) / (1024.0 * 1024.0);
  return mib < 10 ? fmt("%.2f MiB", mib) : fmt("%.0f MiB", mib);
}

std::string with_commas(std::int64_t v) {
  std::string s = std::to_string(v);
  for (int i = static_cast<int>(s.size()) - 3; i > (v < 0 ? 1 : 0); i -= 3) s.insert(static_cast<std::size_t>(i), ",");
  return s;
}

std::string short_name(const std::string& yardstick) {
  if (yardstick == "kokkoskernels") return "KK";
  if (yardstick == "cusparse") return "cuSPARSE";
  if (yardstick == "rocsparse") return "rocSPARSE";
  if (yardstick == "graphblas") return "GraphBLAS";
  if (yardstick == "eigen") return "Eigen";
  return yardstick;
}

std::string precision_short(const std::string& p) { return p == "double" ? "f64" : p == "float" ? "f32" : p; }

std::string notes_of(const Row& r) {
  std::ostringstream os;
  const auto sep = [&os]() {
    if (os.tellp() > 0) os << "; ";
  };
  if (r.op == "spgemm" && r.check != "error" && r.check != "skipped") {
    if (!std::isnan(r.symbolic_ms)) os << "sym " << fmt_time(r.symbolic_ms) << " num " << fmt_time(r.numeric_ms);
    if (!std::isnan(r.reuse_ms)) {
      sep();
      os << "reuse " << fmt_time(r.reuse_ms);
    }
    if (r.peak_bytes >= 0) {
      sep();
      os << "mem " << fmt_bytes(r.peak_bytes) << " (C " << fmt_bytes(r.output_bytes) << ")";
    }
  }
  if (!r.yardstick && !std::isnan(r.setup_ms) && !std::isnan(r.time_ms) && r.time_ms > 0) {
    sep();  // the plan's one-time cost, also in calls of the operation it prepares
    char buf[48];
    std::snprintf(buf, sizeof buf, " (%.1f calls", r.setup_ms / r.time_ms);
    os << "plan " << fmt_time(r.setup_ms) << buf;
    if (!std::isnan(r.features_ms)) os << ", features " << fmt_time(r.features_ms);
    os << ")";
  }
  if (!r.yardstick && !r.chosen.empty()) {
    sep();
    os << "ran " << r.chosen;
  }
  if (r.yardstick && !r.chosen.empty()) {
    sep();
    os << "best " << r.chosen;
    for (const auto& v : r.variants)
      if (v.name != r.chosen) os << ", " << v.name << (v.status == "ok" ? " " + fmt_time(v.time_ms) : " " + v.status);
  }
  if (!r.message.empty()) {
    sep();
    os << (r.message.size() > 160 ? r.message.substr(0, 157) + "..." : r.message);
  }
  return os.str();
}

double geomean(const std::vector<double>& v) {
  double s = 0;
  for (const double x : v) s += std::log(x);
  return std::exp(s / static_cast<double>(v.size()));
}

nlohmann::json number(double v) { return std::isnan(v) || std::isinf(v) ? nlohmann::json(nullptr) : nlohmann::json(v); }

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (const char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string csv_number(double v) {
  if (std::isnan(v)) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string variants_text(const Row& r) {
  std::string out;
  for (const auto& v : r.variants)
    out += (out.empty() ? "" : ";") + v.name + "=" + (v.status == "ok" ? csv_number(v.time_ms) : v.status);
  return out;
}

}  // namespace

void compute_speedups(std::vector<Row>& rows, const std::vector<std::string>& yardsticks) {
  using Key = std::tuple<std::string, std::string, std::string, int>;
  std::map<std::pair<Key, std::string>, double> best;
  for (const auto& r : rows)
    if (r.yardstick && r.check == "ok" && !std::isnan(r.time_ms))
      best[{Key{r.matrix, r.op, r.precision, r.k}, r.algo}] = r.time_ms;
  for (auto& r : rows) {
    const bool timed = r.check == "ok" || r.check == "bound";  // bound: spmv --gather-bound's floor
    if (r.yardstick || !timed || std::isnan(r.time_ms) || r.time_ms <= 0) continue;
    for (const auto& y : yardsticks) {
      const auto it = best.find({Key{r.matrix, r.op, r.precision, r.k}, y});
      if (it != best.end()) r.speedup[y] = it->second / r.time_ms;
    }
  }
}

void print_header(std::ostream& os, const RunInfo& info) {
  os << "spk-bench: " << info.command_line << "\n"
     << "  device:    " << info.device << "\n"
     << "  back-end:  " << info.backend << " (Kokkos " << info.kokkos_version << ")\n"
     << "  yardsticks: ";
  if (info.yardsticks.empty()) os << "none";
  for (std::size_t i = 0; i < info.yardsticks.size(); ++i) os << (i ? ", " : "") << info.yardsticks[i];
  if (!info.kokkoskernels_version.empty()) os << " (Kokkos Kernels " << info.kokkoskernels_version << ")";
  if (!info.vendor_versions.empty()) os << " " << info.vendor_versions;
  os << "\n"
     << "  ceiling:   " << fmt("%.1f", info.ceiling_gbs) << " GB/s (" << info.ceiling_method << ")\n"
     << "  tuning:    " << info.tuning << "\n"
     << "  timing:    median of " << info.reps << " timed calls after " << info.warmup << " warm-up"
     << (info.interleave ? " (SpMV and SpMM in rounds across the algorithms)" : "") << "; offsets "
     << info.offset_bits << "-bit; SpMM layout " << info.layout << "; seed " << info.seed << "\n";
  for (const auto& n : info.notes) os << "  note: " << n << "\n";
}

void print_table(std::ostream& os, const std::vector<Row>& rows, const std::vector<std::string>& yardsticks) {
  std::vector<std::string> head{"matrix", "rows", "nnz", "op", "prec", "k", "algo", "time ms", "host us", "GB/s",
                                "%ceil", "GFLOP/s"};
  for (const auto& y : yardsticks) head.push_back("vs " + short_name(y));
  head.push_back("check");
  head.push_back("notes");
  const std::size_t right_from = 1, right_to = head.size() - 3;  // numeric columns are right-aligned

  std::vector<std::vector<std::string>> cells;
  for (const auto& r : rows) {
    std::vector<std::string> c{r.matrix,
                               with_commas(r.rows),
                               with_commas(r.nnz),
                               r.op,
                               precision_short(r.precision),
                               r.k ? std::to_string(r.k) : "-",
                               r.algo,
                               fmt_time(r.time_ms),
                               fmt("%.1f", r.host_ms * 1e3),
                               fmt("%.1f", r.gbs),
                               fmt("%.1f", r.pct_ceiling),
                               fmt(r.gflops < 10 ? "%.3f" : "%.1f", r.gflops)};
    for (const auto& y : yardsticks) {
      const auto it = r.speedup.find(y);
      c.push_back(it == r.speedup.end() ? "-" : fmt("%.2fx", it->second));
    }
    c.push_back(r.check);
    c.push_back(notes_of(r));
    cells.push_back(std::move(c));
  }
  std::vector<std::size_t> width(head.size());
  for (std::size_t i = 0; i < head.size(); ++i) width[i] = head[i].size();
  for (const auto& c : cells)
    for (std::size_t i = 0; i + 1 < c.size(); ++i) width[i] = std::max(width[i], c[i].size());
  const auto line = [&](const std::vector<std::string>& c) {
    std::string out;
    for (std::size_t i = 0; i < c.size(); ++i) {
      const bool last = i + 1 == c.size();
      const std::size_t pad = last ? 0 : width[i] - std::min(width[i], c[i].size());
      const bool right = i >= right_from && i <= right_to && i != 3 && i != 4 && i != 6;
      out += right ? std::string(pad, ' ') + c[i] : c[i] + std::string(pad, ' ');
      if (!last) out += "  ";
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    os << out << "\n";
  };
  line(head);
  for (const auto& c : cells) line(c);
}

void print_summary(std::ostream& os, const std::vector<Row>& rows, const std::vector<std::string>& yardsticks) {
  std::vector<std::pair<std::string, std::string>> groups;
  for (const auto& r : rows)
    if (std::find(groups.begin(), groups.end(), std::make_pair(r.op, r.precision)) == groups.end())
      groups.emplace_back(r.op, r.precision);
  for (const auto& [op, precision] : groups) {
    for (const char* algo : {"automatic", "gather-bound"})  // gather-bound: spmv --gather-bound's floor, if run
      for (const auto& y : yardsticks) {
        std::vector<double> s;
        std::string worst;
        double min = 0;
        for (const auto& r : rows) {
          if (r.op != op || r.precision != precision || r.yardstick || r.algo != algo) continue;
          const auto it = r.speedup.find(y);
          if (it == r.speedup.end()) continue;
          if (s.empty() || it->second < min) {
            min = it->second;
            worst = r.matrix + (r.k ? " k=" + std::to_string(r.k) : "");
          }
          s.push_back(it->second);
        }
        // Only automatic's line says when nothing matched, and only where the op has a row of this yardstick (the
        // rounds of --streams have the vendor libraries' alone).
        bool op_has_yardstick = false;
        for (const auto& r : rows) op_has_yardstick = op_has_yardstick || (r.yardstick && r.op == op && r.algo == y);
        if (s.empty() && (std::string(algo) != "automatic" || !op_has_yardstick)) continue;
        os << "summary " << op << " " << precision << ": " << algo << " vs " << y << ": ";
        if (s.empty())
          os << "no matched results\n";
        else
          os << "geomean " << fmt("%.2fx", geomean(s)) << ", min " << fmt("%.2fx", min) << " (" << worst << "), over "
             << s.size() << " result" << (s.size() == 1 ? "" : "s") << "\n";
      }
  }
}

void write_csv(const std::string& path, const RunInfo& info, const std::vector<Row>& rows,
               const std::vector<std::string>& yardsticks) {
  std::ofstream f(path);
  if (!f) throw std::runtime_error("cannot write " + path);
  f << "# spk-bench: " << info.command_line << "\n# device: " << info.device << "\n# back-end: " << info.backend
    << "\n# kokkos: " << info.kokkos_version << "\n# kokkos-kernels: " << info.kokkoskernels_version
    << "\n# vendors: " << info.vendor_versions << "\n# ceiling_gbs: " << csv_number(info.ceiling_gbs)
    << "\n# ceiling_method: " << info.ceiling_method << "\n# tuning: " << info.tuning << "\n# reps: " << info.reps
    << "\n# warmup: " << info.warmup << "\n# interleave: " << (info.interleave ? "yes" : "no") << "\n";
  f << "matrix,rows,cols,nnz,op,precision,offset_bits,k,layout,algo,yardstick,chosen,time_ms,min_ms,max_ms,"
       "host_ms,setup_ms,gbs,pct_ceiling,gflops,symbolic_ms,numeric_ms,reuse_ms,products,c_nnz,peak_bytes,"
       "output_bytes,memory_method";
  for (const auto& y : yardsticks) f << ",speedup_vs_" << y;
  f << ",check,rel_error,message,variants\n";
  for (const auto& r : rows) {
    f << csv_field(r.matrix) << "," << r.rows << "," << r.cols << "," << r.nnz << "," << r.op << "," << r.precision
      << "," << r.offset_bits << "," << r.k << "," << r.layout << "," << csv_field(r.algo) << ","
      << (r.yardstick ? 1 : 0) << "," << csv_field(r.chosen) << "," << csv_number(r.time_ms) << ","
      << csv_number(r.min_ms) << "," << csv_number(r.max_ms) << "," << csv_number(r.host_ms) << ","
      << csv_number(r.setup_ms) << "," << csv_number(r.gbs) << "," << csv_number(r.pct_ceiling) << ","
      << csv_number(r.gflops) << ","
      << csv_number(r.symbolic_ms) << "," << csv_number(r.numeric_ms) << "," << csv_number(r.reuse_ms) << ","
      << (r.products >= 0 ? std::to_string(r.products) : "") << ","
      << (r.c_nnz >= 0 ? std::to_string(r.c_nnz) : "") << ","
      << (r.peak_bytes >= 0 ? std::to_string(r.peak_bytes) : "") << ","
      << (r.output_bytes >= 0 ? std::to_string(r.output_bytes) : "") << "," << csv_field(r.memory_method);
    for (const auto& y : yardsticks) {
      const auto it = r.speedup.find(y);
      f << "," << (it == r.speedup.end() ? "" : csv_number(it->second));
    }
    f << "," << r.check << "," << csv_number(r.rel_error) << "," << csv_field(r.message) << ","
      << csv_field(variants_text(r)) << "\n";
  }
  if (!f) throw std::runtime_error("error writing " + path);
}

void write_json(const std::string& path, const RunInfo& info, const std::vector<Row>& rows,
                const std::vector<std::string>& yardsticks) {
  using nlohmann::json;
  json meta{{"command_line", info.command_line},
            {"device", info.device},
            {"backend", info.backend},
            {"kokkos_version", info.kokkos_version},
            {"kokkoskernels_version", info.kokkoskernels_version},
            {"vendor_versions", info.vendor_versions},
            {"ceiling_gbs", number(info.ceiling_gbs)},
            {"ceiling_bytes", number(info.ceiling_bytes)},
            {"ceiling_method", info.ceiling_method},
            {"tuning", info.tuning},
            {"reps", info.reps},
            {"warmup", info.warmup},
            {"interleave", info.interleave},
            {"seed", info.seed},
            {"offset_bits", info.offset_bits},
            {"layout", info.layout},
            {"yardsticks", info.yardsticks},
            {"notes", info.notes},
            {"wall_seconds", number(info.wall_seconds)}};
  json results = json::array();
  for (const auto& r : rows) {
    json speedup = json::object();
    for (const auto& [y, s] : r.speedup) speedup[y] = number(s);
    json variants = json::array();
    for (const auto& v : r.variants)
      variants.push_back({{"name", v.name},
                          {"status", v.status},
                          {"message", v.message},
                          {"time_ms", number(v.time_ms)},
                          {"host_ms", number(v.host_ms)},
                          {"rel_error", number(v.rel_error)}});
    const auto opt_int = [](std::int64_t v) { return v >= 0 ? json(v) : json(nullptr); };
    results.push_back({{"matrix", r.matrix},
                       {"rows", r.rows},
                       {"cols", r.cols},
                       {"nnz", r.nnz},
                       {"op", r.op},
                       {"precision", r.precision},
                       {"offset_bits", r.offset_bits},
                       {"k", r.k},
                       {"layout", r.layout},
                       {"algo", r.algo},
                       {"yardstick", r.yardstick},
                       {"chosen", r.chosen},
                       {"time_ms", number(r.time_ms)},
                       {"min_ms", number(r.min_ms)},
                       {"max_ms", number(r.max_ms)},
                       {"host_ms", number(r.host_ms)},
                       {"setup_ms", number(r.setup_ms)},
                       {"features_ms", number(r.features_ms)},
                       {"gbs", number(r.gbs)},
                       {"pct_ceiling", number(r.pct_ceiling)},
                       {"gflops", number(r.gflops)},
                       {"symbolic_ms", number(r.symbolic_ms)},
                       {"numeric_ms", number(r.numeric_ms)},
                       {"reuse_ms", number(r.reuse_ms)},
                       {"products", opt_int(r.products)},
                       {"c_nnz", opt_int(r.c_nnz)},
                       {"peak_bytes", opt_int(r.peak_bytes)},
                       {"output_bytes", opt_int(r.output_bytes)},
                       {"memory_method", r.memory_method},
                       {"speedup", speedup},
                       {"check", r.check},
                       {"rel_error", number(r.rel_error)},
                       {"message", r.message},
                       {"variants", variants}});
  }
  json summary = json::array();
  std::set<std::pair<std::string, std::string>> groups;
  for (const auto& r : rows) groups.insert({r.op, r.precision});
  for (const auto& [op, precision] : groups)
    for (const auto& y : yardsticks) {
      std::vector<double> s;
      for (const auto& r : rows)
        if (r.op == op && r.precision == precision && !r.yardstick && r.algo == "automatic") {
          const auto it = r.speedup.find(y);
          if (it != r.speedup.end()) s.push_back(it->second);
        }
      summary.push_back({{"op", op},
                         {"precision", precision},
                         {"yardstick", y},
                         {"count", s.size()},
                         {"geomean_speedup", s.empty() ? json(nullptr) : number(geomean(s))},
                         {"min_speedup", s.empty() ? json(nullptr) : number(*std::min_element(s.begin(), s.end()))}});
    }
  std::ofstream f(path);
  if (!f) throw std::runtime_error("cannot write " + path);
  f << json{{"metadata", meta}, {"results", results}, {"summary", summary}}.dump(2) << "\n";
  if (!f) throw std::runtime_error("error writing " + path);
}

}  // namespace spk_bench
