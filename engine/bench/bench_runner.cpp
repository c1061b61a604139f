// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bench/bench_runner.h"

#include "engine/bench/default_dataset.h"
#include "engine/bench/environment.h"
#include "engine/bench/quantile.h"
#include "engine/bench/rung_summary.h"
#include "engine/bench/saturation_rule.h"
#include "engine/core/error.h"
#include "engine/core/log.h"
#include "engine/core/wording.h"
#include "engine/loadgen/builtin_target.h"
#include "engine/loadgen/closed_loop_driver.h"
#include "engine/loadgen/open_loop_driver.h"
#include "engine/loadgen/plugin_target.h"
#include "engine/loadgen/steady_time.h"
#include "engine/loadgen/synthetic_target.h"
#include "engine/loadgen/target_factory.h"
#include "engine/loadgen/target_spec.h"

#include <fmt/format.h>

#include <cmath>
#include <ctime>
#include <random>

namespace wandscope::engine {
namespace {

constexpr double kMib = 1024.0 * 1024.0;

std::optional<double> msOf(const LatencyHistogram& h, double q) {
  const auto v = h.quantile(q);
  if (!v) return std::nullopt;
  return static_cast<double>(*v) / 1e6;
}

LiveTick liveTickOf(const RungPlan& plan, const DriverTick& t, double settleSeconds,
                    const std::vector<std::string>& counterNames) {
  LiveTick lt;
  lt.plan = plan;
  lt.elapsedSeconds = static_cast<double>(t.elapsedNs) / 1e9;
  if (t.measuring) {
    lt.phase = "measure";
  } else if (plan.mode == "open") {
    lt.phase = lt.elapsedSeconds < settleSeconds ? "settle" : "drain";
  } else {
    lt.phase = "measure";
  }
  lt.completed = t.completed;
  lt.shed = t.shed;
  lt.errors = t.errors;
  lt.completedTotal = t.completedTotal;
  lt.shedTotal = t.shedTotal;
  lt.inFlight = t.inFlight;
  lt.p50Ms = msOf(t.latency, 0.5);
  lt.p90Ms = msOf(t.latency, 0.9);
  lt.p99Ms = msOf(t.latency, 0.99);
  lt.maxMs = msOf(t.latency, 1.0);
  lt.serviceP50Ms = msOf(t.service, 0.5);
  lt.rssMib = static_cast<double>(t.rssBytes) / kMib;
  lt.latency = &t.latency;
  for (std::size_t i = 0; i < t.counterMeans.size() && i < counterNames.size(); ++i) {
    lt.counterMeans[counterNames[i]] = t.counterMeans[i];
  }
  return lt;
}

struct Cell {
  std::size_t target = 0;
  std::optional<std::size_t> set;  // none: synthetic-only run without query sets
  unsigned concurrency = 1;
  std::uint32_t rungIndex = 0;
  std::vector<RungRecords> passRecords;
  std::vector<RungWindow> windows;
  std::vector<RungPass> passes;
  std::vector<RungEvent> events;
  bool partial = false;
};

}  // namespace

std::string newRunId() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  std::random_device rd;
  return fmt::format("{}-{:06x}", buf, rd() & 0xffffffu);
}

BenchRunner::BenchRunner(BenchProfile profile, BenchRunOptions options)
    : m_profile(std::move(profile)), m_options(std::move(options)) {}

BenchRunner::~BenchRunner() = default;

template <typename F>
void BenchRunner::notify(RunReport& report, F&& call) {
  if (m_options.observer == nullptr || m_observerFailed) return;
  try {
    call(*m_options.observer);
  } catch (const std::exception& e) {
    m_observerFailed = true;
    const std::string message = fmt::format("the run store failed and records nothing more of this run: {}", e.what());
    log::warn(message);
    report.warnings.push_back(message);
    if (m_options.live) m_options.live->onMessage(fmt::format("warning: {}", message));
  }
}

namespace {

// Thrown through the dataset's progress callback once the run is stopped while its dataset is
// prepared: the default dataset is generated and indexed first (200,000 documents by default), and
// Stop (or Ctrl-C) did nothing until it was ready, after which an empty run was recorded (review,
// stop 34). The generator and the index builder remove what they made as it unwinds.
struct StoppedWhilePreparing {};

}  // namespace

bool BenchRunner::prepare() {
  if (m_prepared) return true;
  try {
    prepareDataset();
  } catch (const StoppedWhilePreparing&) {
    return false;
  }
  m_prepared = true;
  return true;
}

void BenchRunner::prepareDataset() {
  std::vector<WorkloadQuerySet> available;
  auto progress = [this](const Progress& p) {
    if (stopped()) throw StoppedWhilePreparing{};
    if (m_options.live) m_options.live->onProgress(p);
  };
  switch (m_profile.datasetKind) {
    case BenchProfile::DatasetKind::None:
      break;
    case BenchProfile::DatasetKind::Default: {
      const auto spec = defaultDatasetSpec(m_options.cacheDir, m_profile.defaultDocs);
      if (m_options.live) {
        m_options.live->onMessage(fmt::format("dataset: the default at {} documents ({})", m_profile.defaultDocs,
                                              spec.dir.string()));
      }
      const auto d = prepareDefaultDataset(spec, progress);
      m_index = Index::open(d.index);
      m_corpus = d.corpus;
      for (const auto& q : d.querySets) available.push_back(loadWorkloadQuerySet(q.name, q.path));
      m_fingerprints["dataset"] = fmt::format("default docs={}", m_profile.defaultDocs);
      break;
    }
    case BenchProfile::DatasetKind::Index:
      m_index = Index::open(m_profile.indexPath);
      for (const auto& [name, path] : m_profile.querySetFiles) available.push_back(loadWorkloadQuerySet(name, path));
      m_fingerprints["dataset"] = fmt::format("index {}", m_profile.indexPath.string());
      break;
  }
  if (m_index) m_fingerprints["index"] = indexFingerprint(*m_index);

  std::vector<WorkloadQuerySet> chosen;
  if (m_profile.querySets.empty()) {
    chosen = available;
  } else {
    for (std::size_t i = 0; i < m_profile.querySets.size(); ++i) {
      const auto& name = m_profile.querySets[i];
      auto it = std::find_if(available.begin(), available.end(), [&](const auto& s) { return s.name == name; });
      if (it == available.end()) {
        std::string names;
        for (const auto& s : available) names.append(names.empty() ? "" : ", ").append(s.name);
        throwBadInput(fmt::format("{}: query_sets[{}]: the dataset has no query set '{}' (it has: {})",
                                  m_profile.fileName, i, name, names.empty() ? "none" : names));
      }
      chosen.push_back(*it);
    }
  }
  for (const auto& s : chosen) m_fingerprints[fmt::format("queries:{}", s.name)] = s.fingerprint;
  m_workload = Workload(std::move(chosen), m_profile.order, m_profile.seed);

  for (const auto& text : m_profile.targets) {
    const TargetSpec spec = TargetSpec::parse(text);
    if (spec.kind == "synthetic") {
      m_targets.push_back(std::make_unique<SyntheticTarget>(spec));
    } else if (spec.kind == "plugin") {
      // Another engine build through the C ABI (docs/PLUGIN_ABI.md), on the same index directory.
      if (!m_index) throwUsage(fmt::format("target '{}' needs a dataset; the profile has none", text));
      if (m_workload.empty()) throwUsage(fmt::format("target '{}' needs query sets; the profile selects none", text));
      PluginQueryOptions o;
      o.op = operatorName(m_profile.op);
      o.k = static_cast<std::uint32_t>(m_profile.k);
      o.algorithm = algorithmName(m_profile.algorithm);
      o.options = m_profile.searchOptions;
      o.applySpec(spec);
      m_targets.push_back(std::make_unique<PluginTarget>(spec, m_index->dir(), m_workload, o));
    } else if (spec.kind != "builtin") {
      // Kinds engine_core does not implement (the peers) come from a registered factory.
      const TargetFactory factory = findTargetFactory(spec.kind);
      if (!factory) throwUsage(fmt::format("target '{}': this program was built without '{}' targets", text, spec.kind));
      if (!m_index) throwUsage(fmt::format("target '{}' needs a dataset; the profile has none", text));
      if (m_workload.empty()) throwUsage(fmt::format("target '{}' needs query sets; the profile selects none", text));
      TargetContext context;
      context.index = m_index;
      context.workload = &m_workload;
      context.op = m_profile.op;
      context.k = m_profile.k;
      context.corpus = m_corpus;
      context.progress = progress;  // a peer index build stops with the run too
      m_targets.push_back(factory(spec, context));
    } else {
      if (!m_index) throwUsage(fmt::format("target '{}' needs a dataset; the profile has none", text));
      if (m_workload.empty()) throwUsage(fmt::format("target '{}' needs query sets; the profile selects none", text));
      BuiltinQueryOptions o = builtinQueryOptions(m_profile);
      o.applySpec(spec);
      m_targets.push_back(std::make_unique<BuiltinTarget>(spec.text, m_index, m_workload, o));
    }
  }
}

RunReport BenchRunner::run() {
  const bool prepared = prepare();
  RunReport report;
  m_header.runId = newRunId();
  m_header.profileName = m_profile.name;
  m_header.profileJson = benchProfileJson(m_profile);
  if (prepared) {
    for (const auto& t : m_targets) m_header.targets.push_back(t->spec());
  } else {
    m_header.targets = m_profile.targets;  // as the profile names them: none was made
  }
  m_header.environment = collectEnvironment();
  m_header.environment.guiAttached = m_options.guiAttached;
  m_header.environment.fingerprints = m_fingerprints;
  report.header = m_header;
  report.quantileDefinition = kQuantileDefinition;
  report.saturationRule = m_profile.rule.describe();
  const auto& env = m_header.environment;
  if (!isReleaseBuild(env)) {
    report.warnings.push_back(fmt::format(
        "this binary is a {} build{}: its numbers are not comparable with Release numbers and are not published",
        env.buildType, env.sanitizers.empty() ? "" : fmt::format(" with sanitizers ({})", env.sanitizers)));
  }
  if (env.loadAverage1m > static_cast<double>(std::max(1u, env.cores))) {
    report.warnings.push_back(fmt::format("load average {:.2f} on {} cores at the start: the machine was shared",
                                          env.loadAverage1m, env.cores));
  }
  if (!prepared) {
    // Nothing was measured: the report says so, and the run store records no empty run.
    report.partial = true;
    report.started = false;
    report.warnings.push_back("stopped while the dataset was prepared: nothing was measured and the run was not stored");
    return report;
  }
  notify(report, [&](RunObserver& o) { o.onRunStarted(m_header); });
  if (m_profile.runClosed) runClosed(report);
  if (m_profile.runOpen && !stopped()) runOpen(report);
  report.partial = stopped();
  for (const auto& r : report.rungs) {
    if (r.partial) report.partial = true;
  }
  if (auto w = threadCpuClockWarning(report.rungs, env.threadCpuClockCallNs)) report.warnings.push_back(std::move(*w));
  if (auto w = syscallTlbWarning(env)) report.warnings.push_back(std::move(*w));
  if (auto w = generatorBehindWarning(report.rungs)) report.warnings.push_back(std::move(*w));
  notify(report, [&](RunObserver& o) { o.onRunFinished(report); });
  return report;
}

void BenchRunner::finishRung(RunReport& report, RungResult rung) {
  report.rungs.push_back(std::move(rung));
  const RungResult& r = report.rungs.back();
  notify(report, [&](RunObserver& o) { o.onRungFinished(m_header, r); });
  if (m_options.live) m_options.live->onRungFinished(r);
}

void BenchRunner::runClosed(RunReport& report) {
  const auto& c = m_profile.closed;
  std::vector<Cell> cells;
  const std::size_t sets = m_workload.sets().size();
  auto firstIndex = static_cast<std::uint32_t>(report.rungs.size());
  for (std::size_t s = 0; s < std::max<std::size_t>(sets, 1); ++s) {
    for (unsigned conc : c.concurrency) {
      for (std::size_t t = 0; t < m_targets.size(); ++t) {
        Cell cell;
        cell.target = t;
        if (sets > 0) cell.set = s;
        cell.concurrency = conc;
        cell.rungIndex = firstIndex + static_cast<std::uint32_t>(cells.size());
        cells.push_back(std::move(cell));
      }
    }
  }
  std::vector<Workload> workloads;
  for (std::size_t s = 0; s < sets; ++s) workloads.push_back(m_workload.restrictedTo(s));

  const auto warmupNs = static_cast<std::int64_t>(std::llround(c.warmupSeconds * 1e9));
  const auto measureNs = static_cast<std::int64_t>(std::llround(c.measureSeconds * 1e9));
  for (unsigned pass = 0; pass < c.passes && !stopped(); ++pass) {
    const bool reverse = pass % 2 == 1;
    for (std::size_t k = 0; k < cells.size() && !stopped(); ++k) {
      Cell& cell = cells[reverse ? cells.size() - 1 - k : k];
      Target& target = *m_targets[cell.target];
      const Workload& workload = cell.set ? workloads[*cell.set] : m_workload;
      RungPlan plan;
      plan.index = cell.rungIndex;
      plan.planned = static_cast<std::uint32_t>(firstIndex + cells.size());
      plan.target = target.spec();
      plan.mode = "closed";
      plan.querySet = cell.set ? m_workload.sets()[*cell.set].name : "";
      plan.concurrency = cell.concurrency;
      plan.pass = pass;
      plan.passes = c.passes;
      plan.reverse = reverse;
      plan.expectedSeconds = c.warmupSeconds + c.measureSeconds;
      if (m_options.live) m_options.live->onRungStarted(plan);

      ClosedLoopConfig config;
      config.clients = cell.concurrency;
      config.warmupNs = warmupNs;
      config.measureNs = measureNs;
      config.reverse = reverse;
      config.pass = static_cast<std::uint8_t>(std::min(pass, 255u));
      config.maxRecords = kMaxRequestsPerRung;
      ClosedLoopDriver driver(target, workload, config);
      RungContext context;
      context.plan = plan;
      context.target = &target;
      DriverTickFn tickFn;
      if (m_options.live) {
        tickFn = [this, plan, names = target.counterNames()](const DriverTick& t) {
          m_options.live->onTick(liveTickOf(plan, t, 0, names));
        };
      }
      auto windowStart = [&](std::int64_t t0, std::int64_t end) {
        context.t0Ns = context.measureStartNs = t0;
        context.measureEndNs = end;
        if (m_options.hook) m_options.hook->onRungStarting(context);
      };
      ClosedLoopResult result = driver.run(m_options.stop, tickFn, windowStart);
      if (m_options.hook) {
        for (auto& e : m_options.hook->onRungFinished(context)) cell.events.push_back(std::move(e));
      }
      if (m_options.live) m_options.live->onRecords(plan, result.records, m_workload);

      RungWindow window;
      window.measureStartNs = 0;
      window.lastEndNs = result.lastEndNs;
      window.measureEndNs = std::max<std::int64_t>(result.lastEndNs, 1);
      window.process = result.window;
      window.lateDispatchUs = m_profile.rule.lateDispatchUs;
      // This pass alone, for the per-pass figures.
      RungResult passOnly;
      passOnly.mode = "closed";
      summarizeRung({&result.records}, {window}, passOnly);
      RungPass rp;
      rp.reverse = reverse;
      rp.completed = passOnly.completed;
      rp.seconds = passOnly.durationSeconds;
      rp.cpuMsPerQuery = passOnly.cpuMsPerQuery;
      rp.p50Ms = passOnly.p50Ms;
      cell.passes.push_back(rp);
      cell.windows.push_back(window);
      cell.partial = cell.partial || result.cancelled;
      if (result.truncated) {
        log::warn(fmt::format("closed loop {} c={}: stopped at {} requests (the per-rung record maximum)",
                              target.spec(), cell.concurrency, kMaxRequestsPerRung));
      }
      cell.passRecords.push_back(std::move(result.records));
    }
  }

  for (Cell& cell : cells) {
    if (cell.passRecords.empty()) continue;  // never ran (cancelled before its first pass)
    RungResult rung;
    rung.index = cell.rungIndex;
    rung.target = m_targets[cell.target]->spec();
    rung.mode = "closed";
    rung.concurrency = cell.concurrency;
    rung.querySet = cell.set ? m_workload.sets()[*cell.set].name : "";
    rung.settleSeconds = c.warmupSeconds;
    std::vector<const RungRecords*> parts;
    std::uint64_t bytes = 0;
    for (const auto& r : cell.passRecords) {
      parts.push_back(&r);
      bytes += recordBytes(r);
    }
    summarizeRung(parts, cell.windows, rung);
    // The headline CPU figure is the mean over passes (the first seed's method).
    double sum = 0;
    for (const auto& p : cell.passes) sum += p.cpuMsPerQuery;
    rung.cpuMsPerQuery = sum / static_cast<double>(cell.passes.size());
    rung.passes = cell.passes;
    rung.events = cell.events;
    rung.instrumentMib = static_cast<double>(bytes) / kMib;
    rung.partial = cell.partial || cell.passes.size() < c.passes;
    rung.valid = !rung.partial;
    rung.verdict = rung.partial ? "invalid" : "n/a";
    rung.criterion = rung.partial ? "cancelled" : "";
    cell.passRecords.clear();
    finishRung(report, std::move(rung));
  }
}

void BenchRunner::runOpen(RunReport& report) {
  const auto& l = m_profile.ladder;
  for (const auto& targetPtr : m_targets) {
    if (stopped()) break;
    Target& target = *targetPtr;
    std::vector<double> rates = l.rates;
    if (rates.empty()) {
      // Calibrate: the target's sequential throughput (one client, closed loop, >= N requests).
      RungPlan plan;
      plan.index = static_cast<std::uint32_t>(report.rungs.size());
      plan.target = target.spec();
      plan.mode = "calibration";
      plan.concurrency = 1;
      plan.expectedSeconds = l.calibrationWarmupSeconds + l.calibrationSeconds;
      if (m_options.live) m_options.live->onRungStarted(plan);
      ClosedLoopConfig config;
      config.clients = 1;
      config.warmupNs = static_cast<std::int64_t>(std::llround(l.calibrationWarmupSeconds * 1e9));
      config.measureNs = static_cast<std::int64_t>(std::llround(l.calibrationSeconds * 1e9));
      config.minRequests = l.calibrationMinRequests;
      config.maxMeasureNs = std::max<std::int64_t>(60'000'000'000, 10 * config.measureNs);
      ClosedLoopDriver driver(target, m_workload, config);
      const ClosedLoopResult result = driver.run(m_options.stop);
      if (result.cancelled) break;
      std::uint64_t ok = 0;
      for (const auto& r : result.records.records) ok += r.outcome == RequestOutcome::Ok ? 1 : 0;
      const double seconds = static_cast<double>(std::max<std::int64_t>(result.lastEndNs, 1)) / 1e9;
      RunReport::Calibration cal;
      cal.rate = static_cast<double>(ok) / seconds;
      cal.requests = ok;
      cal.seconds = seconds;
      report.calibration[target.spec()] = cal;
      if (m_options.live) {
        m_options.live->onMessage(fmt::format("calibrated {}: sequential throughput {} ({} requests over {:.2f} s)",
                                              target.spec(), formatRate(cal.rate), grouped(cal.requests),
                                              cal.seconds));
      }
      if (ok < l.calibrationMinRequests) {
        report.warnings.push_back(fmt::format("{}: calibration completed {} requests, fewer than the {} asked for",
                                              target.spec(), ok, l.calibrationMinRequests));
      }
      for (double m : l.multiples) rates.push_back(std::max(ArrivalSchedule::kMinRate, m * cal.rate));
    }

    std::vector<std::size_t> ladder;  // indices into report.rungs
    std::vector<std::string> unjudged;  // "RATE/s: criterion" of passing rungs too short to judge one
    for (std::size_t i = 0; i < rates.size() && !stopped(); ++i) {
      const double rate = rates[i];
      RungPlan plan;
      plan.index = static_cast<std::uint32_t>(report.rungs.size());
      plan.planned = static_cast<std::uint32_t>(report.rungs.size() + rates.size() - i);
      plan.target = target.spec();
      plan.mode = "open";
      plan.querySet = m_workload.sets().size() == 1 ? m_workload.sets()[0].name : (m_workload.empty() ? "" : "mixed");
      plan.targetRate = rate;
      plan.expectedSeconds = l.settleSeconds + (l.requests > 0 ? static_cast<double>(l.requests) / rate : l.rungSeconds);

      RungResult rung;
      rung.index = plan.index;
      rung.target = target.spec();
      rung.mode = "open";
      rung.targetRate = rate;
      rung.querySet = plan.querySet;
      rung.arrivals = arrivalProcessName(l.arrivals);
      rung.settleSeconds = l.settleSeconds;
      rung.workers = l.workers;
      rung.inFlightCap = l.inFlightCap;
      if (plannedRungRequests(m_profile, rate) > kMaxRequestsPerRung) {
        rung.valid = false;
        rung.verdict = "invalid";
        rung.criterion = fmt::format("{} would schedule more than {} requests in one rung (records are kept in "
                                     "memory); not run",
                                     formatRate(rate), grouped(kMaxRequestsPerRung));
        finishRung(report, std::move(rung));
        ladder.push_back(report.rungs.size() - 1);
        break;
      }
      if (m_options.live) m_options.live->onRungStarted(plan);

      OpenLoopConfig config;
      config.process = l.arrivals;
      config.rate = rate;
      config.seed = m_profile.seed + i;
      config.settleNs = static_cast<std::int64_t>(std::llround(l.settleSeconds * 1e9));
      config.measureNs = static_cast<std::int64_t>(std::llround(l.rungSeconds * 1e9));
      config.measureRequests = l.requests;
      config.workers = l.workers;
      config.inFlightCap = l.inFlightCap;
      config.spinNs = static_cast<std::int64_t>(std::llround(l.spinUs * 1e3));
      config.drainTimeoutNs = static_cast<std::int64_t>(std::llround(l.drainTimeoutSeconds * 1e9));
      OpenLoopDriver driver(target, m_workload, config);
      RungContext context;
      context.plan = plan;
      context.target = &target;
      OpenLoopHooks hooks;
      hooks.started = [&](const OpenLoopResult& r) {
        context.t0Ns = r.t0Ns;
        context.measureStartNs = r.t0Ns + r.measureStartNs;
        context.measureEndNs = r.t0Ns + r.measureEndNs;
        if (m_options.hook) m_options.hook->onRungStarting(context);
      };
      if (m_options.live) {
        const double settle = l.settleSeconds;
        hooks.tick = [this, plan, settle, names = target.counterNames()](const DriverTick& t) {
          m_options.live->onTick(liveTickOf(plan, t, settle, names));
        };
      }
      OpenLoopResult result = driver.run(m_options.stop, hooks);
      if (m_options.hook) rung.events = m_options.hook->onRungFinished(context);
      if (m_options.live) m_options.live->onRecords(plan, result.records, m_workload);

      rung.scheduledRate = result.scheduledRate;
      rung.inFlightHighWater = result.inFlightHighWater;
      rung.partial = result.cancelled;
      RungWindow window;
      window.measureStartNs = result.measureStartNs;
      window.measureEndNs = result.measureEndNs;
      window.lastEndNs = result.lastEndNs;
      window.process = result.window;
      window.lateDispatchUs = m_profile.rule.lateDispatchUs;
      summarizeRung({&result.records}, {window}, rung);
      rung.instrumentMib = static_cast<double>(recordBytes(result.records)) / kMib;
      const RungResult* first = ladder.empty() ? nullptr : &report.rungs[ladder.front()];
      const RungVerdict v = judgeRung(m_profile.rule, rung, first, result.drained);
      rung.verdict = v.verdict;
      rung.criterion = v.criterion;
      rung.valid = v.valid;
      if (v.verdict == "pass" && !v.unjudged.empty()) unjudged.push_back(fmt::format("{}: {}", formatRate(rung.targetRate), v.unjudged));
      result.records = {};  // free before the next rung: the instrument's memory is not the target's
      finishRung(report, std::move(rung));
      ladder.push_back(report.rungs.size() - 1);
      if (report.rungs.back().verdict != "pass" && l.stopAfterFail) break;
    }
    if (!unjudged.empty()) {
      // A pass on such a rung says nothing about a growing queue: the report must not let it
      // stand for a stable one (a 1,020/s rung over a 1,000/s target passed in 3 s).
      std::string list;
      for (const auto& u : unjudged) list += (list.empty() ? "" : "; ") + u;
      report.warnings.push_back(fmt::format(
          "{}: the growth criterion was not judged on {} rung(s), too short for it ({}); their verdicts do not show "
          "that the queue was stable: give rungs of at least {:g} s (--rung-duration-s)",
          target.spec(), unjudged.size(), list, SaturationRule::kGrowthMinBins * SaturationRule::kGrowthMinBinSeconds));
    }
    std::vector<const RungResult*> rungs;
    for (std::size_t i : ladder) rungs.push_back(&report.rungs[i]);
    if (!rungs.empty()) report.capacity[target.spec()] = capacityOf(rungs);
  }
}

}  // namespace wandscope::engine
