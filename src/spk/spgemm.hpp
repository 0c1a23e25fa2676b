#pragma once
// Sparse times sparse: C = A * B, all CSR. Two phases: spgemm_symbolic() bins rows by work, sizes C and records
// how each row is accumulated in a plan; spgemm_numeric() fills C's columns (sorted and duplicate-free unless the
// plan says unsorted) and values, and can be rerun alone when only the values of A and B change.
#include <algorithm>
#include <array>
#include <climits>
#include <limits>
#include <string>

#include <Kokkos_Core.hpp>

#include "algorithms.hpp"
#include "csr_matrix.hpp"
#include "impl/device_arena.hpp"
#include "impl/device_memory.hpp"
#include "impl/spgemm_paths.hpp"
#include "impl/spgemm_row_scan.hpp"
#include "select/spgemm_select.hpp"

namespace spk {

struct SpgemmOptions {
  SpgemmAlgorithm algorithm = SpgemmAlgorithm::automatic;
  bool sorted = true;                    // false: each row's columns in accumulator order (faster)
  std::int64_t memory_budget_bytes = 0;  // what the product may allocate, C included; 0: free device memory
  int scratch_bytes = 0;                 // team scratch per accumulator; 0: the back-end's budget
  SpgemmWalk walk = SpgemmWalk::automatic;  // how hash and dense teams walk a row's products
  // A bin of at most this many rows is run by the launch of the next larger bin that holds its rows; -1: the
  // back-end's default (SpgemmCapacity::small_bin_rows: 512 on GPUs, 0 on hosts; on GPUs sort bins also join while
  // their lanes fit the device's threads), 0: every bin its own launch.
  std::int64_t small_bin_rows = -1;
};

// The symbolic result, reusable by spgemm_numeric while A's and B's sparsity patterns stay the same.
template <class Matrix>
struct SpgemmPlan {
  using offset_type = typename Matrix::offset_type;
  using ordinal_type = typename Matrix::ordinal_type;
  using device_type = typename Matrix::device_type;
  static constexpr int paths = static_cast<int>(impl::SpgemmPath::gustavson) + 1;

  SpgemmAlgorithm algorithm = SpgemmAlgorithm::automatic;
  bool sorted = true;
  SpgemmWalk walk = SpgemmWalk::automatic;
  bool b_sorted = false;  // B's rows sorted and duplicate-free: one-entry rows of A copy, dense tiles search
  std::int64_t a_rows = -1, a_cols = -1, a_nnz = -1, b_rows = -1, b_cols = -1, b_nnz = -1;
  impl::DeviceArena<device_type> storage;           // holds lo, hi and bins' row list
  Kokkos::View<offset_type*, device_type> row_map;  // C's row offsets
  offset_type nnz = 0;                               // C's nonzeros
  std::int64_t products = 0;                         // intermediate products: sum over a_ij of nnz(row j of B)
  Kokkos::View<ordinal_type*, device_type, Kokkos::MemoryUnmanaged> lo, hi;  // each row's column span (hi < lo: none)
  impl::BinnedRows<device_type> bins;                // the numeric phase's rows per bin
  impl::GlobalBatches<device_type> global;           // its global rows' pool offsets and batches
  impl::GustavsonWorkspace gustavson;                // its Gustavson workers (none when no row takes that path)
  select::SpgemmCapacity capacity;
  double mean_b_row_length = 0;
  std::int64_t max_b_row_length = 0;
  std::array<std::int64_t, paths> symbolic_rows{}, numeric_rows{};  // rows per path, indexed by SpgemmPath
  std::size_t symbolic_batches = 0, numeric_batches = 0;            // global-pool launches
  std::int64_t memory_budget = 0;        // bytes the product may allocate
  std::int64_t peak_bytes_estimate = 0;  // the most it allocates at once: plan arrays, C, global pool
  double symbolic_seconds = 0;

  bool ready() const { return a_rows >= 0; }
};

// "tiny 1048576, hash 12, dense 3; 2 batches": the numeric phase's rows per path.
template <class Matrix>
std::string describe(const SpgemmPlan<Matrix>& plan) {
  std::string out;
  for (int p = 1; p < SpgemmPlan<Matrix>::paths; ++p)
    if (plan.numeric_rows[p])
      out += detail::concat(out.empty() ? "" : ", ", impl::to_string(static_cast<impl::SpgemmPath>(p)), " ",
                            plan.numeric_rows[p]);
  if (plan.numeric_batches > 1) out += detail::concat("; ", plan.numeric_batches, " batches");
  return out.empty() ? "empty" : out;
}

namespace detail {
template <class MatA, class MatB>
void check_spgemm_operands(const MatA& A, const MatB& B, const char* who) {
  static_assert(is_csr_matrix<MatA>::value && is_csr_matrix<MatB>::value, "spk::spgemm: A and B must be CsrMatrix");
  static_assert(std::is_same_v<typename MatA::device_type, typename MatB::device_type>,
                "spk::spgemm: A and B must live in the same space");
  static_assert(std::is_same_v<typename MatA::scalar_type, typename MatB::scalar_type>,
                "spk::spgemm: A and B must have the same scalar type");
  static_assert(std::is_same_v<typename MatA::ordinal_type, typename MatB::ordinal_type>,
                "spk::spgemm: A and B must have the same ordinal type");
  if (A.num_cols() != B.num_rows())
    throw invalid_argument(concat(who, ": A is ", A.num_rows(), " x ", A.num_cols(), " and B is ", B.num_rows(), " x ",
                                  B.num_cols(), "; expected A.cols == B.rows"));
}

template <class View>
std::int64_t bytes_of(const View& v) {
  return static_cast<std::int64_t>(v.span()) * static_cast<std::int64_t>(sizeof(typename View::value_type));
}
}  // namespace detail

template <class MatA, class MatB>
void spgemm_symbolic(const MatA& A, const MatB& B, SpgemmPlan<MatA>& plan, const SpgemmOptions& options = {}) {
  detail::check_spgemm_operands(A, B, "spk::spgemm_symbolic");
  using exec = typename MatA::execution_space;
  using Device = typename MatA::device_type;
  using Offset = typename MatA::offset_type;
  using Scalar = typename MatA::scalar_type;
  using Ordinal = typename MatA::ordinal_type;
  using BOffset = typename MatB::offset_type;
  using policy = Kokkos::RangePolicy<exec, Kokkos::IndexType<std::int64_t>>;
  if (options.memory_budget_bytes < 0)
    throw invalid_argument(detail::concat("spk::spgemm_symbolic: memory_budget_bytes is ", options.memory_budget_bytes,
                                          ", expected 0 (free device memory) or a positive byte count"));
  Kokkos::Timer timer;
  SpgemmPlan<MatA> p;
  p.algorithm = options.algorithm;
  p.sorted = options.sorted;
  p.walk = options.walk;
  p.a_rows = A.num_rows(), p.a_cols = A.num_cols(), p.a_nnz = A.nnz();
  p.b_rows = B.num_rows(), p.b_cols = B.num_cols(), p.b_nnz = B.nnz();
  p.capacity = select::spgemm_capacity<exec, Scalar, Ordinal>(options.scratch_bytes);
  if (options.small_bin_rows >= 0) p.capacity.small_bin_rows = options.small_bin_rows;
  if (options.small_bin_rows == 0) p.capacity.sort_wave_lanes = 0;
  p.mean_b_row_length = B.num_rows() ? static_cast<double>(B.nnz()) / B.num_rows() : 0.0;
  p.memory_budget = options.memory_budget_bytes ? options.memory_budget_bytes : impl::free_memory_bytes<exec>();
  const std::int64_t rows = A.num_rows(), b_rows = B.num_rows();
  const Ordinal b_cols = B.num_cols();

  // Two allocations besides row_map: the plan's arrays, and the symbolic phase's temporaries (both binnings'). Small
  // temporaries ride in the plan's allocation instead: a cudaMalloc and cudaFree pair costs 15 to 90 us on the H200,
  // about what a whole SpGEMM phase of a small matrix takes.
  using Arena = impl::DeviceArena<Device>;
  using Totals = impl::ScanTotals;
  constexpr int scan_words = 4 * sizeof(Totals) / sizeof(std::int64_t) + 2;  // see the scans below
  const auto bin_count = [&](bool numeric) {
    return impl::SpgemmBinRule(options.algorithm, numeric, true, p.capacity, 0).bins().size();
  };
  const std::int64_t plan_arena_bytes =
      2 * Arena::template bytes_for<Ordinal>(rows) + Arena::template bytes_for<int>(rows);
  const std::int64_t temp_arena_bytes = Arena::template bytes_for<std::int64_t>(scan_words) +
                                        2 * Arena::template bytes_for<Ordinal>(b_rows) +
                                        2 * Arena::template bytes_for<int>(rows) +
                                        Arena::template bytes_for<int>(std::max(rows, b_rows)) +
                                        impl::bin_rows_scratch_bytes<Device>(rows, bin_count(false)) +
                                        2 * impl::bin_rows_scratch_bytes<Device>(rows, bin_count(true));
  const bool plan_keeps_temporaries = temp_arena_bytes <= select::SpgemmCapacity::plan_keeps_temporaries_bytes;
  p.storage = Arena("spk::spgemm::plan", plan_arena_bytes + (plan_keeps_temporaries ? temp_arena_bytes : 0));
  Arena own_temp = plan_keeps_temporaries ? Arena() : Arena("spk::spgemm::symbolic_scratch", temp_arena_bytes);
  Arena& temp = plan_keeps_temporaries ? p.storage : own_temp;

  // Both scans queue their results (two ScanTotals each) and long-row counts in one zeroed block, which comes back
  // in one host wait.
  const auto scan_block = temp.template take<std::int64_t>(scan_words);
  Kokkos::deep_copy(exec(), scan_block, std::int64_t{0});
  const Kokkos::View<Totals*, Device, Kokkos::MemoryUnmanaged> totals(reinterpret_cast<Totals*>(scan_block.data()), 4);
  // C's row offsets, allocated before the scans are queued (with Kokkos 3 an allocation waits for the queue).
  // Row counts start at zero: the symbolic paths write only rows with products.
  p.row_map = rows ? Kokkos::View<Offset*, Device>(
                         impl::uninitialized<exec>("spk::spgemm::row_map"), rows + 1)
                   : Kokkos::View<Offset*, Device>(impl::zeroed<exec>("spk::spgemm::row_map"), 1);

  // B's rows: column span, and whether they are sorted and duplicate-free (which lets a one-entry row of A copy).
  const auto b_lo = temp.template take<Ordinal>(b_rows);
  const auto b_hi = temp.template take<Ordinal>(b_rows);
  const auto b_map = B.row_map();
  const auto b_ent = B.entries();
  const auto long_rows = temp.template take<int>(std::max(rows, b_rows));  // both scans' long rows
  impl::scan_rows<exec>(
      "spk::spgemm::b_spans", b_rows, B.nnz(), b_cols, long_rows, Kokkos::subview(scan_block, scan_words - 2),
      KOKKOS_LAMBDA(std::int64_t r) { return b_map(r); },
      KOKKOS_LAMBDA(BOffset begin, BOffset q, impl::RowSpan<Ordinal> & s) {
        const Ordinal c = b_ent(q);
        s.ordered = s.ordered && (q == begin || c > b_ent(q - 1));
        s.add(c, c, 1);
      },
      KOKKOS_LAMBDA(std::int64_t r, const impl::RowSpan<Ordinal>& s) {
        b_lo(r) = s.low;
        b_hi(r) = s.high;
        return std::int64_t{s.ordered ? 0 : 1};
      },
      Kokkos::subview(totals, std::make_pair(0, 2)));

  // A's rows: products (each row's, saturated to an int, bins both phases), column span.
  p.lo = p.storage.template take<Ordinal>(rows);
  p.hi = p.storage.template take<Ordinal>(rows);
  const auto row_products = temp.template take<int>(rows);
  const auto lo = p.lo, hi = p.hi;
  const auto a_map = A.row_map();
  const auto a_ent = A.entries();
  const auto row_map = p.row_map;
  impl::scan_rows<exec>(
      "spk::spgemm::row_bounds", rows, A.nnz(), b_cols, long_rows, Kokkos::subview(scan_block, scan_words - 1),
      KOKKOS_LAMBDA(std::int64_t r) { return a_map(r); },
      KOKKOS_LAMBDA(Offset, Offset q, impl::RowSpan<Ordinal> & s) {
        const Ordinal j = a_ent(q);
        const std::int64_t len = b_map(j + 1) - b_map(j);
        if (len) s.add(b_lo(j), b_hi(j), len);
      },
      KOKKOS_LAMBDA(std::int64_t row, const impl::RowSpan<Ordinal>& s) {
        row_map(row) = 0;
        lo(row) = s.low;
        hi(row) = s.high;
        constexpr std::int64_t most = INT_MAX;  // the macro: numeric_limits is host-only under nvcc
        row_products(row) = static_cast<int>(s.count < most ? s.count : most);
        return s.count;
      },
      Kokkos::subview(totals, std::make_pair(2, 4)));
  const auto scanned = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), totals);
  const Totals b_scan = impl::combine(scanned(0), scanned(1)), a_scan = impl::combine(scanned(2), scanned(3));
  const std::int64_t unsorted_rows = b_scan.sum;
  p.max_b_row_length = b_scan.most;
  p.products = a_scan.sum;

  // Symbolic: bin by the bound, count each row's distinct columns into row_map, the global pool within the budget.
  p.b_sorted = unsorted_rows == 0;
  const std::int64_t plan_bytes = detail::bytes_of(p.row_map) + p.storage.capacity();
  const std::int64_t symbolic_fixed = plan_bytes + own_temp.capacity();
  const std::int64_t symbolic_pool = std::max<std::int64_t>(0, p.memory_budget - symbolic_fixed) / sizeof(Ordinal);
  // Gustavson where asked (automatic: on host back-ends) and its accumulators fit, else the binned paths.
  const bool want_gustavson = options.algorithm == SpgemmAlgorithm::gustavson ||
                              (options.algorithm == SpgemmAlgorithm::automatic && is_host_space<exec>());
  const auto gustavson_or_binned = [&](bool numeric, std::int64_t budget, impl::GustavsonWorkspace& ws) {
    if (want_gustavson)
      ws = impl::gustavson_workspace<exec>(b_cols, impl::GustavsonWorkspace::column_bytes<Scalar>(numeric), budget);
    if (ws.workers > 0) return SpgemmAlgorithm::gustavson;
    return options.algorithm == SpgemmAlgorithm::gustavson || options.algorithm == SpgemmAlgorithm::automatic
               ? SpgemmAlgorithm::binned
               : options.algorithm;
  };
  impl::GustavsonWorkspace symbolic_gustavson;
  const SpgemmAlgorithm symbolic_algorithm =
      gustavson_or_binned(false, p.memory_budget - symbolic_fixed, symbolic_gustavson);
  // Automatic leaves the rows of a small matrix to tables: see SpgemmCapacity::merge_min_rows.
  const bool allow_merge =
      options.algorithm != SpgemmAlgorithm::automatic || rows >= p.capacity.merge_min_rows;
  const impl::SpgemmBinRule symbolic_rule(symbolic_algorithm, false, p.b_sorted, p.capacity, symbolic_pool,
                                          allow_merge);
  const auto symbolic_bin = KOKKOS_LAMBDA(std::int64_t row) {
    const std::int64_t range = impl::span_width(lo(row), hi(row)), products = row_products(row);
    return symbolic_rule(a_map(row + 1) - a_map(row), impl::SpgemmBinRule::bound(products, range), range, products);
  };
  std::int64_t unused_weight = 0;
  const auto symbolic_bins = impl::bin_rows<exec, Device>(
      rows, symbolic_rule.bins(), symbolic_bin, KOKKOS_LAMBDA(std::int64_t) { return std::int64_t{0}; },
      KOKKOS_LAMBDA(std::int64_t) { return std::int64_t{0}; }, unused_weight, temp, temp.template take<int>(rows));
  const auto symbolic_global = impl::plan_global_batches<exec>(
      symbolic_bins.slice(symbolic_rule.global),
      KOKKOS_LAMBDA(int row) {
        const std::int64_t range = impl::span_width(lo(row), hi(row));
        return symbolic_rule.slots_for(impl::SpgemmBinRule::bound(row_products(row), range), range);
      },
      symbolic_pool);
  const impl::SpgemmViews<MatA, MatB> sv(A, B, p.row_map);
  impl::run_spgemm_bins<false>(sv, symbolic_bins, symbolic_global, symbolic_gustavson, p.capacity,
                               p.mean_b_row_length, p.max_b_row_length, lo, hi, p.sorted, p.b_sorted, p.walk);
  for (int path = 0; path < SpgemmPlan<MatA>::paths; ++path)
    p.symbolic_rows[path] = symbolic_bins.rows_on(static_cast<impl::SpgemmPath>(path));
  p.symbolic_batches = symbolic_global.batches();

  // Numeric: bin again by the exact counts, still in row_map, which size tables far tighter than the bound. The
  // binning also sums the counts, so C's size comes back with the bin sizes in one host wait. The rule depends on
  // the memory left beside C, so it is first drawn up as if every product were a distinct entry of C, and drawn up
  // again with C's true size (the rows binned again) only when the two rules could place a row differently.
  const std::int64_t entry_bytes = static_cast<std::int64_t>(sizeof(Ordinal) + sizeof(Scalar));
  // The numeric sort packs column * slots + slot in an Ordinal: wider products leave its rows to other paths.
  select::SpgemmCapacity numeric_capacity = p.capacity;
  if (!impl::sort_keys_fit<Ordinal>(b_cols, numeric_capacity.sort_max_products)) numeric_capacity.sort_max_products = 0;
  const auto numeric_rule_for = [&](std::int64_t c_entries, impl::GustavsonWorkspace& ws) {
    const std::int64_t left = p.memory_budget - plan_bytes - c_entries * entry_bytes;
    return impl::SpgemmBinRule(gustavson_or_binned(true, left, ws), true, p.b_sorted, numeric_capacity,
                               std::max<std::int64_t>(0, left) / entry_bytes, allow_merge);
  };
  const auto numeric_list = p.storage.template take<int>(rows);
  impl::GustavsonWorkspace bound_gustavson;
  impl::SpgemmBinRule numeric_rule = numeric_rule_for(p.products, bound_gustavson);
  std::int64_t total = 0;
  for (bool first_try = true;; first_try = false) {
    const impl::SpgemmBinRule rule = numeric_rule;
    p.bins = impl::bin_rows<exec, Device>(
        rows, rule.bins(),
        KOKKOS_LAMBDA(std::int64_t row) {
          return rule(a_map(row + 1) - a_map(row), row_map(row), impl::span_width(lo(row), hi(row)),
                      row_products(row));
        },
        KOKKOS_LAMBDA(std::int64_t row) { return static_cast<std::int64_t>(row_map(row)); },
        KOKKOS_LAMBDA(std::int64_t row) { return impl::span_width(lo(row), hi(row)); }, total, temp, numeric_list);
    if (!first_try) break;
    // C's size, in 64 bits: an Offset overflow is refused before anything of C's size is allocated.
    if (total > static_cast<std::int64_t>(std::numeric_limits<Offset>::max()))
      throw invalid_argument(detail::concat("spk::spgemm_symbolic: C would have ", total,
                                            " nonzeros, more than the offset type holds (",
                                            std::numeric_limits<Offset>::max(), "); use int64 offsets"));
    if (plan_bytes + total * entry_bytes > p.memory_budget)
      throw invalid_argument(detail::concat("spk::spgemm_symbolic: C = A*B has ", total, " nonzeros (",
                                            total * entry_bytes, " bytes) and the plan ", plan_bytes,
                                            " bytes, more than the memory budget of ", p.memory_budget, " bytes"));
    numeric_rule = numeric_rule_for(total, p.gustavson);
    if (numeric_rule.places_rows_as(rule, b_cols)) break;
  }
  p.nnz = static_cast<Offset>(total);
  const std::int64_t c_bytes = total * entry_bytes;
  const std::int64_t numeric_pool = numeric_rule.global_slots;

  // Offsets from the counts, queued behind the binning: no host wait.
  Kokkos::parallel_scan(
      "spk::spgemm::row_map", policy(0, rows),
      KOKKOS_LAMBDA(std::int64_t r, std::int64_t & running, const bool final) {
        const std::int64_t count = row_map(r);
        if (final) row_map(r) = static_cast<Offset>(running);
        running += count;
        if (final && r == rows - 1) row_map(rows) = static_cast<Offset>(running);
      });
  p.global = impl::plan_global_batches<exec>(
      p.bins.slice(numeric_rule.global),
      KOKKOS_LAMBDA(int row) {
        return numeric_rule.slots_for(row_map(row + 1) - row_map(row), impl::span_width(lo(row), hi(row)));
      },
      numeric_pool);
  for (int path = 0; path < SpgemmPlan<MatA>::paths; ++path)
    p.numeric_rows[path] = p.bins.rows_on(static_cast<impl::SpgemmPath>(path));
  p.numeric_batches = p.global.batches();
  p.peak_bytes_estimate = std::max(
      symbolic_fixed + symbolic_global.pool_slots * static_cast<std::int64_t>(sizeof(Ordinal)) +
          symbolic_gustavson.bytes(impl::GustavsonWorkspace::column_bytes<Scalar>(false)),
      plan_bytes + c_bytes + p.global.pool_slots * static_cast<std::int64_t>(sizeof(Ordinal) + sizeof(Scalar)) +
          p.gustavson.bytes(impl::GustavsonWorkspace::column_bytes<Scalar>(true)));
  p.symbolic_seconds = timer.seconds();
  plan = std::move(p);
}

// Fills C = A * B using a plan from spgemm_symbolic on matrices with the same sparsity patterns. C's arrays are
// reused when C already holds this plan's structure, else allocated.
template <class MatA, class MatB>
void spgemm_numeric(const SpgemmPlan<MatA>& plan, const MatA& A, const MatB& B, MatA& C) {
  detail::check_spgemm_operands(A, B, "spk::spgemm_numeric");
  if (!plan.ready()) throw invalid_argument("spk::spgemm_numeric: the plan is empty; run spk::spgemm_symbolic first");
  if (plan.a_rows != A.num_rows() || plan.a_cols != A.num_cols() || plan.a_nnz != A.nnz() ||
      plan.b_rows != B.num_rows() || plan.b_cols != B.num_cols() || plan.b_nnz != B.nnz())
    throw invalid_argument(detail::concat(
        "spk::spgemm_numeric: the plan was made for A ", plan.a_rows, " x ", plan.a_cols, " (", plan.a_nnz,
        " nonzeros) and B ", plan.b_rows, " x ", plan.b_cols, " (", plan.b_nnz, " nonzeros), got A ", A.num_rows(),
        " x ", A.num_cols(), " (", A.nnz(), ") and B ", B.num_rows(), " x ", B.num_cols(), " (", B.nnz(), ")"));
  if (C.row_map().data() != plan.row_map.data() || C.nnz() != plan.nnz || C.num_cols() != B.num_cols()) {
    using exec = typename MatA::execution_space;
    typename MatA::entries_type entries(impl::uninitialized<exec>("spk::spgemm::C_entries"), plan.nnz);
    typename MatA::values_type values(impl::uninitialized<exec>("spk::spgemm::C_values"), plan.nnz);
    C = MatA(A.num_rows(), B.num_cols(), plan.row_map, entries, values);
  }
  const impl::SpgemmViews<MatA, MatB> nv(A, B, plan.row_map, C.entries(), C.values());
  impl::run_spgemm_bins<true>(nv, plan.bins, plan.global, plan.gustavson, plan.capacity, plan.mean_b_row_length,
                              plan.max_b_row_length, plan.lo, plan.hi, plan.sorted, plan.b_sorted, plan.walk);
}

template <class MatA, class MatB>
MatA spgemm(const MatA& A, const MatB& B, const SpgemmOptions& options = {}) {
  SpgemmPlan<MatA> plan;
  spgemm_symbolic(A, B, plan, options);
  MatA C;
  spgemm_numeric(plan, A, B, C);
  return C;
}

}  // namespace spk
