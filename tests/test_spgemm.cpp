// SpGEMM against the sequential oracle: exact structure (sorted, duplicate-free), values by relative error, on
// every path forced on purpose (row merge, sorted rows, tiny rows, hash, dense tile, global fallback) and the
// automatic binning, sorted and unsorted output, batched and unbatched global pools, edge shapes, symbolic reuse,
// and the argument checks.
#include <array>
#include <utility>

#include <spk/reference/reference.hpp>
#include <spk/spgemm.hpp>

#include "test_common.hpp"
#include "test_matrices.hpp"

using namespace spk_test;

template <class T>
class Spgemm : public ::testing::Test {};
TYPED_TEST_SUITE(Spgemm, ScalarOffsetTypes);

namespace {
using Path = spk::impl::SpgemmPath;
using RefMatrix = spk::HostCsrMatrix<double, std::int32_t, std::int64_t>;

std::vector<spk::SpgemmAlgorithm> every_algorithm() {
  auto all = spk::all_algorithms<spk::SpgemmAlgorithm>();
  all.insert(all.begin(), spk::SpgemmAlgorithm::automatic);
  return all;
}

// Compares C (on any space) with the oracle: identical row_map and columns, values within tolerance. Unsorted
// output is sorted row by row first (its columns must still be distinct).
template <class S, class Off, class Space>
void expect_matches_oracle(const spk::CsrMatrix<S, std::int32_t, Off, Space>& C, const RefMatrix& ref,
                           const std::string& what, bool sorted = true) {
  auto hC = spk::to_host(C);
  ASSERT_EQ(hC.num_rows(), ref.num_rows()) << what;
  ASSERT_EQ(hC.num_cols(), ref.num_cols()) << what;
  ASSERT_EQ(static_cast<std::int64_t>(hC.nnz()), static_cast<std::int64_t>(ref.nnz())) << what;
  for (std::int64_t r = 0; r <= hC.num_rows(); ++r)
    ASSERT_EQ(static_cast<std::int64_t>(hC.row_map()(r)), ref.row_map()(r)) << what << ", row_map at " << r;
  if (!sorted) {
    for (std::int64_t r = 0; r < hC.num_rows(); ++r) {
      std::vector<std::pair<std::int32_t, S>> row;
      for (auto p = hC.row_map()(r); p < hC.row_map()(r + 1); ++p) row.emplace_back(hC.entries()(p), hC.values()(p));
      std::sort(row.begin(), row.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
      for (std::size_t i = 0; i < row.size(); ++i)
        hC.entries()(hC.row_map()(r) + i) = row[i].first, hC.values()(hC.row_map()(r) + i) = row[i].second;
    }
  }
  for (std::int64_t p = 0; p < ref.nnz(); ++p) ASSERT_EQ(hC.entries()(p), ref.entries()(p)) << what << ", entry " << p;
  EXPECT_LE(relative_error(hC.values(), ref.values()), tolerance<S>()) << what;
}

Shape square(std::string name, std::int64_t n, std::int64_t lo, std::int64_t hi) {
  return {std::move(name), n, n, [=](std::int64_t, std::mt19937_64& g) {
            return std::uniform_int_distribution<std::int64_t>(lo, hi)(g);
          }};
}

// A 400-row A whose rows land on different paths under a 4 KiB scratch budget, times a wide B (20000 columns):
// short rows (tiny tables), every 10th row medium (a hash table of 256), every 50th long (about 900 distinct
// columns over the whole width: too many tiles for dense, so the global pool), some with one entry (copies).
const Shape mixed_a{"mixed", 400, 400, [](std::int64_t r, std::mt19937_64& g) -> std::int64_t {
                      if (r % 50 == 0) return 150;
                      if (r % 10 == 0) return 25;
                      return std::int64_t(g() % 6);
                    }};
const Shape wide_b{"wide_b", 400, 20000, [](std::int64_t, std::mt19937_64& g) { return std::int64_t(6 + g() % 3); }};
// B with few columns: every product row is dense relative to its span, the dense tile's case.
const Shape narrow_b{"narrow_b", 400, 60, [](std::int64_t, std::mt19937_64& g) { return std::int64_t(g() % 12); }};
constexpr int small_scratch = 4096;
// Rows of A with 65 to 128 entries over a B of at most 3 entries in 40 columns: merges that need every lane of a
// CUDA warp (up to four rows of B per lane) or half a HIP wavefront, and rows too long for one host thread's
// cursors.
const Shape many_entries_a{"many_entries", 120, 128, [](std::int64_t, std::mt19937_64& g) {
                             return std::int64_t(65 + g() % 64);
                           }};
const Shape short_b{"short_b", 128, 40, [](std::int64_t, std::mt19937_64& g) { return std::int64_t(g() % 4); }};
// Rows of 30 entries of A over B's rows of 3 in 40 columns: 90 products, too many for a sort bin, at most 40
// distinct columns, and few enough rows of B for one host thread's merge cursors: every row merges.
const Shape merge_a{"merge_rows", 120, 128, [](std::int64_t, std::mt19937_64&) { return std::int64_t(30); }};
const Shape three_b{"three_b", 128, 40, [](std::int64_t, std::mt19937_64&) { return std::int64_t(3); }};

// A copy of a host matrix with every row's entries in reverse order: not sorted, so neither copied nor merged.
template <class Matrix>
Matrix reversed_rows(const Matrix& m) {
  const Matrix r(m.num_rows(), m.num_cols(), m.row_map(), Kokkos::create_mirror(m.entries()),
                 Kokkos::create_mirror(m.values()));  // fresh arrays: m stays as it is
  Kokkos::deep_copy(r.entries(), m.entries());
  Kokkos::deep_copy(r.values(), m.values());
  for (std::int64_t i = 0; i < r.num_rows(); ++i) {
    std::reverse(r.entries().data() + r.row_map()(i), r.entries().data() + r.row_map()(i + 1));
    std::reverse(r.values().data() + r.row_map()(i), r.values().data() + r.row_map()(i + 1));
  }
  return r;
}

template <class S, class Off>
struct Operands {
  spk::HostCsrMatrix<S, std::int32_t, Off> hA, hB;
  RefMatrix ref;
  std::uint64_t seed;
  Operands(const Shape& a, const Shape& b) : seed(fresh_seed()) {
    hA = random_csr<S, Off>(a, seed);
    hB = random_csr<S, Off>(b, seed + 1);
    ref = spk::reference::spgemm(hA, hB);
  }
  auto A() const { return spk::copy_to<TestDevice>(hA); }
  auto B() const { return spk::copy_to<TestDevice>(hB); }
  std::string what(const Shape& a, const Shape& b, const spk::SpgemmOptions& o) const {
    return a.name + " * " + b.name + ", " + std::string(spk::to_string(o.algorithm)) +
           (o.sorted ? "" : ", unsorted") + ", walk " + std::string(spk::to_string(o.walk)) + ", small bins " +
           std::to_string(o.small_bin_rows) + ", scratch " +
           std::to_string(o.scratch_bytes) + ", budget " +
           std::to_string(o.memory_budget_bytes) + ", seed " + std::to_string(seed);
  }
};

// Bins of at most this many rows join the next bin that holds them: every bin of a test matrix that can join one.
constexpr std::int64_t join_every_bin = std::int64_t{1} << 40;

// Each path forced (and automatic), sorted and unsorted, each product walk: the flat walk with every bin its own
// launch, walking by entries with every bin that can join a larger one joined (the two are independent choices).
template <class S, class Off>
void check_every_algorithm(const Shape& a, const Shape& b, int scratch_bytes = 0) {
  const Operands<S, Off> op(a, b);
  const auto A = op.A();
  const auto B = op.B();
  for (const auto algorithm : every_algorithm())
    for (const bool sorted : {true, false})
      for (const auto walk : {spk::SpgemmWalk::flat, spk::SpgemmWalk::by_entries}) {
        spk::SpgemmOptions o;
        o.algorithm = algorithm;
        o.sorted = sorted;
        o.walk = walk;
        o.small_bin_rows = walk == spk::SpgemmWalk::flat ? 0 : join_every_bin;
        o.scratch_bytes = scratch_bytes;
        expect_matches_oracle(spk::spgemm(A, B, o), op.ref, op.what(a, b, o), sorted);
      }
}
}  // namespace

TYPED_TEST(Spgemm, EveryPathSortedAndUnsorted) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  const auto A = square("random", 400, 0, 12);
  check_every_algorithm<S, Off>(A, A);
  check_every_algorithm<S, Off>(mixed_a, wide_b, small_scratch);  // multi-tile dense rows when forced
  check_every_algorithm<S, Off>(mixed_a, narrow_b);
  check_every_algorithm<S, Off>(many_entries_a, short_b);
}

TYPED_TEST(Spgemm, EdgeShapes) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  for (const auto& shape : edge_shapes()) {
    if (shape.cols > 3000) continue;
    // B has as many rows as A has columns; its rows are short so that products stay small.
    const Shape b{"B", shape.cols, 37, [](std::int64_t r, std::mt19937_64&) { return r % 5; }};
    check_every_algorithm<S, Off>(shape, b);
    check_every_algorithm<S, Off>(shape, b, 1024);
  }
}

TYPED_TEST(Spgemm, DenseOutputRowsAndEmptyResult) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  // One dense row of A times a B with full rows: a C row holding every column (larger than scratch).
  const Shape a{"dense_row", 30, 300, [](std::int64_t r, std::mt19937_64&) { return r == 0 ? 300 : 2; }};
  const Shape b{"wide_b", 300, 6000, [](std::int64_t r, std::mt19937_64&) { return r % 7 == 0 ? 6000 : 3; }};
  check_every_algorithm<S, Off>(a, b);
  // Products of empty rows: C exists with no nonzeros.
  const Shape empty{"empty", 50, 50, [](std::int64_t, std::mt19937_64&) { return 0; }};
  check_every_algorithm<S, Off>(empty, square("random", 50, 0, 5));
  check_every_algorithm<S, Off>(square("random", 50, 0, 5), empty);
}

// The automatic binning really sends rows down every path, and a forced path really takes the rows it can hold.
TYPED_TEST(Spgemm, BinsReachEveryPath) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  const Operands<S, Off> wide(mixed_a, wide_b), narrow(mixed_a, narrow_b);
  using M = std::decay_t<decltype(wide.A())>;
  const auto plan_of = [](const auto& op, spk::SpgemmAlgorithm algorithm, int scratch) {
    spk::SpgemmOptions o;
    o.algorithm = algorithm;
    o.scratch_bytes = scratch;
    spk::SpgemmPlan<M> plan;
    spk::spgemm_symbolic(op.A(), op.B(), plan, o);
    return plan;
  };
  const auto rows_on = [](const spk::SpgemmPlan<M>& p, Path path) { return p.numeric_rows[static_cast<int>(path)]; };
  const auto binned = plan_of(wide, spk::SpgemmAlgorithm::binned, small_scratch);
  for (const Path path : {Path::copy, Path::sort, Path::global})
    EXPECT_GT(rows_on(binned, path), 0) << spk::describe(binned) << ", seed " << wide.seed;
  const auto full_scratch = plan_of(wide, spk::SpgemmAlgorithm::binned, 0);  // tables for the 25-entry rows
  EXPECT_GT(rows_on(full_scratch, Path::hash), 0) << spk::describe(full_scratch) << ", seed " << wide.seed;
  // Short rows sort; rows of over 64 products with few distinct columns merge.
  EXPECT_EQ(rows_on(binned, Path::tiny) + rows_on(binned, Path::merge), 0) << spk::describe(binned);
  const Operands<S, Off> merging(merge_a, three_b);
  const auto merged = plan_of(merging, spk::SpgemmAlgorithm::binned, 0);
  EXPECT_EQ(rows_on(merged, Path::merge), merging.hA.num_rows()) << spk::describe(merged) << ", seed " << merging.seed;
  EXPECT_GT(rows_on(plan_of(narrow, spk::SpgemmAlgorithm::binned, 0), Path::dense), 0) << narrow.seed;
  // With B's rows unsorted nothing copies or merges, and the short rows still sort.
  spk::SpgemmOptions o;
  o.algorithm = spk::SpgemmAlgorithm::binned;
  o.scratch_bytes = small_scratch;
  spk::SpgemmPlan<M> unsorted_b;
  spk::spgemm_symbolic(wide.A(), spk::copy_to<TestDevice>(reversed_rows(wide.hB)), unsorted_b, o);
  EXPECT_GT(rows_on(unsorted_b, Path::sort), 0) << spk::describe(unsorted_b) << ", seed " << wide.seed;
  EXPECT_EQ(rows_on(unsorted_b, Path::merge) + rows_on(unsorted_b, Path::copy), 0) << spk::describe(unsorted_b);

  const std::pair<spk::SpgemmAlgorithm, Path> forced[] = {{spk::SpgemmAlgorithm::row_merge, Path::merge},
                                                          {spk::SpgemmAlgorithm::sort_rows, Path::sort},
                                                          {spk::SpgemmAlgorithm::tiny_rows, Path::tiny},
                                                          {spk::SpgemmAlgorithm::hash, Path::hash},
                                                          {spk::SpgemmAlgorithm::dense_tile, Path::dense},
                                                          {spk::SpgemmAlgorithm::global, Path::global},
                                                          {spk::SpgemmAlgorithm::gustavson, Path::gustavson}};
  for (const auto& [algorithm, path] : forced) {
    const auto p = plan_of(wide, algorithm, 0);
    EXPECT_GT(rows_on(p, path), 0) << spk::to_string(algorithm) << ": " << spk::describe(p);
    for (const Path other :
         {Path::copy, Path::merge, Path::sort, Path::tiny, Path::hash, Path::dense, Path::global, Path::gustavson})
      if (other != path && other != Path::global && other != Path::dense)
        EXPECT_EQ(rows_on(p, other), 0) << spk::to_string(algorithm) << ": " << spk::describe(p);
  }
}

// A hand-made bin list: bins[b] holds counts[b] rows, listed in bin order; no row spans any column.
static spk::impl::BinnedRows<TestDevice> binned_rows(std::vector<spk::impl::SpgemmBin> bins,
                                                     const std::vector<std::int64_t>& counts) {
  spk::impl::BinnedRows<TestDevice> binned;
  binned.bins = std::move(bins);
  binned.begin.assign(counts.size() + 1, 0);
  for (std::size_t b = 0; b < counts.size(); ++b) binned.begin[b + 1] = binned.begin[b] + counts[b];
  binned.widest.assign(counts.size(), 0);
  return binned;
}

// A bin of a few rows joins the launch of the next busy bin when that bin holds its rows at little cost (a table, sort
// or lane group of its path at most 4 times as large; a hash table 1 to 4 times as large for a tiny row; no wider a
// span for any row joining a hash bin), and every row is launched once.
TEST(SpgemmBinLaunches, SmallBinsJoinTheNextBinThatHoldsTheirRows) {
  using Bin = spk::impl::SpgemmBin;
  const std::vector<std::int64_t> counts{0, 5, 0, 3, 2, 100, 4, 2, 9, 0, 600, 8, 7, 1};
  auto binned = binned_rows({Bin{}, Bin{Path::copy}, Bin{Path::merge, 0, 1}, Bin{Path::merge, 0, 2}, Bin{Path::sort, 8},
                             Bin{Path::sort, 16}, Bin{Path::tiny, 8}, Bin{Path::tiny, 32}, Bin{Path::hash, 8},
                             Bin{Path::hash, 16}, Bin{Path::hash, 32}, Bin{Path::hash, 64}, Bin{Path::dense},
                             Bin{Path::global}},
                            counts);
  for (std::size_t b = 0; b < counts.size(); ++b) binned.widest[b] = 10 * static_cast<std::int64_t>(b);
  binned.widest[10] = 300;  // hash 32's rows span more than hash 64's
  struct Seen {
    std::size_t bin;
    std::int64_t begin, count, widest;
    bool operator==(const Seen& o) const {
      return bin == o.bin && begin == o.begin && count == o.count && widest == o.widest;
    }
  };
  const auto launches_of = [&](std::int64_t few) {
    std::vector<Seen> out;
    for (const auto& l : spk::impl::bin_launches(binned, few))
      out.push_back({l.bin, l.rows.begin, l.rows.count, l.widest});
    return out;
  };
  // few = 0: every busy bin its own launch.
  std::vector<Seen> own;
  for (std::size_t b = 0; b < counts.size(); ++b)
    if (counts[b]) own.push_back({b, binned.begin[b], counts[b], binned.widest[b]});
  EXPECT_EQ(launches_of(0), own);
  // few = 10: copy, dense and global never join; the 2 rows of sort 8 join sort 16; tiny 8's 4 rows join tiny 32,
  // whose 6 rows then stop at hash 8 (too small a table for tiny 32's rows); hash 8's 9 rows join hash 32 over the
  // empty hash 16; hash 64 keeps its 8 rows.
  const std::vector<Seen> joined{{1, 0, 5, 10},       {3, 5, 3, 30},       {5, 8, 102, 50},   {7, 110, 6, 70},
                                 {10, 116, 609, 300}, {11, 725, 8, 110},   {12, 733, 7, 120}, {13, 740, 1, 130}};
  EXPECT_EQ(launches_of(10), joined);
  // few = 1000: hash 32's 609 rows would join hash 64 but span more columns than its rows do.
  EXPECT_EQ(launches_of(1000)[4], (Seen{10, 116, 609, 300}));
  // A bin more than 4 times as large takes no rows; nor does another path, but a hash table for tiny rows.
  using spk::impl::bin_takes_rows_of;
  EXPECT_TRUE(bin_takes_rows_of(Bin{Path::sort, 32}, 0, Bin{Path::sort, 8}, 0));
  EXPECT_FALSE(bin_takes_rows_of(Bin{Path::sort, 64}, 0, Bin{Path::sort, 8}, 0));
  EXPECT_TRUE(bin_takes_rows_of(Bin{Path::merge, 0, 4}, 0, Bin{Path::merge, 0, 1}, 0));
  EXPECT_FALSE(bin_takes_rows_of(Bin{Path::merge, 0, 8}, 0, Bin{Path::merge, 0, 1}, 0));
  EXPECT_FALSE(bin_takes_rows_of(Bin{Path::hash, 128}, 0, Bin{Path::hash, 16}, 0));
  EXPECT_FALSE(bin_takes_rows_of(Bin{Path::dense}, 0, Bin{Path::hash, 16}, 0));
  EXPECT_FALSE(bin_takes_rows_of(Bin{Path::hash, 64}, 0, Bin{Path::sort, 16}, 0));
  EXPECT_TRUE(bin_takes_rows_of(Bin{Path::hash, 64}, 0, Bin{Path::tiny, 16}, 0));
}

// Sort bins of any size join the next sort bin (at most 4 times as large) while the rows joined so far and that bin's
// own fit what the device's threads hold of that bin's rows.
TEST(SpgemmBinLaunches, SortBinsJoinWhileTheyFitOneWave) {
  using Bin = spk::impl::SpgemmBin;
  const auto binned = binned_rows({Bin{}, Bin{Path::sort, 8}, Bin{Path::sort, 16}, Bin{Path::sort, 32},
                                   Bin{Path::sort, 64}, Bin{Path::sort, 128}, Bin{Path::hash, 256}},
                                  {0, 50, 60, 70, 0, 500, 40});
  const auto launches_of = [&](std::int64_t lanes) {
    std::vector<std::array<std::int64_t, 3>> out;
    const auto wave_rows = [lanes](int slots) { return lanes / (slots / 8); };  // a lane per 8 products
    for (const auto& l : spk::impl::bin_launches(binned, 0, wave_rows))
      out.push_back({static_cast<std::int64_t>(l.bin), l.rows.begin, l.rows.count});
    return out;
  };
  using L = std::vector<std::array<std::int64_t, 3>>;
  // 1000 lanes: sort 8's 50 rows join sort 16 (110 of 500 a wave), then sort 32 (180 of 250); sort 128, 4 times sort
  // 32 over the empty sort 64, holds 62 rows a wave, fewer than its own 500; the hash bin never takes sort rows.
  EXPECT_EQ(launches_of(1000), (L{{3, 0, 180}, {5, 180, 500}, {6, 680, 40}}));
  // 100,000 lanes: every sort bin in sort 128's launch.
  EXPECT_EQ(launches_of(100000), (L{{5, 0, 680}, {6, 680, 40}}));
  // 200 lanes: sort 16 holds 100 rows a wave, fewer than 50 + 60: no joins.
  EXPECT_EQ(launches_of(200), (L{{1, 0, 50}, {2, 50, 60}, {3, 110, 70}, {5, 180, 500}, {6, 680, 40}}));
}

// On GPUs automatic merges only in matrices of at least SpgemmCapacity::merge_min_rows rows (a merge kernel waits
// on loads step by step, which only many rows at once hide); binned merges every eligible row whatever the size.
TYPED_TEST(Spgemm, AutomaticMergesOnlyInMatricesOfManyRows) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  if (spk::is_host_space<TestExec>()) GTEST_SKIP() << "automatic is Gustavson on host back-ends";
  const auto cap = spk::select::spgemm_capacity<TestExec, S, std::int32_t>(0);
  ASSERT_GT(cap.merge_min_rows, 0);
  const Shape many_rows_a{"many_rows", cap.merge_min_rows, merge_a.cols, merge_a.length};
  const Operands<S, Off> few(merge_a, three_b), many(many_rows_a, three_b);
  using M = std::decay_t<decltype(few.A())>;
  const auto merge_rows = [](const auto& op, spk::SpgemmAlgorithm algorithm) {
    spk::SpgemmOptions o;
    o.algorithm = algorithm;
    spk::SpgemmPlan<M> plan;
    spk::spgemm_symbolic(op.A(), op.B(), plan, o);
    return plan.numeric_rows[static_cast<int>(Path::merge)];
  };
  EXPECT_GT(merge_rows(few, spk::SpgemmAlgorithm::binned), 0) << few.seed;
  EXPECT_EQ(merge_rows(few, spk::SpgemmAlgorithm::automatic), 0) << few.seed;
  EXPECT_GT(merge_rows(many, spk::SpgemmAlgorithm::automatic), 0) << many.seed;
  const auto C = spk::spgemm(many.A(), many.B());
  expect_matches_oracle(C, many.ref, "many_rows * three_b, automatic, seed " + std::to_string(many.seed));
}

// Automatic is Gustavson on host back-ends (every row with products on that path) and the binned paths on GPUs; a
// budget too small for Gustavson's accumulators sends the rows to the binned paths, with the same result.
TYPED_TEST(Spgemm, AutomaticIsGustavsonOnHostsAndFallsBackToBins) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  const Operands<S, Off> op(mixed_a, wide_b);
  const auto A = op.A();
  const auto B = op.B();
  using M = std::decay_t<decltype(A)>;
  const auto gustavson_rows = [](const spk::SpgemmPlan<M>& p) {
    return p.numeric_rows[static_cast<int>(Path::gustavson)];
  };
  std::int64_t with_products = 0;
  for (std::int64_t r = 0; r < op.ref.num_rows(); ++r) with_products += op.ref.row_map()(r + 1) > op.ref.row_map()(r);
  spk::SpgemmOptions o;
  spk::SpgemmPlan<M> plan;
  spk::spgemm_symbolic(A, B, plan, o);
  const bool host = spk::is_host_space<typename M::execution_space>();
  EXPECT_EQ(gustavson_rows(plan), host ? with_products : 0) << spk::describe(plan) << ", seed " << op.seed;
  EXPECT_EQ(plan.gustavson.workers > 0, host);

  // Forced, with a budget that holds C and the plan but not one accumulator of 20000 columns.
  o.algorithm = spk::SpgemmAlgorithm::gustavson;
  spk::spgemm_symbolic(A, B, plan, o);
  ASSERT_GT(plan.gustavson.workers, 0);
  const std::int64_t accumulators = plan.gustavson.bytes(spk::impl::GustavsonWorkspace::column_bytes<S>(true));
  o.memory_budget_bytes = plan.peak_bytes_estimate - accumulators + wide_b.cols * 2;
  spk::SpgemmPlan<M> tight;
  spk::spgemm_symbolic(A, B, tight, o);
  EXPECT_EQ(gustavson_rows(tight), 0) << spk::describe(tight);
  EXPECT_EQ(tight.gustavson.workers, 0);
  EXPECT_LE(tight.peak_bytes_estimate, o.memory_budget_bytes);
  M C;
  spk::spgemm_numeric(tight, A, B, C);
  expect_matches_oracle(C, op.ref, "gustavson over budget, " + op.what(mixed_a, wide_b, o));
}

// A memory budget that leaves room for only part of the global pool splits those rows into batches; the result
// is the same as unbatched, and the plan's peak estimate stays within the budget.
TYPED_TEST(Spgemm, BatchedEqualsUnbatched) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  const auto shape = square("random", 600, 0, 14);
  const Operands<S, Off> op(shape, shape);
  const auto A = op.A();
  const auto B = op.B();
  using M = std::decay_t<decltype(A)>;
  spk::SpgemmOptions o;
  o.algorithm = spk::SpgemmAlgorithm::global;
  spk::SpgemmPlan<M> whole;
  spk::spgemm_symbolic(A, B, whole, o);
  ASSERT_EQ(whole.numeric_batches, 1u);
  M C1;
  spk::spgemm_numeric(whole, A, B, C1);
  expect_matches_oracle(C1, op.ref, op.what(shape, shape, o));

  const std::int64_t pool = whole.global.pool_slots * static_cast<std::int64_t>(sizeof(S) + sizeof(std::int32_t));
  o.memory_budget_bytes = whole.peak_bytes_estimate - pool + pool / 5;
  spk::SpgemmPlan<M> batched;
  spk::spgemm_symbolic(A, B, batched, o);
  EXPECT_GT(batched.numeric_batches, 1u) << spk::describe(batched);
  EXPECT_LE(batched.peak_bytes_estimate, o.memory_budget_bytes);
  M C2;
  spk::spgemm_numeric(batched, A, B, C2);
  expect_matches_oracle(C2, op.ref, op.what(shape, shape, o));
  const auto h1 = spk::to_host(C1), h2 = spk::to_host(C2);
  for (std::int64_t p = 0; p < h1.nnz(); ++p) ASSERT_EQ(h1.entries()(p), h2.entries()(p)) << "entry " << p;
  EXPECT_LE(relative_error(h2.values(), h1.values()), tolerance<S>());

  // A budget below C itself is refused with the sizes named, before C is allocated.
  o.memory_budget_bytes = 1024;
  try {
    spk::spgemm_symbolic(A, B, batched, o);
    FAIL() << "expected spk::invalid_argument for a budget smaller than C";
  } catch (const spk::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("memory budget"), std::string::npos) << e.what();
  }
}

// The numeric bins are first drawn up as if every product were an entry of C, and again with C's true size when the
// memory left beside C decides a row's path: a budget that holds C and the whole global pool, but not C at its bound,
// still sends every row down the global path in one batch.
TYPED_TEST(Spgemm, NumericBinsFollowTheTrueSizeOfC) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  const auto shape = square("compressing", 200, 40, 60);  // about 2,500 products per row, at most 200 columns
  const Operands<S, Off> op(shape, shape);
  const auto A = op.A(), B = op.B();
  using M = std::decay_t<decltype(A)>;
  spk::SpgemmOptions o;
  o.algorithm = spk::SpgemmAlgorithm::global;
  const auto plan_within = [&](std::int64_t budget) {
    o.memory_budget_bytes = budget;
    spk::SpgemmPlan<M> plan;
    spk::spgemm_symbolic(A, B, plan, o);
    return plan;
  };
  const auto roomy = plan_within(0);
  ASSERT_GT(roomy.numeric_rows[static_cast<int>(Path::global)], 0) << spk::describe(roomy);
  const auto tight = plan_within(roomy.peak_bytes_estimate);
  ASSERT_LT(o.memory_budget_bytes, roomy.products * static_cast<std::int64_t>(sizeof(S) + sizeof(std::int32_t)));
  EXPECT_EQ(tight.numeric_rows, roomy.numeric_rows) << spk::describe(tight) << " vs " << spk::describe(roomy);
  EXPECT_EQ(tight.numeric_batches, 1u) << spk::describe(tight);
  M C;
  spk::spgemm_numeric(tight, A, B, C);
  expect_matches_oracle(C, op.ref, op.what(shape, shape, o));
}

TYPED_TEST(Spgemm, SymbolicPlanIsReusedWhenOnlyValuesChange) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  for (const auto algorithm : every_algorithm())
    for (const auto walk : {spk::SpgemmWalk::flat, spk::SpgemmWalk::by_entries}) {
      const std::uint64_t seed = fresh_seed();
      auto hA = random_csr<S, Off>(mixed_a, seed);
      auto hB = random_csr<S, Off>(wide_b, seed + 1);
      auto A = spk::copy_to<TestDevice>(hA);
      auto B = spk::copy_to<TestDevice>(hB);
      spk::SpgemmOptions o;
      o.algorithm = algorithm;
      o.walk = walk;
      o.small_bin_rows = walk == spk::SpgemmWalk::flat ? 0 : join_every_bin;
      o.scratch_bytes = small_scratch;
      const std::string what = std::string(spk::to_string(algorithm)) + ", walk " + std::string(spk::to_string(walk)) +
                               ", small bins " + std::to_string(o.small_bin_rows) + ", seed " + std::to_string(seed);
      spk::SpgemmPlan<decltype(A)> plan;
      spk::spgemm_symbolic(A, B, plan, o);
      decltype(A) C;
      spk::spgemm_numeric(plan, A, B, C);
      expect_matches_oracle(C, spk::reference::spgemm(hA, hB), "first numeric, " + what);
      const auto* entries_before = C.entries().data();

      // New values, same patterns: numeric alone, into the same C arrays.
      fill_random(hA.values(), seed + 7);
      fill_random(hB.values(), seed + 8);
      Kokkos::deep_copy(A.values(), hA.values());
      Kokkos::deep_copy(B.values(), hB.values());
      poison(C.values());
      spk::spgemm_numeric(plan, A, B, C);
      EXPECT_EQ(C.entries().data(), entries_before);
      expect_matches_oracle(C, spk::reference::spgemm(hA, hB), "numeric reuse, " + what);
    }
}

// The numeric sort orders column * 64 + slot in an int32: with more columns than that holds, a forced sort-rows
// still sorts in the symbolic phase (columns alone) and leaves the numeric phase to other paths, with the same C.
TYPED_TEST(Spgemm, SortRowsBeyondPackableColumns) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  const Shape a{"short", 60, 100, [](std::int64_t, std::mt19937_64& g) { return std::int64_t(2 + g() % 4); }};
  const Shape b{"very_wide", 100, (std::int64_t{1} << 25) + 5,
                [](std::int64_t, std::mt19937_64& g) { return std::int64_t(1 + g() % 5); }};
  const Operands<S, Off> op(a, b);
  const auto A = op.A();
  const auto B = op.B();
  using M = std::decay_t<decltype(A)>;
  spk::SpgemmOptions o;
  o.algorithm = spk::SpgemmAlgorithm::sort_rows;
  spk::SpgemmPlan<M> plan;
  spk::spgemm_symbolic(A, B, plan, o);
  EXPECT_GT(plan.symbolic_rows[static_cast<int>(Path::sort)], 0) << spk::describe(plan) << ", seed " << op.seed;
  EXPECT_EQ(plan.numeric_rows[static_cast<int>(Path::sort)], 0) << spk::describe(plan) << ", seed " << op.seed;
  M C;
  spk::spgemm_numeric(plan, A, B, C);
  expect_matches_oracle(C, op.ref, op.what(a, b, o));
}

// B's rows unsorted (reversed) and so not copyable: C still comes out sorted and equal to the oracle's.
TYPED_TEST(Spgemm, UnsortedOperandRows) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  const auto shape = square("random", 300, 0, 9);
  const Operands<S, Off> op(shape, shape);
  const auto A = op.A();
  const auto B = spk::copy_to<TestDevice>(reversed_rows(op.hB));
  for (const auto algorithm : every_algorithm()) {
    spk::SpgemmOptions o;
    o.algorithm = algorithm;
    expect_matches_oracle(spk::spgemm(A, B, o), op.ref, "reversed B rows, " + op.what(shape, shape, o));
  }
}

TEST(SpgemmArguments, BadInputsThrow) {
  const auto A = spk::copy_to<TestDevice>(random_csr<double, int>(edge_shapes()[0], 1));  // 700 x 650
  EXPECT_THROW(spk::spgemm(A, A), spk::invalid_argument);                                  // 650 != 700
  using M = std::decay_t<decltype(A)>;
  spk::SpgemmPlan<M> plan;
  M C;
  EXPECT_THROW(spk::spgemm_numeric(plan, A, A, C), spk::invalid_argument);
  const auto sq = spk::copy_to<TestDevice>(random_csr<double, int>(square("sq", 50, 0, 4), 2));
  spk::SpgemmOptions bad;
  bad.scratch_bytes = 100;  // below what the smallest accumulators need
  EXPECT_THROW(spk::spgemm(sq, sq, bad), spk::invalid_argument);
  bad.scratch_bytes = 0;
  bad.memory_budget_bytes = -1;
  EXPECT_THROW(spk::spgemm(sq, sq, bad), spk::invalid_argument);
  EXPECT_THROW(spk::parse_algorithm<spk::SpgemmAlgorithm>("merge-path"), spk::invalid_argument);
  spk::spgemm_symbolic(sq, sq, plan);
  const auto other = spk::copy_to<TestDevice>(random_csr<double, int>(square("sq", 50, 5, 9), 3));
  EXPECT_THROW(spk::spgemm_numeric(plan, other, other, C), spk::invalid_argument);
}

TEST(SpgemmArguments, OffsetOverflowIsRefusedBeforeAllocation) {
  // A dense column times a dense row, (n x 1) * (1 x n), has n^2 > INT32_MAX nonzeros from 2n stored inputs.
  const std::int64_t n = 46341;  // n^2 = 2147488281 > INT32_MAX
  using M = spk::HostCsrMatrix<float, std::int32_t, std::int32_t>;
  M::row_map_type a_map("a_map", n + 1), b_map("b_map", 2);
  M::entries_type a_ent("a_ent", n), b_ent("b_ent", n);
  M::values_type a_val("a_val", n), b_val("b_val", n);
  for (std::int64_t i = 0; i < n; ++i) {
    a_map(i + 1) = static_cast<std::int32_t>(i + 1);
    a_ent(i) = 0;
    a_val(i) = 1;
    b_ent(i) = static_cast<std::int32_t>(i);
    b_val(i) = 1;
  }
  b_map(1) = static_cast<std::int32_t>(n);
  const auto A = spk::copy_to<TestDevice>(M(static_cast<std::int32_t>(n), 1, a_map, a_ent, a_val));
  const auto B = spk::copy_to<TestDevice>(M(1, static_cast<std::int32_t>(n), b_map, b_ent, b_val));
  spk::SpgemmPlan<std::decay_t<decltype(A)>> plan;
  try {
    spk::spgemm_symbolic(A, B, plan);
    FAIL() << "expected spk::invalid_argument for an int32 offset overflow";
  } catch (const spk::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("int64 offsets"), std::string::npos) << e.what();
  }
}
