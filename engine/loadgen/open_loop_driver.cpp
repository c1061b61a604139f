// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/loadgen/open_loop_driver.h"

#include "engine/bench/process_stats.h"
#include "engine/core/error.h"
#include "engine/core/wording.h"
#include "engine/loadgen/steady_time.h"

#include <fmt/format.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace wandscope::engine {
namespace {

// The dispatcher's hand-off to the workers: a FIFO of request indices, at most inFlightCap long
// (the cap bounds queued + running). A mutex and a condition variable: the dispatcher holds the
// lock for a push, a worker for a pop; the time a woken worker takes to start is part of the
// request's queue wait (start - dispatched) and is reported, not hidden.
class RequestQueue {
 public:
  explicit RequestQueue(std::size_t capacity) : m_ring(std::max<std::size_t>(capacity, 1)) {}

  void push(std::size_t index) {
    {
      std::lock_guard lock(m_mutex);
      m_ring[(m_head + m_size) % m_ring.size()] = index;
      ++m_size;
    }
    m_ready.notify_one();
  }

  // False when stopped and empty.
  bool pop(std::size_t& index, std::stop_token stop) {
    std::unique_lock lock(m_mutex);
    m_ready.wait(lock, stop, [this] { return m_size > 0; });
    if (m_size == 0) return false;
    index = m_ring[m_head];
    m_head = (m_head + 1) % m_ring.size();
    --m_size;
    return true;
  }

  // Leftovers after the workers stopped.
  std::vector<std::size_t> drainRemaining() {
    std::lock_guard lock(m_mutex);
    std::vector<std::size_t> out;
    for (; m_size > 0; --m_size, m_head = (m_head + 1) % m_ring.size()) out.push_back(m_ring[m_head]);
    return out;
  }

 private:
  std::mutex m_mutex;
  std::condition_variable_any m_ready;
  std::vector<std::size_t> m_ring;
  std::size_t m_head = 0;
  std::size_t m_size = 0;
};

struct Plan {
  std::vector<std::int64_t> offsets;
  std::size_t settleCount = 0;
  std::int64_t measureStart = 0;
  std::int64_t measureEnd = 0;
};

Plan makePlan(const OpenLoopConfig& c) {
  const ArrivalSchedule schedule(c.process, c.rate, c.seed);
  Plan p;
  p.measureStart = std::max<std::int64_t>(c.settleNs, 0);
  const std::size_t limit = static_cast<std::size_t>(kMaxRequestsPerRung) + 1;
  if (c.measureRequests > 0) {
    p.settleCount = schedule.offsetsBefore(p.measureStart, limit).size();
    const std::uint64_t total = p.settleCount + c.measureRequests;
    p.offsets = schedule.firstOffsets(static_cast<std::size_t>(std::min<std::uint64_t>(total, limit)));
    // The window is as long as N requests take at the scheduled rate.
    const auto windowNs = static_cast<std::int64_t>(static_cast<double>(c.measureRequests) * 1e9 / schedule.rate());
    p.measureEnd = std::max(p.measureStart + windowNs, p.offsets.empty() ? 0 : p.offsets.back() + 1);
  } else {
    p.measureEnd = p.measureStart + std::max<std::int64_t>(c.measureNs, 0);
    p.offsets = schedule.offsetsBefore(p.measureEnd, limit);
    p.settleCount = static_cast<std::size_t>(
        std::lower_bound(p.offsets.begin(), p.offsets.end(), p.measureStart) - p.offsets.begin());
  }
  return p;
}

void validate(const OpenLoopConfig& c) {
  if (c.workers == 0) throwUsage("open loop: workers must be >= 1");
  if (c.workers > 1024) throwUsage("open loop: workers must be <= 1024");
  if (c.inFlightCap == 0) throwUsage("open loop: in-flight cap must be >= 1");
  if (c.inFlightCap > kMaxRequestsPerRung) throwUsage("open loop: in-flight cap must be <= 2000000");
  if (c.measureRequests == 0 && c.measureNs <= 0) throwUsage("open loop: the measured window must be > 0 s");
  (void)ArrivalSchedule(c.process, c.rate, c.seed);  // validates the rate
}

}  // namespace

OpenLoopDriver::OpenLoopDriver(Target& target, const Workload& workload, OpenLoopConfig config)
    : m_target(target), m_workload(workload), m_config(config) {}

std::uint64_t OpenLoopDriver::plannedRequests(const OpenLoopConfig& config) {
  validate(config);
  return makePlan(config).offsets.size();
}

OpenLoopResult OpenLoopDriver::run(std::stop_token externalStop, const OpenLoopHooks& hooks) {
  validate(m_config);
  const Plan plan = makePlan(m_config);
  if (plan.offsets.size() > kMaxRequestsPerRung) {
    throwUsage(fmt::format("open loop: {} over {} s schedules more than {} requests in one rung (per-request "
                           "records are kept in memory); shorten the rung or lower the rate",
                           formatRate(m_config.rate), significant(static_cast<double>(plan.measureEnd) / 1e9),
                           grouped(kMaxRequestsPerRung)));
  }
  const std::size_t n = plan.offsets.size();
  const std::size_t cc = m_target.counterNames().size();

  OpenLoopResult out;
  out.scheduledRate = ArrivalSchedule(m_config.process, m_config.rate, m_config.seed).rate();
  out.records.counterNames = m_target.counterNames();
  out.records.records.resize(n);
  out.records.counters.assign(n * cc, 0);
  out.measureStartNs = plan.measureStart;
  out.measureEndNs = plan.measureEnd;
  auto& records = out.records.records;
  for (std::size_t i = 0; i < n; ++i) {
    const WorkItem item = m_workload.item(i);
    records[i].due = plan.offsets[i];
    records[i].sequence = i;
    records[i].querySet = item.querySet;
    records[i].query = item.query;
    records[i].measured = i >= plan.settleCount;
  }

  std::stop_source stopSource;
  std::stop_callback forward(externalStop, [&stopSource] { stopSource.request_stop(); });
  const std::stop_token stop = stopSource.get_token();

  std::atomic<std::uint64_t> inFlight{0};
  std::atomic<std::uint64_t> shed{0};
  RequestQueue queue(static_cast<std::size_t>(m_config.inFlightCap));
  std::vector<std::unique_ptr<WorkerStats>> stats;
  for (unsigned w = 0; w < m_config.workers; ++w) stats.push_back(std::make_unique<WorkerStats>(cc));

  const std::int64_t t0 = steadyNowNs() + std::max<std::int64_t>(m_config.startDelayNs, 0);
  out.t0Ns = t0;
  m_target.beginRung(t0 + plan.measureStart);

  auto worker = [&](unsigned w, std::stop_token workerStop) {
    WorkerStats& ws = *stats[w];
    std::size_t index = 0;
    while (queue.pop(index, workerStop)) {
      RequestRecord& r = records[index];
      m_target.awaitAdmission(workerStop);
      if (workerStop.stop_requested()) {
        r.outcome = RequestOutcome::NotRun;
        inFlight.fetch_sub(1, std::memory_order_release);
        continue;
      }
      const WorkItem item{r.sequence, r.querySet, r.query};
      std::span<std::uint64_t> counters(out.records.counters.data() + index * cc, cc);
      // The thread-CPU reads are system calls (microseconds on some VMs): they go outside the
      // start/end pair so service time does not carry them.
      const std::int64_t cpu0 = threadCpuNs();
      const std::int64_t start = steadyNowNs();
      bool ok = false;
      try {
        ok = m_target.execute(item, counters);
      } catch (...) {
        ok = false;
      }
      const std::int64_t end = steadyNowNs();
      const std::int64_t cpu1 = threadCpuNs();
      r.start = start - t0;
      r.end = end - t0;
      r.threadCpuNs = cpu1 - cpu0;
      r.worker = static_cast<std::uint16_t>(w);
      r.outcome = ok ? RequestOutcome::Ok : RequestOutcome::Error;
      if (ok) {
        ws.latency.record(static_cast<std::uint64_t>(std::max<std::int64_t>(r.end - r.due, 0)));
        ws.service.record(static_cast<std::uint64_t>(std::max<std::int64_t>(r.end - r.start, 0)));
        ws.countCompleted(counters.data());
      } else {
        ws.countError();
      }
      inFlight.fetch_sub(1, std::memory_order_release);
    }
  };

  DriverMonitor::Sources sources;
  for (const auto& s : stats) sources.workers.push_back(s.get());
  sources.shed = &shed;
  sources.inFlight = &inFlight;
  sources.instrumentThreads.push_back(ThreadCpuClock::ofCurrentThread());  // the dispatcher
  DriverMonitor monitor(std::move(sources), t0, hooks.tick);
  monitor.scheduleWindowStart(t0 + plan.measureStart);

  std::stop_source workerStop;
  std::vector<std::jthread> workers;
  workers.reserve(m_config.workers);
  for (unsigned w = 0; w < m_config.workers; ++w) {
    workers.emplace_back([&worker, w, token = workerStop.get_token()] { worker(w, token); });
  }
  if (hooks.started) hooks.started(out);

  // The dispatcher.
  std::size_t dispatched = 0;
  std::uint64_t highWater = 0;
  const std::uint64_t cap = m_config.inFlightCap;
  for (; dispatched < n; ++dispatched) {
    RequestRecord& r = records[dispatched];
    if (!waitUntilNs(t0 + r.due, m_config.spinNs, stop)) break;
    r.dispatched = steadyNowNs() - t0;
    const std::uint64_t current = inFlight.load(std::memory_order_acquire);
    if (current >= cap) {
      r.outcome = RequestOutcome::Shed;
      r.start = r.end = r.dispatched;
      shed.store(shed.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
      continue;
    }
    // Only this thread increments, so the value after the increment is the in-flight maximum.
    const std::uint64_t now = inFlight.fetch_add(1, std::memory_order_acq_rel) + 1;
    highWater = std::max(highWater, now);
    queue.push(dispatched);
  }
  out.cancelled = dispatched < n;

  // Drain: wait for every admitted request, bounded.
  const std::int64_t drainDeadline = steadyNowNs() + m_config.drainTimeoutNs;
  while (inFlight.load(std::memory_order_acquire) > 0) {
    if (steadyNowNs() >= drainDeadline) {
      out.drained = false;
      break;
    }
    if (stop.stop_requested()) break;
    const std::int64_t t = steadyNowNs() + 200'000;
    (void)waitUntilNs(t, 0);
  }
  out.window = monitor.endWindow();
  workerStop.request_stop();
  for (auto& t : workers) t.join();
  for (std::size_t index : queue.drainRemaining()) records[index].outcome = RequestOutcome::NotRun;
  if (out.cancelled) {
    records.resize(dispatched);
    out.records.counters.resize(dispatched * cc);
  }
  out.shed = shed.load();
  out.inFlightHighWater = highWater;
  for (const auto& r : records) {
    if (r.measured && r.outcome != RequestOutcome::Shed && r.outcome != RequestOutcome::NotRun) {
      out.lastEndNs = std::max(out.lastEndNs, r.end);
    }
  }
  if (hooks.finished) hooks.finished(out);
  return out;
}

}  // namespace wandscope::engine
