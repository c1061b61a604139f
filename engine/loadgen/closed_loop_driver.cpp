// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/loadgen/closed_loop_driver.h"

#include "engine/bench/process_stats.h"
#include "engine/core/error.h"
#include "engine/loadgen/steady_time.h"

#include <algorithm>
#include <latch>
#include <memory>
#include <numeric>
#include <thread>
#include <vector>

namespace wandscope::engine {

ClosedLoopDriver::ClosedLoopDriver(Target& target, const Workload& workload, ClosedLoopConfig config)
    : m_target(target), m_workload(workload), m_config(config) {}

ClosedLoopResult ClosedLoopDriver::run(std::stop_token stop, const DriverTickFn& onTick,
                                       const std::function<void(std::int64_t, std::int64_t)>& windowStarting) {
  if (m_config.clients == 0 || m_config.clients > 1024) throwUsage("closed loop: clients must be in [1, 1024]");
  if (m_config.measureNs <= 0) throwUsage("closed loop: the measured window must be > 0 s");
  const unsigned clients = m_config.clients;
  const std::size_t cc = m_target.counterNames().size();
  const std::int64_t maxMeasure = m_config.maxMeasureNs > 0 ? m_config.maxMeasureNs : 10 * m_config.measureNs;

  struct ClientState {
    std::vector<RequestRecord> records;
    std::vector<std::uint64_t> counters;
    std::uint64_t warmup = 0;
  };
  std::vector<ClientState> state(clients);
  std::vector<std::unique_ptr<WorkerStats>> stats;
  for (unsigned c = 0; c < clients; ++c) stats.push_back(std::make_unique<WorkerStats>(cc));

  std::atomic<std::uint64_t> next{0};
  std::atomic<std::uint64_t> measuredCount{0};
  std::atomic<bool> truncated{false};
  std::atomic<std::int64_t> t0{0};
  std::atomic<std::int64_t> measureEnd{0};
  std::latch warmedUp(clients);
  std::latch release(1);
  std::latch finished(clients);

  const std::int64_t warmupStart = steadyNowNs();
  const std::int64_t warmupEnd = warmupStart + std::max<std::int64_t>(m_config.warmupNs, 0);

  auto client = [&](unsigned c) {
    ClientState& cs = state[c];
    WorkerStats& ws = *stats[c];
    std::vector<std::uint64_t> scratch(cc);
    while (!stop.stop_requested() && steadyNowNs() < warmupEnd) {
      const WorkItem item = m_workload.item(next.fetch_add(1, std::memory_order_relaxed), m_config.reverse);
      m_target.awaitAdmission(stop);
      try {
        (void)m_target.execute(item, scratch);
      } catch (...) {
      }
      ++cs.warmup;
    }
    // Touch the record storage now, sized from the warm-up's pace, so the measured window's page
    // faults and RSS growth are the target's and not the instrument's vectors growing.
    const double warmupSeconds = static_cast<double>(std::max<std::int64_t>(warmupEnd - warmupStart, 1)) / 1e9;
    const double perClient = static_cast<double>(cs.warmup) / warmupSeconds * static_cast<double>(m_config.measureNs) / 1e9;
    const auto expected = static_cast<std::size_t>(
        std::min(perClient * 1.25 + 256.0, static_cast<double>(m_config.maxRecords / clients + 256)));
    cs.records.resize(expected);
    cs.records.clear();
    cs.counters.resize(expected * cc);
    cs.counters.clear();
    warmedUp.count_down();
    release.wait();
    const std::int64_t base = t0.load(std::memory_order_acquire);
    const std::int64_t end = measureEnd.load(std::memory_order_acquire);
    const std::int64_t hardEnd = base + maxMeasure;
    while (!stop.stop_requested()) {
      const std::int64_t issue = steadyNowNs();
      if (issue >= end && (measuredCount.load(std::memory_order_relaxed) >= m_config.minRequests || issue >= hardEnd)) {
        break;
      }
      if (measuredCount.fetch_add(1, std::memory_order_relaxed) >= m_config.maxRecords) {
        truncated.store(true, std::memory_order_relaxed);
        break;
      }
      const WorkItem item = m_workload.item(next.fetch_add(1, std::memory_order_relaxed), m_config.reverse);
      m_target.awaitAdmission(stop);
      const std::size_t at = cs.counters.size();
      cs.counters.resize(at + cc);
      std::span<std::uint64_t> counters(cs.counters.data() + at, cc);
      const std::int64_t cpu0 = threadCpuNs();  // outside start/end: see the open loop
      const std::int64_t start = steadyNowNs();
      bool ok = false;
      try {
        ok = m_target.execute(item, counters);
      } catch (...) {
        ok = false;
      }
      const std::int64_t stopTime = steadyNowNs();
      const std::int64_t cpu1 = threadCpuNs();
      RequestRecord r;
      r.due = r.dispatched = issue - base;
      r.start = start - base;
      r.end = stopTime - base;
      r.threadCpuNs = cpu1 - cpu0;
      r.sequence = item.sequence;
      r.querySet = item.querySet;
      r.query = item.query;
      r.worker = static_cast<std::uint16_t>(c);
      r.outcome = ok ? RequestOutcome::Ok : RequestOutcome::Error;
      r.measured = true;
      r.pass = m_config.pass;
      cs.records.push_back(r);
      if (ok) {
        ws.latency.record(static_cast<std::uint64_t>(std::max<std::int64_t>(r.end - r.due, 0)));
        ws.service.record(static_cast<std::uint64_t>(std::max<std::int64_t>(r.end - r.start, 0)));
        ws.countCompleted(counters.data());
      } else {
        ws.countError();
      }
    }
    finished.count_down();
  };

  std::vector<std::jthread> threads;
  threads.reserve(clients);
  for (unsigned c = 0; c < clients; ++c) threads.emplace_back([&client, c] { client(c); });

  warmedUp.wait();
  ClosedLoopResult out;
  out.warmupSeconds = static_cast<double>(steadyNowNs() - warmupStart) / 1e9;
  DriverMonitor::Sources sources;
  for (const auto& s : stats) sources.workers.push_back(s.get());
  const std::int64_t start = steadyNowNs();
  DriverMonitor monitor(std::move(sources), start, onTick);
  monitor.beginWindow();
  next.store(0, std::memory_order_relaxed);  // every pass starts at the head of its order
  t0.store(start, std::memory_order_release);
  measureEnd.store(start + m_config.measureNs, std::memory_order_release);
  m_target.beginRung(start);
  if (windowStarting) windowStarting(start, start + m_config.measureNs);
  release.count_down();
  finished.wait();
  out.window = monitor.endWindow();
  for (auto& t : threads) t.join();

  out.t0Ns = start;
  out.cancelled = stop.stop_requested();
  out.truncated = truncated.load();
  out.records.counterNames = m_target.counterNames();
  for (auto& cs : state) {
    out.warmupRequests += cs.warmup;
    out.records.records.insert(out.records.records.end(), cs.records.begin(), cs.records.end());
    out.records.counters.insert(out.records.counters.end(), cs.counters.begin(), cs.counters.end());
  }
  // Issue order across clients (and the counters with their records).
  auto& recs = out.records.records;
  std::vector<std::size_t> order(recs.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return recs[a].due < recs[b].due; });
  std::vector<RequestRecord> sorted;
  std::vector<std::uint64_t> sortedCounters;
  sorted.reserve(recs.size());
  sortedCounters.reserve(out.records.counters.size());
  for (std::size_t i : order) {
    sorted.push_back(recs[i]);
    sortedCounters.insert(sortedCounters.end(), out.records.counters.begin() + static_cast<std::ptrdiff_t>(i * cc),
                          out.records.counters.begin() + static_cast<std::ptrdiff_t>((i + 1) * cc));
  }
  recs = std::move(sorted);
  out.records.counters = std::move(sortedCounters);
  for (const auto& r : recs) out.lastEndNs = std::max(out.lastEndNs, r.end);
  return out;
}

}  // namespace wandscope::engine
