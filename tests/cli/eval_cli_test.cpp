// SPDX-License-Identifier: GPL-3.0-or-later
// `eval` as trec_eval computes it: hits ranked by score (ties by document id descending), and
// inputs that would only ever report zeros (judgements with nothing relevant, scores that cannot
// be ranked) refused as bad input files (exit 3), one line naming the file.
#include "tests/cli/cli_runner.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace wandscope::test {
namespace {

void expectOneLineNaming(const ProcessResult& r, int exitCode, const std::string& needle) {
  EXPECT_EQ(r.exitCode, exitCode) << r.err;
  EXPECT_EQ(countLines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

class EvalCli : public ::testing::Test {
 protected:
  ProcessResult eval(const std::filesystem::path& qrels, const std::filesystem::path& run,
                     const std::vector<std::string>& extra = {}) const {
    std::vector<std::string> args = {"eval", "--qrels", qrels.string(), "--run", run.string(), "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    return cli(args);
  }
  TempDir m_dir;
};

// The run lists d9 (score 1) before d1 (score 9, relevant): trec_eval ranks d1 first. `eval` took
// the file's order and reported MAP and MRR 0.5.
TEST_F(EvalCli, HitsAreRankedByScoreNotByFileOrder) {
  const auto qrels = m_dir.write("qrels.tsv", "q\td1\t1\n");
  const auto run = m_dir.write("run.trec", "q Q0 d9 2 1.0 t\nq Q0 d1 1 9.0 t\n");
  const auto r = eval(qrels, run);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_DOUBLE_EQ(j["map"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(j["recip_rank_10"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(j["ndcg_cut_10"].get<double>(), 1.0);
  // Equal scores: document id descending (trec_eval): d9, d10, d1, so d1 is rank 3. A dump run is
  // ranked the same way.
  const auto tied = m_dir.write("tied.trec", "q Q0 d1 1 5 t\nq Q0 d10 2 5 t\nq Q0 d9 3 5 t\n");
  auto t = eval(qrels, tied);
  ASSERT_EQ(t.exitCode, 0) << t.err;
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(t.out)["recip_rank_10"].get<double>(), 1.0 / 3.0);
  const auto dump = m_dir.write("tied.jsonl", R"({"qid":"q","hits":[{"doc":"d1","bits":"40a00000"},)"
                                              R"({"doc":"d10","bits":"40a00000"},{"doc":"d9","bits":"40a00000"}]})"
                                              "\n");
  t = eval(qrels, dump);
  ASSERT_EQ(t.exitCode, 0) << t.err;
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(t.out)["recip_rank_10"].get<double>(), 1.0 / 3.0);
}

// A score that cannot be ranked is a bad line of the run file, named with its line.
TEST_F(EvalCli, NonFiniteScoresAreBadInputNamingFileAndLine) {
  const auto qrels = m_dir.write("qrels.tsv", "q\td1\t1\n");
  for (const std::string score : {"nan", "inf", "-inf"}) {
    SCOPED_TRACE(score);
    const auto run = m_dir.write("run.trec", "q Q0 d1 1 9.0 t\nq Q0 d9 2 " + score + " t\n");
    expectOneLineNaming(eval(qrels, run), 3, run.string() + ":2: score '" + score + "' is not finite");
  }
  const auto dump = m_dir.write("run.jsonl", R"({"qid":"q","hits":[{"doc":"d1","bits":"7fc00000"}]})"
                                             "\n");
  expectOneLineNaming(eval(qrels, dump), 3, dump.string() + ":1: hits[0]: score (bits '7fc00000') is not finite");
}

// Judgements with nothing relevant evaluate no query: `eval` printed zeros and exited 0.
TEST_F(EvalCli, QrelsWithoutARelevantJudgementAreRefused) {
  const auto run = m_dir.write("run.trec", "q Q0 d1 1 9.0 t\n");
  for (const auto& [name, content] : std::vector<std::pair<std::string, std::string>>{
           {"empty.tsv", ""},
           {"blank.tsv", "\n\n"},
           {"header.tsv", "query-id\tcorpus-id\tscore\n"},
           {"zeros.tsv", "query-id\tcorpus-id\tscore\nq\td1\t0\nq\td2\t0\n"},
           {"negative.qrels", "q 0 d1 -1\nq 0 d2 0\n"}}) {
    SCOPED_TRACE(name);
    const auto qrels = m_dir.write(name, content);
    expectOneLineNaming(eval(qrels, run), 3, qrels.string() + ": holds no relevant judgement (relevance > 0)");
  }
  // Relevant judgements all below --level: a usage error naming the option and the highest grade.
  const auto graded = m_dir.write("graded.tsv", "q\td1\t2\nq\td2\t1\n");
  expectOneLineNaming(eval(graded, run, {"--level", "3"}), 2, "--level 3");
  expectOneLineNaming(eval(graded, run, {"--level", "3"}), 2, "the highest grade in " + graded.string() + " is 2");
  EXPECT_EQ(eval(graded, run, {"--level", "2"}).exitCode, 0);
}

}  // namespace
}  // namespace wandscope::test
