#pragma once
// Deterministic synthetic matrices for tests and benchmarks (the suite in design/PERFORMANCE.md). Every generator
// returns sorted, duplicate-free rows with values uniform in +-[0.1, 1); a seed gives the same matrix everywhere.
// Row r's columns and values come from its own random stream, so rows do not depend on each other.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "../csr_matrix.hpp"
#include "../error.hpp"
#include "coo.hpp"
#include "random.hpp"

namespace spk::gen {

namespace detail {

using spk::detail::concat;
using Index = std::int32_t;

inline void check_index_range(const char* name, const char* what, std::int64_t value) {
  if (value < 0 || value > std::numeric_limits<Index>::max())
    throw invalid_argument(concat(name, ": ", what, " is ", value, ", expected 0 <= ", what,
                                  " <= ", std::numeric_limits<Index>::max(), " (32-bit indices)"));
}

// Writes k distinct integers of [lo, lo + n) to out in increasing order (Floyd's sampling, uniform over subsets).
// The chosen set depends only on the random draws, not on which membership test below is used.
class DistinctSampler {
 public:
  void sample(Rng& rng, std::int64_t k, std::int64_t lo, std::int64_t n, Index* out) {
    if (k == n) {
      std::iota(out, out + k, static_cast<Index>(lo));
      return;
    }
    if (k <= 16) {  // a linear scan of the few values chosen so far beats a bitmap
      for (std::int64_t j = n - k, m = 0; j < n; ++j, ++m) {
        const auto t = static_cast<Index>(lo + static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(j + 1))));
        out[m] = std::find(out, out + m, t) == out + m ? t : static_cast<Index>(lo + j);
      }
      std::sort(out, out + k);
      return;
    }
    const auto words = static_cast<std::size_t>((n + 63) / 64);
    if (bits_.size() < words) bits_.resize(words, 0);
    for (std::int64_t j = n - k, m = 0; j < n; ++j, ++m) {
      auto t = static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(j + 1)));
      if (test(t)) t = j;
      bits_[static_cast<std::size_t>(t >> 6)] |= std::uint64_t{1} << (t & 63);
      out[m] = static_cast<Index>(lo + t);
    }
    if (k * 16 >= n) {  // dense: reading the bitmap back in order is cheaper than sorting
      std::int64_t m = 0;
      for (std::size_t w = 0; w < words; ++w) {
        for (std::uint64_t word = bits_[w], b = 0; word; word >>= 1, ++b)
          if (word & 1) out[m++] = static_cast<Index>(lo + static_cast<std::int64_t>(w * 64 + b));
        bits_[w] = 0;
      }
    } else {
      std::sort(out, out + k);
      for (std::int64_t m = 0; m < k; ++m) bits_[static_cast<std::size_t>((out[m] - lo) >> 6)] = 0;
    }
  }

 private:
  bool test(std::int64_t t) const { return (bits_[static_cast<std::size_t>(t >> 6)] >> (t & 63)) & 1; }
  std::vector<std::uint64_t> bits_;  // all zero between calls
};

// A seeded pseudo-random bijection of [0, 2^bits): odd multiplications and xorshifts, like Graph500's scramble.
// It spreads R-MAT's high-degree vertices over the id range without the cache misses of a permutation table.
class VertexScramble {
 public:
  VertexScramble(int bits, std::uint64_t seed)
      : mask_((std::uint64_t{1} << bits) - 1), shift_(std::max(1, (bits + 1) / 2)) {
    Rng rng(seed, ~std::uint64_t{1});
    for (auto& m : mul_) m = rng.next() | 1;
    add_ = rng.next();
  }
  std::uint64_t operator()(std::uint64_t x) const {
    x = (x + add_) & mask_;
    for (const std::uint64_t m : mul_) {
      x = (x * m) & mask_;
      x ^= x >> shift_;
    }
    return x;
  }

 private:
  std::uint64_t mask_;
  int shift_;
  std::uint64_t mul_[3];
  std::uint64_t add_;
};

// Builds a matrix row by row once its nonzero count is known: length(r) is row r's count (summing to nnz) and
// fill(r, rng, out) writes its sorted columns; the row's values are then drawn from the same stream.
template <class Scalar, class Offset, class Length, class Fill>
HostCsrMatrix<Scalar, Index, Offset> build_rows(const char* name, std::int64_t rows, std::int64_t cols,
                                                std::int64_t nnz, std::uint64_t seed, Length length, Fill fill) {
  io::detail::check_nnz_fits<Offset>(nnz, name);
  io::detail::HostCsrArrays<Scalar, Index, Offset> csr(rows, nnz);
  Offset* row_map = csr.row_map.data();
  row_map[0] = 0;
  for (std::int64_t r = 0; r < rows; ++r) row_map[r + 1] = row_map[r] + static_cast<Offset>(length(r));
  Index* entries = csr.entries.data();
  Scalar* values = csr.values.data();
  for (std::int64_t r = 0; r < rows; ++r) {
    Rng rng(seed, static_cast<std::uint64_t>(r));
    fill(r, rng, entries + row_map[r]);
    for (Offset k = row_map[r]; k < row_map[r + 1]; ++k) values[k] = rng.template value<Scalar>();
  }
  return csr.finish(rows, cols);
}

}  // namespace detail

// 5-point stencil on an n x n grid: n*n rows, 5n^2 - 4n nonzeros.
template <class Scalar, class Offset = std::int32_t>
HostCsrMatrix<Scalar, std::int32_t, Offset> laplace2d(std::int64_t n, std::uint64_t seed) {
  constexpr const char* name = "spk::gen::laplace2d";
  if (n < 0 || n > 46340)
    throw invalid_argument(detail::concat(name, ": n is ", n, ", expected 0 <= n <= 46340 (n^2 rows, 32-bit indices)"));
  const std::int64_t rows = n * n, nnz = n == 0 ? 0 : 5 * n * n - 4 * n;
  const auto length = [n](std::int64_t r) {
    const std::int64_t i = r / n, j = r % n;
    return 1 + (i > 0) + (i < n - 1) + (j > 0) + (j < n - 1);
  };
  const auto fill = [n](std::int64_t r, Rng&, detail::Index* out) {
    const std::int64_t i = r / n, j = r % n;
    if (i > 0) *out++ = static_cast<detail::Index>(r - n);
    if (j > 0) *out++ = static_cast<detail::Index>(r - 1);
    *out++ = static_cast<detail::Index>(r);
    if (j < n - 1) *out++ = static_cast<detail::Index>(r + 1);
    if (i < n - 1) *out++ = static_cast<detail::Index>(r + n);
  };
  return detail::build_rows<Scalar, Offset>(name, rows, rows, nnz, seed, length, fill);
}

// 7- or 27-point stencil on an n x n x n grid: n^3 rows, 7n^3 - 6n^2 or (3n - 2)^3 nonzeros.
template <class Scalar, class Offset = std::int32_t>
HostCsrMatrix<Scalar, std::int32_t, Offset> stencil3d(std::int64_t n, int points, std::uint64_t seed) {
  constexpr const char* name = "spk::gen::stencil3d";
  if (points != 7 && points != 27)
    throw invalid_argument(detail::concat(name, ": points is ", points, ", expected 7 or 27"));
  if (n < 0 || n > 1290)
    throw invalid_argument(detail::concat(name, ": n is ", n, ", expected 0 <= n <= 1290 (n^3 rows, 32-bit indices)"));
  const std::int64_t rows = n * n * n, plane = n * n;
  const std::int64_t nnz = n == 0 ? 0 : points == 7 ? 7 * rows - 6 * plane : (3 * n - 2) * (3 * n - 2) * (3 * n - 2);
  // Neighbours per axis (1 to 3) for a coordinate.
  const auto span = [n](std::int64_t x) { return 1 + (x > 0) + (x < n - 1); };
  const auto length = [=](std::int64_t r) -> std::int64_t {
    const std::int64_t sx = span(r % n), sy = span(r / n % n), sz = span(r / plane);
    return points == 7 ? sx + sy + sz - 2 : sx * sy * sz;
  };
  const auto fill = [=](std::int64_t r, Rng&, detail::Index* out) {
    const std::int64_t x = r % n, y = r / n % n, z = r / plane;
    const auto inside = [n](std::int64_t v, int d) { return (d >= 0 || v > 0) && (d <= 0 || v < n - 1); };
    for (int dz = -1; dz <= 1; ++dz)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          if (points == 7 && (dx != 0) + (dy != 0) + (dz != 0) > 1) continue;
          if (inside(x, dx) && inside(y, dy) && inside(z, dz))
            *out++ = static_cast<detail::Index>(r + dz * plane + dy * n + dx);
        }
  };
  return detail::build_rows<Scalar, Offset>(name, rows, rows, nnz, seed, length, fill);
}

// Graph500 R-MAT: 2^scale vertices, edge_factor * 2^scale edges drawn with quadrant probabilities a, b, c and
// 1 - a - b - c, vertex ids pseudo-randomly permuted, duplicate edges merged (so nnz <= edges).
template <class Scalar, class Offset = std::int32_t>
HostCsrMatrix<Scalar, std::int32_t, Offset> rmat(int scale, std::int64_t edge_factor, std::uint64_t seed,
                                                 double a = 0.57, double b = 0.19, double c = 0.19) {
  constexpr const char* name = "spk::gen::rmat";
  if (scale < 0 || scale > 30)
    throw invalid_argument(detail::concat(name, ": scale is ", scale, ", expected 0 <= scale <= 30 (32-bit indices)"));
  if (edge_factor < 0)
    throw invalid_argument(detail::concat(name, ": edge_factor is ", edge_factor, ", expected >= 0"));
  if (!(a >= 0 && b >= 0 && c >= 0 && a + b + c <= 1))
    throw invalid_argument(detail::concat(name, ": probabilities a = ", a, ", b = ", b, ", c = ", c,
                                          " must be non-negative with a + b + c <= 1"));
  const std::int64_t vertices = std::int64_t{1} << scale;
  if (edge_factor > std::numeric_limits<std::int64_t>::max() / vertices)
    throw invalid_argument(detail::concat(name, ": edge_factor ", edge_factor, " is too large"));
  const std::int64_t edges = edge_factor * vertices;
  // Checked on the edge count, before merging, so whether a spec fits does not depend on the seed.
  io::detail::check_nnz_fits<Offset>(edges, name);

  const detail::VertexScramble scramble(scale, seed);

  constexpr double two32 = 4294967296.0;
  const auto t_a = static_cast<std::uint64_t>(a * two32), t_ab = static_cast<std::uint64_t>((a + b) * two32),
             t_abc = static_cast<std::uint64_t>((a + b + c) * two32);
  std::vector<std::uint64_t> keys(static_cast<std::size_t>(edges));
  Rng edge_rng(seed, ~std::uint64_t{0});
  for (std::uint64_t& key : keys) {
    std::uint64_t r = 0, cl = 0, bits = 0;
    for (int level = 0; level < scale; ++level) {
      bits = level % 2 == 0 ? edge_rng.next() : bits << 32;
      const std::uint64_t u = bits >> 32, down = u >= t_ab;
      r = r << 1 | down;
      cl = cl << 1 | ((u >= t_a) ^ down ^ (u >= t_abc));  // quadrants b and d are on the right
    }
    key = scramble(r) << scale | scramble(cl);
  }
  const auto key_of = [](std::uint64_t key) { return key; };
  io::detail::radix_sort(keys, 2 * scale, key_of);
  // Duplicate edges merge into one entry; values are then drawn from each row's own stream, as elsewhere.
  auto A = io::detail::sorted_to_csr<Scalar, detail::Index, Offset>(
      vertices, vertices, scale, keys, key_of, [](const std::uint64_t*, const std::uint64_t*) { return 0.0; }, name);
  io::detail::release(keys);
  const Offset* row_map = A.row_map().data();
  Scalar* values = A.values().data();
  for (std::int64_t r = 0; r < vertices; ++r) {
    Rng rng(seed, static_cast<std::uint64_t>(r));
    for (Offset k = row_map[r]; k < row_map[r + 1]; ++k) values[k] = rng.template value<Scalar>();
  }
  return A;
}

// rows x cols; every row has min(per_row, cols) distinct, uniformly random columns.
template <class Scalar, class Offset = std::int32_t>
HostCsrMatrix<Scalar, std::int32_t, Offset> uniform(std::int64_t rows, std::int64_t per_row, std::uint64_t seed,
                                                    std::int64_t cols) {
  constexpr const char* name = "spk::gen::uniform";
  detail::check_index_range(name, "rows", rows);
  detail::check_index_range(name, "cols", cols);
  if (per_row < 0) throw invalid_argument(detail::concat(name, ": per_row is ", per_row, ", expected >= 0"));
  const std::int64_t k = std::min(per_row, cols);
  detail::DistinctSampler sampler;
  return detail::build_rows<Scalar, Offset>(
      name, rows, cols, rows * k, seed, [k](std::int64_t) { return k; },
      [&](std::int64_t, Rng& rng, detail::Index* out) { sampler.sample(rng, k, 0, cols, out); });
}

template <class Scalar, class Offset = std::int32_t>
HostCsrMatrix<Scalar, std::int32_t, Offset> uniform(std::int64_t rows, std::int64_t per_row, std::uint64_t seed) {
  return uniform<Scalar, Offset>(rows, per_row, seed, rows);
}

// Square; row r has min(per_row, window) distinct random columns in its window [r - half_width, r + half_width]
// clipped to [0, rows).
template <class Scalar, class Offset = std::int32_t>
HostCsrMatrix<Scalar, std::int32_t, Offset> banded(std::int64_t rows, std::int64_t per_row, std::uint64_t seed,
                                                   std::int64_t half_width = 2000) {
  constexpr const char* name = "spk::gen::banded";
  detail::check_index_range(name, "rows", rows);
  detail::check_index_range(name, "half_width", half_width);
  if (per_row < 0) throw invalid_argument(detail::concat(name, ": per_row is ", per_row, ", expected >= 0"));
  const auto window_lo = [=](std::int64_t r) { return std::max<std::int64_t>(0, r - half_width); };
  const auto window = [=](std::int64_t r) { return std::min(rows - 1, r + half_width) - window_lo(r) + 1; };
  const auto length = [=](std::int64_t r) { return std::min(per_row, window(r)); };
  std::int64_t nnz = 0;
  for (std::int64_t r = 0; r < rows; ++r) nnz += length(r);
  detail::DistinctSampler sampler;
  return detail::build_rows<Scalar, Offset>(name, rows, rows, nnz, seed, length,
                                            [&](std::int64_t r, Rng& rng, detail::Index* out) {
                                              sampler.sample(rng, length(r), window_lo(r), window(r), out);
                                            });
}

// Square; every row has min(short_length, rows) random columns except every long_every-th row (rows 0,
// long_every, 2 long_every, ...), which has min(long_length, rows). long_every = 0 means rows / 64 (at least 1).
template <class Scalar, class Offset = std::int32_t>
HostCsrMatrix<Scalar, std::int32_t, Offset> skewed(std::int64_t rows, std::uint64_t seed, std::int64_t short_length = 8,
                                                   std::int64_t long_length = 200000, std::int64_t long_every = 0) {
  constexpr const char* name = "spk::gen::skewed";
  detail::check_index_range(name, "rows", rows);
  if (short_length < 0 || long_length < 0 || long_every < 0)
    throw invalid_argument(detail::concat(name, ": short_length ", short_length, ", long_length ", long_length,
                                          " and long_every ", long_every, " must be non-negative"));
  const std::int64_t every = long_every > 0 ? long_every : std::max<std::int64_t>(1, rows / 64);
  const std::int64_t short_k = std::min(short_length, rows), long_k = std::min(long_length, rows);
  const std::int64_t long_rows = rows == 0 ? 0 : (rows - 1) / every + 1;
  const std::int64_t nnz = long_rows * long_k + (rows - long_rows) * short_k;  // each factor <= 2^31: no overflow
  const auto length = [=](std::int64_t r) { return r % every == 0 ? long_k : short_k; };
  detail::DistinctSampler sampler;
  return detail::build_rows<Scalar, Offset>(
      name, rows, rows, nnz, seed, length,
      [&](std::int64_t r, Rng& rng, detail::Index* out) { sampler.sample(rng, length(r), 0, rows, out); });
}

// Parses a generator spec: lap2d:N, st3d7:N, st3d27:N, rmat:SCALE:EDGE_FACTOR, uniform:ROWS:PER_ROW,
// band:ROWS:PER_ROW or skewed:ROWS.
template <class Scalar, class Offset = std::int32_t>
HostCsrMatrix<Scalar, std::int32_t, Offset> generate(const std::string& spec, std::uint64_t seed) {
  const auto fail = [&spec](const std::string& why) {
    return invalid_argument(
        detail::concat("spk::gen::generate: bad spec '", spec, "' (", why,
                       "); valid forms: lap2d:N, st3d7:N, st3d27:N, rmat:SCALE:EDGE_FACTOR, uniform:ROWS:PER_ROW, "
                       "band:ROWS:PER_ROW, skewed:ROWS"));
  };
  std::vector<std::string> parts;
  for (std::size_t begin = 0;;) {
    const std::size_t colon = spec.find(':', begin);
    parts.push_back(spec.substr(begin, colon == std::string::npos ? std::string::npos : colon - begin));
    if (colon == std::string::npos) break;
    begin = colon + 1;
  }
  const std::string& kind = parts[0];
  std::vector<std::int64_t> args;
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const std::string& p = parts[i];
    if (p.empty() || p.size() > 12 || p.find_first_not_of("0123456789") != std::string::npos)
      throw fail(detail::concat("argument '", p, "' is not a non-negative integer below 10^12"));
    args.push_back(std::stoll(p));
  }
  const auto expect_args = [&](std::size_t count) {
    if (args.size() != count)
      throw fail(
          detail::concat("'", kind, "' takes ", count, " argument", count == 1 ? "" : "s", ", got ", args.size()));
  };
  if (kind == "lap2d") {
    expect_args(1);
    return laplace2d<Scalar, Offset>(args[0], seed);
  }
  if (kind == "st3d7" || kind == "st3d27") {
    expect_args(1);
    return stencil3d<Scalar, Offset>(args[0], kind == "st3d7" ? 7 : 27, seed);
  }
  if (kind == "rmat") {
    expect_args(2);
    if (args[0] > 30) throw fail("R-MAT scale must be at most 30");
    return rmat<Scalar, Offset>(static_cast<int>(args[0]), args[1], seed);
  }
  if (kind == "uniform") {
    expect_args(2);
    return uniform<Scalar, Offset>(args[0], args[1], seed);
  }
  if (kind == "band") {
    expect_args(2);
    return banded<Scalar, Offset>(args[0], args[1], seed);
  }
  if (kind == "skewed") {
    expect_args(1);
    return skewed<Scalar, Offset>(args[0], seed);
  }
  throw fail(detail::concat("unknown generator '", kind, "'"));
}

}  // namespace spk::gen
