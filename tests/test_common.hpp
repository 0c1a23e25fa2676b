#pragma once
// Shared test helpers: the back-end under test, typed-test parameters, fresh seeds, NaN poisoning, norms.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>

#include <Kokkos_Core.hpp>

#ifndef SPK_TEST_EXEC_SPACE
#define SPK_TEST_EXEC_SPACE Kokkos::DefaultExecutionSpace
#endif

namespace spk_test {

using TestExec = SPK_TEST_EXEC_SPACE;
using TestDevice = Kokkos::Device<TestExec, TestExec::memory_space>;

template <class S, class Off>
struct Types {
  using scalar = S;
  using offset = Off;
};
using ScalarOffsetTypes = ::testing::Types<Types<float, std::int32_t>, Types<float, std::int64_t>,
                                           Types<double, std::int32_t>, Types<double, std::int64_t>>;

// A fresh seed per call (std::random_device), overridable with SPK_TEST_SEED to replay a failure.
inline std::uint64_t fresh_seed() {
  if (const char* s = std::getenv("SPK_TEST_SEED")) return std::strtoull(s, nullptr, 10);
  std::random_device rd;
  return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
}

// Tolerance on ||out - ref|| / ||ref|| that fits the precision (accumulation in the scalar type).
template <class S>
constexpr double tolerance() {
  return std::is_same_v<S, float> ? 2e-5 : 1e-12;
}

// The tolerance for a matrix whose longest row has `longest` nonzeros: float rounding in a row's sum grows like the
// square root of its length (a row of 9000 random products misses the double-accumulated oracle by 3e-5).
template <class S>
double tolerance(std::int64_t longest) {
  const double growth = std::sqrt(static_cast<double>(longest > 1 ? longest : 1)) / 16;
  return tolerance<S>() * (growth > 1 ? growth : 1);
}

template <class Matrix>
std::int64_t longest_row(const Matrix& hA) {
  std::int64_t longest = 0;
  for (std::int64_t r = 0; r < hA.num_rows(); ++r)
    longest = std::max<std::int64_t>(longest, hA.row_map()(r + 1) - hA.row_map()(r));
  return longest;
}

// A new host View holding v's values. create_mirror_view_and_copy returns v itself when v is already in host
// memory, so two results taken that way from one View on a host back-end would be the same array.
template <class View>
Kokkos::View<typename View::non_const_value_type*, Kokkos::HostSpace> host_copy(const View& v) {
  static_assert(static_cast<int>(View::rank) == 1, "host_copy: rank-1 Views only");
  Kokkos::View<typename View::non_const_value_type*, Kokkos::HostSpace> out("host_copy", v.extent(0));
  Kokkos::deep_copy(out, v);
  return out;
}

template <class View>
void poison(const View& v) {
  Kokkos::deep_copy(v, std::numeric_limits<typename View::non_const_value_type>::quiet_NaN());
}

// ||out - ref|| / ||scale|| over any host-accessible rank-1 or rank-2 Views of one shape; NaN anywhere in out gives
// +inf.
template <class Out, class Ref, class Scale>
double relative_error(const Out& out, const Ref& ref, const Scale& scale) {
  double diff = 0, norm = 0;
  const std::size_t cols = static_cast<int>(Out::rank) == 2 ? out.extent(1) : 1;
  for (std::size_t i = 0; i < out.extent(0); ++i)
    for (std::size_t j = 0; j < cols; ++j) {
      double o, r, s;
      if constexpr (static_cast<int>(Out::rank) == 2) {
        o = static_cast<double>(out(i, j));
        r = static_cast<double>(ref(i, j));
        s = static_cast<double>(scale(i, j));
      } else {
        o = static_cast<double>(out(i));
        r = static_cast<double>(ref(i));
        s = static_cast<double>(scale(i));
      }
      if (std::isnan(o)) return std::numeric_limits<double>::infinity();
      diff += (o - r) * (o - r);
      norm += s * s;
    }
  return norm == 0 ? std::sqrt(diff) : std::sqrt(diff / norm);
}

// Relative norm error: ||out - ref|| / ||ref||.
template <class Out, class Ref>
double relative_error(const Out& out, const Ref& ref) {
  return relative_error(out, ref, ref);
}

// The real-matrix directory, or "" (tests then GTEST_SKIP with a message). A relative SPK_MATRIX_DIR is taken
// from the source root, since ctest runs each test inside the build tree.
inline std::string matrix_dir() {
  const char* d = std::getenv("SPK_MATRIX_DIR");
  if (!d || !*d) return std::string();
  const std::string dir(d);
  return dir.front() == '/' ? dir : std::string(SPK_SOURCE_DIR) + "/" + dir;
}

}  // namespace spk_test
