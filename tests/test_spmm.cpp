// SpMM against the sequential oracle: every algorithm, both layouts, odd k, edge shapes, alpha/beta.
#include <spk/reference/reference.hpp>
#include <spk/spmm.hpp>

#include "test_common.hpp"
#include "test_matrices.hpp"

using namespace spk_test;

template <class T>
class Spmm : public ::testing::Test {};
TYPED_TEST_SUITE(Spmm, ScalarOffsetTypes);

namespace {
template <class Layout, class S, class Off>
double spmm_error(const spk::HostCsrMatrix<S, std::int32_t, Off>& hA, int k, spk::SpmmAlgorithm algo, S alpha, S beta,
                  std::uint64_t seed) {
  const auto A = spk::copy_to<TestDevice>(hA);
  Kokkos::View<S**, Layout, TestDevice> B("B", hA.num_cols(), k), C("C", hA.num_rows(), k);
  auto hB = Kokkos::create_mirror_view(B);
  auto hC = Kokkos::create_mirror_view(C);
  fill_random(hB, seed + 1);
  if (beta == S(0))
    poison(hC);
  else
    fill_random(hC, seed + 2);
  Kokkos::deep_copy(B, hB);
  Kokkos::deep_copy(C, hC);
  Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> ref("ref", hA.num_rows(), k);
  for (std::size_t i = 0; i < ref.extent(0); ++i)
    for (int j = 0; j < k; ++j) ref(i, j) = beta == S(0) ? 0.0 : static_cast<double>(hC(i, j));
  spk::reference::spmm(static_cast<double>(alpha), hA, hB, static_cast<double>(beta), ref);
  spk::SpmmOptions options;
  options.algorithm = algo;
  spk::spmm(alpha, A, B, beta, C, options);
  Kokkos::deep_copy(hC, C);
  return relative_error(hC, ref);
}

std::vector<spk::SpmmAlgorithm> algorithms_and_automatic() {
  auto all = spk::all_algorithms<spk::SpmmAlgorithm>();
  all.push_back(spk::SpmmAlgorithm::automatic);
  return all;
}
}  // namespace

TYPED_TEST(Spmm, EveryAlgorithmLayoutAndWidthMatchesOracle) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  for (const auto& shape : edge_shapes()) {
    if (shape.rows * shape.cols > 2000000) continue;  // keeps the dense blocks small; long rows are covered below
    const std::uint64_t seed = fresh_seed();
    const auto hA = random_csr<S, Off>(shape, seed);
    for (const auto algo : algorithms_and_automatic())
      for (const int k : {1, 3, 32, 37}) {
        const S alpha = S(1.5), beta = k % 2 ? S(0) : S(-0.5);
        const double right = spmm_error<Kokkos::LayoutRight>(hA, k, algo, alpha, beta, seed);
        const double left = spmm_error<Kokkos::LayoutLeft>(hA, k, algo, alpha, beta, seed);
        EXPECT_LE(right, tolerance<S>(longest_row(hA))) << "LayoutRight " << shape.name << " k " << k << " "
                                         << spk::to_string(algo) << " seed " << seed;
        EXPECT_LE(left, tolerance<S>(longest_row(hA))) << "LayoutLeft " << shape.name << " k " << k << " " << spk::to_string(algo)
                                        << " seed " << seed;
      }
  }
}

TYPED_TEST(Spmm, WideBlocksAndLongRows) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  const std::uint64_t seed = fresh_seed();
  const Shape shape{"long", 40, 3000, [](std::int64_t r, std::mt19937_64&) { return r == 3 ? 3000 : 5 * r; }};
  const auto hA = random_csr<S, Off>(shape, seed);
  for (const auto algo : algorithms_and_automatic())
    for (const int k : {129, 256}) {
      EXPECT_LE(spmm_error<Kokkos::LayoutRight>(hA, k, algo, S(1), S(0), seed), tolerance<S>(longest_row(hA)))
          << "k " << k << " seed " << seed;
      EXPECT_LE(spmm_error<Kokkos::LayoutLeft>(hA, k, algo, S(-1), S(2), seed), tolerance<S>(longest_row(hA)))
          << "k " << k << " seed " << seed;
    }
}

TEST(SpmmArguments, DimensionMismatchesThrow) {
  const auto A = spk::copy_to<TestDevice>(random_csr<double, int>(edge_shapes()[0], 1));  // 700 x 650
  Kokkos::View<double**, Kokkos::LayoutRight, TestDevice> B("B", 650, 8), C("C", 700, 8);
  Kokkos::View<double**, Kokkos::LayoutRight, TestDevice> bad_B("bad_B", 700, 8), bad_C("bad_C", 700, 9);
  EXPECT_NO_THROW(spk::spmm(1.0, A, B, 0.0, C));
  EXPECT_THROW(spk::spmm(1.0, A, bad_B, 0.0, C), spk::invalid_argument);
  EXPECT_THROW(spk::spmm(1.0, A, B, 0.0, bad_C), spk::invalid_argument);
  const auto plan = spk::make_spmm_plan(A, 4);
  EXPECT_THROW(spk::spmm(plan, 1.0, A, B, 0.0, C), spk::invalid_argument);
  EXPECT_THROW(spk::make_spmm_plan(A, -1), spk::invalid_argument);
}
