// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/corpus/query_reader.h"

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
using engine::readQueries;

std::string queryFileErrorOf(const std::filesystem::path& path) {
  try {
    readQueries(path);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    return e.what();
  }
  ADD_FAILURE() << "no error reading " << path;
  return {};
}

TEST(QueryReaderTest, ReadsJsonLinesAfterBlankLines) {
  TempDir dir;
  const auto path = dir.write("queries.jsonl",
                              "\n   \n  {\"_id\": \"1\", \"text\": \"first query\", \"metadata\": {}}\n"
                              "{\"_id\": 2, \"text\": \"caf\\u00e9 \\ud83d\\ude00\"}\r\n"
                              "{\"text\": \"tab\\tinside\", \"_id\": \"q3\"}");
  const auto queries = readQueries(path);
  ASSERT_EQ(queries.size(), 3u);
  EXPECT_EQ(queries[0].id, "1");
  EXPECT_EQ(queries[0].text, "first query");
  EXPECT_EQ(queries[1].id, "2");
  EXPECT_EQ(queries[1].text, "caf\xC3\xA9 \xF0\x9F\x98\x80");
  EXPECT_EQ(queries[2].id, "q3");
  EXPECT_EQ(queries[2].text, "tab\tinside");
}

TEST(QueryReaderTest, ReadsTsvInFileOrder) {
  TempDir dir;
  const auto path = dir.write("queries.tsv",
                              "1048585\twhat is paula deen's brother\r\n"
                              "\n"
                              "2\t{not json, just text}\n"
                              "3\ttext\twith a tab\n");
  const auto queries = readQueries(path);
  ASSERT_EQ(queries.size(), 3u);
  EXPECT_EQ(queries[0].id, "1048585");
  EXPECT_EQ(queries[0].text, "what is paula deen's brother");
  EXPECT_EQ(queries[1].text, "{not json, just text}");
  EXPECT_EQ(queries[2].text, "text\twith a tab");
}

TEST(QueryReaderTest, EmptyFileHasNoQueries) {
  TempDir dir;
  EXPECT_TRUE(readQueries(dir.write("queries.tsv", "")).empty());
  EXPECT_TRUE(readQueries(dir.write("blank.tsv", "\n \n")).empty());
}

TEST(QueryReaderTest, DuplicateIdsAreAnErrorNamingTheLine) {
  TempDir dir;
  const auto tsv = dir.write("queries.tsv", "42\tfirst\n7\tother\n\n42\tagain\n");
  EXPECT_EQ(queryFileErrorOf(tsv), tsv.string() + ":4: duplicate query id 42");
  const auto jsonl = dir.write("queries.jsonl",
                               "{\"_id\": \"a\", \"text\": \"x\"}\n{\"_id\": \"a\", \"text\": \"y\"}\n");
  EXPECT_EQ(queryFileErrorOf(jsonl), jsonl.string() + ":2: duplicate query id a");
}

TEST(QueryReaderTest, MalformedLinesNameFileLineAndField) {
  TempDir dir;
  const auto noText = dir.write("q1.jsonl", "{\"_id\": \"a\", \"text\": \"x\"}\n{\"_id\": \"b\"}\n");
  EXPECT_EQ(queryFileErrorOf(noText), noText.string() + ":2: missing field text");
  const auto noId = dir.write("q2.jsonl", "{\"text\": \"x\"}\n");
  EXPECT_EQ(queryFileErrorOf(noId), noId.string() + ":1: missing field _id");
  const auto badJson = dir.write("q3.jsonl", "{\"_id\": \"a\", \"text\": \"x\"}\n{\"_id\": \"b\" \"text\": \"y\"}\n");
  EXPECT_EQ(queryFileErrorOf(badJson).rfind(badJson.string() + ":2: invalid JSON (syntax error at byte ", 0), 0u);
  const auto noTab = dir.write("q4.tsv", "1\tone\ntwo\n");
  EXPECT_EQ(queryFileErrorOf(noTab), noTab.string() + ":2: missing tab between id and text");
  // A .jsonl file is JSON lines whatever its first line holds: it got "missing tab" when that
  // line was not an object.
  const auto array = dir.write("q5.jsonl", "[1, 2, 3]\n");
  EXPECT_EQ(queryFileErrorOf(array).rfind(array.string() + ":1: ", 0), 0u);
  EXPECT_EQ(queryFileErrorOf(array).find("missing tab"), std::string::npos) << queryFileErrorOf(array);
}

// Control characters in an id went straight into TREC runs and terminals: NUL cut the id for C
// tools, ESC coloured the terminal of whoever printed it. Refused naming file and line, the id
// escaped; the skip policy counts them. Blanks (tab, newline) stay: a dump holds them.
TEST(QueryReaderTest, ControlCharactersInIdsAreBadLinesShownEscaped) {
  TempDir dir;
  const auto nul = dir.write("nul.jsonl", "{\"_id\": \"q0\", \"text\": \"x\"}\n{\"_id\": \"q\\u00001\", \"text\": \"y\"}\n");
  EXPECT_EQ(queryFileErrorOf(nul),
            nul.string() + ":2: query id \"q\\u00001\" contains a control character (byte 0x00 at byte 2 of it)");
  const auto esc = dir.write("esc.jsonl", "{\"_id\": \"\\u001b[31mred\", \"text\": \"y\"}\n");
  EXPECT_EQ(queryFileErrorOf(esc),
            esc.string() + ":1: query id \"\\u001b[31mred\" contains a control character (byte 0x1B at byte 1 of it)");
  const auto del = dir.write("del.jsonl", "{\"_id\": \"q\\u007f\", \"text\": \"y\"}\n");
  EXPECT_EQ(queryFileErrorOf(del),
            del.string() + ":1: query id \"q\\u007f\" contains a control character (byte 0x7F at byte 2 of it)");
  // A raw NUL in a TSV id.
  const auto tsv = dir.write("nul.tsv", std::string("1\tone\nq") + '\0' + "2\ttwo\n");
  EXPECT_EQ(queryFileErrorOf(tsv),
            tsv.string() + ":2: query id \"q\\u00002\" contains a control character (byte 0x00 at byte 2 of it)");
  std::uint64_t skipped = 0;
  const auto kept = readQueries(tsv, BadLinePolicy::Skip, &skipped);
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0].id, "1");
  EXPECT_EQ(skipped, 1u);
  // Blanks are whitespace, not refused here.
  const auto blanks = dir.write("blanks.jsonl", "{\"_id\": \"a\\tb\", \"text\": \"x\"}\n{\"_id\": \"c\\nd\", \"text\": \"y\"}\n");
  EXPECT_EQ(readQueries(blanks).size(), 2u);
}

TEST(QueryReaderTest, SkipPolicyCountsBadAndDuplicateLines) {
  TempDir dir;
  const auto path = dir.write("queries.tsv", "1\tone\nbroken\n2\ttwo\n1\tduplicate\n3\tthree\n");
  std::uint64_t skipped = 99;
  const auto queries = readQueries(path, BadLinePolicy::Skip, &skipped);
  ASSERT_EQ(queries.size(), 3u);
  EXPECT_EQ(queries[0].text, "one");  // the first occurrence wins
  EXPECT_EQ(queries[1].id, "2");
  EXPECT_EQ(queries[2].id, "3");
  EXPECT_EQ(skipped, 2u);
}

TEST(QueryReaderTest, ReadsGzippedQueries) {
  TempDir dir;
  const auto path = dir / "queries.jsonl.gz";
  const std::string content = "{\"_id\": \"1\", \"text\": \"zipped\"}\n{\"_id\": \"2\", \"text\": \"too\"}\n";
  gzFile gz = gzopen(path.c_str(), "wb");
  ASSERT_NE(gz, nullptr);
  ASSERT_EQ(gzwrite(gz, content.data(), static_cast<unsigned>(content.size())), static_cast<int>(content.size()));
  ASSERT_EQ(gzclose(gz), Z_OK);
  const auto queries = readQueries(path);
  ASSERT_EQ(queries.size(), 2u);
  EXPECT_EQ(queries[0].text, "zipped");
  EXPECT_EQ(queries[1].id, "2");
}

}  // namespace
}  // namespace wandscope::test
