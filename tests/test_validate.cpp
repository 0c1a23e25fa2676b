// CsrMatrix construction checks and validate(): each malformed structure throws spk::invalid_argument naming the
// row and the bad value.
#include <spk/csr_matrix.hpp>
#include <spk/matrix_stats.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "test_common.hpp"
#include "test_matrices.hpp"

using namespace spk_test;

namespace {
using Host = spk::HostCsrMatrix<double, std::int32_t, std::int32_t>;

Host make(std::int32_t rows, std::int32_t cols, const std::vector<int>& rm, const std::vector<int>& ent) {
  Host::row_map_type r("r", rm.size());
  Host::entries_type e("e", ent.size());
  Host::values_type v("v", ent.size());
  for (std::size_t i = 0; i < rm.size(); ++i) r(i) = rm[i];
  for (std::size_t i = 0; i < ent.size(); ++i) e(i) = ent[i], v(i) = 1.0;
  return Host(rows, cols, r, e, v);
}

// validate() on the test back-end must throw invalid_argument whose message contains every fragment.
void expect_invalid(const Host& h, const std::vector<std::string>& fragments, spk::ValidateOptions opt = {}) {
  const auto A = spk::copy_to<TestDevice>(h);
  try {
    A.validate(opt);
    ADD_FAILURE() << "validate() accepted a malformed matrix";
  } catch (const spk::invalid_argument& e) {
    for (const auto& f : fragments) EXPECT_NE(std::string(e.what()).find(f), std::string::npos) << e.what();
  }
}
}  // namespace

TEST(Validate, AcceptsWellFormedMatrices) {
  for (const auto& shape : edge_shapes())
    EXPECT_NO_THROW(spk::copy_to<TestDevice>(random_csr<double, int>(shape, fresh_seed())).validate()) << shape.name;
}

TEST(Validate, RejectsEachMalformedStructure) {
  expect_invalid(make(2, 3, {1, 1, 2}, {0, 1}), {"row_map[0] is 1", "expected 0"});
  expect_invalid(make(2, 3, {0, 1, 1}, {0, 1}), {"row_map[2] is 1", "expected the number of stored entries 2"});
  expect_invalid(make(3, 3, {0, 2, 1, 3}, {0, 1, 2}), {"not monotone at row 1", "row_map[1] = 2"});
  expect_invalid(make(2, 3, {0, 1, 2}, {0, 3}), {"row 1", "column index 3", "0 <= column < 3"});
  expect_invalid(make(2, 3, {0, 1, 2}, {-1, 0}), {"row 0", "column index -1"});
  expect_invalid(make(2, 3, {0, 2, 2}, {2, 1}), {"row 0 is not sorted", "column 1"});
  expect_invalid(make(2, 3, {0, 0, 2}, {1, 1}), {"row 1 is not duplicate-free"});
}

TEST(Validate, ChecksCanBeSwitchedOff) {
  const auto unsorted = spk::copy_to<TestDevice>(make(1, 3, {0, 2}, {2, 1}));
  spk::ValidateOptions opt;
  opt.check_sorted = false;
  EXPECT_NO_THROW(unsorted.validate(opt));
  const auto out_of_range = spk::copy_to<TestDevice>(make(1, 3, {0, 1}, {7}));
  opt.check_columns = false;
  EXPECT_NO_THROW(out_of_range.validate(opt));
}

TEST(Validate, ConstructorRejectsInconsistentArrays) {
  Host::row_map_type r("r", 3);
  Host::entries_type e("e", 2);
  Host::values_type v("v", 3);
  EXPECT_THROW(Host(2, 2, r, e, v), spk::invalid_argument);                           // entries vs values
  EXPECT_THROW(Host(3, 2, r, e, Host::values_type("v", 2)), spk::invalid_argument);    // row_map length
  EXPECT_THROW(Host(-1, 2, r, e, Host::values_type("v", 2)), spk::invalid_argument);   // negative rows
}

TEST(RowLengthStats, MatchesAHandCount) {
  // Row lengths 0, 3, 1, 4: min 0, max 4, mean 2, population std-dev sqrt(2.5).
  const auto A = spk::copy_to<TestDevice>(make(4, 5, {0, 0, 3, 4, 8}, {0, 1, 2, 4, 0, 1, 2, 3}));
  const auto s = spk::row_length_stats(A);
  EXPECT_EQ(s.rows, 4);
  EXPECT_EQ(s.cols, 5);
  EXPECT_EQ(s.nnz, 8);
  EXPECT_EQ(s.min_length, 0);
  EXPECT_EQ(s.max_length, 4);
  EXPECT_DOUBLE_EQ(s.mean_length, 2.0);
  EXPECT_DOUBLE_EQ(s.stddev_length, std::sqrt(2.5));
  // Bins: 0 -> empty, 1 -> [1,2), 2 -> [2,4), 3 -> [4,8).
  EXPECT_EQ(s.log2_histogram[0], 1);
  EXPECT_EQ(s.log2_histogram[1], 1);
  EXPECT_EQ(s.log2_histogram[2], 1);
  EXPECT_EQ(s.log2_histogram[3], 1);
  const auto empty = spk::row_length_stats(spk::copy_to<TestDevice>(make(0, 3, {0}, {})));
  EXPECT_EQ(empty.rows, 0);
  EXPECT_EQ(empty.nnz, 0);
}

// The device reduction and the team-counts form against a serial count, on the edge shapes and on shapes large
// enough to span many blocks of a GPU reduction.
TEST(RowLengthStats, MatchesASerialCount) {
  auto shapes = edge_shapes();
  shapes.push_back({"many_blocks", 150001, 64, [](std::int64_t r, std::mt19937_64& g) {
                      return r % 1000 == 3 ? std::int64_t(64) : std::int64_t(g() % 7);
                    }});
  shapes.push_back({"long_tail", 70000, 3000, [](std::int64_t r, std::mt19937_64&) {
                      return r == 69999 ? std::int64_t(3000) : r % 5;
                    }});
  // more rows than 1,024 teams of 4,096: row_length_stats_by_teams' teams then take more rows each
  shapes.push_back({"over_1024_teams", 4300001, 9, [](std::int64_t r, std::mt19937_64&) {
                      return r % 7 == 0 ? std::int64_t(r % 9) : std::int64_t(0);
                    }});
  for (const auto& shape : shapes) {
    const auto h = random_csr<double, int>(shape, fresh_seed());
    const auto A = spk::copy_to<TestDevice>(h);
    const auto s = spk::row_length_stats(A);
    std::int64_t lo = shape.rows ? std::numeric_limits<std::int64_t>::max() : 0, hi = 0;
    std::array<std::int64_t, spk::RowLengthStats::num_bins> bins{};
    const double mean = shape.rows ? static_cast<double>(h.nnz()) / shape.rows : 0;
    double squares = 0;
    for (std::int64_t r = 0; r < h.num_rows(); ++r) {
      const std::int64_t len = h.row_map()(r + 1) - h.row_map()(r);
      lo = std::min(lo, len);
      hi = std::max(hi, len);
      squares += (len - mean) * (len - mean);
      ++bins[spk::row_length_bin(len)];
    }
    const double stddev = shape.rows ? std::sqrt(squares / shape.rows) : 0;
    // The serial sum's own rounding grows with the rows: its terms take few values, so their errors do not cancel
    // (150,001 rows: 4e-12 apart from the device's sum on an H100).
    const double eps = std::numeric_limits<double>::epsilon();
    const auto expect_serial = [&](const spk::RowLengthStats& got, const char* form) {
      EXPECT_EQ(got.rows, h.num_rows()) << shape.name << ", " << form;
      EXPECT_EQ(got.nnz, h.nnz()) << shape.name << ", " << form;
      EXPECT_EQ(got.min_length, lo) << shape.name << ", " << form;
      EXPECT_EQ(got.max_length, hi) << shape.name << ", " << form;
      EXPECT_DOUBLE_EQ(got.mean_length, mean) << shape.name << ", " << form;
      EXPECT_NEAR(got.stddev_length, stddev, eps * static_cast<double>(16 + shape.rows) * (1 + stddev))
          << shape.name << ", " << form;
      EXPECT_EQ(got.log2_histogram, bins) << shape.name << ", " << form;
    };
    expect_serial(s, "row_length_stats");
    // both forms on every back-end (row_length_stats takes the team counts on GPUs from stats_by_teams_rows_min rows)
    const auto t = spk::row_length_stats_by_teams(A), u = spk::row_length_stats_by_reduction(A);
    expect_serial(t, "row_length_stats_by_teams");
    expect_serial(u, "row_length_stats_by_reduction");
    // exact integer counts: the forms agree to the bit, and so does every run
    EXPECT_EQ(t.stddev_length, u.stddev_length) << shape.name;
    EXPECT_EQ(spk::row_length_stats_by_teams(A).stddev_length, t.stddev_length) << shape.name;
    EXPECT_EQ(spk::row_length_stats_by_reduction(A).stddev_length, u.stddev_length) << shape.name;
  }
}

// The 64-bit counts and the 128-bit squares, which only matrices of 2^32 rows or nonzeros reach: the same counts as
// the 32-bit form on the device, and squares and variances past 64 bits on the host.
TEST(RowLengthStats, WideCountsMatchNarrowAndCarry) {
  const auto h = random_csr<double, int>({"mixed", 20000, 300, [](std::int64_t r, std::mt19937_64& g) {
                                            return r % 97 == 0 ? std::int64_t(g() % 300) : std::int64_t(g() % 9);
                                          }},
                                         fresh_seed());
  const auto A = spk::copy_to<TestDevice>(h);
  using RowMap = typename decltype(A)::row_map_type;
  using policy = Kokkos::RangePolicy<typename TestDevice::execution_space, Kokkos::IndexType<std::int64_t>>;
  spk::detail::RowLengthCounts<std::uint64_t> wide;
  spk::detail::RowLengthCounts<std::uint32_t> narrow;
  Kokkos::parallel_reduce(policy(0, A.num_rows()), spk::detail::RowLengthReduction<RowMap, std::uint64_t>{A.row_map()},
                          wide);
  Kokkos::parallel_reduce(policy(0, A.num_rows()), spk::detail::RowLengthReduction<RowMap, std::uint32_t>{A.row_map()},
                          narrow);
  EXPECT_EQ(wide.shortest, narrow.shortest);
  EXPECT_EQ(wide.longest, narrow.longest);
  EXPECT_EQ(wide.squares_low, narrow.squares_low);
  EXPECT_EQ(wide.squares_high, 0u);
  for (int b = 0; b < spk::RowLengthStats::num_bins; ++b) EXPECT_EQ(wide.bins[b], narrow.bins[b]) << "bin " << b;

  // add_square against a 128-bit product, across the 2^32 boundary of its halves
  std::uint64_t low = 0, high = 0;
  long double expected = 0;
  for (const std::uint64_t x : {std::uint64_t{0}, std::uint64_t{3}, (std::uint64_t{1} << 32) - 1,
                                std::uint64_t{1} << 32, (std::uint64_t{1} << 40) + 7, (std::uint64_t{1} << 63) - 1}) {
    std::uint64_t l = 0, hi = 0;
    spk::detail::add_square(x, l, hi);
    const long double x2 = static_cast<long double>(x) * static_cast<long double>(x);
    EXPECT_EQ(static_cast<long double>(hi), std::floor(std::ldexp(x2, -64))) << x;
    EXPECT_EQ(l, x * x) << x;  // the low word is the product modulo 2^64
    spk::detail::add_square(x, low, high);
    expected += x2;
  }
  EXPECT_NEAR(std::ldexp(static_cast<long double>(high), 64) + low, expected, std::ldexp(expected, -60));
  // the reduction's join carries too
  spk::detail::RowLengthReduction<RowMap, std::uint64_t> join;
  spk::detail::RowLengthCounts<std::uint64_t> a, b;
  join.init(a);
  join.init(b);
  a.squares_low = ~std::uint64_t{0} - 1;
  a.squares_high = 1;
  b.squares_low = 5;
  b.squares_high = 2;
  join.join(a, b);
  EXPECT_EQ(a.squares_low, 3u);
  EXPECT_EQ(a.squares_high, 4u);

  // Two rows of 0 and 2^33 nonzeros: squares 2^66 (high word 4), mean 2^32, variance 2^64.
  spk::RowLengthStats s = spk::detail::row_length_stats_head(2, 1, std::int64_t{1} << 33);
  spk::detail::RowLengthCounts<std::uint64_t> big{};
  big.shortest = 0;
  big.longest = std::uint64_t{1} << 33;
  big.squares_low = 0;
  big.squares_high = 4;
  big.bins[0] = big.bins[spk::RowLengthStats::num_bins - 1] = 1;  // 2^33 falls in the last bin
  spk::detail::fill_row_length_stats(s, big);
  EXPECT_EQ(s.min_length, 0);
  EXPECT_EQ(s.max_length, std::int64_t{1} << 33);
  EXPECT_EQ(s.stddev_length, std::ldexp(1.0, 32));
  EXPECT_EQ(s.log2_histogram[0], 1);
}
