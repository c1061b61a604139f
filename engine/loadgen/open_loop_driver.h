// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/loadgen/arrival_schedule.h"
#include "engine/loadgen/driver_monitor.h"
#include "engine/loadgen/request_record.h"
#include "engine/loadgen/target.h"
#include "engine/loadgen/workload.h"

#include <cstdint>
#include <functional>
#include <stop_token>

namespace wandscope::engine {

// Per-request records are kept in memory for the exact quantiles, so a rung is bounded: a
// configuration whose rung would hold more requests (settle included) is refused with a usage
// error. ~64 bytes per request plus 8 bytes per engine counter (19 for the built-in engine): at
// most ~430 MB for a full rung.
inline constexpr std::uint64_t kMaxRequestsPerRung = 2'000'000;

struct OpenLoopConfig {
  ArrivalProcess process = ArrivalProcess::Uniform;
  double rate = 100;                  // requests/s (rounded to 0.001/s by the schedule)
  std::uint64_t seed = 1;             // Poisson gaps
  std::int64_t settleNs = 0;          // requests due before this run but are not measured
  std::int64_t measureNs = 1'000'000'000;  // measured window (when measureRequests == 0)
  std::uint64_t measureRequests = 0;  // > 0: the window holds exactly this many requests
  unsigned workers = 4;
  std::uint64_t inFlightCap = 64;     // queued + running; at the cap a due request is shed
  std::int64_t spinNs = 100'000;      // the dispatcher spins this long before each due time
  std::int64_t drainTimeoutNs = 30'000'000'000;  // after the last due time
  std::int64_t startDelayNs = 50'000'000;        // t0 = now + this (threads are up by then)
};

// The window's anchors and what the driver saw, beside the records.
struct OpenLoopResult {
  RungRecords records;              // every request of the rung in schedule order
  double scheduledRate = 0;
  std::int64_t t0Ns = 0;            // steady clock; record times are relative to it
  std::int64_t measureStartNs = 0;  // relative to t0: requests due in [start, end) are measured
  std::int64_t measureEndNs = 0;
  std::int64_t lastEndNs = 0;       // relative to t0: when the last measured request finished
  WindowStats window;               // process deltas from measure start to the drain's end
  std::uint64_t shed = 0;           // whole rung
  std::uint64_t inFlightHighWater = 0;  // the most requests ever queued + running at once
  bool drained = true;              // every admitted request finished within the drain timeout
  bool cancelled = false;           // stopped before the schedule's end (records truncated)
};

// Callbacks around a rung, on the driver's thread: `started` right after t0 is fixed and before
// the first request (anchors already set in the result), `finished` after the drain.
struct OpenLoopHooks {
  std::function<void(const OpenLoopResult&)> started;
  std::function<void(const OpenLoopResult&)> finished;
  DriverTickFn tick;  // on the monitor thread, ~4 Hz
};

// The open-loop driver. One dispatcher (the calling thread) walks the precomputed schedule: it
// sleeps until ~spinNs before each due time, spins to it, and at that instant either hands the
// request to the worker pool or, when in flight (queued + running) >= inFlightCap, sheds it:
// counted, recorded with outcome Shed, never run and never queued (queueing it would let the
// target slow the generator down, which is the closed-loop bias the open loop exists to avoid).
// Workers run requests in FIFO order; each takes thread CPU time around execute() and records its
// due-time latency and service time into its own single-writer histograms for the live view.
// Nothing waits on a request except the drain at the end.
class OpenLoopDriver {
 public:
  OpenLoopDriver(Target& target, const Workload& workload, OpenLoopConfig config);

  // Requests the rung will schedule, settle included (for validation before running).
  static std::uint64_t plannedRequests(const OpenLoopConfig& config);

  // Runs the rung. Throws Usage for an impossible configuration (rate, cap or workers 0, more than
  // kMaxRequestsPerRung requests). `stop` cancels: the dispatcher stops, running requests finish,
  // queued ones are recorded NotRun, and the result is marked cancelled.
  OpenLoopResult run(std::stop_token stop = {}, const OpenLoopHooks& hooks = {});

 private:
  Target& m_target;
  const Workload& m_workload;
  OpenLoopConfig m_config;
};

}  // namespace wandscope::engine
