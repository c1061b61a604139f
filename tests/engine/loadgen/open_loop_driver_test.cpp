// SPDX-License-Identifier: GPL-3.0-or-later
// Ground truth for the instrument: the synthetic target's service time is known, so what the
// driver measures can be checked against it. The machine running these tests is shared and
// noisy; every tolerance is generous but still fails a broken instrument (a closed loop posing
// as an open one, a queue instead of shedding, a stall charged to service time, a lost request).
// Nothing here asserts how fast the machine is.
#include "engine/bench/quantile.h"
#include "engine/core/error.h"
#include "engine/loadgen/closed_loop_driver.h"
#include "engine/loadgen/open_loop_driver.h"
#include "engine/loadgen/synthetic_target.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <thread>

namespace wandscope::test {
namespace {

using engine::OpenLoopConfig;
using engine::OpenLoopDriver;
using engine::RequestOutcome;
using engine::RequestRecord;
using engine::SyntheticTarget;
using engine::TargetSpec;
using engine::Workload;

// The measured successful requests' nanosecond field or accessor `ns` in ms, sorted.
template <class Ns>
std::vector<double> sortedMs(const std::vector<RequestRecord>& records, Ns ns) {
  std::vector<double> v;
  for (const auto& r : records) {
    if (r.measured && r.outcome == RequestOutcome::Ok) v.push_back(static_cast<double>(std::invoke(ns, r)) / 1e6);
  }
  std::sort(v.begin(), v.end());
  return v;
}

double medianOf(const std::vector<double>& sorted) { return sorted[engine::nearestRank(sorted.size(), 0.5) - 1]; }

std::size_t countAtLeast(const std::vector<double>& v, double threshold) {
  return static_cast<std::size_t>(std::count_if(v.begin(), v.end(), [&](double x) { return x >= threshold; }));
}

// Below capacity the measured median service time is the configured spin within 10 %, every
// request is admitted, and due-time latency is service plus small waits. The spin is short
// (300 us) because a spinning thread on a machine with far more runnable threads than cores is
// preempted mid-spin often enough to move a 2 ms median (measured: a load of 17 on 2 cores gave
// medians of 4.4 ms for a 2 ms spin) - that is the scheduler, and the instrument reports it
// faithfully, but it is not what this test checks.
TEST(OpenLoopDriver, BelowCapacityServiceTimeMatchesTheSpin) {
  SyntheticTarget target(TargetSpec::parse("synthetic:service_us=300"));
  const Workload workload;
  OpenLoopConfig c;
  c.rate = 100;             // 4 workers x 3333/s capacity: 0.75 % utilisation
  c.settleNs = 100'000'000;
  c.measureNs = 2'000'000'000;
  c.workers = 4;
  c.inFlightCap = 64;
  OpenLoopDriver driver(target, workload, c);
  const auto result = driver.run();
  std::size_t measured = 0;
  for (const auto& r : result.records.records) measured += r.measured ? 1 : 0;
  EXPECT_EQ(measured, 200u);  // exactly rate x window: the schedule, not the target, decides
  EXPECT_EQ(result.shed, 0u);
  EXPECT_TRUE(result.drained);
  EXPECT_FALSE(result.cancelled);
  const auto service = sortedMs(result.records.records, &RequestRecord::serviceNs);
  ASSERT_EQ(service.size(), 200u);
  EXPECT_NEAR(medianOf(service), 0.3, 0.03);
  const auto latency = sortedMs(result.records.records, &RequestRecord::latencyNs);
  EXPECT_GE(medianOf(latency), medianOf(service));  // latency includes service
  EXPECT_LE(result.inFlightHighWater, c.inFlightCap);
  // Thread CPU of a wall-clock spin is about its wall time: the median is the spin's (a clock of
  // another thread, or none, reads near zero) and never above the median service. Not every
  // request: the CPU reads sit outside the wall pair, and under ThreadSanitizer one request in CI
  // showed 2.7 ms of CPU for 1.3 ms of wall time (work between a CPU read and a wall read that
  // was not the target's, presumably the sanitizer runtime's). One in a hundred may exceed it.
  const auto cpu = sortedMs(result.records.records, &RequestRecord::threadCpuNs);
  ASSERT_EQ(cpu.size(), 200u);
  EXPECT_LE(medianOf(cpu), medianOf(service) + 0.05);
  EXPECT_GE(medianOf(cpu), 0.3 * 0.5);
  std::size_t over = 0;
  for (const auto& r : result.records.records) {
    if (r.outcome == RequestOutcome::Ok && r.threadCpuNs > r.serviceNs() + 1'000'000) ++over;
  }
  EXPECT_LE(over, result.records.records.size() / 100) << over << " requests used more CPU than wall time";
}

// At twice capacity the excess is shed and counted, never queued: the requests in flight never
// exceed the cap (the driver's high-water mark), every due request is accounted for, and what
// was admitted completed.
TEST(OpenLoopDriver, OverCapacityShedsAndMemoryStaysBoundedByTheCap) {
  SyntheticTarget target(TargetSpec::parse("synthetic:service_us=4000"));
  const Workload workload;
  OpenLoopConfig c;
  c.rate = 1000;            // 2 workers x 250/s = 500/s capacity: twice over
  c.settleNs = 0;
  c.measureNs = 1'000'000'000;
  c.workers = 2;
  c.inFlightCap = 8;
  OpenLoopDriver driver(target, workload, c);
  const auto result = driver.run();
  std::uint64_t ok = 0, shed = 0, other = 0;
  for (const auto& r : result.records.records) {
    if (r.outcome == RequestOutcome::Ok) ++ok;
    else if (r.outcome == RequestOutcome::Shed) ++shed;
    else ++other;
  }
  EXPECT_EQ(result.records.records.size(), 1000u);
  EXPECT_EQ(ok + shed + other, 1000u);
  EXPECT_EQ(other, 0u);
  EXPECT_EQ(shed, result.shed);
  // At most 500 can complete in the window (a 4 ms wall spin cannot finish early) plus the cap.
  EXPECT_GE(shed, 300u);
  EXPECT_LE(ok, 1000u - 300u);
  EXPECT_LE(result.inFlightHighWater, c.inFlightCap);
  EXPECT_EQ(result.inFlightHighWater, c.inFlightCap);  // it was reached: that is why requests were shed
  // Admitted requests never waited longer than the cap's worth of service (no hidden queue):
  // 8 in flight over 2 workers at 4 ms is 16 ms; allow a shared machine 20x that.
  const auto latency = sortedMs(result.records.records, &RequestRecord::latencyNs);
  EXPECT_LT(latency.back(), 16.0 * 20);
  // Shed requests carry their due and dispatch times.
  for (const auto& r : result.records.records) {
    if (r.outcome == RequestOutcome::Shed) {
      EXPECT_GE(r.dispatched, r.due);
    }
  }
}

// The stall model: from 0.5 s into the window, for 300 ms, no request starts. Requests due in the
// stall wait for its end, so it shows in due-time latency (many requests, up to ~300 ms) and not
// in service time. A closed loop over the same target sees it in at most one request per client:
// coordinated omission, made visible.
TEST(OpenLoopDriver, AStallShowsInDueTimeLatencyNotInServiceTime) {
  SyntheticTarget target(TargetSpec::parse("synthetic:service_us=300,stall_ms=300@0.5"));
  const Workload workload;
  OpenLoopConfig c;
  c.rate = 200;
  c.settleNs = 0;
  c.measureNs = 1'500'000'000;
  c.workers = 4;
  c.inFlightCap = 1000;  // no shedding: every stalled request is measured
  OpenLoopDriver driver(target, workload, c);
  const auto result = driver.run();
  EXPECT_EQ(result.shed, 0u);
  const auto latency = sortedMs(result.records.records, &RequestRecord::latencyNs);
  const auto service = sortedMs(result.records.records, &RequestRecord::serviceNs);
  ASSERT_EQ(latency.size(), 300u);
  // ~60 requests are due in the stall; those due in its first 200 ms wait >= 100 ms (~40).
  EXPECT_GE(countAtLeast(latency, 100.0), 30u);
  EXPECT_GE(latency.back(), 250.0);
  EXPECT_LT(latency.back(), 300.0 * 3);
  // Service time is untouched: no request's service comes near the stall.
  EXPECT_LT(service.back(), 250.0);
  EXPECT_EQ(countAtLeast(service, 100.0), 0u);
  EXPECT_NEAR(medianOf(service), 0.3, 0.03);
  // The stalled requests started only after the stall ended.
  const std::int64_t stallStart = result.measureStartNs + 500'000'000;
  const std::int64_t stallEnd = stallStart + 300'000'000;
  for (const auto& r : result.records.records) {
    if (r.due >= stallStart + 5'000'000 && r.due < stallEnd - 5'000'000) {
      EXPECT_GE(r.start, stallEnd - 1'000'000);
    }
  }

  // The same target under a closed loop: the stall is one slow request per client.
  engine::ClosedLoopConfig cc;
  cc.clients = 2;
  cc.measureNs = 1'500'000'000;
  engine::ClosedLoopDriver closed(target, workload, cc);
  const auto cr = closed.run();
  const auto closedLatency = sortedMs(cr.records.records, &RequestRecord::latencyNs);
  ASSERT_GT(closedLatency.size(), 100u);
  EXPECT_GE(closedLatency.back(), 250.0);  // it did see the stall...
  EXPECT_LE(countAtLeast(closedLatency, 100.0), 2u * cc.clients);  // ...in at most ~one request per client
}

TEST(OpenLoopDriver, MeasuredRequestCountModeAndSettle) {
  SyntheticTarget target(TargetSpec::parse("synthetic:service_us=0"));
  const Workload workload;
  OpenLoopConfig c;
  c.rate = 2000;
  c.settleNs = 100'000'000;  // 200 settle requests
  c.measureRequests = 500;
  c.workers = 2;
  OpenLoopDriver driver(target, workload, c);
  EXPECT_EQ(OpenLoopDriver::plannedRequests(c), 700u);
  const auto result = driver.run();
  std::size_t measured = 0, settle = 0;
  for (const auto& r : result.records.records) (r.measured ? measured : settle)++;
  EXPECT_EQ(measured, 500u);
  EXPECT_EQ(settle, 200u);
  EXPECT_EQ(result.measureStartNs, 100'000'000);
  EXPECT_EQ(result.measureEndNs, 100'000'000 + 250'000'000);
  EXPECT_TRUE(result.window.complete);
  EXPECT_GE(result.window.endNs, result.window.startNs);
}

TEST(OpenLoopDriver, CancellationReturnsPartialResults) {
  SyntheticTarget target(TargetSpec::parse("synthetic:service_us=100"));
  const Workload workload;
  OpenLoopConfig c;
  c.rate = 100;
  c.measureNs = 60'000'000'000;  // would take a minute
  c.workers = 2;
  OpenLoopDriver driver(target, workload, c);
  std::stop_source stop;
  std::jthread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    stop.request_stop();
  });
  const auto result = driver.run(stop.get_token());
  EXPECT_TRUE(result.cancelled);
  EXPECT_LT(result.records.records.size(), 6000u);
  EXPECT_GT(result.records.records.size(), 0u);
  for (const auto& r : result.records.records) EXPECT_NE(r.outcome, RequestOutcome::Error);
}

TEST(OpenLoopDriver, RefusesImpossibleConfigurations) {
  SyntheticTarget target(TargetSpec::parse("synthetic:service_us=0"));
  const Workload workload;
  OpenLoopConfig c;
  c.rate = 1e6;
  c.measureNs = 10'000'000'000;  // 1e7 requests > the per-rung maximum
  try {
    (void)OpenLoopDriver(target, workload, c).run();
    ADD_FAILURE() << "10,000,000 requests in one rung were accepted";
  } catch (const engine::Error& e) {
    // Figures as people write them: it read "1000000/s over 10 s ... more than 2000000 requests".
    EXPECT_NE(std::string(e.what()).find("open loop: 1,000,000/s over 10 s schedules more than 2,000,000 requests"),
              std::string::npos)
        << e.what();
  }
  c.measureNs = 1'000'000;
  c.workers = 0;
  EXPECT_THROW(OpenLoopDriver(target, workload, c).run(), engine::Error);
  c.workers = 1;
  c.inFlightCap = 0;
  EXPECT_THROW(OpenLoopDriver(target, workload, c).run(), engine::Error);
}

}  // namespace
}  // namespace wandscope::test
