// SpMV against the sequential oracle: every algorithm, every edge shape, BLAS alpha/beta semantics.
#include <spk/spmv.hpp>
#include <spk/reference/reference.hpp>

#include <cstring>

#include "test_common.hpp"
#include "test_matrices.hpp"

using namespace spk_test;

template <class T>
class Spmv : public ::testing::Test {};
TYPED_TEST_SUITE(Spmv, ScalarOffsetTypes);

namespace {
std::vector<spk::SpmvAlgorithm> algorithms_and_automatic() {
  auto all = spk::all_algorithms<spk::SpmvAlgorithm>();
  all.push_back(spk::SpmvAlgorithm::automatic);
  return all;
}

// Runs y = alpha A x + beta y on the test back-end and returns the relative error against the oracle.
template <class S, class Off>
double spmv_error(const spk::HostCsrMatrix<S, std::int32_t, Off>& hA, spk::SpmvAlgorithm algo, S alpha, S beta,
                  std::uint64_t seed) {
  const auto A = spk::copy_to<TestDevice>(hA);
  Kokkos::View<S*, TestDevice> x("x", hA.num_cols()), y("y", hA.num_rows());
  auto hx = Kokkos::create_mirror_view(x);
  auto hy = Kokkos::create_mirror_view(y);
  fill_random(hx, seed + 1);
  if (beta == S(0))
    poison(hy);  // beta == 0 must not read y
  else
    fill_random(hy, seed + 2);
  Kokkos::deep_copy(x, hx);
  Kokkos::deep_copy(y, hy);
  Kokkos::View<double*, Kokkos::HostSpace> ref("ref", hA.num_rows());
  for (std::size_t i = 0; i < ref.extent(0); ++i) ref(i) = beta == S(0) ? 0.0 : static_cast<double>(hy(i));
  spk::reference::spmv(static_cast<double>(alpha), hA, hx, static_cast<double>(beta), ref);
  spk::SpmvOptions options;
  options.algorithm = algo;
  spk::spmv(alpha, A, x, beta, y, options);
  Kokkos::deep_copy(hy, y);
  return relative_error(hy, ref);
}
}  // namespace

TYPED_TEST(Spmv, EveryAlgorithmEveryShapeMatchesOracle) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  for (const auto& shape : edge_shapes()) {
    const std::uint64_t seed = fresh_seed();
    const auto hA = random_csr<S, Off>(shape, seed);
    for (const auto algo : algorithms_and_automatic()) {
      for (const auto& [alpha, beta] : {std::pair<S, S>{1, 0}, {S(-2.5), S(0.75)}, {0, S(1.5)}}) {
        EXPECT_LE(spmv_error(hA, algo, alpha, beta, seed), tolerance<S>())
            << "shape " << shape.name << ", algorithm " << spk::to_string(algo) << ", alpha " << alpha << ", beta "
            << beta << ", seed " << seed;
      }
    }
  }
}

TYPED_TEST(Spmv, ForcedVectorLengthsMatchOracle) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  const std::uint64_t seed = fresh_seed();
  const auto hA = random_csr<S, Off>(edge_shapes()[0], seed);
  const auto A = spk::copy_to<TestDevice>(hA);
  Kokkos::View<S*, TestDevice> x("x", hA.num_cols()), y("y", hA.num_rows());
  auto hx = Kokkos::create_mirror_view(x);
  fill_random(hx, seed);
  Kokkos::deep_copy(x, hx);
  Kokkos::View<double*, Kokkos::HostSpace> ref("ref", hA.num_rows());
  spk::reference::spmv(1.0, hA, hx, 0.0, ref);
  for (int lanes = 1; lanes <= spk::max_vector_length<TestExec>(); lanes *= 2) {
    spk::SpmvOptions options;
    options.algorithm = spk::SpmvAlgorithm::vector_row;
    options.vector_length = lanes;
    poison(y);
    spk::spmv(S(1), A, x, S(0), y, options);
    auto hy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
    EXPECT_LE(relative_error(hy, ref), tolerance<S>()) << "vector length " << lanes << ", seed " << seed;
  }
}

TYPED_TEST(Spmv, PlanIsReusableAndDeterministic) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  const std::uint64_t seed = fresh_seed();
  const auto A = spk::copy_to<TestDevice>(random_csr<S, Off>(edge_shapes()[0], seed));
  Kokkos::View<S*, TestDevice> x("x", A.num_cols()), y1("y1", A.num_rows()), y2("y2", A.num_rows());
  auto hx = Kokkos::create_mirror_view(x);
  fill_random(hx, seed);
  Kokkos::deep_copy(x, hx);
  for (const auto algo : spk::all_algorithms<spk::SpmvAlgorithm>()) {
    spk::SpmvOptions options;
    options.algorithm = algo;
    const auto plan = spk::make_spmv_plan(A, options);
    EXPECT_EQ(plan.algorithm, algo);
    spk::spmv(plan, S(1), A, x, S(0), y1);
    spk::spmv(plan, S(1), A, x, S(0), y2);
    auto h1 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y1);
    auto h2 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y2);
    for (std::size_t i = 0; i < h1.extent(0); ++i)
      ASSERT_EQ(std::memcmp(&h1(i), &h2(i), sizeof(S)), 0) << spk::to_string(algo) << " row " << i;
  }
}

TEST(SpmvArguments, DimensionMismatchesThrowBeforeAnyKernel) {
  const auto A = spk::copy_to<TestDevice>(random_csr<double, int>(edge_shapes()[0], 1));  // 700 x 650
  Kokkos::View<double*, TestDevice> x("x", 650), y("y", 700), bad_x("bad_x", 700), bad_y("bad_y", 650);
  EXPECT_THROW(spk::spmv(1.0, A, bad_x, 0.0, y), spk::invalid_argument);
  EXPECT_THROW(spk::spmv(1.0, A, x, 0.0, bad_y), spk::invalid_argument);
  const auto other = spk::copy_to<TestDevice>(random_csr<double, int>(edge_shapes()[9], 1));
  const auto plan = spk::make_spmv_plan(other);
  EXPECT_THROW(spk::spmv(plan, 1.0, A, x, 0.0, y), spk::invalid_argument);
  spk::SpmvOptions bad;
  bad.algorithm = spk::SpmvAlgorithm::vector_row;
  bad.vector_length = 3;
  EXPECT_THROW(spk::make_spmv_plan(A, bad), spk::invalid_argument);
  bad.vector_length = 2 * spk::max_vector_length<TestExec>();
  EXPECT_THROW(spk::make_spmv_plan(A, bad), spk::invalid_argument);
}

TEST(SpmvArguments, AlgorithmNamesRoundTrip) {
  for (const auto algo : algorithms_and_automatic())
    EXPECT_EQ(spk::parse_algorithm<spk::SpmvAlgorithm>(spk::to_string(algo)), algo);
  EXPECT_THROW(spk::parse_algorithm<spk::SpmvAlgorithm>("merge-paht"), spk::invalid_argument);
}
