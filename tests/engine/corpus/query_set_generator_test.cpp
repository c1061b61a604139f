// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/corpus/query_set_generator.h"

#include "engine/core/error.h"
#include "engine/corpus/corpus_generator.h"
#include "tests/support/temp_dir.h"
#include "tests/support/words.h"

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

// A corpus with its brute-force statistics.
struct RecountedCorpus {
  std::filesystem::path path;
  std::uint64_t docs = 0;
  std::map<std::string, std::uint64_t> df;
  std::vector<std::vector<std::string>> terms;  // per document: title terms then text terms
};

RecountedCorpus recountCorpus(const std::filesystem::path& path) {
  RecountedCorpus corpus;
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

double dfFraction(const RecountedCorpus& corpus, const std::string& term) {
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
    s_corpus = std::make_unique<RecountedCorpus>(recountCorpus(*s_dir / "corpus.jsonl"));
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
  static std::unique_ptr<RecountedCorpus> s_corpus;
};

std::unique_ptr<TempDir> QuerySetGeneratorTest::s_dir;
std::unique_ptr<RecountedCorpus> QuerySetGeneratorTest::s_corpus;

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

// The sets generateQuerySet(corpus, ...) drew before CorpusProfile existed (recorded with that
// version from this fixture's corpus): the wrapper must keep drawing them.
TEST_F(QuerySetGeneratorTest, KeepsTheSetsOfEarlierVersions) {
  const std::vector<std::pair<QuerySetParams, std::vector<std::string>>> pinned = {
      {{QueryCategory::MidDf, 3, 4, 7}, {"muri muhu juca", "diko wavi yehe", "koxo rulo dizo", "muro zile hibo"}},
      {{QueryCategory::Rare, 3, 4, 7}, {"vohe bima fotu", "gilo wima hezo", "gidu fodu sisa", "fasa gibu gigu"}},
      {{QueryCategory::RareCommon, 3, 4, 7}, {"cawe po vohe", "ji gita hezo", "fefa cato gibu", "to mota luce"}},
      {{QueryCategory::Sequential, 3, 4, 7}, {"ko hiki fe", "nixo feha fe", "fera ni ruhu", "wa se yo"}},
      {{QueryCategory::Sequential, 2, 4, 99}, {"wawu lo", "no cuyo", "wa fecu", "diza vovo"}},
  };
  for (const auto& [params, texts] : pinned) {
    SCOPED_TRACE(std::string(engine::queryCategoryName(params.category)) + "-" + std::to_string(params.tokens) +
                 ", seed " + std::to_string(params.seed));
    const auto queries = engine::generateQuerySet(s_corpus->path, CorpusFormat::Beir, params);
    ASSERT_EQ(queries.size(), texts.size());
    for (std::size_t i = 0; i < texts.size(); ++i) EXPECT_EQ(queries[i].text, texts[i]) << i;
  }
}

TEST_F(QuerySetGeneratorTest, OneProfileGivesTheSetsOfSeparateScans) {
  // A profile for a mixed list (with a reservoir for the sequential sets): the pool categories do
  // not depend on the reservoir, so each set equals the one drawn from its own scan.
  std::vector<QuerySetParams> sets;
  std::uint64_t seed = 40;
  for (auto category : {QueryCategory::MidDf, QueryCategory::Sequential, QueryCategory::Rare, QueryCategory::RareCommon}) {
    for (std::uint32_t tokens = 2; tokens <= 5; tokens += 3) sets.push_back({category, tokens, 50, seed++});
  }
  const auto options = engine::scanOptionsFor(sets);
  EXPECT_EQ(options.sampleDocs, 400U);
  const auto profile = engine::CorpusProfile::scan(s_corpus->path, CorpusFormat::Beir, options);
  ASSERT_EQ(profile.sampledDocuments().size(), 400U);
  for (const auto& params : sets) {
    if (params.category == QueryCategory::Sequential) continue;
    SCOPED_TRACE(std::string(engine::queryCategoryName(params.category)) + "-" + std::to_string(params.tokens) +
                 ", seed " + std::to_string(params.seed));
    const auto shared = engine::generateQuerySet(profile, params);
    const auto separate = engine::generateQuerySet(s_corpus->path, CorpusFormat::Beir, params);
    ASSERT_EQ(shared.size(), separate.size());
    for (std::size_t i = 0; i < shared.size(); ++i) {
      EXPECT_EQ(shared[i].id, separate[i].id);
      EXPECT_EQ(shared[i].text, separate[i].text);
    }
  }
}

TEST_F(QuerySetGeneratorTest, WrapperIsScanPlusDrawForEveryCategory) {
  for (auto category : {QueryCategory::MidDf, QueryCategory::Rare, QueryCategory::RareCommon, QueryCategory::Sequential}) {
    SCOPED_TRACE(engine::queryCategoryName(category));
    const QuerySetParams params{category, 3, 40, 5};
    const auto profile = engine::CorpusProfile::scan(s_corpus->path, CorpusFormat::Beir, engine::scanOptionsFor({params}));
    const auto drawn = engine::generateQuerySet(profile, params);
    const auto wrapped = engine::generateQuerySet(s_corpus->path, CorpusFormat::Beir, params);
    ASSERT_EQ(drawn.size(), wrapped.size());
    for (std::size_t i = 0; i < drawn.size(); ++i) EXPECT_EQ(drawn[i].text, wrapped[i].text) << i;
  }
}

TEST_F(QuerySetGeneratorTest, SequentialSetsOfOneProfileDifferBySeed) {
  std::vector<QuerySetParams> sets;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) sets.push_back({QueryCategory::Sequential, 3, 30, seed});
  const auto profile = engine::CorpusProfile::scan(s_corpus->path, CorpusFormat::Beir, engine::scanOptionsFor(sets));
  std::vector<std::vector<QueryRecord>> drawn;
  for (const auto& params : sets) {
    SCOPED_TRACE("seed " + std::to_string(params.seed));
    drawn.push_back(engine::generateQuerySet(profile, params));
    checkShape(drawn.back(), QueryCategory::Sequential, 3, 30);
    // Deterministic per (profile, seed).
    const auto again = engine::generateQuerySet(profile, params);
    for (std::size_t i = 0; i < again.size(); ++i) EXPECT_EQ(again[i].text, drawn.back()[i].text);
  }
  for (std::size_t a = 0; a < drawn.size(); ++a) {
    for (std::size_t b = a + 1; b < drawn.size(); ++b) {
      int same = 0;
      for (std::size_t i = 0; i < drawn[a].size(); ++i) same += drawn[a][i].text == drawn[b][i].text ? 1 : 0;
      EXPECT_LT(same, 3) << "seeds " << sets[a].seed << " and " << sets[b].seed;
    }
  }
  // A profile of another seed samples other documents.
  auto options = engine::scanOptionsFor(sets);
  options.seed += 1;
  const auto other = engine::CorpusProfile::scan(s_corpus->path, CorpusFormat::Beir, options);
  EXPECT_NE(other.sampledDocuments(), profile.sampledDocuments());
}

TEST_F(QuerySetGeneratorTest, SequentialNeedsAProfileWithASample) {
  const auto profile = engine::CorpusProfile::scan(s_corpus->path, CorpusFormat::Beir, engine::CorpusProfile::ScanOptions{});
  try {
    engine::generateQuerySet(profile, QuerySetParams{QueryCategory::Sequential, 2, 10, 7});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(std::string(e.what()).find("sampleDocs"), std::string::npos) << e.what();
  }
  // The other categories need no sample.
  EXPECT_EQ(engine::generateQuerySet(profile, QuerySetParams{QueryCategory::Rare, 2, 10, 7}).size(), 10U);
}

TEST(QuerySetGenerator, ScanOptionsForSizesTheReservoirForTheSequentialSets) {
  using engine::scanOptionsFor;
  auto options = scanOptionsFor({{QueryCategory::Sequential, 3, 100, 9}});
  EXPECT_EQ(options.sampleDocs, 400U);
  EXPECT_EQ(options.minSampleTokens, 3U);
  EXPECT_EQ(options.seed, 9U);
  options = scanOptionsFor({{QueryCategory::Sequential, 1, 10'000, 9}});
  EXPECT_EQ(options.sampleDocs, 16'384U);  // the memory cap
  options = scanOptionsFor({{QueryCategory::MidDf, 2, 100, 3}, {QueryCategory::Rare, 1, 100, 4}});
  EXPECT_EQ(options.sampleDocs, 0U);
  EXPECT_EQ(options.seed, 3U);
  options = scanOptionsFor({{QueryCategory::MidDf, 1, 100, 1000},
                            {QueryCategory::Sequential, 5, 100, 1001},
                            {QueryCategory::Sequential, 2, 50, 1002}});
  EXPECT_EQ(options.sampleDocs, 600U);
  EXPECT_EQ(options.minSampleTokens, 2U);
  EXPECT_EQ(options.seed, 1000U);
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
