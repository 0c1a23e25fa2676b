#include "suites.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace spk_bench {
namespace fs = std::filesystem;

namespace {

struct Suite {
  const char* name;
  const char* description;
  std::vector<std::string> specs;         // generator specs
  std::vector<std::string> real_matrices;  // stems looked up in $SPK_MATRIX_DIR/bench (then small/, then the top)
};

const std::vector<Suite>& suites() {
  static const std::vector<Suite> all = {
      {"tiny", "two very small generated matrices (smoke test)", {"lap2d:32", "skewed:512"}, {}},
      {"default",
       "small generated matrices of every shape (mostly cache-resident: a quick check of every path, not a "
       "bandwidth measurement; all three ops take under a minute with the Serial back-end)",
       {"lap2d:256", "st3d27:12", "rmat:11:8", "uniform:16384:8", "band:32768:5", "skewed:1024"},
       {}},
      {"cpu",
       "CPU-sized: lap2d 1024, st3d27 64, rmat 18 16, uniform 1M x 16, plus ogbl_ddi and Cornell5",
       {"lap2d:1024", "st3d27:64", "rmat:18:16", "uniform:1048576:16"},
       {"ogbl_ddi", "Cornell5"}},
      {"gpu",
       "PERFORMANCE.md's GPU suite: lap2d 4096, st3d27 160, rmat 22 16, uniform 2M x 32, band 8M x 5, skewed 1M, "
       "ogbl_ddi, Cornell5",
       {"lap2d:4096", "st3d27:160", "rmat:22:16", "uniform:2097152:32", "band:8000000:5", "skewed:1000000"},
       {"ogbl_ddi", "Cornell5"}},
      {"spgemm",
       "PERFORMANCE.md's SpGEMM suite (runs --op spgemm unless --op is given): lap2d 1024, st3d27 64, rmat 16 8, "
       "uniform 256k x 8, band 1M x 5, Cornell5, ogbl_ddi, and the small real square matrices with more than 40k "
       "nonzeros but arrow (whose square is dense: 2.2G nonzeros)",
       {"lap2d:1024", "st3d27:64", "rmat:16:8", "uniform:262144:8", "band:1000000:5"},
       {"Cornell5", "ogbl_ddi", "bayer10", "bcsstk13", "pushpull", "rajat01"}},
      {"spmm",
       "the SpMM issue's suite (runs --op spmm unless --op is given): rmat 22 16, uniform 2M x 32, band 8M x 5, "
       "skewed 1M, ogbl_ddi, Cornell5 (add --suite real for the small real matrices)",
       {"rmat:22:16", "uniform:2097152:32", "band:8000000:5", "skewed:1000000"},
       {"ogbl_ddi", "Cornell5"}},
      {"real", "every .mtx/.mtx.gz under $SPK_MATRIX_DIR/small and $SPK_MATRIX_DIR/bench", {}, {}},
      {"sweep-gpu",
       "the GPU tuning sweep's matrices (--sweep): the gpu suite plus shorter, longer, smaller and more skewed "
       "relatives of its shapes, and the small real matrices of the SpMM issue's suite (arrow's nearest generated "
       "relative, R-MAT 20 8, gave it a kernel 2x slower than its own)",
       {"lap2d:4096", "lap2d:1024", "st3d27:160", "st3d7:160", "rmat:22:16", "rmat:20:8", "uniform:2097152:32",
        "uniform:8388608:4", "uniform:1048576:128", "uniform:65536:16", "band:8000000:5", "band:4000000:16",
        "skewed:1000000", "skewed:4000000"},
       {"ogbl_ddi", "Cornell5", "Groebner_id2003_aug", "arrow", "bayer10", "pushpull", "sparse-images-1024_subset"}},
      {"sweep-cpu",
       "the CPU tuning sweep's matrices (--sweep): the cpu suite plus shorter, longer, smaller and more skewed "
       "relatives of its shapes",
       {"lap2d:1024", "lap2d:256", "st3d27:64", "rmat:18:16", "rmat:16:8", "uniform:1048576:16", "uniform:1048576:4",
        "uniform:65536:256", "band:2000000:5", "skewed:262144"},
       {"ogbl_ddi", "Cornell5"}},
      {"sweep-spmm-gpu",
       "the GPU SpMM tuning sweep's matrices (--sweep --op spmm): the spmm suite's shapes at a size whose dense "
       "blocks can be checked quickly, small matrices (2k-16k rows, too few rows to fill a GPU at one per warp), "
       "plus the real graphs and the small real matrices (their row lengths alone do not tell which kernel suits "
       "them: pushpull's nearest generated relative took a shape 1.8x slower than its own)",
       {"rmat:20:16", "rmat:18:8", "uniform:1048576:32", "uniform:262144:8", "band:2000000:5", "skewed:1000000",
        "lap2d:1024", "st3d27:64", "rmat:12:32", "rmat:12:16", "lap2d:128", "uniform:8192:32", "uniform:4096:64",
        "uniform:2048:128"},
       {"ogbl_ddi", "Cornell5", "Groebner_id2003_aug", "arrow", "bayer10", "pushpull", "sparse-images-1024_subset",
        "1138_bus", "ani4", "ash219", "bcsstk13", "karate", "rajat01", "west0067"}},
      {"sweep-spmm-cpu",
       "the CPU SpMM tuning sweep's matrices (--sweep --op spmm)",
       {"lap2d:512", "rmat:16:16", "uniform:131072:16", "band:262144:5", "skewed:65536"},
       {"ogbl_ddi", "Cornell5"}},
  };
  return all;
}

const Suite& find_suite(const std::string& name) {
  for (const auto& s : suites())
    if (name == s.name) return s;
  std::string valid;
  for (const auto& s : suites()) valid += (valid.empty() ? "" : ", ") + std::string(s.name);
  throw std::invalid_argument("unknown suite '" + name + "', expected one of: " + valid);
}

bool is_matrix_file(const fs::path& p) {
  const std::string n = p.filename().string();
  const auto ends = [&n](const std::string& suffix) {
    return n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return ends(".mtx") || ends(".mtx.gz");
}

std::string stem_of(const fs::path& p) {
  std::string n = p.filename().string();
  for (const std::string suffix : {".gz", ".mtx"})
    if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0)
      n.erase(n.size() - suffix.size());
  return n;
}

std::string matrix_dir() {
  const char* d = std::getenv("SPK_MATRIX_DIR");
  return d ? std::string(d) : std::string();
}

}  // namespace

std::vector<std::string> suite_names() {
  std::vector<std::string> out;
  for (const auto& s : suites()) out.emplace_back(s.name);
  return out;
}

std::string describe_suites() {
  std::string out;
  for (const auto& s : suites()) out += std::string("  ") + s.name + ": " + s.description + "\n";
  return out;
}

std::vector<std::string> suite_default_ops(const std::string& name) {
  if (name == "spgemm") return {"spgemm"};
  if (name == "spmm" || name.rfind("sweep-spmm", 0) == 0) return {"spmm"};
  if (name.rfind("sweep", 0) == 0) return {"spmv"};
  return {"spmv", "spmm", "spgemm"};
}

MatrixSource matrix_source(const std::string& argument) {
  MatrixSource m;
  if (argument.rfind("gen:", 0) == 0) {
    m.spec = argument.substr(4);
    m.name = m.spec;
  } else {
    m.path = argument;
    m.name = stem_of(argument);
  }
  return m;
}

std::vector<MatrixSource> suite_matrices(const std::string& name, std::vector<std::string>& notes) {
  const Suite& suite = find_suite(name);
  std::vector<MatrixSource> out;
  for (const auto& spec : suite.specs) out.push_back(matrix_source("gen:" + spec));

  const std::string dir = matrix_dir();
  if (suite.real_matrices.empty() && name != "real") return out;
  if (dir.empty()) {
    notes.push_back("suite '" + name + "': SPK_MATRIX_DIR is not set, real matrices skipped");
    return out;
  }
  if (name == "real") {
    for (const char* sub : {"small", "bench"}) {
      const fs::path d = fs::path(dir) / sub;
      std::error_code ec;
      if (!fs::is_directory(d, ec)) {
        notes.push_back("suite 'real': " + d.string() + " is not a directory, skipped");
        continue;
      }
      std::vector<fs::path> files;
      for (const auto& e : fs::directory_iterator(d, ec))
        if (e.is_regular_file() && is_matrix_file(e.path())) files.push_back(e.path());
      std::sort(files.begin(), files.end());
      for (const auto& f : files) {
        MatrixSource m = matrix_source(f.string());
        m.optional = true;
        out.push_back(m);
      }
    }
    return out;
  }
  for (const auto& stem : suite.real_matrices) {
    bool found = false;
    for (const char* sub : {"bench", "small", ""}) {
      for (const char* ext : {".mtx.gz", ".mtx"}) {
        const fs::path p = fs::path(dir) / sub / (stem + ext);
        std::error_code ec;
        if (!found && fs::is_regular_file(p, ec)) {
          out.push_back(matrix_source(p.string()));
          found = true;
        }
      }
    }
    if (!found) notes.push_back("suite '" + name + "': " + stem + " not found under " + dir + "/bench, skipped");
  }
  return out;
}

}  // namespace spk_bench
