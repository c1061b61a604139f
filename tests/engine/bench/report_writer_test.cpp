// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bench/report_writer.h"
#include "engine/bench/request_log_writer.h"
#include "engine/bench/rung_summary.h"
#include "engine/core/error.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/resource.h>
#include <zlib.h>

#include <fstream>
#include <map>
#include <random>
#include <sstream>

namespace wandscope::test {
namespace {

using engine::RequestOutcome;
using engine::RequestRecord;
using engine::RungRecords;
using engine::RungResult;

engine::RunReport sampleReport() {
  engine::RunReport report;
  report.header.runId = "20250101T000000Z-abcdef";
  report.header.profileName = "sample";
  report.header.profileJson = R"({"name": "sample"})";
  report.header.targets = {"builtin", "synthetic:service_us=10"};
  report.header.environment.cpuModel = "Test CPU";
  report.header.environment.cores = 2;
  report.header.environment.buildType = "Debug";
  report.header.environment.fingerprints = {{"index", "fnv1a64:0123"}};
  report.saturationRule = "the rule";
  report.warnings.push_back("this binary is a Debug build");
  for (unsigned c : {1u, 8u}) {
    for (const char* t : {"builtin", "synthetic:service_us=10"}) {
      RungResult r;
      r.index = static_cast<std::uint32_t>(report.rungs.size());
      r.target = t;
      r.mode = "closed";
      r.concurrency = c;
      r.querySet = "mid-df-2";
      r.completed = 500;
      r.cpuMsPerQuery = std::string(t) == "builtin" ? 2.0 : 1.0;
      r.p50Ms = 1.5;
      r.passes = {{false, 250, 1.0, 2.0, std::nullopt}, {true, 250, 1.0, 2.0, std::nullopt}};
      r.verdict = "n/a";
      report.rungs.push_back(r);
    }
  }
  for (double rate : {100.0, 200.0}) {
    RungResult r;
    r.index = static_cast<std::uint32_t>(report.rungs.size());
    r.target = "builtin";
    r.mode = "open";
    r.targetRate = rate;
    r.achievedRate = rate;
    r.completed = 1000;
    r.shed = rate > 150 ? 20 : 0;
    r.p50Ms = 3.0;
    r.counters = {{"postings_decoded", 1234.5}};
    r.verdict = rate > 150 ? "fail" : "pass";
    r.criterion = rate > 150 ? "shed 1.96 % > 0.1 %" : "";
    report.rungs.push_back(r);
  }
  report.capacity["builtin"] = {100.0, 200.0, "shed 1.96 % > 0.1 %"};
  return report;
}

TEST(ReportWriter, JsonCarriesTheVersionedSchemaAndNullsForThinQuantiles) {
  const auto j = nlohmann::json::parse(engine::reportJson(sampleReport()));
  EXPECT_EQ(j["schema_version"], engine::RunReport::kSchemaVersion);
  EXPECT_EQ(j["environment"]["cpu_model"], "Test CPU");
  EXPECT_EQ(j["environment"]["build_type"], "Debug");
  EXPECT_EQ(j["targets"].size(), 2u);
  ASSERT_EQ(j["rungs"].size(), 6u);
  const auto& open = j["rungs"][5];
  for (const char* key : {"target", "mode", "target_rate", "achieved_rate", "completed", "shed", "p50_ms", "p99_ms",
                          "p999_ms", "service_p50_ms", "cpu_ms_per_query", "thread_cpu_p50_ms", "rss_peak_mib",
                          "minflt", "majflt", "nvcsw", "nivcsw", "dispatch_lag_p99_us", "valid", "verdict", "criterion",
                          "counters"}) {
    EXPECT_TRUE(open.contains(key)) << key;
  }
  EXPECT_TRUE(open["p99_ms"].is_null());
  EXPECT_EQ(open["p50_ms"], 3.0);
  EXPECT_EQ(open["verdict"], "fail");
  EXPECT_EQ(open["counters"]["postings_decoded"], 1234.5);
  EXPECT_EQ(j["capacity"]["builtin"]["last_pass"], 100.0);
  EXPECT_EQ(j["capacity"]["builtin"]["first_fail"], 200.0);
  EXPECT_EQ(j["profile_json"]["name"], "sample");
  EXPECT_FALSE(j["quantile_definition"].get<std::string>().empty());
}

TEST(ReportWriter, MarkdownHasTheSeedsTables) {
  const auto md = engine::reportMarkdown(sampleReport());
  EXPECT_NE(md.find("> **Warning:** this binary is a Debug build"), std::string::npos);
  EXPECT_NE(md.find("### Concurrency 1, CPU ms per query"), std::string::npos);
  EXPECT_NE(md.find("### Concurrency 8, p50 latency ms"), std::string::npos);
  EXPECT_NE(md.find("| Scenario / metric | builtin | synthetic:service_us=10 | synthetic:service_us=10 vs builtin |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| mid-df-2, CPU ms/query | 2 ms | 1 ms | 2.00x |"), std::string::npos) << md;
  EXPECT_NE(md.find("| rate (builtin) | 100/s | 200/s |"), std::string::npos) << md;
  EXPECT_NE(md.find("| p99 | — | — |"), std::string::npos);  // absent, not zero
  EXPECT_NE(md.find("| shed | 0 | 20 (2.0 %) |"), std::string::npos) << md;
  EXPECT_NE(md.find("| verdict | pass | fail: shed 1.96 % > 0.1 % |"), std::string::npos) << md;
  EXPECT_NE(md.find("**Maximum sustainable rate:** [100/s, 200/s]"), std::string::npos) << md;
  EXPECT_NE(md.find("the rule"), std::string::npos);
  EXPECT_EQ(md.find("GUI attached"), std::string::npos);
  // A run from the workbench says so here too, not only in report.json (review, stop 32).
  auto fromGui = sampleReport();
  fromGui.header.environment.guiAttached = true;
  EXPECT_NE(engine::reportMarkdown(fromGui).find("- **GUI attached:** run from the workbench"), std::string::npos);
  // A host whose system calls empty the TLB is named beside the clocks, and in report.json.
  EXPECT_EQ(md.find("empty the TLB"), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(engine::reportJson(sampleReport()))["environment"]["syscalls_flush_tlb"], false);
  auto pti = sampleReport();
  pti.header.environment.syscallsFlushTlb = true;
  EXPECT_NE(engine::reportMarkdown(pti).find("system calls empty the TLB (page-table isolation without PCID)"),
            std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(engine::reportJson(pti))["environment"]["syscalls_flush_tlb"], true);
}

// report.md, the rung tables of the workbench and bench's live and per-rung lines all write a
// latency with this one function (bench kept a copy without the switch to seconds).
TEST(ReportWriter, LatenciesOfASecondOrMoreAreWrittenInSeconds) {
  EXPECT_EQ(engine::msOrDash(std::nullopt), "\u2014");
  EXPECT_EQ(engine::msOrDash(0.004468), "0.004468 ms");
  EXPECT_EQ(engine::msOrDash(999.5), "999.5 ms");
  EXPECT_EQ(engine::msOrDash(1000.0), "1 s");
  EXPECT_EQ(engine::msOrDash(12345.0), "12.35 s");
}

TEST(ReportWriter, CsvHasOneRowPerRung) {
  const auto csv = engine::rungsCsv(sampleReport());
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 7);
  EXPECT_EQ(csv.rfind("index,target,mode,", 0), 0u);
  EXPECT_NE(csv.find("counters.postings_decoded"), std::string::npos);
  // As runs export --format csv writes them (review, stop 32: the README promised them here).
  EXPECT_NE(csv.find(",duration_s,settle_s,p50_ms,"), std::string::npos);
  EXPECT_NE(csv.find(",counters_p99.postings_decoded"), std::string::npos);
  const std::string header = csv.substr(0, csv.find('\n'));
  const std::string firstRow = csv.substr(header.size() + 1, csv.find('\n', header.size() + 1) - header.size() - 1);
  EXPECT_EQ(std::count(header.begin(), header.end(), ','), std::count(firstRow.begin(), firstRow.end(), ','))
      << "one field per column";
}

// A no-op target's "thread CPU" is mostly the clock read around it (rung_summary.h): the report says
// so from 10 % of the smallest rung's p50.
TEST(RungSummary, ThreadCpuClockWarningNamesTheRungAndTheShare) {
  std::vector<engine::RungResult> rungs(3);
  for (std::uint32_t i = 0; i < 3; ++i) rungs[i].index = i;
  rungs[0].threadCpuP50Ms = 0.05;
  rungs[1].threadCpuP50Ms = 0.004;  // 4 us
  EXPECT_FALSE(engine::threadCpuClockWarning(rungs, 300).has_value());  // 7.5 %
  const auto w = engine::threadCpuClockWarning(rungs, 400);            // 10 %
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(*w, "per-request thread CPU includes about one read of the thread CPU clock (0.4 us), 10 % of the "
                "smallest thread CPU p50 (rung 1: 4 us); CPU per query includes the reads too: figures of such short "
                "requests are upper bounds");
  EXPECT_FALSE(engine::threadCpuClockWarning({engine::RungResult{}}, 400).has_value()) << "no p50: nothing to say";
}

// On a busy 2-core machine every rung of a quick ladder was invalid (the generator behind) and
// the run ended "maximum sustainable rate not established" with nothing to say why or what to try
// (a new user's walkthrough, stop 36): the warning counts such rungs among the open ones, quotes
// the first one's criterion and says what to do.
TEST(RungSummary, GeneratorBehindWarningCountsTheRungsAndSaysWhatToTry) {
  std::vector<engine::RungResult> rungs(4);
  for (std::uint32_t i = 0; i < 4; ++i) {
    rungs[i].index = i;
    rungs[i].mode = "open";
    rungs[i].verdict = "pass";
  }
  rungs[0].mode = "closed";  // closed cells have no schedule: never counted
  rungs[0].verdict = "invalid";
  rungs[0].criterion = "generator behind: (a closed cell cannot be)";
  EXPECT_FALSE(engine::generatorBehindWarning(rungs).has_value()) << "no open rung was behind";
  rungs[2].verdict = "invalid";
  rungs[2].criterion = "generator behind: 24.62 % of dispatches > 1000 us late (limit 1 %)";
  rungs[3].verdict = "invalid";
  rungs[3].criterion = "generator behind: 30.00 % of dispatches > 1000 us late (limit 1 %)";
  auto w = engine::generatorBehindWarning(rungs);
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(*w, "2 of 3 open-loop rungs could not be judged because the load generator fell behind its schedule "
                "(rung 2: generator behind: 24.62 % of dispatches > 1000 us late (limit 1 %)): such a rung measures the "
                "machine, not the target. Run again on an idle machine, or ask less of the generator: lower rates or "
                "fewer targets");
  rungs[2].verdict = "fail";  // a failing rung is judged: only the invalid ones count
  rungs[2].criterion = "shed 3.00 % > 0.1 %";
  w = engine::generatorBehindWarning(rungs);
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->rfind("1 of 3 open-loop rungs could not be judged", 0), 0u) << *w;
}

TEST(RungSummary, ComputesCountsQuantilesAndWindowFigures) {
  RungRecords recs;
  recs.counterNames = {"postings_decoded"};
  // 300 measured ok requests with latency 1..300 ms, service 0.5 ms; 10 shed; 5 settle (unmeasured).
  for (int i = 0; i < 315; ++i) {
    RequestRecord r;
    r.due = static_cast<std::int64_t>(i) * 20'000'000;  // every 20 ms
    r.dispatched = r.due + 2'000;                       // 2 us late
    r.measured = i >= 5;
    if (i >= 5 && i < 15) {
      r.outcome = RequestOutcome::Shed;
    } else {
      r.outcome = RequestOutcome::Ok;
      const int k = i < 5 ? 1 : i - 14;  // 1..300 for the measured ones
      r.start = r.end = r.due + static_cast<std::int64_t>(k) * 1'000'000;
      r.start -= 500'000;
      r.threadCpuNs = 400'000;
    }
    recs.records.push_back(r);
    recs.counters.push_back(static_cast<std::uint64_t>(i));
  }
  engine::RungWindow w;
  w.measureStartNs = 100'000'000;
  w.measureEndNs = 6'300'000'000;
  w.lastEndNs = 6'300'000'000;
  w.process.process.cpuNs = 150'000'000;  // 150 ms over 300 completed = 0.5 ms/query
  w.process.instrumentCpuNs = 30'000'000;
  w.process.rssPeakBytes = 64ull << 20;
  RungResult r;
  r.mode = "open";
  engine::summarizeRung({&recs}, {w}, r);
  EXPECT_EQ(r.completed, 300u);
  EXPECT_EQ(r.shed, 10u);
  EXPECT_DOUBLE_EQ(r.p50Ms.value(), 150.0);  // rank 150 of 1..300
  EXPECT_FALSE(r.p90Ms);                      // 300 samples: p90 needs 1,000
  EXPECT_DOUBLE_EQ(r.serviceP50Ms.value(), 0.5);
  EXPECT_DOUBLE_EQ(r.threadCpuP50Ms.value(), 0.4);
  EXPECT_DOUBLE_EQ(r.cpuMsPerQuery, 0.5);
  EXPECT_DOUBLE_EQ(r.instrumentCpuMs, 30.0);
  EXPECT_DOUBLE_EQ(r.rssPeakMib, 64.0);
  EXPECT_DOUBLE_EQ(r.durationSeconds, 6.2);
  EXPECT_NEAR(r.achievedRate, 300 / 6.2, 1e-9);
  EXPECT_NEAR(r.offeredRate, 310 / 6.2, 1e-9);
  EXPECT_EQ(r.lateDispatchFraction, 0.0);
  EXPECT_DOUBLE_EQ(r.dispatchLagMaxUs.value(), 2.0);
  // Counter mean over the completed measured requests: i = 15..314 -> mean 164.5.
  EXPECT_DOUBLE_EQ(r.counters.at("postings_decoded"), 164.5);
  // Latency rises 1 ms per 20 ms of schedule: the queue is growing, and the growth says so.
  ASSERT_TRUE(r.latencyGrowth);
  EXPECT_GT(*r.latencyGrowth, 1.0);
  ASSERT_TRUE(r.p50CiLowMs);
  EXPECT_LT(*r.p50CiLowMs, 150.0);
  EXPECT_GT(*r.p50CiHighMs, 150.0);
}

TEST(RequestLogWriter, WritesGzipCsvWithOneRowPerRequest) {
  TempDir dir;
  const auto path = dir / "requests.csv.gz";
  {
    engine::RequestLogWriter w(path);
    RungRecords recs;
    recs.counterNames = {"postings_decoded", "not_a_column"};
    RequestRecord ok;
    ok.due = 100;
    ok.dispatched = 110;
    ok.start = 120;
    ok.end = 1120;
    ok.threadCpuNs = 900;
    ok.outcome = RequestOutcome::Ok;
    ok.measured = true;
    RequestRecord shed = ok;
    shed.outcome = RequestOutcome::Shed;
    shed.sequence = 1;
    recs.records = {ok, shed};
    recs.counters = {7, 9, 0, 0};
    engine::WorkloadQuerySet set{"mid-df-2", "", {"q,1"}, {"a b"}};
    const engine::Workload workload({set}, engine::WorkloadOrder::Cycle, 1);
    engine::RungPlan plan;
    plan.index = 3;
    plan.mode = "open";
    plan.target = "builtin";
    plan.targetRate = 1234567.891;  // a calibrated multiple: exact, not "1.23457e+06" (6 digits)
    w.write(plan, recs, workload);
    EXPECT_EQ(w.rows(), 2u);
    EXPECT_FALSE(std::filesystem::exists(path));  // not before close
    w.close();
  }
  gzFile f = gzopen(path.c_str(), "rb");
  ASSERT_NE(f, nullptr);
  std::string text;
  char buf[4096];
  int n = 0;
  while ((n = gzread(f, buf, sizeof buf)) > 0) text.append(buf, static_cast<std::size_t>(n));
  gzclose(f);
  std::istringstream in(text);
  std::string header, row1, row2;
  std::getline(in, header);
  std::getline(in, row1);
  std::getline(in, row2);
  EXPECT_EQ(header.rfind("rung,pass,mode,target,target_rate,concurrency,sequence,query_set,query_id,outcome,", 0), 0u);
  EXPECT_EQ(row1.rfind("3,0,open,builtin,1234567.891,0,0,mid-df-2,\"q,1\",ok,1,0,100,110,120,1120,1020,1000,900,7,", 0), 0u) << row1;
  EXPECT_EQ(row2.rfind("3,0,open,builtin,1234567.891,0,1,mid-df-2,\"q,1\",shed,1,0,100,110,,,,,,", 0), 0u) << row2;
}

// Every file of a directory by name, with its content.
std::map<std::string, std::string> filesIn(const std::filesystem::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) files[e.path().filename().string()] = readFile(e.path());
  return files;
}

// A full disk while a report is written over a previous one (RLIMIT_FSIZE in a child, at limits
// below each file's size): an I/O error naming the file; every file is the previous one or the
// new one, whole; no temporary is left behind.
TEST(ReportWriter, ADiskFullFailsNamingTheFileAndKeepsEveryFileWhole) {
  TempDir dir;
  TempDir reference;
  engine::RunReport previous = sampleReport();
  engine::RunReport next = sampleReport();
  next.header.runId = "20250102T000000Z-fedcba";
  next.header.profileName = "the next run";
  engine::writeReportFiles(dir.path(), previous);
  engine::writeReportFiles(reference.path(), next);
  const auto before = filesIn(dir.path());
  const auto after = filesIn(reference.path());
  ASSERT_EQ(before.size(), 3u);
  std::vector<std::uint64_t> limits = {0, 100};
  for (const auto& [name, text] : after) limits.push_back(text.size() - 1);
  for (const std::uint64_t limit : limits) {
    const ProcessResult child = runWithResourceLimit(RLIMIT_FSIZE, limit, [&] { engine::writeReportFiles(dir.path(), next); });
    ASSERT_EQ(child.signal, 0) << "limit " << limit << ": the child crashed";
    EXPECT_EQ(child.exitCode, 1) << "limit " << limit << ": " << child.out;
    EXPECT_EQ(child.out.rfind(engine::errorKindName(engine::ErrorKind::Io), 0), 0u) << child.out;
    EXPECT_NE(child.out.find((dir / "report.").string()), std::string::npos) << "names the file: " << child.out;
    const auto now = filesIn(dir.path());
    EXPECT_EQ(now.size(), 3u) << "limit " << limit << ": a file was added or lost";
    for (const auto& [name, text] : now) {
      ASSERT_TRUE(before.contains(name)) << "left behind: " << name;
      EXPECT_TRUE(text == before.at(name) || text == after.at(name)) << name << " is neither report, limit " << limit;
    }
  }
}

// A full disk while the request log is written: an I/O error naming the file, and neither the
// log nor its temporary is left behind.
TEST(RequestLogWriter, ADiskFullFailsNamingTheFileAndLeavesNothingBehind) {
  TempDir dir;
  const auto path = dir / "requests.csv.gz";
  RungRecords recs;
  std::mt19937_64 rng(17);
  for (std::uint32_t i = 0; i < 20000; ++i) {
    RequestRecord r;
    r.sequence = i;
    r.due = rng() % 1000000000;
    r.dispatched = r.due + rng() % 1000;
    r.start = r.dispatched + rng() % 1000;
    r.end = r.start + rng() % 1000000;
    r.threadCpuNs = rng() % 1000000;
    r.outcome = RequestOutcome::Ok;
    r.measured = true;
    recs.records.push_back(r);
  }
  engine::WorkloadQuerySet set{"mid-df-2", "", {"q1"}, {"a b"}};
  const engine::Workload workload({set}, engine::WorkloadOrder::Cycle, 1);
  engine::RungPlan plan;
  plan.mode = "open";
  plan.target = "builtin";
  // 20,000 rows fail while written; the header alone (limit 0) stays in zlib's buffer and fails
  // when close() flushes it.
  for (const auto& [limit, withRows] : {std::pair<std::uint64_t, bool>{0, false}, {0, true}, {1000, true}, {100000, true}}) {
    const bool rows = withRows;  // clang before 16 cannot capture a structured binding
    const ProcessResult child = runWithResourceLimit(RLIMIT_FSIZE, limit, [&] {
      engine::RequestLogWriter w(path);
      if (rows) w.write(plan, recs, workload);
      w.close();
    });
    ASSERT_EQ(child.signal, 0) << "limit " << limit << ": the child crashed";
    EXPECT_EQ(child.exitCode, 1) << "limit " << limit << ": " << child.out;
    EXPECT_EQ(child.out.rfind(engine::errorKindName(engine::ErrorKind::Io), 0), 0u) << child.out;
    EXPECT_NE(child.out.find(path.string()), std::string::npos) << "names the file: " << child.out;
    EXPECT_TRUE(filesIn(dir.path()).empty()) << "limit " << limit << ": something was left behind";
  }
}

}  // namespace
}  // namespace wandscope::test
