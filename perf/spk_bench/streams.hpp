#pragma once
// --streams N: the same product issued N times at once, each on its own execution space instance with its own plan
// (or vendor operation) and output, as a caller with N independent products of one matrix would run them: spk through
// the instance forms of spk::spmv / spk::spmm, cuSPARSE and rocSPARSE through one handle per instance's stream. A row
// of op "spmv xN" / "spmm xN" times one round, from the moment its first call is issued until its last has finished,
// so its speedup over the yardstick's round says whose calls overlap better, not whose single call is faster.
#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "runner.hpp"

namespace spk_bench {

// N instances of the default execution space, with a vendor handle on each one's stream. Kokkos 4 partitions the
// default instance (new CUDA/HIP streams, or the host's threads); Kokkos 3 has no partition_space, so there every
// instance is the default one and the round runs its calls one after another (streams_note() says so in the report).
class Instances {
 public:
  // Vendor handles too, one per instance's stream, for each vendor library `vendors` has.
  Instances(int n, const Vendors& vendors) {
#if KOKKOS_VERSION >= 40000
    spaces_ = Kokkos::Experimental::partition_space(ExecSpace(), std::vector<int>(n, 1));
#else
    spaces_.assign(n, ExecSpace());
#endif
#ifdef SPK_HAVE_CUSPARSE
    if (vendors.cusparse)
      for (const auto& s : spaces_)
        cusparse_.push_back(std::make_unique<spk::yardstick::cusparse::Handle>(s.cuda_stream()));
#endif
#ifdef SPK_HAVE_ROCSPARSE
    if (vendors.rocsparse)
      for (const auto& s : spaces_)
        rocsparse_.push_back(std::make_unique<spk::yardstick::rocsparse::Handle>(s.hip_stream()));
#endif
    (void)vendors;
  }
  Instances(const Instances&) = delete;
  Instances& operator=(const Instances&) = delete;

  int size() const { return static_cast<int>(spaces_.size()); }
  const ExecSpace& operator[](int i) const { return spaces_.at(i); }
#ifdef SPK_HAVE_CUSPARSE
  spk::yardstick::cusparse::Handle& cusparse(int i) const { return *cusparse_.at(i); }
#endif
#ifdef SPK_HAVE_ROCSPARSE
  spk::yardstick::rocsparse::Handle& rocsparse(int i) const { return *rocsparse_.at(i); }
#endif

  // One round: issue(i, instance i) for every instance, its work ordered after what the default instance was given
  // before and before what it is given after, so that the Stopwatch's marks (on the default instance) bracket the
  // whole round. On GPUs that order is kept on the device with events (event n: the round's start, event i: the end
  // of instance i's calls); host instances are fenced.
  template <class Issue>
  void round(const Issue& issue) const {
    fork();
    for (int i = 0; i < size(); ++i) issue(i, spaces_[i]);
    join();
  }

 private:
  static constexpr const char* who = "spk-bench --streams";
  void fork() const {
#ifdef SPK_BENCH_GPU_EVENTS
    if constexpr (device_is_cuda() || device_is_hip()) {
      const gpu::event start = events_[spaces_.size()];
      throw_unless(gpu::record(start, gpu::stream(ExecSpace())), who, "recording an event");
      for (const auto& s : spaces_) throw_unless(gpu::wait(gpu::stream(s), start), who, "waiting for an event");
    } else
#endif
    {
      ExecSpace().fence();
    }
  }
  void join() const {
#ifdef SPK_BENCH_GPU_EVENTS
    if constexpr (device_is_cuda() || device_is_hip()) {
      for (std::size_t i = 0; i < spaces_.size(); ++i) {
        throw_unless(gpu::record(events_[i], gpu::stream(spaces_[i])), who, "recording an event");
        throw_unless(gpu::wait(gpu::stream(ExecSpace()), events_[i]), who, "waiting for an event");
      }
    } else
#endif
    {
      for (const auto& s : spaces_) s.fence();
    }
  }

  std::vector<ExecSpace> spaces_;
#ifdef SPK_HAVE_CUSPARSE
  std::vector<std::unique_ptr<spk::yardstick::cusparse::Handle>> cusparse_;
#endif
#ifdef SPK_HAVE_ROCSPARSE
  std::vector<std::unique_ptr<spk::yardstick::rocsparse::Handle>> rocsparse_;
#endif
  mutable GpuEvents events_{false};  // made on the first round; no timing, so waiting on them costs less
};

// The report's note on what the instances are.
inline std::string streams_note(int n) {
#if KOKKOS_VERSION >= 40000
  return "--streams " + std::to_string(n) + ": rows 'spmv x" + std::to_string(n) + "' / 'spmm x" + std::to_string(n) +
         "' time a round of that many calls, one on each of as many instances partitioned from the default one";
#else
  return "--streams " + std::to_string(n) + ": Kokkos " + std::to_string(KOKKOS_VERSION) +
         " has no partition_space, so every instance is the default one and a round's calls run one after another";
#endif
}

// The outputs of a round (one per instance, each the shape of `like`), and its check: every output poisoned, the
// round run once, each output compared with the oracle; the first one that differs fails the row, naming its stream.
template <class Out>
std::vector<Out> round_outputs(const Out& like, int n) {
  std::vector<Out> outs;
  for (int i = 0; i < n; ++i)
    outs.emplace_back(Kokkos::view_alloc(Kokkos::WithoutInitializing, like.label() + "#" + std::to_string(i)),
                      like.layout());
  return outs;
}

template <class Out, class Ref>
auto round_checker(const std::vector<Out>& outs, const Ref& ref, double tol) {
  std::vector<decltype(Kokkos::create_mirror_view(std::declval<Out>()))> hosts;
  for (const auto& o : outs) hosts.push_back(host_copy_for(o, ref));
  return outputs_checker(outs, std::move(hosts), ref, tol);
}

// An spk row of a round: plans[i] = make() (the first through plan_for_row, for the row's set-up time and choice),
// checked with round_checker, then timed like any spk call (check_then_time: in --interleave's rounds too). issue(i,
// space, plan) makes the i-th call.
template <class Make, class Issue, class Checker>
void add_spk_round_row(RunContext& ctx, Row r, const std::shared_ptr<const Instances>& instances, const Make& make,
                       const Issue& issue, const Checker& checker, double bytes, double flops) {
  try {
    using Plan = decltype(make());
    std::vector<std::shared_ptr<const Plan>> plans;
    plans.push_back(std::make_shared<const Plan>(plan_for_row(r, make)));
    for (int i = 1; i < instances->size(); ++i) plans.push_back(std::make_shared<const Plan>(make()));
    const auto call = [instances, plans, issue]() {
      instances->round([&](int i, const ExecSpace& space) { issue(i, space, *plans[i]); });
    };
    check_then_time(r, call, checker, ctx, bytes, flops);
  } catch (const std::exception& e) {
    r.check = "error";
    r.message = e.what();
  }
  ctx.add(std::move(r));
}

// A yardstick row of a round: for each of the library's algorithms, make(algorithm, i) builds the i-th operation
// (on the i-th instance's handle); the round runs every one's run(). The best algorithm sets the row's time.
template <class Make, class Checker>
void add_yardstick_round_row(RunContext& ctx, Row r, const std::shared_ptr<const Instances>& instances,
                             const std::vector<std::string>& algorithms, const Make& make, const Checker& checker,
                             double bytes, double flops) {
  struct Round {
    std::shared_ptr<const Instances> instances;
    std::vector<decltype(make(std::string(), 0))> ops;  // a std::shared_ptr to the i-th operation
    void run() const {
      instances->round([&](int i, const ExecSpace&) { ops[i]->run(); });
    }
  };
  add_yardstick_row(
      ctx, std::move(r), algorithms,
      [&](const std::string& alg) {
        auto round = std::make_shared<Round>();
        round->instances = instances;
        for (int i = 0; i < instances->size(); ++i)
          round->ops.push_back(make(alg, i));
        return round;
      },
      checker, bytes, flops);
}

}  // namespace spk_bench
