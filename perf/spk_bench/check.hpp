#pragma once
// Every timed result is checked against spk::reference (the sequential oracles, accumulating in double) before it
// is reported. The oracle runs on row blocks in several host threads: a block is the same CsrMatrix with a shifted
// row_map view, so the oracle's own code does all the arithmetic.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <spk/csr_matrix.hpp>
#include <spk/reference/reference.hpp>

namespace spk_bench {

template <class S, class Off>
using HostMatrix = spk::HostCsrMatrix<S, std::int32_t, Off>;
using HostOracleMatrix = spk::HostCsrMatrix<double, std::int32_t, std::int64_t>;

// Relative norm error ||out - ref|| / ||ref||, +inf when out holds a NaN (a poisoned entry never written).
struct Comparison {
  bool ok = false;
  double rel_error = std::numeric_limits<double>::quiet_NaN();
  std::string message;
};

// Tolerances: double 1e-10; float 1e-4, widened for long rows (the rounding error of a sum grows with its length
// like sqrt(length) for random signs).
template <class S>
double tolerance(std::int64_t max_row_length) {
  if constexpr (std::is_same_v<S, float>)
    return 1e-4 * std::max(1.0, std::sqrt(static_cast<double>(std::max<std::int64_t>(max_row_length, 1))) / 64.0);
  else
    return 1e-10;
}

inline int oracle_threads(std::int64_t rows, std::int64_t work) {
  if (rows < 4096 || work < (std::int64_t{1} << 20)) return 1;
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  return static_cast<int>(std::min<unsigned>(hw, 32));
}

// Rows [begin, end) of A as a matrix of its own (sharing A's arrays).
template <class S, class O, class Off>
spk::HostCsrMatrix<S, O, Off> row_block(const spk::HostCsrMatrix<S, O, Off>& A, std::int64_t begin, std::int64_t end) {
  using M = spk::HostCsrMatrix<S, O, Off>;
  typename M::row_map_type rm(A.row_map().data() + begin, static_cast<std::size_t>(end - begin + 1));
  return M(static_cast<O>(end - begin), A.num_cols(), rm, A.entries(), A.values());
}

// Splits [0, rows) into blocks of about equal nonzeros, one per thread, and runs body(block_index, begin, end).
template <class S, class O, class Off, class Body>
void for_row_blocks(const spk::HostCsrMatrix<S, O, Off>& A, int threads, Body&& body) {
  const std::int64_t rows = A.num_rows();
  std::vector<std::int64_t> bounds{0};
  const auto rm = A.row_map();
  const double per = static_cast<double>(A.nnz()) / threads;
  for (int t = 1; t < threads; ++t) {
    const Off target = static_cast<Off>(per * t);
    const Off* first = rm.data();
    const std::int64_t r = std::lower_bound(first, first + rows + 1, target) - first;
    bounds.push_back(std::clamp(r, bounds.back(), rows));
  }
  bounds.push_back(rows);
  std::vector<std::thread> pool;
  for (std::size_t b = 0; b + 1 < bounds.size(); ++b)
    pool.emplace_back([&body, &bounds, b]() { body(b, bounds[b], bounds[b + 1]); });
  for (auto& t : pool) t.join();
}

// y = A x in double.
template <class S, class Off, class XView>
Kokkos::View<double*, Kokkos::HostSpace> oracle_spmv(const HostMatrix<S, Off>& A, const XView& x) {
  Kokkos::View<double*, Kokkos::HostSpace> y("spk_bench::oracle_y", A.num_rows());
  const int threads = oracle_threads(A.num_rows(), A.nnz());
  for_row_blocks(A, threads, [&](std::size_t, std::int64_t begin, std::int64_t end) {
    const auto block = row_block(A, begin, end);
    Kokkos::View<double*, Kokkos::HostSpace> yb(y.data() + begin, static_cast<std::size_t>(end - begin));
    spk::reference::spmv(1.0, block, x, 0.0, yb);
  });
  return y;
}

// C = A B in double, C row-major (rows x k).
template <class S, class Off, class BView>
Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> oracle_spmm(const HostMatrix<S, Off>& A,
                                                                            const BView& B) {
  const std::size_t k = B.extent(1);
  Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> C("spk_bench::oracle_C", A.num_rows(), k);
  const int threads = oracle_threads(A.num_rows(), static_cast<std::int64_t>(A.nnz()) * static_cast<std::int64_t>(k));
  for_row_blocks(A, threads, [&](std::size_t, std::int64_t begin, std::int64_t end) {
    const auto block = row_block(A, begin, end);
    Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> Cb(C.data() + begin * k,
                                                                      static_cast<std::size_t>(end - begin), k);
    spk::reference::spmm(1.0, block, B, 0.0, Cb);
  });
  return C;
}

// C = A B (sorted rows, double values, int64 offsets), concatenated from the blocks' oracle products.
template <class S, class Off>
HostOracleMatrix oracle_spgemm(const HostMatrix<S, Off>& A, const HostMatrix<S, Off>& B, std::int64_t products) {
  const int threads = oracle_threads(A.num_rows(), products);
  std::vector<HostOracleMatrix> parts(static_cast<std::size_t>(threads));
  for_row_blocks(A, threads, [&](std::size_t b, std::int64_t begin, std::int64_t end) {
    parts[b] = spk::reference::spgemm(row_block(A, begin, end), B);
  });
  std::int64_t nnz = 0;
  for (const auto& p : parts) nnz += p.nnz();
  HostOracleMatrix::row_map_type rm("spk_bench::oracle_C_row_map", static_cast<std::size_t>(A.num_rows()) + 1);
  HostOracleMatrix::entries_type ent(Kokkos::view_alloc(Kokkos::WithoutInitializing, "spk_bench::oracle_C_entries"),
                                     static_cast<std::size_t>(nnz));
  HostOracleMatrix::values_type val(Kokkos::view_alloc(Kokkos::WithoutInitializing, "spk_bench::oracle_C_values"),
                                    static_cast<std::size_t>(nnz));
  std::int64_t row = 0, at = 0;
  for (const auto& p : parts) {
    for (std::int64_t r = 0; r < p.num_rows(); ++r) rm(row + r + 1) = at + p.row_map()(r + 1);
    std::copy(p.entries().data(), p.entries().data() + p.nnz(), ent.data() + at);
    std::copy(p.values().data(), p.values().data() + p.nnz(), val.data() + at);
    row += p.num_rows();
    at += p.nnz();
  }
  return HostOracleMatrix(A.num_rows(), B.num_cols(), rm, ent, val);
}

// Sums of squares behind a relative norm error, added up over one or more parts of a result.
struct ErrorSums {
  double diff = 0, norm = 0;
  bool nan = false;  // the result held a NaN (a poisoned entry never written)

  // Adds a host rank-1 or rank-2 result against the oracle's; false once a NaN is seen.
  template <class Out, class Ref>
  bool add(const Out& out, const Ref& ref) {
    constexpr bool rank2 = static_cast<int>(Out::rank) == 2;
    const std::size_t rows = out.extent(0), cols = rank2 ? out.extent(1) : 1;
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < cols; ++j) {
        double o, r;
        if constexpr (rank2) {
          o = static_cast<double>(out(i, j));
          r = ref(i, j);
        } else {
          o = static_cast<double>(out(i));
          r = ref(i);
        }
        if (std::isnan(o)) {
          nan = true;
          return false;
        }
        diff += (o - r) * (o - r);
        norm += r * r;
      }
    return true;
  }

  // ||out - ref|| / ||ref|| (||out - ref|| when ref is 0), +inf after a NaN.
  double relative_error() const {
    if (nan) return std::numeric_limits<double>::infinity();
    return norm == 0 ? std::sqrt(diff) : std::sqrt(diff / norm);
  }

  Comparison compare(double tol) const {
    Comparison c;
    c.rel_error = relative_error();
    c.ok = c.rel_error <= tol;
    if (!c.ok) {
      char buf[128];
      std::snprintf(buf, sizeof buf, "relative error %.3g exceeds %.1g", c.rel_error, tol);
      c.message = buf;
    }
    return c;
  }
};

template <class Out, class Ref>
Comparison compare_dense(const Out& out, const Ref& ref, double tol) {
  ErrorSums sums;
  sums.add(out, ref);
  return sums.compare(tol);
}

// C (host copy, any offset type, rows possibly unsorted) against the oracle: same nnz, row_map and columns after
// sorting each row, values within tol.
template <class S, class Off>
Comparison compare_spgemm(const HostMatrix<S, Off>& C, const HostOracleMatrix& ref, double tol) {
  Comparison c;
  const auto fail = [&c](std::string m) {
    c.ok = false;
    c.message = std::move(m);
    return c;
  };
  if (C.num_rows() != ref.num_rows() || C.num_cols() != ref.num_cols())
    return fail("C is " + std::to_string(C.num_rows()) + " x " + std::to_string(C.num_cols()) + ", expected " +
                std::to_string(ref.num_rows()) + " x " + std::to_string(ref.num_cols()));
  if (static_cast<std::int64_t>(C.nnz()) != static_cast<std::int64_t>(ref.nnz()))
    return fail("C has " + std::to_string(static_cast<std::int64_t>(C.nnz())) + " nonzeros, expected " +
                std::to_string(static_cast<std::int64_t>(ref.nnz())));
  const auto rm = C.row_map();
  const auto ent = C.entries();
  const auto val = C.values();
  ErrorSums sums;
  std::vector<std::pair<std::int32_t, double>> row;
  for (std::int64_t r = 0; r < C.num_rows(); ++r) {
    if (static_cast<std::int64_t>(rm(r + 1)) != ref.row_map()(r + 1))
      return fail("C's row_map differs at row " + std::to_string(r + 1) + ": " +
                  std::to_string(static_cast<std::int64_t>(rm(r + 1))) + ", expected " +
                  std::to_string(ref.row_map()(r + 1)));
    row.clear();
    for (Off p = rm(r); p < rm(r + 1); ++p) row.emplace_back(ent(p), static_cast<double>(val(p)));
    std::sort(row.begin(), row.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::int64_t q = ref.row_map()(r);
    for (const auto& [col, v] : row) {
      if (col != ref.entries()(q))
        return fail("C's row " + std::to_string(r) + " has column " + std::to_string(col) + " where the oracle has " +
                    std::to_string(ref.entries()(q)));
      if (std::isnan(v)) return fail("C's row " + std::to_string(r) + " holds a NaN");
      const double o = ref.values()(q++);
      sums.diff += (v - o) * (v - o);
      sums.norm += o * o;
    }
  }
  c = sums.compare(tol);
  if (!c.ok) c.message = "values: " + c.message;
  return c;
}

// Products of A * B: sum over A's nonzeros a_ij of nnz(row j of B).
template <class S, class Off>
std::int64_t count_products(const HostMatrix<S, Off>& A, const HostMatrix<S, Off>& B) {
  std::int64_t total = 0;
  const auto ent = A.entries();
  const auto brm = B.row_map();
  for (std::int64_t p = 0; p < static_cast<std::int64_t>(A.nnz()); ++p)
    total += static_cast<std::int64_t>(brm(ent(p) + 1) - brm(ent(p)));
  return total;
}

// Exact nonzero count of A * B, computed with one marker array per thread; stops early and returns cap + 1 once
// the count exceeds cap (so a product too large to check costs little to detect).
template <class S, class Off>
std::int64_t spgemm_output_nnz(const HostMatrix<S, Off>& A, const HostMatrix<S, Off>& B, std::int64_t products,
                               std::int64_t cap) {
  std::atomic<std::int64_t> total{0};
  const int threads = std::min(oracle_threads(A.num_rows(), products), 16);
  for_row_blocks(A, threads, [&](std::size_t, std::int64_t begin, std::int64_t end) {
    std::vector<std::int64_t> marker(static_cast<std::size_t>(B.num_cols()), -1);
    const auto arm = A.row_map();
    const auto aent = A.entries();
    const auto brm = B.row_map();
    const auto bent = B.entries();
    std::int64_t local = 0;
    for (std::int64_t r = begin; r < end; ++r) {
      for (Off p = arm(r); p < arm(r + 1); ++p)
        for (Off q = brm(aent(p)); q < brm(aent(p) + 1); ++q) {
          std::int64_t& m = marker[static_cast<std::size_t>(bent(q))];
          if (m != r) {
            m = r;
            ++local;
          }
        }
      if ((r & 63) == 63 || r + 1 == end) {
        if (total.fetch_add(local) + local > cap) return;
        local = 0;
      }
    }
  });
  return std::min(total.load(), cap + 1);
}

// The bytes of host memory a checked SpGEMM with this many output nonzeros may hold at once: the oracle's C
// (double values, int32 columns), a host copy of the result and, on host back-ends, the results themselves.
template <class S>
constexpr std::int64_t spgemm_check_bytes_per_entry() {
  return 8 + 4 + 3 * static_cast<std::int64_t>(sizeof(S) + 4);
}

inline std::int64_t host_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<std::int64_t>(pages) * page : std::int64_t{16} << 30;
}

// The host memory a check may hold: --check-memory's MiB, or 40% of the host's memory.
inline std::int64_t check_memory_bytes(std::int64_t check_memory_mib) {
  return check_memory_mib > 0 ? check_memory_mib << 20 : host_memory_bytes() * 2 / 5;
}

// How the skip notes name that limit.
inline std::string check_memory_source(std::int64_t check_memory_mib) {
  return check_memory_mib > 0 ? "--check-memory" : "40% of host memory";
}

template <class S, class Off>
std::int64_t max_row_length(const HostMatrix<S, Off>& A) {
  std::int64_t m = 0;
  for (std::int64_t r = 0; r < A.num_rows(); ++r)
    m = std::max<std::int64_t>(m, static_cast<std::int64_t>(A.row_map()(r + 1) - A.row_map()(r)));
  return m;
}

}  // namespace spk_bench
