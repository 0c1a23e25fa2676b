// spk-bench's host time per call (perf/spk_bench/timing.hpp, Timing::host_samples_ms): each timed call also records
// how long the host spent in it, back to back (time_calls) and in --interleave's rounds (time_interleaved), and the
// rows and yardstick variants report the median. The calls here sleep on the host for a known time, which bounds
// their host time from below whatever the machine's speed.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <thread>
#include <vector>

#include "runner.hpp"

namespace {

using namespace spk_bench;

constexpr bool host_backend = !device_is_cuda() && !device_is_hip();

// A call that sleeps for `ms` on the host.
struct SleepingCall {
  double ms;
  void operator()() const { std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(ms)); }
};

TEST(HostTime, TimeCallsRecordsEveryCallsHostTime) {
  const Timing t = time_calls(SleepingCall{2.0}, 1, 4);
  ASSERT_EQ(t.samples_ms.size(), 4u);
  ASSERT_EQ(t.host_samples_ms.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_GE(t.host_samples_ms[i], 2.0) << i;  // sleep_for waits at least its duration
    // A host back-end's call ends inside its marks; a GPU's marks are events, whose interval may be shorter.
    if (host_backend) EXPECT_LE(t.host_samples_ms[i], t.samples_ms[i]) << i;
  }
  EXPECT_GE(t.host_median_ms(), 2.0);
  EXPECT_TRUE(std::isnan(Timing{}.host_median_ms()));  // no samples (SpGEMM's phases, a bound): no host time
}

// A run's context, as run_spmv and run_spmm hold it: 3 timed calls after 1 warm-up, back to back or in rounds.
struct TimedRun {
  Options options;
  Ceiling ceiling{100.0, 1.0, "test"};
  Vendors vendors;
  std::vector<Row> rows;
  RunContext ctx{options, ceiling, vendors, rows};

  explicit TimedRun(bool interleave) {
    options.reps = 3;
    options.warmup = 1;
    options.interleave = interleave;
  }
};

TEST(HostTime, RowsAndVariantsTakeTheMedianHostTime) {
  TimedRun run(false);
  auto& ctx = run.ctx;
  const Ceiling& ceiling = run.ceiling;

  Row spk_row;
  set_time(spk_row, time_calls(SleepingCall{1.0}, 0, 3), 1e6, 2e6, ceiling);
  EXPECT_GE(spk_row.host_ms, 1.0);
  if (host_backend) EXPECT_LE(spk_row.host_ms, spk_row.time_ms);

  // A yardstick's variants timed back to back (try_variant), the row taking its fastest variant's host time.
  Row y;
  y.yardstick = true;
  const auto pass = [](const auto& call) {
    call();
    return Comparison{true, 0.0, ""};
  };
  y.variants.push_back(try_variant("slow", [] { return SleepingCall{6.0}; }, pass, ctx, 0));
  y.variants.push_back(try_variant("fast", [] { return SleepingCall{1.5}; }, pass, ctx, 1));
  ASSERT_EQ(y.variants.at(1).status, "ok");
  EXPECT_GE(y.variants.at(0).host_ms, 6.0);
  EXPECT_GE(y.variants.at(1).host_ms, 1.5);
  finish_yardstick_row(y, 1e6, 2e6, ceiling);
  EXPECT_EQ(y.chosen, "fast");
  EXPECT_EQ(y.host_ms, y.variants.at(1).host_ms);
}

TEST(HostTime, InterleavedRoundsRecordHostTimes) {
  TimedRun run(true);
  auto& ctx = run.ctx;
  const std::vector<Row>& rows = run.rows;

  ctx.deferred.push_back({SleepingCall{2.0}});
  ctx.add(Row{});
  Row y;
  y.yardstick = true;
  for (const double ms : {4.0, 1.0}) {
    ctx.deferred.push_back({SleepingCall{ms}, DeferredCall::unassigned, static_cast<int>(y.variants.size())});
    Variant v;
    v.name = ms > 2 ? "slow" : "fast";
    v.status = "ok";
    y.variants.push_back(v);
  }
  ctx.unfinished_yardsticks.push_back(rows.size());
  ctx.add(std::move(y));

  time_interleaved(ctx, 1e6, 2e6);

  const Row& spk_row = rows.at(0);
  EXPECT_GE(spk_row.host_ms, 2.0);
  if (host_backend) EXPECT_LE(spk_row.host_ms, spk_row.time_ms);
  const Row& yardstick = rows.at(1);
  EXPECT_GE(yardstick.variants.at(0).host_ms, 4.0);
  EXPECT_GE(yardstick.variants.at(1).host_ms, 1.0);
  EXPECT_EQ(yardstick.chosen, "fast");
  EXPECT_EQ(yardstick.host_ms, yardstick.variants.at(1).host_ms);
}

}  // namespace
