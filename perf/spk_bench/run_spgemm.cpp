// SpGEMM C = A * A: spk's algorithms and the yardsticks. Each is run once under memory measurement and checked
// against the oracle (structure and values), then timed end to end (symbolic + numeric + allocation, phases timed
// separately within each repetition) and numeric-only on the same structure (reuse), whose result is checked too.
#include <functional>
#include <limits>
#include <memory>

#include <spk/spgemm.hpp>

#include "runner.hpp"

#ifdef SPK_HAVE_KOKKOSKERNELS
#include <kokkoskernels/kokkoskernels_adapter.hpp>
#endif

namespace spk_bench {
namespace {

// One SpGEMM implementation seen through the same steps.
template <class S, class Off>
struct SpgemmCalls {
  std::function<void()> reset;      // drop C and all state: the next symbolic() starts afresh (untimed)
  std::function<void()> symbolic;   // sizes C
  std::function<void()> numeric;    // allocates and fills C
  std::function<void()> reuse;      // refills C on the same structure; empty when the library cannot
  std::function<HostMatrix<S, Off>()> result;
  std::function<void()> poison_values;          // NaN into C's values before the reuse check
  std::function<std::int64_t()> measured_peak;  // the library's own memory figure; empty: Kokkos allocation hook
  std::function<void(bool)> sample_memory;      // switches the library's memory sampling (off while timing)
  bool phases_comparable = true;                // false: the library's symbolic/numeric split means other things
};

template <class S, class Off>
Variant measure_spgemm(const std::string& name, const std::function<SpgemmCalls<S, Off>()>& make,
                       const HostOracleMatrix& ref, double tol, const Options& o) {
  Variant v;
  v.name = name;
  try {
    SpgemmCalls<S, Off> calls = make();
    // One untracked product first: buffers Kokkos or the library keep after their first use (scratch pools,
    // handles) are then not charged to whichever algorithm happens to run first.
    calls.symbolic();
    calls.numeric();
    Kokkos::fence();
    calls.reset();
    {
      AllocationTracker tracker(ExecSpace::memory_space::name());
      calls.symbolic();
      calls.numeric();
      Kokkos::fence();
      v.peak_bytes = calls.measured_peak ? calls.measured_peak() : tracker.peak_bytes();
    }
    Comparison c = compare_spgemm(calls.result(), ref, tol);
    v.rel_error = c.rel_error;
    if (!c.ok) {
      v.status = "FAILED";
      v.message = c.message;
      return v;
    }
    if (calls.sample_memory) calls.sample_memory(false);
    const PhaseTiming t = time_phases(calls.reset, {calls.symbolic, calls.numeric}, o.warmup, o.reps);
    v.time_ms = t.total.median_ms();
    if (calls.phases_comparable) {
      v.symbolic_ms = t.phases[0].median_ms();
      v.numeric_ms = t.phases[1].median_ms();
    }
    if (calls.reuse) {
      v.reuse_ms = time_calls(calls.reuse, o.warmup, o.reps).median_ms();
      calls.poison_values();
      calls.reuse();
      Kokkos::fence();
      c = compare_spgemm(calls.result(), ref, tol);
      if (!c.ok) {
        v.status = "FAILED";
        v.message = "numeric-only reuse: " + c.message;
        return v;
      }
    }
    v.status = "ok";
  } catch (const std::exception& e) {
    v.status = "error";
    v.message = e.what();
  }
  return v;
}

template <class S, class Off>
HostMatrix<S, Off> matrix_to_host(const DeviceMatrix<S, Off>& C) {
  return spk::to_host(C);
}

#if defined(SPK_HAVE_GRAPHBLAS) || defined(SPK_HAVE_EIGEN)
// A CPU library that forms C in one call (GraphBLAS, Eigen): multiply() is the whole product, timed as symbolic with
// an empty numeric step, so only the end-to-end time is reported; no numeric-only reuse. Their host-heap memory is
// outside the Kokkos allocation hook and is not measured (-1).
template <class S, class Off, class Op>
SpgemmCalls<S, Off> one_pass_calls(std::shared_ptr<Op> op) {
  SpgemmCalls<S, Off> c;
  c.reset = [op]() { op->reset(); };
  c.symbolic = [op]() { op->multiply(); };
  c.numeric = []() {};
  c.result = [op]() { return op->template result<HostMatrix<S, Off>>(); };
  c.measured_peak = []() { return std::int64_t{-1}; };
  c.phases_comparable = false;
  return c;
}
#endif

#if defined(SPK_HAVE_CUSPARSE) || defined(SPK_HAVE_ROCSPARSE)
template <class T>
Kokkos::View<T*, Kokkos::HostSpace> fetch(const void* p, std::int64_t n) {
  Kokkos::View<const T*, Device, Kokkos::MemoryTraits<Kokkos::Unmanaged>> d(static_cast<const T*>(p),
                                                                            static_cast<std::size_t>(n));
  Kokkos::View<T*, Kokkos::HostSpace> h(Kokkos::view_alloc(Kokkos::WithoutInitializing, "spk_bench::fetch"),
                                        static_cast<std::size_t>(n));
  Kokkos::deep_copy(h, d);
  return h;
}

// A vendor adapter's C (device arrays, 32- or 64-bit indices) as a host matrix.
template <class S, class Off, class Arrays>
HostMatrix<S, Off> vendor_to_host(const Arrays& c) {
  using IndexEnum = decltype(c.index_type);
  using M = HostMatrix<S, Off>;
  typename M::row_map_type rm(Kokkos::view_alloc(Kokkos::WithoutInitializing, "C_row_map"), c.rows + 1);
  typename M::entries_type ent(Kokkos::view_alloc(Kokkos::WithoutInitializing, "C_entries"), c.nnz);
  const auto widen = [&](auto offsets, auto columns) {
    for (std::int64_t i = 0; i <= c.rows; ++i) rm(i) = static_cast<Off>(offsets(i));
    for (std::int64_t p = 0; p < c.nnz; ++p) ent(p) = static_cast<std::int32_t>(columns(p));
  };
  if (c.index_type == IndexEnum::i32)
    widen(fetch<std::int32_t>(c.row_offsets, c.rows + 1), fetch<std::int32_t>(c.col_indices, c.nnz));
  else
    widen(fetch<std::int64_t>(c.row_offsets, c.rows + 1), fetch<std::int64_t>(c.col_indices, c.nnz));
  return M(static_cast<std::int32_t>(c.rows), static_cast<std::int32_t>(c.cols), rm, ent, fetch<S>(c.values, c.nnz));
}

template <class S, class Arrays>
void poison_vendor_values(const Arrays& c) {
  Kokkos::View<S*, Device, Kokkos::MemoryTraits<Kokkos::Unmanaged>> v(static_cast<S*>(const_cast<void*>(c.values)),
                                                                      static_cast<std::size_t>(c.nnz));
  poison(v);
}

// The vendor adapters' Spgemm classes share one interface.
template <class S, class Off, class Op>
SpgemmCalls<S, Off> vendor_calls(std::shared_ptr<Op> op) {
  SpgemmCalls<S, Off> c;
  c.reset = [op]() { op->reset(); };
  c.symbolic = [op]() { op->symbolic(); };
  c.numeric = [op]() { op->numeric(); };
  if (op->has_numeric_reuse()) c.reuse = [op]() { op->numeric_reuse(); };
  c.result = [op]() { return vendor_to_host<S, Off>(op->result()); };
  c.poison_values = [op]() { poison_vendor_values<S>(op->result()); };
  c.measured_peak = [op]() { return static_cast<std::int64_t>(op->peak_extra_bytes()); };
  c.sample_memory = [op](bool on) { op->sample_memory(on); };
  c.phases_comparable = op->has_numeric_reuse();
  return c;
}
#endif

}  // namespace

template <class S, class Off>
void run_spgemm(const MatrixCase<S, Off>& m, RunContext& ctx) {
  using DM = DeviceMatrix<S, Off>;
  const Options& o = ctx.options;
  const auto new_row = [&](const std::string& algo, bool yardstick) {
    Row r = base_row(m, "spgemm", ctx);
    r.algo = algo;
    r.yardstick = yardstick;
    return r;
  };
  if (m.host.num_rows() != m.host.num_cols()) {
    Row r = new_row("-", false);
    r.check = "skipped";
    r.message = "SpGEMM runs C = A*A, which needs a square matrix";
    ctx.add(std::move(r));
    return;
  }

  const std::int64_t products = count_products(m.host, m.host);
  // Guard before the oracle: a product whose check would not fit in memory (e.g. an arrow matrix squared is
  // dense) or whose nonzeros overflow 32-bit offsets is skipped with a note instead of taking the machine down.
  const std::int64_t memory_limit = check_memory_bytes(ctx.options.check_memory_mib);
  const std::int64_t cap = memory_limit / spgemm_check_bytes_per_entry<S>();
  const std::int64_t c_nnz = spgemm_output_nnz(m.host, m.host, products, cap);
  std::string skip;
  if (c_nnz > cap)
    skip = "C = A*A has more than " + std::to_string(cap) + " nonzeros; checking it would need more than " +
           std::to_string(memory_limit >> 20) + " MiB (" + check_memory_source(ctx.options.check_memory_mib) + ")";
  else if (c_nnz > std::numeric_limits<Off>::max())
    skip = "C = A*A has " + std::to_string(c_nnz) + " nonzeros, more than 32-bit offsets hold; use --offset 64";
  if (!skip.empty()) {
    Row r = new_row("-", false);
    r.check = "skipped";
    r.products = products;
    r.message = skip;
    ctx.add(std::move(r));
    return;
  }
  const HostOracleMatrix ref = oracle_spgemm(m.host, m.host, products);
  const double flops = spgemm_flops(products);
  const double tol = tolerance<S>(m.max_row_length);
  const std::int64_t output_bytes = (m.host.num_rows() + 1) * static_cast<std::int64_t>(sizeof(Off)) +
                                    static_cast<std::int64_t>(ref.nnz()) * (sizeof(S) + sizeof(std::int32_t));
  const std::string hook = std::string("Kokkos Tools allocation hook: peak bytes live in ") +
                           ExecSpace::memory_space::name() + " during one symbolic + numeric, C included";
  const auto finish = [&](Row& r, const std::string& memory_method) {
    r.products = products;
    r.c_nnz = ref.nnz();
    r.output_bytes = output_bytes;
    r.memory_method = memory_method;
  };

  for (const auto& name : o.spk_algorithms[2]) {
    Row r = new_row(name, false);
    finish(r, hook);
    try {
      spk::SpgemmOptions options;
      options.algorithm = spk::parse_algorithm<spk::SpgemmAlgorithm>(name);
      options.walk = spk::parse_algorithm<spk::SpgemmWalk>(o.spgemm_walk);
      struct State {
        spk::SpgemmPlan<DM> plan;
        DM C;
      };
      auto st = std::make_shared<State>();
      const DM A = m.device;
      const Variant v = measure_spgemm<S, Off>(
          name,
          [&]() {
            SpgemmCalls<S, Off> c;
            c.reset = [st]() {
              st->plan = spk::SpgemmPlan<DM>();
              st->C = DM();
            };
            c.symbolic = [st, A, options]() { spk::spgemm_symbolic(A, A, st->plan, options); };
            c.numeric = [st, A]() { spk::spgemm_numeric(st->plan, A, A, st->C); };
            c.reuse = c.numeric;  // C already holds the plan's structure: numeric refills it in place
            c.result = [st]() { return matrix_to_host(st->C); };
            c.poison_values = [st]() { poison(st->C.values()); };
            return c;
          },
          ref, tol, o);
      r.chosen = st->plan.ready() ? spk::describe(st->plan) : std::string();
      r.check = v.status;
      r.message = v.message;
      r.rel_error = v.rel_error;
      r.peak_bytes = v.peak_bytes;
      if (v.status == "ok") {
        Timing t;
        t.samples_ms = {v.time_ms};
        set_time(r, t, 0, flops, ctx.ceiling);
        r.min_ms = r.max_ms = nan();
        r.symbolic_ms = v.symbolic_ms;
        r.numeric_ms = v.numeric_ms;
        r.reuse_ms = v.reuse_ms;
      }
    } catch (const std::exception& e) {
      r.check = "error";
      r.message = e.what();
    }
    ctx.add(std::move(r));
  }

  // A yardstick's row: make(algorithm) returns the SpgemmCalls of one of its algorithms.
  const auto yardstick_row = [&](const std::string& name, const std::string& memory_method,
                                 const std::vector<std::string>& algorithms, const auto& make) {
    Row r = new_row(name, true);
    finish(r, memory_method);
    for (const auto& alg : algorithms)
      r.variants.push_back(measure_spgemm<S, Off>(alg, [&]() { return make(alg); }, ref, tol, o));
    finish_yardstick_row(r, 0, flops, ctx.ceiling);
    ctx.add(std::move(r));
  };

#ifdef SPK_HAVE_KOKKOSKERNELS
  if (ctx.has_yardstick("kokkoskernels")) {
    namespace kk = spk::yardstick::kokkoskernels;
    yardstick_row("kokkoskernels", hook, kk::spgemm_algorithms(), [&](const std::string& alg) {
      auto op = std::make_shared<kk::Spgemm<DM>>(m.device, m.device, alg);
      SpgemmCalls<S, Off> c;
      c.reset = [op]() { op->reset(); };
      c.symbolic = [op]() { op->symbolic(); };
      c.numeric = [op]() { op->numeric(); };
      c.reuse = [op]() { op->numeric_reuse(); };
      c.result = [op]() { return matrix_to_host(op->result()); };
      c.poison_values = [op]() { poison(op->result().values()); };
      return c;
    });
  }
#endif

#if defined(SPK_HAVE_CUSPARSE) || defined(SPK_HAVE_ROCSPARSE)
  for_each_gpu_library(ctx, [&](auto library) {
    using L = decltype(library);
    Row r = new_row(L::name, true);
    finish(r, L::memory_note);
    Kokkos::View<std::int64_t*, Device> cols64;
    for (const auto& alg : L::spgemm_algorithms())
      r.variants.push_back(measure_spgemm<S, Off>(
          alg,
          [&]() {
            const auto A = describe_csr<typename L::CsrArrays>(m.device, cols64);
            return vendor_calls<S, Off>(std::make_shared<typename L::Spgemm>(*L::handle(ctx.vendors), A, A, alg));
          },
          ref, tol, o));
    finish_yardstick_row(r, 0, flops, ctx.ceiling);
    ctx.add(std::move(r));
  });
#endif

#if defined(SPK_HAVE_GRAPHBLAS) || defined(SPK_HAVE_EIGEN)
  const auto host_heap = [](const std::string& library) {
    return "not measured: " + library + " allocates on the host heap, outside the Kokkos allocation hook";
  };
#endif

#ifdef SPK_HAVE_GRAPHBLAS
  if (ctx.has_yardstick("graphblas") && ctx.vendors.graphblas) {
    namespace gb = spk::yardstick::graphblas;
    const gb::CsrArrays A = gb::csr_arrays(m.host);
    yardstick_row("graphblas", host_heap("GraphBLAS"), gb::spgemm_algorithms(), [&](const std::string& alg) {
      return one_pass_calls<S, Off>(std::make_shared<gb::Spgemm>(A, A, alg));
    });
  }
#endif

#ifdef SPK_HAVE_EIGEN
  if (ctx.has_yardstick("eigen")) {
    using EigenOp = spk::yardstick::eigen::Spgemm<HostMatrix<S, Off>>;
    yardstick_row("eigen", host_heap("Eigen"), spk::yardstick::eigen::spgemm_algorithms(), [&](const std::string& alg) {
      return one_pass_calls<S, Off>(std::make_shared<EigenOp>(m.host, m.host, alg));
    });
  }
#endif
}

SPK_BENCH_INSTANTIATE(run_spgemm)

}  // namespace spk_bench
