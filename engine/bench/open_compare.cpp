// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bench/open_compare.h"

#include "engine/bench/bench_runner.h"
#include "engine/bench/compare_runner.h"
#include "engine/bench/compare_stats.h"
#include "engine/bench/quantile.h"
#include "engine/bench/result_diff.h"
#include "engine/core/error.h"
#include "engine/core/wording.h"
#include "engine/loadgen/arrival_schedule.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace wandscope::engine {

BenchProfile openComparisonProfile(const BenchProfile& profile, const std::vector<std::string>& targets,
                                   const CompareOptions& options) {
  if (targets.size() < 2) throwUsage("an open comparison needs at least two targets");
  const std::string& a = targets[0];
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
      options.onMessage(fmt::format("calibrated A ({}): {}; {} targets are offered {} x that", a,
                                    formatRate(it->second.rate), targets.size() == 2 ? "both" : "all", l.multiples.size()));
    }
    l.multiples.clear();
  }
  std::sort(l.rates.begin(), l.rates.end());
  l.rates.erase(std::unique(l.rates.begin(), l.rates.end()), l.rates.end());
  l.stopAfterFail = false;
  p.targets.clear();
  const std::size_t ladders = std::max(options.repetitions, 1u) * targets.size();
  for (std::size_t k = 0; k < ladders; ++k) p.targets.push_back(targets[openLadderTarget(k, targets.size())]);
  return p;
}

std::string openMethodText(const BenchProfile& profile, const CompareOptions& options, std::size_t targets) {
  const auto& l = profile.ladder;
  std::string rates;
  for (double r : l.rates) rates += fmt::format("{}{}", rates.empty() ? "" : ", ", formatRate(r));
  const std::string who = targets > 2 ? fmt::format("A and each of the other {} targets", targets - 1) : "A and B";
  const std::string order = targets > 2 ? "rotated order (ABC, BCA, CAB, ...)" : "ABBA order (AB, BA, ...)";
  return fmt::format(
      "Open loop, one process. Results of {} compared query by query first (doc ids and f32 score bits). Then "
      "{} whole ladders in {}, every ladder offered the same rates ({}; {} arrivals, {} "
      "workers, in-flight cap {}, {} settle, {} per rung), every rung run (no stop after a failure) and judged by "
      "the saturation rule. Per rate, the p50 and p99 of due-time latency over all of a target's ladders (nearest "
      "rank; a quantile is compared only with >= 100 samples beyond it) as a ratio A/B with a percentile bootstrap "
      "95 % interval ({} resamples of each side's requests, unpaired); > 1 means B is faster{}. Verdict against a "
      "noise floor of +-{:.1f} %. Capacity: the rates at which every ladder of a target passed.",
      who, profile.targets.size(), order, rates, arrivalProcessName(l.arrivals), l.workers, l.inFlightCap,
      fmt::format("{:g} s", l.settleSeconds),
      l.requests > 0 ? fmt::format("{} measured requests", l.requests) : fmt::format("{:g} s measured", l.rungSeconds),
      options.bootstrapSamples, targets > 2 ? " (each B against A)" : "", options.noiseFloor * 100);
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
  const std::size_t target = openLadderTarget(m_ladder, m_rungsAt.size());
  auto& rungs = m_rungsAt[target][plan.targetRate];
  rungs.push_back(plan.index);
  // Pooled as runOpenComparison pools them, so the last point of a side is the report's figure.
  std::vector<double> pooled;
  for (const std::size_t i : rungs) pooled.insert(pooled.end(), m_latencyMs[i].begin(), m_latencyMs[i].end());
  std::sort(pooled.begin(), pooled.end());
  OpenLatencyPoint point;
  point.ladder = m_ladder;
  point.target = target;
  point.a = target == 0;
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
  auto rate = [](const std::optional<double>& r) { return r ? formatRate(*r) : std::string("none"); };
  const std::string sa = fmt::format("A sustains [{}, {}]", rate(a.lastPass), rate(a.firstFail));
  const std::string sb = fmt::format("{} sustains [{}, {}]", b.target, rate(b.lastPass), rate(b.firstFail));
  // An interval [last pass, first fail]: B more when it passed a rate A failed, and never the reverse.
  const bool bMore = b.lastPass && a.firstFail && *b.lastPass >= *a.firstFail;
  const bool aMore = a.lastPass && b.firstFail && *a.lastPass >= *b.firstFail;
  if (bMore && !aMore) return fmt::format("{} sustains a higher rate ({}; {})", b.target, sa, sb);
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
  const std::size_t n = report.targetCount();
  if (targets.size() < n) throwInternal("open comparison: needs a ladder per target");

  // Results first (untimed), per query set and B: the first round of ladders is in target order,
  // so targets[i] is target i.
  std::vector<ResultDiff> all(n);
  for (std::size_t set = 0; set < workload.sets().size() && !options.stop.stop_requested(); ++set) {
    for (std::size_t t = 1; t < n; ++t) {
      ResultDiff diff = diffQuerySet(*targets[0], *targets[t], workload.restrictedTo(set), workload.sets()[set].ids);
      say(fmt::format("{}: results{} {}", workload.sets()[set].name,
                      n > 2 ? " of " + CompareReport::targetLabel(t) : std::string(),
                      diff.differs() ? fmt::format("DIFFER (row_set_diff={}, score_bit_diff={})", diff.rowSetDiff,
                                                   diff.scoreBitDiff)
                                     : "identical"));
      report.diffs.push_back(SetResultDiff{workload.sets()[set].name, t, std::move(diff)});
    }
  }
  for (const auto& sd : report.diffs) {
    const ResultDiff& d = sd.diff;
    ResultDiff& sum = all[sd.target];
    sum.queries += d.queries;
    sum.rowSetDiff += d.rowSetDiff;
    sum.scoreBitDiff += d.scoreBitDiff;
    sum.orderDiff += d.orderDiff;
    sum.failed += d.failed;
    if (d.firstDivergingRank && (!sum.firstDivergingRank || *d.firstDivergingRank < *sum.firstDivergingRank)) {
      sum.firstDivergingRank = d.firstDivergingRank;
    }
  }

  const RunReport run = runner.run();
  report.partial = run.partial || options.stop.stop_requested();
  for (const auto& w : run.warnings) {
    if (std::find(report.warnings.begin(), report.warnings.end(), w) == report.warnings.end()) report.warnings.push_back(w);
  }

  const std::vector<double>& rates = profile.ladder.rates;
  const std::size_t nRates = rates.size();
  std::vector<Side> sides(n);
  for (std::size_t s = 0; s < n; ++s) {
    auto& side = sides[s];
    side.latencyMs.assign(nRates, {});
    side.completed.assign(nRates, 0);
    side.shed.assign(nRates, 0);
    side.invalid.assign(nRates, false);
    auto& c = side.capacity;
    c.target = CompareReport::targetLabel(s);
    c.spec = report.side(s).spec;
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
    Side& side = sides[openLadderTarget(ladder, n)];
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
  for (std::size_t k = 0; k < ladders; ++k) ++sides[openLadderTarget(k, n)].capacity.ladders;

  // Per rate, quantile and B: the ratio of A's quantile to B's.
  const auto compareAtRate = [&](const Side& sa_, const Side& sb_, std::size_t t, std::size_t j, double q) {
    const auto& la = sa_.latencyMs[j];
    const auto& lb = sb_.latencyMs[j];
    const std::size_t need = minSamplesFor(q);
    const std::string label = q == 0.5 ? "p50" : "p99";
    const std::string bLabel = CompareReport::targetLabel(t);
    if (la.size() < need || lb.size() < need) {
      report.warnings.push_back(fmt::format("{}: {} not compared{}: it needs {} samples per target (A had {}, {} {})",
                                            formatRate(rates[j]), label, n > 2 ? " for " + bLabel : std::string(), need, la.size(),
                                            bLabel, lb.size()));
      return;
    }
    CompareScenario s;
    s.querySet = workload.sets().size() == 1 ? workload.sets()[0].name : "mixed";
    s.metric = q == 0.5 ? "open_p50_ms" : "open_p99_ms";
    s.name = fmt::format("{} offered, {} latency", formatRate(rates[j]), label);
    s.offeredRate = rates[j];
    s.target = t;
    s.queries = workload.size();
    s.samplesPerQuery = std::min(la.size(), lb.size());
    std::vector<double> sa = la, sb = lb;
    std::sort(sa.begin(), sa.end());
    std::sort(sb.begin(), sb.end());
    s.a = sa[nearestRank(sa.size(), q) - 1];
    s.b = sb[nearestRank(sb.size(), q) - 1];
    s.aGeomean = s.a;
    s.bGeomean = s.b;
    // The first B keeps the two-target seeds.
    s.estimate = bootstrapQuantileRatio(la, lb, q, options.bootstrapSamples,
                                        profile.seed + 1000 * j + (q == 0.5 ? 0 : 1) + 10 * (t - 1));
    s.estimate.noiseFloor = options.noiseFloor;
    s.estimate.verdict = ratioVerdict(s.estimate.ciLow, s.estimate.ciHigh, s.estimate.noiseFloor);
    if (sa_.invalid[j] || sb_.invalid[j]) {
      // The instrument could not offer this rate as scheduled: no verdict on what it measured.
      s.name += " (invalid rung)";
      s.estimate.verdict = "inconclusive";
    }
    s.diff = all[t];
    say(fmt::format("{}: A {} ms, {} {} ms: {} {} {}", s.name, significant(s.a), bLabel, significant(s.b),
                    speedupText(s.estimate.ratio), intervalText(s.estimate.ciLow, s.estimate.ciHigh),
                    s.estimate.verdict));
    report.scenarios.push_back(std::move(s));
  };
  for (std::size_t j = 0; j < nRates; ++j) {
    for (auto& side : sides) {
      const std::uint64_t offered = side.completed[j] + side.shed[j];
      side.capacity.shedFraction[j] = offered > 0 ? static_cast<double>(side.shed[j]) / static_cast<double>(offered) : 0;
    }
    for (std::size_t t = 1; t < n; ++t) {
      for (const double q : {0.5, 0.99}) {
        compareAtRate(sides[0], sides[t], t, j, q);
      }
    }
  }
  for (auto& side : sides) finishCapacity(side.capacity);
  std::string verdicts;
  for (std::size_t t = 1; t < n; ++t) {
    verdicts += (t > 1 ? "; " : "") + capacityVerdict(sides[0].capacity, sides[t].capacity);
  }
  report.capacityVerdict = verdicts;
  say(report.capacityVerdict);
  report.capacity.clear();
  for (const auto& side : sides) report.capacity.push_back(side.capacity);
}

}  // namespace wandscope::engine
