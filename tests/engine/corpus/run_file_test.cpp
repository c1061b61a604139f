// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/corpus/run_file.h"

#include "engine/core/error.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>

namespace wandscope::test {
namespace {

using engine::Error;
using engine::ErrorKind;

using engine::RunHit;

std::string errorOf(engine::Run (*reader)(const std::filesystem::path&, engine::NonFiniteScores),
                    const std::filesystem::path& path,
                    engine::NonFiniteScores nonFinite = engine::NonFiniteScores::Keep) {
  try {
    reader(path, nonFinite);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    return e.what();
  }
  ADD_FAILURE() << "no error reading " << path;
  return {};
}

// Scores that a careless "%f" or "%.6g" would not round-trip, plus the extremes of f32.
std::vector<RunHit> trickyHits() {
  return {
      {"d-0.1", 0.1f},
      {"d-third", 1.0f / 3.0f},
      {"d-tiny", 1e-30f},
      {"d-max", 3.4028235e38f},
      {"d-denormal", std::numeric_limits<float>::denorm_min()},
      {"d-lowest", std::numeric_limits<float>::lowest()},
      {"d-negzero", -0.0f},
      {"d-next", std::nextafter(12.5f, 13.0f)},
      {"d-big", 16777217.0f},  // rounds to 16777216 as f32
  };
}

void expectSameBits(const std::vector<RunHit>& actual, const std::vector<RunHit>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) {
    SCOPED_TRACE(expected[i].docId);
    EXPECT_EQ(actual[i].docId, expected[i].docId);
    EXPECT_EQ(std::bit_cast<std::uint32_t>(actual[i].score), std::bit_cast<std::uint32_t>(expected[i].score))
        << actual[i].score << " vs " << expected[i].score;
  }
}

TEST(RunFileTest, WritesTrecLines) {
  std::ostringstream out;
  engine::writeTrecRunQuery(out, "q1", {{"d7", 12.5f}, {"d3", 0.1f}, {"d9", 3.0f}}, "wandscope");
  EXPECT_EQ(out.str(),
            "q1 Q0 d7 1 12.5 wandscope\n"
            "q1 Q0 d3 2 0.100000001 wandscope\n"  // %.9g: the f32 nearest 0.1, exactly recoverable
            "q1 Q0 d9 3 3 wandscope\n");
  std::ostringstream empty;
  engine::writeTrecRunQuery(empty, "q2", {}, "tag");
  EXPECT_EQ(empty.str(), "");
}

TEST(RunFileTest, TrecWriterRejectsIdsThatCouldNotBeReadBack) {
  std::ostringstream out;
  EXPECT_THROW(engine::writeTrecRunQuery(out, "q 1", {{"d", 1.0f}}, "tag"), Error);
  EXPECT_THROW(engine::writeTrecRunQuery(out, "q1", {{"d 1", 1.0f}}, "tag"), Error);
  EXPECT_THROW(engine::writeTrecRunQuery(out, "q1", {{"", 1.0f}}, "tag"), Error);
  EXPECT_THROW(engine::writeTrecRunQuery(out, "q1", {{"d", 1.0f}}, ""), Error);
}

TEST(RunFileTest, TrecRoundTripIsBitExact) {
  TempDir dir;
  std::ostringstream out;
  const auto hits = trickyHits();
  engine::writeTrecRunQuery(out, "q1", hits, "run");
  engine::writeTrecRunQuery(out, "q2", {{"x", 2.0f}}, "run");
  const auto path = dir.write("run.trec", out.str());
  const engine::Run run = engine::readTrecRun(path);
  ASSERT_EQ(run.queries.size(), 2u);
  expectSameBits(run.queries.at("q1"), hits);
  expectSameBits(engine::readRun(path).queries.at("q1"), hits);
  ASSERT_EQ(run.queries.at("q2").size(), 1u);
}

TEST(RunFileTest, TrecReaderKeepsFileOrderAndMergesQueryLines) {
  TempDir dir;
  const auto path = dir.write("run.trec",
                              "q1 Q0 a 1 9.5 t\r\n"
                              "\n"
                              "q2 Q0 b 1 1 t\n"
                              "q1\tQ0\tc\t2\t10\tt\n"  // higher score, later rank: not re-sorted
                              "q1 0 d 3 -2e-3 t");
  const engine::Run run = engine::readTrecRun(path);
  ASSERT_EQ(run.queries.size(), 2u);
  const auto& q1 = run.queries.at("q1");
  ASSERT_EQ(q1.size(), 3u);
  EXPECT_EQ(q1[0].docId, "a");
  EXPECT_EQ(q1[1].docId, "c");
  EXPECT_EQ(q1[1].score, 10.0f);
  EXPECT_EQ(q1[2].docId, "d");
  EXPECT_EQ(q1[2].score, -2e-3f);
}

TEST(RunFileTest, TrecErrorsNameFileLineAndField) {
  TempDir dir;
  const auto fields = dir.write("run.trec", "q1 Q0 a 1 2.5 t\nq1 Q0 b 2\n");
  EXPECT_EQ(errorOf(engine::readTrecRun, fields), fields.string() + ":2: expected 6 fields, found 4");
  const auto tooMany = dir.write("many.trec", "q1 Q0 a 1 2.5 t extra\n");
  EXPECT_EQ(errorOf(engine::readTrecRun, tooMany), tooMany.string() + ":1: expected 6 fields, found 7");
  const auto score = dir.write("score.trec", "q1 Q0 a 1 2.5 t\nq1 Q0 b 2 high t\n");
  EXPECT_EQ(errorOf(engine::readTrecRun, score), score.string() + ":2: score 'high' is not an f32 number");
  const auto overflow = dir.write("overflow.trec", "q1 Q0 a 1 1e39 t\n");
  EXPECT_EQ(errorOf(engine::readTrecRun, overflow), overflow.string() + ":1: score '1e39' is not an f32 number");
  const auto rank = dir.write("rank.trec", "q1 Q0 a one 2.5 t\n");
  EXPECT_EQ(errorOf(engine::readTrecRun, rank), rank.string() + ":1: rank 'one' is not an integer");
}

// `eval` ranks hits by score, which inf and nan cannot be: asked to, the readers refuse them
// naming file and line (a run with a "nan" score once evaluated to all zeros, exit 0). Read as
// before otherwise: a dump round-trips every bit pattern.
TEST(RunFileTest, NonFiniteScoresAreRefusedWhenAskedNamingFileAndLine) {
  TempDir dir;
  const auto refuse = engine::NonFiniteScores::Refuse;
  for (const std::string text : {"nan", "inf", "-inf", "infinity", "-nan"}) {
    SCOPED_TRACE(text);
    const auto path = dir.write("nan.trec", "q1 Q0 a 1 2.5 t\nq1 Q0 b 2 " + text + " t\n");
    EXPECT_EQ(errorOf(engine::readTrecRun, path, refuse), path.string() + ":2: score '" + text + "' is not finite");
    EXPECT_EQ(errorOf(engine::readRun, path, refuse), path.string() + ":2: score '" + text + "' is not finite");
    EXPECT_FALSE(std::isfinite(engine::readTrecRun(path).queries.at("q1")[1].score)) << "kept by default";
  }
  const auto dump = dir.write("inf.jsonl", "{\"qid\":\"q1\",\"hits\":[{\"doc\":\"a\",\"bits\":\"3f800000\"},"
                                           "{\"doc\":\"b\",\"bits\":\"7f800000\"}]}\n");
  EXPECT_EQ(errorOf(engine::readDumpRun, dump, refuse), dump.string() + ":1: hits[1]: score (bits '7f800000') is not finite");
  EXPECT_EQ(errorOf(engine::readRun, dump, refuse), dump.string() + ":1: hits[1]: score (bits '7f800000') is not finite");
}

TEST(RunFileTest, WritesCompactEscapedDumpLines) {
  std::ostringstream out;
  engine::writeDumpQuery(out, "q\"1", {{"d\\1", 1.25f}, {"tab\there\x01", 0.1f}, {"caf\xC3\xA9", -0.0f}});
  EXPECT_EQ(out.str(),
            "{\"qid\":\"q\\\"1\",\"hits\":["
            "{\"doc\":\"d\\\\1\",\"score\":1.25,\"bits\":\"3fa00000\"},"
            "{\"doc\":\"tab\\there\\u0001\",\"score\":0.100000001,\"bits\":\"3dcccccd\"},"
            "{\"doc\":\"caf\xC3\xA9\",\"score\":-0,\"bits\":\"80000000\"}]}\n");
  std::ostringstream empty;
  engine::writeDumpQuery(empty, "q2", {});
  EXPECT_EQ(empty.str(), "{\"qid\":\"q2\",\"hits\":[]}\n");
}

// An id that is not UTF-8 (an index built before ids were checked) still makes a valid JSON line:
// each bad byte becomes U+FFFD; a valid multi-byte character is kept.
TEST(RunFileTest, DumpLinesStayValidJsonForIdsThatAreNotUtf8) {
  std::ostringstream out;
  engine::writeDumpQuery(out, "q\xFF", {{"d\xE2\x82", 1.0f}, {"\xE2\x82\xAC", 2.0f}});
  EXPECT_EQ(out.str(),
            "{\"qid\":\"q\xEF\xBF\xBD\",\"hits\":["
            "{\"doc\":\"d\xEF\xBF\xBD\xEF\xBF\xBD\",\"score\":1,\"bits\":\"3f800000\"},"
            "{\"doc\":\"\xE2\x82\xAC\",\"score\":2,\"bits\":\"40000000\"}]}\n");
}

TEST(RunFileTest, DumpRoundTripIsBitExactIncludingNonFinite) {
  TempDir dir;
  auto hits = trickyHits();
  hits.push_back({"inf", std::numeric_limits<float>::infinity()});
  hits.push_back({"nan", std::bit_cast<float>(std::uint32_t{0x7fc00001})});  // payload kept
  hits.push_back({"quote\"back\\slash\nnewline", 1.0f});
  std::ostringstream out;
  engine::writeDumpQuery(out, "q1", hits);
  engine::writeDumpQuery(out, "q2", {});
  const auto path = dir.write("run.jsonl", out.str());
  EXPECT_NE(out.str().find("\"score\":null,\"bits\":\"7f800000\""), std::string::npos);
  const engine::Run run = engine::readDumpRun(path);
  ASSERT_EQ(run.queries.size(), 2u);
  expectSameBits(run.queries.at("q1"), hits);
  EXPECT_TRUE(run.queries.at("q2").empty());
  expectSameBits(engine::readRun(path).queries.at("q1"), hits);
}

TEST(RunFileTest, DumpErrorsNameFileLineAndField) {
  TempDir dir;
  const std::string good = "{\"qid\":\"q0\",\"hits\":[]}\n";
  const auto bits = dir.write("bits.jsonl", good + "{\"qid\":\"q1\",\"hits\":[{\"doc\":\"a\",\"score\":1,\"bits\":\"3f80000\"}]}\n");
  EXPECT_EQ(errorOf(engine::readDumpRun, bits), bits.string() + ":2: hits[0]: bits '3f80000' is not 8 hex digits");
  const auto hex = dir.write("hex.jsonl", "{\"qid\":\"q1\",\"hits\":[{\"doc\":\"a\",\"bits\":\"3f800000\"},{\"doc\":\"b\",\"bits\":\"3f80000g\"}]}\n");
  EXPECT_EQ(errorOf(engine::readDumpRun, hex), hex.string() + ":1: hits[1]: bits '3f80000g' is not 8 hex digits");
  const auto noBits = dir.write("nobits.jsonl", "{\"qid\":\"q1\",\"hits\":[{\"doc\":\"a\",\"score\":1}]}\n");
  EXPECT_EQ(errorOf(engine::readDumpRun, noBits), noBits.string() + ":1: hits[0]: missing field bits");
  const auto noDoc = dir.write("nodoc.jsonl", "{\"qid\":\"q1\",\"hits\":[{\"doc\":5,\"bits\":\"3f800000\"}]}\n");
  EXPECT_EQ(errorOf(engine::readDumpRun, noDoc), noDoc.string() + ":1: hits[0]: field doc is not a string");
  const auto noQid = dir.write("noqid.jsonl", "{\"hits\":[]}\n");
  EXPECT_EQ(errorOf(engine::readDumpRun, noQid), noQid.string() + ":1: missing field qid");
  const auto hits = dir.write("hits.jsonl", "{\"qid\":\"q\",\"hits\":{}}\n");
  EXPECT_EQ(errorOf(engine::readDumpRun, hits), hits.string() + ":1: field hits is not an array");
  const auto dup = dir.write("dup.jsonl", good + good);
  EXPECT_EQ(errorOf(engine::readDumpRun, dup), dup.string() + ":2: duplicate query id q0");
  const auto json = dir.write("json.jsonl", good + "{\"qid\":\"q1\",\"hits\":[}\n");
  EXPECT_EQ(errorOf(engine::readDumpRun, json), json.string() + ":2: invalid JSON (syntax error at byte 21)");
}

}  // namespace
}  // namespace wandscope::test
