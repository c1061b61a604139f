// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The result types of a benchmark run, shared by the runner (engine/bench), the report writers,
// the run store (engine/store) and the workbench. Plain values; docs/FORMAT.md ("report.json")
// documents their serialised form. Absent quantiles (too few samples, docs/PERF.md) are nullopt.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wandscope::engine {

// Where and how a run was measured (every report carries it).
struct Environment {
  std::string cpuModel;
  unsigned cores = 0;
  std::string kernel;          // uname -sr
  std::string hostname;
  std::string compiler;        // "g++ 12.2.0"
  std::string compilerFlags;   // CMAKE_CXX_FLAGS + build type flags
  std::string buildType;       // "Release"; reports warn on anything else
  std::string gitCommit;
  bool gitDirty = false;
  std::string simdTarget;      // the SIMD target kernels actually ran on
  std::string wandscopeVersion;
  bool guiAttached = false;    // numbers measured with the workbench attached are labelled
  std::string startedUtc;
  std::map<std::string, std::string> fingerprints;  // "index" -> hash, "queries:<set>" -> hash
  // Added by the instrument (issue 5):
  std::string sanitizers;      // "" or "address,undefined" ...: numbers from such builds are not published
  std::string governor;        // cpufreq governor of cpu0 ("" when not exposed, as in most VMs)
  std::string aslr;            // /proc/sys/kernel/randomize_va_space
  double loadAverage1m = 0;    // at the start of the run (a shared machine's noise)
  double memTotalMib = 0;
  double steadyClockCallNs = 0;     // cost of one steady-clock read (every request takes 4-6)
  double threadCpuClockCallNs = 0;  // cost of one CLOCK_THREAD_CPUTIME_ID read (2 per request)
  // Kernel page-table isolation without PCID: every system call (a thread-CPU clock read among
  // them) empties the TLB, so per-request CPU includes refilling it (syscallTlbWarning).
  bool syscallsFlushTlb = false;
};

// Something a rung hook (e.g. the writes arm) did during a rung, in seconds from the rung's t0.
struct RungEvent {
  std::string name;
  double startSeconds = 0;
  double endSeconds = 0;
  std::string detail;
};

// One pass of a closed-loop cell (passes alternate forward / reverse / forward ...).
struct RungPass {
  bool reverse = false;
  std::uint64_t completed = 0;
  double seconds = 0;                  // measured window of the pass
  double cpuMsPerQuery = 0;            // process CPU / completed over the pass
  std::optional<double> p50Ms;         // nearest rank over this pass alone (thin rule applies)
};

// One measured rung of a ladder (open loop at a target rate) or one closed-loop measurement.
struct RungResult {
  std::uint32_t index = 0;         // position in the run
  std::string target;              // target name ("builtin", "synthetic:service_us=200", ...)
  std::string mode;                // "open" or "closed"
  double targetRate = 0;           // requests/s asked for (open); 0 for closed
  unsigned concurrency = 0;        // closed-loop clients (0 for open)
  double achievedRate = 0;         // completed requests/s over the measured window
  std::uint64_t completed = 0;
  std::uint64_t shed = 0;          // open loop: over the in-flight cap, not run
  std::uint64_t errors = 0;
  double durationSeconds = 0;      // measured window
  std::optional<double> p50Ms;     // due-time latency (open) or request latency (closed)
  std::optional<double> p99Ms;
  std::optional<double> p999Ms;
  std::optional<double> p50CiLowMs, p50CiHighMs, p99CiLowMs, p99CiHighMs;  // 95 % distribution-free
  std::optional<double> serviceP50Ms;  // start -> end
  std::optional<double> serviceP99Ms;
  double cpuMsPerQuery = 0;            // process CPU time / completed
  std::optional<double> threadCpuP50Ms;
  std::optional<double> threadCpuP99Ms;
  double rssPeakMib = 0;
  std::uint64_t minflt = 0, majflt = 0, nvcsw = 0, nivcsw = 0;  // getrusage deltas over the rung
  std::optional<double> dispatchLagP99Us;  // dispatch time - due (the generator's own lag)
  bool valid = true;                   // false when the generator fell behind
  std::string verdict;                 // "pass", "fail" or "invalid"
  std::string criterion;               // why it failed / was invalid ("" on pass)
  std::map<std::string, double> counters;      // per-query means of the engine counters
  std::map<std::string, double> countersP99;   // per-query p99 of the engine counters
  // Added by the instrument (issue 5):
  std::string querySet;                // closed loop: the cell's query set; open loop: "mixed" or the set
  std::string arrivals;                // open loop: "uniform" | "poisson"
  double scheduledRate = 0;            // the rate the schedule ran (targetRate rounded to 0.001/s)
  double offeredRate = 0;              // requests due in the measured window / its length (Poisson varies)
  double settleSeconds = 0;            // open loop: unmeasured lead-in; closed loop: warm-up per pass
  unsigned workers = 0;                // open loop worker threads
  std::uint64_t inFlightCap = 0;
  std::uint64_t inFlightHighWater = 0; // most requests queued + running at once (never above the cap)
  std::uint64_t notRun = 0;            // admitted but never started (cancelled / did not drain)
  std::optional<double> p90Ms;
  std::optional<double> queueWaitP50Ms;  // start - dispatched: waiting for a free worker
  std::optional<double> queueWaitP99Ms;
  std::optional<double> threadCpuMeanMs;
  double processCpuMs = 0;             // process CPU over the window (numerator of cpuMsPerQuery)
  double instrumentCpuMs = 0;          // of which the instrument's own threads (dispatcher, monitor)
  double instrumentMib = 0;            // memory the instrument held for records during the rung
  std::optional<double> dispatchLagMaxUs;
  double lateDispatchFraction = 0;     // share of dispatches later than the rule's lag threshold
  std::optional<double> latencyGrowth; // Theil-Sen slope of binned median latency x window / median
  bool partial = false;                // cancelled before it finished
  std::vector<RungPass> passes;        // closed loop
  std::vector<RungEvent> events;       // from the rung hook (writes arm)
};

// A run's identity and settings, known before the first rung.
struct RunHeader {
  std::string runId;            // unique (UTC time + random suffix)
  std::string profileName;
  std::string profileJson;      // the profile as run (after CLI overrides)
  std::vector<std::string> targets;
  Environment environment;
};

// The whole run. `partial` is true when it was interrupted before its last rung.
struct RunReport {
  static constexpr int kSchemaVersion = 1;
  RunHeader header;
  std::vector<RungResult> rungs;
  bool partial = false;
  // Maximum sustainable rate per target as [last passing rung, first failing rung] (open loop).
  struct Capacity {
    std::optional<double> lastPass;
    std::optional<double> firstFail;
    std::string criterion;
  };
  std::map<std::string, Capacity> capacity;
  std::string quantileDefinition = "nearest rank: x_(ceil(q*n)); shown only with >= 100 samples beyond it";
  // Added by the instrument (issue 5):
  std::string saturationRule;          // the rule every open-loop verdict was judged by, in words
  // Sequential throughput per target (closed loop, one client) when the ladder is in multiples.
  struct Calibration {
    double rate = 0;
    std::uint64_t requests = 0;
    double seconds = 0;
  };
  std::map<std::string, Calibration> calibration;
  std::vector<std::string> warnings;   // debug build, sanitizers, thin rungs, ...
  // False when the run was stopped while its dataset was prepared: nothing was measured and no
  // observer (the run store) was told of it. In memory only, not in report.json.
  bool started = true;
  // Stored parts (rungs, the run's end) RunStore::loadRun left out because they could not be read,
  // each named in `warnings`, and how many of them were rungs (the store holds rungs.size() +
  // rungsLeftOut). In memory only.
  std::size_t partsLeftOut = 0;
  std::size_t rungsLeftOut = 0;
};

// Receives a run as it happens: the store commits each finished rung in its own transaction so an
// interrupted run keeps what it finished; the workbench updates its tables. Called from the
// runner's thread; implementations must not block for long.
class RunObserver {
 public:
  virtual ~RunObserver() = default;
  virtual void onRunStarted(const RunHeader& header) = 0;
  virtual void onRungFinished(const RunHeader& header, const RungResult& rung) = 0;
  virtual void onRunFinished(const RunReport& report) = 0;
};

}  // namespace wandscope::engine
