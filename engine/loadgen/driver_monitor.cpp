// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/loadgen/driver_monitor.h"

#include "engine/loadgen/steady_time.h"

#include <algorithm>
#include <chrono>

namespace wandscope::engine {
namespace {

std::chrono::steady_clock::time_point toTimePoint(std::int64_t ns) {
  // libstdc++'s steady_clock is CLOCK_MONOTONIC, the clock steadyNowNs() reads.
  return std::chrono::steady_clock::time_point(std::chrono::nanoseconds(ns));
}

}  // namespace

DriverMonitor::DriverMonitor(Sources sources, std::int64_t t0Ns, DriverTickFn onTick, std::int64_t tickNs,
                             std::int64_t rssNs)
    : m_sources(std::move(sources)),
      m_t0(t0Ns),
      m_onTick(std::move(onTick)),
      m_tickNs(std::max<std::int64_t>(tickNs, 1'000'000)),
      m_rssNs(std::max<std::int64_t>(rssNs, 1'000'000)),
      m_seenLatency(m_sources.workers.size()),
      m_seenService(m_sources.workers.size()) {
  m_thread = std::jthread([this](std::stop_token stop) { run(stop); });
}

DriverMonitor::~DriverMonitor() { stop(); }

void DriverMonitor::stop() {
  if (m_thread.joinable()) {
    m_thread.request_stop();
    m_wake.notify_all();
    m_thread.join();
  }
}

void DriverMonitor::scheduleWindowStart(std::int64_t startNs) {
  std::lock_guard lock(m_mutex);
  m_scheduledStart = startNs;
  m_wake.notify_all();
}

std::int64_t DriverMonitor::instrumentCpuNow() const {
  std::int64_t sum = m_ownClock.nowNs();
  for (const auto& c : m_sources.instrumentThreads) sum += c.nowNs();
  return sum;
}

void DriverMonitor::beginWindowLocked() {
  if (m_windowBegun) return;
  m_windowBegun = true;
  m_scheduledStart = -1;
  m_startInstrumentCpu = instrumentCpuNow();
  m_startSnapshot = ProcessSnapshot::take();
  m_window.startNs = steadyNowNs();
  m_window.rssPeakBytes = residentBytes();
}

void DriverMonitor::beginWindow() {
  std::lock_guard lock(m_mutex);
  beginWindowLocked();
}

WindowStats DriverMonitor::endWindow() {
  {
    std::lock_guard lock(m_mutex);
    beginWindowLocked();
    if (!m_windowEnded) {
      m_window.endNs = steadyNowNs();
      m_window.process = ProcessSnapshot::take() - m_startSnapshot;
      m_window.instrumentCpuNs = instrumentCpuNow() - m_startInstrumentCpu;
      m_window.rssPeakBytes = std::max(m_window.rssPeakBytes, residentBytes());
      m_window.complete = true;
      m_windowEnded = true;
    }
  }
  const bool wasRunning = m_thread.joinable();
  stop();
  if (wasRunning) tick(true);  // flush what the last partial tick saw
  return m_window;
}

void DriverMonitor::tick(bool final) {
  (void)final;
  m_tick.latency.clear();
  m_tick.service.clear();
  std::uint64_t completed = 0, errors = 0;
  const std::size_t cc = m_sources.workers.empty() ? 0 : m_sources.workers.front()->counterCount;
  std::vector<std::uint64_t> sums(cc, 0);
  for (std::size_t w = 0; w < m_sources.workers.size(); ++w) {
    const WorkerStats* ws = m_sources.workers[w];
    // Completed first (acquire): every counter sum it covers is visible; a sum may run ahead by
    // the request being recorded, which a live mean tolerates.
    completed += ws->completed.load(std::memory_order_acquire);
    errors += ws->errors.load(std::memory_order_relaxed);
    ws->latency.collectDelta(m_tick.latency, m_seenLatency[w]);
    ws->service.collectDelta(m_tick.service, m_seenService[w]);
    for (std::size_t i = 0; i < cc && i < ws->counterCount; ++i) sums[i] += ws->counterSums[i].load(std::memory_order_relaxed);
  }
  if (m_lastCounterSums.size() != cc) m_lastCounterSums.assign(cc, 0);
  m_tick.counterMeans.assign(cc, 0.0);
  const std::uint64_t tickCompleted = completed - m_lastCompleted;
  for (std::size_t i = 0; i < cc; ++i) {
    if (tickCompleted > 0) {
      m_tick.counterMeans[i] =
          static_cast<double>(sums[i] - m_lastCounterSums[i]) / static_cast<double>(tickCompleted);
    }
    m_lastCounterSums[i] = sums[i];
  }
  const std::uint64_t shed = m_sources.shed ? m_sources.shed->load(std::memory_order_relaxed) : 0;
  const std::int64_t now = steadyNowNs();
  m_tick.elapsedNs = now - m_t0;
  {
    std::lock_guard lock(m_mutex);
    m_tick.measuring = m_windowBegun && !m_windowEnded;
  }
  m_tick.completed = completed - m_lastCompleted;
  m_tick.errors = errors - m_lastErrors;
  m_tick.shed = shed - m_lastShed;
  m_tick.completedTotal = completed;
  m_tick.shedTotal = shed;
  m_tick.inFlight = m_sources.inFlight ? m_sources.inFlight->load(std::memory_order_relaxed) : 0;
  m_tick.rssBytes = residentBytes();
  m_lastCompleted = completed;
  m_lastErrors = errors;
  m_lastShed = shed;
  if (m_onTick) m_onTick(m_tick);
}

void DriverMonitor::run(std::stop_token stop) {
  std::unique_lock lock(m_mutex);
  m_ownClock = ThreadCpuClock::ofCurrentThread();
  std::int64_t nextTick = std::max(m_t0, steadyNowNs()) + m_tickNs;
  std::int64_t nextRss = steadyNowNs() + m_rssNs;
  while (!stop.stop_requested()) {
    std::int64_t next = std::min(nextTick, nextRss);
    if (m_scheduledStart >= 0) next = std::min(next, m_scheduledStart);
    m_wake.wait_until(lock, stop, toTimePoint(next), [] { return false; });
    if (stop.stop_requested()) break;
    const std::int64_t now = steadyNowNs();
    if (m_scheduledStart >= 0 && now >= m_scheduledStart) beginWindowLocked();
    if (now >= nextRss) {
      if (m_windowBegun && !m_windowEnded) m_window.rssPeakBytes = std::max(m_window.rssPeakBytes, residentBytes());
      while (nextRss <= now) nextRss += m_rssNs;
    }
    if (now >= nextTick) {
      lock.unlock();
      tick(false);
      lock.lock();
      while (nextTick <= now) nextTick += m_tickNs;
    }
  }
}

}  // namespace wandscope::engine
