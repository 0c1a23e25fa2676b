// SpMV y = A x: spk's algorithms and the yardsticks, each checked against the oracle, then timed (beta = 0).
#include <algorithm>
#include <memory>
#include <vector>

#include <spk/spmv.hpp>

#include "gather_bound.hpp"
#include "runner.hpp"
#include "streams.hpp"

#ifdef SPK_HAVE_KOKKOSKERNELS
#include <kokkoskernels/kokkoskernels_adapter.hpp>
#endif

namespace spk_bench {

template <class S, class Off>
void run_spmv(const MatrixCase<S, Off>& m, RunContext& ctx) {
  using Vector = Kokkos::View<S*, Device>;
  const Options& o = ctx.options;
  const MatrixShape shape = shape_of(m);
  const double bytes = spmv_bytes(shape), flops = spmv_flops(shape);

  Kokkos::View<S*, Kokkos::HostSpace> hx("spk_bench::x", m.host.num_cols());
  fill_random(hx, o.seed, 1);
  Vector x("spk_bench::x", m.host.num_cols());
  Kokkos::deep_copy(x, hx);
  Vector y("spk_bench::y", m.host.num_rows());
  const auto hy = Kokkos::create_mirror_view(y);
  const auto ref = oracle_spmv(m.host, hx);
  const auto checker = oracle_checker(y, hy, ref, tolerance<S>(m.max_row_length));
  // The vendor adapters' 64-bit copy of A's column indices (64-bit offsets only). It lives as long as this run:
  // under --interleave the adapters' operations, which hold its raw pointer, are timed at the end.
  Kokkos::View<std::int64_t*, Device> cols64;

  // One spk row: plan (timed separately), check against the oracle, time. Returns the plan's choice when it ran.
  const auto spk_row = [&](const std::string& name, const spk::SpmvOptions& options, bool sweep) {
    Row r = base_row(m, "spmv", ctx);
    r.algo = name;
    try {
      using Plan = decltype(spk::make_spmv_plan(m.device, options));
      const auto plan =  // shared: an --interleave call outlives this row
          std::make_shared<const Plan>(plan_for_row(r, [&]() { return spk::make_spmv_plan(m.device, options); }));
      if (plan->columns.packed) {
        char cost[64];
        std::snprintf(cost, sizeof cost, "; packed columns in %.3g ms", plan->packing_seconds * 1e3);
        r.chosen += cost;
      }
      if (plan->grouped.grouped) {
        char cost[128];
        std::snprintf(cost, sizeof cost, "; grouped columns in %.3g ms (%lld grouped, %lld hubs, %.0f%% of nonzeros)",
                      plan->grouping_seconds * 1e3, static_cast<long long>(plan->grouped.source.extent(0)),
                      static_cast<long long>(plan->grouped.hubs), plan->grouped.hub_share * 100);
        r.chosen += cost;
      }
      if (plan->far_columns) r.chosen += "; x read ahead (far columns)";
      const auto call = [plan, &m, x, y]() { spk::spmv(*plan, S(1), m.device, x, S(0), y); };
      check_then_time(r, call, checker, ctx, bytes, flops);
      if (sweep && r.check == "ok")
        ctx.add_sweep({m.name, static_cast<int>(sizeof(S)), 0, plan->stats,
                       enumerator(plan->algorithm, "SpmvAlgorithm"), plan->shape, r.time_ms, r.gbs,
                       plan->columns.packed});
    } catch (const std::exception& e) {
      r.check = "error";
      r.message = e.what();
    }
    ctx.add(std::move(r));
  };
  const auto packing = spk::parse_algorithm<spk::ColumnPacking>(o.pack_columns);
  const auto grouping = spk::parse_algorithm<spk::ColumnGrouping>(o.group_columns);
  // The options of a named spk algorithm with the run's column packing and grouping.
  const auto named_options = [&](const std::string& name) {
    spk::SpmvOptions options;
    options.algorithm = spk::parse_algorithm<spk::SpmvAlgorithm>(name);
    options.packing = packing;
    options.grouping = grouping;
    return options;
  };
  for (const auto& name : o.spk_algorithms[0]) spk_row(name, named_options(name), false);
  // The sweep tries each candidate that can read packed columns both ways where automatic could pack (GPUs, large
  // matrices whose runs fit 16 bits), so the table records whether its winner packed; --pack-columns off|on sweeps
  // one way only.
  const bool both_ways = !o.sweep_path.empty() && packing == spk::ColumnPacking::automatic &&
                         !spk::is_host_space<ExecSpace>() &&
                         static_cast<std::int64_t>(m.host.nnz()) >= spk::select::packed_columns_min_nnz &&
                         spk::impl::pack_columns(m.device, false).packed;
  if (!o.sweep_path.empty())
    for (const auto& [algorithm, shape] : spmv_sweep_candidates<ExecSpace>(sizeof(S))) {
      using spk::ColumnPacking;
      // stream's pieces change nothing where no row is longer than the stage
      if (algorithm == spk::SpmvAlgorithm::stream && shape.chunk > 0 && m.max_row_length <= shape.stage_capacity)
        continue;
      try {  // nor a shape the plan refuses here (a balanced 32 KiB fp64 stage with its lanes' carries on a GPU)
        spk::detail::check_spmv_shape<std::decay_t<decltype(m.device)>>(algorithm, shape);
      } catch (const spk::invalid_argument&) {
        continue;
      }
      std::vector<ColumnPacking> ways{ColumnPacking::off};  // automatic on a host back-end or a small matrix
      if (spk::select::reads_packed_columns(algorithm) && packing == ColumnPacking::on) ways = {ColumnPacking::on};
      if (spk::select::reads_packed_columns(algorithm) && both_ways) ways = {ColumnPacking::on, ColumnPacking::off};
      for (const auto way : ways) {
        spk::SpmvOptions options;
        options.algorithm = algorithm;
        options.shape = shape;
        options.packing = way;
        options.grouping = grouping;
        spk_row(std::string(spk::to_string(algorithm)), options, true);
      }
    }

  const auto yardstick_row = [&](const char* name) {
    Row r = base_row(m, "spmv", ctx);
    r.algo = name;
    r.yardstick = true;
    return r;
  };

#ifdef SPK_HAVE_KOKKOSKERNELS
  if (ctx.has_yardstick("kokkoskernels")) {
    namespace kk = spk::yardstick::kokkoskernels;
    add_yardstick_row(
        ctx, yardstick_row("kokkoskernels"), kk::spmv_algorithms(),
        [&](const std::string& alg) {
          return std::make_shared<kk::Spmv<DeviceMatrix<S, Off>, Vector, Vector>>(m.device, x, y, alg);
        },
        checker, bytes, flops);
  }
#endif

  for_each_gpu_library(ctx, [&](auto library) {
    using L = decltype(library);
    add_yardstick_row(
        ctx, yardstick_row(L::name), L::spmv_algorithms(),
        [&](const std::string& alg) {
          return std::make_shared<typename L::Spmv>(*L::handle(ctx.vendors),
                                                    describe_csr<typename L::CsrArrays>(m.device, cols64), x.data(),
                                                    y.data(), alg);
        },
        checker, bytes, flops);
  });

#ifdef SPK_HAVE_GRAPHBLAS
  if (ctx.has_yardstick("graphblas") && ctx.vendors.graphblas) {
    namespace gb = spk::yardstick::graphblas;
    add_yardstick_row(
        ctx, yardstick_row("graphblas"), gb::spmv_algorithms(),
        [&](const std::string& alg) { return std::make_shared<gb::Spmv>(gb::csr_arrays(m.host), hx.data(), alg); },
        checker, bytes, flops, [&](const gb::Spmv& op) { op.copy_result(y.data()); });
  }
#endif

#ifdef SPK_HAVE_EIGEN
  if (ctx.has_yardstick("eigen")) {
    using EigenOp = spk::yardstick::eigen::Spmv<HostMatrix<S, Off>, Vector, Vector>;
    add_yardstick_row(
        ctx, yardstick_row("eigen"), spk::yardstick::eigen::spmv_algorithms(),
        [&](const std::string& alg) { return std::make_shared<EigenOp>(m.host, x, y, alg); }, checker, bytes, flops);
  }
#endif

  // --streams N: spk's algorithms and the vendor library again, N calls at once on N instances (streams.hpp).
  if (o.streams > 1) {
    const auto instances = std::make_shared<const Instances>(o.streams, ctx.vendors);
    const std::string op = "spmv x" + std::to_string(o.streams);
    const auto ys = round_outputs(y, o.streams);
    const auto round_check = round_checker(ys, ref, tolerance<S>(m.max_row_length));
    const double round_bytes = bytes * o.streams, round_flops = flops * o.streams;
    for (const auto& name : o.spk_algorithms[0]) {
      const spk::SpmvOptions options = named_options(name);
      Row r = base_row(m, op, ctx);
      r.algo = name;
      add_spk_round_row(
          ctx, std::move(r), instances, [&]() { return spk::make_spmv_plan(m.device, options); },
          [&m, x, ys](int i, const ExecSpace& space, const auto& plan) {
            spk::spmv(space, plan, S(1), m.device, x, S(0), ys[i]);
          },
          round_check, round_bytes, round_flops);
    }
    for_each_gpu_library(ctx, [&](auto library) {
      using L = decltype(library);
      Row r = yardstick_row(L::name);
      r.op = op;
      add_yardstick_round_row(
          ctx, std::move(r), instances, L::spmv_algorithms(),
          [&](const std::string& alg, int i) {
            return std::make_shared<typename L::Spmv>(L::handle(*instances, i),
                                                      describe_csr<typename L::CsrArrays>(m.device, cols64), x.data(),
                                                      ys[i].data(), alg);
          },
          round_check, round_bytes, round_flops);
    });
  }

  if (o.interleave) time_interleaved(ctx, bytes, flops);
  if (o.gather_bound) ctx.add(gather_bound_row(m, x, bytes, flops, ctx));
}

SPK_BENCH_INSTANTIATE(run_spmv)

}  // namespace spk_bench
