// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bench/compare_runner.h"

#include "engine/api/plugin_engine.h"
#include "engine/bench/bench_runner.h"
#include "engine/bench/compare_stats.h"
#include "engine/bench/environment.h"
#include "engine/bench/open_compare.h"
#include "engine/bench/quantile.h"
#include "engine/bench/query_set_timing.h"
#include "engine/bench/result_diff.h"
#include "engine/core/error.h"
#include "engine/core/wording.h"
#include "engine/loadgen/plugin_target.h"
#include "engine/loadgen/steady_time.h"
#include "engine/loadgen/target_spec.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <limits>

namespace wandscope::engine {
namespace {

std::int64_t threadCpuNow() noexcept {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// Every sample of one target over one query set.
struct Samples {
  std::vector<std::vector<double>> cpuMs;   // [query] thread CPU per execution
  std::vector<std::vector<double>> wallMs;  // [query] wall time per execution
  std::vector<double> blockCpuMsPerQuery;   // process CPU / queries, per block
  std::uint64_t errors = 0;
  explicit Samples(std::size_t queries) : cpuMs(queries), wallMs(queries) {}
};

CompareSide sideOf(const Target& t, const Environment& env) {
  CompareSide s;
  s.spec = t.spec();
  if (const auto* p = dynamic_cast<const PluginTarget*>(&t)) {
    const auto& b = p->engine().buildInfo();
    s.buildId = b.buildId;
    s.detail = fmt::format("plugin ABI v{}, {} {}, `{}`, git {}{}, SIMD {}", p->engine().abiVersion(), b.compiler,
                           b.buildType, b.flags, b.gitCommit, b.gitDirty ? " (dirty)" : "", b.simdTarget);
  } else {
    s.buildId = fmt::format("{}+{}{}", env.wandscopeVersion, env.gitCommit.substr(0, 12), env.gitDirty ? "-dirty" : "");
    s.detail = fmt::format("this binary ({} {}, SIMD {})", env.compiler, env.buildType, env.simdTarget);
  }
  return s;
}

class SetMeasurement {
 public:
  SetMeasurement(const Workload& workload, const CompareOptions& options)
      : m_workload(workload), m_options(options), m_queries(workload.size()) {}

  void warm(Target& t) {
    std::vector<std::uint64_t> counters(t.counterNames().size());
    const std::int64_t until = steadyNowNs() + static_cast<std::int64_t>(m_options.warmupSeconds * 1e9);
    std::uint64_t s = 0;
    while (!m_options.stop.stop_requested() && (s < m_queries || steadyNowNs() < until)) {
      (void)t.execute(m_workload.item(s), counters);
      ++s;
    }
  }

  // One pass over the set. Each query is timed by the steady clock alone (a vDSO read, no system
  // call); its thread CPU is its wall time times the share of the block's wall time the thread
  // was on a CPU (the thread-CPU clock, a system call, read once at each end of the block). Read
  // around every query, that clock cost each query a TLB refill on hosts whose system calls empty
  // the TLB, more for the path touching more pages: +5.5 us on an 11 us query (PERF.md, "Clock
  // reads and the TLB").
  //
  // The block is preceded by m_options.warmPasses untimed passes of the same target over the same
  // queries. Without them a block started from the cache state the other target's block left, and
  // on this project's VM that state decays with elapsed time (why was not isolated): the faster
  // target's queries were timed after the slower target's long block, the slower one's after the
  // faster one's short block. With no warm passes `auto` on rare-3 OR measured 12.8-14.8 us beside
  // exhaustive and 12.5-14.3 beside a synthetic target that only spins for 60 us, against 7.5-9.3
  // beside `taat` (the same path); with three, 8.5-9.9 against 7.8-8.7 (PERF.md, "Cache state
  // between blocks"). Returns false, with no sample taken, when a stop is requested before its timed pass.
  bool block(Target& t, Samples& out, ComparePass pass) {
    std::vector<std::uint64_t> counters(t.counterNames().size());
    for (unsigned p = 0; p < m_options.warmPasses; ++p) {
      if (m_options.stop.stop_requested()) return false;
      if (m_options.onPass) m_options.onPass(pass);
      for (std::uint64_t s = 0; s < m_queries; ++s) (void)t.execute(m_workload.item(s), counters);
    }
    if (m_options.stop.stop_requested()) return false;
    pass.timed = true;
    if (m_options.onPass) m_options.onPass(pass);
    m_wallNs.assign(m_queries, 0);
    const double cpu0 = processCpuSeconds();
    const std::int64_t threadCpu0 = threadCpuNow();
    const std::int64_t blockStart = steadyNowNs();
    for (std::uint64_t s = 0; s < m_queries; ++s) {
      const WorkItem item = m_workload.item(s);
      const std::int64_t w0 = steadyNowNs();
      const bool ok = t.execute(item, counters);
      const std::int64_t w1 = steadyNowNs();
      if (!ok) ++out.errors;
      m_wallNs[s] = w1 - w0;
    }
    const std::int64_t blockEnd = steadyNowNs();
    const std::int64_t threadCpu1 = threadCpuNow();
    const double cpu1 = processCpuSeconds();
    const double onCpu = onCpuShare(threadCpu1 - threadCpu0, blockEnd - blockStart);
    for (std::uint64_t s = 0; s < m_queries; ++s) {
      const double wallMs = static_cast<double>(m_wallNs[s]) / 1e6;
      out.cpuMs[s].push_back(wallMs * onCpu);
      out.wallMs[s].push_back(wallMs);
    }
    out.blockCpuMsPerQuery.push_back((cpu1 - cpu0) * 1e3 / static_cast<double>(std::max<std::uint64_t>(m_queries, 1)));
    return true;
  }

  // ABBA, BAAB, ABBA, ...: each quartet is balanced against a linear drift, and rotating the lead
  // also balances "who runs first after the other" effects (caches, branch predictors). With n
  // targets the same per round: every target forwards in rotated order, then backwards. False when
  // stopped before every block was timed (block() checks before each of its passes): the set's
  // samples are then dropped (a stop during the last block's warm passes once kept a set with that
  // block missing: review, stop 43).
  bool interleave(const std::vector<Target*>& targets, std::vector<Samples>& samples, std::size_t set, bool aa) {
    for (unsigned r = 0; r < m_options.repetitions; ++r) {
      for (const std::size_t i : CompareRunner::blockOrder(targets.size(), r)) {
        if (!block(*targets[i], samples[i], ComparePass{set, i, aa})) return false;
      }
    }
    return true;
  }

  std::size_t queries() const noexcept { return m_queries; }

 private:
  const Workload& m_workload;
  const CompareOptions& m_options;
  std::size_t m_queries;
  std::vector<std::int64_t> m_wallNs;  // the block's per-query wall times
};

double meanOf(const std::vector<double>& v) {
  if (v.empty()) return 0;
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

// The two scenarios (CPU ms/query, p50) of one set from A's and B's samples.
std::vector<CompareScenario> scenariosOf(const std::string& set, const Samples& sa, const Samples& sb,
                                         const CompareOptions& options, std::uint64_t seed, std::size_t target = 1) {
  const std::size_t n = sa.cpuMs.size();
  std::vector<double> aCpu(n), bCpu(n), aWall(n), bWall(n);
  std::vector<double> allA, allB;
  for (std::size_t q = 0; q < n; ++q) {
    aCpu[q] = medianOf(sa.cpuMs[q]);
    bCpu[q] = medianOf(sb.cpuMs[q]);
    aWall[q] = medianOf(sa.wallMs[q]);
    bWall[q] = medianOf(sb.wallMs[q]);
    allA.insert(allA.end(), sa.wallMs[q].begin(), sa.wallMs[q].end());
    allB.insert(allB.end(), sb.wallMs[q].begin(), sb.wallMs[q].end());
  }
  std::sort(allA.begin(), allA.end());
  std::sort(allB.begin(), allB.end());
  std::vector<CompareScenario> out;
  for (int m = 0; m < 2; ++m) {
    const bool cpu = m == 0;
    CompareScenario s;
    s.querySet = set;
    s.target = target;
    s.metric = cpu ? "cpu_ms_per_query" : "p50_ms";
    s.name = fmt::format("{}, {}", set, cpu ? "CPU ms/query" : "p50");
    s.queries = n;
    s.samplesPerQuery = n > 0 ? sa.cpuMs[0].size() : 0;
    if (cpu) {
      s.a = meanOf(sa.blockCpuMsPerQuery);
      s.b = meanOf(sb.blockCpuMsPerQuery);
    } else {
      // The p50 of every execution (nearest rank, shown whatever the sample count: one block set is
      // a few hundred samples, and the interval below is what carries the uncertainty).
      s.a = allA.empty() ? 0 : allA[nearestRank(allA.size(), 0.5) - 1];
      s.b = allB.empty() ? 0 : allB[nearestRank(allB.size(), 0.5) - 1];
    }
    const auto& av = cpu ? aCpu : aWall;
    const auto& bv = cpu ? bCpu : bWall;
    s.aGeomean = geometricMean(av);
    s.bGeomean = geometricMean(bv);
    if (n > 0) s.estimate = bootstrapRatio(av, bv, options.bootstrapSamples, seed + static_cast<std::uint64_t>(m));
    s.estimate.noiseFloor = options.noiseFloor;
    out.push_back(std::move(s));
  }
  return out;
}

// How a block starts, in the method's words.
std::string warmPassText(const CompareReport& r) {
  if (r.warmPasses == 0) return "";
  return fmt::format(", each preceded by {} untimed pass{} of its own target over the same queries (so that it starts "
                     "from that target's cache state, not the one the previous block left)",
                     r.warmPasses, r.warmPasses == 1 ? "" : "es");
}

std::string methodText(const CompareReport& r) {
  if (r.targetCount() > 2) {
    return fmt::format(
        "Interleaved comparison of {} targets in one process, closed loop, one client; the first (A) is the baseline "
        "and every other target is compared with A on its own. Per query set: results of A and each other target "
        "compared query by query (doc ids and f32 score bits, k hits); each target warmed separately for {:.3g} s (at "
        "least one pass); then {} rounds of blocks, each round every target once in rotated order and then in reverse "
        "(A B C C B A, B C A A C B, ...), a block being one pass over the set in the same query order and seed for "
        "all{}. CPU ms/query (target columns) is process CPU time over a block divided by its queries, mean over "
        "blocks (the first seed's method); p50 is the nearest-rank median of every query's wall time. Each benefit "
        "is the ratio A/B of geometric means over queries of each query's median (thread CPU time, or wall time for "
        "p50; a query's thread CPU is its wall time times its block's thread CPU over the block's wall time, the "
        "thread-CPU clock being read at a block's ends, not around each query) — a ratio of geometric means, not a "
        "mean of ratios — with a paired percentile bootstrap 95 % interval ({} resamples of the queries). Verdict "
        "for each B vs A: faster / slower when the whole interval lies beyond the noise floor (±{:.1f} %{}), "
        "no-difference when it lies inside, inconclusive when it straddles it.",
        r.targetCount(), r.warmupSeconds, r.repetitions, warmPassText(r), r.bootstrapSamples, r.noiseFloor * 100,
        r.aa ? ", raised per scenario to the A/A interval's distance from 1" : "");
  }
  return fmt::format(
      "Interleaved A/B in one process, closed loop, one client. Per query set: results of A and B compared query by "
      "query (doc ids and f32 score bits, k hits); each target warmed separately for {:.3g} s (at least one pass); "
      "then {} repetitions of four blocks in ABBA order with the lead rotating per repetition (ABBA, BAAB, ...), "
      "a block being one pass over the set in the same query order and seed for both{}. CPU ms/query (A, B columns) "
      "is process CPU time over a block divided by its queries, mean over blocks (the first seed's method); p50 is "
      "the nearest-rank median of every query's wall time. Benefit is the ratio A/B of geometric means over queries "
      "of each query's median (thread CPU time, or wall time for p50; a query's thread CPU is its wall time times "
      "its block's thread CPU over the block's wall time, the thread-CPU clock being read at a block's ends, not "
      "around each query) — a ratio of geometric means, not a mean of "
      "ratios — with a paired percentile bootstrap 95 % interval ({} resamples of the queries). Verdict for B vs A: "
      "faster / slower when the whole interval lies beyond the noise floor (±{:.1f} %{}), no-difference when it lies "
      "inside, inconclusive when it straddles it.",
      r.warmupSeconds, r.repetitions, warmPassText(r), r.bootstrapSamples, r.noiseFloor * 100,
      r.aa ? ", raised per scenario to the A/A interval's distance from 1" : "");
}

std::string diffText(const ResultDiff& diff) {
  return diff.differs() ? fmt::format("DIFFER (row_set_diff={}, score_bit_diff={}, failed={})", diff.rowSetDiff,
                                      diff.scoreBitDiff, diff.failed)
                        : "identical";
}

}  // namespace

std::vector<std::size_t> CompareRunner::blockOrder(std::size_t targets, unsigned round) {
  std::vector<std::size_t> order;
  if (targets == 0) return order;
  for (std::size_t i = 0; i < targets; ++i) order.push_back((i + round) % targets);
  for (std::size_t i = targets; i-- > 0;) {
    const std::size_t t = order[i];
    order.push_back(t);
  }
  return order;
}

CompareRunner::CompareRunner(BenchProfile profile, std::string a, std::string b, CompareOptions options)
    : CompareRunner(std::move(profile), std::vector<std::string>{std::move(a), std::move(b)}, std::move(options)) {}

CompareRunner::CompareRunner(BenchProfile profile, std::vector<std::string> targets, CompareOptions options)
    : m_profile(std::move(profile)), m_targets(std::move(targets)), m_options(std::move(options)) {
  if (m_targets.size() < 2) {
    throwUsage(fmt::format("compare needs at least two targets (A, then one or more B), got {}", m_targets.size()));
  }
  if (m_targets.size() > 16) throwUsage(fmt::format("compare takes at most 16 targets, got {}", m_targets.size()));
  if (m_options.repetitions == 0 || m_options.repetitions > 1000) throwUsage("--repetitions must be in [1, 1000]");
  if (!(m_options.warmupSeconds >= 0) || m_options.warmupSeconds > 3600) throwUsage("--warmup-s must be in [0, 3600]");
  if (m_options.warmPasses > CompareOptions::kMaxWarmPasses) {
    throwUsage(fmt::format("--warm-passes must be in [0, {}], got {}", CompareOptions::kMaxWarmPasses,
                           m_options.warmPasses));
  }
  if (!(m_options.noiseFloor >= 0) || m_options.noiseFloor >= 1) throwUsage("--noise-floor must be in [0, 1)");
  if (m_options.bootstrapSamples < 100 || m_options.bootstrapSamples > 1'000'000) {
    throwUsage("--bootstrap must be in [100, 1000000]");
  }
}

CompareReport CompareRunner::run() {
  // A profile in open mode compares ladders (engine/bench/open_compare.h); any other, closed loop.
  const bool open = m_profile.runOpen && !m_profile.runClosed;
  const std::size_t n = m_targets.size();
  BenchProfile profile = open ? openComparisonProfile(m_profile, m_targets, m_options) : m_profile;
  if (!open) {
    profile.targets = m_targets;
    if (m_options.aa) profile.targets.push_back(m_targets[0]);
    profile.runClosed = true;
    profile.runOpen = false;
  }
  OpenLatencyCapture capture(m_options.onOpenLatency, n);
  BenchRunOptions ro;
  ro.cacheDir = m_options.cacheDir;
  ro.stop = m_options.stop;
  if (open) ro.live = &capture;
  BenchRunner runner(profile, ro);
  if (!runner.prepare()) {
    // Nothing to compare yet (no target was made): said as such, not as a report of nothing.
    throwUsage("stopped while the dataset was prepared: nothing was compared");
  }
  const auto& targets = runner.targets();
  const Workload& workload = runner.workload();
  if (workload.empty() && !open) {
    throwUsage(fmt::format("{}: compare needs query sets; the profile selects none", profile.fileName));
  }

  CompareReport report;
  report.runId = newRunId();
  report.profileName = profile.name;
  report.profileJson = benchProfileJson(profile);
  report.environment = collectEnvironment();
  if (runner.index()) report.environment.fingerprints["index"] = indexFingerprint(*runner.index());
  for (const auto& s : workload.sets()) report.environment.fingerprints["queries:" + s.name] = s.fingerprint;
  report.a = sideOf(*targets[0], report.environment);
  report.b = sideOf(*targets[1], report.environment);
  for (std::size_t i = 2; i < n; ++i) report.more.push_back(sideOf(*targets[i], report.environment));
  report.repetitions = m_options.repetitions;
  report.warmupSeconds = m_options.warmupSeconds;
  report.warmPasses = open ? 0 : m_options.warmPasses;
  report.bootstrapSamples = m_options.bootstrapSamples;
  report.noiseFloor = m_options.noiseFloor;
  report.aa = m_options.aa;
  report.method = methodText(report);
  const auto& env = report.environment;
  if (!isReleaseBuild(env)) {
    report.warnings.push_back(fmt::format("this binary is a {} build: its numbers are not published", env.buildType));
  }
  if (env.loadAverage1m > static_cast<double>(std::max(1u, env.cores))) {
    report.warnings.push_back(fmt::format("load average {:.2f} on {} cores at the start: the machine was shared",
                                          env.loadAverage1m, env.cores));
  }
  // A target with its own op or k answers other queries than A: a 'faster' beside 'results
  // differ' then compares different work (a walkthrough compared builtin with builtin:op=and).
  const auto question = [&profile](const std::string& text) {
    std::string op = operatorName(profile.op);
    std::string k = std::to_string(profile.k);
    for (const auto& [key, value] : TargetSpec::parse(text).options) {
      if (key == "op") op = value;
      if (key == "k") k = value;
    }
    return fmt::format("op={} k={}", op, k);
  };
  for (std::size_t i = 1; i < n; ++i) {
    if (question(m_targets[i]) != question(m_targets[0])) {
      report.warnings.push_back(fmt::format(
          "{} answers other queries than A ({} against {}): their results cannot be the same, and the ratio "
          "compares different work",
          CompareReport::targetLabel(i), question(m_targets[i]), question(m_targets[0])));
    }
  }
  if (open) {
    report.method = openMethodText(profile, m_options, n);
    if (m_options.aa) report.warnings.push_back("--aa is a closed-loop calibration; not run in open mode");
    runOpenComparison(runner, profile, capture, m_options, report);
    return report;
  }
  auto say = [&](const std::string& m) {
    if (m_options.onMessage) m_options.onMessage(m);
  };

  // Each query is timed between two steady-clock reads: about one read's cost lands in its sample
  // (and the two reads in the process CPU of its block), the same for every target, so on
  // microsecond queries every CPU benefit is pulled toward 1. Said once, naming the sets where
  // they reach 10 % (clockShareWarning). Until stop 37 a thread-CPU read, a system call (1.32 us
  // on that stop's host), sat around each query too (block()).
  std::vector<std::pair<std::string, double>> medians;  // per set: the smallest target's median thread CPU
  for (std::size_t set = 0; set < workload.sets().size(); ++set) {
    if (m_options.stop.stop_requested()) break;
    const WorkloadQuerySet& qs = workload.sets()[set];
    const Workload ws = workload.restrictedTo(set);
    SetMeasurement m(ws, m_options);

    // Results first (untimed): they decide whether the speed headline means anything.
    std::vector<ResultDiff> diffs(n);
    for (std::size_t i = 1; i < n; ++i) diffs[i] = diffQuerySet(*targets[0], *targets[i], ws, qs.ids);

    std::vector<CompareScenario> aaRows;
    if (m_options.aa) {
      std::vector<Samples> aa(2, Samples(m.queries()));
      m.warm(*targets[0]);
      m.warm(*targets[n]);
      if (!m.interleave({targets[0].get(), targets[n].get()}, aa, set, true)) break;
      aaRows = scenariosOf(qs.name, aa[0], aa[1], m_options, m_profile.seed + 1000 * set + 500);
      for (auto& r : aaRows) r.estimate.verdict = ratioVerdict(r.estimate.ciLow, r.estimate.ciHigh, r.estimate.noiseFloor);
    }

    std::vector<Samples> samples(n, Samples(m.queries()));
    std::vector<Target*> sides;
    for (std::size_t i = 0; i < n; ++i) {
      m.warm(*targets[i]);
      sides.push_back(targets[i].get());
    }
    if (!m.interleave(sides, samples, set, false)) break;
    std::uint64_t errors = 0;
    for (const auto& s : samples) errors += s.errors;
    if (errors > 0) {
      if (n == 2) {
        report.warnings.push_back(
            fmt::format("{}: {} failed requests for A, {} for B", qs.name, samples[0].errors, samples[1].errors));
      } else {
        std::string each;
        for (std::size_t i = 0; i < n; ++i) {
          each += fmt::format("{}{} for {}", i == 0 ? "" : ", ", samples[i].errors, CompareReport::targetLabel(i));
        }
        report.warnings.push_back(fmt::format("{}: failed requests: {}", qs.name, each));
      }
    }
    std::vector<CompareScenario> rows;
    double smallestMedianMs = std::numeric_limits<double>::infinity();
    for (std::size_t t = 1; t < n; ++t) {
      // The first B keeps the two-target seeds, so a two-target report is reproducible as before.
      auto pair = scenariosOf(qs.name, samples[0], samples[t], m_options, m_profile.seed + 1000 * set + 10 * (t - 1), t);
      for (std::size_t i = 0; i < pair.size(); ++i) {
        auto& r = pair[i];
        if (i < aaRows.size()) {
          r.estimate.noiseFloor = std::max(r.estimate.noiseFloor,
                                           aaNoiseFloor(aaRows[i].estimate.ciLow, aaRows[i].estimate.ciHigh));
        }
        r.estimate.verdict = ratioVerdict(r.estimate.ciLow, r.estimate.ciHigh, r.estimate.noiseFloor);
        r.diff = diffs[t];
      }
      const auto& cpu = pair[0];
      smallestMedianMs = std::min({smallestMedianMs, cpu.aGeomean, cpu.bGeomean});
      // targetLabel(1) is "B": a two-target run prints the line it always did.
      say(fmt::format("{}: CPU A {} ms, {} {} ms/query: {} {} {}; p50 {}; results {}", qs.name,
                      significant(cpu.a), CompareReport::targetLabel(t), significant(cpu.b),
                      speedupText(cpu.estimate.ratio), intervalText(cpu.estimate.ciLow, cpu.estimate.ciHigh),
                      cpu.estimate.verdict, speedupText(pair[1].estimate.ratio), diffText(diffs[t])));
      for (auto& r : pair) rows.push_back(std::move(r));
    }
    medians.emplace_back(qs.name, smallestMedianMs);
    if (m_options.onScenarios) m_options.onScenarios(rows, aaRows);
    for (auto& r : aaRows) report.aaScenarios.push_back(std::move(r));
    for (auto& r : rows) report.scenarios.push_back(std::move(r));
  }
  const double clockMs = env.steadyClockCallNs / 1e6;
  if (auto w = clockShareWarning(medians, clockMs)) report.warnings.push_back(std::move(*w));
  report.partial = m_options.stop.stop_requested();
  return report;
}

}  // namespace wandscope::engine
