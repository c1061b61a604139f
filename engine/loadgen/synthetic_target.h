// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/loadgen/target.h"
#include "engine/loadgen/target_spec.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace wandscope::engine {

// The target that validates the instrument: each request busy-spins for a service time whose
// distribution is known, so the measured numbers can be checked against ground truth.
//
// Spec: synthetic:service_us=N[,dist=const|exp|lognormal][,sigma=S][,spin=wall|cpu]
//                 [,stall_ms=M@T][,seed=K]
//  - service_us: the service time in microseconds (0 = a no-op: the instrument's own ceiling).
//  - dist: const (every request N us), exp (exponential, mean N), lognormal (median N, shape
//    sigma, default 0.5, at most kMaxSigma). Draws are a function of (seed, request sequence),
//    not of the worker, and capped at kMaxServiceNs (10 s, the largest service_us).
//  - spin: wall (default) spins on the steady clock until the service time has elapsed since the
//    request started, so service time equals the drawn value even on a shared machine (its CPU
//    time is at most that); cpu spins until the thread's CPU clock advanced by the drawn value.
//    A spin stops when the driver stops its worker (the request then counts as failed): a long
//    draw never holds up Ctrl-C or a drain timeout.
//  - stall_ms=M@T: the stall model. From T seconds after the rung's measured window starts, for M
//    ms, no request *starts*: workers that pick a request up wait in awaitAdmission until the stall
//    ends, then run it normally. A request already running is not slowed. So the stall is absent
//    from service time (end - start) by construction and present in due-time latency
//    (end - due) of every request due during it or queued behind it: coordinated omission made
//    visible. A closed loop sees it in at most one request per client. Applied on every rung or
//    pass that the target runs.
class SyntheticTarget final : public Target {
 public:
  enum class Distribution { Const, Exp, LogNormal };
  static constexpr double kMaxSigma = 4.0;
  static constexpr double kMaxServiceNs = 10e9;
  struct Config {
    double serviceUs = 0;
    Distribution distribution = Distribution::Const;
    double sigma = 0.5;
    bool cpuSpin = false;
    double stallMs = 0;
    double stallAtS = 0;
    std::uint64_t seed = 0x5eed;
  };

  // Throws Usage naming the spec and the option for a missing service_us, bad numbers or unknown
  // options.
  explicit SyntheticTarget(const TargetSpec& spec);
  SyntheticTarget(std::string specText, const Config& config);

  const Config& config() const noexcept { return m_config; }
  // The service time drawn for request `sequence`, in ns.
  std::int64_t serviceNsFor(std::uint64_t sequence) const noexcept;

  const std::string& spec() const noexcept override { return m_spec; }
  const std::vector<std::string>& counterNames() const noexcept override { return m_counterNames; }
  bool usesQueries() const noexcept override { return false; }
  void beginRung(std::int64_t measureStartNs) override;
  void awaitAdmission(std::stop_token stop) override;
  bool execute(const WorkItem& item, std::span<std::uint64_t> counters) override;

 private:
  std::string m_spec;
  Config m_config;
  std::vector<std::string> m_counterNames;
  std::atomic<std::int64_t> m_stallStartNs{0};
  std::atomic<std::int64_t> m_stallEndNs{0};
};

}  // namespace wandscope::engine
