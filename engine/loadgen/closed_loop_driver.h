// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/loadgen/driver_monitor.h"
#include "engine/loadgen/request_record.h"
#include "engine/loadgen/target.h"
#include "engine/loadgen/workload.h"

#include <cstdint>
#include <functional>
#include <stop_token>

namespace wandscope::engine {

struct ClosedLoopConfig {
  unsigned clients = 1;
  std::int64_t warmupNs = 0;          // untimed, cycling through the workload
  std::int64_t measureNs = 1'000'000'000;
  std::uint64_t minRequests = 0;      // keep measuring past measureNs until this many completed...
  std::int64_t maxMeasureNs = 0;      // ...but no longer than this (0: 10 x measureNs)
  bool reverse = false;               // walk the workload backwards (the reverse passes)
  std::uint8_t pass = 0;              // stamped on the records
  std::uint64_t maxRecords = 2'000'000;  // the measured window ends early (truncated) at this many
};

struct ClosedLoopResult {
  RungRecords records;               // measured requests only, in issue order
  std::int64_t t0Ns = 0;             // steady clock: the measured window's start; records relative to it
  std::int64_t lastEndNs = 0;        // relative: when the last measured request finished
  WindowStats window;                // from the release of the clients to the end of the last request
  std::uint64_t warmupRequests = 0;
  double warmupSeconds = 0;
  bool truncated = false;            // stopped at maxRecords
  bool cancelled = false;
};

// The closed loop: `clients` threads, each issuing its next request as soon as its previous one
// returned (the first seed's method). The request stream is shared (request s runs workload item
// s, forwards or backwards), so one pass walks the query set in order whatever the concurrency.
// Warm-up and measurement are separated by a barrier: every client finishes its warm-up request
// and waits, the window's start snapshot is taken, and all are released together; at the end
// every client finishes its request, so the window's CPU and counters cover exactly the measured
// requests. Latency is end - issue (the request's own view: a closed loop cannot see a stall it
// did not issue into, which is the point of comparing it with the open loop).
class ClosedLoopDriver {
 public:
  ClosedLoopDriver(Target& target, const Workload& workload, ClosedLoopConfig config);

  // `windowStarting(t0, measureEnd)` (steady ns) runs on the calling thread after the warm-up,
  // just before the clients are released into the measured window.
  ClosedLoopResult run(std::stop_token stop = {}, const DriverTickFn& onTick = {},
                       const std::function<void(std::int64_t, std::int64_t)>& windowStarting = {});

 private:
  Target& m_target;
  const Workload& m_workload;
  ClosedLoopConfig m_config;
};

}  // namespace wandscope::engine
