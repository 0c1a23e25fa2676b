#pragma once
// What the SpMM tests share: one checked call's random B, starting C and oracle result.
#include <cstdint>
#include <utility>

#include <spk/reference/reference.hpp>

#include "test_common.hpp"
#include "test_matrices.hpp"

namespace spk_test {

// One checked call's inputs: a random B on the device, C's starting values on the host (NaN when beta == 0, so a
// kernel that reads C then shows), and the oracle's alpha * A * B + beta * C in double.
template <class Layout, class S>
struct SpmmCase {
  Kokkos::View<S**, Layout, TestDevice> B;
  decltype(Kokkos::create_mirror_view(std::declval<Kokkos::View<S**, Layout, TestDevice>>())) start;
  Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> ref;
};

template <class Layout, class S, class Off>
SpmmCase<Layout, S> make_spmm_case(const spk::HostCsrMatrix<S, std::int32_t, Off>& hA, int k, S alpha, S beta,
                                   std::uint64_t seed) {
  SpmmCase<Layout, S> c;
  c.B = Kokkos::View<S**, Layout, TestDevice>("B", hA.num_cols(), k);
  auto hB = Kokkos::create_mirror_view(c.B);
  fill_random(hB, seed + 1);
  Kokkos::deep_copy(c.B, hB);
  c.start = Kokkos::create_mirror_view(Kokkos::View<S**, Layout, TestDevice>("C", hA.num_rows(), k));
  if (beta == S(0))
    poison(c.start);
  else
    fill_random(c.start, seed + 2);
  c.ref = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>("ref", hA.num_rows(), k);
  for (std::size_t i = 0; i < c.ref.extent(0); ++i)
    for (int j = 0; j < k; ++j) c.ref(i, j) = beta == S(0) ? 0.0 : static_cast<double>(c.start(i, j));
  spk::reference::spmm(static_cast<double>(alpha), hA, hB, static_cast<double>(beta), c.ref);
  return c;
}

}  // namespace spk_test
