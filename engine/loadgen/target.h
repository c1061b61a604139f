// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <span>
#include <stop_token>
#include <string>
#include <vector>

namespace wandscope::engine {

// What one request asks for: the `query`-th query of the workload's `querySet`-th set.
struct WorkItem {
  std::uint64_t sequence = 0;
  std::uint32_t querySet = 0;
  std::uint32_t query = 0;
};

// One ranked answer of a request, for comparing the results of two targets: the document in the
// index's numbering (corpus order) and its score bits as computed.
struct TargetHit {
  std::uint32_t doc = 0;
  float score = 0.0f;
};

// Something the load generator drives: the built-in engine, or the synthetic target that
// validates the instrument. Called concurrently from every worker thread.
//
// Contract, per request, on the worker thread:
//   awaitAdmission(stop)            -- may block: the target is not accepting new work (the
//                                      synthetic stall); not part of service time
//   start = now; execute(...); end = now
// `execute` must be thread-safe, must not throw (an exception is caught by the driver and counted
// as an error), and writes exactly counterNames().size() values into `counters`.
class Target {
 public:
  virtual ~Target() = default;

  // The spec it was made from ("builtin:freq_prune=off", "synthetic:service_us=200"): its name in
  // reports.
  virtual const std::string& spec() const noexcept = 0;
  // Per-request counters it reports, snake_case; may be empty.
  virtual const std::vector<std::string>& counterNames() const noexcept = 0;
  // Whether requests need the workload's queries (the synthetic target ignores them).
  virtual bool usesQueries() const noexcept { return true; }

  // Called once before each rung or pass, before any request of it, with the steady-clock ns at
  // which its measured window begins.
  virtual void beginRung(std::int64_t measureStartNs) { (void)measureStartNs; }
  // Blocks while the target does not start new requests (see SyntheticTarget's stall). Returns
  // early when `stop` is requested.
  virtual void awaitAdmission(std::stop_token stop) { (void)stop; }
  // Runs one request; false when it failed.
  virtual bool execute(const WorkItem& item, std::span<std::uint64_t> counters) = 0;
  // Runs one request untimed and returns its hits in rank order (the comparison's result check).
  // False when the target has no results to compare (the synthetic target) or the request failed.
  virtual bool hits(const WorkItem& item, std::vector<TargetHit>& out) {
    (void)item;
    out.clear();
    return false;
  }
};

}  // namespace wandscope::engine
