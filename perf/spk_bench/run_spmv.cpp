// SpMV y = A x: spk's algorithms and the yardsticks, each checked against the oracle, then timed (beta = 0).
#include <memory>

#include <spk/spmv.hpp>

#include "runner.hpp"

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
  const double tol = tolerance<S>(m.max_row_length);
  const auto checker = [&](const auto& call) {
    poison(y);
    call();
    Kokkos::fence();
    Kokkos::deep_copy(hy, y);
    return compare_dense(hy, ref, tol);
  };

  for (const auto& name : o.spk_algorithms[0]) {
    Row r = base_row(m, "spmv", ctx);
    r.algo = name;
    try {
      spk::SpmvOptions options;
      options.algorithm = spk::parse_algorithm<spk::SpmvAlgorithm>(name);
      const spk::SpmvPlan plan = spk::make_spmv_plan(m.device, options);
      r.setup_ms = plan.setup_seconds * 1e3;
      r.chosen = std::string(spk::to_string(plan.algorithm));
      const auto call = [&]() { spk::spmv(plan, S(1), m.device, x, S(0), y); };
      check_then_time(r, call, checker, o.warmup, o.reps, bytes, flops, ctx.ceiling);
    } catch (const std::exception& e) {
      r.check = "error";
      r.message = e.what();
    }
    ctx.add(std::move(r));
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
    Row r = yardstick_row("kokkoskernels");
    for (const auto& alg : kk::spmv_algorithms())
      r.variants.push_back(try_variant(
          alg,
          [&]() {
            auto op = std::make_shared<kk::Spmv<DeviceMatrix<S, Off>, Vector, Vector>>(m.device, x, y, alg);
            return [op]() { op->run(); };
          },
          checker, o.warmup, o.reps));
    finish_yardstick_row(r, bytes, flops, ctx.ceiling);
    ctx.add(std::move(r));
  }
#endif

#ifdef SPK_HAVE_CUSPARSE
  if (ctx.has_yardstick("cusparse") && ctx.vendors.cusparse) {
    namespace cu = spk::yardstick::cusparse;
    Row r = yardstick_row("cusparse");
    Kokkos::View<std::int64_t*, Device> cols64;
    for (const auto& alg : cu::spmv_algorithms())
      r.variants.push_back(try_variant(
          alg,
          [&]() {
            const auto A = describe_csr<cu::CsrArrays>(m.device, cols64);
            auto op = std::make_shared<cu::Spmv>(*ctx.vendors.cusparse, A, x.data(), y.data(), alg);
            return [op]() { op->run(); };
          },
          checker, o.warmup, o.reps));
    finish_yardstick_row(r, bytes, flops, ctx.ceiling);
    ctx.add(std::move(r));
  }
#endif

#ifdef SPK_HAVE_ROCSPARSE
  if (ctx.has_yardstick("rocsparse") && ctx.vendors.rocsparse) {
    namespace roc = spk::yardstick::rocsparse;
    Row r = yardstick_row("rocsparse");
    Kokkos::View<std::int64_t*, Device> cols64;
    for (const auto& alg : roc::spmv_algorithms())
      r.variants.push_back(try_variant(
          alg,
          [&]() {
            const auto A = describe_csr<roc::CsrArrays>(m.device, cols64);
            auto op = std::make_shared<roc::Spmv>(*ctx.vendors.rocsparse, A, x.data(), y.data(), alg);
            return [op]() { op->run(); };
          },
          checker, o.warmup, o.reps));
    finish_yardstick_row(r, bytes, flops, ctx.ceiling);
    ctx.add(std::move(r));
  }
#endif
}

SPK_BENCH_INSTANTIATE(run_spmv)

}  // namespace spk_bench
