// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/bench/latency_histogram.h"
#include "engine/bench/run_types.h"
#include "engine/core/progress.h"
#include "engine/loadgen/request_record.h"
#include "engine/loadgen/workload.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wandscope::engine {

class Target;

// What the runner is about to measure.
struct RungPlan {
  std::uint32_t index = 0;       // the RungResult index it will produce
  std::uint32_t planned = 0;     // rungs planned so far (a ladder may stop early)
  std::string target;
  std::string mode;              // "open" | "closed" | "calibration"
  std::string querySet;          // closed loop: the cell's set
  double targetRate = 0;         // open loop
  unsigned concurrency = 0;      // closed loop
  unsigned pass = 0;             // closed loop: 0-based pass, and how many there are
  unsigned passes = 1;
  bool reverse = false;
  double expectedSeconds = 0;    // settle / warm-up + measured window
};

// One live tick (~4 Hz) of the rung being measured, merged over all workers since the previous
// tick. Quantiles here come from the tick's log-linear histogram (<= 0.1 % above the exact
// sample, docs/PERF.md) and carry no thin-sample rule: they are for plotting, and
// `completed` says how many samples stand behind them. Reports never use them.
struct LiveTick {
  RungPlan plan;
  std::string phase;             // "settle" | "measure" | "warmup" ...
  double elapsedSeconds = 0;     // since the rung's t0
  double tickSeconds = 0.25;
  std::uint64_t completed = 0;   // in this tick
  std::uint64_t shed = 0;
  std::uint64_t errors = 0;
  std::uint64_t completedTotal = 0;
  std::uint64_t shedTotal = 0;
  std::uint64_t inFlight = 0;
  std::optional<double> p50Ms, p90Ms, p99Ms, maxMs;  // due-time latency
  std::optional<double> serviceP50Ms;
  double rssMib = 0;
  std::map<std::string, double> counterMeans;  // per request completed in this tick
  const LatencyHistogram* latency = nullptr;  // valid during the call only
};

// The runner's live output for the CLI's progress line and the workbench's plots. Every method
// has a no-op default. onTick runs on a driver's monitor thread; all others on the runner's
// thread. Implementations must be cheap and must not block (a slow sink delays the next tick,
// never a request, since workers do not wait for the monitor).
class LiveSink {
 public:
  virtual ~LiveSink() = default;
  virtual void onRungStarted(const RungPlan& plan) { (void)plan; }
  virtual void onTick(const LiveTick& tick) { (void)tick; }
  // The per-request records of a rung (open loop) or of one pass of a cell (closed loop), before
  // the rung's result. `workload` names the sets and queries the records index into.
  virtual void onRecords(const RungPlan& plan, const RungRecords& records, const Workload& workload) {
    (void)plan;
    (void)records;
    (void)workload;
  }
  virtual void onRungFinished(const RungResult& rung) { (void)rung; }
  // Dataset preparation and other long steps outside rungs.
  virtual void onProgress(const Progress& progress) { (void)progress; }
  // A line for the user ("calibrating builtin: 812.4/s over 5.0 s (4062 requests)").
  virtual void onMessage(const std::string& message) { (void)message; }
};

// Where a rung hook gets its bearings.
struct RungContext {
  RungPlan plan;
  Target* target = nullptr;
  std::int64_t t0Ns = 0;             // steady clock; the rung's record times are relative to it
  std::int64_t measureStartNs = 0;   // steady clock
  std::int64_t measureEndNs = 0;     // steady clock (scheduled; closed loop: start + window)
};

// The extension point for work that runs *during* a rung beside the requests, such as the writes
// arm (a writer adding documents and committing while reads are measured; it hands each new
// generation to BuiltinTarget::setIndex). Called on the runner's thread; both calls must return
// quickly (start a thread, stop it). Events are stamped in seconds from the rung's t0, the same
// clock as the requests, so a commit window lines up with the reads it overlapped.
class RungHook {
 public:
  virtual ~RungHook() = default;
  // After t0 and the window are fixed, before the first request is due.
  virtual void onRungStarting(const RungContext& context) { (void)context; }
  // After every request of the rung finished (or was shed).
  virtual std::vector<RungEvent> onRungFinished(const RungContext& context) {
    (void)context;
    return {};
  }
};

}  // namespace wandscope::engine
