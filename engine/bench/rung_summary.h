// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/bench/run_types.h"
#include "engine/loadgen/driver_monitor.h"
#include "engine/loadgen/request_record.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wandscope::engine {

// The measured window of a rung, relative to its t0 (ns), and what the process did over it.
struct RungWindow {
  std::int64_t measureStartNs = 0;
  std::int64_t measureEndNs = 0;   // end of the scheduled window (closed loop: == lastEndNs)
  std::int64_t lastEndNs = 0;      // when the last measured request finished
  WindowStats process;
  double lateDispatchUs = 1000;    // the rule's "late" threshold, for lateDispatchFraction
};

// Fills `rung`'s statistics from the measured requests of `parts` (one RungRecords for an open
// rung; one per pass, pooled, for a closed-loop cell) and their windows (process counters are
// summed over windows; RSS peak is their max):
//  - completed / errors / shed / notRun counts; quantiles (nearest rank, thin rule,
//    engine/bench/quantile.h) of due-time latency with 95 % intervals for p50 and p99, service
//    time, queue wait and worker thread CPU, over completed requests only (shed and failed
//    requests are counted, not timed);
//  - achievedRate = completed / max(window length, last end - window start);
//  - cpuMsPerQuery = process CPU over the windows / completed (instrumentCpuMs shows how much of
//    it was the instrument's own threads);
//  - dispatch lag p99 and max (shed requests included: the generator was on time or not either
//    way) and the share later than `lateDispatchUs`;
//  - counters: per-query mean and p99 of every target counter over completed requests;
//  - latencyGrowth (open loop: windows.size() == 1 and measureEnd > measureStart).
void summarizeRung(const std::vector<const RungRecords*>& parts, const std::vector<RungWindow>& windows,
                   RungResult& rung);

// The warning of a run whose per-request thread CPU figures carry a large share of clock reads:
// each is the difference of two CLOCK_THREAD_CPUTIME_ID reads and holds about one read's cost
// (`clockCallNs`; on the 2-core EPYC VM, 2026-12-06, a read cost 586 ns, and a no-op target at
// 1,000/s showed a thread CPU p50 of 0.68 us for a service p50 of 0.05 us).
// Said, naming the rung, when the cost reaches 10 % of the smallest rung's thread CPU p50;
// nothing below, or when no rung has a p50. Process CPU per query holds the workers' reads too.
std::optional<std::string> threadCpuClockWarning(const std::vector<RungResult>& rungs, double clockCallNs);

// The warning of a run with open-loop rungs left invalid because the load generator fell behind
// its schedule (SaturationRule's late-dispatch limit): such a rung measured the machine, not the
// target. Names how many, the first one's criterion, and says what to try (a busy machine is the
// load-average warning's to say); nothing when no rung was. On a busy 2-core machine every rung
// of a quick ladder can be, and the run ends with "maximum sustainable rate not established".
std::optional<std::string> generatorBehindWarning(const std::vector<RungResult>& rungs);

// Bytes the instrument holds for these records (for RungResult::instrumentMib).
std::uint64_t recordBytes(const RungRecords& records);

}  // namespace wandscope::engine
