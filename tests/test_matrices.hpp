#pragma once
// Random CSR matrices of the edge shapes every kernel must survive, built directly on the host.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <spk/csr_matrix.hpp>

namespace spk_test {

struct Shape {
  std::string name;
  std::int64_t rows, cols;
  std::function<std::int64_t(std::int64_t row, std::mt19937_64&)> length;  // wanted nonzeros in a row
};

inline std::vector<Shape> edge_shapes() {
  using R = std::mt19937_64;
  auto uniform = [](std::int64_t lo, std::int64_t hi) {
    return [=](std::int64_t, R& g) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(g); };
  };
  return {
      {"random", 700, 650, uniform(0, 14)},
      {"zero_rows", 0, 17, uniform(0, 3)},
      {"zero_cols", 23, 0, uniform(0, 3)},
      {"all_empty", 40, 40, uniform(0, 0)},
      {"empty_rows", 500, 500, [](std::int64_t r, R& g) { return r % 3 ? 0 : std::int64_t(g() % 9); }},
      {"one_dense_row", 300, 2500, [](std::int64_t r, R& g) { return r == 7 ? 2500 : std::int64_t(g() % 4); }},
      {"most_in_one_row", 200, 9000, [](std::int64_t r, R&) { return r == 150 ? 9000 : (r % 2); }},
      {"long_rows", 60, 5000, uniform(200, 3000)},
      {"wide", 20, 4000, uniform(0, 300)},
      {"tall", 3000, 15, uniform(0, 6)},
      {"single_entry", 1, 1, uniform(1, 1)},
  };
}

// Distinct sorted columns per row, values uniform in [-1, 1).
template <class S, class Off>
spk::HostCsrMatrix<S, std::int32_t, Off> random_csr(const Shape& shape, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<Off> row_map(static_cast<std::size_t>(shape.rows) + 1, 0);
  std::vector<std::int32_t> cols;
  std::vector<std::int32_t> pool(static_cast<std::size_t>(shape.cols));
  for (std::size_t c = 0; c < pool.size(); ++c) pool[c] = static_cast<std::int32_t>(c);
  for (std::int64_t r = 0; r < shape.rows; ++r) {
    const std::int64_t len = std::min<std::int64_t>(shape.length(r, g), shape.cols);
    for (std::int64_t i = 0; i < len; ++i) std::swap(pool[i], pool[i + g() % (pool.size() - i)]);  // partial shuffle
    const auto begin = cols.size();
    cols.insert(cols.end(), pool.begin(), pool.begin() + len);
    std::sort(cols.begin() + begin, cols.end());
    row_map[r + 1] = static_cast<Off>(cols.size());
  }
  using M = spk::HostCsrMatrix<S, std::int32_t, Off>;
  typename M::row_map_type rm("row_map", row_map.size());
  typename M::entries_type ent("entries", cols.size());
  typename M::values_type val("values", cols.size());
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (std::size_t i = 0; i < row_map.size(); ++i) rm(i) = row_map[i];
  for (std::size_t i = 0; i < cols.size(); ++i) ent(i) = cols[i], val(i) = static_cast<S>(u(g));
  return M(static_cast<std::int32_t>(shape.rows), static_cast<std::int32_t>(shape.cols), rm, ent, val);
}

// Fills a host View (rank 1 or 2) with values uniform in [-1, 1).
template <class View>
void fill_random(const View& v, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  using T = typename View::non_const_value_type;
  if constexpr (static_cast<int>(View::rank) == 1) {
    for (std::size_t i = 0; i < v.extent(0); ++i) v(i) = static_cast<T>(u(g));
  } else {
    for (std::size_t i = 0; i < v.extent(0); ++i)
      for (std::size_t j = 0; j < v.extent(1); ++j) v(i, j) = static_cast<T>(u(g));
  }
}

}  // namespace spk_test
