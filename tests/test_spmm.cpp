// SpMM against the sequential oracle: every algorithm, both layouts, odd k, edge shapes, alpha/beta.
#include <spk/reference/reference.hpp>
#include <spk/spmm.hpp>

#include <cstring>
#include <utility>

#include "test_common.hpp"
#include "test_matrices.hpp"
#include "test_spmm_common.hpp"

using namespace spk_test;

template <class T>
class Spmm : public ::testing::Test {};
TYPED_TEST_SUITE(Spmm, ScalarOffsetTypes);

namespace {
template <class Layout, class S, class Off>
double spmm_error(const spk::HostCsrMatrix<S, std::int32_t, Off>& hA, int k, const spk::SpmmOptions& options, S alpha,
                  S beta, std::uint64_t seed) {
  const auto A = spk::copy_to<TestDevice>(hA);
  const auto c = make_spmm_case<Layout>(hA, k, alpha, beta, seed);
  Kokkos::View<S**, Layout, TestDevice> C("C", hA.num_rows(), k);
  Kokkos::deep_copy(C, c.start);
  spk::spmm(alpha, A, c.B, beta, C, options);
  return relative_error(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), C), c.ref);
}

template <class Layout, class S, class Off>
double spmm_error(const spk::HostCsrMatrix<S, std::int32_t, Off>& hA, int k, spk::SpmmAlgorithm algo, S alpha, S beta,
                  std::uint64_t seed) {
  spk::SpmmOptions options;
  options.algorithm = algo;
  return spmm_error<Layout>(hA, k, options, alpha, beta, seed);
}

// Sets the forced shape's partition size: flat's chunk, row-pieces' longest piece, the others' stage capacity,
// vector-row's rows per thread (and the length over which its rows get a team each: long_row, n unless given).
void set_partition(spk::LaunchShape& shape, spk::SpmmAlgorithm algo, int n, int long_row = -1) {
  if (algo == spk::SpmmAlgorithm::flat || algo == spk::SpmmAlgorithm::row_pieces) {
    shape.chunk = n;
  } else if (algo == spk::SpmmAlgorithm::vector_row) {
    shape.rows_per_thread = n;
    shape.long_row = long_row < 0 ? n : long_row;
  } else {
    shape.stage_capacity = n;
  }
}

std::vector<spk::SpmmAlgorithm> algorithms_and_automatic() {
  auto all = spk::all_algorithms<spk::SpmmAlgorithm>();
  all.push_back(spk::SpmmAlgorithm::automatic);
  return all;
}

// Two calls of one plan (row-major B and C) from the same starting C: the first matches the oracle, the second
// agrees with it bit for bit.
template <class S, class Off, class Plan, class Matrix>
void expect_oracle_then_repeat(const spk::HostCsrMatrix<S, std::int32_t, Off>& hA, const Plan& plan, const Matrix& A,
                               int k, S alpha, S beta, std::uint64_t seed, const std::string& what) {
  const auto c = make_spmm_case<Kokkos::LayoutRight>(hA, k, alpha, beta, seed);
  Kokkos::View<S**, Kokkos::LayoutRight, TestDevice> C1("C1", hA.num_rows(), k), C2("C2", hA.num_rows(), k);
  Kokkos::deep_copy(C1, c.start);
  Kokkos::deep_copy(C2, c.start);
  spk::spmm(plan, alpha, A, c.B, beta, C1);
  spk::spmm(plan, alpha, A, c.B, beta, C2);
  const auto h1 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), C1);
  const auto h2 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), C2);
  EXPECT_LE(relative_error(h1, c.ref), tolerance<S>(longest_row(hA))) << what;
  for (std::size_t i = 0; i < h1.extent(0); ++i)
    for (int j = 0; j < k; ++j)
      ASSERT_EQ(std::memcmp(&h1(i, j), &h2(i, j), sizeof(S)), 0) << what << " " << i << "," << j;
}
}  // namespace

TYPED_TEST(Spmm, EveryAlgorithmLayoutAndWidthMatchesOracle) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  for (const auto& shape : edge_shapes()) {
    if (shape.rows * shape.cols > 2000000) continue;  // keeps the dense blocks small; long rows are covered below
    const std::uint64_t seed = fresh_seed();
    const auto hA = random_csr<S, Off>(shape, seed);
    for (const auto algo : algorithms_and_automatic())
      for (const int k : {1, 3, 32, 37}) {
        const S alpha = S(1.5), beta = k % 2 ? S(0) : S(-0.5);
        const double right = spmm_error<Kokkos::LayoutRight>(hA, k, algo, alpha, beta, seed);
        const double left = spmm_error<Kokkos::LayoutLeft>(hA, k, algo, alpha, beta, seed);
        EXPECT_LE(right, tolerance<S>(longest_row(hA))) << "LayoutRight " << shape.name << " k " << k << " "
                                         << spk::to_string(algo) << " seed " << seed;
        EXPECT_LE(left, tolerance<S>(longest_row(hA))) << "LayoutLeft " << shape.name << " k " << k << " " << spk::to_string(algo)
                                        << " seed " << seed;
      }
  }
}

TYPED_TEST(Spmm, WideBlocksAndLongRows) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  const std::uint64_t seed = fresh_seed();
  const Shape shape{"long", 40, 3000, [](std::int64_t r, std::mt19937_64&) { return r == 3 ? 3000 : 5 * r; }};
  const auto hA = random_csr<S, Off>(shape, seed);
  for (const auto algo : algorithms_and_automatic())
    for (const int k : {129, 256}) {
      EXPECT_LE(spmm_error<Kokkos::LayoutRight>(hA, k, algo, S(1), S(0), seed), tolerance<S>(longest_row(hA)))
          << "k " << k << " seed " << seed;
      EXPECT_LE(spmm_error<Kokkos::LayoutLeft>(hA, k, algo, S(-1), S(2), seed), tolerance<S>(longest_row(hA)))
          << "k " << k << " seed " << seed;
    }
}

// Tiny forced stage capacities and chunks on every shape: long rows done by the whole team, single-row blocks,
// rows split over many flat chunks (multi-chunk fix-ups), vector-row threads taking runs of rows that end past the
// last row while rows longer than the run go to teams of their own, for every compiled columns-per-lane value and
// lane count.
TYPED_TEST(Spmm, ForcedSmallPartitionsMatchOracle) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  const int widest = spk::max_vector_length<TestExec>();
  for (const auto& shape : edge_shapes()) {
    if (shape.rows * shape.cols > 2000000) continue;
    const std::uint64_t seed = fresh_seed();
    const auto hA = random_csr<S, Off>(shape, seed);
    const double tol = tolerance<S>(longest_row(hA));
    for (const auto algo : spk::all_algorithms<spk::SpmmAlgorithm>())
      for (const int cpl : {1, 2, 4, 8, 16}) {
        if (!spk::impl::spmm_columns_per_lane_compiled<TestExec>(cpl)) continue;
        for (const int lanes : {1, widest})
          for (const int small : {1, 5, 64}) {
            spk::SpmmOptions options;
            options.algorithm = algo;
            options.shape = spk::LaunchShape{};
            options.shape->vector_length = lanes;
            options.shape->team_size = spk::is_host_space<TestExec>() ? 1 : std::max(2, 32 / lanes);
            options.shape->columns_per_lane = cpl;
            set_partition(*options.shape, algo, small);
            const std::string what = std::string(spk::to_string(algo)) + " " + spk::describe(*options.shape) +
                                     " " + shape.name + " seed " + std::to_string(seed);
            EXPECT_LE(spmm_error<Kokkos::LayoutRight>(hA, 36, options, S(2), S(0), seed), tol)
                << "right k 36 " << what;
            EXPECT_LE(spmm_error<Kokkos::LayoutLeft>(hA, 3, options, S(1), S(-1), seed), tol) << "left k 3 " << what;
          }
      }
  }
}

// Host back-ends run their SpMM loops compiled for the widest instruction set the CPU has (host_simd.hpp: AVX-512
// or AVX2 with FMA on most x86-64 machines, with 64- or 32-byte vectors of B's rows) or for the baseline. Each
// version up to the CPU's, in one process, on every algorithm, columns per lane 8 and 16 (8 floats are half an
// AVX-512 vector), k with whole vectors, with a partial last tile (37) and below one tile (5), both layouts
// (column-major B takes the scalar loop) and both beta paths. A CPU without AVX2 runs the baseline each time.
TYPED_TEST(Spmm, HostInstructionSetsMatchOracle) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  if (!spk::is_host_space<TestExec>()) GTEST_SKIP() << "host back-ends only";
  struct CapGuard {
    ~CapGuard() { spk::impl::host_isa_cap().store(-1); }
  } guard;
  const std::uint64_t seed = fresh_seed();
  const Shape shape{"ragged", 300, 500, [](std::int64_t r, std::mt19937_64& g) {
                      return r % 7 == 0 ? std::int64_t{0} : static_cast<std::int64_t>(g() % 60);
                    }};
  const auto hA = random_csr<S, Off>(shape, seed);
  const double tol = tolerance<S>(longest_row(hA));
  for (const auto cap : {spk::impl::HostIsa::baseline, spk::impl::HostIsa::avx2, spk::impl::HostIsa::avx512}) {
    spk::impl::host_isa_cap().store(static_cast<int>(cap));
    const std::string isa = spk::impl::to_string(spk::impl::host_isa());
    for (const auto algo : spk::all_algorithms<spk::SpmmAlgorithm>())
      for (const int cpl : {8, 16}) {
        spk::SpmmOptions options;
        options.algorithm = algo;
        options.shape = spk::LaunchShape{};
        options.shape->columns_per_lane = cpl;
        set_partition(*options.shape, algo, 64);
        for (const int k : {5, 32, 37, 64}) {
          const std::string what = isa + " " + std::string(spk::to_string(algo)) + " cpl " + std::to_string(cpl) +
                                   " k " + std::to_string(k) + " seed " + std::to_string(seed);
          EXPECT_LE(spmm_error<Kokkos::LayoutRight>(hA, k, options, S(1.5), S(0), seed), tol) << "right " << what;
          EXPECT_LE(spmm_error<Kokkos::LayoutRight>(hA, k, options, S(-1), S(0.5), seed), tol) << "right " << what;
          EXPECT_LE(spmm_error<Kokkos::LayoutLeft>(hA, k, options, S(2), S(0), seed), tol) << "left " << what;
        }
      }
  }
}

// A full warp at a k that needs fewer lanes: the surplus lanes form groups that share each row's nonzeros and add
// their sums with shuffles (lane_groups.hpp). Rows of every length (empty, shorter and longer than the groups, one
// longer than the stage, so team_long_row too), k a multiple of the group width and not, both layouts, both beta
// paths, every algorithm. On host back-ends the vector has one lane and this is the plain path.
TYPED_TEST(Spmm, LaneGroupsShareRowsNonzeros) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  const int widest = spk::max_vector_length<TestExec>();
  const std::uint64_t seed = fresh_seed();
  const Shape shape{"mixed", 300, 700, [](std::int64_t r, std::mt19937_64& g) {
                      return r == 7 ? 650 : std::uniform_int_distribution<std::int64_t>(0, 40)(g);
                    }};
  const auto hA = random_csr<S, Off>(shape, seed);
  const double tol = tolerance<S>(longest_row(hA));
  for (const auto algo : spk::all_algorithms<spk::SpmmAlgorithm>())
    for (const int cpl : {1, 2, 4, 8}) {
      if (!spk::impl::spmm_columns_per_lane_compiled<TestExec>(cpl)) continue;
      for (const int k : {8, 20, 32}) {
        spk::SpmmOptions options;
        options.algorithm = algo;
        options.shape = spk::LaunchShape{};
        options.shape->vector_length = widest;
        options.shape->team_size = spk::is_host_space<TestExec>() ? 1 : 256 / widest;
        options.shape->columns_per_lane = cpl;
        set_partition(*options.shape, algo, algo == spk::SpmmAlgorithm::vector_row ? 3 : 256, 100);
        const std::string what = std::string(spk::to_string(algo)) + " " + spk::describe(*options.shape) + " k " +
                                 std::to_string(k) + " seed " + std::to_string(seed);
        EXPECT_LE(spmm_error<Kokkos::LayoutRight>(hA, k, options, S(2), S(0), seed), tol) << "right " << what;
        EXPECT_LE(spmm_error<Kokkos::LayoutLeft>(hA, k, options, S(-1), S(0.5), seed), tol) << "left " << what;
      }
    }
}

// Row-major B and C one element off their allocation's alignment: GPU lanes read B with packed 8/16-byte loads, so
// a B that cannot take them runs with one column per lane (spmm_columns_per_lane); every algorithm and every
// compiled columns-per-lane value still matches the oracle.
TYPED_TEST(Spmm, MisalignedRowMajorBlocksMatchOracle) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  using Unmanaged = Kokkos::View<S**, Kokkos::LayoutRight, TestDevice, Kokkos::MemoryUnmanaged>;
  const std::uint64_t seed = fresh_seed();
  const auto hA = random_csr<S, Off>(edge_shapes()[0], seed);  // 700 x 650
  const auto A = spk::copy_to<TestDevice>(hA);
  const int k = 36;
  Kokkos::View<S*, TestDevice> b_store("b_store", hA.num_cols() * k + 1), c_store("c_store", hA.num_rows() * k + 1);
  const Unmanaged B(b_store.data() + 1, hA.num_cols(), k), C(c_store.data() + 1, hA.num_rows(), k);
  auto hB = Kokkos::create_mirror_view(B);
  fill_random(hB, seed + 1);
  Kokkos::deep_copy(B, hB);
  EXPECT_EQ(spk::impl::spmm_columns_per_lane<TestExec>(B, 4), spk::is_host_space<TestExec>() ? 4 : 1);
  EXPECT_EQ(spk::impl::spmm_columns_per_lane<TestExec>(Unmanaged(b_store.data(), hA.num_cols(), k), 4), 4);
  Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> ref("ref", hA.num_rows(), k);
  spk::reference::spmm(1.0, hA, hB, 0.0, ref);
  for (const auto algo : spk::all_algorithms<spk::SpmmAlgorithm>())
    for (const int cpl : {1, 2, 4, 8, 16}) {
      if (!spk::impl::spmm_columns_per_lane_compiled<TestExec>(cpl)) continue;
      spk::SpmmOptions options;
      options.algorithm = algo;
      options.columns_per_lane = cpl;
      poison(C);
      spk::spmm(S(1), A, B, S(0), C, options);
      const auto hC = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), C);
      EXPECT_LE(relative_error(hC, ref), tolerance<S>(longest_row(hA)))
          << spk::to_string(algo) << " " << cpl << " columns per lane, seed " << seed;
    }
}

// A row split over hundreds of flat chunks: on GPUs its fix-up is a team's (long_fixups), which adds the carries in a
// fixed order, so two calls agree bit for bit; k = 37 leaves part of the last column pass idle, k = 70 takes three.
// The other rows hold 1-5 nonzeros, so chunk ends split many of them: with 500 rows their short fix-ups share the long
// one's launch, with 16,000 (at k = 70 more fix-up columns than shared_fixup_items_max) they keep their own.
TYPED_TEST(Spmm, LongFixupsMatchOracleAndRepeat) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  const std::uint64_t seed = fresh_seed();
  for (const std::int64_t rows : {500, 16000}) {
    const Shape shape{"one-long", rows, 4000,
                      [](std::int64_t r, std::mt19937_64&) -> std::int64_t { return r == 100 ? 4000 : 1 + r % 5; }};
    const auto hA = random_csr<S, Off>(shape, seed);
    const auto A = spk::copy_to<TestDevice>(hA);
    for (const int k : {37, 70}) {
      spk::SpmmOptions options;
      options.algorithm = spk::SpmmAlgorithm::flat;
      options.shape = spk::select::rule_spmm_shape<TestExec>(spk::SpmmAlgorithm::flat, spk::RowLengthStats{}, k);
      options.shape->chunk = 8;  // row 100 spans about 500 chunks
      const auto plan = spk::make_spmm_plan(A, k, options);
      EXPECT_EQ(plan.merge_path.long_fixups.extent(0), spk::is_host_space<TestExec>() ? 0u : 1u) << "k " << k;
      const std::int64_t short_columns = static_cast<std::int64_t>(plan.merge_path.fixups.extent(0)) * k;
      if (rows == 500) EXPECT_LE(short_columns, spk::impl::shared_fixup_items_max);
      if (rows == 16000 && k == 70) EXPECT_GT(short_columns, spk::impl::shared_fixup_items_max);
      const std::string what = "rows " + std::to_string(rows) + " k " + std::to_string(k) + " seed " +
                               std::to_string(seed);
      for (const S beta : {S(0), S(-0.5)}) expect_oracle_then_repeat(hA, plan, A, k, S(2), beta, seed, what);
    }
  }
}

// Row-pieces: every row cut into pieces of at most `chunk` nonzeros (one piece per row when chunk is large, one per
// nonzero when it is 1), the pieces longest first (whole rows of one length in row order within a block of 16 rows) and
// covering each row once; every column tile the vector allows (below k, not dividing k, all of it), both layouts, both
// beta paths, and two calls bitwise equal (the split rows' partials are added in a fixed order: the rows of more than
// long_fixup_carries parts by teams, the others one thread per column).
TYPED_TEST(Spmm, RowPiecesCoverRowsOnceInEveryTile) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  const std::uint64_t seed = fresh_seed();
  const Shape shape{"mixed", 400, 900, [](std::int64_t r, std::mt19937_64& g) {
                      return r == 11 ? 900 : (r % 9 == 0 ? 0 : std::uniform_int_distribution<std::int64_t>(1, 70)(g));
                    }};
  const auto hA = random_csr<S, Off>(shape, seed);
  const auto A = spk::copy_to<TestDevice>(hA);
  const double tol = tolerance<S>(longest_row(hA));
  const bool host = spk::is_host_space<TestExec>();
  const int widest = spk::max_vector_length<TestExec>(), cpl = host ? 8 : 16 / static_cast<int>(sizeof(S));
  for (const int chunk : {1, 16, 64, 1 << 30}) {  // 1 << 30: one piece a row, buckets as the longest row needs
    for (const int lanes_per_group : {1, 2, 8, widest}) {
      if (lanes_per_group > widest) continue;
      spk::SpmmOptions options;
      options.algorithm = spk::SpmmAlgorithm::row_pieces;
      options.shape = spk::select::rule_spmm_shape<TestExec>(options.algorithm, spk::RowLengthStats{}, 40);
      options.shape->vector_length = widest;
      options.shape->team_size = host ? 1 : 4;
      options.shape->columns_per_lane = cpl;
      options.shape->chunk = chunk;
      options.shape->tile_width = lanes_per_group * cpl;
      for (const int k : {5, 40}) {
        const auto plan = spk::make_spmm_plan(A, k, options);
        const auto pieces = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), plan.row_pieces.pieces);
        std::vector<std::int64_t> covered(static_cast<std::size_t>(hA.num_rows()), 0);
        const std::int64_t parts = static_cast<std::int64_t>(plan.row_pieces.partials.extent(0));
        std::vector<int> part_used(static_cast<std::size_t>(parts), 0);
        const auto column_bin = [&](const spk::impl::RowPiece& p) {
          return std::int64_t{hA.entries()(p.begin)} * std::min<std::int64_t>(hA.num_cols(), spk::impl::column_bins) /
                 hA.num_cols();
        };
        for (std::size_t i = 0; i < pieces.extent(0); ++i) {
          const auto& p = pieces(i);
          if (p.part >= 0) {  // a piece of a split row: its own partial tile
            ASSERT_LT(p.part, parts) << "piece " << i;
            ASSERT_EQ(part_used[static_cast<std::size_t>(p.part)]++, 0) << "part " << p.part;
          }
          ASSERT_LE(p.end - p.begin, chunk) << "piece " << i;
          const auto& q = i > 0 ? pieces(i - 1) : p;
          if (i > 0 && p.part >= 0) {  // split rows' parts first, by the column they start at
            ASSERT_GE(q.part, 0) << "piece " << i;
            ASSERT_GE(column_bin(p), column_bin(q)) << "piece " << i;
          }
          if (i > 0 && p.part < 0 && q.part < 0) {  // then whole rows, longest first, in order within a block
            ASSERT_LE(p.end - p.begin, q.end - q.begin) << "piece " << i;
            if (p.end - p.begin == q.end - q.begin && p.row / 16 == q.row / 16)
              ASSERT_GT(p.row, q.row) << "piece " << i;
          }
          ASSERT_GE(p.begin, static_cast<std::int64_t>(hA.row_map()(p.row)));
          ASSERT_LE(p.end, static_cast<std::int64_t>(hA.row_map()(p.row + 1)));
          covered[static_cast<std::size_t>(p.row)] += p.end - p.begin + (p.end == p.begin);
        }
        for (std::int64_t r = 0; r < hA.num_rows(); ++r) {
          const std::int64_t len = hA.row_map()(r + 1) - hA.row_map()(r);
          ASSERT_EQ(covered[static_cast<std::size_t>(r)], len > 0 ? len : 1) << "row " << r << " chunk " << chunk;
        }
        // The split rows of more than long_fixup_carries parts, in order, are the ones teams add up.
        const auto split_parts = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), plan.row_pieces.split_parts);
        const auto long_splits = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), plan.row_pieces.long_splits);
        std::vector<std::int64_t> want_long, got_long(long_splits.data(), long_splits.data() + long_splits.extent(0));
        for (std::int64_t f = 0; f + 1 < static_cast<std::int64_t>(split_parts.extent(0)); ++f)
          if (split_parts(f + 1) - split_parts(f) > spk::impl::long_fixup_carries) want_long.push_back(f);
        ASSERT_EQ(got_long, want_long) << "chunk " << chunk;
        if (chunk == 16) ASSERT_FALSE(want_long.empty());  // row 11's 900 nonzeros: 57 parts, a team's fix-up
        for (const S beta : {S(0), S(0.5)}) {
          const std::string what = spk::describe(plan.shape) + " k " + std::to_string(k) + " seed " +
                                   std::to_string(seed);
          EXPECT_LE(spmm_error<Kokkos::LayoutLeft>(hA, k, options, S(-1), beta, seed), tol) << "left " << what;
          expect_oracle_then_repeat(hA, plan, A, k, S(2), beta, seed, "right " + what);
        }
      }
    }
  }
  if (!host) {  // a tile that is not columns_per_lane times a power of two lanes within the vector
    spk::SpmmOptions bad;
    bad.algorithm = spk::SpmmAlgorithm::row_pieces;
    bad.shape = spk::select::rule_spmm_shape<TestExec>(bad.algorithm, spk::RowLengthStats{}, 40);
    bad.shape->vector_length = widest;
    bad.shape->columns_per_lane = cpl;
    for (const int tile : {3 * cpl, cpl + 1, 2 * widest * cpl}) {
      bad.shape->tile_width = tile;
      EXPECT_THROW(spk::make_spmm_plan(A, 40, bad), spk::invalid_argument) << "tile " << tile;
    }
  }
}

TEST(SpmmLaneGroups, SlotsAreTheFewestLanesCoveringTheColumns) {
  EXPECT_EQ(spk::impl::spmm_lane_slots(32, 1, 32), 32);  // one column per lane: no groups
  EXPECT_EQ(spk::impl::spmm_lane_slots(32, 4, 32), 8);   // 4 groups of 8 lanes
  EXPECT_EQ(spk::impl::spmm_lane_slots(32, 4, 20), 8);   // rounded up to a power of two
  EXPECT_EQ(spk::impl::spmm_lane_slots(32, 4, 36), 16);
  EXPECT_EQ(spk::impl::spmm_lane_slots(8, 4, 64), 8);    // k wider than the vector: several passes, one group
  EXPECT_EQ(spk::impl::spmm_lane_slots(64, 2, 32), 16);  // a wavefront
  EXPECT_EQ(spk::impl::spmm_lane_slots(1, 8, 3), 1);     // host
  EXPECT_EQ(spk::impl::spmm_lane_slot_bits(32, 4, 32), 3);
  EXPECT_EQ(spk::impl::spmm_lane_slot_bits(32, 1, 32), 5);
  EXPECT_EQ(spk::impl::spmm_lane_slot_bits(1, 8, 3), 0);
}

// Row reordering (by length, RCM) is applied and undone inside spmm: the result matches the oracle in A's order.
TYPED_TEST(Spmm, ReorderedRowsMatchOracle) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  for (const auto& shape : edge_shapes()) {
    if (shape.rows * shape.cols > 2000000) continue;
    const std::uint64_t seed = fresh_seed();
    const auto hA = random_csr<S, Off>(shape, seed);
    for (const auto reorder : {spk::RowReordering::by_length, spk::RowReordering::rcm}) {
      if (reorder == spk::RowReordering::rcm && shape.rows != shape.cols) continue;
      for (const auto algo : {spk::SpmmAlgorithm::automatic, spk::SpmmAlgorithm::row_team,
                              spk::SpmmAlgorithm::k_tiled, spk::SpmmAlgorithm::vector_row})
        for (const int small : {0, 3}) {  // 0: the selector's capacity; 3: most rows are long rows
          spk::SpmmOptions options;
          options.algorithm = algo;
          options.reorder = reorder;
          if (small) {
            options.shape = spk::select::rule_spmm_shape<TestExec>(algo == spk::SpmmAlgorithm::vector_row
                                                                       ? algo
                                                                       : spk::SpmmAlgorithm::row_team,
                                                                   spk::RowLengthStats{}, 20);
            set_partition(*options.shape, algo, small);  // vector-row: 3 rows per thread, rows over 3 to teams
          }
          const std::string what = std::string(spk::to_string(algo)) + " " + std::string(spk::to_string(reorder)) +
                                   " " + shape.name + " seed " + std::to_string(seed);
          EXPECT_LE(spmm_error<Kokkos::LayoutRight>(hA, 20, options, S(1), S(0.5), seed),
                    tolerance<S>(longest_row(hA)))
              << what;
        }
    }
  }
}

TYPED_TEST(Spmm, PlanIsReusableWithNewValuesAndDeterministic) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  const std::uint64_t seed = fresh_seed();
  auto hA = random_csr<S, Off>(edge_shapes()[6], seed);  // most nonzeros in one row
  const auto A = spk::copy_to<TestDevice>(hA);
  const int k = 40;
  Kokkos::View<S**, Kokkos::LayoutRight, TestDevice> B("B", A.num_cols(), k), C1("C1", A.num_rows(), k),
      C2("C2", A.num_rows(), k);
  auto hB = Kokkos::create_mirror_view(B);
  fill_random(hB, seed + 1);
  Kokkos::deep_copy(B, hB);
  for (const auto algo : spk::all_algorithms<spk::SpmmAlgorithm>()) {
    spk::SpmmOptions options;
    options.algorithm = algo;
    const auto plan = spk::make_spmm_plan(A, k, options);
    EXPECT_EQ(plan.algorithm, algo);
    EXPECT_GE(plan.setup_seconds, 0.0);
    // New values, same pattern: the plan still applies.
    for (std::size_t p = 0; p < hA.values().extent(0); ++p) hA.values()(p) = -hA.values()(p) * S(0.5);
    Kokkos::deep_copy(A.values(), hA.values());
    Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> ref("ref", A.num_rows(), k);
    spk::reference::spmm(1.0, hA, hB, 0.0, ref);
    poison(C1);
    poison(C2);
    spk::spmm(plan, S(1), A, B, S(0), C1);
    spk::spmm(plan, S(1), A, B, S(0), C2);
    auto h1 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), C1);
    auto h2 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), C2);
    EXPECT_LE(relative_error(h1, ref), tolerance<S>(longest_row(hA))) << spk::to_string(algo) << " seed " << seed;
    for (std::size_t i = 0; i < h1.extent(0); ++i)
      for (int j = 0; j < k; ++j)
        ASSERT_EQ(std::memcmp(&h1(i, j), &h2(i, j), sizeof(S)), 0) << spk::to_string(algo) << " " << i << "," << j;
  }
}

TEST(SpmmArguments, ShapesAndOptionsTheAlgorithmCannotRunThrow) {
  const auto A = spk::copy_to<TestDevice>(random_csr<double, int>(edge_shapes()[0], 1));  // 700 x 650
  const auto square = spk::copy_to<TestDevice>(random_csr<double, int>(edge_shapes()[4], 1));
  spk::SpmmOptions bad;
  bad.shape = spk::LaunchShape{};
  for (const auto algo : spk::all_algorithms<spk::SpmmAlgorithm>()) {
    bad.algorithm = algo;  // stage capacity and chunk 0; vector-row: no rows per thread
    set_partition(*bad.shape, algo, 0);
    EXPECT_THROW(spk::make_spmm_plan(A, 8, bad), spk::invalid_argument) << spk::to_string(algo);
  }
  bad.algorithm = spk::SpmmAlgorithm::row_team;
  bad.shape = spk::select::rule_spmm_shape<TestExec>(bad.algorithm, spk::RowLengthStats{}, 8);
  EXPECT_NO_THROW(spk::make_spmm_plan(A, 8, bad));
  bad.shape->pipelined = true;  // an SpMV stream option
  EXPECT_THROW(spk::make_spmm_plan(A, 8, bad), spk::invalid_argument);
  bad.shape->pipelined = false;
  bad.shape->balanced = true;  // an SpMV stream option too
  EXPECT_THROW(spk::make_spmm_plan(A, 8, bad), spk::invalid_argument);
  spk::SpmmOptions options;
  options.columns_per_lane = 3;  // never compiled
  EXPECT_THROW(spk::make_spmm_plan(A, 8, options), spk::invalid_argument);
  options.columns_per_lane = 0;
  options.algorithm = spk::SpmmAlgorithm::flat;
  options.reorder = spk::RowReordering::by_length;
  EXPECT_THROW(spk::make_spmm_plan(square, 8, options), spk::invalid_argument);
  options.algorithm = spk::SpmmAlgorithm::row_team;
  options.reorder = spk::RowReordering::rcm;
  EXPECT_THROW(spk::make_spmm_plan(A, 8, options), spk::invalid_argument);  // not square
  EXPECT_NO_THROW(spk::make_spmm_plan(square, 8, options));
  options.algorithm = spk::SpmmAlgorithm::automatic;  // automatic with reordering never lands on flat
  EXPECT_NE(spk::make_spmm_plan(square, 8, options).algorithm, spk::SpmmAlgorithm::flat);
  if (!spk::is_host_space<TestExec>()) {
    spk::SpmmOptions huge;
    huge.algorithm = spk::SpmmAlgorithm::row_team;
    huge.shape = spk::select::rule_spmm_shape<TestExec>(huge.algorithm, spk::RowLengthStats{}, 8);
    huge.shape->stage_capacity = 1 << 24;  // more scratch than any GPU gives a team
    EXPECT_THROW(spk::make_spmm_plan(A, 8, huge), spk::invalid_argument);
  }
  for (const auto r : {spk::RowReordering::none, spk::RowReordering::by_length, spk::RowReordering::rcm})
    EXPECT_EQ(spk::parse_algorithm<spk::RowReordering>(spk::to_string(r)), r);
  for (const auto a : algorithms_and_automatic())
    EXPECT_EQ(spk::parse_algorithm<spk::SpmmAlgorithm>(spk::to_string(a)), a);
  EXPECT_THROW(spk::parse_algorithm<spk::SpmmAlgorithm>("row_team"), spk::invalid_argument);
}

TEST(SpmmSelector, NearestTableEntryByWidthFeaturesAndPrecision) {
  using spk::SpmmAlgorithm;
  using spk::tuning::SpmmTuningEntry;
  spk::LaunchShape narrow, wide;
  narrow.vector_length = 32;
  wide.vector_length = 32;
  wide.columns_per_lane = 8;
  const SpmmTuningEntry table[] = {
      {"regular-32", 4, 32, 1e6, 16, 1, 17, SpmmAlgorithm::row_team, narrow, 0},
      {"regular-256", 4, 256, 1e6, 16, 1, 17, SpmmAlgorithm::k_tiled, wide, 0},
      {"tail-32", 4, 32, 1e6, 16, 500, 200000, SpmmAlgorithm::flat, narrow, 0},
      {"regular-32-double", 8, 32, 1e6, 16, 1, 17, SpmmAlgorithm::row_team, narrow, 0},
      {},
  };
  spk::RowLengthStats regular;
  regular.rows = 2000000;
  regular.mean_length = 15;
  regular.stddev_length = 2;
  regular.max_length = 20;
  spk::RowLengthStats tail = regular;
  tail.stddev_length = 400;
  tail.max_length = 150000;
  using spk::select::nearest_spmm_entry;
  EXPECT_STREQ(nearest_spmm_entry(table, regular, 32, 4, SpmmAlgorithm::automatic)->matrix, "regular-32");
  EXPECT_STREQ(nearest_spmm_entry(table, regular, 200, 4, SpmmAlgorithm::automatic)->matrix, "regular-256");
  EXPECT_STREQ(nearest_spmm_entry(table, tail, 32, 4, SpmmAlgorithm::automatic)->matrix, "tail-32");
  EXPECT_STREQ(nearest_spmm_entry(table, regular, 32, 8, SpmmAlgorithm::automatic)->matrix, "regular-32-double");
  EXPECT_STREQ(nearest_spmm_entry(table, regular, 32, 4, SpmmAlgorithm::flat)->matrix, "tail-32");
  // A shape with 8 columns per lane is not offered for k = 4, and nothing swept for it leaves the rules to decide;
  // at k = 8 its lanes form groups sharing the nonzeros (lane_groups.hpp), so it is.
  EXPECT_STREQ(nearest_spmm_entry(table, regular, 4, 4, SpmmAlgorithm::automatic)->matrix, "regular-32");
  EXPECT_EQ(nearest_spmm_entry(table, regular, 4, 4, SpmmAlgorithm::k_tiled), nullptr);
  EXPECT_STREQ(nearest_spmm_entry(table, regular, 8, 4, SpmmAlgorithm::k_tiled)->matrix, "regular-256");

  // Size counts: a 4000-row matrix with 200k nonzeros (pushpull) is nearer a small uniform matrix than a graph
  // with a similar spread but 8x the nonzeros (Cornell5), whose shapes leave most of a GPU idle on it.
  const SpmmTuningEntry sized[] = {
      {"large-graph", 4, 32, 18660, 84.8, 86.0, 3156, SpmmAlgorithm::flat, narrow, 0},
      {"small-uniform", 4, 32, 4096, 64, 0, 64, SpmmAlgorithm::row_team, narrow, 0},
      {},
  };
  spk::RowLengthStats small;
  small.rows = 4000;
  small.mean_length = 49.1;
  small.nnz = 196305;
  small.stddev_length = 46.5;
  small.max_length = 124;
  EXPECT_STREQ(nearest_spmm_entry(sized, small, 32, 4, SpmmAlgorithm::automatic)->matrix, "small-uniform");
}

TEST(SpmmSelector, RulesCoverKWithLanesAndColumnsPerLane) {
  spk::RowLengthStats s;
  s.rows = 1000;
  s.mean_length = 10;
  s.max_length = 20;
  EXPECT_EQ(spk::select::rule_spmm_algorithm(s), spk::SpmmAlgorithm::row_team);
  s.max_length = 100000;
  EXPECT_EQ(spk::select::rule_spmm_algorithm(s), spk::SpmmAlgorithm::flat);
  for (const int k : {1, 3, 32, 37, 256, 1024}) {
    const auto shape = spk::select::rule_spmm_shape<TestExec>(spk::SpmmAlgorithm::row_team, s, k);
    EXPECT_TRUE(spk::impl::spmm_columns_per_lane_compiled<TestExec>(shape.columns_per_lane)) << k;
    EXPECT_LE(shape.vector_length * shape.columns_per_lane, std::max(32, 2 * spk::pow2_ceil(k))) << k;
    EXPECT_NO_THROW(spk::check_launch_shape<TestExec>(shape, "test")) << k;
  }
}

// The selector's guard against a row that one team would hold while the GPU idles (spmm_row_tail).
TEST(SpmmSelector, OneRowHoldingMoreThanOnePercentTakesARowSplittingAlgorithmOnGpus) {
  spk::RowLengthStats arrow;  // arrow.mtx: one row holds a third of the nonzeros
  arrow.rows = arrow.cols = 46500;
  arrow.nnz = 139498;
  arrow.mean_length = 3;
  arrow.stddev_length = 215;
  arrow.max_length = 46500;
  spk::RowLengthStats rmat = arrow;  // R-MAT 18 8: a heavy tail, but its longest row is 0.5% of the nonzeros
  rmat.rows = rmat.cols = 262144;
  rmat.nnz = 2016847;
  rmat.mean_length = 7.7;
  rmat.stddev_length = 57;
  rmat.max_length = 9447;
  EXPECT_TRUE(spk::select::spmm_row_tail(arrow));
  EXPECT_FALSE(spk::select::spmm_row_tail(rmat));
  const auto chosen = spk::select::choose_spmm<TestExec>(spk::SpmmAlgorithm::automatic, arrow, 32, 4);
  if (!spk::is_host_space<TestExec>())  // flat and row-pieces cut long rows; the others leave one to a team
    EXPECT_TRUE(chosen.algorithm == spk::SpmmAlgorithm::flat || chosen.algorithm == spk::SpmmAlgorithm::row_pieces)
        << spk::to_string(chosen.algorithm);
  // A forced algorithm is left alone.
  EXPECT_EQ(spk::select::choose_spmm<TestExec>(spk::SpmmAlgorithm::row_team, arrow, 32, 4).algorithm,
            spk::SpmmAlgorithm::row_team);
}

// Every entry of this back-end's table, in both precisions, gives a shape the plan accepts (an fp32 entry's flat
// team once needed more scratch than a GPU gives in fp64); and a shape that needs too much is shrunk to fit.
TEST(SpmmSelector, TableChoicesFitTheScratchInBothPrecisions) {
  for (const auto* e = spk::select::spmm_table<TestExec>(); e && e->matrix; ++e)
    for (const int bytes : {4, 8}) {
      spk::RowLengthStats s;
      s.rows = static_cast<std::int64_t>(e->rows);
      s.mean_length = e->mean;
      s.stddev_length = e->stddev;
      s.max_length = static_cast<std::int64_t>(e->max);
      const auto c = spk::select::choose_spmm<TestExec>(spk::SpmmAlgorithm::automatic, s, e->k, bytes);
      EXPECT_LE(spk::select::spmm_scratch_bytes(c.algorithm, c.shape, bytes, 4, s.max_length),
                spk::select::spmm_scratch_max<TestExec>())
          << e->matrix << " k " << e->k << " bytes " << bytes;
    }
  spk::LaunchShape huge;
  huge.team_size = spk::is_host_space<TestExec>() ? 1 : 64;
  huge.chunk = 1 << 26;  // 64 Mi nonzeros per thread: more than any back-end's team scratch (1 GiB on hosts)
  const auto fitted = spk::select::fit_spmm_scratch<TestExec>(spk::SpmmAlgorithm::flat, huge, 8, 4, 1);
  EXPECT_LE(spk::select::spmm_scratch_bytes(spk::SpmmAlgorithm::flat, fitted, 8, 4, 1),
            spk::select::spmm_scratch_max<TestExec>());
  EXPECT_GE(fitted.chunk, 1);
}

TEST(SpmmArguments, DimensionMismatchesThrow) {
  const auto A = spk::copy_to<TestDevice>(random_csr<double, int>(edge_shapes()[0], 1));  // 700 x 650
  Kokkos::View<double**, Kokkos::LayoutRight, TestDevice> B("B", 650, 8), C("C", 700, 8);
  Kokkos::View<double**, Kokkos::LayoutRight, TestDevice> bad_B("bad_B", 700, 8), bad_C("bad_C", 700, 9);
  EXPECT_NO_THROW(spk::spmm(1.0, A, B, 0.0, C));
  EXPECT_THROW(spk::spmm(1.0, A, bad_B, 0.0, C), spk::invalid_argument);
  EXPECT_THROW(spk::spmm(1.0, A, B, 0.0, bad_C), spk::invalid_argument);
  // A row stride of 4 GiB or more, which the kernels' 32-bit row offsets cannot step, is refused before any kernel
  // reads B (never dereferenced).
  Kokkos::View<double**, Kokkos::LayoutStride, TestDevice, Kokkos::MemoryUnmanaged> far_rows(
      B.data(), Kokkos::LayoutStride(650, std::size_t(1) << 29, 8, 1));
  EXPECT_THROW(spk::spmm(1.0, A, far_rows, 0.0, C), spk::invalid_argument);
  const auto plan = spk::make_spmm_plan(A, 4);
  EXPECT_THROW(spk::spmm(plan, 1.0, A, B, 0.0, C), spk::invalid_argument);
  EXPECT_THROW(spk::make_spmm_plan(A, -1), spk::invalid_argument);
}
