// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/corpus/corpus_profile.h"

#include "engine/core/error.h"
#include "engine/corpus/corpus_generator.h"
#include "tests/support/temp_dir.h"
#include "tests/support/words.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace wandscope::test {
namespace {

using engine::CorpusFormat;
using engine::CorpusProfile;
using engine::Error;
using engine::ErrorKind;

// A corpus with its brute-force statistics.
struct Recount {
  std::uint64_t docs = 0;
  std::map<std::string, std::uint64_t> df;      // bytewise order, as the profile's terms
  std::vector<std::vector<std::string>> terms;  // per document: title terms then text terms
};

Recount recountProfile(const std::filesystem::path& path) {
  Recount r;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    const auto json = nlohmann::json::parse(line);
    std::vector<std::string> terms;
    asciiTerms(json["title"].get<std::string>(), terms);
    asciiTerms(json["text"].get<std::string>(), terms);
    for (const std::string& t : std::set<std::string>(terms.begin(), terms.end())) ++r.df[t];
    r.terms.push_back(std::move(terms));
    ++r.docs;
  }
  return r;
}

std::vector<std::string> spell(const CorpusProfile& profile, const std::vector<std::uint32_t>& ids) {
  std::vector<std::string> terms;
  for (const std::uint32_t id : ids) terms.push_back(profile.terms().at(id));
  return terms;
}

class CorpusProfileTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    s_dir = std::make_unique<TempDir>();
    // 1,500 documents of ~60 tokens (log-normal lengths, so about a third are longer than 70).
    engine::CorpusGeneratorParams params;
    params.docs = 1500;
    params.meanLength = 60;
    params.vocabulary = 4000;
    params.seed = 13;
    engine::generateCorpus(params, path());
    s_recount = std::make_unique<Recount>(recountProfile(path()));
  }
  static void TearDownTestSuite() {
    s_recount.reset();
    s_dir.reset();
  }
  static std::filesystem::path path() { return *s_dir / "corpus.jsonl"; }
  static CorpusProfile scan(std::uint64_t sampleDocs, std::uint32_t minTokens, std::uint64_t seed) {
    CorpusProfile::ScanOptions options;
    options.sampleDocs = sampleDocs;
    options.minSampleTokens = minTokens;
    options.seed = seed;
    return CorpusProfile::scan(path(), CorpusFormat::Beir, options);
  }
  static std::uint64_t documentsWithAtLeast(std::size_t tokens) {
    std::uint64_t n = 0;
    for (const auto& doc : s_recount->terms) n += doc.size() >= tokens ? 1 : 0;
    return n;
  }

  static std::unique_ptr<TempDir> s_dir;
  static std::unique_ptr<Recount> s_recount;
};

std::unique_ptr<TempDir> CorpusProfileTest::s_dir;
std::unique_ptr<Recount> CorpusProfileTest::s_recount;

TEST_F(CorpusProfileTest, CountsEqualABruteForceRecount) {
  const CorpusProfile profile = scan(0, 1, 7);
  EXPECT_EQ(profile.corpus(), path());
  EXPECT_EQ(profile.documents(), s_recount->docs);
  ASSERT_EQ(profile.terms().size(), s_recount->df.size());
  std::size_t id = 0;
  for (const auto& [term, df] : s_recount->df) {
    ASSERT_EQ(profile.terms()[id], term) << "id " << id;  // sorted bytewise
    EXPECT_EQ(profile.documentFrequencyAt(static_cast<std::uint32_t>(id)), df) << term;
    EXPECT_EQ(profile.documentFrequency(term), df) << term;
    ++id;
  }
  EXPECT_EQ(profile.documentFrequency("notaword0"), 0U);
  EXPECT_EQ(profile.documentFrequency(""), 0U);
  // No sample was asked for.
  EXPECT_TRUE(profile.sampledDocuments().empty());
  EXPECT_EQ(profile.eligibleDocuments(), 0U);
  EXPECT_EQ(profile.samplerDraws(), 0U);
}

TEST_F(CorpusProfileTest, SampledDocumentsAreEligibleDocumentsOfTheCorpus) {
  const std::uint32_t minTokens = 70;
  const std::uint64_t eligible = documentsWithAtLeast(minTokens);
  ASSERT_GT(eligible, 100U);
  ASSERT_LT(eligible, s_recount->docs);
  for (const std::uint64_t seed : {1, 2, 3}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const CorpusProfile profile = scan(50, minTokens, seed);
    EXPECT_EQ(profile.eligibleDocuments(), eligible);
    ASSERT_EQ(profile.sampledDocuments().size(), 50U);
    // Algorithm R draws once per eligible document beyond the reservoir (a rejection would add one,
    // with probability ~2^-50 per draw).
    EXPECT_EQ(profile.samplerDraws(), eligible - 50);
    std::set<std::size_t> indexes;
    for (const auto& ids : profile.sampledDocuments()) {
      const auto terms = spell(profile, ids);
      EXPECT_GE(terms.size(), minTokens);
      std::size_t index = 0;
      while (index < s_recount->terms.size() && s_recount->terms[index] != terms) ++index;
      ASSERT_LT(index, s_recount->terms.size()) << "a sampled document is not in the corpus";
      indexes.insert(index);
    }
    EXPECT_EQ(indexes.size(), 50U) << "a document was sampled twice";
  }
}

TEST_F(CorpusProfileTest, SameSeedSameSampleOtherSeedOtherSample) {
  const CorpusProfile a = scan(40, 1, 21);
  const CorpusProfile b = scan(40, 1, 21);
  const CorpusProfile c = scan(40, 1, 22);
  EXPECT_EQ(a.sampledDocuments(), b.sampledDocuments());
  EXPECT_EQ(a.samplerDraws(), b.samplerDraws());
  EXPECT_NE(a.sampledDocuments(), c.sampledDocuments());
}

TEST_F(CorpusProfileTest, ReservoirLargerThanTheCorpusKeepsEveryEligibleDocumentInOrder) {
  const CorpusProfile profile = scan(1'000'000, 70, 5);
  std::vector<std::vector<std::string>> expected;
  for (const auto& doc : s_recount->terms) {
    if (doc.size() >= 70) expected.push_back(doc);
  }
  ASSERT_EQ(profile.sampledDocuments().size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(spell(profile, profile.sampledDocuments()[i]), expected[i]) << "slot " << i;
  }
  EXPECT_EQ(profile.samplerDraws(), 0U);
}

TEST_F(CorpusProfileTest, ReportsProgressInBytes) {
  std::vector<engine::Progress> reports;
  CorpusProfile::scan(path(), CorpusFormat::Beir, CorpusProfile::ScanOptions{},
                      [&](const engine::Progress& p) { reports.push_back(p); });
  ASSERT_GE(reports.size(), 2U);
  EXPECT_EQ(reports.front().done, 0U);
  EXPECT_EQ(reports.back().done, reports.back().total);
  EXPECT_EQ(reports.back().total, std::filesystem::file_size(path()));
  for (const auto& r : reports) EXPECT_EQ(r.stage, "counting");
}

TEST(CorpusProfile, CountsTitleAndTextOncePerDocument) {
  TempDir dir;
  dir.write("c.jsonl",
            "{\"_id\":\"1\",\"title\":\"Alpha beta\",\"text\":\"alpha ALPHA gamma\"}\n"
            "\n"
            "{\"_id\":\"2\",\"text\":\"beta delta\"}\n"
            "{\"_id\":\"3\",\"title\":null,\"text\":\"\"}\n");
  CorpusProfile::ScanOptions options;
  options.sampleDocs = 10;
  options.minSampleTokens = 2;
  const CorpusProfile profile = CorpusProfile::scan(dir / "c.jsonl", CorpusFormat::Beir, options);
  EXPECT_EQ(profile.documents(), 3U);
  EXPECT_EQ(profile.terms(), (std::vector<std::string>{"alpha", "beta", "delta", "gamma"}));
  EXPECT_EQ(profile.documentFrequency("alpha"), 1U);
  EXPECT_EQ(profile.documentFrequency("beta"), 2U);
  EXPECT_EQ(profile.documentFrequency("delta"), 1U);
  EXPECT_EQ(profile.documentFrequency("gamma"), 1U);
  // Documents 1 and 2 have at least 2 terms; the empty one is not eligible.
  EXPECT_EQ(profile.eligibleDocuments(), 2U);
  ASSERT_EQ(profile.sampledDocuments().size(), 2U);
  EXPECT_EQ(spell(profile, profile.sampledDocuments()[0]),
            (std::vector<std::string>{"alpha", "beta", "alpha", "alpha", "gamma"}));
  EXPECT_EQ(spell(profile, profile.sampledDocuments()[1]), (std::vector<std::string>{"beta", "delta"}));
}

TEST(CorpusProfile, EmptyOrMalformedCorpusIsBadInput) {
  TempDir dir;
  dir.write("empty.jsonl", "");
  try {
    CorpusProfile::scan(dir / "empty.jsonl", CorpusFormat::Beir, {});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    EXPECT_NE(std::string(e.what()).find("no documents"), std::string::npos) << e.what();
  }
  dir.write("bad.jsonl", "{\"_id\":\"a\",\"text\":\"x\"}\n{\"_id\":\"b\"}\n");
  try {
    CorpusProfile::scan(dir / "bad.jsonl", CorpusFormat::Beir, {});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    EXPECT_NE(std::string(e.what()).find("bad.jsonl:2:"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace wandscope::test
