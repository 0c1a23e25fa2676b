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
    // the team-counts form (row_length_stats' on GPUs from stats_by_teams_rows_min rows) on every back-end
    const auto t = spk::row_length_stats_by_teams(A);
    expect_serial(t, "row_length_stats_by_teams");
    // deterministic: integer counts, reductions in a fixed order
    EXPECT_EQ(spk::row_length_stats_by_teams(A).stddev_length, t.stddev_length) << shape.name;
    EXPECT_EQ(spk::row_length_stats(A).stddev_length, s.stddev_length) << shape.name;
  }
}
