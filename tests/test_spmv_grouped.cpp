// SpMV with A's columns renumbered hubs first (impl/grouped_columns.hpp): the same products in the same order as A's
// own numbering, so grouped and ungrouped plans must agree bit for bit, on every algorithm that takes a column reader
// and every shape (but host thread-row and vector-row with AVX2 gathers: below), and a plan must copy each call's x
// afresh.
#include <spk/reference/reference.hpp>
#include <spk/spmv.hpp>

#include <algorithm>
#include <cstring>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "test_common.hpp"
#include "test_matrices.hpp"
#include "test_spmv_common.hpp"

using namespace spk_test;

template <class T>
class SpmvGrouped : public ::testing::Test {};
TYPED_TEST_SUITE(SpmvGrouped, ScalarOffsetTypes);

namespace {
// A graph-like matrix: rows of 0 to 2 * mean nonzeros, each nonzero in one of `hubs` columns scattered over the
// columns with probability 1/2, else anywhere.
template <class S, class Off>
spk::HostCsrMatrix<S, std::int32_t, Off> hub_matrix(std::int32_t n_rows, std::int32_t cols, int mean, int hubs,
                                                    std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<std::int32_t> hub_columns(static_cast<std::size_t>(hubs));
  for (auto& h : hub_columns) h = static_cast<std::int32_t>(g() % static_cast<std::uint64_t>(cols));
  std::vector<std::vector<std::int32_t>> rows(static_cast<std::size_t>(n_rows));
  for (auto& row : rows) {
    std::set<std::int32_t> columns;
    const int length = static_cast<int>(g() % static_cast<std::uint64_t>(2 * mean + 1));
    for (int k = 0; k < length; ++k)
      columns.insert(g() % 2 ? hub_columns[g() % hub_columns.size()]
                             : static_cast<std::int32_t>(g() % static_cast<std::uint64_t>(cols)));
    row.assign(columns.begin(), columns.end());
  }
  return from_rows<S, Off>(rows, cols, seed);
}

// The grouped columns are those outside the cold group by the counts sampled from every count_sample-th nonzero,
// hottest group first, each group in A's order; the renumbered indices name them, and a cold column c as the number
// of grouped columns plus c.
template <class S, class Off, class Plan>
void expect_hubs_first(const spk::HostCsrMatrix<S, std::int32_t, Off>& hA, const Plan& plan, const std::string& what) {
  using spk::impl::column_group;
  std::vector<std::int64_t> count(static_cast<std::size_t>(hA.num_cols()), 0);
  for (std::int64_t j = 0; j < hA.nnz(); j += spk::impl::count_sample)
    count[static_cast<std::size_t>(hA.entries()(j))] += spk::impl::count_sample;
  const double mean = static_cast<double>(hA.nnz()) / static_cast<double>(hA.num_cols());
  const auto group = [&](std::size_t c) { return column_group(static_cast<double>(count[c]), mean); };
  std::int64_t grouped = 0, hubs = 0;
  for (std::size_t c = 0; c < count.size(); ++c) {
    grouped += group(c) != spk::impl::cold_group ? 1 : 0;
    hubs += group(c) < 4 ? 1 : 0;
  }
  const auto source = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), plan.grouped.source);
  ASSERT_EQ(static_cast<std::int64_t>(source.extent(0)), grouped) << what;
  EXPECT_EQ(plan.grouped.hubs, hubs) << what;
  std::vector<bool> seen(count.size(), false);
  for (std::size_t i = 0; i < source.extent(0); ++i) {
    const auto c = static_cast<std::size_t>(source(i));
    ASSERT_LT(c, count.size()) << what;
    ASSERT_FALSE(seen[c]) << what << ": column " << c << " grouped twice";
    ASSERT_NE(group(c), spk::impl::cold_group) << what << ": cold column " << c << " grouped";
    seen[c] = true;
    if (i == 0) continue;
    const auto p = static_cast<std::size_t>(source(i - 1));
    ASSERT_TRUE(group(p) < group(c) || (group(p) == group(c) && p < c))
        << what << ": new columns " << i - 1 << ", " << i;
  }
  const auto renumbered = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), plan.grouped.entries);
  for (std::int64_t j = 0; j < hA.nnz(); ++j) {
    const std::int64_t to = renumbered(j), from = hA.entries()(j);
    ASSERT_EQ(to < grouped ? static_cast<std::int64_t>(source(to)) : to - grouped, from) << what << ", nonzero " << j;
  }
}

template <class S, class Off>
void expect_grouped_matches(const spk::HostCsrMatrix<S, std::int32_t, Off>& hA, const std::string& name,
                            std::uint64_t seed) {
  const auto A = spk::copy_to<TestDevice>(hA);
  const auto in = random_spmv_inputs(hA, seed);
  const auto second = random_spmv_inputs(hA, seed + 10);  // the second call's x
  Kokkos::View<S*, TestDevice> y("y", hA.num_rows());
  for (const auto& coefficients : {std::pair<S, S>{1, 0}, {S(-2.5), S(0.75)}}) {
    const S alpha = coefficients.first, beta = coefficients.second;  // named: lambdas below capture them (C++17)
    const auto ref = oracle_y(hA, alpha, in.hx, beta, in.hy0);
    const auto ref_second = oracle_y(hA, alpha, second.hx, beta, in.hy0);
    for (const auto& [algo, shape] : column_reader_runs()) {
      spk::SpmvOptions options;
      options.algorithm = algo;
      options.shape = shape;
      const std::string what = run_name(name, algo, shape, beta, seed);
      const auto call = [&](const auto& plan, const auto& x) {
        if (beta == S(0))
          poison(y);  // beta == 0 must not read y
        else
          Kokkos::deep_copy(y, in.y0);
        spk::spmv(plan, alpha, A, x, beta, y);
        return host_copy(y);
      };
      options.grouping = spk::ColumnGrouping::on;
      const auto grouped_plan = spk::make_spmv_plan(A, options);
      ASSERT_EQ(grouped_plan.grouped.grouped, hA.nnz() > 0) << what;
      EXPECT_FALSE(grouped_plan.columns.packed) << what;
      if (grouped_plan.grouped.grouped) expect_hubs_first(hA, grouped_plan, what);
      const auto grouped = call(grouped_plan, in.x);
      const auto grouped_second = call(grouped_plan, second.x);  // the same plan: x gathered again
      options.grouping = spk::ColumnGrouping::off;
      const auto plain_plan = spk::make_spmv_plan(A, options);
      ASSERT_FALSE(plain_plan.grouped.grouped) << what;
      const auto plain = call(plain_plan, in.x);
      EXPECT_LE(relative_error(grouped, ref), tolerance<S>(longest_row(hA))) << what;
      EXPECT_LE(relative_error(grouped_second, ref_second), tolerance<S>(longest_row(hA))) << what << ", second x";
      // Host thread-row and vector-row sum long rows of a plain View x with AVX2 gathers in vector lanes
      // (host_row_dot.hpp) and a grouped x, two arrays, in one running sum: the oracle decides there.
      const bool host_gathers = spk::is_host_space<TestExec>() &&
                                spk::impl::host_isa() != spk::impl::HostIsa::baseline &&
                                (algo == spk::SpmvAlgorithm::thread_row || algo == spk::SpmvAlgorithm::vector_row);
      if (host_gathers) continue;
      for (std::size_t i = 0; i < grouped.extent(0); ++i)
        ASSERT_EQ(std::memcmp(&grouped(i), &plain(i), sizeof(S)), 0) << what << ", row " << i;
    }
  }
}
}  // namespace

TYPED_TEST(SpmvGrouped, MatchesOracleAndUngroupedBitForBit) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  for (const auto& shape : edge_shapes()) {
    const std::uint64_t seed = fresh_seed();
    expect_grouped_matches(random_csr<S, Off>(shape, seed), shape.name, seed);
  }
  const std::uint64_t seed = fresh_seed();
  expect_grouped_matches(hub_matrix<S, Off>(2000, 3000, 10, 30, seed), "hubs 2000 x 3000", seed);
}

// automatic renumbers when the hubs (columns of hub_ratio times the mean count) hold hub_share_min of the nonzeros.
TEST(SpmvGroupedArguments, AutomaticGroupsWhereHubsHoldTheNonzeros) {
  const std::uint64_t seed = fresh_seed();
  const auto hubs = spk::copy_to<TestDevice>(hub_matrix<double, int>(2000, 3000, 10, 30, seed));
  const auto grouped = spk::impl::group_columns(hubs, false);
  EXPECT_TRUE(grouped.grouped) << "seed " << seed;
  EXPECT_GE(grouped.hub_share, spk::impl::hub_share_min) << "seed " << seed;
  EXPECT_LE(grouped.hubs, 30) << "seed " << seed;
  const auto uniform = spk::copy_to<TestDevice>(random_csr<double, int>(edge_shapes()[0], seed));
  const auto kept = spk::impl::group_columns(uniform, false);
  EXPECT_FALSE(kept.grouped) << "seed " << seed;
  EXPECT_LT(kept.hub_share, spk::impl::hub_share_min) << "seed " << seed;
  EXPECT_TRUE(spk::impl::group_columns(uniform, true).grouped) << "seed " << seed;
}

// The counting pass runs under automatic only on GPUs, for the algorithms that take a column reader, where x is at
// least grouped_x_bytes_min, the longest row grouped_row_skew_min times the mean and the row lengths spread over
// grouped_row_bins_min powers of two.
TEST(SpmvGroupedArguments, AutomaticCountsOnlyLargeSkewedMatricesOnGpus) {
  spk::RowLengthStats s;
  s.cols = spk::select::grouped_x_bytes_min / 4;
  s.mean_length = 10;
  s.max_length = static_cast<std::int64_t>(10 * spk::select::grouped_row_skew_min);
  for (int b = 1; b <= spk::select::grouped_row_bins_min; ++b) s.log2_histogram[b] = 3;
  const bool gpu = !spk::is_host_space<TestExec>();
  for (const auto algo : spk::all_algorithms<spk::SpmvAlgorithm>())
    EXPECT_EQ(spk::select::may_group_columns<TestExec>(algo, s, 4), gpu && spk::select::reads_packed_columns(algo))
        << spk::to_string(algo);
  EXPECT_FALSE(spk::select::may_group_columns<TestExec>(spk::SpmvAlgorithm::flat, s, 2));  // x under the bound
  s.log2_histogram[1] = 0;  // lengths over one power of two fewer
  EXPECT_FALSE(spk::select::may_group_columns<TestExec>(spk::SpmvAlgorithm::flat, s, 4));
  s.log2_histogram[1] = 3;
  s.max_length -= 1;  // rows not skewed enough
  EXPECT_FALSE(spk::select::may_group_columns<TestExec>(spk::SpmvAlgorithm::flat, s, 4));
}

TEST(SpmvGroupedArguments, LongRowSplitAndForcedPackingRefuseGrouping) {
  const auto A = spk::copy_to<TestDevice>(random_csr<double, int>(edge_shapes()[0], fresh_seed()));
  spk::SpmvOptions options;
  options.grouping = spk::ColumnGrouping::on;
  options.algorithm = spk::SpmvAlgorithm::long_row_split;
  EXPECT_THROW(spk::make_spmv_plan(A, options), spk::invalid_argument);
  options.algorithm = spk::SpmvAlgorithm::flat;
  options.packing = spk::ColumnPacking::on;
  try {
    spk::make_spmv_plan(A, options);
    ADD_FAILURE() << "grouping and packing were both forced on and accepted";
  } catch (const spk::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("exclusive"), std::string::npos) << e.what();
  }
  options.packing = spk::ColumnPacking::automatic;  // automatic packing yields to forced grouping
  const auto plan = spk::make_spmv_plan(A, options);
  EXPECT_TRUE(plan.grouped.grouped);
  EXPECT_FALSE(plan.columns.packed);
  EXPECT_EQ(spk::parse_algorithm<spk::ColumnGrouping>("on"), spk::ColumnGrouping::on);
  EXPECT_THROW(spk::parse_algorithm<spk::ColumnGrouping>("hubs"), spk::invalid_argument);
}

// The new numbers reach twice the column count: an int32 ordinal over 2^30 columns is refused, or left alone.
TEST(SpmvGroupedArguments, NumbersPastTheOrdinalTypeAreRefused) {
  const std::int32_t cols = (std::int32_t{1} << 30) + 1;
  const auto A = spk::copy_to<TestDevice>(from_rows<double, int>({{0, cols - 1}}, cols, fresh_seed()));
  spk::SpmvOptions options;
  options.algorithm = spk::SpmvAlgorithm::flat;
  options.grouping = spk::ColumnGrouping::on;
  try {
    spk::make_spmv_plan(A, options);
    ADD_FAILURE() << "columns numbered past the ordinal type were accepted";
  } catch (const spk::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("2147483650, more than the ordinal type holds"), std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(spk::impl::group_columns(A, false).grouped);
}
