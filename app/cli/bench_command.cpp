// SPDX-License-Identifier: GPL-3.0-or-later
// `bench`: runs a benchmark profile (benchprofiles/README.md) through the instrument
// (engine/bench, engine/loadgen) and writes report.json, report.md, rungs.csv and
// requests.csv.gz into --out; the run also goes to the run store unless --no-db.
#include "app/cli/cli_support.h"

#include "engine/bench/bench_runner.h"
#include "engine/bench/environment.h"
#include "engine/bench/report_writer.h"
#include "engine/bench/request_log_writer.h"
#include "engine/bench/saturation_rule.h"
#include "engine/core/error.h"
#include "engine/core/fs_util.h"
#include "engine/core/wording.h"
#include "engine/store/store_run_observer.h"

#include <fmt/format.h>
#include <unistd.h>

#include <iostream>
#include <memory>
#include <mutex>
#include <optional>

namespace wandscope::app {

// The run store hook: every bench run is recorded as it happens (one transaction per rung).
std::unique_ptr<engine::RunObserver> makeRunStoreObserver(const std::filesystem::path& db) {
  return std::make_unique<engine::StoreRunObserver>(db);
}

namespace {

// Progress for the terminal and the per-request log: one line per finished rung (always, on
// stderr), a live line redrawn at the tick rate when stderr is a terminal.
class CliSink final : public engine::LiveSink {
 public:
  CliSink(std::optional<std::filesystem::path> requestsPath, bool live)
      : m_live(live), m_progress(terminalProgress("dataset")) {
    if (requestsPath) m_log = std::make_unique<engine::RequestLogWriter>(*requestsPath);
  }

  void onRungStarted(const engine::RungPlan& plan) override {
    std::lock_guard lock(m_mutex);
    m_plan = plan;
  }

  void onTick(const engine::LiveTick& t) override {
    if (!m_live) return;
    std::lock_guard lock(m_mutex);
    const double rate = t.tickSeconds > 0 ? static_cast<double>(t.completed) / t.tickSeconds : 0.0;
    std::string line = fmt::format("\r{} {} {:.1f} s: {} done, p50 {} p99 {}, shed {}, in flight {}, RSS {:.0f} MiB",
                                   describe(t.plan), t.phase, t.elapsedSeconds, engine::formatRate(rate), engine::msOrDash(t.p50Ms),
                                   engine::msOrDash(t.p99Ms), t.shedTotal, t.inFlight, t.rssMib);
    std::fprintf(stderr, "%-110.110s", line.c_str());
    std::fflush(stderr);
    m_drawn = true;
  }

  void onRecords(const engine::RungPlan& plan, const engine::RungRecords& records,
                 const engine::Workload& workload) override {
    if (m_log) m_log->write(plan, records, workload);
    if (plan.mode == "closed") {
      std::lock_guard lock(m_mutex);
      clearLine();
      std::cerr << fmt::format("{} pass {}/{} ({}): {} requests\n", describe(plan), plan.pass + 1, plan.passes,
                               plan.reverse ? "reverse" : "forward", records.records.size());
    }
  }

  void onRungFinished(const engine::RungResult& r) override {
    std::lock_guard lock(m_mutex);
    clearLine();
    const double due = static_cast<double>(r.completed + r.shed + r.errors + r.notRun);
    std::string what = r.mode == "open" ? engine::formatRate(r.targetRate)
                                        : fmt::format("{} c={}", r.querySet, r.concurrency);
    std::cerr << fmt::format(
        "rung {} {} {} {}: achieved {}, p50 {}, p99 {}, shed {} ({:.2f} %), CPU {} ms/query, RSS peak "
        "{:.1f} MiB{} -> {}{}\n",
        r.index, r.mode, r.target, what, engine::formatRate(r.achievedRate), engine::msOrDash(r.p50Ms), engine::msOrDash(r.p99Ms), r.shed,
        due > 0 ? 100.0 * static_cast<double>(r.shed) / due : 0.0, engine::significant(r.cpuMsPerQuery), r.rssPeakMib,
        r.dispatchLagP99Us ? fmt::format(", lag p99 {} us", engine::significant(*r.dispatchLagP99Us)) : "", r.verdict,
        r.criterion.empty() ? "" : fmt::format(" ({})", r.criterion));
  }

  void onProgress(const engine::Progress& p) override {
    if (m_progress) m_progress(p);
  }

  void onMessage(const std::string& message) override {
    std::lock_guard lock(m_mutex);
    clearLine();
    endProgress();
    std::cerr << message << '\n';
  }

  void close() {
    if (m_log) m_log->close();
  }

  void finish() {
    std::lock_guard lock(m_mutex);
    clearLine();
  }

 private:
  static std::string describe(const engine::RungPlan& p) {
    if (p.mode == "open") return fmt::format("[open {}] {} @{}", p.index, p.target, engine::formatRate(p.targetRate));
    if (p.mode == "calibration") return fmt::format("[calibration] {}", p.target);
    return fmt::format("[closed {}] {} {} c={}", p.index, p.target, p.querySet, p.concurrency);
  }

  void clearLine() {
    if (m_drawn) {
      std::fprintf(stderr, "\r%-110s\r", "");
      m_drawn = false;
    }
  }

  std::mutex m_mutex;
  bool m_live;
  bool m_drawn = false;
  engine::ProgressFn m_progress;
  engine::RungPlan m_plan;
  std::unique_ptr<engine::RequestLogWriter> m_log;
};

}  // namespace

void addBenchCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "bench",
      "Run a benchmark profile (closed loop and/or an open-loop ladder) and write report.json, report.md, rungs.csv "
      "and requests.csv.gz");
  struct Args {
    std::string profile, out, rates, db, cache;
    std::vector<std::string> targets;
    double rungSeconds = 0;
    std::uint64_t requests = 0;
    bool noDb = false;
    bool noRecords = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("--profile", a->profile, "benchmark profile (JSON, benchprofiles/README.md)")->required();
  cmd->add_option("--target", a->targets,
                  "target, repeatable; replaces the profile's: builtin[:opt=v,...] (SearchOptions switches, algo=, op=, "
                  "k=), plugin:PATH[:opt=v,...] (an engine build, docs/PLUGIN_ABI.md) or "
                  "synthetic:service_us=N[,dist=const|exp|lognormal][,stall_ms=M@T]");
  cmd->add_option("--out", a->out, "directory for the reports (created)")->required();
  cmd->add_option("--rates", a->rates, "replace the ladder by these rates, requests/s: R1,R2,...");
  cmd->add_option("--rung-duration-s", a->rungSeconds, "replace the measured window of each rung (seconds)");
  cmd->add_option("--requests", a->requests, "replace the measured window of each rung by a request count");
  cmd->add_option("--db", a->db, "run store (default $XDG_DATA_HOME/wandscope/runs.sqlite)");
  cmd->add_flag("--no-db", a->noDb, "do not record the run in the run store");
  cmd->add_option("--cache", a->cache, "dataset cache (default $XDG_CACHE_HOME/wandscope)");
  cmd->add_flag("--no-records", a->noRecords, "do not write requests.csv.gz");
  setAction(cmd, [a, cmd] {
    if (a->noDb && !a->db.empty()) engine::throwUsage("--db and --no-db exclude each other");
    auto profile = engine::loadBenchProfile(a->profile);
    engine::BenchOverrides overrides;
    overrides.targets = a->targets;
    if (!a->rates.empty()) overrides.rates = engine::parseRateList(a->rates);
    // Given means given: 0 was taken for "not given" and the profile's window silently kept.
    if (cmd->count("--rung-duration-s") > 0) {
      if (!(a->rungSeconds > 0)) engine::throwUsage("--rung-duration-s must be > 0 seconds");
      overrides.rungSeconds = a->rungSeconds;
    }
    if (cmd->count("--requests") > 0) {
      if (a->requests == 0) engine::throwUsage("--requests must be at least 1");
      overrides.requests = a->requests;
    }
    engine::applyOverrides(profile, overrides);

    const std::filesystem::path out(a->out);
    std::error_code ec;
    std::filesystem::create_directories(out, ec);
    if (ec) engine::throwIo(fmt::format("cannot create {}: {}", out.string(), ec.message()));
    // Before the run, not after it: with --no-db a run that cannot be written is lost.
    engine::checkReportFilesWritable(out);
    const std::filesystem::path records = out / "requests.csv.gz";
    if (!a->noRecords) engine::checkOutputWritable(records);

    std::unique_ptr<engine::RunObserver> observer;
    if (!a->noDb) {
      const std::filesystem::path db = a->db.empty() ? engine::userDataDir() / "runs.sqlite" : std::filesystem::path(a->db);
      observer = makeRunStoreObserver(db);
    }
    const auto env = engine::collectEnvironment();
    if (!engine::isReleaseBuild(env)) {
      std::cerr << fmt::format("warning: this is a {} build{}; its numbers are not comparable with Release builds\n",
                               env.buildType, env.sanitizers.empty() ? "" : " with sanitizers");
    }

    CliSink sink(a->noRecords ? std::nullopt : std::optional<std::filesystem::path>(records),
                 ::isatty(STDERR_FILENO) == 1);
    engine::BenchRunOptions options;
    options.cacheDir = a->cache.empty() ? engine::userCacheDir() : std::filesystem::path(a->cache);
    options.observer = observer.get();
    options.live = &sink;

    // Ctrl-C or SIGTERM stops the run between requests; what finished is written as a partial
    // report (a second signal ends the process at once). SIGTERM used to end it with nothing written.
    engine::RunReport report;
    std::string signal;
    {
      StopOnSignal signals;
      options.stop = signals.token();
      try {
        engine::BenchRunner runner(std::move(profile), options);
        report = runner.run();
      } catch (...) {
        sink.finish();
        throw;
      }
      signal = signals.signalName();
    }
    sink.finish();
    sink.close();
    engine::writeReportFiles(out, report);
    if (a->noRecords && std::filesystem::is_regular_file(records, ec)) {
      // A previous run's records beside this run's report would pass for its own (review, stop 32).
      std::filesystem::remove(records, ec);
      if (ec) engine::throwIo(fmt::format("cannot remove the previous run's {}: {}", records.string(), ec.message()));
      std::cerr << fmt::format("removed the previous run's {} (--no-records)\n", records.string());
    }
    for (const auto& [target, c] : report.capacity) {
      std::cerr << fmt::format("{}: maximum sustainable rate {}\n", target, engine::describeCapacity(c));
    }
    // What report.md opens with (a shared machine, a generator that fell behind, thin rungs...):
    // said here too, where a verdict of "not established" would otherwise stand unexplained.
    for (const auto& warning : report.warnings) std::cerr << "warning: " << warning << '\n';
    std::cerr << fmt::format("{} rungs; reports in {}{}\n", report.rungs.size(), out.string(),
                             partialNote(report.partial, signal));
    std::cout << (out / "report.md").string() << '\n';
    return report.partial ? 1 : 0;
  });
}

}  // namespace wandscope::app
