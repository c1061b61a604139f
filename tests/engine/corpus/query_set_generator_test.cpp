// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/corpus/query_set_generator.h"

#include "engine/core/error.h"
#include "engine/corpus/corpus_generator.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace wandscope::test {
namespace {

using engine::CorpusFormat;
using engine::Error;
using engine::ErrorKind;
using engine::QueryCategory;
using engine::QueryRecord;
using engine::QuerySetParams;

std::vector<std::string> splitSpaces(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

// Terms of a text, recounted without the engine's analyzer: lowercased runs of ASCII letters and
// digits (the generated corpora are ASCII, where this is exactly the plain analyzer's rule).
void asciiTerms(const std::string& text, std::vector<std::string>& out) {
  std::string term;
  for (char c : text) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
      term += c;
    } else if (c >= 'A' && c <= 'Z') {
      term += static_cast<char>(c - 'A' + 'a');
    } else if (!term.empty()) {
      out.push_back(term);
      term.clear();
    }
  }
  if (!term.empty()) out.push_back(term);
}

// A corpus with its brute-force statistics.
struct Corpus {
  std::filesystem::path path;
  std::uint64_t docs = 0;
  std::map<std::string, std::uint64_t> df;
  std::vector<std::vector<std::string>> terms;  // per document: title terms then text terms
};

Corpus recount(const std::filesystem::path& path) {
  Corpus corpus;
  corpus.path = path;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    const auto json = nlohmann::json::parse(line);
    std::vector<std::string> terms;
    asciiTerms(json["title"].get<std::string>(), terms);
    asciiTerms(json["text"].get<std::string>(), terms);
    for (const std::string& t : std::set<std::string>(terms.begin(), terms.end())) ++corpus.df[t];
    corpus.terms.push_back(std::move(terms));
    ++corpus.docs;
  }
  return corpus;
}

double dfFraction(const Corpus& corpus, const std::string& term) {
  const auto it = corpus.df.find(term);
  return it == corpus.df.end() ? 0.0 : static_cast<double>(it->second) / static_cast<double>(corpus.docs);
}
// The category ranges, inclusive (a tiny epsilon absorbs the division's rounding).
bool isMid(double f) { return f >= 0.01 - 1e-12 && f <= 0.06 + 1e-12; }
bool isRare(double f) { return f >= 0.0002 - 1e-12 && f <= 0.003 + 1e-12; }
bool isCommon(double f) { return f > 0.06; }

class QuerySetGeneratorTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    s_dir = std::make_unique<TempDir>();
    // 2,000 documents of ~100 tokens over 5,000 ranks (s = 1): about 900 mid-df terms, well over
    // 1,000 rare ones (df 1..6) and ~150 common ones.
    engine::CorpusGeneratorParams params;
    params.docs = 2000;
    params.meanLength = 100;
    params.vocabulary = 5000;
    params.zipf = 1.0;
    params.seed = 11;
    engine::generateCorpus(params, *s_dir / "corpus.jsonl");
    s_corpus = std::make_unique<Corpus>(recount(*s_dir / "corpus.jsonl"));
  }
  static void TearDownTestSuite() {
    s_corpus.reset();
    s_dir.reset();
  }

  static std::vector<QueryRecord> generate(QueryCategory category, std::uint32_t tokens, std::uint32_t count,
                                           std::uint64_t seed = 7) {
    QuerySetParams params;
    params.category = category;
    params.tokens = tokens;
    params.count = count;
    params.seed = seed;
    return engine::generateQuerySet(s_corpus->path, CorpusFormat::Beir, params);
  }

  // Shared checks: count, ids, distinct tokens.
  static void checkShape(const std::vector<QueryRecord>& queries, QueryCategory category, std::uint32_t tokens,
                         std::uint32_t count) {
    ASSERT_EQ(queries.size(), count);
    for (std::size_t i = 0; i < queries.size(); ++i) {
      EXPECT_EQ(queries[i].id, std::string(engine::queryCategoryName(category)) + "-" + std::to_string(tokens) +
                                   "-" + std::to_string(i + 1));
      const auto words = splitSpaces(queries[i].text);
      ASSERT_EQ(words.size(), tokens) << queries[i].text;
      EXPECT_EQ(std::set<std::string>(words.begin(), words.end()).size(), tokens) << queries[i].text;
      // Joined by single spaces.
      std::string joined;
      for (const auto& w : words) joined += (joined.empty() ? "" : " ") + w;
      EXPECT_EQ(joined, queries[i].text);
    }
  }

  static std::unique_ptr<TempDir> s_dir;
  static std::unique_ptr<Corpus> s_corpus;
};

std::unique_ptr<TempDir> QuerySetGeneratorTest::s_dir;
std::unique_ptr<Corpus> QuerySetGeneratorTest::s_corpus;

TEST_F(QuerySetGeneratorTest, MidDfTokensHaveMidDocumentFrequency) {
  for (std::uint32_t tokens = 1; tokens <= 5; ++tokens) {
    SCOPED_TRACE("mid-df, " + std::to_string(tokens) + " tokens, seed 7");
    const auto queries = generate(QueryCategory::MidDf, tokens, 60);
    checkShape(queries, QueryCategory::MidDf, tokens, 60);
    for (const auto& q : queries) {
      for (const auto& w : splitSpaces(q.text)) EXPECT_TRUE(isMid(dfFraction(*s_corpus, w))) << w;
    }
  }
}

TEST_F(QuerySetGeneratorTest, RareTokensHaveRareDocumentFrequency) {
  for (std::uint32_t tokens = 1; tokens <= 5; ++tokens) {
    SCOPED_TRACE("rare, " + std::to_string(tokens) + " tokens, seed 7");
    const auto queries = generate(QueryCategory::Rare, tokens, 60);
    checkShape(queries, QueryCategory::Rare, tokens, 60);
    for (const auto& q : queries) {
      for (const auto& w : splitSpaces(q.text)) EXPECT_TRUE(isRare(dfFraction(*s_corpus, w))) << w;
    }
  }
}

TEST_F(QuerySetGeneratorTest, RareCommonHasBothKinds) {
  for (std::uint32_t tokens = 2; tokens <= 5; ++tokens) {
    SCOPED_TRACE("rare+common, " + std::to_string(tokens) + " tokens, seed 7");
    const auto queries = generate(QueryCategory::RareCommon, tokens, 60);
    checkShape(queries, QueryCategory::RareCommon, tokens, 60);
    for (const auto& q : queries) {
      int rare = 0;
      int common = 0;
      for (const auto& w : splitSpaces(q.text)) {
        const double f = dfFraction(*s_corpus, w);
        EXPECT_TRUE(isRare(f) || isCommon(f)) << w << " df " << f;
        rare += isRare(f) ? 1 : 0;
        common += isCommon(f) ? 1 : 0;
      }
      EXPECT_GE(rare, 1) << q.text;
      EXPECT_GE(common, 1) << q.text;
    }
  }
}

TEST_F(QuerySetGeneratorTest, SequentialQueriesAreConsecutiveTermsOfADocument) {
  for (std::uint32_t tokens = 1; tokens <= 5; ++tokens) {
    SCOPED_TRACE("sequential, " + std::to_string(tokens) + " tokens, seed 7");
    const auto queries = generate(QueryCategory::Sequential, tokens, 40);
    checkShape(queries, QueryCategory::Sequential, tokens, 40);
    for (const auto& q : queries) {
      const auto words = splitSpaces(q.text);
      bool found = false;
      for (const auto& doc : s_corpus->terms) {
        if (std::search(doc.begin(), doc.end(), words.begin(), words.end()) != doc.end()) {
          found = true;
          break;
        }
      }
      EXPECT_TRUE(found) << q.text;
    }
  }
}

TEST_F(QuerySetGeneratorTest, QueriesOfASetAreDistinct) {
  // The pools are large here, so no combination needs to repeat.
  for (auto category : {QueryCategory::MidDf, QueryCategory::Rare, QueryCategory::RareCommon, QueryCategory::Sequential}) {
    SCOPED_TRACE(engine::queryCategoryName(category));
    const auto queries = generate(category, 2, 100);
    std::set<std::set<std::string>> seen;
    for (const auto& q : queries) {
      const auto words = splitSpaces(q.text);
      EXPECT_TRUE(seen.insert(std::set<std::string>(words.begin(), words.end())).second || category == QueryCategory::Sequential)
          << q.text;
    }
  }
}

TEST_F(QuerySetGeneratorTest, SameSeedSameSetOtherSeedOtherSet) {
  for (auto category : {QueryCategory::MidDf, QueryCategory::Rare, QueryCategory::RareCommon, QueryCategory::Sequential}) {
    SCOPED_TRACE(engine::queryCategoryName(category));
    const auto a = generate(category, 3, 30, 21);
    const auto b = generate(category, 3, 30, 21);
    const auto c = generate(category, 3, 30, 22);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].id, b[i].id);
      EXPECT_EQ(a[i].text, b[i].text);
    }
    int same = 0;
    for (std::size_t i = 0; i < a.size(); ++i) same += a[i].text == c[i].text ? 1 : 0;
    EXPECT_LT(same, 3);
  }
}

TEST_F(QuerySetGeneratorTest, SmallPoolRepeatsOnlyWhenUnavoidable) {
  // Ask for more single-token mid-df queries than there are mid-df terms: every term appears
  // before any repeats.
  std::set<std::string> pool;
  for (const auto& [term, df] : s_corpus->df) {
    if (isMid(static_cast<double>(df) / static_cast<double>(s_corpus->docs))) pool.insert(term);
  }
  ASSERT_GT(pool.size(), 10U);
  const auto count = static_cast<std::uint32_t>(pool.size() + 5);
  const auto queries = generate(QueryCategory::MidDf, 1, count);
  ASSERT_EQ(queries.size(), count);
  std::set<std::string> firstPart;
  for (std::size_t i = 0; i < pool.size(); ++i) firstPart.insert(queries[i].text);
  EXPECT_EQ(firstPart, pool);
}

TEST_F(QuerySetGeneratorTest, RejectsBadParameters) {
  const auto expectUsage = [](QueryCategory category, std::uint32_t tokens, std::uint32_t count,
                              const std::string& mention) {
    SCOPED_TRACE(mention);
    try {
      generate(category, tokens, count);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage);
      EXPECT_NE(std::string(e.what()).find(mention), std::string::npos) << e.what();
    }
  };
  expectUsage(QueryCategory::MidDf, 0, 10, "tokens");
  expectUsage(QueryCategory::MidDf, 6, 10, "tokens");
  expectUsage(QueryCategory::RareCommon, 1, 10, "rare+common");
  expectUsage(QueryCategory::Rare, 2, 0, "count");
}

TEST(QuerySetGenerator, TooFewEligibleTermsIsBadInput) {
  TempDir dir;
  // 10 documents: the rare range [0.02 %, 0.3 %] of 10 is below one document, so nothing qualifies.
  engine::CorpusGeneratorParams params;
  params.docs = 10;
  params.meanLength = 50;
  params.vocabulary = 500;
  engine::generateCorpus(params, dir / "tiny.jsonl");
  for (auto category : {QueryCategory::Rare, QueryCategory::RareCommon}) {
    QuerySetParams qp;
    qp.category = category;
    qp.tokens = 2;
    try {
      engine::generateQuerySet(dir / "tiny.jsonl", CorpusFormat::Beir, qp);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      const std::string message = e.what();
      EXPECT_EQ(e.kind(), ErrorKind::BadInput);
      EXPECT_NE(message.find(engine::queryCategoryName(category)), std::string::npos) << message;
      EXPECT_NE(message.find("[0.02 %, 0.3 %]"), std::string::npos) << message;
      EXPECT_NE(message.find(" 0 "), std::string::npos) << message;  // how many qualified
    }
  }
  // A corpus of one-term documents has no two-term window for sequential queries.
  dir.write("short.jsonl", "{\"_id\":\"a\",\"text\":\"alpha\"}\n{\"_id\":\"b\",\"text\":\"beta\"}\n");
  QuerySetParams qp;
  qp.category = QueryCategory::Sequential;
  qp.tokens = 2;
  try {
    engine::generateQuerySet(dir / "short.jsonl", CorpusFormat::Beir, qp);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    EXPECT_NE(std::string(e.what()).find("sequential"), std::string::npos) << e.what();
  }
  // An empty corpus.
  dir.write("empty.jsonl", "");
  qp.category = QueryCategory::MidDf;
  try {
    engine::generateQuerySet(dir / "empty.jsonl", CorpusFormat::Beir, qp);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
  }
}

TEST(QuerySetGenerator, CountsTitleAndTextTogetherOncePerDocument) {
  // Hand-made corpus, 100 documents: "x" is in the title of doc 0 only (df 1 = 1 %, mid-df even
  // though it appears 5 times there); "y" is in 3 texts (3 %); "z" in every document (common).
  TempDir dir;
  std::string content;
  for (int i = 0; i < 100; ++i) {
    std::string title = i == 0 ? "X x x" : "z";
    std::string text = i == 0 ? "x x z" : (i < 4 ? "y z Y" : "z");
    content += "{\"_id\":\"" + std::to_string(i) + "\",\"title\":\"" + title + "\",\"text\":\"" + text + "\"}\n";
  }
  dir.write("c.jsonl", content);
  QuerySetParams qp;
  qp.category = QueryCategory::MidDf;
  qp.tokens = 2;
  qp.count = 3;  // only one combination exists: it repeats
  const auto queries = engine::generateQuerySet(dir / "c.jsonl", CorpusFormat::Beir, qp);
  ASSERT_EQ(queries.size(), 3U);
  for (const auto& q : queries) {
    const auto words = splitSpaces(q.text);
    EXPECT_EQ(std::set<std::string>(words.begin(), words.end()), (std::set<std::string>{"x", "y"})) << q.text;
  }
  qp.tokens = 3;
  EXPECT_THROW(engine::generateQuerySet(dir / "c.jsonl", CorpusFormat::Beir, qp), Error);
}

TEST(QuerySetGenerator, SequentialRepeatsOnlyAfterEveryWindowWasUsed) {
  // Valid 2-term windows: "a b", "b c" (doc 1; "c c" has a repeat) and "d e" (doc 2, the window
  // spanning its title and text). Doc 3 is too short.
  TempDir dir;
  dir.write("c.jsonl",
            "{\"_id\":\"1\",\"text\":\"a b c c\"}\n"
            "{\"_id\":\"2\",\"title\":\"d\",\"text\":\"e\"}\n"
            "{\"_id\":\"3\",\"text\":\"f\"}\n");
  QuerySetParams qp;
  qp.category = QueryCategory::Sequential;
  qp.tokens = 2;
  qp.count = 7;
  const auto queries = engine::generateQuerySet(dir / "c.jsonl", CorpusFormat::Beir, qp);
  ASSERT_EQ(queries.size(), 7U);
  const std::set<std::string> all = {"a b", "b c", "d e"};
  for (std::size_t round = 0; round < 2; ++round) {
    std::set<std::string> seen;
    for (std::size_t i = 3 * round; i < 3 * round + 3; ++i) seen.insert(queries[i].text);
    EXPECT_EQ(seen, all) << "round " << round;
  }
  EXPECT_EQ(all.count(queries[6].text), 1U) << queries[6].text;
}

TEST(QuerySetGenerator, ReportsProgress) {
  TempDir dir;
  engine::CorpusGeneratorParams params;
  params.docs = 500;
  params.meanLength = 20;
  params.vocabulary = 300;
  engine::generateCorpus(params, dir / "c.jsonl");
  QuerySetParams qp;
  qp.category = QueryCategory::Sequential;
  std::vector<engine::Progress> reports;
  engine::generateQuerySet(dir / "c.jsonl", CorpusFormat::Beir, qp,
                           [&](const engine::Progress& p) { reports.push_back(p); });
  ASSERT_FALSE(reports.empty());
  EXPECT_EQ(reports.back().done, reports.back().total);
  for (const auto& r : reports) EXPECT_EQ(r.stage, "counting");
}

TEST(QueryCategory, NamesRoundTrip) {
  for (auto category : {QueryCategory::MidDf, QueryCategory::Rare, QueryCategory::RareCommon, QueryCategory::Sequential}) {
    EXPECT_EQ(engine::parseQueryCategory(engine::queryCategoryName(category)), category);
  }
  EXPECT_STREQ(engine::queryCategoryName(QueryCategory::RareCommon), "rare+common");
  try {
    engine::parseQueryCategory("common");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    const std::string message = e.what();
    for (const char* name : {"mid-df", "rare", "rare+common", "sequential", "common"}) {
      EXPECT_NE(message.find(name), std::string::npos) << message;
    }
  }
}

TEST(WriteQueriesJsonl, WritesOneEscapedObjectPerLine) {
  TempDir dir;
  const std::vector<QueryRecord> queries = {{"mid-df-2-1", "fe no"}, {"q\"2", "back\\slash \"quoted\" \xc3\xa9t\xc3\xa9"}};
  const auto out = dir / "q.jsonl";
  engine::writeQueriesJsonl(queries, out);
  std::ifstream in(out);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 2U);
  EXPECT_EQ(lines[0], R"({"_id":"mid-df-2-1","text":"fe no"})");
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto json = nlohmann::json::parse(lines[i]);
    EXPECT_EQ(json["_id"].get<std::string>(), queries[i].id);
    EXPECT_EQ(json["text"].get<std::string>(), queries[i].text);
  }
  // Replaced atomically: no temporary files left beside it.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), std::filesystem::directory_iterator()), 1);
}

}  // namespace
}  // namespace wandscope::test
