// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/corpus/qrels.h"

#include "engine/core/error.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <string>

namespace wandscope::test {
namespace {

using engine::BadLinePolicy;
using engine::Error;
using engine::ErrorKind;
using engine::readQrels;

std::string qrelsErrorOf(const std::filesystem::path& path) {
  try {
    readQrels(path);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    return e.what();
  }
  ADD_FAILURE() << "no error reading " << path;
  return {};
}

TEST(QrelsTest, ReadsBeirTsvWithHeader) {
  TempDir dir;
  const auto path = dir.write("qrels.tsv",
                              "query-id\tcorpus-id\tscore\r\n"
                              "1\t31715818\t1\r\n"
                              "1\t14717500\t0\n"
                              "\n"
                              "3\tdoc with space\t2\n"
                              "4\td9\t-1\n"
                              "1\t31715818\t3\n");  // repeated pair: the last grade wins
  const auto qrels = readQrels(path);
  ASSERT_EQ(qrels.judgements.size(), 3u);
  const auto& q1 = qrels.judgements.at("1");
  ASSERT_EQ(q1.size(), 2u);
  EXPECT_EQ(q1.at("31715818"), 3);
  EXPECT_EQ(q1.at("14717500"), 0);  // judged non-relevant is kept
  EXPECT_EQ(qrels.judgements.at("3").at("doc with space"), 2);
  EXPECT_EQ(qrels.judgements.at("4").at("d9"), -1);
}

TEST(QrelsTest, ReadsBeirTsvWithoutHeader) {
  TempDir dir;
  const auto qrels = readQrels(dir.write("qrels.tsv", "q1\td1\t1\nq1\td2\t2\n"));
  ASSERT_EQ(qrels.judgements.size(), 1u);
  EXPECT_EQ(qrels.judgements.at("q1").at("d1"), 1);
  EXPECT_EQ(qrels.judgements.at("q1").at("d2"), 2);
}

TEST(QrelsTest, ReadsTrecQrels) {
  TempDir dir;
  const auto path = dir.write("qrels.txt",
                              "19335 0 1017759 0\n"
                              "19335  0\t1082489   1\r\n"
                              "\n"
                              "47923 Q0 1030303 3\n");
  const auto qrels = readQrels(path);
  ASSERT_EQ(qrels.judgements.size(), 2u);
  EXPECT_EQ(qrels.judgements.at("19335").at("1017759"), 0);
  EXPECT_EQ(qrels.judgements.at("19335").at("1082489"), 1);
  EXPECT_EQ(qrels.judgements.at("47923").at("1030303"), 3);
}

TEST(QrelsTest, ErrorsNameFileLineAndField) {
  TempDir dir;
  const auto score = dir.write("qrels.tsv", "query-id\tcorpus-id\tscore\n1\td1\t1\n1\td2\t2\n1\td3\tx\n");
  EXPECT_EQ(qrelsErrorOf(score), score.string() + ":4: score 'x' is not an integer");
  const auto fraction = dir.write("f.tsv", "query-id\tcorpus-id\tscore\n1\td1\t1.5\n");
  EXPECT_EQ(qrelsErrorOf(fraction), fraction.string() + ":2: score '1.5' is not an integer");
  const auto fields = dir.write("n.tsv", "query-id\tcorpus-id\tscore\n1\td1\n");
  EXPECT_EQ(qrelsErrorOf(fields),
            fields.string() + ":2: expected 3 tab-separated fields (query-id, corpus-id, score), found 2");
  const auto emptyDoc = dir.write("e.tsv", "query-id\tcorpus-id\tscore\n1\t\t1\n");
  EXPECT_EQ(qrelsErrorOf(emptyDoc), emptyDoc.string() + ":2: empty corpus-id");
  const auto trec = dir.write("qrels.txt", "1 0 d1 1\n1 0 d2\n");
  EXPECT_EQ(qrelsErrorOf(trec), trec.string() + ":2: expected 4 fields (qid iteration docid relevance), found 3");
  const auto trecGrade = dir.write("g.txt", "1 0 d1 1\n\n1 0 d2 high\n");
  EXPECT_EQ(qrelsErrorOf(trecGrade), trecGrade.string() + ":3: relevance 'high' is not an integer");
  const auto overflow = dir.write("o.txt", "1 0 d1 99999999999\n");
  EXPECT_EQ(qrelsErrorOf(overflow), overflow.string() + ":1: relevance '99999999999' is not an integer");
}

TEST(QrelsTest, SkipPolicyCountsBadLines) {
  TempDir dir;
  const auto path = dir.write("qrels.tsv",
                              "query-id\tcorpus-id\tscore\n1\td1\t1\n1\td2\tx\n2\td3\n2\td4\t2\n");
  std::uint64_t skipped = 0;
  const auto qrels = readQrels(path, BadLinePolicy::Skip, &skipped);
  EXPECT_EQ(skipped, 2u);
  ASSERT_EQ(qrels.judgements.size(), 2u);
  EXPECT_EQ(qrels.judgements.at("1").size(), 1u);
  EXPECT_EQ(qrels.judgements.at("2").at("d4"), 2);
}

TEST(QrelsTest, ReadsGzippedQrels) {
  TempDir dir;
  const auto path = dir / "qrels.tsv.gz";
  const std::string content = "query-id\tcorpus-id\tscore\nq\td\t1\n";
  gzFile gz = gzopen(path.c_str(), "wb");
  ASSERT_NE(gz, nullptr);
  ASSERT_EQ(gzwrite(gz, content.data(), static_cast<unsigned>(content.size())), static_cast<int>(content.size()));
  ASSERT_EQ(gzclose(gz), Z_OK);
  const auto qrels = readQrels(path);
  EXPECT_EQ(qrels.judgements.at("q").at("d"), 1);
}

}  // namespace
}  // namespace wandscope::test
