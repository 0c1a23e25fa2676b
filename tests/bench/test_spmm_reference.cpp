// spk-bench's SpMM check in blocks of rows (perf/spk_bench/spmm_reference.hpp), which checks outputs whose oracle C
// does not fit in the check's host memory: on a random matrix and B (fresh seed), in both layouts, it must read the
// same relative error as the whole check, and fail on a NaN or a wrong entry in any block, the last, partial one
// included.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "../test_common.hpp"
#include "../test_matrices.hpp"
#include "runner.hpp"
#include "spmm_reference.hpp"

namespace {

using namespace spk_bench;

template <class Layout>
void check_blocks_agree_with_whole(const std::string& layout) {
  using S = double;
  const std::uint64_t seed = spk_test::fresh_seed();
  const std::string what = layout + " seed " + std::to_string(seed);
  const spk_test::Shape shape{"random", 1000, 300, [](std::int64_t r, std::mt19937_64& g) {
                                return r == 500 ? std::int64_t{300} : static_cast<std::int64_t>(g() % 12);
                              }};
  const auto A = spk_test::random_csr<S, std::int32_t>(shape, seed);
  const int k = 5;  // odd: a block's rows are not a multiple of anything
  using HostB = Kokkos::View<S**, Layout, Kokkos::HostSpace>;
  HostB hB("B", A.num_cols(), k);
  spk_test::fill_random(hB, seed + 1);

  // C as the oracle computes it, with rounding-sized noise so that the error is not 0.
  const auto exact = oracle_spmm(A, hB);
  Kokkos::View<S**, Layout, Device> C("C", A.num_rows(), k);
  const auto hC = Kokkos::create_mirror_view(C);
  for (std::int64_t i = 0; i < A.num_rows(); ++i)
    for (int j = 0; j < k; ++j) hC(i, j) = exact(i, j) * (1 + 1e-13 * ((i * 7 + j) % 5 - 2));
  Kokkos::deep_copy(C, hC);

  using Reference = SpmmReference<S, std::int32_t, HostB>;
  const Reference whole(A, hB, std::int64_t{1} << 40);
  const Reference blocked(A, hB, 0, 97);  // 10 full blocks of 97 rows and one of 30
  ASSERT_TRUE(whole.whole()) << what;
  ASSERT_FALSE(blocked.whole()) << what;
  ASSERT_EQ(blocked.block_rows(), 97) << what;
  const double tol = 1e-10;

  const auto compare = [&](const Reference& ref) {
    const auto host = host_copy_for(C, ref);
    return compare_output(host, C, ref, tol);
  };
  const Comparison w = compare(whole), b = compare(blocked);
  EXPECT_TRUE(w.ok) << what << ": " << w.message;
  EXPECT_TRUE(b.ok) << what << ": " << b.message;
  EXPECT_GT(b.rel_error, 0) << what;
  EXPECT_NEAR(b.rel_error, w.rel_error, 1e-9 * w.rel_error) << what;
  EXPECT_EQ(host_copy_for(C, blocked).extent(0), 0u) << what << ": a blocked check needs no whole host copy";

  // A wrong entry in a middle block, then a NaN in the last, partial block: both checks fail alike.
  for (const auto& [row, value] : {std::pair<std::int64_t, S>{500, S(1e3)}, {999, std::nan("")}}) {
    auto wrong = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), C);
    wrong(row, k - 1) = value;
    Kokkos::View<S**, Layout, Device> D("D", A.num_rows(), k);
    Kokkos::deep_copy(D, wrong);
    const Comparison dw = compare_output(Kokkos::create_mirror_view(D), D, whole, tol);
    const Comparison db = compare_output(Kokkos::create_mirror_view(D), D, blocked, tol);
    EXPECT_FALSE(dw.ok) << what << ", row " << row;
    EXPECT_FALSE(db.ok) << what << ", row " << row;
    if (std::isnan(value))
      EXPECT_TRUE(std::isinf(db.rel_error)) << what;
    else
      EXPECT_NEAR(db.rel_error, dw.rel_error, 1e-9 * dw.rel_error) << what;
  }
}

TEST(SpmmReference, BlocksOfRowsReadWhatTheWholeCheckReadsRowMajor) {
  check_blocks_agree_with_whole<Kokkos::LayoutRight>("LayoutRight");
}

TEST(SpmmReference, BlocksOfRowsReadWhatTheWholeCheckReadsColumnMajor) {
  check_blocks_agree_with_whole<Kokkos::LayoutLeft>("LayoutLeft");
}

TEST(SpmmReference, AMatrixWithoutRowsChecksClean) {
  using HostB = Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace>;
  const auto A = spk_test::random_csr<float, std::int32_t>(spk_test::edge_shapes().at(1), 7);  // zero_rows
  ASSERT_EQ(A.num_rows(), 0);
  HostB hB("B", A.num_cols(), 3);
  Kokkos::View<float**, Kokkos::LayoutRight, Device> C("C", 0, 3);
  const SpmmReference<float, std::int32_t, HostB> blocked(A, hB, 0, 4);
  EXPECT_TRUE(blocked.compare_blocks(C, 1e-4).ok);
}

}  // namespace
