// SPDX-License-Identifier: GPL-3.0-or-later
// `wandscope-cli runs ...` end to end: a report.json written here by hand (report.json's field
// names, independent of the codec) is imported, listed, shown and exported back unchanged.
#include "engine/store/sqlite_db.h"
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

using nlohmann::json;

json rung(int index, bool withQuantiles) {
  const json q = withQuantiles ? json(1.25 + index) : json(nullptr);
  json r = {{"index", index},
            {"target", "builtin"},
            {"mode", "open"},
            {"query_set", "mixed"},
            {"target_rate", 1000.0 * (index + 1)},
            {"scheduled_rate", 1000.0 * (index + 1)},
            {"offered_rate", 1001.5 * (index + 1)},
            {"arrivals", "poisson"},
            {"concurrency", 0},
            {"achieved_rate", 999.5 * (index + 1)},
            {"completed", 30000 * (index + 1)},
            {"shed", 0},
            {"shed_fraction", 0.0},
            {"errors", 0},
            {"not_run", 0},
            {"duration_s", 30.0},
            {"settle_s", 2.0},
            {"p50_ms", q},
            {"p90_ms", q},
            {"p99_ms", q},
            {"p999_ms", nullptr},
            {"p50_ci_ms", withQuantiles ? json::array({1.0, 1.5}) : json(nullptr)},
            {"p99_ci_ms", nullptr},
            {"service_p50_ms", q},
            {"service_p99_ms", q},
            {"queue_wait_p50_ms", q},
            {"queue_wait_p99_ms", nullptr},
            {"cpu_ms_per_query", 0.125},
            {"process_cpu_ms", 3750.0},
            {"instrument_cpu_ms", 12.5},
            {"thread_cpu_p50_ms", q},
            {"thread_cpu_p99_ms", nullptr},
            {"thread_cpu_mean_ms", q},
            {"rss_peak_mib", 256.5},
            {"instrument_mib", 8.25},
            {"minflt", 10},
            {"majflt", 0},
            {"nvcsw", 100},
            {"nivcsw", 3},
            {"dispatch_lag_p99_us", 12.5},
            {"dispatch_lag_max_us", 80.0},
            {"late_dispatch_fraction", 0.0},
            {"latency_growth", q},
            {"workers", 4},
            {"in_flight_cap", 1024},
            {"in_flight_high_water", 9},
            {"valid", true},
            {"partial", false},
            {"verdict", index < 2 ? "pass" : "fail"},
            {"criterion", index < 2 ? "" : "p99 > 10 ms"},
            {"counters", {{"postings_decoded", 1234.5}, {"blocks_skipped", 17.0}}},
            {"counters_p99", {{"postings_decoded", 4000.0}}},
            {"passes", json::array()},
            {"events", json::array()}};
  if (index == 1) {
    r["passes"].push_back({{"reverse", false}, {"completed", 100}, {"seconds", 1.5}, {"cpu_ms_per_query", 0.5},
                           {"p50_ms", nullptr}});
    r["events"].push_back({{"name", "writes"}, {"start_s", 0.5}, {"end_s", 1.0}, {"detail", "10 docs"}});
  }
  return r;
}

json report(const std::string& id, const std::string& profile, bool partial, int rungs,
            const std::string& started = "2024-05-01T12:00:00Z") {
  json r = {{"schema_version", 1},
            {"run_id", id},
            {"profile", profile},
            {"profile_json", {{"name", profile}, {"rates", {1000, 2000, 3000}}}},
            {"targets", {"builtin", "synthetic:service_us=200"}},
            {"environment",
             {{"cpu_model", "Test CPU"},
              {"cores", 8},
              {"mem_total_mib", 16000.5},
              {"kernel", "Linux 6.1"},
              {"hostname", "bench-01"},
              {"load_average_1m", 0.25},
              {"governor", ""},
              {"aslr", "2"},
              {"compiler", "g++ 12.2.0"},
              {"compiler_flags", "-O2"},
              {"build_type", "Release"},
              {"sanitizers", ""},
              {"git_commit", "abc123def456"},
              {"git_dirty", false},
              {"simd_target", "AVX2"},
              {"wandscope_version", "0.1.0"},
              {"gui_attached", false},
              {"started_utc", started},
              {"steady_clock_call_ns", 20.5},
              {"thread_cpu_clock_call_ns", 180.25},
              {"syscalls_flush_tlb", false},
              {"fingerprints", {{"index", "crc32:0badf00d"}}}}},
            {"partial", partial},
            {"capacity", {{"builtin", {{"last_pass", 2000.0}, {"first_fail", 3000.0}, {"criterion", "p99 > 10 ms"}}}}},
            {"calibration", {{"builtin", {{"rate", 2500.5}, {"requests", 12500}, {"seconds", 5.0}}}}},
            {"quantile_definition", "nearest rank"},
            {"saturation_rule", "shed <= 0.1 %"},
            {"warnings", {"shared machine"}},
            {"rungs", json::array()}};
  for (int i = 0; i < rungs; ++i) r["rungs"].push_back(rung(i, i % 2 == 0));
  return r;
}

class RunsCli : public ::testing::Test {
 protected:
  std::string db() const { return (m_dir / "store/runs.sqlite").string(); }
  void import(const json& r) {
    const auto file = m_dir.write(std::string("import-") + r["run_id"].get<std::string>() + ".json", r.dump(2));
    const auto res = cli({"runs", "import", file.string(), "--db", db()});
    ASSERT_EQ(res.exitCode, 0) << res.err;
  }
  TempDir m_dir;
};

TEST_F(RunsCli, HelpForEveryCommand) {
  for (const char* sub : {"list", "show", "export", "delete", "import", "compares", "compare-export", "compare-delete"}) {
    const auto r = cli({"runs", sub, "--help"});
    EXPECT_EQ(r.exitCode, 0) << sub;
    EXPECT_NE(r.out.find("--db"), std::string::npos) << sub;
  }
  EXPECT_EQ(cli({"runs"}).exitCode, 2);
}

TEST_F(RunsCli, ImportedReportRoundTripsUnchanged) {
  const json original = report("20240501T120000Z-a1b2", "ladder", false, 3);
  import(original);

  auto r = cli({"runs", "show", "20240501T120000Z-a1b2", "--db", db(), "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(json::parse(r.out), original);

  const auto out = m_dir / "exported.json";
  r = cli({"runs", "export", "20240501T120000Z-a1b2", "--db", db(), "--out", out.string()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(json::parse(readFile(out)), original);

  const auto csv = m_dir / "rungs.csv";
  r = cli({"runs", "export", "20240501T12", "--db", db(), "--out", csv.string(), "--format", "csv"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string text = readFile(csv);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 4);
  EXPECT_EQ(text.rfind("index,target,mode,query_set,target_rate,", 0), 0u) << text;
  EXPECT_NE(text.find("counters.postings_decoded"), std::string::npos);

  r = cli({"runs", "show", "20240501", "--db", db()});  // a unique prefix
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("profile    ladder"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("status     complete"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("p99 > 10 ms"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("achieved/s"), std::string::npos) << r.out;
}

TEST_F(RunsCli, ListSearchSortLimitAndStatus) {
  import(report("run-old", "smoke", false, 2, "2024-01-01T00:00:00Z"));
  import(report("run-mid", "ladder", true, 1, "2024-02-01T00:00:00Z"));
  import(report("run-new", "smoke", false, 4, "2024-03-01T00:00:00Z"));

  auto r = cli({"runs", "list", "--db", db(), "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto j = json::parse(r.out);
  ASSERT_EQ(j.size(), 3u);
  EXPECT_EQ(j[0]["run_id"], "run-new");
  EXPECT_EQ(j[0]["rungs"], 4);
  EXPECT_EQ(j[1]["status"], "partial");
  EXPECT_EQ(j[2]["status"], "complete");

  r = cli({"runs", "list", "--db", db()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out.rfind("ID", 0), 0u) << r.out;
  for (const char* word : {"STARTED", "PROFILE", "TARGETS", "RUNGS", "STATUS", "run-mid", "partial", "complete"}) {
    EXPECT_NE(r.out.find(word), std::string::npos) << word << "\n" << r.out;
  }

  j = json::parse(cli({"runs", "list", "--db", db(), "--json", "--search", "LADDER"}).out);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["run_id"], "run-mid");
  j = json::parse(cli({"runs", "list", "--db", db(), "--json", "--sort", "profile"}).out);
  EXPECT_EQ(j[0]["run_id"], "run-mid");
  EXPECT_EQ(j[1]["run_id"], "run-new");
  j = json::parse(cli({"runs", "list", "--db", db(), "--json", "--limit", "1"}).out);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["run_id"], "run-new");
}

TEST_F(RunsCli, SearchTextCannotInjectSql) {
  import(report("run-x", "smoke", false, 1));
  for (const std::string attack : {"' OR 1=1 --", "'; DROP TABLE runs; --", "%"}) {
    const auto r = cli({"runs", "list", "--db", db(), "--json", "--search", attack});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(json::parse(r.out), json::array()) << attack;
  }
  EXPECT_EQ(json::parse(cli({"runs", "list", "--db", db(), "--json"}).out).size(), 1u);
}

TEST_F(RunsCli, DeleteAndUnknownIdsAreUsageErrors) {
  import(report("run-del", "smoke", false, 2));
  auto r = cli({"runs", "delete", "run-d", "--db", db()});
  EXPECT_EQ(r.exitCode, 2) << "delete needs the exact id";
  r = cli({"runs", "delete", "run-del", "--db", db()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  r = cli({"runs", "show", "run-del", "--db", db()});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("no run 'run-del'"), std::string::npos) << r.err;
  EXPECT_EQ(cli({"runs", "delete", "run-del", "--db", db()}).exitCode, 2);
  EXPECT_EQ(cli({"runs", "export", "nope", "--db", db(), "--out", (m_dir / "x.json").string()}).exitCode, 2);
  r = cli({"runs", "show", "x", "--db", (m_dir / "missing.sqlite").string()});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_FALSE(std::filesystem::exists(m_dir / "missing.sqlite")) << "reading never creates a store";
}

// Two comparisons stored by `compare` (open loop on synthetic targets: no dataset, well under a
// second each) next to an imported run; compare-delete removes exactly the one named.
TEST_F(RunsCli, CompareDeleteRemovesOneComparisonAndNoRun) {
  import(report("run-keep", "smoke", false, 2));
  const auto profile = m_dir.write("open.json", R"({"name": "cli-open", "targets": ["synthetic:service_us=50"],
      "mode": "open", "ladder": {"rates": [1000], "settle_s": 0.02, "requests": 220, "workers": 2,
      "in_flight_cap": 1000}})");
  std::vector<std::string> ids;
  for (const char* out : {"c1", "c2"}) {
    const auto r = cli({"compare", "--profile", profile.string(), "--target", "synthetic:service_us=50", "--target",
                        "synthetic:service_us=60", "--repetitions", "1", "--bootstrap", "200", "--out",
                        (m_dir / out).string(), "--db", db()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    ids.push_back(json::parse(readFile(m_dir / out / "report.json"))["run_id"].get<std::string>());
  }
  ASSERT_NE(ids[0], ids[1]);
  auto listed = [&] {
    const auto r = cli({"runs", "compares", "--db", db(), "--json"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    std::vector<std::string> out;
    for (const auto& c : json::parse(r.out)) out.push_back(c["compare_id"].get<std::string>());
    std::sort(out.begin(), out.end());
    return out;
  };
  auto sorted = ids;
  std::sort(sorted.begin(), sorted.end());
  ASSERT_EQ(listed(), sorted);

  // Unknown ids (a prefix included: deleting needs the exact id, as `runs delete`) are usage
  // errors naming the id, and delete nothing.
  for (const std::string& unknown : {std::string("nothing"), ids[0].substr(0, ids[0].size() - 2)}) {
    const auto r = cli({"runs", "compare-delete", unknown, "--db", db()});
    EXPECT_EQ(r.exitCode, 2) << unknown;
    EXPECT_NE(r.err.find("no comparison '" + unknown + "'"), std::string::npos) << r.err;
  }
  ASSERT_EQ(listed(), sorted);

  auto r = cli({"runs", "compare-delete", ids[0], "--db", db()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("deleted comparison " + ids[0]), std::string::npos) << r.err;
  EXPECT_EQ(listed(), std::vector<std::string>{ids[1]});
  r = cli({"runs", "compare-export", ids[0], "--db", db(), "--out", (m_dir / "gone").string()});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(cli({"runs", "compare-delete", ids[0], "--db", db()}).exitCode, 2) << "already deleted";

  // The run is untouched.
  r = cli({"runs", "list", "--db", db(), "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto runs = json::parse(r.out);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0]["run_id"], "run-keep");
  EXPECT_EQ(runs[0]["rungs"], 2);

  // Without a store: a usage error, and no store is created.
  r = cli({"runs", "compare-delete", ids[1], "--db", (m_dir / "missing.sqlite").string()});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_FALSE(std::filesystem::exists(m_dir / "missing.sqlite"));
}

TEST_F(RunsCli, ListWithoutAStoreIsEmpty) {
  const auto r = cli({"runs", "list", "--db", (m_dir / "none.sqlite").string(), "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(json::parse(r.out), json::array());
  EXPECT_NE(r.err.find("no runs yet"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(m_dir / "none.sqlite"));
}

TEST_F(RunsCli, GarbageDatabaseIsExitThreeNamingTheFile) {
  std::string garbage;
  for (int i = 0; i < 100; ++i) garbage.append("definitely not sqlite ");
  const auto file = m_dir.write("runs.sqlite", garbage);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"runs", "list", "--db", file.string()}, {"runs", "show", "x", "--db", file.string()}}) {
    const auto r = cli(args);
    EXPECT_EQ(r.exitCode, 3) << args[1] << ": " << r.err;
    EXPECT_NE(r.err.find(file.string()), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("not a database"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
  }
  EXPECT_EQ(readFile(file), garbage);
}

TEST_F(RunsCli, BadArgumentsAndBadReports) {
  import(report("run-1", "smoke", false, 1));
  EXPECT_EQ(cli({"runs", "list", "--db", db(), "--sort", "size"}).exitCode, 2);
  EXPECT_EQ(cli({"runs", "export", "run-1", "--db", db(), "--out", "x", "--format", "xml"}).exitCode, 2);
  EXPECT_EQ(cli({"runs", "export", "run-1", "--db", db()}).exitCode, 2) << "--out is required";
  const auto dup = m_dir.write("dup.json", report("run-1", "smoke", false, 1).dump());
  EXPECT_EQ(cli({"runs", "import", dup.string(), "--db", db()}).exitCode, 2);
  const auto bad = m_dir.write("bad.json", "{ not json");
  EXPECT_EQ(cli({"runs", "import", bad.string(), "--db", db()}).exitCode, 3);
  auto wrong = report("run-2", "smoke", false, 2);
  wrong["rungs"][1]["p99_ms"] = "fast";
  const auto typed = m_dir.write("typed.json", wrong.dump());
  const auto r = cli({"runs", "import", typed.string(), "--db", db()});
  EXPECT_EQ(r.exitCode, 3);
  EXPECT_NE(r.err.find("typed.json: rungs[1].p99_ms must be a number or null"), std::string::npos) << r.err;
}

// Review: `runs show` printed a 1.553 us p50 as 0.002 ms, had no query-set column (two closed
// rungs of different sets looked the same), printed "rate/s 0.0" for closed rungs and "clients 0"
// for open ones, and capacity rates with {:.1f}.
TEST_F(RunsCli, ShowPrintsFastQueriesQuerySetsAndOnlyColumnsThatApply) {
  json r = report("run-fast", "mixed", false, 3);
  for (int i = 0; i < 2; ++i) {
    auto& c = r["rungs"][i];
    c["mode"] = "closed";
    c["target_rate"] = 0.0;
    c["concurrency"] = 4;
    c["query_set"] = i == 0 ? "short-and" : "long-or";
    c["p50_ms"] = 0.001553;
  }
  r["rungs"][2]["target_rate"] = 12346.0;
  r["capacity"]["builtin"]["last_pass"] = 12346.0;
  import(r);
  const auto res = cli({"runs", "show", "run-fast", "--db", db()});
  ASSERT_EQ(res.exitCode, 0) << res.err;
  std::vector<std::string> lines;
  std::istringstream in(res.out);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  const auto header = std::find_if(lines.begin(), lines.end(), [](const std::string& l) { return l.rfind("#", 0) == 0; });
  ASSERT_NE(header, lines.end()) << res.out;
  ASSERT_GE(lines.end() - header, 4) << res.out;
  EXPECT_NE(header->find("query set"), std::string::npos) << *header;
  auto words = [](const std::string& line) {
    std::vector<std::string> out;
    std::istringstream w(line);
    for (std::string word; w >> word;) out.push_back(word);
    return out;
  };
  // #, target, mode, query set, rate/s, clients, achieved/s, completed, p50 ms, ...
  const auto closed0 = words(header[1]);
  const auto closed1 = words(header[2]);
  const auto open = words(header[3]);
  ASSERT_GE(closed0.size(), 9u) << header[1];
  ASSERT_GE(closed1.size(), 9u) << header[2];
  ASSERT_GE(open.size(), 9u) << header[3];
  EXPECT_EQ(closed0[3], "short-and");
  EXPECT_EQ(closed1[3], "long-or");
  EXPECT_EQ(closed0[4], "-") << "a closed rung has no offered rate";
  EXPECT_EQ(closed0[5], "4");
  EXPECT_EQ(closed0[8], "0.001553");
  EXPECT_EQ(open[4], "12,346") << "whole and grouped";
  EXPECT_EQ(open[5], "-") << "an open rung has no clients";
  EXPECT_EQ(open[7], "90,000") << "completed grouped as report.md and the workbench's rung table write it";
  // Capacity in bench's and report.md's words (it read "last pass 12,346/s, first fail 3,000/s").
  EXPECT_NE(res.out.find("builtin: maximum sustainable rate [12,346/s, 3,000/s] (first failing rung: p99 > 10 ms)"),
            std::string::npos)
      << res.out;
}

// Review: `runs export --format json` wrote a run with a damaged stored rung with exit 0, while
// `runs show` and `--format csv` refused it with exit 3. Exports (copies of the whole run) refuse
// it; showing it once refused it too, the readable rungs out of sight: it leaves the damaged
// rung out, says so, and shows the rest.
TEST_F(RunsCli, ADamagedRunIsShownWithoutTheDamagedRungAndRefusedByExports) {
  // Damaged through the library, not the sqlite3 program: a fresh machine (and CI) has only the
  // library, and the test was skipped there.
  import(report("run-bad", "smoke", false, 3));
  engine::SqliteDb(std::filesystem::path(db()), engine::SqliteDb::OpenMode::ReadWrite)
      .exec("UPDATE rungs SET rung_json = json_set(rung_json, '$.completed', 'many') WHERE seq = "
            "(SELECT MIN(seq) FROM rungs)");
  const auto out = m_dir / "bad.json";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"runs", "export", "run-bad", "--db", db(), "--out", out.string(), "--format", "csv"},
        {"runs", "export", "run-bad", "--db", db(), "--out", out.string()}}) {
    const auto r = cli(args);
    EXPECT_EQ(r.exitCode, 3) << args.back() << ": " << r.err;
    EXPECT_NE(r.err.find("run run-bad, rung #0 (1st of 3 stored): completed"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("`runs show run-bad` shows the rest of the run"), std::string::npos) << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(out)) << "nothing is written";

  const auto shown = cli({"runs", "show", "run-bad", "--db", db()});
  EXPECT_EQ(shown.exitCode, 0) << shown.err;
  EXPECT_NE(shown.err.find("run run-bad: 1 stored part could not be read and shown partial"), std::string::npos)
      << shown.err;
  EXPECT_NE(shown.out.find("shown partial: 1 damaged part left out"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("warning    rung #0 (1st of 3 stored) could not be read from the store and is left out"),
            std::string::npos)
      << shown.out;
  EXPECT_NE(shown.out.find("rungs      2\n"), std::string::npos) << shown.out;

  const auto asJson = cli({"runs", "show", "run-bad", "--db", db(), "--json"});
  ASSERT_EQ(asJson.exitCode, 0) << asJson.err;
  const json doc = json::parse(asJson.out);
  EXPECT_EQ(doc["rungs"].size(), 2u);
  EXPECT_EQ(doc["partial"], true);
  EXPECT_NE(doc["warnings"].back().get<std::string>().find("rung #0 (1st of 3 stored) could not be read"), std::string::npos)
      << doc["warnings"];
}

// Review: importing a compare report.json said "the report is newer than this build reads (1)".
TEST_F(RunsCli, ImportingAComparisonReportSaysWhatItIs) {
  const json compare = {{"schema_version", 2}, {"kind", "compare"}, {"run_id", "cmp-1"}, {"profile", "p"},
                        {"mode", "closed"}, {"scenarios", json::array()}, {"method", {{"repetitions", 3}}}};
  const auto file = m_dir.write("report.json", compare.dump());
  const auto r = cli({"runs", "import", file.string(), "--db", db()});
  EXPECT_EQ(r.exitCode, 3) << r.err;
  EXPECT_NE(r.err.find(file.string() + ": is a comparison report"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("`compare` stores them itself"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("newer"), std::string::npos) << r.err;
}

TEST_F(RunsCli, DefaultStoreIsUnderXdgDataHome) {
  ::unsetenv("XDG_DATA_HOME");  // runProcess appends the child's value after ours
  const std::vector<std::string> env = {std::string("XDG_DATA_HOME=") + (m_dir / "xdg").string()};
  const auto file = m_dir.write("r.json", report("run-xdg", "smoke", false, 1).dump());
  auto r = cli({"runs", "import", file.string()}, env);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(m_dir / "xdg/wandscope/runs.sqlite"));
  r = cli({"runs", "list", "--json"}, env);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(json::parse(r.out).at(0)["run_id"], "run-xdg");
}

}  // namespace
}  // namespace wandscope::test
