// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/corpus/corpus_reader.h"

#include "engine/core/error.h"
#include "engine/corpus/line_reader.h"
#include "engine/corpus/qrels.h"
#include "engine/corpus/query_reader.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/resource.h>
#include <unistd.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace wandscope::test {
namespace {

using engine::BadLinePolicy;
using engine::CorpusFormat;
using engine::CorpusReader;
using engine::Document;
using engine::Error;
using engine::ErrorKind;
using engine::LineReader;

std::vector<Document> readAll(const std::filesystem::path& path, CorpusFormat format,
                              BadLinePolicy policy = BadLinePolicy::Stop,
                              std::uint64_t* skipped = nullptr) {
  CorpusReader reader(path, format, policy);
  std::vector<Document> docs;
  Document doc;
  while (reader.next(doc)) docs.push_back(doc);
  if (skipped != nullptr) *skipped = reader.skippedLines();
  return docs;
}

// The Error thrown when reading the whole file (fails the test when nothing is thrown).
Error readError(const std::filesystem::path& path, CorpusFormat format) {
  try {
    readAll(path, format);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error reading " << path;
  return Error(ErrorKind::Internal, "no error");
}

// One bad line of an MS MARCO file: stopping at it gives `message` after the file's name, and
// skipping it counts one line; returns the documents kept.
std::vector<Document> expectOneBadMsMarcoLine(const std::filesystem::path& path, const std::string& message) {
  const Error e = readError(path, CorpusFormat::MsMarco);
  EXPECT_EQ(e.kind(), ErrorKind::BadInput);
  EXPECT_EQ(std::string(e.what()), path.string() + message);
  std::uint64_t skipped = 0;
  auto docs = readAll(path, CorpusFormat::MsMarco, BadLinePolicy::Skip, &skipped);
  EXPECT_EQ(skipped, 1u);
  return docs;
}

std::string beirError(const TempDir& dir, const std::string& content) {
  const auto path = dir.write("corpus.jsonl", content);
  const Error e = readError(path, CorpusFormat::Beir);
  EXPECT_EQ(e.kind(), ErrorKind::BadInput) << e.what();
  const std::string prefix = path.string() + ":";
  const std::string message = e.what();
  EXPECT_EQ(message.rfind(prefix, 0), 0u) << message;
  return message.substr(prefix.size());  // "<line>: <what>"
}

void writeGzip(const std::filesystem::path& path, const std::string& content) {
  gzFile gz = gzopen(path.c_str(), "wb9");
  ASSERT_NE(gz, nullptr);
  ASSERT_EQ(gzwrite(gz, content.data(), static_cast<unsigned>(content.size())),
            static_cast<int>(content.size()));
  ASSERT_EQ(gzclose(gz), Z_OK);
}

// Restores the working directory (used to show that messages keep relative paths as given).
class CwdGuard {
 public:
  explicit CwdGuard(const std::filesystem::path& dir) : m_saved(std::filesystem::current_path()) {
    std::filesystem::current_path(dir);
  }
  ~CwdGuard() { std::filesystem::current_path(m_saved); }

 private:
  std::filesystem::path m_saved;
};

// --- format names ---------------------------------------------------------------------------

TEST(CorpusFormatTest, ParsesNamesAndGuessesFromFileName) {
  EXPECT_EQ(engine::parseCorpusFormat("beir"), CorpusFormat::Beir);
  EXPECT_EQ(engine::parseCorpusFormat("msmarco"), CorpusFormat::MsMarco);
  EXPECT_STREQ(engine::corpusFormatName(CorpusFormat::Beir), "beir");
  EXPECT_STREQ(engine::corpusFormatName(CorpusFormat::MsMarco), "msmarco");
  try {
    engine::parseCorpusFormat("trec");
    FAIL() << "unknown format accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(std::string(e.what()).find("'trec'"), std::string::npos) << e.what();
  }
  EXPECT_EQ(engine::guessCorpusFormat("data/collection.tsv"), CorpusFormat::MsMarco);
  EXPECT_EQ(engine::guessCorpusFormat("collection.TSV.gz"), CorpusFormat::MsMarco);
  EXPECT_EQ(engine::guessCorpusFormat("corpus.jsonl"), CorpusFormat::Beir);
  EXPECT_EQ(engine::guessCorpusFormat("corpus.jsonl.gz"), CorpusFormat::Beir);
  EXPECT_EQ(engine::guessCorpusFormat("tsv/corpus"), CorpusFormat::Beir);
}

// --- BEIR JSON lines ------------------------------------------------------------------------

TEST(CorpusReaderTest, ReadsBeirLinesWithOptionalTitleAndIgnoredKeys) {
  TempDir dir;
  const auto path = dir.write("corpus.jsonl",
                              "{\"_id\": \"d1\", \"title\": \"First\", \"text\": \"hello world\"}\n"
                              "\n"
                              "{\"text\":\"no title\",\"_id\":\"d2\"}\r\n"
                              "   \n"
                              "{\"_id\": 42, \"title\": null, \"text\": \"numeric id\", "
                              "\"metadata\": {\"url\": \"x\", \"n\": [1, -2.5e3, true, false, null, {}]}}\n"
                              "{\"_id\": \"d4\", \"text\": \"last line, no newline\", \"extra\": 7}");
  CorpusReader reader(path, CorpusFormat::Beir);
  Document doc;
  ASSERT_TRUE(reader.next(doc));
  EXPECT_EQ(doc.id, "d1");
  EXPECT_EQ(doc.title, "First");
  EXPECT_EQ(doc.text, "hello world");
  EXPECT_EQ(reader.lineNumber(), 1u);
  ASSERT_TRUE(reader.next(doc));
  EXPECT_EQ(doc.id, "d2");
  EXPECT_EQ(doc.title, "");  // absent title, and the previous document's title is not kept
  EXPECT_EQ(doc.text, "no title");
  EXPECT_EQ(reader.lineNumber(), 3u);
  ASSERT_TRUE(reader.next(doc));
  EXPECT_EQ(doc.id, "42");  // numeric _id -> its decimal string
  EXPECT_EQ(doc.title, "");  // null title reads as empty
  EXPECT_EQ(doc.text, "numeric id");
  EXPECT_EQ(reader.lineNumber(), 5u);
  ASSERT_TRUE(reader.next(doc));
  EXPECT_EQ(doc.id, "d4");
  EXPECT_EQ(doc.text, "last line, no newline");
  EXPECT_FALSE(reader.next(doc));
  EXPECT_FALSE(reader.next(doc));
  EXPECT_EQ(reader.skippedLines(), 0u);
  EXPECT_EQ(reader.fileSize(), std::filesystem::file_size(path));
  EXPECT_EQ(reader.bytesConsumed(), reader.fileSize());
}

TEST(CorpusReaderTest, DecodesEscapesUnicodeAndSurrogatePairs) {
  TempDir dir;
  const auto path = dir.write(
      "corpus.jsonl",
      R"({"_id": "caf\u00e9", "title": "\u20ac \ud83d\ude00 \uD834\uDD1E", )"
      R"("text": "q\"b\\s\/ \b\f\n\r\t end \u0041\u00DF"})"
      "\n"
      // Raw UTF-8 passes through unchanged; a repeated key keeps the last value.
      "{\"_id\": \"u\", \"text\": \"first\", \"text\": \"na\xC3\xAFve \xE6\x97\xA5 \xF0\x9F\x98\x80\"}\n"
      // Escaped key names are keys like any other.
      "{\"\\u005fid\": \"k\", \"t\\u0065xt\": \"escaped keys\"}\n");
  const auto docs = readAll(path, CorpusFormat::Beir);
  ASSERT_EQ(docs.size(), 3u);
  EXPECT_EQ(docs[0].id, "caf\xC3\xA9");
  EXPECT_EQ(docs[0].title, "\xE2\x82\xAC \xF0\x9F\x98\x80 \xF0\x9D\x84\x9E");  // U+1F600, U+1D11E
  EXPECT_EQ(docs[0].text, "q\"b\\s/ \b\f\n\r\t end A\xC3\x9F");
  EXPECT_EQ(docs[1].text, "na\xC3\xAFve \xE6\x97\xA5 \xF0\x9F\x98\x80");
  EXPECT_EQ(docs[2].id, "k");
  EXPECT_EQ(docs[2].text, "escaped keys");
}

TEST(CorpusReaderTest, EscapedNulIsKept) {
  TempDir dir;
  const auto path = dir.write("corpus.jsonl", R"({"_id": "z", "text": "a\u0000b"})");
  const auto docs = readAll(path, CorpusFormat::Beir);
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0].text, std::string("a\0b", 3));
}

TEST(CorpusReaderTest, FieldErrorsNameFileLineAndField) {
  TempDir dir;
  const std::string good = "{\"_id\": \"ok\", \"text\": \"fine\"}\n";
  EXPECT_EQ(beirError(dir, good + "{\"text\": \"no id\"}\n"), "2: missing field _id");
  EXPECT_EQ(beirError(dir, good + good + "{\"_id\": \"x\"}\n"), "3: missing field text");
  EXPECT_EQ(beirError(dir, "{\"_id\": \"x\", \"title\": 3, \"text\": \"t\"}\n"),
            "1: field title is not a string");
  EXPECT_EQ(beirError(dir, "{\"_id\": \"x\", \"title\": [\"a\"], \"text\": \"t\"}\n"),
            "1: field title is not a string");
  EXPECT_EQ(beirError(dir, "{\"_id\": 1.5, \"text\": \"t\"}\n"), "1: field _id is not a string");
  EXPECT_EQ(beirError(dir, "{\"_id\": null, \"text\": \"t\"}\n"), "1: field _id is not a string");
  EXPECT_EQ(beirError(dir, "{\"_id\": {\"a\": 1}, \"text\": \"t\"}\n"),
            "1: field _id is not a string");
  EXPECT_EQ(beirError(dir, "{\"_id\": \"x\", \"text\": null}\n"), "1: field text is not a string");
  EXPECT_EQ(beirError(dir, "{\"_id\": \"x\", \"text\": 12}\n"), "1: field text is not a string");
  EXPECT_EQ(beirError(dir, "[\"_id\", \"text\"]\n"), "1: not a JSON object");
  EXPECT_EQ(beirError(dir, "\"just a string\"\n"), "1: not a JSON object");
}

TEST(CorpusReaderTest, NumericIdsFollowJsonIntegerRules) {
  TempDir dir;
  const auto path = dir.write("corpus.jsonl",
                              "{\"_id\": 0, \"text\": \"a\"}\n"
                              "{\"_id\": -7, \"text\": \"b\"}\n"
                              "{\"_id\": -0, \"text\": \"c\"}\n"
                              "{\"_id\": 18446744073709551615, \"text\": \"d\"}\n"
                              "{\"_id\": 123456789012345678, \"text\": \"e\"}\n");
  const auto docs = readAll(path, CorpusFormat::Beir);
  ASSERT_EQ(docs.size(), 5u);
  EXPECT_EQ(docs[0].id, "0");
  EXPECT_EQ(docs[1].id, "-7");
  EXPECT_EQ(docs[2].id, "0");
  EXPECT_EQ(docs[3].id, "18446744073709551615");  // the largest u64, via the full parser
  EXPECT_EQ(docs[4].id, "123456789012345678");
  // Too large for any integer type: a float, so not an id.
  EXPECT_EQ(beirError(dir, "{\"_id\": 98446744073709551615, \"text\": \"t\"}\n"),
            "1: field _id is not a string");
}

TEST(CorpusReaderTest, InvalidJsonReportsTheByte) {
  TempDir dir;
  // nlohmann's byte is 1-based: the offending character of `{"_id": "a", "text": }` is the '}'
  // at byte 22.
  EXPECT_EQ(beirError(dir, "{\"_id\": \"a\", \"text\": }\n"), "1: invalid JSON (syntax error at byte 22)");
  // A trailing comma: the '}' at byte 26 of `{"_id": "a", "text": "b",}`.
  EXPECT_EQ(beirError(dir, "{\"_id\": \"a\", \"text\": \"b\",}\n"),
            "1: invalid JSON (syntax error at byte 26)");
  // Content after the 25-byte object: the 'x' at byte 27.
  EXPECT_EQ(beirError(dir, "{\"_id\": \"a\", \"text\": \"b\"} x\n"),
            "1: invalid JSON (syntax error at byte 27)");
  // nlohmann refuses numbers that overflow a double, even under an ignored key; underflow is 0.
  EXPECT_EQ(beirError(dir, "{\"_id\": \"a\", \"text\": \"b\", \"m\": [1e400]}\n"),
            "1: invalid JSON (number overflow parsing '1e400')");
  EXPECT_EQ(beirError(dir, "{\"_id\": \"a\", \"text\": \"b\", \"m\": 1" + std::string(400, '0') + "}\n"),
            "1: invalid JSON (number overflow parsing '1" + std::string(400, '0') + "')");
  const auto tiny = dir.write("tiny.jsonl", "{\"_id\": \"a\", \"text\": \"b\", \"m\": 1e-400}\n");
  EXPECT_EQ(readAll(tiny, CorpusFormat::Beir).size(), 1u);
  // Unterminated (the line ends inside the string).
  EXPECT_NE(beirError(dir, "{\"_id\": \"a\", \"text\": \"b\n").find("1: invalid JSON (syntax error at byte "),
            std::string::npos);
}

TEST(CorpusReaderTest, InvalidStringsAreSyntaxErrors) {
  TempDir dir;
  const std::vector<std::string> texts = {
      R"(bad \x escape)",          // unknown escape
      R"(short \u12)",             // too few hex digits
      R"(not hex \u12g4)",         // not hex
      R"(lone high \ud800 alone)", // high surrogate without low
      R"(high then \ud800\u0041)", // high surrogate followed by a non-surrogate
      R"(lone low \udc00)",        // low surrogate first
      "raw\ttab",                  // control characters must be escaped
      "bad utf8 \xFF",             // never valid in UTF-8
      "truncated \xE6\x97",        // incomplete sequence
      "overlong \xC0\xAF",         // overlong encoding of '/'
      "surrogate \xED\xA0\x80",    // UTF-8 encoded surrogate
  };
  for (const auto& text : texts) {
    SCOPED_TRACE(text);
    const std::string message = beirError(dir, "{\"_id\": \"a\", \"text\": \"" + text + "\"}\n");
    EXPECT_EQ(message.rfind("1: invalid JSON (syntax error at byte ", 0), 0u) << message;
  }
}

// The string scanner works 8 bytes at a time: put each kind of special byte at every offset of
// a long string (and so at every position within a word).
TEST(CorpusReaderTest, SpecialBytesAtEveryOffset) {
  TempDir dir;
  struct Case {
    std::string raw;      // as written in the JSON string
    std::string decoded;  // expected, empty when the line must be rejected
  };
  const std::vector<Case> cases = {
      {"\\\"", "\""}, {"\\\\", "\\"}, {"\\n", "\n"}, {"\\u00e9", "\xC3\xA9"},
      {"\xC3\xA9", "\xC3\xA9"}, {"\xF0\x9F\x98\x80", "\xF0\x9F\x98\x80"}, {"\x7f", "\x7f"},
      {"\x01", ""}, {"\t", ""}, {"\x1f", ""}, {"\xFF", ""}, {"\x80", ""}, {"\xC3", ""}};
  for (const auto& c : cases) {
    for (std::size_t offset = 0; offset < 20; ++offset) {
      SCOPED_TRACE("case " + c.raw + " at offset " + std::to_string(offset));
      const std::string before(offset, 'a');
      const std::string after(offset % 7 + 9, 'b');
      const std::string line = "{\"_id\":\"x\",\"text\":\"" + before + c.raw + after + "\"}";
      if (c.decoded.empty()) {
        EXPECT_EQ(beirError(dir, line).rfind("1: invalid JSON (syntax error at byte ", 0), 0u);
      } else {
        const auto docs = readAll(dir.write("ok.jsonl", line), CorpusFormat::Beir);
        ASSERT_EQ(docs.size(), 1u);
        EXPECT_EQ(docs[0].text, before + c.decoded + after);
      }
    }
  }
}

TEST(CorpusReaderTest, RelativePathsStayAsGiven) {
  TempDir dir;
  dir.write("corpus.jsonl", "{\"_id\": \"a\", \"text\": \"ok\"}\n{\"_id\": \"b\"}\n");
  CwdGuard cwd(dir.path());
  try {
    readAll("corpus.jsonl", CorpusFormat::Beir);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "corpus.jsonl:2: missing field text");
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    EXPECT_EQ(engine::exitCodeFor(e.kind()), 3);
  }
}

TEST(CorpusReaderTest, SkipPolicySkipsAndCountsBadLines) {
  TempDir dir;
  const auto path = dir.write("corpus.jsonl",
                              "{\"_id\": \"a\", \"text\": \"1\"}\n"
                              "{\"_id\": \"b\"}\n"
                              "not json\n"
                              "{\"_id\": \"c\", \"text\": \"3\"}\n"
                              "{\"_id\": \"d\", \"text\": \"bad \\q\"}\n"
                              "{\"_id\": \"e\", \"title\": 5, \"text\": \"5\"}\n"
                              "{\"_id\": \"f\", \"text\": \"6\"}\n");
  std::uint64_t skipped = 0;
  const auto docs = readAll(path, CorpusFormat::Beir, BadLinePolicy::Skip, &skipped);
  ASSERT_EQ(docs.size(), 3u);
  EXPECT_EQ(docs[0].id, "a");
  EXPECT_EQ(docs[1].id, "c");
  EXPECT_EQ(docs[2].id, "f");
  EXPECT_EQ(docs[2].text, "6");
  EXPECT_EQ(skipped, 4u);
}

TEST(CorpusReaderTest, DocumentsOverTheSizeLimitAreBadLines) {
  TempDir dir;
  const std::string big = "{\"_id\": \"big\", \"text\": \"" + std::string(200, 'x') + "\"}";
  const auto path = dir.write("corpus.jsonl", "{\"_id\": \"a\", \"text\": \"small\"}\n" + big + "\n" +
                                                  "{\"_id\": \"c\", \"text\": \"small\"}\n");
  // Stop: one message naming file, line, size, limit and the option.
  CorpusReader stop(path, CorpusFormat::Beir, BadLinePolicy::Stop, 100);
  Document doc;
  ASSERT_TRUE(stop.next(doc));
  try {
    stop.next(doc);
    FAIL() << "a " << big.size() << "-byte document passed a 100-byte limit";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    EXPECT_EQ(std::string(e.what()), path.string() + ":2: document of " + std::to_string(big.size()) +
                                         " bytes is over the limit of 100 bytes (--max-doc-bytes)");
  }
  // Skip: skipped and counted; a line exactly at the limit is accepted.
  CorpusReader skip(path, CorpusFormat::Beir, BadLinePolicy::Skip, 100);
  std::vector<std::string> ids;
  while (skip.next(doc)) ids.push_back(doc.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(skip.skippedLines(), 1u);
  CorpusReader exact(path, CorpusFormat::Beir, BadLinePolicy::Stop, big.size());
  std::size_t n = 0;
  while (exact.next(doc)) ++n;
  EXPECT_EQ(n, 3u);
  EXPECT_THROW(CorpusReader(path, CorpusFormat::Beir, BadLinePolicy::Stop, 0), Error);
}

// A missing input is a bad input file (exit code 3), named with the reason.
TEST(CorpusReaderTest, MissingFileIsABadInputFile) {
  TempDir dir;
  const auto path = dir / "absent.jsonl";
  try {
    CorpusReader reader(path, CorpusFormat::Beir);
    FAIL() << "opened a missing file";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
  }
}

TEST(CorpusReaderTest, StripsByteOrderMark) {
  TempDir dir;
  const auto path = dir.write("corpus.jsonl", "\xEF\xBB\xBF{\"_id\": \"a\", \"text\": \"bom\"}\n");
  const auto docs = readAll(path, CorpusFormat::Beir);
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0].id, "a");
}

// The fast flat-object parser must agree with nlohmann on every line: same documents when
// nlohmann accepts, a rejected line when it does not. Valid random lines (some ASCII-escaped,
// which produces \u escapes and surrogate pairs) plus byte-level mutations of them.
class CorpusReaderAgreement : public ::testing::TestWithParam<std::uint32_t> {};

TEST_P(CorpusReaderAgreement, AgreesWithNlohmannOnRandomAndMutatedLines) {
  const std::uint32_t seed = GetParam();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 rng(seed);
  const std::vector<std::string> pieces = {
      "a", "Z", " ", "\"", "\\", "/", "\t", "\n", "\x01", "\x7f", "\xC3\xA9", "\xE2\x82\xAC",
      "\xF0\x9F\x98\x80", "0", "{", "}", "[", "]", ":", ","};
  const auto randomString = [&] {
    std::string s;
    const auto n = rng() % 12;
    for (std::uint32_t i = 0; i < n; ++i) s += pieces[rng() % pieces.size()];
    return s;
  };
  const auto randomValue = [&](int depth, auto& self) -> nlohmann::json {
    switch (rng() % (depth > 2 ? 5 : 7)) {
      case 0: return randomString();
      case 1: return static_cast<std::int64_t>(rng() % 2000) - 1000;
      case 2: return static_cast<double>(rng() % 1000) / 8.0;
      case 3: return nullptr;
      case 4: return (rng() % 2) == 0;
      case 5: {
        nlohmann::json array = nlohmann::json::array();
        for (std::uint32_t i = rng() % 3; i > 0; --i) array.push_back(self(depth + 1, self));
        return array;
      }
      default: {
        nlohmann::json object = nlohmann::json::object();
        for (std::uint32_t i = rng() % 3; i > 0; --i) object[randomString()] = self(depth + 1, self);
        return object;
      }
    }
  };

  std::vector<std::string> lines;
  for (int i = 0; i < 400; ++i) {
    nlohmann::json object = nlohmann::json::object();
    if (rng() % 10 != 0) object["_id"] = rng() % 5 == 0 ? randomValue(0, randomValue) : nlohmann::json(randomString() + "id");
    if (rng() % 2 == 0) object["title"] = rng() % 5 == 0 ? randomValue(0, randomValue) : nlohmann::json(randomString());
    if (rng() % 10 != 0) object["text"] = rng() % 8 == 0 ? randomValue(0, randomValue) : nlohmann::json(randomString());
    if (rng() % 2 == 0) object["metadata"] = randomValue(0, randomValue);
    std::string line = object.dump(-1, ' ', /*ensure_ascii=*/rng() % 2 == 0);
    lines.push_back(line);
    // Mutations: replace, insert or delete a byte (never a line break).
    for (int m = 0; m < 3 && !line.empty(); ++m) {
      std::string mutated = line;
      const auto pos = rng() % mutated.size();
      const std::string alphabet = "\"\\{}[]:,0-e.u dD8\x80\xC3\xFFtn\x01\t\x1f";
      const char c = alphabet[rng() % alphabet.size()];
      switch (rng() % 3) {
        case 0: mutated[pos] = c; break;
        case 1: mutated.insert(mutated.begin() + static_cast<std::ptrdiff_t>(pos), c); break;
        default: mutated.erase(pos, 1); break;
      }
      lines.push_back(mutated);
    }
  }

  std::string content;
  std::vector<Document> expected;
  std::uint64_t expectedSkipped = 0;
  for (const auto& line : lines) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;  // blank: skipped silently
    content += line + "\n";
    const auto object = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    const auto field = [&](const char* key) { return object.is_object() ? object.find(key) : object.end(); };
    bool ok = object.is_object();
    Document doc;
    if (ok) {
      const auto id = field("_id");
      if (id == object.end()) {
        ok = false;
      } else if (id->is_string()) {
        doc.id = id->get<std::string>();
      } else if (id->is_number_integer()) {
        doc.id = id->dump();
      } else {
        ok = false;
      }
      const auto title = field("title");
      if (title != object.end() && title->is_string()) {
        doc.title = title->get<std::string>();
      } else if (title != object.end() && !title->is_null()) {
        ok = false;
      }
      const auto text = field("text");
      if (text == object.end() || !text->is_string()) {
        ok = false;
      } else {
        doc.text = text->get<std::string>();
      }
    }
    if (ok) {
      expected.push_back(doc);
    } else {
      ++expectedSkipped;
    }
  }
  TempDir dir;
  const auto path = dir.write("random.jsonl", content);
  std::uint64_t skipped = 0;
  const auto docs = readAll(path, CorpusFormat::Beir, BadLinePolicy::Skip, &skipped);
  // Both outcomes are well represented, so the comparison means something.
  EXPECT_GT(expected.size(), 200u);
  EXPECT_GT(expectedSkipped, 200u);
  EXPECT_EQ(skipped, expectedSkipped);
  ASSERT_EQ(docs.size(), expected.size());
  for (std::size_t i = 0; i < docs.size(); ++i) {
    SCOPED_TRACE("document " + std::to_string(i));
    EXPECT_EQ(docs[i].id, expected[i].id);
    EXPECT_EQ(docs[i].title, expected[i].title);
    EXPECT_EQ(docs[i].text, expected[i].text);
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, CorpusReaderAgreement, ::testing::Range<std::uint32_t>(1, 9));

// --- MS MARCO TSV ---------------------------------------------------------------------------

TEST(CorpusReaderTest, ReadsMsMarcoTsv) {
  TempDir dir;
  const auto path = dir.write("collection.tsv",
                              "0\tThe presence of communication\r\n"
                              "\n"
                              "1\ttext\twith\ttabs\n"
                              "2\t\n"
                              "3\t{\"not\": \"json\"}");
  const auto docs = readAll(path, CorpusFormat::MsMarco);
  ASSERT_EQ(docs.size(), 4u);
  EXPECT_EQ(docs[0].id, "0");
  EXPECT_EQ(docs[0].text, "The presence of communication");  // CR stripped
  EXPECT_EQ(docs[0].title, "");
  EXPECT_EQ(docs[1].text, "text\twith\ttabs");  // everything after the first tab
  EXPECT_EQ(docs[2].id, "2");
  EXPECT_EQ(docs[2].text, "");
  EXPECT_EQ(docs[3].text, "{\"not\": \"json\"}");
}

TEST(CorpusReaderTest, MsMarcoMissingTabIsAnErrorOrSkipped) {
  TempDir dir;
  const auto path = dir.write("collection.tsv", "1\tone\n2\ttwo\nthree without tab\n4\tfour\n");
  const auto docs = expectOneBadMsMarcoLine(path, ":3: missing tab between id and text");
  EXPECT_EQ(docs.size(), 3u);
  EXPECT_EQ(docs.back().id, "4");
}

// Ids go verbatim into JSON and runs, so one that is not UTF-8 is a bad line (it once made every
// JSON output of the index fail, or be invalid JSON); the text may hold such bytes (the analyzer
// replaces and counts them).
TEST(CorpusReaderTest, IdsThatAreNotUtf8AreBadLinesNamingTheByte) {
  TempDir dir;
  const auto path = dir.write("collection.tsv", "1\tone\nd\xFF" "2\ttwo\n3\tbad \xFF text is fine\n");
  const auto docs = expectOneBadMsMarcoLine(path, ":2: the id is not valid UTF-8 (byte 0xFF at byte 2 of it)");
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(docs.back().text, "bad \xFF text is fine");
  // A JSON id cannot hold such bytes: it is a syntax error already.
  const auto json = dir.write("c.jsonl", "{\"_id\":\"d\xC3\",\"text\":\"x\"}\n");
  EXPECT_EQ(readError(json, CorpusFormat::Beir).kind(), ErrorKind::BadInput);
}

// --- line reading and gzip ------------------------------------------------------------------

TEST(CorpusLineReaderTest, LinesLongerThanTheBufferAndNoFinalNewline) {
  TempDir dir;
  const std::string longLine(3'500'000, 'x');  // several read blocks
  const auto path = dir.write("lines.txt", "a\r\n" + longLine + "\n\nlast");
  LineReader lines(path);
  std::string_view line;
  ASSERT_TRUE(lines.next(line));
  EXPECT_EQ(line, "a");
  ASSERT_TRUE(lines.next(line));
  EXPECT_EQ(line.size(), longLine.size());
  EXPECT_EQ(line, longLine);
  ASSERT_TRUE(lines.next(line));
  EXPECT_EQ(line, "");
  ASSERT_TRUE(lines.next(line));
  EXPECT_EQ(line, "last");
  EXPECT_EQ(lines.lineNumber(), 4u);
  EXPECT_FALSE(lines.next(line));
  EXPECT_EQ(lines.bytesConsumed(), std::filesystem::file_size(path));
}

// A line over the limit is read through, not kept: returned empty with its length (a trailing
// '\r' not counted), plain and gzip, with and without a final newline; the lines around it read
// as usual.
TEST(CorpusLineReaderTest, LinesOverTheLimitAreCountedNotKept) {
  TempDir dir;
  const std::string longLine(3'500'000, 'x');  // several read blocks
  const std::string content = "a\n" + longLine + "\r\nb\n" + longLine;
  const auto plain = dir.write("lines.txt", content);
  writeGzip(dir / "lines.gz", content);
  for (const auto& path : {plain, dir / "lines.gz"}) {
    SCOPED_TRACE(path.filename().string());
    LineReader lines(path, 1000);
    std::string_view line;
    ASSERT_TRUE(lines.next(line));
    EXPECT_EQ(line, "a");
    EXPECT_FALSE(lines.lineTooLong());
    EXPECT_EQ(lines.lineBytes(), 1u);
    ASSERT_TRUE(lines.next(line));
    EXPECT_EQ(line, "");
    EXPECT_TRUE(lines.lineTooLong());
    EXPECT_EQ(lines.lineBytes(), longLine.size());
    EXPECT_EQ(lines.lineNumber(), 2u);
    ASSERT_TRUE(lines.next(line));
    EXPECT_EQ(line, "b");
    EXPECT_FALSE(lines.lineTooLong());
    ASSERT_TRUE(lines.next(line));
    EXPECT_TRUE(lines.lineTooLong());
    EXPECT_EQ(lines.lineBytes(), longLine.size());
    EXPECT_EQ(lines.lineNumber(), 4u);
    EXPECT_FALSE(lines.next(line));
  }
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

// The process's mapped address space (VmSize), from /proc/self/status.
std::uint64_t mappedBytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmSize:", 0) == 0) return std::stoull(line.substr(7)) * 1024;  // "VmSize:  1234 kB"
  }
  return 0;
}

// A 512 MiB line with no newline (a sparse file) and a 1 MiB document limit: refused naming the
// file, the line and its size, in a child process that cannot map 128 MiB more than it has, so
// the line is never held in memory (before the limit applied while reading, it was read whole).
TEST(CorpusReaderTest, AHugeLineIsRefusedWithoutHoldingItInMemory) {
  if (kSanitized) GTEST_SKIP() << "sanitizers reserve terabytes of address space: RLIMIT_AS cannot bound them";
  TempDir dir;
  const auto path = dir.write("huge.jsonl", "{\"_id\": \"a\", \"text\": \"small\"}\n");
  const std::uint64_t hugeBytes = std::uint64_t{512} << 20;
  std::filesystem::resize_file(path, std::filesystem::file_size(path) + hugeBytes);  // zeros, no disk
  const std::uint64_t limit = mappedBytes() + (std::uint64_t{128} << 20);
  ASSERT_GT(limit, std::uint64_t{128} << 20) << "no VmSize in /proc/self/status";
  const ProcessResult child = runWithResourceLimit(RLIMIT_AS, limit, [&] {
    CorpusReader reader(path, CorpusFormat::Beir, BadLinePolicy::Stop, std::uint64_t{1} << 20);
    Document doc;
    reader.next(doc);
    reader.next(doc);
  });
  ASSERT_EQ(child.signal, 0) << "the child crashed";
  EXPECT_EQ(child.exitCode, 1) << child.out;
  EXPECT_EQ(child.out, std::string(engine::errorKindName(ErrorKind::BadInput)) + ": " + path.string() + ":2: document of " +
                           std::to_string(hugeBytes) + " bytes is over the limit of 1048576 bytes (--max-doc-bytes)");
}

TEST(CorpusLineReaderTest, EmptyFile) {
  TempDir dir;
  const auto path = dir.write("empty.txt", "");
  LineReader lines(path);
  std::string_view line;
  EXPECT_FALSE(lines.next(line));
  EXPECT_EQ(lines.lineNumber(), 0u);
  EXPECT_EQ(lines.fileSize(), 0u);
}

std::string makeBeirCorpus(int docs) {
  std::string content;
  for (int i = 0; i < docs; ++i) {
    content += "{\"_id\": \"doc" + std::to_string(i) + "\", \"title\": \"t" + std::to_string(i) +
               "\", \"text\": \"some words about " + std::to_string(i * 7919 % 1000) + "\"}\n";
  }
  return content;
}

TEST(CorpusGzipTest, ReadsGzipByMagicWhateverTheName) {
  TempDir dir;
  const std::string content = makeBeirCorpus(20000);
  const auto plain = dir.write("corpus.jsonl", content);
  const auto gz = dir / "corpus.jsonl.gz";
  writeGzip(gz, content);
  const auto disguised = dir / "corpus-no-suffix";
  std::filesystem::copy_file(gz, disguised);

  const auto expected = readAll(plain, CorpusFormat::Beir);
  ASSERT_EQ(expected.size(), 20000u);
  for (const auto& path : {gz, disguised}) {
    CorpusReader reader(path, CorpusFormat::Beir);
    Document doc;
    std::size_t n = 0;
    std::uint64_t lastConsumed = 0;
    while (reader.next(doc)) {
      ASSERT_LT(n, expected.size());
      EXPECT_EQ(doc.id, expected[n].id);
      EXPECT_EQ(doc.text, expected[n].text);
      EXPECT_GE(reader.bytesConsumed(), lastConsumed);  // progress never goes backwards
      lastConsumed = reader.bytesConsumed();
      ++n;
    }
    EXPECT_EQ(n, expected.size());
    EXPECT_EQ(reader.lineNumber(), 20000u);
    EXPECT_EQ(reader.fileSize(), std::filesystem::file_size(gz));  // compressed size
    EXPECT_EQ(reader.bytesConsumed(), reader.fileSize());
    EXPECT_LT(reader.fileSize(), content.size());
  }
}

TEST(CorpusGzipTest, ConcatenatedMembersAndTrailingZerosAreRead) {
  TempDir dir;
  writeGzip(dir / "a.gz", "{\"_id\": \"a\", \"text\": \"one\"}\n");
  writeGzip(dir / "b.gz", "{\"_id\": \"b\", \"text\": \"two\"}");
  const auto path = dir / "both.jsonl.gz";
  writeFile(path, readFile(dir / "a.gz") + readFile(dir / "b.gz") + std::string(16, '\0'));
  const auto docs = readAll(path, CorpusFormat::Beir);
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(docs[0].id, "a");
  EXPECT_EQ(docs[1].id, "b");
  EXPECT_EQ(docs[1].text, "two");
}

TEST(CorpusGzipTest, TruncatedGzipIsACleanError) {
  TempDir dir;
  const auto full = dir / "full.gz";
  writeGzip(full, makeBeirCorpus(5000));
  const std::string bytes = readFile(full);
  for (const std::size_t keep : {bytes.size() - 4, bytes.size() / 2, std::size_t{12}}) {
    SCOPED_TRACE("kept " + std::to_string(keep) + " of " + std::to_string(bytes.size()) + " bytes");
    const auto path = dir / "truncated.jsonl.gz";
    writeFile(path, bytes.substr(0, keep));
    const Error e = readError(path, CorpusFormat::Beir);
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    EXPECT_EQ(std::string(e.what()), path.string() + ": corrupt gzip stream (unexpected end of file)");
  }
}

TEST(CorpusGzipTest, FlippedBytesAreACleanError) {
  TempDir dir;
  const auto full = dir / "full.gz";
  writeGzip(full, makeBeirCorpus(5000));
  const std::string bytes = readFile(full);
  // In the deflate data (an invalid block or wrong output caught by the CRC-32), and in the
  // trailer's CRC itself.
  for (const std::size_t at : {bytes.size() / 3, bytes.size() / 2, bytes.size() - 6}) {
    SCOPED_TRACE("flipped byte " + std::to_string(at));
    std::string damaged = bytes;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x5a);
    const auto path = dir / "damaged.jsonl.gz";
    writeFile(path, damaged);
    const Error e = readError(path, CorpusFormat::Beir);
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    const std::string prefix = path.string() + ": corrupt gzip stream (";
    EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
  }
}

// --- the shared SciFact collection ----------------------------------------------------------

TEST(CorpusScifactTest, ReadsCorpusQueriesAndQrels) {
  const std::filesystem::path dir = std::filesystem::path(WANDSCOPE_SHARED_DATA_DIR) / "scifact";
  if (!std::filesystem::exists(dir / "corpus.jsonl.gz")) {
    GTEST_SKIP() << "shared SciFact data not found at " << dir;
  }
  CorpusReader reader(dir / "corpus.jsonl.gz", CorpusFormat::Beir);
  Document doc;
  std::size_t docs = 0;
  std::size_t withTitle = 0;
  while (reader.next(doc)) {
    ++docs;
    if (!doc.title.empty()) ++withTitle;
    EXPECT_FALSE(doc.id.empty());
  }
  EXPECT_EQ(docs, 5183u);
  EXPECT_GT(withTitle, 5000u);
  EXPECT_EQ(reader.bytesConsumed(), reader.fileSize());

  const auto queries = engine::readQueries(dir / "queries.jsonl");
  EXPECT_EQ(queries.size(), 300u);

  const auto qrels = engine::readQrels(dir / "qrels.tsv");
  std::size_t rows = 0;
  std::size_t relevant = 0;
  for (const auto& [query, judged] : qrels.judgements) {
    rows += judged.size();
    for (const auto& [docId, grade] : judged) relevant += grade > 0 ? 1 : 0;
  }
  EXPECT_EQ(rows, 339u);
  EXPECT_EQ(relevant, 339u);
  EXPECT_EQ(qrels.judgements.size(), 300u);
}

}  // namespace
}  // namespace wandscope::test
