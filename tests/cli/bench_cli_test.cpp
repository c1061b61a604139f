// SPDX-License-Identifier: GPL-3.0-or-later
// `wandscope-cli bench`: the command contract (exit codes, one-line errors naming file and field),
// the files it writes and the overrides, on profiles small enough for CI.
#include "tests/cli/cli_runner.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <zlib.h>

#include <fstream>
#include <sstream>
#include <utility>

namespace wandscope::test {
namespace {

std::string gunzip(const std::filesystem::path& p) {
  gzFile f = gzopen(p.c_str(), "rb");
  if (f == nullptr) return {};
  std::string text;
  char buf[8192];
  int n = 0;
  while ((n = gzread(f, buf, sizeof buf)) > 0) text.append(buf, static_cast<std::size_t>(n));
  gzclose(f);
  return text;
}

const char* kSynthetic = R"({"name": "cli-synthetic", "dataset": "none", "targets": ["synthetic:service_us=100"],
  "mode": "open", "ladder": {"rates": [100, 200], "settle_s": 0.1, "rung_duration_s": 0.5, "workers": 2,
  "in_flight_cap": 256},
  "rule": {"min_achieved_ratio": 0.5, "late_dispatch_us": 1000000}})";

TEST(BenchCli, HelpAndUsageErrors) {
  auto r = cli({"bench", "--help"});
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_NE(r.out.find("--profile"), std::string::npos);
  EXPECT_NE(r.out.find("--rung-duration-s"), std::string::npos);
  EXPECT_EQ(cli({"bench"}).exitCode, 2);
  TempDir dir;
  const auto profile = dir.write("p.json", kSynthetic);
  // A missing profile is a bad input file (3), as a missing --queries file is for `run`.
  r = cli({"bench", "--profile", (dir / "missing.json").string(), "--out", (dir / "o").string()});
  EXPECT_EQ(r.exitCode, 3) << r.err;
  EXPECT_NE(r.err.find("missing.json does not exist"), std::string::npos) << r.err;
  r = cli({"bench", "--profile", profile.string(), "--out", (dir / "o").string(), "--db", "x", "--no-db"});
  EXPECT_EQ(r.exitCode, 2);
  r = cli({"bench", "--profile", profile.string(), "--out", (dir / "o").string(), "--no-db", "--target", "warp"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("unknown kind 'warp'"), std::string::npos) << r.err;
  r = cli({"bench", "--profile", profile.string(), "--out", (dir / "o").string(), "--no-db", "--rates", "10,x"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("--rates: item 1 ('x') is not a number"), std::string::npos) << r.err;
  r = cli({"bench", "--profile", profile.string(), "--out", (dir / "o").string(), "--no-db", "--target",
           "synthetic:service_us=1,dist=gamma"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("dist: expected const, exp or lognormal"), std::string::npos) << r.err;
}

TEST(BenchCli, InvalidProfilesAreBadInputNamingFileAndField) {
  TempDir dir;
  const auto bad = dir.write("bad.json", R"({"name": "b", "targets": ["synthetic:service_us=1"], "mode": "open",
      "ladder": {"rates": [10, 20, 0]}})");
  const auto r = cli({"bench", "--profile", bad.string(), "--out", (dir / "o").string(), "--no-db"});
  EXPECT_EQ(r.exitCode, 3);
  EXPECT_NE(r.err.find("bad.json: ladder.rates[2]: must be > 0"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;  // one line
  // A target's options are the profile's field too, checked before anything is made (review,
  // stop 32: a usage error naming neither file nor field, after --out was created).
  for (const auto& [target, why] : {std::pair{"builtin:algo=nope", "unknown algorithm 'nope'"},
                                    std::pair{"synthetic:service_us=1,sigma=9", "sigma: must be <= 4"}}) {
    const auto spec = dir.write("spec.json", std::string(R"({"name": "b", "mode": "open", "ladder": {"rates": [10]},
        "targets": ["synthetic:service_us=1", ")") + target + "\"]}");
    const auto s = cli({"bench", "--profile", spec.string(), "--out", (dir / "o2").string(), "--no-db"});
    EXPECT_EQ(s.exitCode, 3) << target;
    EXPECT_NE(s.err.find(std::string("spec.json: targets[1]: target '") + target + "': "), std::string::npos) << s.err;
    EXPECT_NE(s.err.find(why), std::string::npos) << s.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "o2"));
  }
}

TEST(BenchCli, SyntheticLadderWritesEveryReport) {
  TempDir dir;
  const auto profile = dir.write("p.json", kSynthetic);
  const auto out = dir / "out";
  const auto r = cli({"bench", "--profile", profile.string(), "--out", out.string(), "--no-db"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("rung 0 open synthetic:service_us=100 100/s"), std::string::npos) << r.err;  // progress per rung
  EXPECT_NE(r.err.find("maximum sustainable rate"), std::string::npos) << r.err;
  for (const char* f : {"report.json", "report.md", "rungs.csv", "requests.csv.gz"}) {
    EXPECT_TRUE(std::filesystem::exists(out / f)) << f;
  }
  const auto j = nlohmann::json::parse(readFile(out / "report.json"));
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["profile"], "cli-synthetic");
  EXPECT_FALSE(j["environment"]["cpu_model"].get<std::string>().empty());
  EXPECT_TRUE(j["environment"].contains("git_commit"));
  if (const auto head = sourceHead()) {
    EXPECT_EQ(j["environment"]["git_commit"], *head);  // taken at build time
  }
  EXPECT_TRUE(j["environment"].contains("simd_target"));
  ASSERT_EQ(j["rungs"].size(), 2u);
  EXPECT_EQ(j["rungs"][0]["target_rate"], 100.0);
  EXPECT_EQ(j["rungs"][0]["mode"], "open");
  EXPECT_TRUE(j["rungs"][0]["p99_ms"].is_null());  // 50 samples: far too thin
  EXPECT_TRUE(j["rungs"][0].contains("verdict"));
  // Every request is in the log: 60 + 120 (settle included) rows plus the header.
  const auto log = gunzip(out / "requests.csv.gz");
  EXPECT_EQ(std::count(log.begin(), log.end(), '\n'), 1 + 60 + 120);
  EXPECT_NE(readFile(out / "report.md").find("| rate (synthetic:service_us=100) | 100/s | 200/s |"), std::string::npos);
  EXPECT_EQ(r.out, (out / "report.md").string() + "\n");
}

// A run whose rungs were all invalid ended "maximum sustainable rate not established" and said
// nothing more; report.md's warnings (a generator behind, thin rungs, a shared machine) were only
// in the file. They follow the verdict on stderr now.
TEST(BenchCli, AnUnjudgedLadderSaysWhyAndWhatToTry) {
  TempDir dir;
  const auto profile = dir.write("p.json", kGeneratorBehindProfile);
  const auto r = cli({"bench", "--profile", profile.string(), "--out", (dir / "out").string(), "--no-db"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto verdict = r.err.find("synthetic:service_us=100: maximum sustainable rate not established");
  ASSERT_NE(verdict, std::string::npos) << r.err;
  const auto warning = r.err.find("warning: 1 of 1 open-loop rung could not be judged because the load generator fell "
                                  "behind its schedule (rung 0: generator behind: ");
  ASSERT_NE(warning, std::string::npos) << r.err;
  EXPECT_GT(warning, verdict) << "the warnings follow the verdict";
  EXPECT_NE(r.err.find("Run again on an idle machine, or ask less of the generator"), std::string::npos) << r.err;
  // The same words open report.md.
  EXPECT_NE(readFile(dir / "out" / "report.md").find("open-loop rung could not be judged"), std::string::npos);
}

TEST(BenchCli, CommandLineOverridesTheLadderAndTargets) {
  TempDir dir;
  const auto profile = dir.write("p.json", kSynthetic);
  const auto out = dir / "out";
  const auto r = cli({"bench", "--profile", profile.string(), "--out", out.string(), "--no-db", "--no-records",
                      "--target", "synthetic:service_us=50,dist=exp", "--rates", "150,300,450", "--requests", "60"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out / "requests.csv.gz"));
  const auto j = nlohmann::json::parse(readFile(out / "report.json"));
  ASSERT_EQ(j["rungs"].size(), 3u);
  EXPECT_EQ(j["rungs"][2]["target_rate"], 450.0);
  EXPECT_EQ(j["rungs"][2]["target"], "synthetic:service_us=50,dist=exp");
  EXPECT_EQ(j["rungs"][2]["completed"].get<int>() + j["rungs"][2]["shed"].get<int>(), 60);
  EXPECT_EQ(j["targets"], nlohmann::json::array({"synthetic:service_us=50,dist=exp"}));
  EXPECT_EQ(j["profile_json"]["ladder"]["requests"], 60);
}

// Review of stop 32: a zero override was taken for "not given" and the profile's window kept; an
// unwritable report failed the command after the whole run; --no-records left the previous run's
// records beside the new report.
TEST(BenchCli, OutputsAndOverridesAreCheckedBeforeTheRun) {
  TempDir dir;
  const auto profile = dir.write("p.json", kSynthetic);
  const auto out = dir / "out";
  for (const auto& [option, message] : {std::pair{"--rung-duration-s", "--rung-duration-s must be > 0 seconds"},
                                        std::pair{"--requests", "--requests must be at least 1"}}) {
    const auto r = cli({"bench", "--profile", profile.string(), "--out", out.string(), "--no-db", option, "0"});
    EXPECT_EQ(r.exitCode, 2) << option;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
  std::filesystem::create_directories(out / "report.json");
  auto r = cli({"bench", "--profile", profile.string(), "--out", out.string(), "--no-db"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("report.json: it is a directory"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("rung 0"), std::string::npos) << "nothing ran: " << r.err;
  std::filesystem::remove(out / "report.json");
  ASSERT_EQ(cli({"bench", "--profile", profile.string(), "--out", out.string(), "--no-db"}).exitCode, 0);
  ASSERT_TRUE(std::filesystem::exists(out / "requests.csv.gz"));
  r = cli({"bench", "--profile", profile.string(), "--out", out.string(), "--no-db", "--no-records"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out / "requests.csv.gz")) << "the previous run's records";
  EXPECT_NE(r.err.find("removed the previous run's"), std::string::npos) << r.err;
}

// The built-in engine end to end: a generated corpus, its index and a query set, closed loop.
TEST(BenchCli, BuiltinClosedLoopOnAGeneratedIndex) {
  TempDir dir;
  const auto d = dir.path();
  auto r = cli({"corpus", "gen", "--docs", "2000", "--mean-len", "40", "--vocab", "2000", "--seed", "5", "--out",
                (d / "corpus.jsonl").string()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  r = cli({"queries", "gen", "--corpus", (d / "corpus.jsonl").string(), "--category", "mid-df", "--tokens", "2",
           "--count", "20", "--out", (d / "q.jsonl").string()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  r = cli({"index", "build", "--corpus", (d / "corpus.jsonl").string(), "--out", (d / "index").string()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto profile = dir.write("b.json", R"({"name": "cli-builtin",
      "dataset": {"index": "index", "query_sets": {"mid-df-2": "q.jsonl"}},
      "targets": ["builtin", "builtin:freq_prune=off"], "mode": "closed",
      "closed": {"concurrency": [1, 2], "warmup_s": 0.05, "measure_s": 0.2, "passes": 2}})");
  const auto out = d / "out";
  r = cli({"bench", "--profile", profile.string(), "--out", out.string(), "--no-db"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(readFile(out / "report.json"));
  ASSERT_EQ(j["rungs"].size(), 4u);
  for (const auto& rung : j["rungs"]) {
    EXPECT_EQ(rung["mode"], "closed");
    EXPECT_EQ(rung["query_set"], "mid-df-2");
    EXPECT_EQ(rung["passes"].size(), 2u);
    EXPECT_GT(rung["cpu_ms_per_query"].get<double>(), 0.0);
    EXPECT_TRUE(rung["counters"].contains("postings_decoded"));
  }
  EXPECT_TRUE(j["environment"]["fingerprints"].contains("index"));
  EXPECT_TRUE(j["environment"]["fingerprints"].contains("queries:mid-df-2"));
  const auto md = readFile(out / "report.md");
  EXPECT_NE(md.find("| mid-df-2, CPU ms/query |"), std::string::npos) << md;
  // Requests of every pass are in the log, with the engine's counters.
  const auto log = gunzip(out / "requests.csv.gz");
  EXPECT_NE(log.find(",closed,builtin:freq_prune=off,"), std::string::npos);
}

}  // namespace
}  // namespace wandscope::test
