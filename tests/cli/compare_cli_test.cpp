// SPDX-License-Identifier: GPL-3.0-or-later
// `wandscope-cli compare`: the command contract (two or more targets, usage errors, bad plugins
// refused with a message) and its reports, on a generated index small enough for CI.
#include "tests/cli/cli_runner.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace wandscope::test {
namespace {

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
  EXPECT_NE(r.out.find("at least twice"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--warm-passes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0 to 100"), std::string::npos) << r.out;
  TempDir dir;
  const auto profile = makeDataset(dir);
  const auto out = (dir / "out").string();
  // One target is not a comparison: a usage error (exit 2) naming what is needed, nothing written.
  r = cli({"compare", "--profile", profile.string(), "--target", "builtin", "--out", out});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("at least two --target options"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("got 1"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out" / "report.md"));
  r = cli({"compare", "--profile", profile.string(), "--target", "builtin", "--target", "plugin:/nonexistent/x.so",
           "--out", out});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("plugin /nonexistent/x.so: no such file"), std::string::npos) << r.err;
  r = cli({"compare", "--profile", profile.string(), "--target", "builtin", "--target", "builtin", "--out", out,
           "--noise-floor", "2"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("--noise-floor"), std::string::npos) << r.err;
  r = cli({"compare", "--profile", profile.string(), "--target", "builtin", "--target", "builtin", "--out", out,
           "--warm-passes", "101"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("--warm-passes must be in [0, 100], got 101"), std::string::npos) << r.err;
  // A report that cannot be written fails before the comparison runs, not after it (review, stop 32).
  std::filesystem::create_directories(dir / "out" / "report.html");
  r = cli({"compare", "--profile", profile.string(), "--target", "builtin", "--target", "builtin", "--out", out,
           "--no-db"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("report.html: it is a directory"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out" / "report.md")) << "nothing ran, nothing written";
}

TEST(CompareCli, BulkAndOffGivesIdenticalResultsAndAReport) {
  TempDir dir;
  const auto profile = makeDataset(dir);
  const auto out = dir / "out";
  const auto db = dir / "runs.sqlite";
  const auto r = cli({"compare", "--profile", profile.string(), "--target", "builtin", "--target",
                      "builtin:bulk_and=off", "--aa", "--repetitions", "2", "--warm-passes", "1", "--out", out.string(),
                      "--db", db.string()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("report.md"), std::string::npos);
  const auto j = nlohmann::json::parse(readFile(out / "report.json"));
  EXPECT_EQ(j["kind"], "compare");
  EXPECT_EQ(j["a"]["spec"], "builtin");
  EXPECT_EQ(j["b"]["spec"], "builtin:bulk_and=off");
  EXPECT_EQ(j["method"]["warm_passes"], 1);
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

  // report.csv: a header and one row per scenario, A/A included; report.html: the same tables.
  const auto csv = readFile(out / "report.csv");
  EXPECT_EQ(csv.rfind("section,name,query_set,metric,", 0), 0u) << csv;
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5) << csv;
  const auto html = readFile(out / "report.html");
  EXPECT_NE(html.find("<th class=\"n\">A: builtin</th><th class=\"n\">B: builtin:bulk_and=off</th>"), std::string::npos)
      << html;

  // The comparison is in the run store: listed by `runs compares`, exported again in every format.
  auto listed = cli({"runs", "compares", "--db", db.string(), "--json"});
  ASSERT_EQ(listed.exitCode, 0) << listed.err;
  const auto list = nlohmann::json::parse(listed.out);
  ASSERT_EQ(list.size(), 1u) << listed.out;
  EXPECT_EQ(list[0]["compare_id"], j["run_id"]);
  EXPECT_EQ(list[0]["a"]["spec"], "builtin");
  EXPECT_EQ(list[0]["b"]["spec"], "builtin:bulk_and=off");
  EXPECT_EQ(list[0]["mode"], "closed");
  EXPECT_EQ(list[0]["partial"], false);
  EXPECT_EQ(list[0]["aa"], true);
  EXPECT_EQ(list[0]["results_differ"], false);
  listed = cli({"runs", "compares", "--db", db.string()});
  EXPECT_NE(listed.out.find("builtin:bulk_and=off"), std::string::npos) << listed.out;
  EXPECT_NE(listed.out.find("complete"), std::string::npos) << listed.out;
  const std::string id = j["run_id"];
  const auto again = dir / "again";
  const auto exported = cli({"runs", "compare-export", id.substr(0, id.size() - 2), "--db", db.string(), "--out",
                             again.string()});
  ASSERT_EQ(exported.exitCode, 0) << exported.err;
  for (const char* f : {"report.json", "report.md", "report.csv", "report.html"}) {
    EXPECT_EQ(readFile(again / f), readFile(out / f)) << f;
  }
  const auto missing = cli({"runs", "compare-export", "nothing", "--db", db.string(), "--out", again.string()});
  EXPECT_EQ(missing.exitCode, 2);
  EXPECT_NE(missing.err.find("no comparison 'nothing'"), std::string::npos) << missing.err;
}

// Three targets: A, then B and B2 each compared with A, in report.md, report.json and the store.
TEST(CompareCli, ThreeTargetsWriteAColumnPerTargetAndABenefitPerB) {
  TempDir dir;
  const auto profile = makeDataset(dir);
  const auto out = dir / "out";
  const auto db = dir / "runs.sqlite";
  const auto r = cli({"compare", "--profile", profile.string(), "--target", "builtin", "--target",
                      "builtin:bulk_and=off", "--target", "builtin:op=or", "--repetitions", "1", "--bootstrap", "200",
                      "--out", out.string(), "--db", db.string()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(readFile(out / "report.json"));
  EXPECT_EQ(j["a"]["spec"], "builtin");
  EXPECT_EQ(j["b"]["spec"], "builtin:bulk_and=off");
  ASSERT_EQ(j["targets"].size(), 3u);
  EXPECT_EQ(j["targets"][2]["spec"], "builtin:op=or");
  EXPECT_EQ(j["targets"][2]["label"], "B2");
  ASSERT_EQ(j["scenarios"].size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    const auto& s = j["scenarios"][i];
    EXPECT_EQ(s["target"], i < 2 ? 1 : 2) << i;
    const std::string v = s["verdict"];
    EXPECT_TRUE(v == "faster" || v == "slower" || v == "no-difference" || v == "inconclusive") << v;
  }
  // bulk_and=off returns the same hits; OR returns others.
  EXPECT_EQ(j["scenarios"][0]["row_set_diff"], 0);
  EXPECT_TRUE(j["scenarios"][0]["first_diverging_rank"].is_null());
  EXPECT_GT(j["scenarios"][2]["row_set_diff"].get<int>(), 0);
  EXPECT_FALSE(j["scenarios"][2]["first_diverging_rank"].is_null());
  const auto md = readFile(out / "report.md");
  EXPECT_NE(md.find("| Scenario / metric | A: builtin | B: builtin:bulk_and=off | B2: builtin:op=or | Benefit B vs A | "
                    "B 95 % CI | B verdict | Benefit B2 vs A | B2 95 % CI | B2 verdict |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| mid-df-2, CPU ms/query ⚠ results differ (B2) |"), std::string::npos) << md;
  const auto csv = readFile(out / "report.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5) << csv;  // header + 2 metrics x 2 Bs

  auto listed = cli({"runs", "compares", "--db", db.string(), "--json"});
  ASSERT_EQ(listed.exitCode, 0) << listed.err;
  const auto list = nlohmann::json::parse(listed.out);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0]["more"], nlohmann::json::array({"builtin:op=or"}));
  EXPECT_EQ(list[0]["results_differ"], true);
  listed = cli({"runs", "compares", "--db", db.string()});
  EXPECT_NE(listed.out.find("builtin:bulk_and=off | builtin:op=or"), std::string::npos) << listed.out;
  const std::string id = j["run_id"];
  const auto again = dir / "again";
  const auto exported = cli({"runs", "compare-export", id, "--db", db.string(), "--out", again.string()});
  ASSERT_EQ(exported.exitCode, 0) << exported.err;
  EXPECT_EQ(readFile(again / "report.md"), md);
  EXPECT_EQ(cli({"runs", "compare-delete", id, "--db", db.string()}).exitCode, 0);
  EXPECT_EQ(nlohmann::json::parse(cli({"runs", "compares", "--db", db.string(), "--json"}).out).size(), 0u);
}

TEST(CompareCli, NoDbStoresNothingAndExcludesDb) {
  TempDir dir;
  const auto profile = makeDataset(dir);
  auto r = cli({"compare", "--profile", profile.string(), "--target", "builtin", "--target", "builtin", "--out",
                (dir / "out").string(), "--db", (dir / "x.sqlite").string(), "--no-db"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("--db and --no-db"), std::string::npos) << r.err;
  ::unsetenv("XDG_DATA_HOME");  // runProcess appends the child's value after ours
  const std::vector<std::string> env = {std::string("XDG_DATA_HOME=") + (dir / "xdg").string()};
  r = cli({"compare", "--profile", profile.string(), "--target", "builtin", "--target", "builtin:bulk_and=off",
           "--repetitions", "1", "--bootstrap", "200", "--out", (dir / "out").string(), "--no-db"},
          env);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.err.find("stored comparison"), std::string::npos) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir / "out" / "report.html"));
  EXPECT_FALSE(std::filesystem::exists(dir / "xdg" / "wandscope" / "runs.sqlite"));
}

// An open-mode comparison collected its ladders' warnings into report.md and said none of them on
// stderr (review, stop 36: bench says them after its verdict).
TEST(CompareCli, SaysTheReportsWarnings) {
  TempDir dir;
  const auto profile = dir.write("behind.json", kGeneratorBehindProfile);
  const auto r = cli({"compare", "--profile", profile.string(), "--target", "synthetic:service_us=100", "--target",
                      "synthetic:service_us=50", "--repetitions", "1", "--warm-passes", "2", "--out",
                      (dir / "out").string(), "--no-db"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  // Warm passes are closed-loop only: asked for here, the report says they did not run.
  EXPECT_NE(r.err.find("--warm-passes applies to closed-loop comparisons"), std::string::npos) << r.err;
  EXPECT_EQ(nlohmann::json::parse(readFile(dir / "out" / "report.json"))["method"]["warm_passes"], 0);
  const auto said = r.err.find("warning: 4 of 4 open-loop rungs could not be judged because the load generator fell "
                               "behind its schedule");
  ASSERT_NE(said, std::string::npos) << r.err;
  EXPECT_LT(said, r.err.find("scenarios; reports in")) << "said before the closing line";
  EXPECT_NE(readFile(dir / "out" / "report.md").find("open-loop rungs could not be judged"), std::string::npos);
}

}  // namespace
}  // namespace wandscope::test
