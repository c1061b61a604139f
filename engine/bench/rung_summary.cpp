// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bench/rung_summary.h"

#include "engine/bench/quantile.h"
#include "engine/bench/saturation_rule.h"
#include "engine/core/wording.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace wandscope::engine {
namespace {

constexpr double kNsPerMs = 1e6;

std::optional<double> q(const std::vector<double>& sorted, double p) { return nearestRankQuantile(sorted, p); }

// The median by nearest rank without the thin rule (an internal statistic, never shown alone).
double rawMedian(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[nearestRank(v.size(), 0.5) - 1];
}

std::optional<double> growthOf(const std::vector<std::pair<double, double>>& dueAndLatency, double windowSeconds,
                               double ratePerSecond) {
  if (dueAndLatency.size() < 20 || windowSeconds <= 0) return std::nullopt;
  // Bins of at least 1 s and at least ~20 requests each, so a bin's median is not one request.
  const double width = std::max(SaturationRule::kGrowthMinBinSeconds, ratePerSecond > 0 ? 20.0 / ratePerSecond : 1.0);
  const auto bins = static_cast<std::size_t>(std::floor(windowSeconds / width));
  if (bins < SaturationRule::kGrowthMinBins) return std::nullopt;
  std::vector<std::vector<double>> byBin(bins);
  for (const auto& [due, latency] : dueAndLatency) {
    const auto b = static_cast<std::size_t>(std::max(0.0, due / width));
    if (b < bins) byBin[b].push_back(latency);
  }
  std::vector<double> x, y, all;
  for (std::size_t b = 0; b < bins; ++b) {
    if (byBin[b].size() < 5) continue;
    x.push_back((static_cast<double>(b) + 0.5) * width);
    y.push_back(rawMedian(byBin[b]));
  }
  if (x.size() < SaturationRule::kGrowthMinBins) return std::nullopt;
  for (const auto& p : dueAndLatency) all.push_back(p.second);
  const double median = rawMedian(std::move(all));
  const auto slope = theilSenSlope(x, y);
  if (!slope || median <= 0) return std::nullopt;
  return *slope * windowSeconds / median;
}

}  // namespace

std::optional<std::string> threadCpuClockWarning(const std::vector<RungResult>& rungs, double clockCallNs) {
  const RungResult* smallest = nullptr;
  for (const auto& r : rungs) {
    if (r.threadCpuP50Ms && *r.threadCpuP50Ms > 0 && (smallest == nullptr || *r.threadCpuP50Ms < *smallest->threadCpuP50Ms)) {
      smallest = &r;
    }
  }
  if (smallest == nullptr || !(clockCallNs > 0)) return std::nullopt;
  const double clockMs = clockCallNs / kNsPerMs;
  if (clockMs < 0.1 * *smallest->threadCpuP50Ms) return std::nullopt;
  return fmt::format(
      "per-request thread CPU includes about one read of the thread CPU clock ({} us), {:.0f} % of the smallest "
      "thread CPU p50 (rung {}: {} us); CPU per query includes the reads too: figures of such short requests "
      "are upper bounds",
      significant(clockMs * 1e3), 100 * clockMs / *smallest->threadCpuP50Ms, smallest->index,
      significant(*smallest->threadCpuP50Ms * 1e3));
}

std::optional<std::string> generatorBehindWarning(const std::vector<RungResult>& rungs) {
  constexpr std::string_view kBehind = "generator behind";
  std::size_t open = 0;
  std::size_t behind = 0;
  const RungResult* first = nullptr;
  for (const auto& r : rungs) {
    if (r.mode != "open") continue;
    ++open;
    if (r.verdict == "invalid" && r.criterion.find(kBehind) != std::string::npos) {
      ++behind;
      if (first == nullptr) first = &r;
    }
  }
  if (first == nullptr) return std::nullopt;
  // Words, not a flag: the same text reaches report.md, the Load page and compare reports.
  return fmt::format(
      "{} of {} open-loop {} could not be judged because the load generator fell behind its schedule (rung {}: {}): "
      "such a rung measures the machine, not the target. Run again on an idle machine, or ask less of the "
      "generator: lower rates or fewer targets",
      behind, open, open == 1 ? "rung" : "rungs", first->index, first->criterion);
}

std::uint64_t recordBytes(const RungRecords& records) {
  return records.records.capacity() * sizeof(RequestRecord) + records.counters.capacity() * sizeof(std::uint64_t);
}

void summarizeRung(const std::vector<const RungRecords*>& parts, const std::vector<RungWindow>& windows,
                   RungResult& rung) {
  std::vector<double> latency, service, queueWait, cpu, lagUs;
  std::vector<std::pair<double, double>> dueAndLatency;
  std::vector<std::string> counterNames;
  std::vector<std::vector<double>> counterValues;
  std::uint64_t completed = 0, errors = 0, shed = 0, notRun = 0, late = 0, dispatched = 0;
  double lateThresholdUs = windows.empty() ? 1000.0 : windows.front().lateDispatchUs;
  double threadCpuSum = 0;
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const RungRecords& part = *parts[p];
    if (counterNames.empty() && !part.counterNames.empty()) {
      counterNames = part.counterNames;
      counterValues.assign(counterNames.size(), {});
    }
    const std::int64_t start = p < windows.size() ? windows[p].measureStartNs : 0;
    const std::size_t cc = part.counterCount();
    for (std::size_t i = 0; i < part.records.size(); ++i) {
      const RequestRecord& r = part.records[i];
      if (!r.measured) continue;
      if (r.outcome != RequestOutcome::NotRun) {
        ++dispatched;
        const double lag = static_cast<double>(r.dispatchLagNs()) / 1e3;
        lagUs.push_back(lag);
        if (lag > lateThresholdUs) ++late;
      }
      switch (r.outcome) {
        case RequestOutcome::Shed:
          ++shed;
          continue;
        case RequestOutcome::NotRun:
          ++notRun;
          continue;
        case RequestOutcome::Error:
          ++errors;
          continue;
        case RequestOutcome::Ok:
          break;
      }
      ++completed;
      const double lat = static_cast<double>(r.latencyNs()) / kNsPerMs;
      latency.push_back(lat);
      service.push_back(static_cast<double>(r.serviceNs()) / kNsPerMs);
      queueWait.push_back(static_cast<double>(r.start - r.dispatched) / kNsPerMs);
      cpu.push_back(static_cast<double>(r.threadCpuNs) / kNsPerMs);
      threadCpuSum += static_cast<double>(r.threadCpuNs) / kNsPerMs;
      dueAndLatency.emplace_back(static_cast<double>(r.due - start) / 1e9, lat);
      if (cc == counterNames.size()) {
        const std::uint64_t* c = part.countersOf(i);
        for (std::size_t k = 0; k < cc; ++k) counterValues[k].push_back(static_cast<double>(c[k]));
      }
    }
  }
  rung.completed = completed;
  const std::uint64_t dueInWindow = completed + errors + shed + notRun;
  rung.errors = errors;
  rung.shed = shed;
  rung.notRun = notRun;

  for (auto* v : {&latency, &service, &queueWait, &cpu, &lagUs}) std::sort(v->begin(), v->end());
  rung.p50Ms = q(latency, 0.5);
  rung.p90Ms = q(latency, 0.9);
  rung.p99Ms = q(latency, 0.99);
  rung.p999Ms = q(latency, 0.999);
  if (auto ci = nearestRankInterval(latency, 0.5)) {
    rung.p50CiLowMs = ci->low;
    rung.p50CiHighMs = ci->high;
  }
  if (auto ci = nearestRankInterval(latency, 0.99)) {
    rung.p99CiLowMs = ci->low;
    rung.p99CiHighMs = ci->high;
  }
  rung.serviceP50Ms = q(service, 0.5);
  rung.serviceP99Ms = q(service, 0.99);
  rung.queueWaitP50Ms = q(queueWait, 0.5);
  rung.queueWaitP99Ms = q(queueWait, 0.99);
  rung.threadCpuP50Ms = q(cpu, 0.5);
  rung.threadCpuP99Ms = q(cpu, 0.99);
  if (completed > 0) rung.threadCpuMeanMs = threadCpuSum / static_cast<double>(completed);
  rung.dispatchLagP99Us = q(lagUs, 0.99);
  if (!lagUs.empty()) rung.dispatchLagMaxUs = lagUs.back();
  rung.lateDispatchFraction = dispatched > 0 ? static_cast<double>(late) / static_cast<double>(dispatched) : 0.0;

  // Windows: durations add up, process counters add up, the RSS peak is the largest.
  double windowSeconds = 0, spanSeconds = 0, processCpuMs = 0, instrumentCpuMs = 0, rssPeak = 0;
  rung.minflt = rung.majflt = rung.nvcsw = rung.nivcsw = 0;
  for (const auto& w : windows) {
    const double window = static_cast<double>(w.measureEndNs - w.measureStartNs) / 1e9;
    const double span = static_cast<double>(std::max(w.lastEndNs, w.measureEndNs) - w.measureStartNs) / 1e9;
    windowSeconds += window;
    spanSeconds += std::max(window, span);
    processCpuMs += static_cast<double>(w.process.process.cpuNs) / kNsPerMs;
    instrumentCpuMs += static_cast<double>(w.process.instrumentCpuNs) / kNsPerMs;
    rssPeak = std::max(rssPeak, static_cast<double>(w.process.rssPeakBytes) / (1024.0 * 1024.0));
    rung.minflt += w.process.process.minflt;
    rung.majflt += w.process.process.majflt;
    rung.nvcsw += w.process.process.nvcsw;
    rung.nivcsw += w.process.process.nivcsw;
  }
  rung.durationSeconds = windowSeconds;
  rung.offeredRate = windowSeconds > 0 ? static_cast<double>(dueInWindow) / windowSeconds : 0.0;
  rung.achievedRate = spanSeconds > 0 ? static_cast<double>(completed) / spanSeconds : 0.0;
  rung.processCpuMs = processCpuMs;
  rung.instrumentCpuMs = instrumentCpuMs;
  rung.cpuMsPerQuery = completed > 0 ? processCpuMs / static_cast<double>(completed) : 0.0;
  rung.rssPeakMib = rssPeak;

  rung.counters.clear();
  rung.countersP99.clear();
  for (std::size_t k = 0; k < counterNames.size(); ++k) {
    auto& values = counterValues[k];
    if (values.empty()) continue;
    double sum = 0;
    for (double v : values) sum += v;
    rung.counters[counterNames[k]] = sum / static_cast<double>(values.size());
    std::sort(values.begin(), values.end());
    if (auto p99 = q(values, 0.99)) rung.countersP99[counterNames[k]] = *p99;
  }

  rung.latencyGrowth.reset();
  if (rung.mode == "open" && windows.size() == 1) {
    const double rate = rung.scheduledRate > 0 ? rung.scheduledRate : rung.achievedRate;
    rung.latencyGrowth = growthOf(dueAndLatency, windowSeconds, rate);
  }
}

}  // namespace wandscope::engine
