// SPDX-License-Identifier: GPL-3.0-or-later
// `wandscope-cli compare`: the command contract (exactly two targets, usage errors, bad plugins
// refused with a message) and its reports, on a generated index small enough for CI.
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace wandscope::test {
namespace {

ProcessResult cli(const std::vector<std::string>& args) { return runProcess(WANDSCOPE_CLI, args); }

// A 2,000-document generated corpus, its index and a mid-df 2-token query set.
std::filesystem::path makeDataset(const TempDir& dir) {
  const auto d = dir.path();
  auto r = cli({"corpus", "gen", "--docs", "2000", "--mean-len", "40", "--vocab", "2000", "--seed", "5", "--out",
                (d / "corpus.jsonl").string()});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  r = cli({"queries", "gen", "--corpus", (d / "corpus.jsonl").string(), "--category", "mid-df", "--tokens", "2",
           "--count", "30", "--out", (d / "q.jsonl").string()});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  r = cli({"index", "build", "--corpus", (d / "corpus.jsonl").string(), "--out", (d / "index").string()});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  return dir.write("c.json", R"({"name": "cli-compare",
      "dataset": {"index": "index", "query_sets": {"mid-df-2": "q.jsonl"}},
      "query": {"op": "and", "k": 10}, "targets": ["builtin"], "mode": "closed",
      "closed": {"concurrency": [1], "warmup_s": 0.05, "measure_s": 0.2, "passes": 2}})");
}

TEST(CompareCli, UsageErrors) {
  auto r = cli({"compare", "--help"});
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_NE(r.out.find("--aa"), std::string::npos);
  TempDir dir;
  const auto profile = makeDataset(dir);
  const auto out = (dir / "out").string();
  r = cli({"compare", "--profile", profile.string(), "--target", "builtin", "--out", out});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("exactly two --target"), std::string::npos) << r.err;
  r = cli({"compare", "--profile", profile.string(), "--target", "builtin", "--target", "plugin:/nonexistent/x.so",
           "--out", out});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("plugin /nonexistent/x.so: no such file"), std::string::npos) << r.err;
  r = cli({"compare", "--profile", profile.string(), "--target", "builtin", "--target", "builtin", "--out", out,
           "--noise-floor", "2"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("--noise-floor"), std::string::npos) << r.err;
}

TEST(CompareCli, BulkAndOffGivesIdenticalResultsAndAReport) {
  TempDir dir;
  const auto profile = makeDataset(dir);
  const auto out = dir / "out";
  const auto r = cli({"compare", "--profile", profile.string(), "--target", "builtin", "--target",
                      "builtin:bulk_and=off", "--aa", "--repetitions", "2", "--out", out.string()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("report.md"), std::string::npos);
  const auto j = nlohmann::json::parse(readFile(out / "report.json"));
  EXPECT_EQ(j["kind"], "compare");
  EXPECT_EQ(j["a"]["spec"], "builtin");
  EXPECT_EQ(j["b"]["spec"], "builtin:bulk_and=off");
  ASSERT_EQ(j["scenarios"].size(), 2u);
  for (const auto& s : j["scenarios"]) {
    EXPECT_EQ(s["row_set_diff"], 0);
    EXPECT_EQ(s["score_bit_diff"], 0);
    EXPECT_TRUE(s["first_diverging_rank"].is_null());
    EXPECT_GT(s["a"].get<double>(), 0.0);
    EXPECT_GT(s["ci_high"].get<double>(), 0.0);
    const std::string v = s["verdict"];
    EXPECT_TRUE(v == "faster" || v == "slower" || v == "no-difference" || v == "inconclusive") << v;
  }
  EXPECT_EQ(j["aa_scenarios"].size(), 2u);
  const auto md = readFile(out / "report.md");
  EXPECT_NE(md.find("| Scenario / metric | A: builtin | B: builtin:bulk_and=off | Benefit vs A |"), std::string::npos)
      << md;
  EXPECT_NE(md.find("| mid-df-2, CPU ms/query |"), std::string::npos) << md;
  EXPECT_NE(md.find("**Method:**"), std::string::npos);
}

}  // namespace
}  // namespace wandscope::test
