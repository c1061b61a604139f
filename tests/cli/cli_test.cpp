// SPDX-License-Identifier: GPL-3.0-or-later
// The CLI contract later tools rely on: commands, outputs, exit codes (0 ok, 2 usage, 3 bad input
// file, 4 index error) and one-line error messages.
#include "engine/core/wording.h"
#include "tests/cli/cli_runner.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <sys/stat.h>

namespace wandscope::test {
namespace {

TEST(Cli, HelpEverywhereAndUsageErrorsExitTwo) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--help"}, {"corpus", "gen", "--help"}, {"queries", "gen", "--help"},
        {"index", "build", "--help"}, {"index", "stats", "--help"}, {"index", "bound-study", "--help"}, {"search", "--help"}, {"run", "--help"},
        {"eval", "--help"}, {"default", "--help"}}) {
    const auto r = cli(args);
    EXPECT_EQ(r.exitCode, 0) << args[0];
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << args[0];
  }
  EXPECT_EQ(cli({}).exitCode, 2);
  EXPECT_EQ(cli({"nonsense"}).exitCode, 2);
  EXPECT_EQ(cli({"search"}).exitCode, 2);
  EXPECT_EQ(cli({"corpus", "gen", "--docs", "0", "--mean-len", "5", "--vocab", "10", "--out", "x"}).exitCode, 2);
}

// The revision is taken when the binary is built, not when its build directory was configured (a
// directory reused across commits kept labelling every build with the commit it was configured
// at, in --version and in every report's environment; bench_cli_test checks the report).
TEST(Cli, VersionNamesTheCommitTheBinaryWasBuiltFrom) {
  const auto head = sourceHead();
  if (!head) GTEST_SKIP() << "the sources are not a git checkout";
  const auto r = cli({"--version"});
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_NE(r.out.find("(" + *head + ")"), std::string::npos)
      << r.out << "HEAD is " << *head << " (built before the last commit? rebuild, then test)";
}

class CliPipeline : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    s_dir = new TempDir();
    const auto d = s_dir->path();
    auto r = cli({"corpus", "gen", "--docs", "3000", "--mean-len", "40", "--vocab", "3000", "--seed", "5", "--out",
                  (d / "corpus.jsonl").string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    r = cli({"queries", "gen", "--corpus", (d / "corpus.jsonl").string(), "--category", "mid-df", "--tokens", "2",
             "--count", "20", "--out", (d / "q.jsonl").string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    r = cli({"index", "build", "--corpus", (d / "corpus.jsonl").string(), "--threads", "2", "--segment-docs", "1000",
             "--out", (d / "index").string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
  }
  static void TearDownTestSuite() {
    delete s_dir;
    s_dir = nullptr;
  }
  static std::filesystem::path dir() { return s_dir->path(); }
  static TempDir* s_dir;
};
TempDir* CliPipeline::s_dir = nullptr;

TEST_F(CliPipeline, IndexStatsTextAndJson) {
  const auto r = cli({"index", "stats", (dir() / "index").string(), "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["docs"], 3000);
  EXPECT_EQ(j["segments"], 3);
  EXPECT_EQ(j["analyzer"], "plain/1");
  EXPECT_GT(j["posting_bits_per_posting"].get<double>(), 0.0);
  const auto text = cli({"index", "stats", (dir() / "index").string()});
  EXPECT_EQ(text.exitCode, 0);
  EXPECT_NE(text.out.find("bits/posting"), std::string::npos);
}

// The bound study's JSON and table agree, the shares fall as the runs shorten, and a bad
// granularity is a usage error naming it.
TEST_F(CliPipeline, IndexBoundStudyTextAndJson) {
  const auto index = (dir() / "index").string();
  const auto queries = (dir() / "q.jsonl").string();
  const auto r = cli({"index", "bound-study", index, "--queries", queries, "--op", "or", "--granularity",
                      "128,16,1", "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["queries"], 20);
  ASSERT_EQ(j["rows"].size(), 3u);
  EXPECT_EQ(j["rows"][0]["granularity"], 128);
  const auto considered = j["considered"].get<std::uint64_t>();
  ASSERT_GT(considered, 0u);
  for (std::size_t i = 1; i < 3; ++i) {
    EXPECT_LE(j["rows"][i]["reaching"].get<std::uint64_t>(), j["rows"][i - 1]["reaching"].get<std::uint64_t>());
  }
  EXPECT_LE(j["rows"][2]["reaching"].get<std::uint64_t>(), considered);
  const auto text = cli({"index", "bound-study", index, "--queries", queries, "--op", "or", "--granularity",
                         "128,16,1"});
  ASSERT_EQ(text.exitCode, 0) << text.err;
  EXPECT_NE(text.out.find(fmt::format("| 128 | {} |", j["rows"][0]["reaching"].get<std::uint64_t>())),
            std::string::npos)
      << text.out;
  for (const std::string bad : {"0", "12x", "", "-4"}) {
    const auto e = cli({"index", "bound-study", index, "--queries", queries, "--granularity", "128," + bad});
    EXPECT_EQ(e.exitCode, 2) << bad << ": " << e.err;
    EXPECT_NE(e.err.find("--granularity"), std::string::npos) << e.err;
  }
}

// An empty query file gave a table of zeros and exit 0 where `run` refuses it: refused the same
// way, as a bad input file named in one line.
TEST_F(CliPipeline, IndexBoundStudyRefusesAnEmptyQueryFile) {
  const auto d = dir();
  writeFile(d / "study-empty.jsonl", "");
  const auto r = cli({"index", "bound-study", (d / "index").string(), "--queries", (d / "study-empty.jsonl").string()});
  EXPECT_EQ(r.exitCode, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("study-empty.jsonl: holds no queries"), std::string::npos) << r.err;
  EXPECT_EQ(countLines(r.err), 1u) << r.err;
  EXPECT_EQ(r.out, "");
}

// With no query reaching k hits there is no k-th score to compare bounds with: a table of 0.0 %
// read as "the bounds dismiss nothing". The study says so instead.
TEST_F(CliPipeline, IndexBoundStudySaysWhenNoQueryHasKHits) {
  const auto r = cli({"index", "bound-study", (dir() / "index").string(), "--queries", (dir() / "q.jsonl").string(),
                      "--k", "10000000"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("20 queries, none with 10,000,000 hits: no query has a k-th score"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("0.0 %"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("| postings per bound"), std::string::npos) << r.out;
  // In JSON the shares are null (nothing measured), not 0.
  const auto j = cli({"index", "bound-study", (dir() / "index").string(), "--queries", (dir() / "q.jsonl").string(),
                      "--k", "10000000", "--json"});
  ASSERT_EQ(j.exitCode, 0) << j.err;
  const auto doc = nlohmann::json::parse(j.out);
  ASSERT_FALSE(doc["rows"].empty());
  for (const auto& row : doc["rows"]) {
    EXPECT_TRUE(row["share"].is_null()) << row;
    EXPECT_TRUE(row["mean_query_share"].is_null()) << row;
  }
  // k is held to the limits search and run keep: 0 and over 10,000,000 are usage errors.
  for (const char* k : {"0", "10000001", "-1"}) {
    const auto bad = cli({"index", "bound-study", (dir() / "index").string(), "--queries", (dir() / "q.jsonl").string(),
                          "--k", k});
    EXPECT_EQ(bad.exitCode, 2) << k << ": " << bad.err;
    EXPECT_NE(bad.err.find("--k"), std::string::npos) << bad.err;
  }
}

// The mean per query was printed with every digit of a double ("23.33823529411765"), and "the
// others are left out" was said when there were no others.
TEST_F(CliPipeline, IndexBoundStudyRoundsTheMeanAndMentionsLeftOutQueriesOnlyIfAny) {
  const auto d = dir();
  const auto index = (d / "index").string();
  auto r = cli({"index", "bound-study", index, "--queries", (d / "q.jsonl").string()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("20 queries, 20 with 10 hits; "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("the others have no k-th score"), std::string::npos) << r.out;
  // Three queries with 10 hits (a mean in thirds never has one decimal exactly) and one of a word
  // no document holds, which has no k-th score: now there is one to leave out.
  std::istringstream lines(readFile(d / "q.jsonl"));
  std::string mixed;
  for (std::string line; countLines(mixed) < 3 && std::getline(lines, line);) mixed += line + "\n";
  ASSERT_EQ(countLines(mixed), 3u);
  mixed += R"({"_id": "none", "text": "zzzzqqqq"})" "\n";
  writeFile(d / "study-mixed.jsonl", mixed);
  const auto file = (d / "study-mixed.jsonl").string();
  const auto j = nlohmann::json::parse(cli({"index", "bound-study", index, "--queries", file, "--json"}).out);
  ASSERT_EQ(j["queries_with_kth"], 3);
  const auto considered = j["considered"].get<std::uint64_t>();
  r = cli({"index", "bound-study", index, "--queries", file});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find(fmt::format("4 queries, 3 with 10 hits (the others have no k-th score and are left out); {} "
                                   "documents considered ({:.1f} per query:",
                                   considered, static_cast<double>(considered) / 3.0)),
            std::string::npos)
      << r.out;
}

TEST_F(CliPipeline, SearchJsonCarriesBitsCountersAndExplain) {
  const auto queries = readFile(dir() / "q.jsonl");
  const auto first = nlohmann::json::parse(queries.substr(0, queries.find('\n')));
  const auto r = cli({"search", (dir() / "index").string(), "--query", first["text"].get<std::string>(), "--k", "5",
                      "--json", "--explain"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["hits"].size(), 5u);
  EXPECT_EQ(j["hits"][0]["bits"].get<std::string>().size(), 8u);
  EXPECT_EQ(j["terms"].size(), 2u);
  EXPECT_TRUE(j["counters"].contains("postings_decoded"));
  EXPECT_EQ(j["hits"][0]["tf"].size(), 2u);
  const auto human = cli({"search", (dir() / "index").string(), "--query", first["text"].get<std::string>(), "--explain"});
  EXPECT_EQ(human.exitCode, 0);
  EXPECT_NE(human.out.find("counters"), std::string::npos);
  EXPECT_EQ(human.out.find("opts    "), std::string::npos) << "all switches on: no line";
  // Figures as the workbench writes them: the f32 exactly (engine::exactFigure), never "e-05".
  const std::string score = engine::exactFigure(j["hits"][0]["score"].get<float>());
  EXPECT_NE(human.out.find(" " + score + "  "), std::string::npos) << score << " in\n" << human.out;
  const std::string idf = engine::exactFigure(j["terms"][0]["idf"].get<float>());
  EXPECT_NE(human.out.find("idf " + idf + " "), std::string::npos) << idf << " in\n" << human.out;
  // Switches off are echoed (only --json said them before).
  const auto off = cli({"search", (dir() / "index").string(), "--query", first["text"].get<std::string>(), "--explain",
                        "--opt", "rank_floor=off,bulk_or=off"});
  EXPECT_NE(off.out.find("opts    bulk_or=off, rank_floor=off (the other switches on)"), std::string::npos) << off.out;
}

// From a review of explain against hand computation: the header said "or 5000" where 300 could be
// served, words the analyzer dropped vanished, unknown terms showed a "tf 0 -> 0.000000" column
// on every hit and an idf of 0 in JSON, and small idfs lost their digits to fixed decimals.
TEST_F(CliPipeline, ExplainSaysWhatIsServedDroppedAndUnknown) {
  const auto queries = readFile(dir() / "q.jsonl");
  const auto text = nlohmann::json::parse(queries.substr(0, queries.find('\n')))["text"].get<std::string>();
  const std::string query = text + " " + std::string(70, 'x') + " nosuchwordzz";
  const auto r = cli({"search", (dir() / "index").string(), "--query", query, "--k", "10000000", "--explain"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("k 10000000 (the index holds "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("; dropped 1 token over 64 bytes)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("nosuchwordzz") , std::string::npos);
  EXPECT_NE(r.out.find("not in the index"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("nosuchwordzz: tf"), std::string::npos) << "no contribution column for an unknown term";
  const auto j = nlohmann::json::parse(
      cli({"search", (dir() / "index").string(), "--query", query, "--k", "10000000", "--json"}).out);
  EXPECT_EQ(j["k"], 10000000);
  EXPECT_LT(j["k_served"].get<std::uint64_t>(), 10000000u);
  EXPECT_EQ(j["dropped"]["overlong_tokens"], 1);
  const auto& unknown = j["terms"].back();
  EXPECT_EQ(unknown["known"], false);
  EXPECT_TRUE(unknown["idf"].is_null());
  EXPECT_TRUE(unknown["max_score"].is_null());
  EXPECT_FALSE(j["terms"][0]["idf"].is_null());
}

// A query in another encoding (bytes that are not UTF-8) is searched as the analyzer reads it
// (each bad byte a separator), and its JSON is valid: it was an "internal error" from the JSON
// library. A query file whose TSV id is not UTF-8 is a bad input naming file and line.
TEST_F(CliPipeline, BytesThatAreNotUtf8NeverBreakJsonOutput) {
  const auto queries = readFile(dir() / "q.jsonl");
  const auto text = nlohmann::json::parse(queries.substr(0, queries.find('\n')))["text"].get<std::string>();
  auto r = cli({"search", (dir() / "index").string(), "--query", text + "\xFF", "--json", "--explain"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["terms"].size(), 2u);
  const auto plain =
      nlohmann::json::parse(cli({"search", (dir() / "index").string(), "--query", text, "--json", "--explain"}).out);
  EXPECT_EQ(j["hits"], plain["hits"]) << "the bad byte only separates";
  std::ofstream(dir() / "badid.tsv") << "q1\tx\nq\xFF\ty\n";
  r = cli({"run", (dir() / "index").string(), "--queries", (dir() / "badid.tsv").string(), "--out",
           (dir() / "never-badid.trec").string()});
  EXPECT_EQ(r.exitCode, 3) << r.err;
  EXPECT_NE(r.err.find("badid.tsv:2: the id is not valid UTF-8"), std::string::npos) << r.err;
}

TEST_F(CliPipeline, RunWritesTrecAndDumpAndEvalReadsThem) {
  const auto d = dir();
  auto r = cli({"run", (d / "index").string(), "--queries", (d / "q.jsonl").string(), "--k", "10", "--out",
                (d / "run.trec").string(), "--counters", (d / "counters.jsonl").string()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto trec = readFile(d / "run.trec");
  EXPECT_EQ(countLines(trec), 200u);
  EXPECT_EQ(countLines(readFile(d / "counters.jsonl")), 20u);
  r = cli({"run", (d / "index").string(), "--queries", (d / "q.jsonl").string(), "--format", "dump", "--out",
           (d / "run.dump").string(), "--op", "and"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto dump = readFile(d / "run.dump");
  const auto line = nlohmann::json::parse(dump.substr(0, dump.find('\n')));
  EXPECT_TRUE(line.contains("qid"));
  EXPECT_TRUE(line.contains("hits"));
  // A qrels judging relevant each query's hit that trec_eval ranks first: MRR@10 must be exactly 1.
  // That is the highest score, and among equal scores the greatest id (trec_eval's tie rule), which
  // need not be the run's rank 1 (the engine breaks ties by internal doc id ascending).
  std::map<std::string, std::pair<float, std::string>> best;
  std::istringstream lines(trec);
  std::string qid, q0, doc, rank, score, tag, last;
  while (lines >> qid >> q0 >> doc >> rank >> score >> tag) {
    const std::pair<float, std::string> hit(std::stof(score), doc);
    const auto [it, inserted] = best.emplace(qid, hit);
    if (!inserted && hit > it->second) it->second = hit;
  }
  std::ostringstream qrels;
  qrels << "query-id\tcorpus-id\tscore\n";
  for (const auto& [query, hit] : best) qrels << query << '\t' << hit.second << "\t1\n";
  std::ofstream(d / "qrels.tsv") << qrels.str();
  r = cli({"eval", "--qrels", (d / "qrels.tsv").string(), "--run", (d / "run.trec").string(), "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_DOUBLE_EQ(j["recip_rank_10"].get<double>(), 1.0);
  EXPECT_EQ(j["queries"], 20);
}

TEST_F(CliPipeline, RunRepeatWritesATimingSummary) {
  const auto d = dir();
  const auto r = cli({"run", (d / "index").string(), "--queries", (d / "q.jsonl").string(), "--out",
                      (d / "run2.trec").string(), "--repeat", "3", "--summary", (d / "summary.json").string()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(readFile(d / "summary.json"));
  EXPECT_EQ(j["queries"], 20);
  EXPECT_EQ(j["passes"], 3);
  EXPECT_GT(j["cpu_ms_per_query"].get<double>(), 0.0);
  EXPECT_TRUE(j["wall_ms_p50"].is_null()) << "60 samples are too few for a p50 (needs 200)";
  EXPECT_EQ(j["algo"], "auto");
  // What was timed: the index, the query file and the SIMD target the kernels ran on.
  EXPECT_EQ(j["index"], (d / "index").string());
  EXPECT_EQ(j["queries_file"], (d / "q.jsonl").string());
  EXPECT_FALSE(j["simd"].get<std::string>().empty());
}

// "over 1 passes": the timing line counts its passes in the right number.
TEST_F(CliPipeline, RunTimingLineSaysOnePassInTheSingular) {
  const auto d = dir();
  const auto r = cli({"run", (d / "index").string(), "--queries", (d / "q.jsonl").string(), "--out", "/dev/null",
                      "--repeat", "1"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find(" CPU ms/query over 1 pass\n"), std::string::npos) << r.err;
}

TEST_F(CliPipeline, ErrorsHaveTheRightExitCodeAndOneLine) {
  const auto d = dir();
  // 3: bad input file, naming file and line.
  std::ofstream(d / "bad.jsonl") << "{\"_id\":\"a\",\"text\":\"x\"}\n{\"_id\":\"b\"}\n";
  auto r = cli({"index", "build", "--corpus", (d / "bad.jsonl").string(), "--out", (d / "badindex").string()});
  EXPECT_EQ(r.exitCode, 3) << r.err;
  EXPECT_NE(r.err.find("bad.jsonl:2:"), std::string::npos) << r.err;
  EXPECT_EQ(countLines(r.err), 1u) << r.err;
  // 4: index errors.
  r = cli({"search", (d / "nowhere").string(), "--query", "x"});
  EXPECT_EQ(r.exitCode, 4) << r.err;
  EXPECT_EQ(countLines(r.err), 1u) << r.err;
  // 2: impossible parameters.
  r = cli({"search", (d / "index").string(), "--query", "x", "--algo", "nope"});
  EXPECT_EQ(r.exitCode, 2) << r.err;
  r = cli({"search", (d / "index").string(), "--query", "x", "--op", "and", "--algo", "wand"});
  EXPECT_EQ(r.exitCode, 2) << r.err;
  r = cli({"run", (d / "index").string(), "--queries", (d / "q.jsonl").string(), "--out", (d / "x").string(),
           "--format", "csv"});
  EXPECT_EQ(r.exitCode, 2) << r.err;
  r = cli({"queries", "gen", "--corpus", (d / "corpus.jsonl").string(), "--category", "famous", "--tokens", "2",
           "--count", "5", "--out", (d / "x").string()});
  EXPECT_EQ(r.exitCode, 2) << r.err;
  // 3: a missing or empty query file is a bad input file, named, before any output is written.
  r = cli({"run", (d / "index").string(), "--queries", (d / "missing.jsonl").string(), "--out", (d / "x").string()});
  EXPECT_EQ(r.exitCode, 3) << r.err;
  EXPECT_NE(r.err.find("missing.jsonl"), std::string::npos) << r.err;
  std::ofstream(d / "empty.jsonl").flush();
  r = cli({"run", (d / "index").string(), "--queries", (d / "empty.jsonl").string(), "--out", (d / "x").string(),
           "--repeat", "2", "--summary", (d / "x.json").string()});
  EXPECT_EQ(r.exitCode, 3) << r.err;
  EXPECT_NE(r.err.find("empty.jsonl: holds no queries"), std::string::npos) << r.err;
  EXPECT_EQ(countLines(r.err), 1u) << r.err;
  EXPECT_FALSE(std::filesystem::exists(d / "x.json"));
  // 2: options whose values make no sense, refused before the run, one line naming the option.
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"--repeat", "-1"}, {"--repeat", "18446744073709551615"}, {"--k", "-1"},
        {"--warmup-s", "1"}, {"--warmup-s", "inf", "--repeat", "1"}, {"--opt", "freq_prune=off,freq_prune=on"},
        {"--opt", "freq_prune=off,,lazy_freq=off"}, {"--counters", (d / "no-such-dir" / "c.jsonl").string()},
        {"--counters", ""}, {"--repeat", "1", "--summary", ""}}) {
    std::vector<std::string> args = {"run", (d / "index").string(), "--queries", (d / "q.jsonl").string(), "--out",
                                     (d / "never.trec").string()};
    args.insert(args.end(), bad.begin(), bad.end());
    r = cli(args);
    EXPECT_NE(r.exitCode, 0) << bad[0] << " " << bad[1];
    EXPECT_EQ(countLines(r.err), 1u) << r.err;
    EXPECT_FALSE(std::filesystem::exists(d / "never.trec")) << bad[0] << " " << bad[1] << ": nothing is written";
  }
  r = cli({"search", (d / "index").string(), "--query", "x", "--trace-limit", "-1", "--trace", (d / "t.json").string()});
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_NE(r.err.find("--trace-limit must be between 0 and"), std::string::npos) << r.err;
}

// `default` ended with "Try: wandscope-cli search IDX --query \"...\" --explain", a placeholder that
// found nothing. It names a query of its own mid-df-2 set whose AND has hits, and the trace and
// ladder commands; each suggested search runs as printed - pasted into a shell, from a cache whose
// path holds a space (review: the path went in unquoted) - and finds documents.
TEST(CliDefault, NextStepsNameAQueryThatFindsDocuments) {
  TempDir dir;
  const auto cache = dir / "my cache";
  const auto r = cli({"default", "--cache", cache.string(), "--docs", "2000", "--passes", "1"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  ASSERT_NE(r.out.find("\nNext:\n  why these hits, term by term:\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\"...\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("    wandscope-cli bench --profile benchprofiles/smoke.json --out smoke-report\n"), std::string::npos);
  const std::string cliDir = std::filesystem::path(WANDSCOPE_CLI).parent_path().string();
  std::istringstream lines(r.out.substr(r.out.find("\nNext:\n")));
  std::size_t searches = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("    wandscope-cli search ", 0) != 0) continue;
    const auto s = runProcess("/bin/sh", {"-c", "cd '" + dir.path().string() + "' && " + line},
                              {"PATH=" + cliDir + ":/usr/bin:/bin"});
    EXPECT_EQ(s.exitCode, 0) << line << "\n" << s.err;
    EXPECT_EQ(s.out.find("no results"), std::string::npos) << line << "\n" << s.out;
    ++searches;
  }
  EXPECT_EQ(searches, 2u) << r.out;
  EXPECT_TRUE(std::filesystem::exists(dir / "trace.json"));
}

// A wrong --algo said "unknown algorithm 'nope'" or "algorithm wand does not evaluate AND
// queries", naming neither the option nor what would do: both name --algo now, and the second
// lists the paths of the operator asked for, in `search` and `run` alike.
TEST_F(CliPipeline, AWrongAlgoNamesTheOptionAndThePathsThatApply) {
  const auto d = dir();
  const std::string index = (d / "index").string();
  const std::string queries = (d / "q.jsonl").string();
  const std::string out = (d / "never.trec").string();
  for (const auto& args : {std::vector<std::string>{"search", index, "--query", "x", "--algo", "nope"},
                           std::vector<std::string>{"run", index, "--queries", queries, "--out", out, "--algo", "nope"}}) {
    const auto r = cli(args);
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_EQ(countLines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("--algo: unknown algorithm 'nope' (expected one of auto, exhaustive,"), std::string::npos) << r.err;
  }
  for (const auto& args :
       {std::vector<std::string>{"search", index, "--query", "x", "--op", "and", "--algo", "wand"},
        std::vector<std::string>{"run", index, "--queries", queries, "--out", out, "--op", "and", "--algo", "wand"}}) {
    const auto r = cli(args);
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_EQ(countLines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("--algo wand does not evaluate AND queries (AND queries take auto, exhaustive, block-max-and, "
                         "bulk-and)"),
              std::string::npos)
        << r.err;
  }
  const auto r = cli({"search", index, "--query", "x", "--algo", "bulk-and"});
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_NE(r.err.find("(OR queries take auto, exhaustive, wand, bmw, maxscore, bmm, taat)"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out));
}

// A 10,000-token query printed itself whole on the query line (60 KB) and a line per distinct
// term: the text output echoes its first 200 bytes with the size and lists 32 terms with a count
// of the rest; --explain lists every term, and --json still carries the whole text.
TEST_F(CliPipeline, ALongQueryIsEchoedInPartAndItsTermsCounted) {
  const auto d = dir();
  std::string query;
  for (int i = 0; i < 2000; ++i) query += "longword" + std::to_string(i % 500) + " ";
  const auto r = cli({"search", (d / "index").string(), "--query", query});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_LT(r.out.size(), 6000u) << r.out.substr(0, 2000);
  EXPECT_NE(r.out.find(fmt::format("...\" [{} bytes] (or, k 10, 500 distinct terms of 2,000 tokens", engine::grouped(query.size()))),
            std::string::npos)
      << r.out.substr(0, 1000);
  EXPECT_NE(r.out.find("  term  longword31 "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("  term  longword32 "), std::string::npos) << "only the first 32 terms are listed";
  EXPECT_NE(r.out.find("  ... and 468 more terms (--explain or --json lists every term)\n"), std::string::npos) << r.out;
  const auto explained = cli({"search", (d / "index").string(), "--query", query, "--explain"});
  ASSERT_EQ(explained.exitCode, 0) << explained.err;
  EXPECT_NE(explained.out.find("  term  longword499 "), std::string::npos);
  EXPECT_EQ(explained.out.find("more terms"), std::string::npos);
  const auto json = cli({"search", (d / "index").string(), "--query", query, "--json"});
  ASSERT_EQ(json.exitCode, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j.at("query").get<std::string>(), query);
  EXPECT_EQ(j.at("terms").size(), 500u);
  // A short query is echoed whole, as before.
  const auto small = cli({"search", (d / "index").string(), "--query", "longword1 longword2"});
  EXPECT_NE(small.out.find("query   \"longword1 longword2\" (or, k 10,"), std::string::npos) << small.out;
}

// Two outputs naming one file kept only the last written (`--out x --counters x` exited 0 with
// the run gone), and `--out` naming the query file replaced it: both are usage errors now, before
// any work. A run whose last output cannot be written (/dev/full) leaves every earlier output as
// it was: all of them are written together at the end.
TEST_F(CliPipeline, RunOutputsAreDistinctFilesWrittenAllOrNothing) {
  const auto d = dir();
  const std::string index = (d / "index").string();
  const std::string queries = (d / "q.jsonl").string();
  const std::string same = (d / "same.out").string();
  auto r = cli({"run", index, "--queries", queries, "--out", same, "--counters", same});
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_NE(r.err.find("--out and --counters name the same file"), std::string::npos) << r.err;
  r = cli({"run", index, "--queries", queries, "--out", (d / "o.trec").string(), "--repeat", "1", "--summary",
           (d / "." / "o.trec").string()});
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_NE(r.err.find("--out and --summary name the same file"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(same));
  const std::string copy = (d / "qcopy.jsonl").string();
  std::filesystem::copy_file(queries, copy, std::filesystem::copy_options::overwrite_existing);
  r = cli({"run", index, "--queries", copy, "--out", copy});
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_NE(r.err.find("--out names the input of --queries"), std::string::npos) << r.err;
  EXPECT_EQ(readFile(copy), readFile(queries)) << "the query file is untouched";
  // Devices may be named twice.
  r = cli({"run", index, "--queries", queries, "--out", "/dev/null", "--counters", "/dev/null"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  const std::string old = (d / "old.trec").string();
  for (const std::vector<std::string>& failing :
       {std::vector<std::string>{"--counters", "/dev/full"}, {"--repeat", "1", "--summary", "/dev/full"}}) {
    std::ofstream(old) << "earlier run\n";
    std::vector<std::string> args = {"run", index, "--queries", queries, "--out", old};
    args.insert(args.end(), failing.begin(), failing.end());
    r = cli(args);
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(r.err.find("/dev/full"), std::string::npos) << r.err;
    EXPECT_EQ(readFile(old), "earlier run\n") << failing[1] << ": the run file is as it was";
  }
}

// Numbers are decimal: `--k 010` was read as octal (k = 8), `--warmup-s 0x10` as sixteen seconds
// and an empty value as 0; a warm-up of 1e308 seconds spun until killed.
TEST_F(CliPipeline, NumbersAreDecimalAndWarmUpsBounded) {
  const auto d = dir();
  auto run = [&](const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"run", (d / "index").string(), "--queries", (d / "q.jsonl").string(), "--out",
                                     (d / "numbers.trec").string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return cli(args);
  };
  auto r = run({"--k", "010"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("(200 hits)"), std::string::npos) << r.err << ": 20 queries, 10 hits each";
  r = run({"--k", "+03"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("(60 hits)"), std::string::npos) << r.err;
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"--k", ""}, {"--k", "0x10"}, {"--k", "1e3"}, {"--repeat", "1", "--warmup-s", "0x10"},
        {"--repeat", "1", "--warmup-s", ""}, {"--repeat", "1", "--warmup-s", "1e308"},
        {"--repeat", "1", "--warmup-s", "3601"}}) {
    r = run(bad);
    EXPECT_EQ(r.exitCode, 2) << bad[0] << " '" << bad.back() << "': " << r.err;
    const bool named = r.err.find("expected a decimal") != std::string::npos ||
                       r.err.find("from 0 to 3600") != std::string::npos;
    EXPECT_TRUE(named) << r.err;
  }
}

// A TREC run splits its fields on whitespace: a query id or a tag holding some is refused before
// the run, naming the query (escaped: an id with a newline once printed a broken message) or the
// option; --format dump holds any id, and has no tag.
TEST_F(CliPipeline, TrecRunsRefuseIdsAndTagsTheyCannotHold) {
  const auto d = dir();
  std::ofstream(d / "spaced.jsonl") << "{\"_id\":\"q1\",\"text\":\"x\"}\n{\"_id\":\"a\\nb\",\"text\":\"y\"}\n";
  const std::string index = (d / "index").string();
  auto r = cli({"run", index, "--queries", (d / "spaced.jsonl").string(), "--out", (d / "spaced.trec").string()});
  EXPECT_EQ(r.exitCode, 3) << r.err;
  EXPECT_NE(r.err.find("spaced.jsonl: query id \"a\\nb\" (the 2nd query of the file)"), std::string::npos) << r.err;
  EXPECT_EQ(countLines(r.err), 1u) << r.err;
  EXPECT_FALSE(std::filesystem::exists(d / "spaced.trec"));
  r = cli({"run", index, "--queries", (d / "spaced.jsonl").string(), "--out", (d / "spaced.dump").string(), "--format",
           "dump"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  r = cli({"run", index, "--queries", (d / "q.jsonl").string(), "--out", (d / "tag.trec").string(), "--tag", "my tag"});
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_NE(r.err.find("--tag \"my tag\""), std::string::npos) << r.err;
  r = cli({"run", index, "--queries", (d / "q.jsonl").string(), "--out", (d / "tag.dump").string(), "--tag", "t",
           "--format", "dump"});
  EXPECT_EQ(r.exitCode, 2) << r.err;
}

// Per-query counters carry the path taken, the k-th score and whether it ties the (k+1)-th, as
// COUNTERS.md lists them; --opt may be repeated; --out may be a device (it stays one).
TEST_F(CliPipeline, RunCountersCarryThePathTheKthScoreAndTheTie) {
  const auto d = dir();
  auto r = cli({"run", (d / "index").string(), "--queries", (d / "q.jsonl").string(), "--out", "/dev/null",
                "--counters", (d / "c2.jsonl").string(), "--opt", "freq_prune=off", "--opt", "lazy_freq=off"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto text = readFile(d / "c2.jsonl");
  const auto first = nlohmann::json::parse(text.substr(0, text.find('\n')));
  for (const char* key : {"qid", "algorithm", "kth_score", "tie_at_k", "postings_decoded"}) {
    EXPECT_TRUE(first.contains(key)) << key;
  }
  EXPECT_TRUE(first["tie_at_k"].is_boolean());
  // The same k-th score as `search --json` gives for that query.
  const auto queries = readFile(d / "q.jsonl");
  const auto q = nlohmann::json::parse(queries.substr(0, queries.find('\n')));
  r = cli({"search", (d / "index").string(), "--query", q["text"].get<std::string>(), "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["kth_score"], first["kth_score"]);
  struct stat st{};
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

// `--opt "freq_prune=off, lazy_freq=off"` was refused over the blank, which a --target spec takes.
TEST_F(CliPipeline, OptIgnoresBlanksAroundItems) {
  const auto d = dir();
  const auto index = (d / "index").string();
  auto r = cli({"run", index, "--queries", (d / "q.jsonl").string(), "--out", "/dev/null", "--repeat", "1",
                "--summary", (d / "opt-blanks.json").string(), "--opt", "freq_prune=off, lazy_freq = off"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto opts = nlohmann::json::parse(readFile(d / "opt-blanks.json"))["opts"].get<std::string>();
  EXPECT_NE(opts.find("freq_prune=off"), std::string::npos) << opts;
  EXPECT_NE(opts.find("lazy_freq=off"), std::string::npos) << opts;
  r = cli({"search", index, "--query", "x", "--opt", "freq_prune=off, lazy_freq=off"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
}

// A switch named in two --opt flags was reported as given twice in their join, a string the user
// never typed: the error names the switch and says it was repeated across --opt.
TEST_F(CliPipeline, OptNamesASwitchRepeatedAcrossFlags) {
  const auto d = dir();
  const auto index = (d / "index").string();
  for (const std::string command : {"run", "search"}) {
    std::vector<std::string> args = {command, index};
    if (command == "run") args.insert(args.end(), {"--queries", (d / "q.jsonl").string(), "--out", "/dev/null"});
    if (command == "search") args.insert(args.end(), {"--query", "x"});
    args.insert(args.end(), {"--opt", "freq_prune=off", "--opt", "lazy_freq=off,freq_prune=on"});
    const auto r = cli(args);
    EXPECT_EQ(r.exitCode, 2) << command << ": " << r.err;
    EXPECT_NE(r.err.find("optimisation 'freq_prune' is given twice across --opt"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("freq_prune=off,lazy_freq=off"), std::string::npos) << "quotes a join: " << r.err;
    EXPECT_EQ(countLines(r.err), 1u) << r.err;
  }
  // Within one --opt, the value quoted is the one typed.
  const auto r = cli({"search", index, "--query", "x", "--opt", "lazy_freq=off", "--opt", "taat=off,taat=on"});
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_NE(r.err.find("'taat' is given twice in 'taat=off,taat=on'"), std::string::npos) << r.err;
}

// --out /dev/stdout writes into whatever stdout is: here the test's pipe (a pipe's /proc link
// names no file, and the writer once tried to create a temporary beside it).
TEST_F(CliPipeline, OutputToDevStdoutReachesAPipe) {
  const auto d = dir();
  const auto r = cli({"run", (d / "index").string(), "--queries", (d / "q.jsonl").string(), "--out", "/dev/stdout"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(countLines(r.out), 200u) << "20 queries x 10 hits as TREC lines on stdout";
}

// A forced path that cannot take the query runs another and says which: taat over more than 16
// terms runs maxscore, and search reports maxscore (its counters are maxscore's).
TEST_F(CliPipeline, AForcedPathThatFallsBackNamesThePathThatRan) {
  const auto d = dir();
  std::istringstream lines(readFile(d / "corpus.jsonl"));
  std::set<std::string> distinct;
  for (std::string line; distinct.size() < 20 && std::getline(lines, line);) {
    std::istringstream words(nlohmann::json::parse(line)["text"].get<std::string>());
    for (std::string w; distinct.size() < 20 && words >> w;) distinct.insert(w);
  }
  ASSERT_GT(distinct.size(), 16u);
  std::string query;
  for (const auto& t : distinct) query += t + " ";
  auto r = cli({"search", (d / "index").string(), "--query", query, "--algo", "taat", "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["algorithm"], "maxscore");
  EXPECT_NE(j["reason"].get<std::string>().find("taat evaluates at most 16 terms"), std::string::npos) << j["reason"];
  EXPECT_GT(j["counters"]["maxscore_essential"].get<std::uint64_t>(), 0u);
}

TEST_F(CliPipeline, QueriesGenSetsWritesOneFilePerSetFromOneScan) {
  const auto d = dir();
  const auto out = d / "sets";
  auto r = cli({"queries", "gen", "--corpus", (d / "corpus.jsonl").string(), "--sets",
                "mid-df:1,mid-df:2, sequential:3,rare+common:3", "--count", "15", "--seed", "50", "--out-dir",
                out.string()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::vector<std::pair<std::string, std::uint64_t>> files = {
      {"mid-df-1", 50}, {"mid-df-2", 51}, {"sequential-3", 52}, {"rare+common-3", 53}};
  for (const auto& [name, seed] : files) {
    SCOPED_TRACE(name);
    const auto text = readFile(out / (name + ".jsonl"));
    ASSERT_EQ(countLines(text), 15u);
    EXPECT_EQ(nlohmann::json::parse(text.substr(0, text.find('\n')))["_id"], name + "-1");
    EXPECT_NE(r.err.find((out / (name + ".jsonl")).string()), std::string::npos) << r.err;
  }
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(out), std::filesystem::directory_iterator()), 4);
  // Set i uses seed + i: the mid-df-2 set equals the single-set form with seed 51 (pool categories
  // do not depend on which other sets shared the scan).
  r = cli({"queries", "gen", "--corpus", (d / "corpus.jsonl").string(), "--category", "mid-df", "--tokens", "2",
           "--count", "15", "--seed", "51", "--out", (d / "single.jsonl").string()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(readFile(d / "single.jsonl"), readFile(out / "mid-df-2.jsonl"));
  EXPECT_NE(readFile(out / "mid-df-1.jsonl"), readFile(out / "mid-df-2.jsonl"));
}

TEST_F(CliPipeline, QueriesGenFormsAreExclusiveUsageErrors) {
  const auto d = dir();
  const std::string corpus = (d / "corpus.jsonl").string();
  const std::string file = (d / "usage.jsonl").string();
  const std::string outDir = (d / "usage-sets").string();
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      // Neither form, both forms.
      {{"--count", "5"}, "--out-dir"},
      {{"--category", "rare", "--tokens", "2", "--count", "5", "--out", file, "--sets", "rare:2", "--out-dir", outDir},
       "not both"},
      // --out with --sets, or without --category/--tokens.
      {{"--sets", "rare:2", "--count", "5", "--out", file}, "--out-dir"},
      {{"--category", "rare", "--count", "5", "--out", file}, "--tokens"},
      // --out-dir without --sets, or with --category/--tokens.
      {{"--count", "5", "--out-dir", outDir}, "--sets"},
      {{"--sets", "rare:2", "--tokens", "2", "--count", "5", "--out-dir", outDir}, "--tokens"},
      // Bad set lists.
      {{"--sets", "rare", "--count", "5", "--out-dir", outDir}, "CATEGORY:TOKENS"},
      {{"--sets", "rare:2,,mid-df:1", "--count", "5", "--out-dir", outDir}, "CATEGORY:TOKENS"},
      {{"--sets", "rare:two", "--count", "5", "--out-dir", outDir}, "rare:two"},
      {{"--sets", "famous:2", "--count", "5", "--out-dir", outDir}, "famous"},
      {{"--sets", "mid-df:7", "--count", "5", "--out-dir", outDir}, "tokens"},
      {{"--sets", "rare+common:1", "--count", "5", "--out-dir", outDir}, "rare+common"},
      {{"--sets", "rare:2,mid-df:1,rare:2", "--count", "5", "--out-dir", outDir}, "twice"},
  };
  for (const auto& [args, mention] : cases) {
    std::vector<std::string> all = {"queries", "gen", "--corpus", corpus};
    all.insert(all.end(), args.begin(), args.end());
    std::string shown;
    for (const auto& arg : args) shown += arg + " ";
    SCOPED_TRACE(shown);
    const auto r = cli(all);
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_EQ(countLines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find(mention), std::string::npos) << r.err;
  }
  // Nothing was written.
  EXPECT_FALSE(std::filesystem::exists(file));
  EXPECT_FALSE(std::filesystem::exists(outDir));
  // The help documents both forms and the seeds of --sets.
  const auto help = cli({"queries", "gen", "--help"});
  EXPECT_EQ(help.exitCode, 0);
  for (const char* text : {"--sets", "--out-dir", "seed + i"}) EXPECT_NE(help.out.find(text), std::string::npos) << text;
}

// --simd forces the kernels' target for any command, before or after the command name; every
// target this machine supports gives the same bytes; an unknown target is a usage error.
TEST_F(CliPipeline, SimdTargetsListAndForceGiveIdenticalResults) {
  auto r = cli({"simd", "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_FALSE(j["supported"].empty());
  EXPECT_EQ(j["supported"][0], "scalar");
  EXPECT_FALSE(j["forced"].get<bool>());
  r = cli({"--simd", "scalar", "simd", "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["current"], "scalar");
  EXPECT_TRUE(nlohmann::json::parse(r.out)["forced"].get<bool>());

  std::string reference;
  for (const auto& target : j["supported"]) {
    const auto name = target.get<std::string>();
    SCOPED_TRACE(name);
    const auto out = dir() / ("simd-" + name + ".dump");
    r = cli({"run", (dir() / "index").string(), "--simd", name, "--queries", (dir() / "q.jsonl").string(), "--op",
             "and", "--format", "dump", "--out", out.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto text = readFile(out);
    EXPECT_EQ(countLines(text), 20u);
    if (reference.empty()) reference = text;
    EXPECT_EQ(text, reference);
  }
  r = cli({"--simd", "neon", "simd"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("neon"), std::string::npos) << r.err;
}

TEST(CliQuality, SciFactNdcgMatchesThePublishedBm25) {
  const std::filesystem::path data = std::filesystem::path(WANDSCOPE_SHARED_DATA_DIR) / "scifact";
  if (!std::filesystem::exists(data / "corpus.jsonl.gz")) {
    GTEST_SKIP() << "../shared/data/scifact is absent; skipping the retrieval-quality check";
  }
  TempDir dir;
  auto r = cli({"index", "build", "--corpus", (data / "corpus.jsonl.gz").string(), "--analyzer", "english", "--k1",
                "0.9", "--b", "0.4", "--out", (dir / "index").string()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  r = cli({"run", (dir / "index").string(), "--queries", (data / "queries.jsonl").string(), "--k", "1000",
           "--remove-query", "--out", (dir / "run.trec").string()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  r = cli({"eval", "--qrels", (data / "qrels.tsv").string(), "--run", (dir / "run.trec").string(), "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  // Pyserini BM25 flat, k1 = 0.9, b = 0.4: nDCG@10 0.6789 (../shared/data/README.md).
  EXPECT_NEAR(j["ndcg_cut_10"].get<double>(), 0.6789, 0.01);
  EXPECT_EQ(j["queries"], 300);
}

}  // namespace
}  // namespace wandscope::test
