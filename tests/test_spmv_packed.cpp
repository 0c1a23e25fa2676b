// SpMV with 16-bit packed column indices (impl/packed_columns.hpp): the same products in the same order as A's own
// indices, so packed and unpacked plans must agree bit for bit, on every algorithm that reads them and every shape.
#include <spk/reference/reference.hpp>
#include <spk/spmv.hpp>

#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "test_common.hpp"
#include "test_matrices.hpp"
#include "test_spmv_common.hpp"

using namespace spk_test;

template <class T>
class SpmvPacked : public ::testing::Test {};
TYPED_TEST_SUITE(SpmvPacked, ScalarOffsetTypes);

namespace {
// A band of half-width `half` in a square matrix of n rows: columns far above 65,536 with narrow runs, so the packed
// offsets sit on large bases.
template <class S, class Off>
spk::HostCsrMatrix<S, std::int32_t, Off> wide_band(std::int32_t n, std::int32_t half, std::uint64_t seed) {
  std::vector<std::vector<std::int32_t>> rows(static_cast<std::size_t>(n));
  std::mt19937_64 g(seed);
  for (std::int32_t i = 0; i < n; ++i)
    for (std::int32_t c = std::max(0, i - half); c <= std::min(n - 1, i + half); ++c)
      if (g() % 3) rows[i].push_back(c);
  return from_rows<S, Off>(rows, n, seed);
}

// The shapes each packing algorithm runs with: column_reader_runs (test_spmv_common.hpp), and thread-row blocks
// both staged and over the capacity (read in place).
std::vector<std::pair<spk::SpmvAlgorithm, std::optional<spk::LaunchShape>>> packed_runs() {
  auto out = column_reader_runs();
  for (const int capacity : {1, 7, 64}) {
    spk::LaunchShape t;
    t.team_size = spk::is_host_space<TestExec>() ? 1 : 32;
    t.vector_length = 1;
    t.stage_capacity = capacity;
    out.push_back({spk::SpmvAlgorithm::thread_row, t});
  }
  return out;
}

template <class S, class Off>
void expect_packed_matches(const spk::HostCsrMatrix<S, std::int32_t, Off>& hA, const std::string& name,
                           std::uint64_t seed) {
  const auto A = spk::copy_to<TestDevice>(hA);
  const auto in = random_spmv_inputs(hA, seed);
  const auto &x = in.x, &y0 = in.y0;
  const auto &hx = in.hx, &hy0 = in.hy0;
  Kokkos::View<S*, TestDevice> y("y", hA.num_rows());
  for (const auto& coefficients : {std::pair<S, S>{1, 0}, {S(-2.5), S(0.75)}}) {
    const S alpha = coefficients.first, beta = coefficients.second;  // named: lambdas below capture them (C++17)
    const auto ref = oracle_y(hA, alpha, hx, beta, hy0);
    for (const auto& [algo, shape] : packed_runs()) {
      spk::SpmvOptions options;
      options.algorithm = algo;
      options.shape = shape;
      const std::string what = run_name(name, algo, shape, beta, seed);
      const auto run = [&](spk::ColumnPacking packing) {
        options.packing = packing;
        const auto plan = spk::make_spmv_plan(A, options);
        EXPECT_EQ(plan.columns.packed, packing == spk::ColumnPacking::on && hA.nnz() > 0) << what;
        if (beta == S(0))
          poison(y);  // beta == 0 must not read y
        else
          Kokkos::deep_copy(y, y0);
        spk::spmv(plan, alpha, A, x, beta, y);
        return host_copy(y);
      };
      const auto packed = run(spk::ColumnPacking::on);
      const auto plain = run(spk::ColumnPacking::off);
      EXPECT_LE(relative_error(packed, ref), tolerance<S>(longest_row(hA))) << what;
      for (std::size_t i = 0; i < packed.extent(0); ++i)
        ASSERT_EQ(std::memcmp(&packed(i), &plain(i), sizeof(S)), 0) << what << ", row " << i;
    }
  }
}
}  // namespace

TYPED_TEST(SpmvPacked, MatchesOracleAndUnpackedBitForBit) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  for (const auto& shape : edge_shapes()) {  // every edge shape has fewer than 65,536 columns: all fit
    const std::uint64_t seed = fresh_seed();
    expect_packed_matches(random_csr<S, Off>(shape, seed), shape.name, seed);
  }
  const std::uint64_t seed = fresh_seed();
  expect_packed_matches(wide_band<S, Off>(100000, 2, seed), "band 100000 +-2", seed);
}

// A run of 256 nonzeros may span 65,535 columns and no more: `on` names the first run that is wider, `automatic`
// keeps A's own indices and stays correct.
TEST(SpmvPackedArguments, RunsWiderThanSixteenBitsAreRefusedOrLeftUnpacked) {
  const std::uint64_t seed = fresh_seed();
  std::vector<std::vector<std::int32_t>> rows(3);
  for (std::int32_t c = 0; c < 256; ++c) rows[0].push_back(c);  // run 0: columns 0..255
  rows[1] = {1000, 1000 + 65535};                               // run 1 spans exactly 65,535: fits
  auto fits = rows;
  rows[2] = {0, 70000};  // run 1 now spans 69,000
  const auto narrow = spk::copy_to<TestDevice>(from_rows<double, int>(fits, 80000, seed));
  const auto wide = spk::copy_to<TestDevice>(from_rows<double, int>(rows, 80000, seed));
  spk::SpmvOptions options;
  options.algorithm = spk::SpmvAlgorithm::flat;
  options.packing = spk::ColumnPacking::on;
  EXPECT_TRUE(spk::make_spmv_plan(narrow, options).columns.packed);
  try {
    spk::make_spmv_plan(wide, options);
    ADD_FAILURE() << "a run spanning 70,000 columns was packed";
  } catch (const spk::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("nonzeros 256 to 259 span 70000"), std::string::npos) << e.what();
  }
  options.packing = spk::ColumnPacking::automatic;
  const auto plan = spk::make_spmv_plan(wide, options);
  EXPECT_FALSE(plan.columns.packed);
  Kokkos::View<double*, TestDevice> x("x", 80000), y("y", 3);
  Kokkos::deep_copy(x, 1.0);
  spk::spmv(plan, 1.0, wide, x, 0.0, y);
  const auto hy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  const auto hA = spk::to_host(wide);
  for (int i = 0; i < 3; ++i) {
    double sum = 0;
    for (int k = hA.row_map()(i); k < hA.row_map()(i + 1); ++k) sum += hA.values()(k);
    EXPECT_NEAR(hy(i), sum, 1e-12) << "row " << i;
  }
}

// The refusal names the widest run, the first of equally wide ones, wherever the packing pass's teams met them.
TEST(SpmvPackedArguments, TheRefusalNamesTheFirstWidestRunOfAnyTeam) {
  const std::uint64_t seed = fresh_seed();
  std::vector<std::vector<std::int32_t>> rows(300);  // row i is run i: 256 nonzeros each
  for (auto& row : rows)
    for (std::int32_t c = 0; c < 256; ++c) row.push_back(c);
  rows[100].back() = 70000;
  rows[150].back() = 70000;
  spk::SpmvOptions options;
  options.algorithm = spk::SpmvAlgorithm::thread_row;
  options.packing = spk::ColumnPacking::on;
  const auto refusal = [&](const std::vector<std::vector<std::int32_t>>& r) {
    try {
      spk::make_spmv_plan(spk::copy_to<TestDevice>(from_rows<double, int>(r, 80000, seed)), options);
    } catch (const spk::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("packed");
  };
  EXPECT_NE(refusal(rows).find("nonzeros 25600 to 25855 span 70000"), std::string::npos) << refusal(rows);
  rows[290].back() = 75000;
  EXPECT_NE(refusal(rows).find("nonzeros 74240 to 74495 span 75000"), std::string::npos) << refusal(rows);
}

TEST(SpmvPackedArguments, OnlyTheAlgorithmsThatReadPackedColumnsTakeThem) {
  const auto A = spk::copy_to<TestDevice>(random_csr<double, int>(edge_shapes()[0], fresh_seed()));
  spk::SpmvOptions options;
  options.packing = spk::ColumnPacking::on;
  options.algorithm = spk::SpmvAlgorithm::long_row_split;
  EXPECT_THROW(spk::make_spmv_plan(A, options), spk::invalid_argument);
  EXPECT_EQ(spk::parse_algorithm<spk::ColumnPacking>("on"), spk::ColumnPacking::on);
  EXPECT_THROW(spk::parse_algorithm<spk::ColumnPacking>("yes"), spk::invalid_argument);
}

// Without a table entry (a forced shape), automatic packs on GPUs only, for thread-row, from packed_columns_min_nnz
// nonzeros on; with one, as the entry's sweep winner did.
TEST(SpmvPackedArguments, AutomaticPacksAsTheRuleOrTheTableSays) {
  spk::RowLengthStats s;
  s.nnz = spk::select::packed_columns_min_nnz;
  const bool gpu = !spk::is_host_space<TestExec>();
  for (const auto algo : spk::all_algorithms<spk::SpmvAlgorithm>())
    EXPECT_EQ(spk::select::pack_columns_by_rule<TestExec>(algo, s), gpu && algo == spk::SpmvAlgorithm::thread_row)
        << spk::to_string(algo);
  s.nnz -= 1;
  EXPECT_FALSE(spk::select::pack_columns_by_rule<TestExec>(spk::SpmvAlgorithm::thread_row, s));

  int entries = 0;
  for (const auto* e = spk::select::spmv_table<TestExec>(); e && e->matrix; ++e, ++entries) {
    spk::RowLengthStats f;  // the entry's own features: it is its own nearest entry
    f.rows = static_cast<std::int64_t>(e->rows);
    f.mean_length = e->mean;
    f.stddev_length = e->stddev;
    f.max_length = static_cast<std::int64_t>(e->max);
    for (const std::int64_t nnz : {spk::select::packed_columns_min_nnz - 1, spk::select::packed_columns_min_nnz}) {
      f.nnz = nnz;
      const auto c = spk::select::choose_spmv<TestExec>(e->algorithm, f, e->scalar_bytes);
      EXPECT_EQ(c.packed_columns, e->packed_columns && nnz >= spk::select::packed_columns_min_nnz)
          << e->matrix << " " << e->scalar_bytes;
    }
  }
  EXPECT_GT(entries, 0);
}
