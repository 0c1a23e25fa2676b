// spmv and spmm on an execution space instance the caller passes: every kernel of a call goes to that instance (the
// device id Kokkos Tools reports for each launch), the call neither fences nor copies, and the results match the
// oracle. On GPUs the instance is a stream of its own (partition_space), so a launch on the default stream would show
// another id; host back-ends give every instance the same id, and there the test checks the results and the fences
// (Kokkos 4 reports fences to tools; Kokkos 3.4 reports none).
#include <spk/reference/reference.hpp>
#include <spk/spmm.hpp>
#include <spk/spmv.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "test_common.hpp"
#include "test_matrices.hpp"
#include "test_spmm_common.hpp"
#include "test_spmv_common.hpp"

using namespace spk_test;

namespace {

// What the kernels launched, the fences and the copies while a LaunchRecorder lives (Kokkos Tools callbacks).
struct LaunchLog {
  std::vector<std::uint32_t> devices;  // one per parallel_for / reduce / scan
  std::vector<std::string> fences;     // fences other than the one Kokkos takes for a tool before each event
  int copies = 0;                      // deep copies
};
LaunchLog& launch_log() {
  static LaunchLog log;
  return log;
}

class LaunchRecorder {
 public:
  LaunchRecorder() {
    launch_log() = LaunchLog{};
    namespace kt = Kokkos::Tools::Experimental;
    const auto launch = [](const char*, const std::uint32_t device, std::uint64_t*) {
      launch_log().devices.push_back(device);
    };
    kt::set_begin_parallel_for_callback(launch);
    kt::set_begin_parallel_reduce_callback(launch);
    kt::set_begin_parallel_scan_callback(launch);
    kt::set_begin_fence_callback([](const char* name, const std::uint32_t, std::uint64_t*) {
      // Kokkos 4 fences the device before each tool event when a tool asks for it (the default for callbacks set
      // at run time): that fence is the tool's, not the call's.
      if (std::string(name).find("Profile Tool Fence") == std::string::npos) launch_log().fences.push_back(name);
    });
    kt::set_begin_deep_copy_callback([](Kokkos::Tools::SpaceHandle, const char*, const void*,
                                        Kokkos::Tools::SpaceHandle, const char*, const void*,
                                        std::uint64_t) { ++launch_log().copies; });
  }
  ~LaunchRecorder() {
    namespace kt = Kokkos::Tools::Experimental;
    kt::set_begin_parallel_for_callback(nullptr);
    kt::set_begin_parallel_reduce_callback(nullptr);
    kt::set_begin_parallel_scan_callback(nullptr);
    kt::set_begin_fence_callback(nullptr);
    kt::set_begin_deep_copy_callback(nullptr);
  }
  LaunchRecorder(const LaunchRecorder&) = delete;
  LaunchRecorder& operator=(const LaunchRecorder&) = delete;
};

// An instance other than the default where the back-end has them (Kokkos 4's partition_space: a new CUDA/HIP stream).
TestExec other_instance() {
#if KOKKOS_VERSION >= 40000
  return Kokkos::Experimental::partition_space(TestExec(), 1, 1)[1];
#else
  return TestExec();
#endif
}

// Runs call() with the recorder on: at least one launch, every launch on `space`, no fence, no copy.
template <class Call>
void expect_only_on(const TestExec& space, const Call& call, const std::string& what) {
  {
    const LaunchRecorder recorder;
    call();
  }
  const LaunchLog log = launch_log();
  const std::uint32_t id = Kokkos::Tools::Experimental::device_id(space);
  EXPECT_FALSE(log.devices.empty()) << what << ": no kernel was launched";
  for (const std::uint32_t d : log.devices) EXPECT_EQ(d, id) << what << ": a kernel went to another instance";
  EXPECT_TRUE(log.fences.empty()) << what << ": the call fenced (" << (log.fences.empty() ? "" : log.fences[0])
                                  << ")";
  EXPECT_EQ(log.copies, 0) << what << ": the call copied";
  space.fence();
}

template <class T>
class ExecInstance : public ::testing::Test {};
TYPED_TEST_SUITE(ExecInstance, ScalarOffsetTypes);

// f(name, seed, hA, A) for edge shapes with nonzeros, fresh seeds: short rows, empty rows, one row holding most
// nonzeros (flat's and row-pieces' split rows).
template <class S, class Off, class F>
void for_each_matrix(const F& f) {
  for (const auto& shape : edge_shapes()) {
    if (shape.name != "random" && shape.name != "empty_rows" && shape.name != "most_in_one_row" && shape.name != "tall")
      continue;
    const std::uint64_t seed = fresh_seed();
    const auto hA = random_csr<S, Off>(shape, seed);
    f(shape.name, seed, hA, spk::copy_to<TestDevice>(hA));
  }
}

}  // namespace

TYPED_TEST(ExecInstance, SpmvRunsEveryAlgorithmOnTheCallersInstance) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  const TestExec space = other_instance();
  for_each_matrix<S, Off>([&](const std::string& name, std::uint64_t seed, const auto& hA, const auto& A) {
    const auto in = random_spmv_inputs(hA, seed);
    const S alpha = S(1.5), beta = S(-0.5);
    const auto ref = oracle_y(hA, alpha, in.hx, beta, in.hy0);
    Kokkos::View<S*, TestDevice> y("y", hA.num_rows());
    std::vector<std::pair<spk::SpmvAlgorithm, std::optional<spk::LaunchShape>>> runs;
    for (const auto algo : spk::all_algorithms<spk::SpmvAlgorithm>()) runs.push_back({algo, std::nullopt});
    for (const auto& [algo, s] : small_partition_shapes({3})) runs.push_back({algo, s});  // fix-ups, pieces
    for (const auto& [algo, launch] : runs)
      for (const auto grouping : {spk::ColumnGrouping::off, spk::ColumnGrouping::on}) {
        if (grouping == spk::ColumnGrouping::on && !spk::select::reads_packed_columns(algo)) continue;
        spk::SpmvOptions options;
        options.algorithm = algo;
        options.shape = launch;
        options.grouping = grouping;  // on: each call first gathers x's grouped entries
        const auto plan = spk::make_spmv_plan(A, options);
        Kokkos::deep_copy(y, in.y0);
        const std::string what = run_name(name, algo, launch, beta, seed) +
                                 (grouping == spk::ColumnGrouping::on ? ", grouped columns" : "");
        expect_only_on(space, [&] { spk::spmv(space, plan, alpha, A, in.x, beta, y); }, what);
        EXPECT_LE(relative_error(host_copy(y), ref), tolerance<S>(longest_row(hA))) << what;
      }
  });
}

TYPED_TEST(ExecInstance, SpmmRunsEveryAlgorithmOnTheCallersInstance) {
  using S = typename TypeParam::scalar;
  using Off = typename TypeParam::offset;
  const TestExec space = other_instance();
  for_each_matrix<S, Off>([&](const std::string& name, std::uint64_t seed, const auto& hA, const auto& A) {
    for (const int k : {3, 32, 70}) {
      const S alpha = S(2);
      const auto c = make_spmm_case<Kokkos::LayoutRight>(hA, k, alpha, S(0), seed);  // C starts NaN
      Kokkos::View<S**, Kokkos::LayoutRight, TestDevice> C("C", hA.num_rows(), k);
      for (const auto algo : spk::all_algorithms<spk::SpmmAlgorithm>())
        for (const int chunk : {0, 4}) {  // 4: flat's fix-ups (long ones on GPUs) and row-pieces' split rows
          if (chunk > 0 && algo != spk::SpmmAlgorithm::flat && algo != spk::SpmmAlgorithm::row_pieces) continue;
          spk::SpmmOptions options;
          options.algorithm = algo;
          if (chunk > 0) {
            options.shape = spk::select::rule_spmm_shape<TestExec>(algo, spk::RowLengthStats{}, k);
            options.shape->chunk = chunk;
          }
          const auto plan = spk::make_spmm_plan(A, k, options);
          Kokkos::deep_copy(C, c.start);  // beta == 0 never reads C
          const std::string what = name + ", " + std::string(spk::to_string(algo)) + ", k " +
                                   std::to_string(k) + ", chunk " + std::to_string(chunk) + ", seed " +
                                   std::to_string(seed);
          expect_only_on(space, [&] { spk::spmm(space, plan, alpha, A, c.B, S(0), C); }, what);
          EXPECT_LE(relative_error(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), C), c.ref),
                    tolerance<S>(longest_row(hA)))
              << what;
        }
    }
  });
}
