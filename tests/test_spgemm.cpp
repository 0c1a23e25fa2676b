// SpGEMM against the sequential oracle: exact structure (sorted, duplicate-free), values by relative error, the
// scratch and global accumulator paths, symbolic reuse, and the argument checks.
#include <spk/reference/reference.hpp>
#include <spk/spgemm.hpp>

#include "test_common.hpp"
#include "test_matrices.hpp"

using namespace spk_test;

template <class T>
class Spgemm : public ::testing::Test {};
TYPED_TEST_SUITE(Spgemm, ScalarOffsetTypes);

namespace {
// Compares C (on any space) with the oracle: identical row_map and columns, values within tolerance.
template <class S, class Off, class Space>
void expect_matches_oracle(const spk::CsrMatrix<S, std::int32_t, Off, Space>& C,
                           const spk::HostCsrMatrix<double, std::int32_t, std::int64_t>& ref, const std::string& what) {
  const auto hC = spk::to_host(C);
  ASSERT_EQ(hC.num_rows(), ref.num_rows()) << what;
  ASSERT_EQ(hC.num_cols(), ref.num_cols()) << what;
  ASSERT_EQ(static_cast<std::int64_t>(hC.nnz()), static_cast<std::int64_t>(ref.nnz())) << what;
  for (std::int64_t r = 0; r <= hC.num_rows(); ++r)
    ASSERT_EQ(static_cast<std::int64_t>(hC.row_map()(r)), ref.row_map()(r)) << what << ", row_map at " << r;
  for (std::int64_t p = 0; p < ref.nnz(); ++p) ASSERT_EQ(hC.entries()(p), ref.entries()(p)) << what << ", entry " << p;
  EXPECT_LE(relative_error(hC.values(), ref.values()), tolerance<S>()) << what;
}

template <class S, class Off>
void check_product(const Shape& a_shape, const Shape& b_shape, int scratch_slots) {
  const std::uint64_t seed = fresh_seed();
  const auto hA = random_csr<S, Off>(a_shape, seed);
  const auto hB = random_csr<S, Off>(b_shape, seed + 1);
  const auto ref = spk::reference::spgemm(hA, hB);
  spk::SpgemmOptions options;
  options.scratch_slots = scratch_slots;
  const auto C = spk::spgemm(spk::copy_to<TestDevice>(hA), spk::copy_to<TestDevice>(hB), options);
  expect_matches_oracle(C, ref, a_shape.name + " * " + b_shape.name + ", scratch slots " +
                                    std::to_string(scratch_slots) + ", seed " + std::to_string(seed));
}

Shape square(std::string name, std::int64_t n, std::int64_t lo, std::int64_t hi) {
  return {std::move(name), n, n, [=](std::int64_t, std::mt19937_64& g) {
            return std::uniform_int_distribution<std::int64_t>(lo, hi)(g);
          }};
}
}  // namespace

TYPED_TEST(Spgemm, SquareProductsOnScratchAndGlobalPaths) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  const auto A = square("random", 400, 0, 12);
  for (const int slots : {0, 64, 1})  // default scratch, mixed, every non-empty row on the global fallback
    check_product<S, Off>(A, A, slots);
}

TYPED_TEST(Spgemm, EdgeShapes) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  for (const auto& shape : edge_shapes()) {
    if (shape.cols > 3000) continue;
    // B has as many rows as A has columns; its rows are short so that products stay small.
    const Shape b{"B", shape.cols, 37, [](std::int64_t r, std::mt19937_64&) { return r % 5; }};
    check_product<S, Off>(shape, b, 0);
    check_product<S, Off>(shape, b, 1);
  }
}

TYPED_TEST(Spgemm, DenseOutputRowsAndEmptyResult) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  // One dense row of A times a B with full rows: a C row holding every column (larger than scratch).
  const Shape a{"dense_row", 30, 300, [](std::int64_t r, std::mt19937_64&) { return r == 0 ? 300 : 2; }};
  const Shape b{"wide_b", 300, 6000, [](std::int64_t r, std::mt19937_64&) { return r % 7 == 0 ? 6000 : 3; }};
  check_product<S, Off>(a, b, 0);
  // Products of empty rows: C exists with no nonzeros.
  const Shape empty{"empty", 50, 50, [](std::int64_t, std::mt19937_64&) { return 0; }};
  check_product<S, Off>(empty, square("random", 50, 0, 5), 0);
  check_product<S, Off>(square("random", 50, 0, 5), empty, 0);
}

TYPED_TEST(Spgemm, SymbolicPlanIsReusedWhenOnlyValuesChange) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  const std::uint64_t seed = fresh_seed();
  const auto shape = square("random", 300, 0, 10);
  auto hA = random_csr<S, Off>(shape, seed);
  auto hB = random_csr<S, Off>(shape, seed + 1);
  auto A = spk::copy_to<TestDevice>(hA);
  auto B = spk::copy_to<TestDevice>(hB);
  spk::SpgemmPlan<decltype(A)> plan;
  spk::spgemm_symbolic(A, B, plan);
  decltype(A) C;
  spk::spgemm_numeric(plan, A, B, C);
  expect_matches_oracle(C, spk::reference::spgemm(hA, hB), "first numeric, seed " + std::to_string(seed));
  const auto* entries_before = C.entries().data();

  // New values, same patterns: numeric alone, into the same C arrays.
  fill_random(hA.values(), seed + 7);
  fill_random(hB.values(), seed + 8);
  Kokkos::deep_copy(A.values(), hA.values());
  Kokkos::deep_copy(B.values(), hB.values());
  poison(C.values());
  spk::spgemm_numeric(plan, A, B, C);
  EXPECT_EQ(C.entries().data(), entries_before);
  expect_matches_oracle(C, spk::reference::spgemm(hA, hB), "numeric reuse, seed " + std::to_string(seed));
}

TEST(SpgemmArguments, BadInputsThrow) {
  const auto A = spk::copy_to<TestDevice>(random_csr<double, int>(edge_shapes()[0], 1));  // 700 x 650
  EXPECT_THROW(spk::spgemm(A, A), spk::invalid_argument);                                  // 650 != 700
  using M = std::decay_t<decltype(A)>;
  spk::SpgemmPlan<M> plan;
  M C;
  EXPECT_THROW(spk::spgemm_numeric(plan, A, A, C), spk::invalid_argument);
  spk::SpgemmOptions bad;
  bad.scratch_slots = 3;
  const auto sq = spk::copy_to<TestDevice>(random_csr<double, int>(square("sq", 50, 0, 4), 2));
  EXPECT_THROW(spk::spgemm(sq, sq, bad), spk::invalid_argument);
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
