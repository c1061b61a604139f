// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace wandscope::engine {

enum class RequestOutcome : std::uint8_t {
  Ok = 0,
  Error = 1,      // the target failed the request (an exception); not in the latency quantiles
  Shed = 2,       // open loop: in flight >= cap at the due time; never run, never queued
  NotRun = 3,     // admitted but never started: the rung was cancelled or did not drain in time
};
const char* requestOutcomeName(RequestOutcome outcome) noexcept;

// One request of a rung. Times are ns relative to the rung's t0 (the steady-clock instant the
// schedule starts); latency = end - due (coordinated-omission correct), service = end - start,
// dispatch lag = dispatched - due (the generator's own lateness), queue wait = start - dispatched.
// Closed loop: `due` and `dispatched` are the instant the client issued the request.
struct RequestRecord {
  std::int64_t due = 0;
  std::int64_t dispatched = 0;
  std::int64_t start = 0;
  std::int64_t end = 0;
  std::int64_t threadCpuNs = 0;  // worker CLOCK_THREAD_CPUTIME_ID delta around the request
  std::uint64_t sequence = 0;    // position in the rung's request stream
  std::uint32_t querySet = 0;    // index into the workload's sets
  std::uint32_t query = 0;       // index into that set
  std::uint16_t worker = 0;      // worker or client that ran it
  RequestOutcome outcome = RequestOutcome::NotRun;
  bool measured = false;         // inside the measured window (false: settle / warm-up)
  std::uint8_t pass = 0;         // closed loop: the pass it belongs to

  std::int64_t latencyNs() const noexcept { return end - due; }
  std::int64_t serviceNs() const noexcept { return end - start; }
  std::int64_t dispatchLagNs() const noexcept { return dispatched - due; }
};

// What a driver hands back for one rung (or one closed-loop pass): every request in schedule
// order, and the target's per-request counters as a dense row-major matrix
// (counters[r * counterNames.size() + c]).
struct RungRecords {
  std::vector<RequestRecord> records;
  std::vector<std::string> counterNames;
  std::vector<std::uint64_t> counters;

  std::size_t counterCount() const noexcept { return counterNames.size(); }
  const std::uint64_t* countersOf(std::size_t r) const noexcept {
    return counters.data() + r * counterNames.size();
  }
};

}  // namespace wandscope::engine
