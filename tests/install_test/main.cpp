// A consumer of the installed spk package: y = A * x for a 3 x 3 matrix, checked by hand.
#include <spk/spk.hpp>

#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  using Matrix = spk::CsrMatrix<double>;
  // [[2 0 1] [0 3 0] [4 0 5]]
  Matrix::row_map_type row_map("row_map", 4);
  Matrix::entries_type entries("entries", 5);
  Matrix::values_type values("values", 5);
  auto h_row = Kokkos::create_mirror_view(row_map);
  auto h_ent = Kokkos::create_mirror_view(entries);
  auto h_val = Kokkos::create_mirror_view(values);
  const int r[] = {0, 2, 3, 5}, c[] = {0, 2, 1, 0, 2};
  const double v[] = {2, 1, 3, 4, 5};
  for (int i = 0; i < 4; ++i) h_row(i) = r[i];
  for (int i = 0; i < 5; ++i) h_ent(i) = c[i], h_val(i) = v[i];
  Kokkos::deep_copy(row_map, h_row);
  Kokkos::deep_copy(entries, h_ent);
  Kokkos::deep_copy(values, h_val);
  Matrix A(3, 3, row_map, entries, values);
  A.validate();
  Kokkos::View<double*> x("x", 3), y("y", 3);
  Kokkos::deep_copy(x, 1.0);
  spk::spmv(1.0, A, x, 0.0, y);
  auto h_y = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  const bool ok = h_y(0) == 3 && h_y(1) == 3 && h_y(2) == 9;
  std::printf("spk consumer: y = [%g %g %g] %s\n", h_y(0), h_y(1), h_y(2), ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
