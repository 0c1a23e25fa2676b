// Every kernel on every real matrix in $SPK_MATRIX_DIR (small/ and bench/), against the oracle.
#include <spk/io/matrix_market.hpp>
#include <spk/reference/reference.hpp>
#include <spk/spgemm.hpp>
#include <spk/spmm.hpp>
#include <spk/spmv.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "test_common.hpp"
#include "test_matrices.hpp"

using namespace spk_test;

namespace {
// Matrix files a kernel can read: young1c.mtx is complex, rejected by design (tested with the reader).
std::vector<std::string> real_matrix_files() {
  std::vector<std::string> files;
  const std::string dir = matrix_dir();
  for (const char* sub : {"small", "bench"}) {
    const std::filesystem::path p = std::filesystem::path(dir) / sub;
    if (!std::filesystem::is_directory(p)) continue;
    for (const auto& e : std::filesystem::directory_iterator(p)) {
      const std::string name = e.path().filename().string();
      const bool mtx = name.size() > 4 && (name.rfind(".mtx") == name.size() - 4 || name.rfind(".mtx.gz") == name.size() - 7);
      if (mtx && name != "young1c.mtx") files.push_back(e.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Intermediate products of A * A: the SpGEMM test skips matrices whose oracle would take too long here.
template <class M>
std::int64_t products_of_square(const M& A) {
  std::int64_t total = 0;
  for (std::int64_t p = 0; p < A.nnz(); ++p) {
    const auto j = A.entries()(p);
    total += A.row_map()(j + 1) - A.row_map()(j);
  }
  return total;
}
}  // namespace

template <class T>
class RealMatrices : public ::testing::Test {};
TYPED_TEST_SUITE(RealMatrices, ScalarOffsetTypes);

TYPED_TEST(RealMatrices, EveryKernelMatchesOracle) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  if (matrix_dir().empty()) GTEST_SKIP() << "SPK_MATRIX_DIR is unset: no real matrices to test";
  const auto files = real_matrix_files();
  ASSERT_FALSE(files.empty()) << "no .mtx files under " << matrix_dir();
  // Float accumulation over rows of thousands of +-1 products needs a looser bound than the random tests.
  const double tol = std::is_same_v<S, float> ? 1e-4 : 1e-12;
  for (const auto& file : files) {
    SCOPED_TRACE(file);
    const auto hA = spk::io::read_matrix_market<S, std::int32_t, Off>(file);
    const auto A = spk::copy_to<TestDevice>(hA);
    ASSERT_NO_THROW(A.validate());
    const std::uint64_t seed = fresh_seed();

    Kokkos::View<S*, TestDevice> x("x", hA.num_cols()), y("y", hA.num_rows());
    auto hx = Kokkos::create_mirror_view(x);
    fill_random(hx, seed);
    Kokkos::deep_copy(x, hx);
    Kokkos::View<double*, Kokkos::HostSpace> ref("ref", hA.num_rows());
    spk::reference::spmv(1.0, hA, hx, 0.0, ref);
    auto algos = spk::all_algorithms<spk::SpmvAlgorithm>();
    algos.push_back(spk::SpmvAlgorithm::automatic);
    for (const auto algo : algos) {
      spk::SpmvOptions options;
      options.algorithm = algo;
      poison(y);
      spk::spmv(S(1), A, x, S(0), y, options);
      auto hy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
      EXPECT_LE(relative_error(hy, ref), tol) << "spmv " << spk::to_string(algo) << " seed " << seed;
    }

    const int k = 16;
    Kokkos::View<S**, Kokkos::LayoutRight, TestDevice> B("B", hA.num_cols(), k), C("C", hA.num_rows(), k);
    auto hB = Kokkos::create_mirror_view(B);
    fill_random(hB, seed + 1);
    Kokkos::deep_copy(B, hB);
    Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> refC("refC", hA.num_rows(), k);
    spk::reference::spmm(1.0, hA, hB, 0.0, refC);
    for (const auto algo : spk::all_algorithms<spk::SpmmAlgorithm>()) {
      spk::SpmmOptions options;
      options.algorithm = algo;
      poison(C);
      spk::spmm(S(1), A, B, S(0), C, options);
      auto hC = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), C);
      EXPECT_LE(relative_error(hC, refC), tol) << "spmm " << spk::to_string(algo) << " seed " << seed;
    }

    if (hA.num_rows() == hA.num_cols() && products_of_square(hA) <= 20000000) {
      const auto refG = spk::reference::spgemm(hA, hA);
      // automatic, then the binned paths with each product walk forced
      for (const auto walk : {spk::SpgemmWalk::automatic, spk::SpgemmWalk::flat, spk::SpgemmWalk::by_entries}) {
        spk::SpgemmOptions options;
        options.algorithm = walk == spk::SpgemmWalk::automatic ? spk::SpgemmAlgorithm::automatic
                                                               : spk::SpgemmAlgorithm::binned;
        options.walk = walk;
        const auto G = spk::to_host(spk::spgemm(A, A, options));
        const std::string what = std::string("spgemm walk ") + std::string(spk::to_string(walk));
        ASSERT_EQ(static_cast<std::int64_t>(G.nnz()), static_cast<std::int64_t>(refG.nnz())) << what << " nnz";
        for (std::int64_t p = 0; p < refG.nnz(); ++p)
          ASSERT_EQ(G.entries()(p), refG.entries()(p)) << what << " entry " << p;
        EXPECT_LE(relative_error(G.values(), refG.values()), tol) << what << " values";
      }
    }
  }
}
