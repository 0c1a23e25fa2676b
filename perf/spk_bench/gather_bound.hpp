#pragma once
// --gather-bound: an estimate of the least time a CSR SpMV can take on this device and matrix, to show how much of a
// speedup over the yardsticks is left at all. It is the larger of two floors: the CSR model's bytes (the GB/s
// column's) at the streaming ceiling this run measured, which holds for a matrix that does not stay in cache from one
// call to the next, and the faster of two flat passes that read every nonzero's value and column once and gather x
// once per nonzero (spk's cache hints), with perfect balance, no rows and no y. The second is measured, not proven:
// a kernel that reorders the matrix or stages x could beat it, and any row faster than the bound says so. On host
// back-ends the pass is a plain loop per thread, no floor (the CPU libraries beat it); the estimate is for GPUs.
#include <cstdio>

#include <spk/impl/cache_hints.hpp>

#include "runner.hpp"

namespace spk_bench {

// Median time in ms of one flat pass over A's nonzeros: teams of 256 threads each take the next U * 256 nonzeros,
// thread t the t-th of every run of 256 (each load coalesced, a team's gathers of x as close together as A's columns
// are), and sum them into one number per team. On host back-ends a team is one thread taking 1024 * U nonzeros.
template <int U, class S, class Off>
double flat_gather_ms(const DeviceMatrix<S, Off>& A, const Kokkos::View<S*, Device>& x, int warmup, int reps) {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  constexpr bool host = spk::is_host_space<ExecSpace>();
  constexpr int threads = host ? 1 : 256, runs = host ? 1024 * U : U;
  const std::int64_t nnz = A.nnz(), per_team = std::int64_t{runs} * threads;
  const auto values = A.values();
  const auto entries = A.entries();
  const Kokkos::View<S, Device> result("spk_bench::gather_bound::sum");
  const auto pass = KOKKOS_LAMBDA(const typename Policy::member_type& team) {
    const std::int64_t base = team.league_rank() * per_team;
    S sum = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, threads),
        [&](const int t, S& partial) {
          for (int u = 0; u < runs; ++u) {
            const std::int64_t j = base + std::int64_t{u} * threads + t;
            if (j < nnz)
              partial += spk::impl::load_once(values(j)) * spk::impl::load_reused(x(spk::impl::load_once(entries(j))));
          }
        },
        sum);
    // Stored only if it equals an arbitrary number, so the compiler keeps the loads and the pass writes nothing.
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      if (sum == S(1234.5678)) result() = sum;
    });
  };
  const int teams = static_cast<int>((nnz + per_team - 1) / per_team);
  const Timing t = time_calls([&]() { Kokkos::parallel_for("spk_bench::gather_bound", Policy(teams, threads), pass); },
                              warmup, reps);
  return t.median_ms();
}

// The gather-bound row: its time is the larger floor, its notes give both; "bound" in the check column (it computes
// no y), and its speedups over the yardsticks are the largest any such kernel could show.
template <class S, class Off>
Row gather_bound_row(const MatrixCase<S, Off>& m, const Kokkos::View<S*, Device>& x, double bytes, double flops,
                     RunContext& ctx) {
  Row r = base_row(m, "spmv", ctx);
  r.algo = "gather-bound";
  r.check = "bound";
  const double flat4 = flat_gather_ms<4>(m.device, x, ctx.options.warmup, ctx.options.reps);
  const double flat8 = flat_gather_ms<8>(m.device, x, ctx.options.warmup, ctx.options.reps);
  const double flat_ms = flat4 < flat8 ? flat4 : flat8;  // the faster of 4 and 8 gathers a thread in flight
  const double stream_ms = ctx.ceiling.gbs > 0 ? bytes / (ctx.ceiling.gbs * 1e9) * 1e3 : 0;
  Timing t;
  t.samples_ms = {flat_ms > stream_ms ? flat_ms : stream_ms};
  set_time(r, t, bytes, flops, ctx.ceiling);
  char notes[128];
  std::snprintf(notes, sizeof notes, "larger of: flat gather pass %.4g ms, CSR bytes at the ceiling %.4g ms", flat_ms,
                stream_ms);
  r.message = notes;
  return r;
}

}  // namespace spk_bench
