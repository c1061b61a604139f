// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/loadgen/synthetic_target.h"

#include "engine/bench/process_stats.h"
#include "engine/core/error.h"
#include "engine/loadgen/arrival_schedule.h"
#include "engine/loadgen/steady_time.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <numbers>

namespace wandscope::engine {
namespace {

[[noreturn]] void badOption(const std::string& spec, const std::string& key, const std::string& what) {
  std::string message = "target '";
  message.append(spec).append("': ").append(key).append(": ").append(what);
  throwUsage(message);
}

double parseNumber(const std::string& spec, const std::string& key, const std::string& value) {
  double v = 0;
  const auto* end = value.data() + value.size();
  const auto [ptr, ec] = std::from_chars(value.data(), end, v);
  if (ec != std::errc() || ptr != end || !std::isfinite(v)) badOption(spec, key, "not a number: '" + value + "'");
  if (v < 0) badOption(spec, key, "must be >= 0");
  return v;
}

}  // namespace

SyntheticTarget::SyntheticTarget(const TargetSpec& spec) : m_spec(spec.text) {
  if (spec.kind != "synthetic") badOption(spec.text, "kind", "not a synthetic target");
  bool haveService = false;
  for (const auto& [key, value] : spec.options) {
    if (key == "service_us") {
      m_config.serviceUs = parseNumber(spec.text, key, value);
      haveService = true;
    } else if (key == "dist") {
      if (value == "const") {
        m_config.distribution = Distribution::Const;
      } else if (value == "exp") {
        m_config.distribution = Distribution::Exp;
      } else if (value == "lognormal") {
        m_config.distribution = Distribution::LogNormal;
      } else {
        badOption(spec.text, key, "expected const, exp or lognormal, got '" + value + "'");
      }
    } else if (key == "sigma") {
      // Bounded: sigma=1e300 drew 0 or the cap for every request and hung a bench (review, stop 32).
      m_config.sigma = parseNumber(spec.text, key, value);
      if (m_config.sigma > kMaxSigma) badOption(spec.text, key, fmt::format("must be <= {:g}", kMaxSigma));
    } else if (key == "spin") {
      if (value != "wall" && value != "cpu") badOption(spec.text, key, "expected wall or cpu, got '" + value + "'");
      m_config.cpuSpin = value == "cpu";
    } else if (key == "stall_ms") {
      const std::size_t at = value.find('@');
      if (at == std::string::npos) badOption(spec.text, key, "expected M@T (M ms, T s after the window starts)");
      m_config.stallMs = parseNumber(spec.text, key, value.substr(0, at));
      m_config.stallAtS = parseNumber(spec.text, key, value.substr(at + 1));
    } else if (key == "seed") {
      m_config.seed = static_cast<std::uint64_t>(parseNumber(spec.text, key, value));
    } else {
      badOption(spec.text, key, "unknown option (expected service_us, dist, sigma, spin, stall_ms or seed)");
    }
  }
  if (!haveService) badOption(spec.text, "service_us", "required");
  if (m_config.serviceUs > 10'000'000) badOption(spec.text, "service_us", "must be <= 10000000 (10 s)");
}

SyntheticTarget::SyntheticTarget(std::string specText, const Config& config)
    : m_spec(std::move(specText)), m_config(config) {}

std::int64_t SyntheticTarget::serviceNsFor(std::uint64_t sequence) const noexcept {
  const double meanNs = m_config.serviceUs * 1e3;
  double ns = meanNs;
  if (m_config.distribution != Distribution::Const && meanNs > 0) {
    std::uint64_t state = m_config.seed ^ (sequence * 0xd1342543de82ef95ull);
    const double u1 = unitInterval(splitMix64(state));
    if (m_config.distribution == Distribution::Exp) {
      ns = -std::log1p(-u1) * meanNs;
    } else {
      // Box-Muller; u1 in [0, 1) so use 1 - u1 in (0, 1] under the log.
      const double u2 = unitInterval(splitMix64(state));
      const double z = std::sqrt(-2.0 * std::log(1.0 - u1)) * std::cos(2.0 * std::numbers::pi * u2);
      ns = meanNs * std::exp(m_config.sigma * z);
    }
  }
  return static_cast<std::int64_t>(std::llround(std::min(ns, kMaxServiceNs)));
}

void SyntheticTarget::beginRung(std::int64_t measureStartNs) {
  if (m_config.stallMs <= 0) return;
  const auto start = measureStartNs + static_cast<std::int64_t>(std::llround(m_config.stallAtS * 1e9));
  m_stallStartNs.store(start, std::memory_order_relaxed);
  m_stallEndNs.store(start + static_cast<std::int64_t>(std::llround(m_config.stallMs * 1e6)), std::memory_order_release);
}

namespace {
// The stop token of the worker running this thread's request: awaitAdmission (called before every
// execute, on the worker's thread) keeps it for execute's spin.
thread_local std::stop_token workerStop;
}  // namespace

void SyntheticTarget::awaitAdmission(std::stop_token stop) {
  workerStop = stop;
  if (m_config.stallMs <= 0) return;
  const std::int64_t end = m_stallEndNs.load(std::memory_order_acquire);
  const std::int64_t start = m_stallStartNs.load(std::memory_order_relaxed);
  const std::int64_t now = steadyNowNs();
  if (now >= start && now < end) (void)waitUntilNs(end, 0, stop);
}

bool SyntheticTarget::execute(const WorkItem& item, std::span<std::uint64_t> counters) {
  (void)counters;
  const std::int64_t service = serviceNsFor(item.sequence);
  if (service <= 0) return true;
  if (m_config.cpuSpin) {
    const std::int64_t until = threadCpuNs() + service;
    while (threadCpuNs() < until) {
      if (workerStop.stop_requested()) return false;
    }
  } else {
    const std::int64_t until = steadyNowNs() + service;
    while (steadyNowNs() < until) {
      if (workerStop.stop_requested()) return false;
    }
  }
  return true;
}

}  // namespace wandscope::engine
