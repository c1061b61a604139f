// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/bench/histogram_recorder.h"
#include "engine/bench/latency_histogram.h"
#include "engine/bench/process_stats.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

namespace wandscope::engine {

// The per-worker, single-writer statistics a driver's worker updates after every request, on its
// own cache lines. Only that worker writes; the monitor reads.
struct alignas(64) WorkerStats {
  explicit WorkerStats(std::size_t counters = 0)
      : counterCount(counters), counterSums(std::make_unique<std::atomic<std::uint64_t>[]>(counters)) {
    for (std::size_t i = 0; i < counters; ++i) counterSums[i].store(0, std::memory_order_relaxed);
  }

  HistogramRecorder latency;  // ns, due-time latency (closed loop: issue-time)
  HistogramRecorder service;  // ns, end - start
  std::atomic<std::uint64_t> completed{0};
  std::atomic<std::uint64_t> errors{0};
  std::size_t counterCount;
  std::unique_ptr<std::atomic<std::uint64_t>[]> counterSums;  // the target's counters, summed

  // A completed request (single writer: load + store, no read-modify-write).
  void countCompleted(const std::uint64_t* counters) noexcept {
    for (std::size_t i = 0; i < counterCount; ++i) {
      counterSums[i].store(counterSums[i].load(std::memory_order_relaxed) + counters[i], std::memory_order_relaxed);
    }
    completed.store(completed.load(std::memory_order_relaxed) + 1, std::memory_order_release);
  }
  void countError() noexcept { errors.store(errors.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed); }
};

// One live tick: what happened since the previous tick, merged over every worker.
struct DriverTick {
  std::int64_t elapsedNs = 0;       // since the rung's t0
  bool measuring = false;           // inside the measured window
  std::uint64_t completed = 0;      // this tick
  std::uint64_t errors = 0;
  std::uint64_t shed = 0;
  std::uint64_t completedTotal = 0; // since the rung started
  std::uint64_t shedTotal = 0;
  std::uint64_t inFlight = 0;
  std::uint64_t rssBytes = 0;
  LatencyHistogram latency;         // this tick's requests
  LatencyHistogram service;
  std::vector<double> counterMeans; // per completed request of this tick, in the target's order
};
using DriverTickFn = std::function<void(const DriverTick&)>;

// What the process did over a measured window.
struct WindowStats {
  std::int64_t startNs = 0;         // steady clock
  std::int64_t endNs = 0;
  ProcessSnapshot process;          // differences over [startNs, endNs]
  std::int64_t instrumentCpuNs = 0; // CPU of the instrument's own threads (dispatcher, monitor)
  std::uint64_t rssPeakBytes = 0;   // max of the 10 Hz samples in the window and at its two ends
  bool complete = false;            // both ends were taken
};

// The monitor thread every driver runs beside its workers: samples RSS at 10 Hz, builds a live
// tick every 250 ms by merging the workers' histogram deltas (no locks on the workers' side), and
// takes the process snapshots at the two ends of the measured window. beginWindow() can be
// scheduled for an instant (the open loop knows when its window starts) or called directly (the
// closed loop starts its window at a barrier).
class DriverMonitor {
 public:
  struct Sources {
    std::vector<const WorkerStats*> workers;
    const std::atomic<std::uint64_t>* shed = nullptr;     // open loop
    const std::atomic<std::uint64_t>* inFlight = nullptr; // open loop
    std::vector<ThreadCpuClock> instrumentThreads;        // besides the monitor itself
  };

  DriverMonitor(Sources sources, std::int64_t t0Ns, DriverTickFn onTick, std::int64_t tickNs = 250'000'000,
                std::int64_t rssNs = 100'000'000);
  ~DriverMonitor();
  DriverMonitor(const DriverMonitor&) = delete;
  DriverMonitor& operator=(const DriverMonitor&) = delete;

  // The monitor thread calls beginWindow() itself when the steady clock reaches `startNs`.
  void scheduleWindowStart(std::int64_t startNs);
  // Takes the window's start snapshot now (no-op when already begun).
  void beginWindow();
  // Takes the end snapshot now (begins the window first if it never was) and stops the thread.
  WindowStats endWindow();
  // Stops the thread without a window (cancellation paths); idempotent.
  void stop();

 private:
  void run(std::stop_token stop);
  void tick(bool final);
  std::int64_t instrumentCpuNow() const;
  void beginWindowLocked();

  Sources m_sources;
  std::int64_t m_t0;
  DriverTickFn m_onTick;
  std::int64_t m_tickNs;
  std::int64_t m_rssNs;
  ThreadCpuClock m_ownClock;

  std::mutex m_mutex;  // window state; never touched by workers
  std::condition_variable_any m_wake;
  std::int64_t m_scheduledStart = -1;
  bool m_windowBegun = false;
  bool m_windowEnded = false;
  ProcessSnapshot m_startSnapshot;
  std::int64_t m_startInstrumentCpu = 0;
  WindowStats m_window;

  // Tick state (monitor thread only, and endWindow after the thread is joined).
  std::vector<std::vector<std::uint64_t>> m_seenLatency;
  std::vector<std::vector<std::uint64_t>> m_seenService;
  std::uint64_t m_lastCompleted = 0, m_lastErrors = 0, m_lastShed = 0;
  std::vector<std::uint64_t> m_lastCounterSums;
  DriverTick m_tick;

  std::jthread m_thread;  // last: started after everything above exists
};

}  // namespace wandscope::engine
