// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bench/open_compare.h"

#include "engine/bench/bench_runner.h"
#include "engine/bench/compare_runner.h"
#include "engine/bench/compare_stats.h"
#include "engine/bench/quantile.h"
#include "engine/bench/result_diff.h"
#include "engine/core/error.h"
#include "engine/loadgen/arrival_schedule.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace wandscope::engine {

BenchProfile openComparisonProfile(const BenchProfile& profile, const std::string& a, const std::string& b,
                                   const CompareOptions& options) {
  BenchProfile p = profile;
  p.runOpen = true;
  p.runClosed = false;
  auto& l = p.ladder;
  if (l.rates.empty()) {
    if (l.multiples.empty()) throwUsage(fmt::format("{}: the ladder has neither rates nor multiples", p.fileName));
    // A's sequential throughput, calibrated by the runner exactly as `bench` does; the one rung
    // after it is a token (the lowest rate the scheduler takes, a 10 ms window).
    BenchProfile cal = p;
    cal.targets = {a};
    cal.ladder.multiples = {0};
    cal.ladder.settleSeconds = 0;
    cal.ladder.requests = 0;
    cal.ladder.rungSeconds = 0.01;
    BenchRunOptions ro;
    ro.cacheDir = options.cacheDir;
    ro.stop = options.stop;
    BenchRunner runner(cal, ro);
    const RunReport r = runner.run();
    const auto it = r.calibration.find(a);
    if (options.stop.stop_requested() || it == r.calibration.end() || !(it->second.rate > 0)) {
      throwIo(fmt::format("could not calibrate {}'s sequential throughput for the ladder's multiples", a));
    }
    for (double m : l.multiples) l.rates.push_back(std::max(ArrivalSchedule::kMinRate, m * it->second.rate));
    if (options.onMessage) {
      options.onMessage(fmt::format("calibrated A ({}): {:.4g} requests/s; both targets are offered {} x that", a,
                                    it->second.rate, l.multiples.size()));
    }
    l.multiples.clear();
  }
  std::sort(l.rates.begin(), l.rates.end());
  l.rates.erase(std::unique(l.rates.begin(), l.rates.end()), l.rates.end());
  l.stopAfterFail = false;
  p.targets.clear();
  for (unsigned r = 0; r < std::max(options.repetitions, 1u); ++r) {
    p.targets.push_back(r % 2 == 0 ? a : b);
    p.targets.push_back(r % 2 == 0 ? b : a);
  }
  return p;
}

std::string openMethodText(const BenchProfile& profile, const CompareOptions& options) {
  const auto& l = profile.ladder;
  std::string rates;
  for (double r : l.rates) rates += fmt::format("{}{:.4g}/s", rates.empty() ? "" : ", ", r);
  return fmt::format(
      "Open loop, one process. Results of A and B compared query by query first (doc ids and f32 score bits). Then "
      "{} whole ladders in ABBA order (AB, BA, ...), every ladder offered the same rates ({}; {} arrivals, {} "
      "workers, in-flight cap {}, {} settle, {} per rung), every rung run (no stop after a failure) and judged by "
      "the saturation rule. Per rate, the p50 and p99 of due-time latency over all of a target's ladders (nearest "
      "rank; a quantile is compared only with >= 100 samples beyond it) as a ratio A/B with a percentile bootstrap "
      "95 % interval ({} resamples of each side's requests, unpaired); > 1 means B is faster. Verdict against a "
      "noise floor of +-{:.1f} %. Capacity: the rates at which every ladder of a target passed.",
      profile.targets.size(), rates, arrivalProcessName(l.arrivals), l.workers, l.inFlightCap,
      fmt::format("{:g} s", l.settleSeconds),
      l.requests > 0 ? fmt::format("{} measured requests", l.requests) : fmt::format("{:g} s measured", l.rungSeconds),
      options.bootstrapSamples, options.noiseFloor * 100);
}

void OpenLatencyCapture::onRecords(const RungPlan& plan, const RungRecords& records, const Workload& workload) {
  (void)workload;
  if (plan.mode != "open") return;
  if (m_latencyMs.size() <= plan.index) m_latencyMs.resize(plan.index + 1);
  auto& out = m_latencyMs[plan.index];
  for (const auto& r : records.records) {
    if (r.measured && r.outcome == RequestOutcome::Ok) out.push_back(static_cast<double>(r.latencyNs()) / 1e6);
  }
  if (m_onPoint) reportPoint(plan);
}

void OpenLatencyCapture::reportPoint(const RungPlan& plan) {
  if (m_previousRate >= 0 && plan.targetRate <= m_previousRate) ++m_ladder;
  m_previousRate = plan.targetRate;
  const bool a = openLadderIsA(m_ladder);
  auto& rungs = m_rungsAt[a ? 0 : 1][plan.targetRate];
  rungs.push_back(plan.index);
  // Pooled as runOpenComparison pools them, so the last point of a side is the report's figure.
  std::vector<double> pooled;
  for (const std::size_t i : rungs) pooled.insert(pooled.end(), m_latencyMs[i].begin(), m_latencyMs[i].end());
  std::sort(pooled.begin(), pooled.end());
  OpenLatencyPoint point;
  point.ladder = m_ladder;
  point.a = a;
  point.rate = plan.targetRate;
  point.samples = pooled.size();
  point.p50Ms = nearestRankQuantile(pooled, 0.5);
  point.p99Ms = nearestRankQuantile(pooled, 0.99);
  m_onPoint(point);
}

namespace {

struct Side {
  std::vector<std::vector<double>> latencyMs;  // [rate] pooled over the side's ladders
  std::vector<std::uint64_t> completed, shed;  // [rate]
  std::vector<bool> invalid;                   // [rate] some ladder's rung was invalid (generator behind...)
  OpenCapacity capacity;
};

std::size_t rateIndex(const std::vector<double>& rates, double rate) {
  const auto it = std::find(rates.begin(), rates.end(), rate);
  return it == rates.end() ? rates.size() : static_cast<std::size_t>(it - rates.begin());
}

void finishCapacity(OpenCapacity& c) {
  bool allBelow = true;
  for (std::size_t j = 0; j < c.rates.size(); ++j) {
    const bool ok = c.ladders > 0 && c.passed[j] == c.ladders;
    if (ok && allBelow) c.lastPass = c.rates[j];
    if (!ok && !c.firstFail) c.firstFail = c.rates[j];
    allBelow = allBelow && ok;
  }
}

std::string capacityVerdict(const OpenCapacity& a, const OpenCapacity& b) {
  auto rate = [](const std::optional<double>& r) { return r ? fmt::format("{:.4g}/s", *r) : std::string("none"); };
  const std::string sa = fmt::format("A sustains [{}, {}]", rate(a.lastPass), rate(a.firstFail));
  const std::string sb = fmt::format("B sustains [{}, {}]", rate(b.lastPass), rate(b.firstFail));
  // An interval [last pass, first fail]: B more when it passed a rate A failed, and never the reverse.
  const bool bMore = b.lastPass && a.firstFail && *b.lastPass >= *a.firstFail;
  const bool aMore = a.lastPass && b.firstFail && *a.lastPass >= *b.firstFail;
  if (bMore && !aMore) return fmt::format("B sustains a higher rate ({}; {})", sa, sb);
  if (aMore && !bMore) return fmt::format("A sustains a higher rate ({}; {})", sa, sb);
  return fmt::format("no difference in sustainable rate at this ladder's resolution ({}; {})", sa, sb);
}

}  // namespace

void runOpenComparison(BenchRunner& runner, const BenchProfile& profile, const OpenLatencyCapture& capture,
                       const CompareOptions& options, CompareReport& report) {
  report.mode = "open";
  const auto say = [&](const std::string& m) {
    if (options.onMessage) options.onMessage(m);
  };
  const auto& targets = runner.targets();
  const Workload& workload = runner.workload();
  if (targets.size() < 2) throwInternal("open comparison: needs A and B ladders");

  // Results first (untimed), per query set: targets[0] is A, targets[1] is B (ABBA order).
  for (std::size_t set = 0; set < workload.sets().size() && !options.stop.stop_requested(); ++set) {
    ResultDiff diff = diffQuerySet(*targets[0], *targets[1], workload.restrictedTo(set), workload.sets()[set].ids);
    say(fmt::format("{}: results {}", workload.sets()[set].name,
                    diff.differs() ? fmt::format("DIFFER (row_set_diff={}, score_bit_diff={})", diff.rowSetDiff,
                                                 diff.scoreBitDiff)
                                   : "identical"));
    report.diffs.emplace_back(workload.sets()[set].name, std::move(diff));
  }
  ResultDiff all;
  for (const auto& [name, d] : report.diffs) {
    all.queries += d.queries;
    all.rowSetDiff += d.rowSetDiff;
    all.scoreBitDiff += d.scoreBitDiff;
    all.orderDiff += d.orderDiff;
    all.failed += d.failed;
    if (d.firstDivergingRank && (!all.firstDivergingRank || *d.firstDivergingRank < *all.firstDivergingRank)) {
      all.firstDivergingRank = d.firstDivergingRank;
    }
  }

  const RunReport run = runner.run();
  report.partial = run.partial || options.stop.stop_requested();
  for (const auto& w : run.warnings) {
    if (std::find(report.warnings.begin(), report.warnings.end(), w) == report.warnings.end()) report.warnings.push_back(w);
  }

  const std::vector<double>& rates = profile.ladder.rates;
  const std::size_t nRates = rates.size();
  Side sides[2];
  for (int s = 0; s < 2; ++s) {
    auto& side = sides[s];
    side.latencyMs.assign(nRates, {});
    side.completed.assign(nRates, 0);
    side.shed.assign(nRates, 0);
    side.invalid.assign(nRates, false);
    auto& c = side.capacity;
    c.target = s == 0 ? "A" : "B";
    c.spec = s == 0 ? report.a.spec : report.b.spec;
    c.rates = rates;
    c.passed.assign(nRates, 0);
    c.shedFraction.assign(nRates, 0);
    c.criteria.assign(nRates, "");
  }
  // Ladders in run order: each starts again at the lowest rate.
  std::size_t ladder = 0;
  double previous = -1;
  for (const auto& rung : run.rungs) {
    if (rung.mode != "open") continue;
    if (rung.targetRate <= previous) ++ladder;
    previous = rung.targetRate;
    const std::size_t j = rateIndex(rates, rung.targetRate);
    if (j >= nRates || ladder >= profile.targets.size()) continue;
    Side& side = sides[openLadderIsA(ladder) ? 0 : 1];
    if (rung.verdict == "pass") {
      ++side.capacity.passed[j];
    } else if (side.capacity.criteria[j].empty()) {
      side.capacity.criteria[j] = rung.verdict + (rung.criterion.empty() ? "" : ": " + rung.criterion);
    }
    if (!rung.valid) side.invalid[j] = true;
    side.completed[j] += rung.completed;
    side.shed[j] += rung.shed;
    if (rung.index < capture.latencyMs().size()) {
      const auto& l = capture.latencyMs()[rung.index];
      side.latencyMs[j].insert(side.latencyMs[j].end(), l.begin(), l.end());
    }
  }
  const std::size_t ladders = std::min<std::size_t>(ladder + 1, profile.targets.size());
  for (std::size_t k = 0; k < ladders; ++k) ++sides[openLadderIsA(k) ? 0 : 1].capacity.ladders;

  for (std::size_t j = 0; j < nRates; ++j) {
    for (auto& side : sides) {
      const std::uint64_t offered = side.completed[j] + side.shed[j];
      side.capacity.shedFraction[j] = offered > 0 ? static_cast<double>(side.shed[j]) / static_cast<double>(offered) : 0;
    }
    for (const double q : {0.5, 0.99}) {
      const auto& la = sides[0].latencyMs[j];
      const auto& lb = sides[1].latencyMs[j];
      const std::size_t need = minSamplesFor(q);
      const std::string label = q == 0.5 ? "p50" : "p99";
      if (la.size() < need || lb.size() < need) {
        report.warnings.push_back(fmt::format("{:.4g}/s: {} not compared: it needs {} samples per target (A had {}, B {})",
                                              rates[j], label, need, la.size(), lb.size()));
        continue;
      }
      CompareScenario s;
      s.querySet = workload.sets().size() == 1 ? workload.sets()[0].name : "mixed";
      s.metric = q == 0.5 ? "open_p50_ms" : "open_p99_ms";
      s.name = fmt::format("{:.4g}/s offered, {} latency", rates[j], label);
      s.offeredRate = rates[j];
      s.queries = workload.size();
      s.samplesPerQuery = std::min(la.size(), lb.size());
      std::vector<double> sa = la, sb = lb;
      std::sort(sa.begin(), sa.end());
      std::sort(sb.begin(), sb.end());
      s.a = sa[nearestRank(sa.size(), q) - 1];
      s.b = sb[nearestRank(sb.size(), q) - 1];
      s.aGeomean = s.a;
      s.bGeomean = s.b;
      s.estimate = bootstrapQuantileRatio(la, lb, q, options.bootstrapSamples,
                                          profile.seed + 1000 * j + (q == 0.5 ? 0 : 1));
      s.estimate.noiseFloor = options.noiseFloor;
      s.estimate.verdict = ratioVerdict(s.estimate.ciLow, s.estimate.ciHigh, s.estimate.noiseFloor);
      if (sides[0].invalid[j] || sides[1].invalid[j]) {
        // The instrument could not offer this rate as scheduled: no verdict on what it measured.
        s.name += " (invalid rung)";
        s.estimate.verdict = "inconclusive";
      }
      s.diff = all;
      say(fmt::format("{}: A {:.4g} ms, B {:.4g} ms: {} [{:.3f}, {:.3f}] {}", s.name, s.a, s.b,
                      speedupText(s.estimate.ratio), s.estimate.ciLow, s.estimate.ciHigh, s.estimate.verdict));
      report.scenarios.push_back(std::move(s));
    }
  }
  for (auto& side : sides) finishCapacity(side.capacity);
  report.capacityVerdict = capacityVerdict(sides[0].capacity, sides[1].capacity);
  say(report.capacityVerdict);
  report.capacity = {sides[0].capacity, sides[1].capacity};
}

}  // namespace wandscope::engine
