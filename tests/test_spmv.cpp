// SpMV against the sequential oracle: every algorithm, every edge shape, BLAS alpha/beta semantics.
#include <spk/impl/host_row_dot.hpp>
#include <spk/spmv.hpp>
#include <spk/reference/reference.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "test_common.hpp"
#include "test_matrices.hpp"
#include "test_spmv_common.hpp"

using namespace spk_test;

template <class T>
class Spmv : public ::testing::Test {};
TYPED_TEST_SUITE(Spmv, ScalarOffsetTypes);

namespace {
std::vector<spk::SpmvAlgorithm> algorithms_and_automatic() {
  auto all = spk::all_algorithms<spk::SpmvAlgorithm>();
  all.push_back(spk::SpmvAlgorithm::automatic);
  return all;
}

// Runs y = alpha A x + beta y on the test back-end and returns the relative error against the oracle.
template <class S, class Off>
double spmv_error(const spk::HostCsrMatrix<S, std::int32_t, Off>& hA, spk::SpmvAlgorithm algo, S alpha, S beta,
                  std::uint64_t seed) {
  const auto A = spk::copy_to<TestDevice>(hA);
  Kokkos::View<S*, TestDevice> x("x", hA.num_cols()), y("y", hA.num_rows());
  auto hx = Kokkos::create_mirror_view(x);
  auto hy = Kokkos::create_mirror_view(y);
  fill_random(hx, seed + 1);
  if (beta == S(0))
    poison(hy);  // beta == 0 must not read y
  else
    fill_random(hy, seed + 2);
  Kokkos::deep_copy(x, hx);
  Kokkos::deep_copy(y, hy);
  const auto ref = oracle_y(hA, alpha, hx, beta, hy);
  spk::SpmvOptions options;
  options.algorithm = algo;
  spk::spmv(alpha, A, x, beta, y, options);
  Kokkos::deep_copy(hy, y);
  return relative_error(hy, ref);
}

// Runs the plan twice, `y` set by reset(y) before each call: the first result within `tol` of the oracle `ref`, the
// second the same bits (no atomics in the sums).
template <class Plan, class Matrix, class XView, class YView, class Reset, class Ref>
void expect_oracle_then_same_bits(const Plan& plan, typename Matrix::scalar_type alpha, const Matrix& A,
                                  const XView& x, typename Matrix::scalar_type beta, const YView& y,
                                  const Reset& reset, const Ref& ref, double tol, const std::string& what) {
  using S = typename Matrix::scalar_type;
  reset(y);
  spk::spmv(plan, alpha, A, x, beta, y);
  const auto first = host_copy(y);
  EXPECT_LE(relative_error(first, ref), tol) << what;
  reset(y);
  spk::spmv(plan, alpha, A, x, beta, y);
  const auto second = host_copy(y);
  for (std::size_t i = 0; i < first.extent(0); ++i)
    ASSERT_EQ(std::memcmp(&first(i), &second(i), sizeof(S)), 0) << what << ", row " << i;
}

// compact_indices on the test back-end: the indices i < n with flags[i], on the device, and as a host vector.
Kokkos::View<std::int64_t*, TestDevice> compact_flags(const std::vector<char>& flags, std::int64_t most = -1) {
  const std::int64_t n = static_cast<std::int64_t>(flags.size());
  Kokkos::View<char*, TestDevice> d_flags("flags", flags.size());
  const auto h_flags = Kokkos::create_mirror_view(d_flags);
  for (std::int64_t i = 0; i < n; ++i) h_flags(i) = flags[i];
  Kokkos::deep_copy(d_flags, h_flags);
  return spk::impl::compact_indices<TestExec, TestDevice>(
      "test::compact", n, KOKKOS_LAMBDA(const std::int64_t i)->bool { return d_flags(i) != 0; }, most);
}
std::vector<std::int64_t> indices_on_host(const Kokkos::View<std::int64_t*, TestDevice>& out) {
  const auto h_out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  return std::vector<std::int64_t>(h_out.data(), h_out.data() + h_out.extent(0));
}
std::vector<std::int64_t> compact_on_device(const std::vector<char>& flags, std::int64_t most = -1) {
  return indices_on_host(compact_flags(flags, most));
}

// A random matrix of `shape` on the test back-end, random x, the oracle's A x, and a y to write.
template <class S, class Off>
struct StagedCase {
  std::uint64_t seed;
  spk::HostCsrMatrix<S, std::int32_t, Off> hA;
  spk::CsrMatrix<S, std::int32_t, Off, TestDevice> A;
  SpmvInputs<S> in;
  Kokkos::View<double*, Kokkos::HostSpace> ref;
  Kokkos::View<S*, TestDevice> y;

  explicit StagedCase(const Shape& shape)
      : seed(fresh_seed()), hA(random_csr<S, Off>(shape, seed)), A(spk::copy_to<TestDevice>(hA)),
        in(random_spmv_inputs(hA, seed)), ref("ref", hA.num_rows()), y("y", hA.num_rows()) {
    spk::reference::spmv(1.0, hA, in.hx, 0.0, ref);
  }

  // Runs stream or flat at stage capacity or chunk `size`, teams of 256 threads of `lanes` lanes (one thread on host
  // back-ends), against the oracle with beta = 0 on a NaN-poisoned y, twice for bitwise equality; returns the plan.
  // `pieces`: stream's pieces of rows longer than the stage (0: a team per such row); `pipelined`, `balanced`,
  // `windowed`: stream's pipelined stage, balanced row sums and pieces by column window.
  auto run_staged(spk::SpmvAlgorithm algo, int size, int lanes, const std::string& what, int pieces = 0,
                  bool pipelined = false, bool balanced = false, bool windowed = false) const {
    spk::LaunchShape launch;
    launch.team_size = spk::is_host_space<TestExec>() ? 1 : 256 / lanes;
    launch.vector_length = spk::is_host_space<TestExec>() ? 1 : lanes;
    (algo == spk::SpmvAlgorithm::stream ? launch.stage_capacity : launch.chunk) = size;
    if (algo == spk::SpmvAlgorithm::stream) launch.chunk = pieces;
    launch.pipelined = pipelined;
    launch.balanced = balanced;
    launch.windowed = windowed;
    spk::SpmvOptions options;
    options.algorithm = algo;
    options.shape = launch;
    const auto plan = spk::make_spmv_plan(A, options);
    const auto poison_y = [](const auto& v) { Kokkos::deep_copy(v, std::numeric_limits<S>::quiet_NaN()); };
    expect_oracle_then_same_bits(plan, S(1), A, in.x, S(0), y, poison_y, ref, tolerance<S>(longest_row(hA)),
                                 what + ", seed " + std::to_string(seed));
    return plan;
  }
};
}  // namespace

TYPED_TEST(Spmv, EveryAlgorithmEveryShapeMatchesOracle) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  for (const auto& shape : edge_shapes()) {
    const std::uint64_t seed = fresh_seed();
    const auto hA = random_csr<S, Off>(shape, seed);
    for (const auto algo : algorithms_and_automatic()) {
      for (const auto& [alpha, beta] : {std::pair<S, S>{1, 0}, {S(-2.5), S(0.75)}, {0, S(1.5)}}) {
        EXPECT_LE(spmv_error(hA, algo, alpha, beta, seed), tolerance<S>(longest_row(hA)))
            << "shape " << shape.name << ", algorithm " << spk::to_string(algo) << ", alpha " << alpha << ", beta "
            << beta << ", seed " << seed;
      }
    }
  }
}

TYPED_TEST(Spmv, SmallPartitionsMatchOracleAndAreDeterministic) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  for (const auto& shape : edge_shapes()) {
    const std::uint64_t seed = fresh_seed();
    const auto hA = random_csr<S, Off>(shape, seed);
    const auto A = spk::copy_to<TestDevice>(hA);
    const auto in = random_spmv_inputs(hA, seed);
    const auto &x = in.x, &y0 = in.y0;
    const auto &hx = in.hx, &hy0 = in.hy0;
    Kokkos::View<S*, TestDevice> y("y", hA.num_rows());
    const S alpha = S(1.25), beta = S(-0.5);
    const auto ref = oracle_y(hA, alpha, hx, beta, hy0);
    for (const auto& [algo, launch] : small_partition_shapes()) {
      spk::SpmvOptions options;
      options.algorithm = algo;
      options.shape = launch;
      const auto plan = spk::make_spmv_plan(A, options);
      const std::string what = std::string("shape ") + shape.name + ", " + std::string(spk::to_string(algo)) +
                               " with " + spk::describe(launch) + ", seed " + std::to_string(seed);
      expect_oracle_then_same_bits(
          plan, alpha, A, x, beta, y, [&](const auto& v) { Kokkos::deep_copy(v, y0); }, ref,
          tolerance<S>(longest_row(hA)), what);
    }
  }
}

// Stream and flat compile a kernel form per kind of rows (StagedRows), stream each with its plain and its pipelined
// stage and its two row sums: every edge shape at capacities and chunks of 64 and 4096 runs all of them (short rows
// only, rows within the stage, longer rows), on a NaN-poisoned y with beta = 0, twice for bitwise equality; the test
// checks that each form was taken every way.
TYPED_TEST(Spmv, StagedKernelFormsMatchOracle) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  using spk::impl::StagedRows;
  const int lanes = spk::max_vector_length<TestExec>();
  std::set<std::tuple<StagedRows, bool, bool>> stream_forms;
  std::set<StagedRows> flat_forms;
  for (const auto& shape : edge_shapes()) {
    const StagedCase<S, Off> c(shape);
    for (const auto algo : {spk::SpmvAlgorithm::stream, spk::SpmvAlgorithm::flat})
      for (const int size : {64, 4096})
        for (const bool pipelined : {false, true})
          for (const bool balanced : {false, true}) {
            if ((pipelined || balanced) && algo != spk::SpmvAlgorithm::stream) continue;
            const std::string what = std::string("shape ") + shape.name + ", " +
                                     std::string(spk::to_string(algo)) + " " + std::to_string(size) +
                                     (pipelined ? ", pipelined" : "") + (balanced ? ", balanced" : "");
            const auto plan = c.run_staged(algo, size, lanes, what, 0, pipelined, balanced);
            if (algo == spk::SpmvAlgorithm::stream && plan.row_blocks.count > 0)
              stream_forms.insert({plan.row_blocks.rows_form, pipelined, balanced});
            if (algo == spk::SpmvAlgorithm::flat && plan.merge_path.chunks > 0)
              flat_forms.insert(plan.merge_path.rows_form);
          }
  }
  std::set<std::tuple<StagedRows, bool, bool>> all_stream_forms;
  for (const auto form : {StagedRows::short_only, StagedRows::within_stage, StagedRows::any})
    for (const bool pipelined : {false, true})
      for (const bool balanced : {false, true}) all_stream_forms.insert({form, pipelined, balanced});
  EXPECT_EQ(stream_forms, all_stream_forms);
  EXPECT_EQ(flat_forms, (std::set<StagedRows>{StagedRows::short_only, StagedRows::any}));
}

// Stream with a chunk cuts each row longer than its stage into pieces of a team each, the last piece to finish adding
// the partials: rows of exactly the capacity + 1, of a whole number of pieces and one more, one row holding most
// nonzeros, and the edge shapes, at pieces shorter and longer than the stage, at every vector length, on a
// NaN-poisoned y with beta = 0, twice for bitwise equality (the counts reset after each call); by count and by
// column window (long_row_windows.hpp), whose groups of team_size rows (256 / lanes) hold rows of unequal lengths
// here and end with a partial group.
TYPED_TEST(Spmv, StreamLongRowPiecesMatchOracle) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  constexpr int capacity = 64;
  auto shapes = edge_shapes();
  shapes.push_back({"piece_edges", 40, 3000, [](std::int64_t r, std::mt19937_64& g) {
                      const std::int64_t lengths[] = {capacity + 1, 4 * capacity, 4 * capacity + 1, 2};
                      return r % 5 == 4 ? std::int64_t(g() % 3) : lengths[r % 5];
                    }});
  std::int64_t pieces_run = 0, windows_run = 0;
  for (const auto& shape : shapes) {
    const StagedCase<S, Off> c(shape);
    for (int lanes = 1; lanes <= spk::max_vector_length<TestExec>(); lanes *= 2)
      for (const int piece : {capacity / 2, capacity, 5 * capacity}) {
        const std::string what = std::string("shape ") + shape.name + ", lanes " + std::to_string(lanes) +
                                 ", pieces of " + std::to_string(piece);
        const auto plan = c.run_staged(spk::SpmvAlgorithm::stream, capacity, lanes, what, piece);
        pieces_run += plan.long_rows.pieces;
        c.run_staged(spk::SpmvAlgorithm::stream, capacity, lanes, what + ", pipelined", piece, true);
        c.run_staged(spk::SpmvAlgorithm::stream, capacity, lanes, what + ", balanced", piece, false, true);
        const auto windows = c.run_staged(spk::SpmvAlgorithm::stream, capacity, lanes, what + ", windows", piece,
                                          false, false, true);
        EXPECT_EQ(windows.long_rows.pieces, 0) << what;  // the windows replace the pieces by count
        windows_run += windows.long_row_windows.pieces;
        c.run_staged(spk::SpmvAlgorithm::stream, capacity, lanes, what + ", windows, pipelined, balanced", piece, true,
                     true, true);
      }
  }
  EXPECT_GT(pieces_run, 0);
  EXPECT_GT(windows_run, 0);
}

// Stream's long rows by column window where the windows are shared, as on skewed 1M (every tenth row 600 to 1,500
// random columns of 2,000, the others up to 8), and where a row's columns are not sorted (reversed: the windows are
// then not shared, but each row's pieces must still cover it once), at every vector length and three piece lengths.
// The plan's windows are checked too: every row's piece begins never decrease, and with sorted columns window w begins
// at each row's first column not less than that of the group's longest row's nonzero w * piece.
TYPED_TEST(Spmv, StreamLongRowWindowsMatchOracle) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  constexpr int capacity = 64;
  const spk_test::Shape skewed{"skewed_rows", 300, 2000, [](std::int64_t r, std::mt19937_64& g) {
                                 return r % 10 == 3 ? 600 + std::int64_t(g() % 901) : std::int64_t(g() % 9);
                               }};
  for (const bool reversed : {false, true}) {
    StagedCase<S, Off> c(skewed);
    if (reversed) {  // each row's columns back to front, values with them
      const auto rm = c.hA.row_map();
      const auto ent = c.hA.entries();
      const auto val = c.hA.values();
      for (std::int64_t r = 0; r < c.hA.num_rows(); ++r) {
        std::reverse(ent.data() + rm(r), ent.data() + rm(r + 1));
        std::reverse(val.data() + rm(r), val.data() + rm(r + 1));
      }
      c.A = spk::copy_to<TestDevice>(c.hA);
    }
    for (int lanes = 1; lanes <= spk::max_vector_length<TestExec>(); lanes *= 2)
      for (const int piece : {capacity / 2, 3 * capacity, 1000}) {
        const std::string what = std::string(reversed ? "reversed" : "sorted") + " columns, lanes " +
                                 std::to_string(lanes) + ", windows of " + std::to_string(piece);
        const auto plan =
            c.run_staged(spk::SpmvAlgorithm::stream, capacity, lanes, what, piece, false, false, true);
        const auto& lw = plan.long_row_windows;
        ASSERT_EQ(lw.rows.extent(0), 30u) << what;
        EXPECT_EQ(lw.group, plan.shape.team_size) << what;
        EXPECT_EQ(lw.groups, (30 + lw.group - 1) / lw.group) << what;
        const auto first_team = host_copy(lw.first_team);
        const auto begin = host_copy(lw.begin);
        const auto rows = host_copy(lw.rows);
        const auto rm = c.hA.row_map();
        const auto ent = c.hA.entries();
        for (std::int64_t l = 0; l < 30; ++l) {
          const std::int64_t g = l / lw.group, i = l % lw.group, row = rows(l);
          std::int64_t lead = rows(g * lw.group);  // the group's longest row, the first if several are
          for (std::int64_t m = g * lw.group; m < 30 && m < (g + 1) * lw.group; ++m)
            if (rm(rows(m) + 1) - rm(rows(m)) > rm(lead + 1) - rm(lead)) lead = rows(m);
          std::int64_t at = rm(row);
          for (std::int64_t t = first_team(g); t < first_team(g + 1); ++t) {
            const std::int64_t b = begin(t * lw.group + i);
            ASSERT_GE(b, at) << what << ", long row " << l << ", team " << t;
            at = b;
            if (reversed || t == first_team(g)) continue;
            // Sorted: window w holds each row's columns from the longest row's nonzero w * piece on.
            const std::int64_t key = ent(rm(lead) + (t - first_team(g)) * piece);
            ASSERT_TRUE(b == rm(row) || ent(b - 1) < key) << what << ", long row " << l << ", team " << t;
            ASSERT_TRUE(b == rm(row + 1) || ent(b) >= key) << what << ", long row " << l << ", team " << t;
          }
          ASSERT_LE(at, rm(row + 1)) << what << ", long row " << l;
        }
      }
  }
}

// Stream and flat list the staged rows longer than serial_row_max and reduce them with a vector each
// (reduce_staged_rows): medium rows (33 to 1,500 nonzeros, mixed with short ones, and all of one length) at every
// vector length and at two capacities (stream also pipelined: several rounds a lane at 256 threads and 4,096
// nonzeros), on a NaN-poisoned y with beta = 0, twice for bitwise equality.
TYPED_TEST(Spmv, StagedMediumRowsMatchOracle) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  using R = std::mt19937_64;
  const std::vector<std::int64_t> lengths = {0, 3, 33, 64, 100, 257, 700, 1500};
  const std::vector<Shape> shapes = {
      {"medium_mix", 400, 2000, [&](std::int64_t, R& g) { return lengths[g() % lengths.size()]; }},
      {"all_64", 300, 1000, [](std::int64_t, R&) { return std::int64_t{64}; }},
      {"all_85", 300, 1000, [](std::int64_t, R&) { return std::int64_t{85}; }},
  };
  for (const auto& shape : shapes) {
    const StagedCase<S, Off> c(shape);
    for (int lanes = 1; lanes <= spk::max_vector_length<TestExec>(); lanes *= 2)
      for (const auto algo : {spk::SpmvAlgorithm::stream, spk::SpmvAlgorithm::flat})
        for (const int size : {1024, 4096})
          for (const bool pipelined : {false, true})
            for (const bool balanced : {false, true})
              if ((!pipelined && !balanced) || algo == spk::SpmvAlgorithm::stream)
                c.run_staged(algo, size, lanes,
                             std::string("shape ") + shape.name + ", " + std::string(spk::to_string(algo)) + " " +
                                 std::to_string(size) + ", " + std::to_string(lanes) + " lanes" +
                                 (pipelined ? ", pipelined" : "") + (balanced ? ", balanced" : ""),
                             0, pipelined, balanced);
  }
}

TYPED_TEST(Spmv, ForcedVectorLengthsMatchOracle) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  const std::uint64_t seed = fresh_seed();
  const auto hA = random_csr<S, Off>(edge_shapes()[0], seed);
  const auto A = spk::copy_to<TestDevice>(hA);
  Kokkos::View<S*, TestDevice> x("x", hA.num_cols()), y("y", hA.num_rows());
  auto hx = Kokkos::create_mirror_view(x);
  fill_random(hx, seed);
  Kokkos::deep_copy(x, hx);
  Kokkos::View<double*, Kokkos::HostSpace> ref("ref", hA.num_rows());
  spk::reference::spmv(1.0, hA, hx, 0.0, ref);
  for (int lanes = 1; lanes <= spk::max_vector_length<TestExec>(); lanes *= 2) {
    spk::SpmvOptions options;
    options.algorithm = spk::SpmvAlgorithm::vector_row;
    options.vector_length = lanes;
    poison(y);
    spk::spmv(S(1), A, x, S(0), y, options);
    auto hy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
    EXPECT_LE(relative_error(hy, ref), tolerance<S>()) << "vector length " << lanes << ", seed " << seed;
  }
}

TYPED_TEST(Spmv, PlanIsReusableAndDeterministic) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  const std::uint64_t seed = fresh_seed();
  const auto A = spk::copy_to<TestDevice>(random_csr<S, Off>(edge_shapes()[0], seed));
  Kokkos::View<S*, TestDevice> x("x", A.num_cols()), y1("y1", A.num_rows()), y2("y2", A.num_rows());
  auto hx = Kokkos::create_mirror_view(x);
  fill_random(hx, seed);
  Kokkos::deep_copy(x, hx);
  for (const auto algo : spk::all_algorithms<spk::SpmvAlgorithm>()) {
    spk::SpmvOptions options;
    options.algorithm = algo;
    const auto plan = spk::make_spmv_plan(A, options);
    EXPECT_EQ(plan.algorithm, algo);
    spk::spmv(plan, S(1), A, x, S(0), y1);
    spk::spmv(plan, S(1), A, x, S(0), y2);
    auto h1 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y1);
    auto h2 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y2);
    for (std::size_t i = 0; i < h1.extent(0); ++i)
      ASSERT_EQ(std::memcmp(&h1(i), &h2(i), sizeof(S)), 0) << spk::to_string(algo) << " row " << i;
  }
}

// x and y as every other entry of a two-column LayoutRight View (LayoutStride, stride 2) against contiguous ones, every
// algorithm, beta 0 (NaN-poisoned y) and beta 0.5: within the oracle's tolerance, and on host back-ends bit for bit
// the contiguous result (there thread-row hands contiguous vectors to host_rows_by_value and strided ones to the same
// loop inlined).
TYPED_TEST(Spmv, StridedVectorsMatchContiguous) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  const std::uint64_t seed = fresh_seed();
  const auto hA = random_csr<S, Off>(edge_shapes()[0], seed);
  const auto A = spk::copy_to<TestDevice>(hA);
  const auto in = random_spmv_inputs(hA, seed);
  using Wide = Kokkos::View<S**, Kokkos::LayoutRight, TestDevice>;
  const Wide xs2("xs2", hA.num_cols(), 2), ys2("ys2", hA.num_rows(), 2);
  const auto xs = Kokkos::subview(xs2, Kokkos::ALL(), 1);
  const auto ys = Kokkos::subview(ys2, Kokkos::ALL(), 1);
  Kokkos::deep_copy(xs, in.x);
  Kokkos::View<S*, TestDevice> y("y", hA.num_rows()), ys_flat("ys_flat", hA.num_rows());
  for (const S beta : {S(0), S(0.5)}) {
    const auto ref = oracle_y(hA, S(2), in.hx, beta, in.hy0);
    for (const auto algo : algorithms_and_automatic()) {
      const std::string what = std::string(spk::to_string(algo)) + ", beta " + std::to_string(beta) + ", seed " +
                               std::to_string(seed);
      spk::SpmvOptions options;
      options.algorithm = algo;
      const auto plan = spk::make_spmv_plan(A, options);
      if (beta == S(0)) {
        poison(y);
        poison(ys);
      } else {
        Kokkos::deep_copy(y, in.y0);
        Kokkos::deep_copy(ys, in.y0);
      }
      spk::spmv(plan, S(2), A, in.x, beta, y);
      spk::spmv(plan, S(2), A, xs, beta, ys);
      Kokkos::deep_copy(ys_flat, ys);
      const auto contiguous = host_copy(y), strided = host_copy(ys_flat);
      EXPECT_LE(relative_error(contiguous, ref), tolerance<S>(longest_row(hA))) << what;
      EXPECT_LE(relative_error(strided, ref), tolerance<S>(longest_row(hA))) << what << ", strided";
      if (spk::is_host_space<TestExec>())
        for (std::size_t i = 0; i < contiguous.extent(0); ++i)
          ASSERT_EQ(std::memcmp(&contiguous(i), &strided(i), sizeof(S)), 0) << what << ", row " << i;
    }
  }
}

// Host row loops read x in AVX2 vectors on rows that are long or spread out (impl/host_row_dot.hpp), filled by gather
// instructions or by scalar loads. Rows of every length around the vector widths (4 and 8 a vector, two
// accumulators, a scalar tail), near and far columns, long rows: each vector form against the scalar sum and a double
// oracle; the two forms bit for bit equal where both vector (by loads, far rows under row_dot_long_row are the scalar
// loop, bit for bit), and with packed columns bit for bit equal to A's own.
TYPED_TEST(Spmv, HostRowDotGathersMatchTheScalarSum) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  using M = spk::HostCsrMatrix<S, std::int32_t, Off>;
  using spk::impl::HostGather;
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const std::int32_t cols = 1 << 21;  // far rows span more than row_dot_far_bytes of x
  Kokkos::View<S*, Kokkos::HostSpace> x("x", cols);
  fill_random(x, seed + 1);
  // none where this CPU or build has no AVX2: then every form is the scalar loop
  const bool vectors =
      spk::impl::host_row_gathers<Kokkos::DefaultHostExecutionSpace>(x, std::numeric_limits<std::int64_t>::max()) !=
      HostGather::none;
  const HostGather hardware = vectors ? HostGather::hardware : HostGather::none;
  const HostGather loads = vectors ? HostGather::loads : HostGather::none;
  for (const bool far : {false, true}) {
    std::vector<Off> row_map{0};
    std::vector<std::int32_t> columns;
    for (int n = 0; n < 300; n += n < 40 ? 1 : n < 120 ? 7 : 1 + n / 2) {  // every length to 40, then some longer
      const std::int32_t step = far ? cols / (n + 1) : 3, first = static_cast<std::int32_t>(g() % 1000);
      for (int k = 0; k < n; ++k) columns.push_back(first + k * step + static_cast<std::int32_t>(g() % 2));
      row_map.push_back(static_cast<Off>(columns.size()));
    }
    typename M::row_map_type rm("row_map", row_map.size());
    typename M::entries_type ent("entries", columns.size());
    typename M::values_type val("values", columns.size());
    for (std::size_t i = 0; i < row_map.size(); ++i) rm(i) = row_map[i];
    for (std::size_t k = 0; k < columns.size(); ++k) ent(k) = columns[k], val(k) = static_cast<S>(u(g));
    const M A(static_cast<std::int32_t>(row_map.size() - 1), cols, rm, ent, val);
    const auto packed = spk::impl::pack_columns(A, !far);  // near rows fit 16-bit offsets; far ones do not
    const auto in_place = spk::impl::columns_in_place(A.entries());
    for (std::int32_t i = 0; i < A.num_rows(); ++i) {
      const Off b = rm(i), e = rm(i + 1);
      double exact = 0;
      for (Off k = b; k < e; ++k) exact += static_cast<double>(val(k)) * static_cast<double>(x(ent(k)));
      const S by_instructions = spk::impl::row_dot(hardware, val, in_place, x, b, e);
      const S by_loads = spk::impl::row_dot(loads, val, in_place, x, b, e);
      const S scalar = spk::impl::row_dot(HostGather::none, val, in_place, x, b, e);
      const std::string what = "row of " + std::to_string(e - b) + (far ? " far" : " near") + " columns under " +
                               spk::impl::to_string(spk::impl::host_isa()) + ", seed " + std::to_string(seed);
      const double scale = std::max(1.0, std::abs(exact));
      EXPECT_LE(std::abs(static_cast<double>(by_instructions) - exact) / scale, tolerance<S>(e - b)) << what;
      EXPECT_LE(std::abs(static_cast<double>(scalar) - exact) / scale, tolerance<S>(e - b)) << what;
      // Rows both forms vector get the same bits; by loads, a far row under row_dot_long_row is the scalar loop.
      const S& loads_twin = e - b >= spk::impl::row_dot_long_row ? by_instructions : scalar;
      EXPECT_EQ(std::memcmp(&loads_twin, &by_loads, sizeof(S)), 0) << what << ": by loads";
      if (far) continue;
      const S from_packed = spk::impl::row_dot(hardware, val, packed, x, b, e);
      const S from_packed_by_loads = spk::impl::row_dot(loads, val, packed, x, b, e);
      EXPECT_EQ(std::memcmp(&by_instructions, &from_packed, sizeof(S)), 0) << what;
      EXPECT_EQ(std::memcmp(&by_loads, &from_packed_by_loads, sizeof(S)), 0) << what << ", by loads";
    }
  }
}

// host_row_gathers: no vectors where no row can take them (the longest under row_dot_short; by loads, under
// row_dot_long_row, since loads vector only long rows), on the baseline instruction set, or on a strided x.
TEST(HostRowGathers, VectorsOnlyWhereSomeRowTakesThem) {
  using spk::impl::HostGather;
  using Host = Kokkos::DefaultHostExecutionSpace;
  const HostRowChoicesReset reset;
  Kokkos::View<double*, Kokkos::HostSpace> x("x", 64);
  const bool avx2 = spk::impl::host_isa() != spk::impl::HostIsa::baseline;
  const std::int64_t short_row = spk::impl::row_dot_short, long_row = spk::impl::row_dot_long_row;
  for (const auto form : {HostGather::hardware, HostGather::loads}) {
    spk::impl::host_gather_choice().store(static_cast<int>(form));
    const HostGather some = avx2 ? form : HostGather::none;
    const std::string what = std::string("by ") + spk::impl::to_string(form);
    EXPECT_EQ(spk::impl::host_row_gathers<Host>(x, 0), HostGather::none) << what;
    EXPECT_EQ(spk::impl::host_row_gathers<Host>(x, short_row - 1), HostGather::none) << what;
    EXPECT_EQ(spk::impl::host_row_gathers<Host>(x, short_row), form == HostGather::hardware ? some : HostGather::none)
        << what;
    EXPECT_EQ(spk::impl::host_row_gathers<Host>(x, long_row - 1),
              form == HostGather::hardware ? some : HostGather::none)
        << what;
    EXPECT_EQ(spk::impl::host_row_gathers<Host>(x, long_row), some) << what;
    const auto strided = Kokkos::subview(Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace>("m", 64, 2),
                                         1, Kokkos::ALL());
    EXPECT_EQ(spk::impl::host_row_gathers<Host>(strided, long_row), HostGather::none) << what << ", strided x";
    spk::impl::host_isa_cap().store(static_cast<int>(spk::impl::HostIsa::baseline));
    EXPECT_EQ(spk::impl::host_row_gathers<Host>(x, long_row), HostGather::none) << what << ", baseline";
    spk::impl::host_isa_cap().store(-1);
  }
}

// The host row loops without vectors (host_isa_cap: the baseline has none) and with each vector form (gather
// instructions, loads: host_gather_choice), on rows whose columns spread over 300,000 and rows past
// row_dot_long_row: each algorithm with a host row loop against the oracle.
TYPED_TEST(Spmv, HostRowLoopsMatchOracleWithAndWithoutGathers) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  using spk::impl::HostGather;
  const HostRowChoicesReset reset;
  const std::uint64_t seed = fresh_seed();
  const auto hA = random_csr<S, Off>(far_and_long_rows(), seed);
  for (const auto choice : {HostGather::hardware, HostGather::loads}) {
    spk::impl::host_gather_choice().store(static_cast<int>(choice));
    for (const int cap : {-1, static_cast<int>(spk::impl::HostIsa::baseline)}) {
      spk::impl::host_isa_cap().store(cap);
      for (const auto algo :
           {spk::SpmvAlgorithm::thread_row, spk::SpmvAlgorithm::vector_row, spk::SpmvAlgorithm::long_row_split})
        EXPECT_LE(spmv_error(hA, algo, S(1.5), S(-0.5), seed), tolerance<S>(longest_row(hA)))
            << spk::to_string(algo) << " under " << spk::impl::to_string(spk::impl::host_isa()) << " by "
            << spk::impl::to_string(choice) << ", seed " << seed;
    }
  }
}

// The plans' stream compaction fills a room in one scan up to compact_one_pass_max candidates, or up to as many as
// a bound the caller gives, and counts first beyond: every path must list exactly the flagged indices, in order; a
// bound the flags exceed throws instead of writing past the room.
TEST(SpmvPlan, CompactionListsTheFlaggedIndicesOnBothPaths) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(::testing::Message() << "SPK_TEST_SEED=" << seed);
  std::mt19937_64 g(seed);
  constexpr std::int64_t one_pass = spk::impl::compact_one_pass_max;
  for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{977}, one_pass, one_pass + 1,
                               3 * one_pass + 5}) {
    const double density = std::uniform_real_distribution<double>(0.0, 1.0)(g);
    std::vector<char> flags(static_cast<std::size_t>(n));
    std::vector<std::int64_t> expected;
    for (std::int64_t i = 0; i < n; ++i) {
      flags[i] = std::bernoulli_distribution(density)(g) ? 1 : 0;
      if (flags[i]) expected.push_back(i);
    }
    EXPECT_EQ(compact_on_device(flags), expected) << "n = " << n << ", density " << density;
    const auto count = static_cast<std::int64_t>(expected.size());
    EXPECT_EQ(compact_on_device(flags, count), expected) << "n = " << n << ", bound = count";
    EXPECT_EQ(compact_on_device(flags, count + 3), expected) << "n = " << n << ", bound = count + 3";
    // (a bound over compact_one_pass_max takes the counting path, which needs none)
    if (count > 0 && count - 1 <= one_pass)
      EXPECT_THROW(compact_on_device(flags, count - 1), std::logic_error) << "n = " << n;
  }
}

// compact_indices' one-pass rooms come from the RoomPool: a room is handed out again only once every View of it is
// gone, never while a plan (here, a result) still holds it, and the indices written into a reused room are the new
// ones. More live rooms than the pool keeps are allocated and freed as before; a full pool makes room for a new size.
TEST(SpmvPlan, CompactionRoomsAreReusedOnlyOnceFree) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(::testing::Message() << "SPK_TEST_SEED=" << seed);
  std::mt19937_64 g(seed);
  const auto compact = [&](std::int64_t n, std::vector<std::int64_t>& expected) {
    std::vector<char> flags(static_cast<std::size_t>(n));
    expected.clear();
    for (std::int64_t i = 0; i < n; ++i) {
      flags[i] = std::bernoulli_distribution(0.5)(g) ? 1 : 0;
      if (flags[i]) expected.push_back(i);
    }
    return compact_flags(flags);
  };
  const std::int64_t n = std::uniform_int_distribution<std::int64_t>(600, 1000)(g);  // a 1,024-index room
  // More live results than the pool keeps: each takes a room of its own (every free room of its size among them),
  // and holds its own indices.
  auto& pool = spk::impl::RoomPool<TestDevice>::instance();
  std::set<const void*> rooms;
  {
    std::vector<Kokkos::View<std::int64_t*, TestDevice>> live;
    std::vector<std::vector<std::int64_t>> live_expected(spk::impl::room_pool_rooms + 4);
    for (auto& e : live_expected) live.push_back(compact(n, e));
    for (std::size_t i = 0; i < live.size(); ++i) {
      EXPECT_TRUE(rooms.insert(live[i].data()).second) << "result " << i << " shares a live room";
      EXPECT_EQ(indices_on_host(live[i]), live_expected[i]) << "result " << i;
    }
    // The pool keeps as many of them as it holds rooms: free rooms of other sizes, left by earlier plans, gave way.
    std::size_t kept = 0;
    for (const auto& room : live) kept += pool.holds(room.data()) ? 1 : 0;
    EXPECT_EQ(kept, spk::impl::room_pool_rooms) << "free rooms of other sizes did not make way for live ones";
    EXPECT_EQ(pool.size(), spk::impl::room_pool_rooms);
  }
  // Every room is free again: each next result of that size takes the same room, one the pool keeps among those
  // above, and holds its new indices, not the old ones.
  std::vector<std::int64_t> expected;
  std::set<const void*> seen;
  for (int i = 0; i < 4; ++i) {
    const auto again = compact(n, expected);
    EXPECT_EQ(indices_on_host(again), expected) << "reuse " << i;
    seen.insert(again.data());
  }
  ASSERT_EQ(seen.size(), 1u) << "a freed room was not taken again";
  EXPECT_TRUE(pool.holds(*seen.begin())) << "the room is not the pool's";
  EXPECT_EQ(rooms.count(*seen.begin()), 1u) << "the room taken again was none of the live ones";
  // The pool holds live results' rooms only, all free now: a room of another size (8,192 indices) takes the place of
  // one of them.
  const auto big = compact(std::uniform_int_distribution<std::int64_t>(4097, 8000)(g), expected);
  EXPECT_EQ(indices_on_host(big), expected);
  EXPECT_EQ(pool.size(), spk::impl::room_pool_rooms);
  EXPECT_TRUE(pool.holds(big.data())) << "a full pool kept no room of a new size";
}

// Row blocks (SpMV stream, SpMM row-team and k-tiled) cover the rows in order, hold at most capacity nonzeros
// unless one row longer than half of it is alone, and at most capacity / 2 rows: a long run of empty rows (all of
// them last, as by-length reordering puts them) is cut into many blocks instead of one team's. Every block within
// the capacity fits the scratch the blocks ask for (`staged`), and `rows_form` says whether every row fits a lane,
// the capacity, or neither.
TEST(SpmvPlan, RowBlocksBoundNonzerosAndRows) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(::testing::Message() << "SPK_TEST_SEED=" << seed);
  std::mt19937_64 g(seed);
  const auto length = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(g);
  };
  // Long rows, then short ones, then 5000 empty rows; and stencil-like rows of at most 27 nonzeros.
  std::vector<std::vector<std::int64_t>> mixes(2, std::vector<std::int64_t>{0});
  for (int r = 0; r < 3000; ++r) mixes[0].push_back(mixes[0].back() + (r < 20 ? 300 : (r < 1000 ? length(0, 9) : 0)));
  for (int r = 0; r < 5000; ++r) mixes[0].push_back(mixes[0].back());
  for (int r = 0; r < 4000; ++r) mixes[1].push_back(mixes[1].back() + length(r % 50 ? 20 : 0, 27));
  for (const auto& offsets : mixes) {
    const auto rows = static_cast<std::int64_t>(offsets.size()) - 1;
    spk::RowLengthStats stats;  // what make_row_blocks reads: the longest row, and the histogram bounds its blocks
    stats.rows = rows;
    stats.nnz = offsets.back();
    for (std::int64_t r = 0; r < rows; ++r) {
      stats.max_length = std::max(stats.max_length, offsets[r + 1] - offsets[r]);
      ++stats.log2_histogram[spk::row_length_bin(offsets[r + 1] - offsets[r])];
    }
    const std::int64_t max_length = stats.max_length;
    Kokkos::View<std::int64_t*, TestDevice> row_map("row_map", offsets.size());
    auto h = Kokkos::create_mirror_view(row_map);
    for (std::size_t i = 0; i < offsets.size(); ++i) h(i) = offsets[i];
    Kokkos::deep_copy(row_map, h);
    for (const int capacity : {2, 27, 64, 128, 2048}) {
      const std::string what = "capacity " + std::to_string(capacity) + ", longest row " + std::to_string(max_length);
      const auto blocks = spk::impl::make_row_blocks<TestExec, TestDevice>(row_map, rows, capacity, stats);
      const auto starts = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), blocks.starts);
      ASSERT_EQ(static_cast<std::int64_t>(starts.extent(0)), blocks.count + 1) << what;
      EXPECT_EQ(starts(0), 0);
      EXPECT_EQ(starts(blocks.count), rows);
      EXPECT_LE(blocks.staged, capacity) << what;
      using spk::impl::StagedRows;
      EXPECT_EQ(blocks.rows_form, max_length <= std::min(capacity, spk::impl::serial_row_max) ? StagedRows::short_only
                                  : max_length <= capacity                                   ? StagedRows::within_stage
                                                                                             : StagedRows::any)
          << what;
      std::int64_t most = 0;  // the largest block within the capacity
      for (std::int64_t b = 0; b < blocks.count; ++b) {
        const std::int64_t first = starts(b), last = starts(b + 1), nnz = offsets[last] - offsets[first];
        ASSERT_LT(first, last) << what << ", block " << b;
        EXPECT_LE(last - first, std::max(1, capacity / 2)) << what << ", block " << b;
        if (last - first > 1) EXPECT_LE(nnz, capacity) << what << ", block " << b;
        if (nnz <= capacity) most = std::max(most, nnz);
      }
      EXPECT_LE(most, blocks.staged) << what;
      // The bound is tight enough to matter: a block fills at least a fifth of what it asks for (short rows).
      if (max_length < capacity / 4) EXPECT_GE(5 * most, blocks.staged) << what;
    }
  }
}

TEST(SpmvArguments, DimensionMismatchesThrowBeforeAnyKernel) {
  const auto A = spk::copy_to<TestDevice>(random_csr<double, int>(edge_shapes()[0], 1));  // 700 x 650
  Kokkos::View<double*, TestDevice> x("x", 650), y("y", 700), bad_x("bad_x", 700), bad_y("bad_y", 650);
  EXPECT_THROW(spk::spmv(1.0, A, bad_x, 0.0, y), spk::invalid_argument);
  EXPECT_THROW(spk::spmv(1.0, A, x, 0.0, bad_y), spk::invalid_argument);
  const auto other = spk::copy_to<TestDevice>(random_csr<double, int>(edge_shapes()[9], 1));
  const auto plan = spk::make_spmv_plan(other);
  EXPECT_THROW(spk::spmv(plan, 1.0, A, x, 0.0, y), spk::invalid_argument);
  spk::SpmvOptions bad;
  bad.algorithm = spk::SpmvAlgorithm::vector_row;
  bad.vector_length = 3;
  EXPECT_THROW(spk::make_spmv_plan(A, bad), spk::invalid_argument);
  bad.vector_length = 2 * spk::max_vector_length<TestExec>();
  EXPECT_THROW(spk::make_spmv_plan(A, bad), spk::invalid_argument);
}

// A tiny forced chunk on large teams: every row of a group takes as many window slots as its longest, so column windows
// of 1 nonzero for teams of 256 rows on a row of 5,000 would take 1.28 M slots for 5,007 nonzeros; the plan refuses
// that before allocating, and takes the same shape at a sane chunk. Host teams are one row, whose windows never
// outnumber its nonzeros, so there is nothing to refuse there.
TEST(SpmvArguments, ColumnWindowsRefuseSlotsFarBeyondTheNonzeros) {
  if (spk::is_host_space<TestExec>()) GTEST_SKIP() << "host teams hold one row";
  const Shape shape{"one_row_of_5000", 8, 5000, [](std::int64_t r, std::mt19937_64&) {
                      return r == 0 ? std::int64_t{5000} : std::int64_t{1};
                    }};
  const auto A = spk::copy_to<TestDevice>(random_csr<double, int>(shape, fresh_seed()));
  spk::SpmvOptions options;
  options.algorithm = spk::SpmvAlgorithm::stream;
  spk::LaunchShape launch;
  launch.team_size = 256;
  launch.stage_capacity = 64;
  launch.chunk = 1;
  launch.windowed = true;
  options.shape = launch;
  EXPECT_THROW(spk::make_spmv_plan(A, options), spk::invalid_argument);
  options.shape->chunk = 64;
  EXPECT_GT(spk::make_spmv_plan(A, options).long_row_windows.pieces, 0);
}

TEST(SpmvArguments, AlgorithmNamesRoundTrip) {
  for (const auto algo : algorithms_and_automatic())
    EXPECT_EQ(spk::parse_algorithm<spk::SpmvAlgorithm>(spk::to_string(algo)), algo);
  EXPECT_THROW(spk::parse_algorithm<spk::SpmvAlgorithm>("merge-paht"), spk::invalid_argument);
}

TEST(SpmvArguments, ForcedVectorLengthKeepsTheTeamsThreads) {
  spk::LaunchShape s;
  s.team_size = 64;
  s.vector_length = 4;
  spk::apply_overrides(s, 32, 0);
  EXPECT_EQ(s.team_size, 8);
  EXPECT_EQ(s.vector_length, 32);
  spk::apply_overrides(s, 0, 3);  // the team size alone
  EXPECT_EQ(s.team_size, 3);
  EXPECT_EQ(s.vector_length, 32);
  spk::apply_overrides(s, 2, 16);  // both, as given
  EXPECT_EQ(s.team_size, 16);
  EXPECT_EQ(s.vector_length, 2);
  s.team_size = 1;
  s.vector_length = 1;
  spk::apply_overrides(s, 8, 0);  // a one-thread team stays one team
  EXPECT_EQ(s.team_size, 1);
  EXPECT_EQ(s.vector_length, 8);
}

TEST(SpmvArguments, ForcedShapesTheAlgorithmCannotRunThrow) {
  const auto A = spk::copy_to<TestDevice>(random_csr<double, int>(edge_shapes()[0], 1));
  spk::SpmvOptions bad;
  bad.shape = spk::LaunchShape{};
  for (const auto algo : {spk::SpmvAlgorithm::stream, spk::SpmvAlgorithm::flat, spk::SpmvAlgorithm::long_row_split}) {
    bad.algorithm = algo;  // stage capacity, chunk and long-row threshold all 0
    EXPECT_THROW(spk::make_spmv_plan(A, bad), spk::invalid_argument) << spk::to_string(algo);
  }
  bad.algorithm = spk::SpmvAlgorithm::stream;
  bad.shape->stage_capacity = 1 << 30;  // more scratch than any back-end gives a team
  if (!spk::is_host_space<TestExec>()) EXPECT_THROW(spk::make_spmv_plan(A, bad), spk::invalid_argument);
  bad.shape->stage_capacity = 64;
  bad.shape->chunk = -1;  // stream's pieces of long rows: 0 (none) or a length
  EXPECT_THROW(spk::make_spmv_plan(A, bad), spk::invalid_argument);
  bad.algorithm = spk::SpmvAlgorithm::thread_row;
  bad.shape = spk::LaunchShape{};
  bad.shape->vector_length = 2;
  EXPECT_THROW(spk::make_spmv_plan(A, bad), spk::invalid_argument);
  // a pipelined stage is stream's alone
  bad.shape = spk::LaunchShape{};
  bad.shape->pipelined = true;
  bad.shape->stage_capacity = 64;
  bad.shape->chunk = 64;
  bad.shape->long_row = 64;
  bad.algorithm = spk::SpmvAlgorithm::stream;
  EXPECT_NO_THROW(spk::make_spmv_plan(A, bad));
  for (const auto algo : spk::all_algorithms<spk::SpmvAlgorithm>()) {
    if (algo == spk::SpmvAlgorithm::stream) continue;
    bad.algorithm = algo;
    bad.shape->stage_capacity = algo == spk::SpmvAlgorithm::thread_row ? 0 : 64;
    EXPECT_THROW(spk::make_spmv_plan(A, bad), spk::invalid_argument) << spk::to_string(algo);
    bad.shape->pipelined = false;
    EXPECT_NO_THROW(spk::make_spmv_plan(A, bad)) << spk::to_string(algo);
    bad.shape->balanced = true;  // balanced row sums too
    EXPECT_THROW(spk::make_spmv_plan(A, bad), spk::invalid_argument) << spk::to_string(algo);
    bad.shape->balanced = false;
    bad.shape->pipelined = true;
  }
  bad.algorithm = spk::SpmvAlgorithm::stream;
  bad.shape->balanced = true;
  bad.shape->stage_capacity = 64;
  EXPECT_NO_THROW(spk::make_spmv_plan(A, bad));
  // column windows are stream's alone, and need a piece length
  bad.shape->windowed = true;
  EXPECT_NO_THROW(spk::make_spmv_plan(A, bad));
  bad.shape->chunk = 0;
  EXPECT_THROW(spk::make_spmv_plan(A, bad), spk::invalid_argument);
  bad.shape->chunk = 64;
  bad.algorithm = spk::SpmvAlgorithm::flat;
  bad.shape->balanced = false;
  bad.shape->pipelined = false;
  EXPECT_THROW(spk::make_spmv_plan(A, bad), spk::invalid_argument);
  bad.algorithm = spk::SpmvAlgorithm::stream;
  bad.shape->windowed = false;
  bad.shape->balanced = true;
  if (spk::is_host_space<TestExec>()) return;
  // On a GPU the lanes' carries take scratch too: the largest stage a team of 1,024 threads may take plain is
  // refused with balanced row sums.
  bad.shape->pipelined = false;
  bad.shape->balanced = false;
  bad.shape->team_size = 1024 / spk::max_vector_length<TestExec>();
  bad.shape->vector_length = spk::max_vector_length<TestExec>();
  const auto accepted = [&](int stage) {
    bad.shape->stage_capacity = stage;
    try {
      spk::make_spmv_plan(A, bad);
      return true;
    } catch (const spk::invalid_argument&) {
      return false;
    }
  };
  int lo = 1, hi = 1 << 20;  // the largest accepted stage, by bisection
  while (lo < hi) {
    const int mid = lo + (hi - lo + 1) / 2;
    if (accepted(mid))
      lo = mid;
    else
      hi = mid - 1;
  }
  ASSERT_TRUE(accepted(lo));
  bad.shape->balanced = true;
  EXPECT_FALSE(accepted(lo)) << "stage " << lo;
}

TEST(SpmvSelector, NearestTableEntryByFeaturesPrecisionAndAlgorithm) {
  using spk::SpmvAlgorithm;
  using spk::tuning::SpmvTuningEntry;
  // Two swept matrices: short regular rows (stream) and a heavy tail (flat), each in one precision only.
  const SpmvTuningEntry table[] = {
      {"short", 8, 1e6, 5, 0.5, 6, SpmvAlgorithm::stream, {64, 4, 1, 2048, 0, 0}, 0},
      {"tail", 4, 1e6, 16, 400, 100000, SpmvAlgorithm::flat, {256, 1, 1, 0, 1024, 0}, 0},
      {},
  };
  spk::RowLengthStats regular;
  regular.rows = 1000000;
  regular.mean_length = 5.5;
  regular.stddev_length = 0.3;
  regular.max_length = 7;
  spk::RowLengthStats skewed = regular;
  skewed.mean_length = 14;
  skewed.stddev_length = 300;
  skewed.max_length = 80000;
  EXPECT_STREQ(spk::select::nearest_spmv_entry(table, regular, 8, SpmvAlgorithm::automatic)->matrix, "short");
  EXPECT_STREQ(spk::select::nearest_spmv_entry(table, skewed, 4, SpmvAlgorithm::automatic)->matrix, "tail");
  // An entry of the same precision wins over a nearer one of the other precision.
  EXPECT_STREQ(spk::select::nearest_spmv_entry(table, skewed, 8, SpmvAlgorithm::automatic)->matrix, "short");
  // A forced algorithm only takes shapes swept for it; none at all leaves the rules to decide.
  EXPECT_STREQ(spk::select::nearest_spmv_entry(table, regular, 8, SpmvAlgorithm::flat)->matrix, "tail");
  EXPECT_EQ(spk::select::nearest_spmv_entry(table, regular, 8, SpmvAlgorithm::vector_row), nullptr);
  EXPECT_EQ(spk::select::nearest_spmv_entry(table + 2, regular, 8, SpmvAlgorithm::automatic), nullptr);
}

// Sets an environment variable for one scope and puts the old value back.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (old_.empty())
      unsetenv(name_);
    else
      setenv(name_, old_.c_str(), 1);
  }

 private:
  const char* name_;
  std::string old_;
};

// A GPU model's own table is picked by the device's name (the first model it contains), and SPK_TUNING_DEVICE
// stands in for that name: on CUDA an H100 gets spmv_cuda_h100 and any other GPU spmv_cuda; HIP and host back-ends
// have one table.
TEST(SpmvSelector, ModelTablesFollowTheDeviceName) {
  using spk::tuning::SpmvTuningEntry;
  static constexpr spk::select::ModelTable<SpmvTuningEntry> models[] = {
      {"H100", {spk::tuning::spmv_cuda_h100, "h100"}}, {"MI250", {spk::tuning::spmv_hip, "mi250"}}};
  const spk::select::TuningTable<SpmvTuningEntry> fallback{spk::tuning::spmv_cuda, "default"};
  EXPECT_STREQ(spk::select::table_for_device("NVIDIA H100 80GB HBM3", models, fallback).name, "h100");
  EXPECT_STREQ(spk::select::table_for_device("AMD Instinct MI250X gfx90a", models, fallback).name, "mi250");
  EXPECT_STREQ(spk::select::table_for_device("NVIDIA H200", models, fallback).name, "default");
  EXPECT_STREQ(spk::select::table_for_device("", models, fallback).name, "default");
  EXPECT_EQ(spk::select::table_for_device("NVIDIA H100 PCIe", models, fallback).entries, spk::tuning::spmv_cuda_h100);

  std::string as_h100, as_other;
  {
    const ScopedEnv device("SPK_TUNING_DEVICE", "NVIDIA H100 PCIe");
    EXPECT_EQ(spk::select::tuning_device_name<TestExec>(), "NVIDIA H100 PCIe");
    as_h100 = spk::select::spmv_tuning<TestExec>().name;
  }
  {
    const ScopedEnv device("SPK_TUNING_DEVICE", "default");
    as_other = spk::select::spmv_tuning<TestExec>().name;
    EXPECT_EQ(spk::select::spmv_table<TestExec>(), spk::select::spmv_tuning<TestExec>().entries);
  }
#if defined(KOKKOS_ENABLE_CUDA)
  if (std::is_same_v<TestExec, Kokkos::Cuda>) {
    EXPECT_EQ(as_h100, "spmv_cuda_h100");
    EXPECT_EQ(as_other, "spmv_cuda");
    return;
  }
#endif
  EXPECT_EQ(as_h100, as_other);
  if (spk::is_host_space<TestExec>()) EXPECT_EQ(as_other, "spmv_openmp");
}

// Every entry of every table this back-end may pick names an algorithm and a launch shape its plans accept, in the
// entry's precision (a table is generated, and a shape that overflows team scratch must not reach a kernel).
TEST(SpmvSelector, EveryTableEntryIsAShapeThePlanAccepts) {
  for (const char* device : {"default", "H100"}) {
    const ScopedEnv env("SPK_TUNING_DEVICE", device);
    const auto table = spk::select::spmv_tuning<TestExec>();
    int entries = 0;
    for (const auto* e = table.entries; e && e->matrix; ++e, ++entries) {
      SCOPED_TRACE(std::string(table.name) + ": " + e->matrix + ", " + std::to_string(e->scalar_bytes) + " bytes");
      EXPECT_NE(e->algorithm, spk::SpmvAlgorithm::automatic);
      EXPECT_TRUE(e->scalar_bytes == 4 || e->scalar_bytes == 8);
      EXPECT_GT(e->rows, 0);
      EXPECT_GE(e->max, e->mean);
      using Float = spk::CsrMatrix<float, int, int, TestDevice>;
      using Double = spk::CsrMatrix<double, int, int, TestDevice>;
      if (e->scalar_bytes == 4)
        EXPECT_NO_THROW(spk::detail::check_spmv_shape<Float>(e->algorithm, e->shape));
      else
        EXPECT_NO_THROW(spk::detail::check_spmv_shape<Double>(e->algorithm, e->shape));
    }
    EXPECT_GT(entries, 0) << table.name;
  }
}

TEST(SpmvSelector, RulesWithoutATableFollowTheRowLengths) {
  spk::RowLengthStats s;
  s.rows = 1000;
  s.mean_length = 3;
  s.max_length = 5;
  EXPECT_EQ(spk::select::rule_spmv_algorithm(s), spk::SpmvAlgorithm::thread_row);
  s.mean_length = 30;
  s.max_length = 40;
  EXPECT_EQ(spk::select::rule_spmv_algorithm(s), spk::SpmvAlgorithm::stream);
  s.max_length = 100000;
  EXPECT_EQ(spk::select::rule_spmv_algorithm(s), spk::SpmvAlgorithm::flat);
}
