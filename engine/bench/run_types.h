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
