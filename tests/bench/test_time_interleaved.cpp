// spk-bench's --interleave rounds (perf/spk_bench/runner.hpp, time_interleaved) with calls that throw: a call that
// throws leaves the rounds, its row (spk: the run fails) or yardstick variant reads "error" with the message, and
// every other call still runs each round. spk-bench has no way to make a real call throw on demand, so the deferred
// calls here are counting stand-ins, deferred exactly as check_then_time and try_variant defer checked calls.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "runner.hpp"

namespace {

using namespace spk_bench;

// A call that counts its calls and throws on call number `throw_at` (1-based; 0: never).
struct CountingCall {
  int* count;
  int throw_at;
  std::string message;
  void operator()() const {
    if (++*count == throw_at) throw std::runtime_error(message);
  }
};

struct InterleavedRun {
  Options options;
  Ceiling ceiling{100.0, 1.0, "test"};
  Vendors vendors;
  std::vector<Row> rows;
  RunContext ctx{options, ceiling, vendors, rows};

  InterleavedRun() {
    options.reps = 5;
    options.warmup = 2;
    options.interleave = true;
  }
  // An spk row whose checked call was deferred (check_then_time), with its sweep record when `sweep`.
  void add_spk_row(const std::string& algo, const CountingCall& call, bool sweep = false) {
    ctx.deferred.push_back({call});
    if (sweep) ctx.add_sweep(SweepRecord{"m", 8, 0, {}, "SpmvAlgorithm::stream", {}, -1.0, -1.0});
    Row r;
    r.algo = algo;
    ctx.add(std::move(r));
  }
  // A yardstick row whose variants' checked calls were deferred (try_variant, add_yardstick_row).
  void add_yardstick_row(const std::vector<std::pair<std::string, CountingCall>>& variants) {
    Row r;
    r.algo = "yardstick";
    r.yardstick = true;
    for (std::size_t i = 0; i < variants.size(); ++i) {
      ctx.deferred.push_back({variants[i].second, DeferredCall::unassigned, static_cast<int>(i)});
      Variant v;
      v.name = variants[i].first;
      v.status = "ok";
      r.variants.push_back(v);
    }
    ctx.unfinished_yardsticks.push_back(rows.size());
    ctx.add(std::move(r));
  }
};

TEST(TimeInterleaved, CallsThatThrowLeaveTheRoundsAndMarkTheirRowOrVariant) {
  InterleavedRun run;
  int good = 0, late = 0, steady = 0, early = 0;
  run.add_spk_row("stream", {&good, 0, ""}, true);
  run.add_spk_row("flat", {&late, 4, "flat threw in round 2"});  // 2 warm-up calls, then the second round
  run.add_yardstick_row({{"alg-steady", {&steady, 0, ""}}, {"alg-early", {&early, 1, "unsupported shape"}}});
  ASSERT_EQ(run.ctx.deferred.size(), 4u);
  ASSERT_FALSE(run.ctx.failed);

  time_interleaved(run.ctx, 1e6, 2e6);

  const int all = run.options.warmup + run.options.reps;
  EXPECT_EQ(good, all);  // the others' errors do not cut the rounds short
  EXPECT_EQ(steady, all);
  EXPECT_EQ(late, 4);  // not called again after it threw
  EXPECT_EQ(early, 1);

  const Row& stream = run.rows.at(0);
  EXPECT_EQ(stream.check, "ok");
  EXPECT_TRUE(std::isfinite(stream.time_ms) && stream.time_ms >= 0) << stream.time_ms;
  EXPECT_TRUE(stream.min_ms <= stream.time_ms && stream.time_ms <= stream.max_ms);
  ASSERT_EQ(run.ctx.sweep.size(), 1u);
  EXPECT_EQ(run.ctx.sweep[0].time_ms, stream.time_ms);  // the sweep record takes its row's time and rate
  EXPECT_EQ(run.ctx.sweep[0].rate, stream.gbs);

  const Row& flat = run.rows.at(1);
  EXPECT_EQ(flat.check, "error");
  EXPECT_EQ(flat.message, "flat threw in round 2");
  EXPECT_TRUE(std::isnan(flat.time_ms));
  EXPECT_TRUE(run.ctx.failed);  // an spk call that throws fails the run

  const Row& yardstick = run.rows.at(2);
  EXPECT_EQ(yardstick.check, "ok");  // a variant that throws is listed, the row takes the best one left
  EXPECT_EQ(yardstick.chosen, "alg-steady");
  EXPECT_EQ(yardstick.variants.at(0).status, "ok");
  EXPECT_EQ(yardstick.time_ms, yardstick.variants.at(0).time_ms);
  EXPECT_EQ(yardstick.variants.at(1).status, "error");
  EXPECT_EQ(yardstick.variants.at(1).message, "unsupported shape");

  EXPECT_TRUE(run.ctx.deferred.empty());
  EXPECT_TRUE(run.ctx.unfinished_yardsticks.empty());
}

TEST(TimeInterleaved, AYardstickWhoseEveryVariantThrowsReadsError) {
  InterleavedRun run;
  int a = 0, b = 0;
  run.add_yardstick_row({{"alg1", {&a, 3, "out of memory"}}, {"alg2", {&b, 3, "out of memory"}}});
  time_interleaved(run.ctx, 1e6, 2e6);
  const Row& r = run.rows.at(0);
  EXPECT_EQ(r.check, "error");
  EXPECT_EQ(r.message, "every algorithm: out of memory");
  EXPECT_TRUE(std::isnan(r.time_ms));
  EXPECT_FALSE(run.ctx.failed);  // a yardstick's errors do not fail the run
  EXPECT_EQ(a, 3);
  EXPECT_EQ(b, 3);
}

}  // namespace
