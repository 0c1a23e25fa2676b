#pragma once
// What the per-op runners (run_spmv.cpp, run_spmm.cpp, run_spgemm.cpp) share: the matrix under test on host and
// device, the run's context, and the helpers that turn a timing into a checked result row.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include <Kokkos_Core.hpp>
#include <spk/csr_matrix.hpp>
#include <spk/launch_shape.hpp>
#include <spk/io/random.hpp>

#include "ceiling.hpp"
#include "check.hpp"
#include "options.hpp"
#include "report.hpp"
#include "sweep.hpp"
#include "timing.hpp"
#include "vendor.hpp"

namespace spk_bench {

using Device = Kokkos::Device<ExecSpace, ExecSpace::memory_space>;
template <class S, class Off>
using DeviceMatrix = spk::CsrMatrix<S, std::int32_t, Off, Device>;

#if defined(SPK_HAVE_GRAPHBLAS) || defined(SPK_HAVE_EIGEN)
// The CPU yardsticks run on MatrixCase::host and read and write the benchmark's Views directly; only host back-ends
// (no CUDA/HIP in Kokkos) build them, where those Views are in host memory.
static_assert(Kokkos::SpaceAccessibility<Kokkos::HostSpace, Device::memory_space>::accessible,
              "GraphBLAS and Eigen yardsticks need a host default execution space");
#endif

template <class S, class Off>
struct MatrixCase {
  std::string name;
  HostMatrix<S, Off> host;
  DeviceMatrix<S, Off> device;
  std::int64_t max_row_length = 0;
};

// --interleave: a checked call whose timing waits for time_interleaved (below), with where its time goes.
struct DeferredCall {
  static constexpr std::size_t unassigned = static_cast<std::size_t>(-1);
  std::function<void()> call;
  std::size_t row = unassigned;     // index in RunContext::rows: the row being built when it was deferred
  int variant = -1;                 // the yardstick variant it times, or -1: the row itself (an spk row)
  std::size_t sweep = unassigned;   // index in RunContext::sweep whose time and rate it sets
};

struct RunContext {
  const Options& options;
  const Ceiling& ceiling;
  Vendors& vendors;
  std::vector<Row>& rows;
  std::vector<SweepRecord> sweep;  // --sweep: every candidate that checked out
  bool failed = false;  // a check failed, spk threw, or a named matrix could not be read
  int unreadable = 0;    // matrices that could not be read or generated (suite scans' optional files excluded)
  std::vector<DeferredCall> deferred;           // --interleave: checked, not yet timed
  std::vector<std::size_t> unfinished_yardsticks;  // --interleave: rows whose best variant awaits the timings

  bool has_yardstick(const std::string& y) const {
    for (const auto& s : options.yardsticks)
      if (s == y) return true;
    return false;
  }
  void add(Row r) {
    if (r.check == "FAILED" || (!r.yardstick && r.check == "error")) failed = true;
    for (const auto& v : r.variants)
      if (v.status == "FAILED") failed = true;
    for (auto& d : deferred)  // calls deferred while this row was built belong to it
      if (d.row == DeferredCall::unassigned) d.row = rows.size();
    rows.push_back(std::move(r));
  }
  // A sweep candidate that checked out (its row not added yet); under --interleave its time and rate arrive with
  // the row's.
  void add_sweep(SweepRecord s) {
    sweep.push_back(std::move(s));
    if (!deferred.empty() && deferred.back().row == DeferredCall::unassigned && deferred.back().variant < 0)
      deferred.back().sweep = sweep.size() - 1;
  }
};

template <class S, class Off>
Row base_row(const MatrixCase<S, Off>& m, const std::string& op, const RunContext& ctx) {
  Row r;
  r.matrix = m.name;
  r.rows = m.host.num_rows();
  r.cols = m.host.num_cols();
  r.nnz = m.host.nnz();
  r.op = op;
  r.precision = std::is_same_v<S, float> ? "float" : "double";
  r.offset_bits = 8 * static_cast<int>(sizeof(Off));
  (void)ctx;
  return r;
}

template <class S, class Off>
MatrixShape shape_of(const MatrixCase<S, Off>& m) {
  MatrixShape s;
  s.rows = m.host.num_rows();
  s.cols = m.host.num_cols();
  s.nnz = m.host.nnz();
  s.scalar_bytes = sizeof(S);
  s.ordinal_bytes = sizeof(std::int32_t);
  s.offset_bytes = sizeof(Off);
  return s;
}

// Fills a host view with values uniform in +-[0.1, 1) from the run's seed (stream tells the inputs apart).
template <class View>
void fill_random(const View& v, std::uint64_t seed, std::uint64_t stream) {
  using S = typename View::non_const_value_type;
  spk::gen::Rng rng(seed, stream);
  if constexpr (static_cast<int>(View::rank) == 1) {
    for (std::size_t i = 0; i < v.extent(0); ++i) v(i) = rng.template value<S>();
  } else {
    for (std::size_t i = 0; i < v.extent(0); ++i)
      for (std::size_t j = 0; j < v.extent(1); ++j) v(i, j) = rng.template value<S>();
  }
}

template <class View>
void poison(const View& v) {
  Kokkos::deep_copy(v, std::numeric_limits<typename View::non_const_value_type>::quiet_NaN());
}

// Records a timing into the row: median/min/max time, median host time and the rates.
inline void set_time(Row& r, const Timing& t, double bytes, double flops, const Ceiling& c) {
  r.time_ms = t.median_ms();
  r.host_ms = t.host_median_ms();
  r.min_ms = t.min_ms();
  r.max_ms = t.max_ms();
  if (bytes > 0) {
    r.gbs = rate_giga(bytes, r.time_ms);
    r.pct_ceiling = c.gbs > 0 ? 100.0 * r.gbs / c.gbs : nan();
  }
  r.gflops = rate_giga(flops, r.time_ms);
}

// An spk row: checks call once against the oracle, then times it only if the check passed (under --interleave
// later, in time_interleaved's rounds: call must then own what it uses, the plan included).
template <class Call, class Checker>
void check_then_time(Row& r, const Call& call, Checker&& checker, RunContext& ctx, double bytes, double flops) {
  const Comparison cmp = checker(call);
  r.rel_error = cmp.rel_error;
  if (cmp.ok && ctx.options.interleave) {
    ctx.deferred.push_back({call});
  } else if (cmp.ok) {
    set_time(r, time_calls(call, ctx.options.warmup, ctx.options.reps), bytes, flops, ctx.ceiling);
  } else {
    r.check = "FAILED";
    r.message = cmp.message;
  }
}

// One output against the oracle's whole result: copied to its host copy, then compared. (SpMM's reference may
// compare blocks of rows instead: spmm_reference.hpp.)
template <class HostOut, class Out, class Ref>
Comparison compare_output(const HostOut& host_out, const Out& out, const Ref& ref, double tol) {
  Kokkos::deep_copy(host_out, out);
  return compare_dense(host_out, ref, tol);
}

// Whether the check needs a host copy of each output (one the size of the output).
template <class Ref>
bool holds_whole_result(const Ref&) {
  return true;
}

// A host copy of out for its check against ref (an empty one when ref compares blocks of rows).
template <class Out, class Ref>
auto host_copy_for(const Out& out, const Ref& ref) {
  using Mirror = decltype(Kokkos::create_mirror_view(out));
  return holds_whole_result(ref) ? Kokkos::create_mirror_view(out) : Mirror();
}

// The check every timed call goes through: poison the outputs, run the call once, compare each output with the
// oracle's result (compare_output). The comparison of the largest error is the result; with several outputs
// (--streams' rounds, one per instance) the first that differs fails the row, naming its stream.
template <class Out, class HostOut, class Ref>
auto outputs_checker(std::vector<Out> outs, std::vector<HostOut> host_outs, const Ref& ref, double tol) {
  return [outs, host_outs, ref, tol](const auto& call) {
    for (const auto& o : outs) poison(o);
    call();
    Kokkos::fence();
    Comparison worst;
    for (std::size_t i = 0; i < outs.size(); ++i) {
      Comparison c = compare_output(host_outs[i], outs[i], ref, tol);
      if (!c.ok) {
        if (outs.size() > 1) c.message = "stream " + std::to_string(i) + ": " + c.message;
        return c;
      }
      if (i == 0 || c.rel_error > worst.rel_error) worst = c;
    }
    return worst;
  };
}

// One output (a single call).
template <class Out, class HostOut, class Ref>
auto oracle_checker(const Out& out, const HostOut& host_out, const Ref& ref, double tol) {
  return outputs_checker(std::vector<Out>{out}, std::vector<HostOut>{host_out}, ref, tol);
}

// Builds an spk plan five times with make() and records the median set-up time in the row (the first build in a
// process also pays one-time costs, e.g. CUDA loading each kernel's module on first launch, that a reused plan never
// sees again) and the plan's choice: algorithm [launch shape; the tuning-table entry it came from]. Returns the plan.
template <class Make>
auto plan_for_row(Row& r, const Make& make) {
  std::vector<double> setup_ms, features_ms;
  auto plan = make();
  for (int i = 0; i < 5; ++i) {
    if (i > 0) plan = make();
    setup_ms.push_back(plan.setup_seconds * 1e3);
    features_ms.push_back(plan.features_seconds * 1e3);
  }
  std::sort(setup_ms.begin(), setup_ms.end());
  std::sort(features_ms.begin(), features_ms.end());
  r.setup_ms = setup_ms[2];
  r.features_ms = features_ms[2];
  r.chosen = std::string(spk::to_string(plan.algorithm)) + " [" + spk::describe(plan.shape) +
             (plan.tuned_from ? std::string("; tuned on ") + plan.tuned_from : std::string()) + "]";
  return plan;
}

// A yardstick row: the best variant that passed its check sets the time. Variants that threw (unsupported, out of
// resources) are listed but do not fail the run; a variant with a wrong result does.
inline void finish_yardstick_row(Row& r, double bytes, double flops, const Ceiling& c) {
  const Variant* best = nullptr;
  std::string failed;
  for (const auto& v : r.variants) {
    if (v.status == "ok" && (!best || v.time_ms < best->time_ms)) best = &v;
    if (v.status == "FAILED") failed += (failed.empty() ? "" : ", ") + v.name + ": " + v.message;
  }
  if (!failed.empty()) {
    r.check = "FAILED";
    r.message = "wrong result from " + failed;
  } else if (!best) {
    r.check = "error";
    bool same = true;  // one message when every variant failed the same way (e.g. unsupported index type)
    for (const auto& v : r.variants) same = same && v.message == r.variants.front().message;
    if (same && !r.variants.empty())
      r.message = "every algorithm: " + r.variants.front().message;
    else
      for (const auto& v : r.variants) r.message += (r.message.empty() ? "" : "; ") + v.name + ": " + v.message;
  }
  if (best) {
    r.chosen = best->name;
    r.rel_error = best->rel_error;
    Timing t;
    t.samples_ms = {best->time_ms};
    if (!std::isnan(best->host_ms)) t.host_samples_ms = {best->host_ms};
    set_time(r, t, bytes, flops, c);
    r.min_ms = r.max_ms = nan();
    r.symbolic_ms = best->symbolic_ms;
    r.numeric_ms = best->numeric_ms;
    r.reuse_ms = best->reuse_ms;
    r.peak_bytes = best->peak_bytes;
  }
}

// Runs one yardstick variant (the index-th of its row): setup() builds the operation and returns the call to time
// (it may throw: the variant is then "error"); checker(call) runs it once on poisoned output and compares with the
// oracle; only a correct variant is timed (under --interleave later, in time_interleaved's rounds).
template <class Setup, class Checker>
Variant try_variant(const std::string& name, Setup&& setup, Checker&& checker, RunContext& ctx, int index) {
  Variant v;
  v.name = name;
  try {
    auto call = setup();
    const Comparison c = checker(call);
    v.rel_error = c.rel_error;
    if (!c.ok) {
      v.status = "FAILED";
      v.message = c.message;
      return v;
    }
    if (ctx.options.interleave) {
      ctx.deferred.push_back({call, DeferredCall::unassigned, index});
    } else {
      const Timing t = time_calls(call, ctx.options.warmup, ctx.options.reps);
      v.time_ms = t.median_ms();
      v.host_ms = t.host_median_ms();
    }
    v.status = "ok";
  } catch (const std::exception& e) {
    v.status = "error";
    v.message = e.what();
  }
  return v;
}

// A yardstick whose result stays in the library's own storage (GraphBLAS): calling it is the timed operation;
// publish() copies the result into the benchmark's output, untimed, for the check.
struct PublishedCall {
  std::function<void()> run, publish;
  void operator()() const { run(); }
};

// One yardstick's row: each algorithm it offers tried through try_variant, the fastest correct one setting the row's
// time (finish_yardstick_row). make(algorithm) builds the adapter's operation (a std::shared_ptr; it may throw),
// whose run() is the timed call and writes the op's output, which checker(call) then compares. With publish,
// run() leaves the result in the library's storage and publish(op) copies it into the output, untimed: the check
// runs run() then publish().
template <class Make, class Checker, class Publish = std::nullptr_t>
void add_yardstick_row(RunContext& ctx, Row r, const std::vector<std::string>& algorithms, const Make& make,
                       const Checker& checker, double bytes, double flops, const Publish& publish = nullptr) {
  constexpr bool published = !std::is_null_pointer_v<Publish>;
  const auto checked = [&checker](const auto& call) {
    if constexpr (published)
      return checker([&call]() {
        call.run();
        call.publish();
      });
    else
      return checker(call);
  };
  for (const auto& alg : algorithms) {
    const auto setup = [&]() {
      auto op = make(alg);
      if constexpr (published)
        return PublishedCall{[op]() { op->run(); }, [op, &publish]() { publish(*op); }};
      else
        return [op]() { op->run(); };
    };
    r.variants.push_back(try_variant(alg, setup, checked, ctx, static_cast<int>(r.variants.size())));
  }
  if (ctx.options.interleave) {
    ctx.unfinished_yardsticks.push_back(ctx.rows.size());
  } else {
    finish_yardstick_row(r, bytes, flops, ctx.ceiling);
  }
  ctx.add(std::move(r));
}

// --interleave: times every deferred call of the matrix (SpMV) or width (SpMM) in rounds, each round calling each
// once, after their warm-up calls, so that a noisy machine's slow drifts (another process, the clock, the page
// cache) fall on all of them alike instead of on whichever algorithm ran while they lasted; then sets the rows'
// times, the sweep records' and the yardstick rows' best variants. Every plan and yardstick operation of the
// matrix stays alive until then. A call that throws in the rounds leaves them, and its row (an spk row: the run
// fails) or variant reads "error" with the message, as when its calls run back to back.
inline void time_interleaved(RunContext& ctx, double bytes, double flops) {
  auto& calls = ctx.deferred;
  std::vector<std::string> errors(calls.size());
  Stopwatch watch;
  const auto guarded = [&](std::size_t i, const auto& f) {
    if (!errors[i].empty()) return;
    try {
      f();
    } catch (const std::exception& e) {
      errors[i] = e.what();
      (void)watch.elapsed();  // drop a lone mark
    }
  };
  for (std::size_t i = 0; i < calls.size(); ++i)
    guarded(i, [&]() {
      for (int w = 0; w < ctx.options.warmup; ++w) calls[i].call();
    });
  Kokkos::fence();
  std::vector<Timing> timings(calls.size());
  for (int rep = 0; rep < ctx.options.reps; ++rep)
    for (std::size_t i = 0; i < calls.size(); ++i)
      guarded(i, [&]() { time_one_call(watch, calls[i].call, timings[i]); });
  for (std::size_t i = 0; i < calls.size(); ++i) {
    Row& r = ctx.rows.at(calls[i].row);
    if (calls[i].variant >= 0) {
      Variant& v = r.variants.at(calls[i].variant);
      if (errors[i].empty()) {
        v.time_ms = timings[i].median_ms();
        v.host_ms = timings[i].host_median_ms();
      } else {
        v.status = "error";
        v.message = errors[i];
      }
      continue;
    }
    if (!errors[i].empty()) {
      r.check = "error";
      r.message = errors[i];
      ctx.failed = true;
      continue;
    }
    set_time(r, timings[i], bytes, flops, ctx.ceiling);
    if (calls[i].sweep != DeferredCall::unassigned) {
      SweepRecord& s = ctx.sweep.at(calls[i].sweep);
      s.time_ms = r.time_ms;
      s.rate = s.k == 0 ? r.gbs : r.gflops;
    }
  }
  for (const std::size_t row : ctx.unfinished_yardsticks)
    finish_yardstick_row(ctx.rows.at(row), bytes, flops, ctx.ceiling);
  calls.clear();
  ctx.unfinished_yardsticks.clear();
}

template <class S, class Off>
void run_spmv(const MatrixCase<S, Off>& m, RunContext& ctx);
template <class S, class Off>
void run_spmm(const MatrixCase<S, Off>& m, RunContext& ctx);
template <class S, class Off>
void run_spgemm(const MatrixCase<S, Off>& m, RunContext& ctx);

#define SPK_BENCH_INSTANTIATE(fn)                                            \
  template void fn<float, std::int32_t>(const MatrixCase<float, std::int32_t>&, RunContext&);   \
  template void fn<float, std::int64_t>(const MatrixCase<float, std::int64_t>&, RunContext&);   \
  template void fn<double, std::int32_t>(const MatrixCase<double, std::int32_t>&, RunContext&); \
  template void fn<double, std::int64_t>(const MatrixCase<double, std::int64_t>&, RunContext&);

}  // namespace spk_bench
