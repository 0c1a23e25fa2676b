// SpMV plans that find far columns (impl/far_columns.hpp) and the host row loops that then read x ahead
// (impl/host_row_dot.hpp): the sampled share against the exact one, each plan's verdict, and reading ahead giving
// the same bits as not reading ahead on the rows both sum alike.
#include <spk/impl/far_columns.hpp>
#include <spk/impl/host_row_dot.hpp>
#include <spk/io/generators.hpp>
#include <spk/spmv.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "test_common.hpp"
#include "test_matrices.hpp"
#include "test_spmv_common.hpp"

using namespace spk_test;

template <class T>
class SpmvFarColumns : public ::testing::Test {};
TYPED_TEST_SUITE(SpmvFarColumns, ScalarOffsetTypes);

namespace {
using HostMatrix = spk::HostCsrMatrix<double, std::int32_t, std::int32_t>;

// The share of A's nonzeros in rows spanning more than far_entries columns, row by row.
double exact_far_share(const HostMatrix& A, std::int64_t far_entries) {
  if (A.nnz() == 0) return 0;
  std::int64_t far = 0;
  for (std::int32_t i = 0; i < A.num_rows(); ++i) {
    const auto b = A.row_map()(i), e = A.row_map()(i + 1);
    if (e > b && A.entries()(e - 1) - A.entries()(b) > far_entries) far += e - b;
  }
  return static_cast<double>(far) / static_cast<double>(A.nnz());
}

// Rows of random lengths (0 to max_length) whose columns lie within a random span of up to `cols`, so some rows
// are far and some near at any threshold; `huge`: row 3 holds that many more nonzeros, spread over all columns.
HostMatrix mixed_rows(std::int32_t rows, std::int32_t cols, int max_length, int huge, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<std::vector<std::int32_t>> lists(static_cast<std::size_t>(rows));
  for (std::int32_t i = 0; i < rows; ++i) {
    const int n = static_cast<int>(g() % (max_length + 1)) + (i == 3 ? huge : 0);
    const std::int32_t span = i == 3 ? cols : 1 + static_cast<std::int32_t>(g() % cols);
    const std::int32_t start = static_cast<std::int32_t>(g() % (cols - span + 1));
    std::vector<char> used(static_cast<std::size_t>(span), 0);
    for (int k = 0; k < n && k < span; ++k) used[g() % span] = 1;
    for (std::int32_t c = 0; c < span; ++c)
      if (used[c]) lists[i].push_back(start + c);
  }
  return from_rows<double, std::int32_t>(lists, cols, seed + 1);
}
}  // namespace

// Under far_column_samples nonzeros every nonzero is sampled once, so the share is exact; beyond, the evenly spaced
// samples of a matrix whose far nonzeros sit mostly in one huge row stay within a few samples of the exact share.
TEST(FarColumns, SampledShareMatchesTheExactOne) {
  const std::uint64_t seed = fresh_seed();
  const std::string what = "seed " + std::to_string(seed);
  const auto small = mixed_rows(60, 5000, 12, 0, seed);
  ASSERT_LT(small.nnz(), spk::impl::far_column_samples) << what;
  for (const std::int64_t far : {0, 100, 2500, 4999})
    EXPECT_EQ(spk::impl::far_nonzero_share(small, far), exact_far_share(small, far)) << what << ", far " << far;

  const auto large = mixed_rows(2000, 100000, 20, 150000, seed + 7);
  ASSERT_GT(large.nnz(), 10 * spk::impl::far_column_samples) << what;
  for (const std::int64_t far : {1000, 50000, 99000}) {
    const double exact = exact_far_share(large, far);
    EXPECT_NEAR(spk::impl::far_nonzero_share(large, far), exact, 0.05) << what << ", far " << far;
  }
  EXPECT_GT(exact_far_share(large, 99000), 0.5) << what << ": the huge row should hold most nonzeros";

  // no rows, or rows without nonzeros: nothing is far
  EXPECT_EQ(spk::impl::far_nonzero_share(mixed_rows(0, 10, 3, 0, seed), 0), 0.0);
  EXPECT_EQ(spk::impl::far_nonzero_share(mixed_rows(50, 10, 0, 0, seed), 0), 0.0);
}

// A host plan reads ahead on a matrix whose rows span more than far_column_bytes of x (uniform random columns), not
// on a stencil's nearby columns, and a GPU plan never does.
TEST(FarColumns, PlansFindFarColumnsOnlyWhereRowsSpreadOut) {
  // four random columns in each of n rows: nineteen rows in twenty span more than a quarter of x
  const std::int64_t n = 4 * spk::impl::far_column_bytes / static_cast<std::int64_t>(sizeof(double));
  const auto far = spk::copy_to<TestDevice>(
      spk::gen::generate<double, std::int32_t>("uniform:" + std::to_string(n) + ":4", fresh_seed()));
  const auto near = spk::copy_to<TestDevice>(spk::gen::generate<double, std::int32_t>("lap2d:512", 1));
  for (const auto algo :
       {spk::SpmvAlgorithm::automatic, spk::SpmvAlgorithm::thread_row, spk::SpmvAlgorithm::long_row_split}) {
    spk::SpmvOptions options;
    options.algorithm = algo;
    EXPECT_EQ(spk::make_spmv_plan(far, options).far_columns, spk::is_host_space<TestExec>()) << spk::to_string(algo);
    EXPECT_FALSE(spk::make_spmv_plan(near, options).far_columns) << spk::to_string(algo);
  }
}

// Reading x ahead only prefetches, and rows that read ahead keep one running sum where the others split theirs
// (split_dot): both runs match the oracle, and rows under row_dot_split nonzeros get the same bits with and without
// it, for each algorithm with a host row loop, with and without row vectors (each vector form; the baseline has
// none), for blocks of a few rows (the read-ahead stops at each team's last nonzero) and the selector's, beta 0 on a
// NaN-poisoned y and not.
TYPED_TEST(SpmvFarColumns, ReadingAheadKeepsShortRowsBits) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  using spk::impl::HostGather;
  const HostRowChoicesReset reset;
  const std::uint64_t seed = fresh_seed();
  const Shape shape = far_and_long_rows();
  const auto hA = random_csr<S, Off>(shape, seed);
  const auto A = spk::copy_to<TestDevice>(hA);
  const auto in = random_spmv_inputs(hA, seed);
  Kokkos::View<S*, TestDevice> y("y", hA.num_rows());
  std::vector<std::pair<spk::SpmvAlgorithm, std::optional<spk::LaunchShape>>> runs;
  for (const auto algo :
       {spk::SpmvAlgorithm::thread_row, spk::SpmvAlgorithm::vector_row, spk::SpmvAlgorithm::long_row_split})
    runs.push_back({algo, std::nullopt});
  if (spk::is_host_space<TestExec>()) {
    spk::LaunchShape few;  // three rows a team: many team ends to stop at
    few.rows_per_thread = 3;
    runs.push_back({spk::SpmvAlgorithm::thread_row, few});
    runs.push_back({spk::SpmvAlgorithm::vector_row, few});
    few.long_row = 100;
    few.chunk = 64;
    runs.push_back({spk::SpmvAlgorithm::long_row_split, few});
  }
  for (const auto choice : {HostGather::hardware, HostGather::loads}) {
    spk::impl::host_gather_choice().store(static_cast<int>(choice));
    for (const int cap : {-1, static_cast<int>(spk::impl::HostIsa::baseline)}) {
      spk::impl::host_isa_cap().store(cap);
      for (const auto& [algo, launch] : runs) {
        spk::SpmvOptions options;
        options.algorithm = algo;
        options.shape = launch;
        auto plan = spk::make_spmv_plan(A, options);
        for (const S beta : {S(0), S(-0.5)}) {
          const auto ref = oracle_y(hA, S(1.5), in.hx, beta, in.hy0);
          const std::string what = run_name(shape.name, algo, launch, beta, seed) + " under " +
                                   spk::impl::to_string(spk::impl::host_isa()) + " by " +
                                   spk::impl::to_string(choice);
          const auto run = [&](bool ahead) {
            plan.far_columns = ahead;
            if (beta == S(0)) Kokkos::deep_copy(y, std::numeric_limits<S>::quiet_NaN());
            else Kokkos::deep_copy(y, in.y0);
            spk::spmv(plan, S(1.5), A, in.x, beta, y);
            return host_copy(y);
          };
          const auto plain = run(false), ahead = run(true);
          EXPECT_LE(relative_error(plain, ref), tolerance<S>(longest_row(hA))) << what;
          EXPECT_LE(relative_error(ahead, ref), tolerance<S>(longest_row(hA))) << what;
          for (std::size_t i = 0; i < plain.extent(0); ++i) {
            if (hA.row_map()(i + 1) - hA.row_map()(i) >= spk::impl::row_dot_split) continue;
            ASSERT_EQ(std::memcmp(&plain(i), &ahead(i), sizeof(S)), 0) << what << ", row " << i;
          }
        }
      }
    }
  }
}
