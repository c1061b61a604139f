// SPDX-License-Identifier: GPL-3.0-or-later
// `compare`: two or more targets (engine builds as plugins, the built-in engine with other
// switches, peers) interleaved in one process on a profile's dataset and query sets
// (engine/bench/compare_runner.h, docs/COMPARE.md); the first is the baseline A and every other is
// compared against it: closed loop per query set, or, for a profile in open mode, whole ladders in
// rotated order at the same offered rates (engine/bench/open_compare.h); writes report.md,
// report.json, report.csv and report.html into --out and stores the comparison in the run store
// (`runs compares` lists it) unless --no-db.
#include "app/cli/cli_support.h"

#include "engine/bench/compare_report_writer.h"
#include "engine/bench/compare_runner.h"
#include "engine/core/error.h"
#include "engine/core/fs_util.h"
#include "engine/store/run_store.h"

#include <fmt/format.h>

#include <iostream>
#include <memory>

namespace wandscope::app {

void addCompareCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "compare",
      "Interleaved comparison of two or more targets on a profile's dataset and query sets: the first --target is "
      "the baseline A, every further one (B, B2, ...) is compared against A (ABBA blocks, rotated for more targets; "
      "bootstrap intervals, result equality); a profile in open mode compares ladders (p50/p99 per offered rate, "
      "capacity); writes report.md, report.json, report.csv and report.html and stores the comparison in the run "
      "store");
  struct Args {
    std::string profile, out, cache, db;
    std::vector<std::string> targets;
    std::vector<double> rates;
    bool aa = false;
    bool noDb = false;
    unsigned repetitions = 3;
    double warmup = 0;
    double noiseFloor = 0.02;
    unsigned bootstrap = 2000;
    unsigned warmPasses = engine::CompareOptions::kDefaultWarmPasses;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("--profile", a->profile, "benchmark profile (its dataset, query sets, op, k, algorithm, seed)")
      ->required();
  cmd->add_option("--target", a->targets,
                  "at least twice: A (the baseline), then B, B2, ... each compared against A: builtin[:opt=v,...], "
                  "plugin:PATH[:opt=v,...] (an engine build, docs/PLUGIN_ABI.md), or a peer")
      ->required();
  cmd->add_option("--rates", a->rates,
                  "open mode: the offered rates (requests/s), replacing the ladder's; without it a ladder in multiples "
                  "is resolved against A's calibrated throughput, so both targets get the same rates")
      ->delimiter(',');
  cmd->add_flag("--aa", a->aa, "also run A against a second instance of A and raise the noise floor to what it shows");
  cmd->add_option("--out", a->out, "directory for report.md, report.json, report.csv and report.html (created)")
      ->required();
  cmd->add_option("--repetitions", a->repetitions,
                  "closed: ABBA quartets of blocks per query set (more targets: rounds ABCCBA, BCAACB, ...); open: "
                  "ladder rounds (AB, BA, ...; ABC, BCA, ...)")
      ->capture_default_str();
  cmd->add_option("--warm-passes", a->warmPasses,
                  fmt::format("closed: untimed passes of a target over the set right before each of its timed blocks, 0 "
                              "to {}, so a block starts from its own target's cache state (docs/COMPARE.md)",
                              engine::CompareOptions::kMaxWarmPasses))
      ->capture_default_str();
  cmd->add_option("--warmup-s", a->warmup, "untimed warm-up per target per query set, once before its interleaved blocks (default: the profile's closed warmup_s)");
  cmd->add_option("--noise-floor", a->noiseFloor, "differences within this fraction count as none")->capture_default_str();
  cmd->add_option("--bootstrap", a->bootstrap, "bootstrap resamples for the intervals")->capture_default_str();
  cmd->add_option("--cache", a->cache, "dataset cache (default $XDG_CACHE_HOME/wandscope)");
  cmd->add_option("--db", a->db, "run store (default $XDG_DATA_HOME/wandscope/runs.sqlite)");
  cmd->add_flag("--no-db", a->noDb, "do not store the comparison in the run store");
  setAction(cmd, [a, cmd] {
    if (a->noDb && !a->db.empty()) engine::throwUsage("--db and --no-db exclude each other");
    if (a->targets.size() < 2) {
      engine::throwUsage(fmt::format("compare needs at least two --target options (A, then one or more B to compare "
                                     "with it), got {}",
                                     a->targets.size()));
    }
    auto profile = engine::loadBenchProfile(a->profile);
    engine::BenchOverrides overrides;
    overrides.targets = a->targets;
    overrides.rates = a->rates;
    engine::applyOverrides(profile, overrides);  // validates the target specs

    const std::filesystem::path out(a->out);
    std::error_code ec;
    std::filesystem::create_directories(out, ec);
    if (ec) engine::throwIo(fmt::format("cannot create {}: {}", out.string(), ec.message()));
    engine::checkCompareReportFilesWritable(out);  // before the run, not after it

    engine::CompareOptions options;
    options.repetitions = a->repetitions;
    options.warmupSeconds = cmd->count("--warmup-s") > 0 ? warmupOption("--warmup-s", a->warmup) : profile.closed.warmupSeconds;
    options.warmPasses = a->warmPasses;
    options.aa = a->aa;
    options.noiseFloor = a->noiseFloor;
    options.bootstrapSamples = a->bootstrap;
    options.cacheDir = a->cache.empty() ? engine::userCacheDir() : std::filesystem::path(a->cache);
    options.onMessage = [](const std::string& m) { std::cerr << m << '\n'; };

    // Warm passes are a closed-loop protocol: asked for on an open-loop profile, said, not silently dropped.
    const bool openLoop = profile.runOpen && !profile.runClosed;
    const bool warmPassesIgnored = openLoop && cmd->count("--warm-passes") > 0;

    // Ctrl-C or SIGTERM stops between passes; what finished is written as a partial report (a
    // second signal ends the process at once). SIGTERM used to end it with nothing written.
    engine::CompareReport report;
    std::string signal;
    {
      StopOnSignal signals;
      options.stop = signals.token();
      engine::CompareRunner runner(std::move(profile), a->targets, options);
      report = runner.run();
      signal = signals.signalName();
    }
    if (warmPassesIgnored) {
      report.warnings.push_back("--warm-passes applies to closed-loop comparisons; this profile compares open-loop "
                                "ladders, which ran none");
    }
    engine::writeCompareReportFiles(out, report);
    // After the files: a store that cannot be written (damaged, read-only) fails the command but
    // leaves the reports in --out. An interrupted comparison is stored too, flagged partial.
    if (!a->noDb) {
      auto store = engine::RunStore::open(a->db.empty() ? engine::RunStore::defaultPath() : std::filesystem::path(a->db));
      store.saveComparison(report);
      std::cerr << fmt::format("stored comparison {} in {}\n", report.runId, store.path().string());
    }
    // What report.md opens with, as bench says it (a shared machine, clock reads as large as the
    // figures, a ladder's generator behind).
    for (const auto& warning : report.warnings) std::cerr << "warning: " << warning << '\n';
    std::cerr << fmt::format("{} scenarios; reports in {}{}\n", report.scenarios.size(), out.string(),
                             partialNote(report.partial, signal));
    std::cout << (out / "report.md").string() << '\n';
    return report.partial ? 1 : 0;
  });
}

}  // namespace wandscope::app
