// Matrix Market reader and writer: every header variant entry by entry, malformed inputs (line number and message),
// bit-exact round trips through strings, .mtx and .mtx.gz files, fuzzed inputs, and the real matrices when present.
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <typeinfo>
#include <vector>

#include <spk/io/coo.hpp>
#include <spk/io/matrix_market.hpp>

#include "test_common.hpp"

namespace {

namespace fs = std::filesystem;
using spk::io::read_matrix_market_string;

// Dense row-major copy of a small host matrix, for entry-by-entry comparisons.
template <class S, class O, class Off>
std::vector<double> dense(const spk::HostCsrMatrix<S, O, Off>& A) {
  std::vector<double> out(static_cast<std::size_t>(A.num_rows()) * A.num_cols(), 0.0);
  for (O r = 0; r < A.num_rows(); ++r)
    for (Off k = A.row_map()(r); k < A.row_map()(r + 1); ++k)
      out[static_cast<std::size_t>(r) * A.num_cols() + A.entries()(k)] = A.values()(k);
  return out;
}

// Expects read() to throw spk::format_error at `line` (0: not tied to a line) with `phrase` in its message.
template <class Read>
void expect_format_error_from(Read&& read, std::size_t line, const std::string& phrase) {
  EXPECT_THROW(read(), spk::format_error);
  try {
    read();
  } catch (const spk::format_error& e) {
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_NE(std::string(e.what()).find(phrase), std::string::npos)
        << "message '" << e.what() << "' lacks '" << phrase << "'";
  } catch (...) {  // already reported by EXPECT_THROW
  }
}

template <class Offset = std::int32_t>
void expect_format_error(const std::string& text, std::size_t line, const std::string& phrase) {
  SCOPED_TRACE("input:\n" + text);
  expect_format_error_from([&] { read_matrix_market_string<double, std::int32_t, Offset>(text); }, line, phrase);
}

void expect_file_error(const std::string& path, std::size_t line, const std::string& phrase) {
  expect_format_error_from([&] { spk::io::read_matrix_market<double>(path); }, line, phrase);
}

// A fresh path in the temporary directory (unique even when SPK_TEST_SEED fixes the seeds of parallel test
// processes), removed when the guard goes out of scope.
struct TempFile {
  fs::path path;
  explicit TempFile(const std::string& suffix) {
    std::random_device rd;
    path = fs::temp_directory_path() / ("spk_mm_" + std::to_string(rd()) + "_" + std::to_string(rd()) + suffix);
  }
  ~TempFile() {
    std::error_code ec;
    fs::remove(path, ec);
  }
  std::string str() const { return path.string(); }
};

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

constexpr const char* banner = "%%MatrixMarket matrix coordinate real general\n";

// ---------------------------------------------------------------------------------------------------------------
// Header variants

struct Triplet {
  int row, col;  // 1-based, row >= col (one triangle, as symmetric files store it)
  const char* real;
  const char* integer;
};

// Entries of a 4 x 4 lower triangle used for every field x symmetry combination.
const std::vector<Triplet> triangle = {
    {1, 1, "1.5", "1"}, {3, 1, "-2", "-2"}, {2, 2, "7e0", "7"}, {4, 2, "4.25", "4"}, {4, 3, "0.5", "-9"}};

TEST(MatrixMarket, EveryFieldAndSymmetryEntryByEntry) {
  for (const std::string field : {"real", "integer", "pattern"})
    for (const std::string symmetry : {"general", "symmetric", "skew-symmetric"}) {
      SCOPED_TRACE(field + " " + symmetry);
      const bool skew = symmetry == "skew-symmetric";
      std::vector<double> expected(16, 0.0);
      std::ostringstream text;
      text << "%%MatrixMarket matrix coordinate " << field << " " << symmetry << "\n";
      std::size_t entries = 0;
      for (const Triplet& t : triangle) entries += !(skew && t.row == t.col);
      text << "4 4 " << entries << "\n";
      for (const Triplet& t : triangle) {
        if (skew && t.row == t.col) continue;
        double v = 1;
        text << t.row << " " << t.col;
        if (field == "real") {
          text << " " << t.real;
          v = std::stod(t.real);
        } else if (field == "integer") {
          text << " " << t.integer;
          v = std::stod(t.integer);
        }
        text << "\n";
        expected[(t.row - 1) * 4 + (t.col - 1)] = v;
        if (symmetry != "general" && t.row != t.col) expected[(t.col - 1) * 4 + (t.row - 1)] = skew ? -v : v;
      }
      const auto A = read_matrix_market_string<double>(text.str());
      A.validate();
      EXPECT_EQ(A.num_rows(), 4);
      EXPECT_EQ(A.num_cols(), 4);
      EXPECT_EQ(dense(A), expected);
      std::int32_t stored = 0;
      for (double v : expected) stored += v != 0;
      EXPECT_EQ(A.nnz(), stored);

      const auto header = spk::io::read_matrix_market_header_string(text.str());
      EXPECT_EQ(header.field, field);
      EXPECT_EQ(header.symmetry, symmetry);
      EXPECT_EQ(header.rows, 4);
      EXPECT_EQ(header.cols, 4);
      EXPECT_EQ(header.entries, static_cast<std::int64_t>(entries));
    }
}

TEST(MatrixMarket, BannerKeywordsAreCaseInsensitive) {
  const auto A = read_matrix_market_string<float>("%%matrixmarket MATRIX Coordinate Real SYMMETRIC\n2 2 1\n2 1 3\n");
  EXPECT_EQ(dense(A), (std::vector<double>{0, 3, 3, 0}));
}

TEST(MatrixMarket, CommentsBlankLinesAndWhitespace) {
  const std::string text =
      "%%MatrixMarket matrix coordinate real general\r\n"
      "% a comment\n"
      "\n"
      "   \t\n"
      "%%GraphBLAS type float\n"
      "  2\t3   3  \r\n"
      "% between entries\n"
      "1 1 1.25\n"
      "\n"
      "\t2  3\t-4 \r\n"
      "   % indented comment\n"
      "1 3 +5\n"
      "% trailing comment\n"
      "\n";
  const auto A = read_matrix_market_string<double>(text);
  A.validate();
  EXPECT_EQ(dense(A), (std::vector<double>{1.25, 0, 5, 0, 0, -4}));
  // The last line may lack its newline.
  EXPECT_EQ(dense(read_matrix_market_string<double>(std::string(banner) + "1 1 1\n1 1 2.5")),
            (std::vector<double>{2.5}));
}

TEST(MatrixMarket, DuplicatesAreSummed) {
  const auto A =
      read_matrix_market_string<double>(std::string(banner) + "2 2 5\n1 1 1\n2 2 4\n1 1 2.5\n1 2 -1\n1 1 0.25\n");
  A.validate();
  EXPECT_EQ(A.nnz(), 3);
  EXPECT_EQ(dense(A), (std::vector<double>{3.75, -1, 0, 4}));
  // In a symmetric file a repeated off-diagonal entry is summed on both sides.
  const auto S = read_matrix_market_string<double>(
      "%%MatrixMarket matrix coordinate integer symmetric\n2 2 3\n2 1 3\n2 1 4\n1 1 1\n");
  EXPECT_EQ(dense(S), (std::vector<double>{1, 7, 7, 0}));
}

// A value that a float cannot hold is an error naming the entry, not an infinity that fails every check; double
// holds it. Duplicates that sum past the range fail in coo_to_csr, which lets a caller's own NaNs pass.
TEST(MatrixMarket, ValuesOutsideTheScalarRange) {
  const std::string text = std::string(banner) + "3 3 2\n1 1 1\n3 2 -1e39\n";
  expect_format_error_from([&] { read_matrix_market_string<float>(text); }, 0,
                           "the entry (3, 2) is -1e+39, outside the range of float");
  EXPECT_EQ(dense(read_matrix_market_string<double>(text))[7], -1e39);
  // Float's largest value as written in 9 digits is a little above it in double, and rounds to it; half an ulp
  // above rounds to infinity.
  const std::string edge = std::string(banner) + "1 1 1\n1 1 3.40282347e38\n";
  EXPECT_EQ(dense(read_matrix_market_string<float>(edge))[0], std::numeric_limits<float>::max());
  expect_format_error_from(
      [&] { read_matrix_market_string<float>(std::string(banner) + "1 1 1\n1 1 3.4028235677973366e38\n"); }, 0,
      "outside the range of float");

  const std::string sums = std::string(banner) + "2 2 3\n2 1 3e38\n1 1 1\n2 1 3e38\n";
  try {
    read_matrix_market_string<float>(sums);
    ADD_FAILURE() << "two duplicates summing to 6e38 were stored in float";
  } catch (const spk::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("row 1, column 0 (0-based) is 6e+38 (2 duplicates summed), outside the "
                                         "range of float"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(dense(read_matrix_market_string<double>(sums))[2], 6e38);
  EXPECT_THROW(spk::io::coo_to_csr<double>(1, 1, {0, 0}, {0, 0}, {1e308, 1e308}), spk::invalid_argument);

  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto A = spk::io::coo_to_csr<float>(2, 2, {0, 0, 1}, {1, 1, 0}, {nan, 1e30, 2});
  EXPECT_TRUE(std::isnan(A.values()(0)));
  EXPECT_EQ(A.values()(1), 2.0f);
}

TEST(MatrixMarket, RectangularAndEmpty) {
  const auto wide = read_matrix_market_string<double>(std::string(banner) + "2 5 3\n1 5 1\n2 1 2\n2 4 3\n");
  wide.validate();
  EXPECT_EQ(wide.num_rows(), 2);
  EXPECT_EQ(wide.num_cols(), 5);
  EXPECT_EQ(dense(wide), (std::vector<double>{0, 0, 0, 0, 1, 2, 0, 0, 3, 0}));
  const auto tall =
      read_matrix_market_string<double>("%%MatrixMarket matrix coordinate pattern general\n5 2 2\n5 2\n1 1\n");
  EXPECT_EQ(dense(tall), (std::vector<double>{1, 0, 0, 0, 0, 0, 0, 0, 0, 1}));
  const auto empty = read_matrix_market_string<double>(std::string(banner) + "3 4 0\n");
  empty.validate();
  EXPECT_EQ(empty.num_rows(), 3);
  EXPECT_EQ(empty.num_cols(), 4);
  EXPECT_EQ(empty.nnz(), 0);
  EXPECT_EQ(read_matrix_market_string<double>(std::string(banner) + "0 0 0\n").num_rows(), 0);
}

// ---------------------------------------------------------------------------------------------------------------
// Malformed input: each case names the line and a phrase its message must contain.

TEST(MatrixMarket, RejectsBadBanners) {
  expect_format_error("", 1, "empty input");
  expect_format_error("3 3 1\n1 1 1\n", 1, "missing banner");
  expect_format_error("\n%%MatrixMarket matrix coordinate real general\n1 1 0\n", 1, "missing banner");
  expect_format_error("%MatrixMarket matrix coordinate real general\n1 1 0\n", 1, "missing banner");
  expect_format_error("%%MatrixMarket matrix coordinate real\n1 1 0\n", 1, "has 4 fields, expected 5");
  expect_format_error("%%MatrixMarket matrix coordinate real general extra\n1 1 0\n", 1, "unexpected token 'extra'");
  expect_format_error("%%MatrixMarket vector coordinate real general\n1 1 0\n", 1, "'vector' is not supported");
  expect_format_error("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", 1, "'array' format");
  expect_format_error("%%MatrixMarket matrix sparse real general\n1 1 0\n", 1, "unknown format 'sparse'");
  expect_format_error("%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", 1,
                      "complex matrices are not supported");
  expect_format_error("%%MatrixMarket matrix coordinate real hermitian\n1 1 0\n", 1,
                      "complex matrices are not supported");
  expect_format_error("%%MatrixMarket matrix coordinate double general\n1 1 0\n", 1, "unknown field 'double'");
  expect_format_error("%%MatrixMarket matrix coordinate real upper\n1 1 0\n", 1, "unknown symmetry 'upper'");
}

TEST(MatrixMarket, RejectsBadSizeLines) {
  const std::string b = banner;
  expect_format_error(b, 1, "before the size line");
  expect_format_error(b + "% only a comment\n\n", 3, "before the size line");
  expect_format_error(b + "% c\n3 x 2\n", 3, "columns is 'x', expected a non-negative integer");
  expect_format_error(b + "-3 3 1\n1 1 1\n", 2, "rows is '-3', expected a non-negative integer");
  expect_format_error(b + "3 3\n", 2, "has 2 fields, expected 3");
  expect_format_error(b + "3\n", 2, "has 1 field, expected 3");
  expect_format_error(b + "3 3 1 7\n1 1 1\n", 2, "unexpected token '7'");
  expect_format_error(b + "3 3 1x\n", 2, "entries is '1x'");
  expect_format_error(b + "3.0 3 1\n", 2, "rows is '3.0'");
  expect_format_error(b + "99999999999999999999999 3 1\n", 2, "expected a non-negative integer");
  expect_format_error(b + "3000000000 3 1\n1 1 1\n", 2, "rows is 3000000000, more than the 32-bit index type");
  expect_format_error(b + "3 2147483648 1\n1 1 1\n", 2, "columns is 2147483648");
  expect_format_error("%%MatrixMarket matrix coordinate real symmetric\n3 4 1\n1 1 1\n", 2, "must be square");
  expect_format_error(b + "3 3 2147483648\n1 1 1\n", 2, "use int64 offsets");
  expect_format_error("%%MatrixMarket matrix coordinate real symmetric\n3 3 1073741824\n1 1 1\n", 2,
                      "use int64 offsets");
  // With int64 offsets the same declaration is accepted, and the missing entries are reported instead.
  expect_format_error<std::int64_t>(b + "3 3 2147483648\n1 1 1\n", 3, "expected 2147483648 entries, found 1");
}

TEST(MatrixMarket, RejectsBadEntries) {
  const std::string b = std::string(banner) + "3 3 2\n";
  expect_format_error(b + "1 x 1\n", 3, "column index 'x' is not an integer");
  expect_format_error(b + "1.0 1 1\n", 3, "row index '1.0' is not an integer");
  expect_format_error(b + "1 1 abc\n", 3, "value 'abc' is not a number");
  expect_format_error(b + "1 1 1.5.2\n", 3, "value '1.5.2' is not a number");
  expect_format_error(b + "1 1 1\n2 2 1e400\n", 4, "value '1e400' is not finite in double");
  expect_format_error(b + "1 1 nan\n", 3, "value 'nan' is not finite");
  expect_format_error(b + "1 1 -inf\n", 3, "value '-inf' is not finite");
  expect_format_error(b + "1 1 Infinity\n", 3, "value 'Infinity' is not finite");
  expect_format_error(b + "1 1\n", 3, "missing value");
  expect_format_error(b + "1\n", 3, "missing column index");
  expect_format_error(b + "1 1 1\n2 2 2 2\n", 4, "unexpected token '2'");
  expect_format_error(b + "0 1 1\n", 3, "row index 0 is out of range, expected 1 <= row <= 3");
  expect_format_error(b + "1 1 1\n1 4 1\n", 4, "column index 4 is out of range, expected 1 <= column <= 3");
  expect_format_error(b + "-1 1 1\n", 3, "row index -1 is out of range");
  expect_format_error(b + "1 99999999999999999999 1\n", 3, "column index '99999999999999999999' is not an integer");
  expect_format_error("%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 1 1.5\n", 3,
                      "value '1.5' is not an integer");
  expect_format_error("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 1 1\n", 3,
                      "unexpected token '1' after 'row column'");
  expect_format_error("%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 1\n2 2 1\n", 4,
                      "skew-symmetric matrix has a diagonal entry (2, 2)");
  expect_format_error(b + "1 1 1\n", 3, "expected 2 entries, found 1");
  expect_format_error(b + "1 1 1\n% trailing\n\n", 5, "expected 2 entries, found 1");
  expect_format_error(b, 2, "expected 2 entries, found 0");
  expect_format_error(b + "1 1 1\n2 2 2\n3 3 3\n", 5, "more entries than declared: expected 2");
  expect_format_error(b + "1 1 1\n2 2 2\n% ok\n3 3 3\n", 6, "more entries than declared");
}

// ---------------------------------------------------------------------------------------------------------------
// Round trips

template <class T>
class MatrixMarketRoundTrip : public ::testing::Test {};
TYPED_TEST_SUITE(MatrixMarketRoundTrip, spk_test::ScalarOffsetTypes);

// A random rectangular matrix whose values include awkward ones (tiny, huge, negative zero, many digits).
template <class S, class Off>
spk::HostCsrMatrix<S, std::int32_t, Off> awkward_matrix(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const int rows = 37, cols = 53;
  std::vector<std::int32_t> r, c;
  std::vector<double> v;
  const double specials[] = {0.1,
                             1.0 / 3,
                             -0.0,
                             1e-300,
                             4.9e-324,
                             1.7976931348623157e308,
                             -2.5e-38,
                             3.4e38,
                             1.401298464324817e-45,
                             123456789.123456789};
  for (int k = 0; k < 400; ++k) {
    r.push_back(static_cast<std::int32_t>(rng() % rows));
    c.push_back(static_cast<std::int32_t>(rng() % cols));
    double x = k < 10 ? specials[k] : std::ldexp(static_cast<double>(rng() >> 11), -53) * 2000 - 1000;
    x = std::min(x, static_cast<double>(std::numeric_limits<S>::max()));  // double's largest is float's largest
    v.push_back(static_cast<double>(static_cast<S>(x)));
  }
  return spk::io::coo_to_csr<S, std::int32_t, Off>(rows, cols, r, c, v);
}

template <class S, class Off>
void expect_identical(const spk::HostCsrMatrix<S, std::int32_t, Off>& A,
                      const spk::HostCsrMatrix<S, std::int32_t, Off>& B) {
  ASSERT_EQ(A.num_rows(), B.num_rows());
  ASSERT_EQ(A.num_cols(), B.num_cols());
  ASSERT_EQ(A.nnz(), B.nnz());
  EXPECT_EQ(0, std::memcmp(A.row_map().data(), B.row_map().data(), sizeof(Off) * (A.num_rows() + 1)));
  EXPECT_EQ(0, std::memcmp(A.entries().data(), B.entries().data(), sizeof(std::int32_t) * A.nnz()));
  EXPECT_EQ(0, std::memcmp(A.values().data(), B.values().data(), sizeof(S) * A.nnz())) << "values differ in their bits";
}

TYPED_TEST(MatrixMarketRoundTrip, StringAndFilesAreBitExact) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  const std::uint64_t seed = spk_test::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const auto A = awkward_matrix<S, Off>(seed);
  A.validate();

  const std::string text = spk::io::write_matrix_market_string(A);
  EXPECT_EQ(text.rfind("%%MatrixMarket matrix coordinate real general\n37 53 ", 0), 0u);
  expect_identical(A, read_matrix_market_string<S, std::int32_t, Off>(text));

  for (const char* suffix : {".mtx", ".mtx.gz"}) {
    SCOPED_TRACE(suffix);
    const TempFile file(suffix);
    spk::io::write_matrix_market(file.str(), A);
    const std::string bytes = read_bytes(file.str());
    const bool gzipped = bytes.size() > 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
                         static_cast<unsigned char>(bytes[1]) == 0x8b;
    EXPECT_EQ(gzipped, std::string(suffix) == ".mtx.gz");
    expect_identical(A, spk::io::read_matrix_market<S, std::int32_t, Off>(file.str()));
    const auto header = spk::io::read_matrix_market_header(file.str());
    EXPECT_EQ(header.rows, 37);
    EXPECT_EQ(header.cols, 53);
    EXPECT_EQ(header.entries, static_cast<std::int64_t>(A.nnz()));
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Files: open/read failures, truncated and corrupt gzip, and fuzzing.

TEST(MatrixMarket, MissingAndUnreadableFiles) {
  const std::string missing = (fs::temp_directory_path() / "spk_no_such_file.mtx").string();
  expect_file_error(missing, 0, missing + ": cannot open: No such file");
  expect_format_error_from([&] { spk::io::read_matrix_market_header(missing); }, 0, "cannot open");
  expect_file_error(fs::temp_directory_path().string(), 0, "cannot read");
  if (fs::exists("/dev/zero")) expect_file_error("/dev/zero", 1, "line longer than 64 MiB");  // no newline, ever
  const auto A = read_matrix_market_string<double>(std::string(banner) + "1 1 1\n1 1 1\n");
  expect_format_error_from([&] { spk::io::write_matrix_market(missing + "/not/a/dir.mtx", A); }, 0,
                           "cannot open for writing");
}

// What the reader refuses the writers refuse to write, naming the entry, and leave no file behind.
TEST(MatrixMarket, WritersRefuseValuesThatAreNotFinite) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const struct {
    double value;
    const char* name;
  } cases[] = {{nan, "is nan"}, {inf, "is inf"}, {-inf, "is -inf"}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const auto A = spk::io::coo_to_csr<double>(3, 4, {0, 2, 2}, {1, 0, 3}, {1, c.value, 2});
    const auto expect_refused = [&](const auto& write) {
      try {
        write();
        ADD_FAILURE() << "a matrix holding " << c.name << " was written";
      } catch (const spk::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(std::string("entry (3, 1) (1-based) ") + c.name), std::string::npos)
            << e.what();
      }
    };
    expect_refused([&] { spk::io::write_matrix_market_string(A); });
    for (const char* suffix : {".mtx", ".mtx.gz"}) {
      const TempFile file(suffix);
      expect_refused([&] { spk::io::write_matrix_market(file.str(), A); });
      EXPECT_FALSE(fs::exists(file.str())) << suffix;
    }
  }
  const auto finite = spk::io::coo_to_csr<float>(1, 1, {0}, {0}, {std::numeric_limits<float>::max()});
  expect_identical(finite, read_matrix_market_string<float>(spk::io::write_matrix_market_string(finite)));
}

TEST(MatrixMarket, TruncatedAndCorruptGzip) {
  std::vector<std::int32_t> r, c;
  std::vector<double> v;
  for (int k = 0; k < 5000; ++k) {
    r.push_back(k % 100);
    c.push_back((k * 7) % 100);
    v.push_back(k * 0.001);
  }
  const auto A = spk::io::coo_to_csr<double>(100, 100, r, c, v);
  const TempFile file(".mtx.gz");
  spk::io::write_matrix_market(file.str(), A);
  const std::string bytes = read_bytes(file.str());
  ASSERT_GT(bytes.size(), 100u);
  for (const std::size_t keep : {bytes.size() - 4, bytes.size() / 2, std::size_t{12}, std::size_t{3}}) {
    SCOPED_TRACE("kept " + std::to_string(keep) + " of " + std::to_string(bytes.size()) + " bytes");
    write_bytes(file.str(), bytes.substr(0, keep));
    EXPECT_THROW(spk::io::read_matrix_market<double>(file.str()), spk::format_error);
  }
  write_bytes(file.str(), bytes.substr(0, bytes.size() / 2));
  expect_file_error(file.str(), 0, "truncated or corrupt");
  std::string corrupt = bytes;
  for (std::size_t i = bytes.size() / 3; i < bytes.size() / 3 + 16; ++i) corrupt[i] = static_cast<char>(~corrupt[i]);
  write_bytes(file.str(), corrupt);
  EXPECT_THROW(spk::io::read_matrix_market<double>(file.str()), spk::format_error);
}

// Reading must either succeed or throw spk::format_error: never crash, hang or throw anything else.
void expect_parses_or_format_error(const std::string& text) {
  try {
    const auto A = read_matrix_market_string<double>(text, "<fuzz>");
    A.validate();
  } catch (const spk::format_error&) {
  } catch (const std::exception& e) {
    ADD_FAILURE() << "unexpected " << typeid(e).name() << ": " << e.what() << "\ninput:\n" << text;
  }
}

TEST(MatrixMarket, FuzzedInputsParseOrThrowFormatError) {
  const std::uint64_t seed = spk_test::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const std::string valid =
      "%%MatrixMarket matrix coordinate real symmetric\n% comment\n5 5 6\n1 1 1.5\n2 1 -2\n3 3 3e2\n4 2 0.25\n"
      "5 4 7\n5 5 -1\n";
  const std::string alphabet = "0123456789 \n\t.-+eE%x\r";
  int parsed = 0;
  for (int i = 0; i < 300; ++i) {
    std::string text = valid;
    const int mutations = 1 + static_cast<int>(rng() % 3);
    for (int m = 0; m < mutations && !text.empty(); ++m) {
      const std::size_t at = rng() % text.size();
      const char byte = rng() % 2 ? alphabet[rng() % alphabet.size()] : static_cast<char>(rng() % 256);
      switch (rng() % 4) {
        case 0:
          text[at] = byte;
          break;
        case 1:
          text.insert(at, 1, byte);
          break;
        case 2:
          text.erase(at, 1 + rng() % 4);
          break;
        default:
          text.resize(at);
          break;
      }
    }
    try {
      read_matrix_market_string<double>(text);
      ++parsed;
    } catch (...) {
    }
    expect_parses_or_format_error(text);
  }
  EXPECT_GT(parsed, 0) << "no mutation left a readable file: the fuzzing is not exercising the parser";
  for (int i = 0; i < 100; ++i) {
    std::string garbage(rng() % 300, '\0');
    for (char& ch : garbage) ch = static_cast<char>(rng() % 256);
    expect_parses_or_format_error(garbage);
    expect_parses_or_format_error("%%MatrixMarket matrix coordinate real general\n" + garbage);
    expect_parses_or_format_error("%%MatrixMarket matrix coordinate pattern general\n4 4 3\n" + garbage);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Real matrices ($SPK_MATRIX_DIR/small and bench)

// An independent, simple reading of a Matrix Market file's entries (sscanf per line) to check the parser against.
std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

struct PlainEntries {
  std::string field, symmetry;
  std::int64_t rows = 0, cols = 0, declared = 0, diagonal = 0;
  std::vector<std::int64_t> row, col;
  std::vector<double> val;
};

PlainEntries read_plainly(const std::string& path, bool keep_entries) {
  PlainEntries out;
  gzFile file = gzopen(path.c_str(), "rb");
  if (!file) throw std::runtime_error("cannot open " + path);
  std::vector<char> line(1 << 16);
  bool banner_seen = false, size_seen = false;
  while (gzgets(file, line.data(), static_cast<int>(line.size()))) {
    const char* s = line.data();
    if (!banner_seen) {
      char object[64] = "", format[64] = "", field[64] = "", symmetry[64] = "";
      std::sscanf(s, "%%%%MatrixMarket %63s %63s %63s %63s", object, format, field, symmetry);
      out.field = lower(field);
      out.symmetry = lower(symmetry);
      banner_seen = true;
      continue;
    }
    if (s[0] == '%' || s[std::strspn(s, " \t\r\n")] == '\0') continue;
    if (!size_seen) {
      long long rows = 0, cols = 0, declared = 0;
      std::sscanf(s, "%lld %lld %lld", &rows, &cols, &declared);
      out.rows = rows;
      out.cols = cols;
      out.declared = declared;
      size_seen = true;
      if (!keep_entries && out.symmetry == "general") break;  // only symmetric files need the diagonal count
      continue;
    }
    long long i = 0, j = 0;
    double v = 1;
    std::sscanf(s, "%lld %lld %lf", &i, &j, &v);
    out.diagonal += i == j;
    if (!keep_entries) continue;
    out.row.push_back(i - 1);
    out.col.push_back(j - 1);
    out.val.push_back(out.field == "pattern" ? 1.0 : v);
  }
  gzclose(file);
  return out;
}

template <class S, class Off>
double entry(const spk::HostCsrMatrix<S, std::int32_t, Off>& A, std::int64_t i, std::int64_t j) {
  const std::int32_t* begin = A.entries().data() + A.row_map()(i);
  const std::int32_t* end = A.entries().data() + A.row_map()(i + 1);
  const std::int32_t* at = std::lower_bound(begin, end, static_cast<std::int32_t>(j));
  return at != end && *at == j ? static_cast<double>(A.values()(at - A.entries().data()))
                               : std::numeric_limits<double>::quiet_NaN();
}

// Reads every .mtx / .mtx.gz file of $SPK_MATRIX_DIR/sub: complex ones must be rejected clearly; the others must
// load, validate and have the expected shape and nonzero count (with check_values, also match an independent
// reading entry by entry). Returns the number of files seen.
int check_matrix_files(const std::string& sub, bool check_values) {
  const fs::path dir = fs::path(spk_test::matrix_dir()) / sub;
  EXPECT_TRUE(fs::is_directory(dir)) << dir << " is not a directory";
  if (!fs::is_directory(dir)) return 0;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".mtx" || e.path().extension() == ".gz") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& path : files) {
    SCOPED_TRACE(path.string());
    const PlainEntries plain = read_plainly(path.string(), check_values);
    if (plain.field == "complex") {
      expect_file_error(path.string(), 1, "complex matrices are not supported");
      continue;
    }
    const auto header = spk::io::read_matrix_market_header(path.string());
    EXPECT_EQ(header.rows, plain.rows);
    EXPECT_EQ(header.cols, plain.cols);
    EXPECT_EQ(header.entries, plain.declared);

    const auto start = std::chrono::steady_clock::now();
    const auto A = spk::io::read_matrix_market<double, std::int32_t, std::int64_t>(path.string());
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("  %-32s %6d x %-6d %8lld nonzeros, read in %.3f s\n", path.filename().string().c_str(), A.num_rows(),
                A.num_cols(), static_cast<long long>(A.nnz()), seconds);
    A.validate();
    EXPECT_EQ(A.num_rows(), plain.rows);
    EXPECT_EQ(A.num_cols(), plain.cols);
    // These files hold no duplicate entries, so the nonzero count is the declared count, mirrored if symmetric.
    const bool mirrored = header.symmetry != "general";
    EXPECT_EQ(static_cast<std::int64_t>(A.nnz()), mirrored ? 2 * plain.declared - plain.diagonal : plain.declared);
    if (!check_values) continue;
    EXPECT_EQ(plain.declared, static_cast<std::int64_t>(plain.row.size()));
    for (std::size_t k = 0; k < plain.row.size(); ++k) {
      const double v = plain.val[k], mirror = header.symmetry == "symmetric" ? v : -v;
      const std::int64_t i = plain.row[k], j = plain.col[k];
      if (entry(A, i, j) != v || (mirrored && entry(A, j, i) != mirror)) {
        ADD_FAILURE() << "entry " << k << " (" << i + 1 << ", " << j + 1 << ") = " << v << " reads as "
                      << entry(A, i, j) << (mirrored ? ", mirrored as " : "")
                      << (mirrored ? std::to_string(entry(A, j, i)) : "");
        break;
      }
    }
  }
  return static_cast<int>(files.size());
}

TEST(MatrixMarket, SmallRealMatrices) {
  if (spk_test::matrix_dir().empty()) GTEST_SKIP() << "SPK_MATRIX_DIR is unset";
  const fs::path young = fs::path(spk_test::matrix_dir()) / "small" / "young1c.mtx";
  ASSERT_TRUE(fs::exists(young)) << young;
  expect_file_error(young.string(), 1, "complex matrices are not supported: found field 'complex'");
  EXPECT_GE(check_matrix_files("small", true), 13);
}

TEST(MatrixMarket, BenchRealMatrices) {
  if (spk_test::matrix_dir().empty()) GTEST_SKIP() << "SPK_MATRIX_DIR is unset";
  EXPECT_GE(check_matrix_files("bench", false), 2);
}

}  // namespace
