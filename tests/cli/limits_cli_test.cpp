// SPDX-License-Identifier: GPL-3.0-or-later
// Limits end in a clear refusal, not in exhausted memory or time: k over kMaxK, queries over
// kMaxQueryTerms distinct terms, rates the open-loop driver cannot schedule or keep in memory.
// Each is exit code 2 (usage) with one line on stderr that names the field or option (3 when the
// offending value comes from an input file).
#include "tests/cli/cli_runner.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>

namespace wandscope::test {
namespace {

std::string manyTerms(std::size_t n) {
  std::string q;
  for (std::size_t i = 0; i < n; ++i) q += "t" + std::to_string(i) + " ";
  return q;
}

void expectUsageNaming(const ProcessResult& r, const std::string& needle) {
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_EQ(r.signal, 0);
  EXPECT_EQ(countLines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

class LimitsCli : public ::testing::Test {
 protected:
  void SetUp() override {
    std::ofstream(m_dir / "c.jsonl") << R"({"_id":"a","text":"alpha beta"})" << '\n'
                                     << R"({"_id":"b","text":"beta gamma"})" << '\n';
    const auto r = cli({"index", "build", "--corpus", (m_dir / "c.jsonl").string(), "--out", index()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
  }
  std::string index() const { return (m_dir / "index").string(); }
  TempDir m_dir;
};

TEST_F(LimitsCli, KOverTheLimitIsRefusedNamingK) {
  expectUsageNaming(cli({"search", index(), "--query", "beta", "--k", "10000001"}),
                    "--k must be between 0 and 10000000, got 10000001");
  expectUsageNaming(cli({"search", index(), "--query", "beta", "--k", "-1"}), "--k must be between 0 and 10000000, got -1");
  // Beyond int64 the parser saturates; the message must not quote 2^63-1 as if it were typed.
  expectUsageNaming(cli({"search", index(), "--query", "beta", "--k", "18446744073709551615"}),
                    "--k must be between 0 and 10000000, got a number too large");
  expectUsageNaming(cli({"search", index(), "--query", "beta", "--k", "-99999999999999999999"}),
                    "--k must be between 0 and 10000000, got a number too small");
  // The limit itself is fine.
  EXPECT_EQ(cli({"search", index(), "--query", "beta", "--k", "10000000"}).exitCode, 0);
}

TEST_F(LimitsCli, QueriesOverTheTermLimitAreRefused) {
  expectUsageNaming(cli({"search", index(), "--query", manyTerms(1025)}), "more than 1024 distinct terms");
  EXPECT_EQ(cli({"search", index(), "--query", manyTerms(1024)}).exitCode, 0) << "1024 distinct terms are allowed";
  // In a query file it is a bad line of that file (exit code 3): the message names the file and
  // the query, and the run stops rather than running out of memory.
  std::ofstream(m_dir / "q.jsonl") << nlohmann::json({{"_id", "q0"}, {"text", "beta"}}).dump() << '\n'
                                   << nlohmann::json({{"_id", "q1"}, {"text", manyTerms(2000)}}).dump() << '\n';
  const auto r = cli({"run", index(), "--queries", (m_dir / "q.jsonl").string(), "--out", (m_dir / "run.trec").string()});
  EXPECT_EQ(r.exitCode, 3) << r.err;
  EXPECT_EQ(countLines(r.err), 1u) << r.err;
  for (const char* needle : {"q.jsonl", "query q1", "2nd query", "more than 1024 distinct terms"}) {
    EXPECT_NE(r.err.find(needle), std::string::npos) << needle << " in " << r.err;
  }
  // `index bound-study` reads the same files and says the same (it said exit code 2, naming
  // neither the file nor the query).
  const auto study = cli({"index", "bound-study", index(), "--queries", (m_dir / "q.jsonl").string()});
  EXPECT_EQ(study.exitCode, 3) << study.err;
  EXPECT_EQ(countLines(study.err), 1u) << study.err;
  EXPECT_NE(study.err.find("q.jsonl: query q1 (the 2nd query of the file): the query has more than 1024 distinct "
                           "terms"),
            std::string::npos)
      << study.err;
}

TEST_F(LimitsCli, RatesTheDriverCannotScheduleAreRefusedNamingTheOption) {
  std::ofstream(m_dir / "p.json") << R"({"name": "limits", "dataset": "none", "targets": ["synthetic:service_us=10"],
    "mode": "open", "ladder": {"rates": [100], "settle_s": 0.1, "rung_duration_s": 0.5}})";
  const std::string profile = (m_dir / "p.json").string();
  const std::string out = (m_dir / "out").string();
  // Over the arrival schedule's maximum rate.
  expectUsageNaming(cli({"bench", "--profile", profile, "--out", out, "--no-db", "--rates", "20000000"}), "--rates");
  // Schedulable, but a rung of 1e6/s for 10 s would keep over 2,000,000 request records in memory.
  expectUsageNaming(cli({"bench", "--profile", profile, "--out", out, "--no-db", "--rates", "1000000",
                         "--rung-duration-s", "10"}),
                    "over the maximum of 2,000,000");
  // Not a rate at all.
  expectUsageNaming(cli({"bench", "--profile", profile, "--out", out, "--no-db", "--rates", "-5"}), "--rates");
  EXPECT_FALSE(std::filesystem::exists(m_dir / "out" / "report.json")) << "nothing ran";
}

TEST_F(LimitsCli, DocumentsOverTheSizeLimitAreBadInputNamingFileAndLine) {
  std::ofstream(m_dir / "big.jsonl") << R"({"_id":"a","text":"alpha"})" << '\n'
                                     << nlohmann::json({{"_id", "b"}, {"text", std::string(500, 'x')}}).dump() << '\n';
  const std::string corpus = (m_dir / "big.jsonl").string();
  auto r = cli({"index", "build", "--corpus", corpus, "--out", index(), "--max-doc-bytes", "100"});
  EXPECT_EQ(r.exitCode, 3) << r.err;
  EXPECT_EQ(countLines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("big.jsonl:2: document of 521 bytes is over the limit of 100 bytes (--max-doc-bytes)"),
            std::string::npos)
      << r.err;
  // The previous index is untouched; --skip-bad-lines skips and counts it instead.
  EXPECT_EQ(cli({"search", index(), "--query", "gamma"}).exitCode, 0);
  r = cli({"index", "build", "--corpus", corpus, "--out", index(), "--max-doc-bytes", "100", "--skip-bad-lines"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("skipped 1 bad lines"), std::string::npos) << r.err;
  // A zero limit is a usage error naming the option.
  expectUsageNaming(cli({"index", "build", "--corpus", corpus, "--out", index(), "--max-doc-bytes", "0"}),
                    "--max-doc-bytes");
}

}  // namespace
}  // namespace wandscope::test
