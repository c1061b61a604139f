// SPDX-License-Identifier: GPL-3.0-or-later
// `corpus gen` and `queries gen` refuse what they cannot do well, before any work: a corpus larger
// than an index can hold, counts out of range (said in words, naming the option), an output that
// would replace the corpus being read. Errors name the paths the user gave.
#include "tests/cli/cli_runner.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace wandscope::test {
namespace {

void expectUsageRefusal(const ProcessResult& r, const std::string& needle) {
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_EQ(countLines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

class GenerateCli : public ::testing::Test {
 protected:
  ProcessResult corpusGen(const std::vector<std::string>& counts, const std::filesystem::path& out) const {
    std::vector<std::string> args = {"corpus", "gen"};
    args.insert(args.end(), counts.begin(), counts.end());
    args.insert(args.end(), {"--out", out.string()});
    return cli(args);
  }
  TempDir m_dir;
};

// Doc ids are 32-bit: --docs stops at what an index can hold (2^32 - 2). 2^64 - 1 overflowed to
// an empty file reported as "wrote 18446744073709551615 documents", and 2^32 + 1 wrote 30 GB.
// --docs 0 printed CLI11's "Value 0 not in range 0.000000 to 1797693134862315708...".
TEST_F(GenerateCli, CorpusGenCountsAreBoundedAndSaidInWords) {
  const auto out = m_dir / "c.jsonl";
  const std::string range = "--docs must be between 1 and 4294967294, got ";
  expectUsageRefusal(corpusGen({"--docs", "18446744073709551615", "--mean-len", "5", "--vocab", "50"}, out),
                    range + "a number too large");
  expectUsageRefusal(corpusGen({"--docs", "4294967295", "--mean-len", "5", "--vocab", "50"}, out), range + "4294967295");
  expectUsageRefusal(corpusGen({"--docs", "0", "--mean-len", "5", "--vocab", "50"}, out), range + "0");
  expectUsageRefusal(corpusGen({"--docs", "-1", "--mean-len", "5", "--vocab", "50"}, out), range + "-1");
  expectUsageRefusal(corpusGen({"--docs", "3", "--mean-len", "0", "--vocab", "50"}, out),
                    "--mean-len must be between 1 and 4294967295, got 0");
  expectUsageRefusal(corpusGen({"--docs", "3", "--mean-len", "5", "--vocab", "0"}, out),
                    "--vocab must be between 1 and 2147483648, got 0");
  expectUsageRefusal(corpusGen({"--docs", "3", "--mean-len", "5", "--vocab", "2147483649"}, out),
                    "--vocab must be between 1 and 2147483648, got 2147483649");
  EXPECT_TRUE(std::filesystem::is_empty(m_dir.path())) << "nothing is written";
  // The help says the limit.
  EXPECT_NE(cli({"corpus", "gen", "--help"}).out.find("1 to 4294967294"), std::string::npos);
  const auto r = corpusGen({"--docs", "3", "--mean-len", "5", "--vocab", "50"}, out);
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(countLines(readFile(out)), 3u);
}

// The corpus is written beside its destination and renamed into place; an error about the
// destination named that temporary ("cannot create /x/c.jsonl.tmp.4242"), not the path given.
TEST_F(GenerateCli, CorpusGenNamesTheOutputGivenNotItsTemporary) {
  const auto out = m_dir / "missing-dir" / "c.jsonl";
  const auto r = corpusGen({"--docs", "3", "--mean-len", "5", "--vocab", "50"}, out);
  EXPECT_EQ(r.exitCode, 1) << r.err;
  EXPECT_EQ(countLines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("cannot write " + out.string() + ":"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(".tmp."), std::string::npos) << r.err;
}

// `queries gen --corpus c.jsonl --out c.jsonl` replaced the corpus with its queries (exit 0); so
// did --out-dir holding the corpus under a set's file name. Both are usage errors now, as `run`
// refuses an --out that names its --queries, and the corpus is untouched.
TEST_F(GenerateCli, QueriesGenRefusesToWriteOverItsCorpus) {
  const auto corpus = m_dir / "c.jsonl";
  ASSERT_EQ(corpusGen({"--docs", "50", "--mean-len", "8", "--vocab", "60"}, corpus).exitCode, 0);
  const std::string before = readFile(corpus);
  expectUsageRefusal(cli({"queries", "gen", "--corpus", corpus.string(), "--category", "mid-df", "--tokens", "1",
                         "--count", "3", "--out", corpus.string()}),
                    "--out names the input of --corpus");
  // Another spelling of the same file.
  expectUsageRefusal(cli({"queries", "gen", "--corpus", corpus.string(), "--category", "mid-df", "--tokens", "1",
                         "--count", "3", "--out", (m_dir / "." / "c.jsonl").string()}),
                    "--out names the input of --corpus");
  const auto sets = m_dir / "sets";
  std::filesystem::create_directory(sets);
  const auto inSets = sets / "mid-df-1.jsonl";
  std::filesystem::copy_file(corpus, inSets);
  expectUsageRefusal(cli({"queries", "gen", "--corpus", inSets.string(), "--sets", "mid-df:2,mid-df:1", "--count", "3",
                         "--out-dir", sets.string()}),
                    "--out-dir names the input of --corpus");
  EXPECT_EQ(readFile(corpus), before);
  EXPECT_EQ(readFile(inSets), before);
  EXPECT_FALSE(std::filesystem::exists(sets / "mid-df-2.jsonl")) << "refused before any set is written";
  // Another file is fine.
  const auto r = cli({"queries", "gen", "--corpus", corpus.string(), "--category", "mid-df", "--tokens", "1",
                      "--count", "3", "--out", (m_dir / "q.jsonl").string()});
  EXPECT_EQ(r.exitCode, 0) << r.err;
}

}  // namespace
}  // namespace wandscope::test
