// Matrix generators: exact structure and nonzero counts against brute force, sorted duplicate-free rows, values in
// +-[0.1, 1), determinism (pinned by golden values so that every platform agrees), spec parsing and overflow checks.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

#include <spk/io/generators.hpp>

#include "test_common.hpp"

namespace {

using Index = std::int32_t;

template <class S, class Off>
using Matrix = spk::HostCsrMatrix<S, Index, Off>;

template <class S, class Off>
std::vector<Index> row_columns(const Matrix<S, Off>& A, Index r) {
  return std::vector<Index>(A.entries().data() + A.row_map()(r), A.entries().data() + A.row_map()(r + 1));
}

template <class S, class Off>
bool identical(const Matrix<S, Off>& A, const Matrix<S, Off>& B) {
  return A.num_rows() == B.num_rows() && A.num_cols() == B.num_cols() && A.nnz() == B.nnz() &&
         std::memcmp(A.row_map().data(), B.row_map().data(), sizeof(Off) * (A.num_rows() + 1)) == 0 &&
         std::memcmp(A.entries().data(), B.entries().data(), sizeof(Index) * A.nnz()) == 0 &&
         std::memcmp(A.values().data(), B.values().data(), sizeof(S) * A.nnz()) == 0;
}

// validate() plus every value in +-[0.1, 1), with both signs present in any sizeable matrix.
template <class S, class Off>
void expect_well_formed(const Matrix<S, Off>& A) {
  EXPECT_NO_THROW(A.validate());
  Off negative = 0;
  for (Off k = 0; k < A.nnz(); ++k) {
    const S v = A.values()(k);
    ASSERT_TRUE(std::abs(v) >= S(0.1) && std::abs(v) < S(1)) << "value " << v << " at " << k;
    negative += v < 0;
  }
  if (A.nnz() >= 64) {
    EXPECT_GT(negative, A.nnz() / 4);
    EXPECT_LT(negative, A.nnz() - A.nnz() / 4);
  }
}

const char* const specs[] = {"lap2d:9", "st3d7:5", "st3d27:4", "rmat:9:8", "uniform:300:7", "band:400:9", "skewed:640"};

template <class T>
class GeneratorsTyped : public ::testing::Test {};
TYPED_TEST_SUITE(GeneratorsTyped, spk_test::ScalarOffsetTypes);

TYPED_TEST(GeneratorsTyped, WellFormedAndDeterministic) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  const std::uint64_t seed = spk_test::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const std::string spec : specs) {
    SCOPED_TRACE(spec);
    const auto A = spk::gen::generate<S, Off>(spec, seed);
    expect_well_formed(A);
    EXPECT_TRUE(identical(A, spk::gen::generate<S, Off>(spec, seed))) << "same seed, different matrix";
    const auto B = spk::gen::generate<S, Off>(spec, seed + 1);
    EXPECT_NE(0, std::memcmp(A.values().data(), B.values().data(), sizeof(S) * std::min(A.nnz(), B.nnz())));
    const bool random_structure = spec.rfind("lap2d", 0) != 0 && spec.rfind("st3d", 0) != 0;
    if (random_structure) {
      EXPECT_FALSE(identical(A, B));
    }
  }
}

// float and double matrices from one seed share their structure, and the float values are the double ones rounded.
TEST(Generators, FloatIsDoubleRounded) {
  for (const std::string spec : specs) {
    SCOPED_TRACE(spec);
    const auto D = spk::gen::generate<double>(spec, 11);
    const auto F = spk::gen::generate<float>(spec, 11);
    ASSERT_EQ(D.nnz(), F.nnz());
    EXPECT_EQ(0, std::memcmp(D.row_map().data(), F.row_map().data(), sizeof(Index) * (D.num_rows() + 1)));
    EXPECT_EQ(0, std::memcmp(D.entries().data(), F.entries().data(), sizeof(Index) * D.nnz()));
    for (Index k = 0; k < D.nnz(); ++k) {
      float expected = static_cast<float>(D.values()(k));
      if (std::abs(expected) >= 1) expected = std::copysign(std::nextafter(1.0f, 0.0f), expected);
      ASSERT_EQ(F.values()(k), expected) << "entry " << k;
    }
  }
}

// Golden values: a change here changes every generated matrix, on every platform.
TEST(Generators, GoldenValues) {
  spk::gen::Rng rng(42);
  EXPECT_EQ(rng.next(), 0x10363269ba1c45b0ull);
  EXPECT_EQ(rng.next(), 0xc7ef08036148ef22ull);
  EXPECT_EQ(rng.next(), 0x48fb21c97442c7ddull);
  spk::gen::Rng stream(42, 7);
  EXPECT_EQ(stream.below(10), 7u);
  EXPECT_EQ(stream.below(1000000007), 415904527u);
  EXPECT_EQ(stream.below(4294967296ull), 3405520387u);
  EXPECT_EQ(stream.value<double>(), 0x1.32c7ef2c4613p-2);
  EXPECT_EQ(stream.value<float>(), 0x1.ebf17ap-3f);

  const auto A = spk::gen::generate<double>("uniform:3:2", 7);
  EXPECT_EQ(row_columns(A, 0), (std::vector<Index>{0, 1}));
  EXPECT_EQ(row_columns(A, 1), (std::vector<Index>{0, 2}));
  EXPECT_EQ(row_columns(A, 2), (std::vector<Index>{1, 2}));
  const double values[] = {-0x1.55f4a0d58588p-1, -0x1.cf231857dc338p-1, 0x1.fd525a07f56b8p-1,
                           0x1.f289db9456508p-3, -0x1.dca1b3453e814p-2, -0x1.c0bec8071b4e8p-2};
  for (int k = 0; k < 6; ++k) EXPECT_EQ(A.values()(k), values[k]) << "entry " << k;

  // FNV-1a over (column, value bits) of whole matrices.
  const auto hash = [](const Matrix<double, Index>& B) {
    std::uint64_t h = 1469598103934665603ull;
    for (Index k = 0; k < B.nnz(); ++k) {
      std::uint64_t bits;
      const double v = B.values()(k);
      std::memcpy(&bits, &v, sizeof bits);
      h = (h ^ static_cast<std::uint64_t>(B.entries()(k))) * 1099511628211ull;
      h = (h ^ bits) * 1099511628211ull;
    }
    return h;
  };
  const struct {
    const char* spec;
    Index nnz;
    std::uint64_t hash;
  } golden[] = {{"rmat:8:4", 859, 0x7c8a95f09184e5b4ull},
                {"band:300:4", 1200, 0x3c8eed106e663368ull},
                {"skewed:200", 14464, 0xfd17d4f589190f71ull},
                {"st3d27:4", 1000, 0xadd9fbe817dd44fdull},
                {"lap2d:6", 156, 0x0be235d927c834f1ull}};
  for (const auto& g : golden) {
    const auto B = spk::gen::generate<double>(g.spec, 7);
    EXPECT_EQ(B.nnz(), g.nnz) << g.spec;
    EXPECT_EQ(hash(B), g.hash) << g.spec;
  }
}

// Brute-force stencil neighbours of a grid point, in increasing order.
std::vector<Index> stencil_columns(const std::vector<std::int64_t>& point, std::int64_t n, bool full) {
  const std::size_t dims = point.size();
  std::vector<Index> out;
  std::vector<int> d(dims, -1);
  for (;;) {
    int moved = 0;
    bool inside = true;
    std::int64_t column = 0;
    for (std::size_t axis = dims; axis-- > 0;) {
      const std::int64_t x = point[axis] + d[axis];
      moved += d[axis] != 0;
      inside = inside && x >= 0 && x < n;
      column = column * n + x;
    }
    if (inside && (full || moved <= 1)) out.push_back(static_cast<Index>(column));
    std::size_t axis = 0;
    while (axis < dims && d[axis] == 1) d[axis++] = -1;
    if (axis == dims) break;
    ++d[axis];
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Generators, Laplace2dMatchesBruteForce) {
  for (const std::int64_t n : {0, 1, 2, 3, 7}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto A = spk::gen::laplace2d<double>(n, 3);
    expect_well_formed(A);
    ASSERT_EQ(A.num_rows(), n * n);
    EXPECT_EQ(A.num_cols(), n * n);
    EXPECT_EQ(A.nnz(), n == 0 ? 0 : 5 * n * n - 4 * n);
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j)
        EXPECT_EQ(row_columns(A, static_cast<Index>(i * n + j)), stencil_columns({j, i}, n, false));
  }
}

TEST(Generators, Stencil3dMatchesBruteForce) {
  for (const int points : {7, 27})
    for (const std::int64_t n : {0, 1, 2, 3, 5}) {
      SCOPED_TRACE(std::to_string(points) + " points, n = " + std::to_string(n));
      const auto A = spk::gen::stencil3d<float, std::int64_t>(n, points, 3);
      expect_well_formed(A);
      ASSERT_EQ(A.num_rows(), n * n * n);
      const std::int64_t nnz = n == 0        ? 0
                               : points == 7 ? 7 * n * n * n - 6 * n * n
                                             : (3 * n - 2) * (3 * n - 2) * (3 * n - 2);
      EXPECT_EQ(A.nnz(), nnz);
      for (std::int64_t z = 0; z < n; ++z)
        for (std::int64_t y = 0; y < n; ++y)
          for (std::int64_t x = 0; x < n; ++x)
            EXPECT_EQ(row_columns(A, static_cast<Index>((z * n + y) * n + x)),
                      stencil_columns({x, y, z}, n, points == 27));
    }
  EXPECT_THROW(spk::gen::stencil3d<double>(4, 9, 1), spk::invalid_argument);
}

// Column counts over many rows must be close to uniform: a sampler that favoured some columns would fail.
template <class S, class Off>
void expect_uniform_columns(const Matrix<S, Off>& A) {
  std::vector<double> count(static_cast<std::size_t>(A.num_cols()), 0);
  for (Off k = 0; k < A.nnz(); ++k) ++count[static_cast<std::size_t>(A.entries()(k))];
  const double p = 1.0 / A.num_cols(), mean = A.nnz() * p;
  const double sd = std::sqrt(A.nnz() * p * (1 - p));
  for (std::size_t c = 0; c < count.size(); ++c) ASSERT_LT(std::abs(count[c] - mean), 6 * sd) << "column " << c;
}

TEST(Generators, UniformHasExactRowLengthsAndUniformColumns) {
  const std::uint64_t seed = spk_test::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  // The sampler switches method with the density (linear scan, bitmap + sort, bitmap scan, whole row).
  const struct {
    std::int64_t rows, per_row, cols;
  } cases[] = {{8000, 5, 50}, {4000, 20, 400}, {2000, 40, 60}, {50, 30, 30}, {40, 100, 30}, {30, 7, 100000}};
  for (const auto& c : cases) {
    SCOPED_TRACE(std::to_string(c.rows) + " x " + std::to_string(c.cols) + ", " + std::to_string(c.per_row));
    const auto A = spk::gen::uniform<double>(c.rows, c.per_row, seed, c.cols);
    expect_well_formed(A);
    ASSERT_EQ(A.num_rows(), c.rows);
    ASSERT_EQ(A.num_cols(), c.cols);
    const std::int64_t k = std::min(c.per_row, c.cols);
    EXPECT_EQ(A.nnz(), c.rows * k);
    for (Index r = 0; r < A.num_rows(); ++r) ASSERT_EQ(A.row_map()(r + 1) - A.row_map()(r), k);
    if (c.rows * k >= 20000) expect_uniform_columns(A);
  }
  EXPECT_EQ(spk::gen::uniform<float>(100, 3, seed).num_cols(), 100);
}

TEST(Generators, BandedStaysInItsWindow) {
  const std::uint64_t seed = spk_test::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const auto& [rows, per_row, half_width] : std::vector<std::tuple<std::int64_t, std::int64_t, std::int64_t>>{
           {1000, 7, 10}, {200, 30, 5}, {5000, 5, 2000}, {1, 4, 3}}) {
    SCOPED_TRACE(std::to_string(rows) + " rows, " + std::to_string(per_row) + " per row, +-" +
                 std::to_string(half_width));
    const auto A = spk::gen::banded<double>(rows, per_row, seed, half_width);
    expect_well_formed(A);
    std::int64_t nnz = 0;
    for (Index r = 0; r < A.num_rows(); ++r) {
      const std::int64_t lo = std::max<std::int64_t>(0, r - half_width),
                         hi = std::min<std::int64_t>(rows - 1, r + half_width);
      const auto cols = row_columns(A, r);
      ASSERT_EQ(static_cast<std::int64_t>(cols.size()), std::min(per_row, hi - lo + 1)) << "row " << r;
      if (!cols.empty()) {
        ASSERT_TRUE(cols.front() >= lo && cols.back() <= hi) << "row " << r;
      }
      nnz += static_cast<std::int64_t>(cols.size());
    }
    EXPECT_EQ(A.nnz(), nnz);
  }
  const auto D = spk::gen::banded<double>(5000, 5, seed);  // default half width 2000
  for (Index r = 0; r < D.num_rows(); ++r)
    for (const Index c : row_columns(D, r)) ASSERT_LE(std::abs(c - r), 2000);
}

TEST(Generators, SkewedHasLongRowsWhereExpected) {
  const std::uint64_t seed = spk_test::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const auto A = spk::gen::skewed<double>(1000, seed, 3, 500, 100);
  expect_well_formed(A);
  EXPECT_EQ(A.nnz(), 10 * 500 + 990 * 3);
  for (Index r = 0; r < A.num_rows(); ++r)
    ASSERT_EQ(A.row_map()(r + 1) - A.row_map()(r), r % 100 == 0 ? 500 : 3) << "row " << r;
  // Defaults: every (rows / 64)-th row has min(200000, rows) columns, the others 8.
  const auto B = spk::gen::skewed<float>(6400, seed);
  expect_well_formed(B);
  EXPECT_EQ(B.nnz(), 64 * 6400 + (6400 - 64) * 8);
  std::vector<Index> all(6400);
  std::iota(all.begin(), all.end(), 0);
  EXPECT_EQ(row_columns(B, 100), all);
  EXPECT_EQ(B.row_map()(102) - B.row_map()(101), 8);
  // Fewer than 64 rows: every row is long.
  EXPECT_EQ(spk::gen::skewed<double>(10, seed).nnz(), 100);
}

TEST(Generators, RmatIsSkewedAndMergesDuplicates) {
  const std::uint64_t seed = spk_test::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const auto A = spk::gen::rmat<double>(12, 8, seed);
  expect_well_formed(A);
  ASSERT_EQ(A.num_rows(), 4096);
  EXPECT_LE(A.nnz(), 8 * 4096);
  EXPECT_GT(A.nnz(), 4 * 4096);
  Index longest = 0;
  for (Index r = 0; r < A.num_rows(); ++r) longest = std::max(longest, A.row_map()(r + 1) - A.row_map()(r));
  EXPECT_GT(longest, 10 * A.nnz() / A.num_rows()) << "R-MAT row lengths should follow a power law";
  // Without the vertex relabelling the heaviest row would always be row 0 (the vertex with no bits set).
  int relabelled = 0;
  for (const std::uint64_t s : {1, 2, 3}) {
    const auto B = spk::gen::rmat<double>(10, 8, s);
    Index heaviest = 0;
    for (Index r = 1; r < B.num_rows(); ++r)
      if (B.row_map()(r + 1) - B.row_map()(r) > B.row_map()(heaviest + 1) - B.row_map()(heaviest)) heaviest = r;
    relabelled += heaviest != 0;
  }
  EXPECT_GT(relabelled, 0);

  EXPECT_THROW(spk::gen::rmat<double>(31, 1, seed), spk::invalid_argument);
  EXPECT_THROW(spk::gen::rmat<double>(4, -1, seed), spk::invalid_argument);
  EXPECT_THROW(spk::gen::rmat<double>(4, 2, seed, 0.6, 0.3, 0.2), spk::invalid_argument);
  EXPECT_EQ(spk::gen::rmat<double>(0, 3, seed).nnz(), 1);
}

TEST(Generators, SpecsMatchDirectCalls) {
  const std::uint64_t seed = 5;
  EXPECT_TRUE(identical(spk::gen::generate<double>("lap2d:6", seed), spk::gen::laplace2d<double>(6, seed)));
  EXPECT_TRUE(identical(spk::gen::generate<double>("st3d7:4", seed), spk::gen::stencil3d<double>(4, 7, seed)));
  EXPECT_TRUE(identical(spk::gen::generate<double>("st3d27:4", seed), spk::gen::stencil3d<double>(4, 27, seed)));
  EXPECT_TRUE(identical(spk::gen::generate<double>("rmat:7:3", seed), spk::gen::rmat<double>(7, 3, seed)));
  EXPECT_TRUE(identical(spk::gen::generate<double>("uniform:90:4", seed), spk::gen::uniform<double>(90, 4, seed)));
  EXPECT_TRUE(identical(spk::gen::generate<double>("band:90:4", seed), spk::gen::banded<double>(90, 4, seed)));
  EXPECT_TRUE(identical(spk::gen::generate<double>("skewed:900", seed), spk::gen::skewed<double>(900, seed)));
}

void expect_invalid(const std::function<void()>& f, const std::string& phrase) {
  EXPECT_THROW(f(), spk::invalid_argument);
  try {
    f();
  } catch (const spk::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(phrase), std::string::npos)
        << "message '" << e.what() << "' lacks '" << phrase << "'";
  } catch (...) {  // already reported by EXPECT_THROW
  }
}

TEST(Generators, BadSpecsListTheValidForms) {
  for (const std::string spec :
       {"", "lap2d", "lap2d:", "lap2d:x", "lap2d:-3", "lap2d:3:4", "lap2d:3.5", "foo:3", "rmat:22", "rmat:31:1",
        "uniform:10:", "band:10", "skewed:1:2", "LAP2D:4", "lap2d:99999999999999"})
    expect_invalid([&] { spk::gen::generate<double>(spec, 1); }, "valid forms: lap2d:N, st3d7:N");
}

TEST(Generators, BadArgumentsAreRejected) {
  expect_invalid([] { spk::gen::laplace2d<double>(-1, 1); }, "n is -1");
  expect_invalid([] { spk::gen::laplace2d<double>(46341, 1); }, "expected 0 <= n <= 46340");
  expect_invalid([] { spk::gen::stencil3d<double>(1291, 7, 1); }, "expected 0 <= n <= 1290");
  expect_invalid([] { spk::gen::stencil3d<double>(3, 5, 1); }, "points is 5, expected 7 or 27");
  expect_invalid([] { spk::gen::uniform<double>(-1, 3, 1); }, "rows is -1");
  expect_invalid([] { spk::gen::uniform<double>(10, -3, 1); }, "per_row is -3");
  expect_invalid([] { spk::gen::uniform<double>(10, 3, 1, 3000000000); }, "cols is 3000000000");
  expect_invalid([] { spk::gen::banded<double>(10, -1, 1); }, "per_row is -1");
  expect_invalid([] { spk::gen::skewed<double>(-5, 1); }, "rows is -5");
}

// Specs whose nonzeros overflow 32-bit offsets are refused before anything is allocated (or they would take
// gigabytes and seconds here).
TEST(Generators, OffsetOverflowIsRefusedUpFront) {
  for (const std::string spec :
       {"lap2d:30000", "st3d27:1000", "st3d7:1200", "rmat:27:16", "uniform:2000000:2000", "skewed:2000000000"})
    expect_invalid([&] { spk::gen::generate<float, std::int32_t>(spec, 1); }, "use int64 offsets");
}

}  // namespace
