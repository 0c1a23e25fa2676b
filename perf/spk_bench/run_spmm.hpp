#pragma once
// SpMM C = A B for each --k, B and C dense in the --layout: spk's algorithms and the yardsticks (Kokkos Kernels:
// rank-2 SpMV; GraphBLAS: GrB_mxm with B a full matrix; Eigen: sparse * dense), each checked against the oracle,
// then timed (beta = 0). Instantiated by run_spmm_float.cpp and run_spmm_double.cpp (two translation units, so a
// parallel build compiles the heavy kernel instantiations side by side).
#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

#include <spk/spmm.hpp>

#include "runner.hpp"
#include "spmm_reference.hpp"
#include "streams.hpp"

#ifdef SPK_HAVE_KOKKOSKERNELS
#include <kokkoskernels/kokkoskernels_adapter.hpp>
#endif

namespace spk_bench {
namespace {

template <class S, class Off, class Layout>
void run_spmm_k(const MatrixCase<S, Off>& m, int k, RunContext& ctx) {
  using Dense = Kokkos::View<S**, Layout, Device>;
  const Options& o = ctx.options;
  const MatrixShape shape = shape_of(m);
  const double bytes = spmm_bytes(shape, k), flops = spmm_flops(shape, k);
  const std::string layout = std::is_same_v<Layout, Kokkos::LayoutRight> ? "right" : "left";

  std::string check_note;  // rows checked in blocks of rows say so (a failed check's message takes its place)
  const auto new_row = [&](const std::string& algo, bool yardstick) {
    Row r = base_row(m, "spmm", ctx);
    r.k = k;
    r.layout = layout;
    r.algo = algo;
    r.yardstick = yardstick;
    r.message = check_note;
    return r;
  };
  // The check must fit in the host memory it may hold: whole (the oracle's C and a host copy of each result) or,
  // failing that, in blocks of rows (spmm_reference.hpp); a width where neither fits is skipped with a note.
  using HostB = Kokkos::View<S**, Layout, Kokkos::HostSpace>;
  using Reference = SpmmReference<S, Off, HostB>;
  const std::int64_t limit = check_memory_bytes(o.check_memory_mib);
  const std::int64_t rows = m.host.num_rows(), cols = m.host.num_cols();
  if (Reference::whole_bytes(rows, cols, k) > limit && Reference::block_rows_within(rows, cols, k, limit) == 0) {
    Row r = new_row("-", false);
    r.check = "skipped";
    r.message = "checking k = " + std::to_string(k) + " needs more than " + std::to_string(limit >> 20) + " MiB (" +
                check_memory_source(o.check_memory_mib) + "), even in blocks of rows";
    ctx.add(std::move(r));
    return;
  }
  HostB hB("spk_bench::B", m.host.num_cols(), k);
  fill_random(hB, o.seed, 2);
  Dense B("spk_bench::B", m.host.num_cols(), k);
  Kokkos::deep_copy(B, hB);
  Dense C("spk_bench::C", m.host.num_rows(), k);
  const Reference ref(m.host, hB, limit);
  const auto hC = host_copy_for(C, ref);
  const auto checker = oracle_checker(C, hC, ref, tolerance<S>(m.max_row_length));
  if (!ref.whole()) check_note = "checked in blocks of " + std::to_string(ref.block_rows()) + " rows";
  // The vendor adapters' 64-bit copy of A's column indices (64-bit offsets only). It lives as long as this run:
  // under --interleave the adapters' operations, which hold its raw pointer, are timed at the end.
  Kokkos::View<std::int64_t*, Device> cols64;

  // One spk row: plan (plan_for_row: timed apart from the calls), check against the oracle, time.
  const auto spk_row = [&](const std::string& name, const spk::SpmmOptions& options, bool sweep) {
    Row r = new_row(name, false);
    try {
      using Plan = decltype(spk::make_spmm_plan(m.device, k, options));
      const auto plan =  // shared: an --interleave call outlives this row
          std::make_shared<const Plan>(plan_for_row(r, [&]() { return spk::make_spmm_plan(m.device, k, options); }));
      if (plan->reorder != spk::RowReordering::none) {
        char cost[64];
        std::snprintf(cost, sizeof cost, " order %.3g ms", plan->reorder_seconds * 1e3);
        r.chosen += "; " + std::string(spk::to_string(plan->reorder)) + cost;
      }
      const auto call = [plan, &m, B, C]() { spk::spmm(*plan, S(1), m.device, B, S(0), C); };
      check_then_time(r, call, checker, ctx, bytes, flops);
      if (sweep && r.check == "ok")
        ctx.add_sweep({m.name, static_cast<int>(sizeof(S)), k, plan->stats,
                       enumerator(plan->algorithm, "SpmmAlgorithm"), plan->shape, r.time_ms, r.gflops});
    } catch (const std::exception& e) {
      r.check = "error";
      r.message = e.what();
    }
    ctx.add(std::move(r));
  };
  const auto reorder = spk::parse_algorithm<spk::RowReordering>(o.reorder);
  // The options of a named spk algorithm with the run's row reordering.
  const auto named_options = [&](const std::string& name) {
    spk::SpmmOptions options;
    options.algorithm = spk::parse_algorithm<spk::SpmmAlgorithm>(name);
    options.reorder = reorder;
    return options;
  };
  for (const auto& name : o.spk_algorithms[1]) spk_row(name, named_options(name), false);
  const double mean_length =
      static_cast<double>(shape.nnz) / static_cast<double>(std::max<std::int64_t>(1, shape.rows));
  if (!o.sweep_path.empty())
    for (const auto& [algorithm, launch] : spmm_sweep_candidates<ExecSpace>(k, sizeof(S), mean_length)) {
      spk::SpmmOptions options;
      options.algorithm = algorithm;
      options.shape = launch;
      if (algorithm != spk::SpmmAlgorithm::flat) options.reorder = reorder;  // flat refuses a row order
      spk_row(std::string(spk::to_string(algorithm)), options, true);
    }

#ifdef SPK_HAVE_KOKKOSKERNELS
  if (ctx.has_yardstick("kokkoskernels")) {
    namespace kk = spk::yardstick::kokkoskernels;
    add_yardstick_row(
        ctx, new_row("kokkoskernels", true), kk::spmm_algorithms(),
        [&](const std::string& alg) {
          return std::make_shared<kk::Spmv<DeviceMatrix<S, Off>, Dense, Dense>>(m.device, B, C, alg);
        },
        checker, bytes, flops);
  }
#endif

  for_each_gpu_library(ctx, [&](auto library) {
    using L = decltype(library);
    using Dense = typename L::DenseArrays;
    add_yardstick_row(
        ctx, new_row(L::name, true), L::spmm_algorithms(),
        [&](const std::string& alg) {
          return std::make_shared<typename L::Spmm>(*L::handle(ctx.vendors),
                                                    describe_csr<typename L::CsrArrays>(m.device, cols64),
                                                    describe_dense<Dense>(B), describe_dense<Dense>(C), alg);
        },
        checker, bytes, flops);
  });

#ifdef SPK_HAVE_GRAPHBLAS
  if (ctx.has_yardstick("graphblas") && ctx.vendors.graphblas) {
    namespace gb = spk::yardstick::graphblas;
    const gb::DenseArrays b = describe_dense<gb::DenseArrays>(hB), c = describe_dense<gb::DenseArrays>(C);
    add_yardstick_row(
        ctx, new_row("graphblas", true), gb::spmm_algorithms(),
        [&](const std::string& alg) { return std::make_shared<gb::Spmm>(gb::csr_arrays(m.host), b, alg); }, checker,
        bytes, flops, [&](const gb::Spmm& op) { op.copy_result(c); });
  }
#endif

#ifdef SPK_HAVE_EIGEN
  if (ctx.has_yardstick("eigen")) {
    using EigenOp = spk::yardstick::eigen::Spmv<HostMatrix<S, Off>, Dense, Dense>;
    add_yardstick_row(
        ctx, new_row("eigen", true), spk::yardstick::eigen::spmm_algorithms(),
        [&](const std::string& alg) { return std::make_shared<EigenOp>(m.host, B, C, alg); }, checker, bytes, flops);
  }
#endif
  // --streams N: spk's algorithms and the vendor library again, N calls at once on N instances (streams.hpp).
  if (o.streams > 1) {
    const auto instances = std::make_shared<const Instances>(o.streams, ctx.vendors);
    const std::string op = "spmm x" + std::to_string(o.streams);
    const auto Cs = round_outputs(C, o.streams);
    const auto round_check = round_checker(Cs, ref, tolerance<S>(m.max_row_length));
    const double round_bytes = bytes * o.streams, round_flops = flops * o.streams;
    const auto round_row = [&](const std::string& algo, bool yardstick) {
      Row r = new_row(algo, yardstick);
      r.op = op;
      return r;
    };
    for (const auto& name : o.spk_algorithms[1]) {
      const spk::SpmmOptions options = named_options(name);
      add_spk_round_row(
          ctx, round_row(name, false), instances, [&]() { return spk::make_spmm_plan(m.device, k, options); },
          [&m, B, Cs](int i, const ExecSpace& space, const auto& plan) {
            spk::spmm(space, plan, S(1), m.device, B, S(0), Cs[i]);
          },
          round_check, round_bytes, round_flops);
    }
    for_each_gpu_library(ctx, [&](auto library) {
      using L = decltype(library);
      using Dense = typename L::DenseArrays;
      add_yardstick_round_row(
          ctx, round_row(L::name, true), instances, L::spmm_algorithms(),
          [&](const std::string& alg, int i) {
            return std::make_shared<typename L::Spmm>(L::handle(*instances, i),
                                                      describe_csr<typename L::CsrArrays>(m.device, cols64),
                                                      describe_dense<Dense>(B), describe_dense<Dense>(Cs[i]), alg);
          },
          round_check, round_bytes, round_flops);
    });
  }
  if (o.interleave) time_interleaved(ctx, bytes, flops);
}

}  // namespace

template <class S, class Off>
void run_spmm(const MatrixCase<S, Off>& m, RunContext& ctx) {
  for (const int k : ctx.options.ks) {
    if (ctx.options.layout == "left")
      run_spmm_k<S, Off, Kokkos::LayoutLeft>(m, k, ctx);
    else
      run_spmm_k<S, Off, Kokkos::LayoutRight>(m, k, ctx);
  }
}

}  // namespace spk_bench
