// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/corpus/corpus_generator.h"

#include "engine/core/checksum.h"
#include "engine/core/error.h"
#include "engine/text/analyzer.h"
#include "tests/support/temp_dir.h"
#include "tests/support/words.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <span>
#include <sstream>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace wandscope::test {
namespace {

using engine::CorpusGeneratorParams;
using engine::Error;
using engine::ErrorKind;
using engine::generateCorpus;
using engine::syntheticWord;

std::vector<std::string> lines(const std::string& content) {
  std::vector<std::string> result;
  std::istringstream in(content);
  for (std::string line; std::getline(in, line);) result.push_back(line);
  return result;
}

CorpusGeneratorParams smallParams() {
  CorpusGeneratorParams params;
  params.docs = 700;
  params.meanLength = 40;
  params.vocabulary = 3000;
  params.zipf = 1.0;
  params.seed = 5;
  params.threads = 2;
  return params;
}

std::string generateToString(const TempDir& dir, const CorpusGeneratorParams& params, const std::string& name) {
  const auto path = dir / name;
  generateCorpus(params, path);
  return readFile(path);
}

// The expected probability mass of 0-based ranks [from, to) under Zipf(s) over `vocabulary` ranks.
double zipfMass(std::uint64_t from, std::uint64_t to, std::uint64_t vocabulary, double s) {
  double part = 0.0;
  double total = 0.0;
  for (std::uint64_t r = 0; r < vocabulary; ++r) {
    const double w = std::pow(static_cast<double>(r + 1), -s);
    total += w;
    if (r >= from && r < to) part += w;
  }
  return part / total;
}

TEST(CorpusGenerator, SameParamsGiveIdenticalFiles) {
  TempDir dir;
  const auto params = smallParams();
  const std::string a = generateToString(dir, params, "a.jsonl");
  const std::string b = generateToString(dir, params, "b.jsonl");
  ASSERT_FALSE(a.empty());
  EXPECT_TRUE(a == b);
}

TEST(CorpusGenerator, OutputDoesNotDependOnThreadCount) {
  TempDir dir;
  auto params = smallParams();
  // Enough documents for several work batches, so three threads really interleave.
  params.docs = 9000;
  params.meanLength = 30;
  params.threads = 1;
  const std::string one = generateToString(dir, params, "one.jsonl");
  params.threads = 3;
  const std::string three = generateToString(dir, params, "three.jsonl");
  params.threads = 0;
  const std::string automatic = generateToString(dir, params, "auto.jsonl");
  EXPECT_TRUE(one == three);
  EXPECT_TRUE(one == automatic);
}

TEST(CorpusGenerator, DifferentSeedGivesDifferentCorpus) {
  TempDir dir;
  auto params = smallParams();
  const std::string a = generateToString(dir, params, "a.jsonl");
  params.seed = 6;
  const std::string b = generateToString(dir, params, "b.jsonl");
  EXPECT_FALSE(a == b);
  // Every document differs, not just one.
  const auto la = lines(a);
  const auto lb = lines(b);
  ASSERT_EQ(la.size(), lb.size());
  int same = 0;
  for (std::size_t i = 0; i < la.size(); ++i) same += la[i] == lb[i] ? 1 : 0;
  EXPECT_EQ(same, 0);
}

TEST(CorpusGenerator, SmallerCorpusIsAPrefixOfTheLargerOne) {
  // Each document has its own random stream, so `docs` only decides where the file stops.
  TempDir dir;
  auto params = smallParams();
  params.docs = 5000;
  const auto big = lines(generateToString(dir, params, "big.jsonl"));
  params.docs = 123;
  const auto small = lines(generateToString(dir, params, "small.jsonl"));
  ASSERT_EQ(small.size(), 123U);
  ASSERT_EQ(big.size(), 5000U);
  EXPECT_TRUE(std::equal(small.begin(), small.end(), big.begin()));
}

TEST(CorpusGenerator, LinesAreBeirJsonWithSequentialIds) {
  TempDir dir;
  const auto params = smallParams();
  const std::string content = generateToString(dir, params, "c.jsonl");
  ASSERT_FALSE(content.empty());
  EXPECT_EQ(content.back(), '\n');
  const auto all = lines(content);
  ASSERT_EQ(all.size(), params.docs);
  for (std::size_t i = 0; i < all.size(); ++i) {
    SCOPED_TRACE("line " + std::to_string(i + 1));
    const auto json = nlohmann::json::parse(all[i]);
    ASSERT_TRUE(json.is_object());
    EXPECT_EQ(json.size(), 3U);
    ASSERT_TRUE(json.contains("_id") && json["_id"].is_string());
    ASSERT_TRUE(json.contains("title") && json["title"].is_string());
    ASSERT_TRUE(json.contains("text") && json["text"].is_string());
    EXPECT_EQ(json["_id"].get<std::string>(), "d" + std::to_string(i));
    const auto title = splitSpaces(json["title"].get<std::string>());
    EXPECT_GE(title.size(), 2U);
    EXPECT_LE(title.size(), 8U);
    // Single spaces only: no leading, trailing or doubled separators.
    const std::string text = json["text"].get<std::string>();
    ASSERT_FALSE(text.empty());
    EXPECT_NE(text.front(), ' ');
    EXPECT_NE(text.back(), ' ');
    EXPECT_EQ(text.find("  "), std::string::npos);
  }
}

// s = 1.0 and s = 0.7 on 3,000 documents x 300 tokens over 2,000 ranks.
class CorpusGeneratorZipf : public ::testing::TestWithParam<double> {};

TEST_P(CorpusGeneratorZipf, RankFrequenciesAndLengthsFollowTheModel) {
  const double s = GetParam();
  TempDir dir;
  CorpusGeneratorParams params;
  params.docs = 3000;
  params.meanLength = 300;
  params.vocabulary = 2000;
  params.zipf = s;
  params.seed = 1234;
  params.threads = 2;
  SCOPED_TRACE("seed 1234, zipf " + std::to_string(s));
  const std::string content = generateToString(dir, params, "zipf.jsonl");

  const std::string w0 = syntheticWord(0);
  const std::string w9 = syntheticWord(9);
  std::unordered_map<std::string, std::uint64_t> counts;
  std::uint64_t tokens = 0;
  std::uint64_t shortest = UINT64_MAX;
  std::uint64_t longest = 0;
  for (const std::string& line : lines(content)) {
    const auto words = splitSpaces(nlohmann::json::parse(line)["text"].get<std::string>());
    tokens += words.size();
    shortest = std::min<std::uint64_t>(shortest, words.size());
    longest = std::max<std::uint64_t>(longest, words.size());
    for (const auto& w : words) ++counts[w];
  }
  // Mean length: lengths are log-normal with sigma 0.5 (coefficient of variation about 0.53), so
  // the mean of 3,000 lengths has a relative standard error of about 0.53 / sqrt(3000) = 1 %;
  // 4 % is four standard errors.
  const double expectedTokens = static_cast<double>(params.docs) * params.meanLength;
  EXPECT_NEAR(static_cast<double>(tokens), expectedTokens, 0.04 * expectedTokens);
  // Lengths vary (BM25 length normalisation must matter) and stay within the clamp.
  EXPECT_GE(shortest, 1U);
  EXPECT_LT(shortest, params.meanLength / 2);
  EXPECT_GT(longest, params.meanLength * 3 / 2);
  EXPECT_LE(longest, params.meanLength * 8);

  // Rank 0 vs rank 9: ratio 10^s. Rank 9 alone has probability >= 0.003 here, i.e. >= 2,700
  // occurrences in 900,000 tokens: the relative standard error of the ratio is below
  // sqrt(1/2700 + 1/27000) = 2 %; 6 % is three of those.
  const double c0 = static_cast<double>(counts[w0]);
  const double c9 = static_cast<double>(counts[w9]);
  ASSERT_GT(c9, 0.0);
  EXPECT_NEAR(c0 / c9, std::pow(10.0, s), 0.06 * std::pow(10.0, s));
  // And rank 0's share of all tokens matches its Zipf probability: >= 30,000 occurrences, a
  // relative standard error <= 0.6 %, so 3 % is five of those.
  const double p0 = zipfMass(0, 1, params.vocabulary, s);
  EXPECT_NEAR(c0 / static_cast<double>(tokens), p0, 0.03 * p0);
  // No word outside the vocabulary.
  std::unordered_set<std::string> vocabulary;
  for (std::uint32_t r = 0; r < params.vocabulary; ++r) vocabulary.insert(syntheticWord(r));
  for (const auto& [word, count] : counts) EXPECT_TRUE(vocabulary.count(word) == 1) << word;
}

INSTANTIATE_TEST_SUITE_P(Exponents, CorpusGeneratorZipf, ::testing::Values(1.0, 0.7));

// Vocabularies beyond 2^20 ranks are sampled as an alias-table head plus a rejection-inversion
// tail; the split must not distort the distribution, neither the tail's total mass nor its shape.
class CorpusGeneratorLargeVocabulary : public ::testing::TestWithParam<double> {
 protected:
  static constexpr std::uint32_t kVocabulary = 4'000'000;

  static std::uint64_t pack(const std::string& w) {
    std::uint64_t v = 0;
    for (char c : w) v = (v << 8) | static_cast<unsigned char>(c);
    return v;
  }

  // Word -> rank for every rank of the vocabulary (all words have at most 8 letters, so a word
  // packs into 64 bits), sorted by word. Built once for the suite.
  static const std::vector<std::pair<std::uint64_t, std::uint32_t>>& index() {
    static const auto table = [] {
      std::vector<std::pair<std::uint64_t, std::uint32_t>> t;
      t.reserve(kVocabulary);
      for (std::uint32_t r = 0; r < kVocabulary; ++r) t.emplace_back(pack(syntheticWord(r)), r);
      std::sort(t.begin(), t.end());
      return t;
    }();
    return table;
  }
};

TEST_P(CorpusGeneratorLargeVocabulary, HeadAndTailFollowZipf) {
  const double s = GetParam();
  constexpr std::uint32_t kHead = 1U << 20;
  TempDir dir;
  CorpusGeneratorParams params;
  params.docs = 2000;
  params.meanLength = 300;
  params.vocabulary = kVocabulary;
  params.zipf = s;
  params.seed = 99;
  SCOPED_TRACE("seed 99, zipf " + std::to_string(s));
  const std::string content = generateToString(dir, params, "large.jsonl");
  const auto& table = index();

  // Histogram over power-of-two rank bins [0,1), [1,2), [2,4), ..., [2^21, 4,000,000).
  constexpr int kBins = 23;
  const auto binOf = [](std::uint32_t rank) { return rank == 0 ? 0 : std::min(kBins - 1, static_cast<int>(std::bit_width(rank))); };
  std::vector<double> observed(kBins, 0.0);
  std::uint64_t tokens = 0;
  std::uint64_t tail = 0;
  for (const std::string& line : lines(content)) {
    for (const auto& w : splitSpaces(nlohmann::json::parse(line)["text"].get<std::string>())) {
      ASSERT_LE(w.size(), 8U) << w;
      const auto it = std::lower_bound(table.begin(), table.end(), std::make_pair(pack(w), 0U));
      ASSERT_TRUE(it != table.end() && it->first == pack(w)) << "not a vocabulary word: " << w;
      ++tokens;
      observed[static_cast<std::size_t>(binOf(it->second))] += 1;
      tail += it->second >= kHead ? 1U : 0U;
    }
  }
  // The tail's share: >= 40,000 expected of ~600,000 tokens for these exponents, a relative
  // standard error <= 0.5 %; 3 % is six of those.
  const double expectedTail = zipfMass(kHead, kVocabulary, kVocabulary, s) * static_cast<double>(tokens);
  EXPECT_NEAR(static_cast<double>(tail), expectedTail, 0.03 * expectedTail);
  // Pearson's chi-square over the 23 bins (22 degrees of freedom). A correct sampler exceeds 60
  // with probability about 2e-5, so this fails only for a real distortion (an exponent off by
  // 10 % inside the tail alone adds about 60).
  std::vector<double> weights(kBins, 0.0);
  double total = 0.0;
  for (std::uint32_t r = 0; r < kVocabulary; ++r) {
    const double w = std::pow(static_cast<double>(r) + 1.0, -s);
    weights[static_cast<std::size_t>(binOf(r))] += w;
    total += w;
  }
  double chi2 = 0.0;
  for (std::size_t b = 0; b < kBins; ++b) {
    const double expected = weights[b] / total * static_cast<double>(tokens);
    chi2 += (observed[b] - expected) * (observed[b] - expected) / expected;
  }
  EXPECT_LT(chi2, 60.0);
}

INSTANTIATE_TEST_SUITE_P(Exponents, CorpusGeneratorLargeVocabulary, ::testing::Values(1.0, 0.8));

TEST(SyntheticWord, DistinctLettersOnlyAndShortForFrequentRanks) {
  constexpr std::uint32_t kRanks = 300'000;
  std::unordered_set<std::string> seen;
  seen.reserve(kRanks);
  std::size_t previousLength = 0;
  for (std::uint32_t r = 0; r < kRanks; ++r) {
    const std::string w = syntheticWord(r);
    ASSERT_FALSE(w.empty()) << r;
    ASSERT_TRUE(std::all_of(w.begin(), w.end(), [](char c) { return c >= 'a' && c <= 'z'; })) << r << ": " << w;
    ASSERT_TRUE(seen.insert(w).second) << "rank " << r << " repeats " << w;
    ASSERT_GE(w.size(), previousLength) << r;  // never longer for a more frequent rank
    previousLength = w.size();
  }
  EXPECT_EQ(syntheticWord(0).size(), 2U);
  EXPECT_EQ(syntheticWord(99).size(), 2U);
  EXPECT_EQ(syntheticWord(100).size(), 4U);
  EXPECT_LE(syntheticWord(10'099).size(), 4U);
  // The largest ranks stay short too.
  for (std::uint32_t r : {1U << 31, UINT32_MAX - 1, UINT32_MAX}) {
    const std::string w = syntheticWord(r);
    EXPECT_LE(w.size(), 10U);
    EXPECT_TRUE(std::all_of(w.begin(), w.end(), [](char c) { return c >= 'a' && c <= 'z'; }));
  }
  EXPECT_NE(syntheticWord(UINT32_MAX), syntheticWord(UINT32_MAX - 1));
  EXPECT_EQ(syntheticWord(12345), syntheticWord(12345));
}

TEST(SyntheticWord, SurvivesThePlainAnalyzerAsOneToken) {
  engine::Analyzer analyzer(engine::AnalyzerKind::Plain);
  std::vector<std::string> out;
  std::vector<std::uint32_t> ranks;
  for (std::uint32_t r = 0; r < 300'000; ++r) ranks.push_back(r);
  for (std::uint32_t r : {1'010'100U, 1U << 20, 1U << 31, UINT32_MAX}) ranks.push_back(r);
  for (std::uint32_t r : ranks) {
    const std::string w = syntheticWord(r);
    out.clear();
    analyzer.analyze(w, out);
    ASSERT_EQ(out, std::vector<std::string>{w}) << "rank " << r;
  }
}

TEST(CorpusGenerator, RejectsBadParametersNamingThem) {
  TempDir dir;
  const auto out = dir / "bad.jsonl";
  const auto expectUsage = [&](CorpusGeneratorParams params, const std::string& name) {
    SCOPED_TRACE(name);
    try {
      generateCorpus(params, out);
      ADD_FAILURE() << "no error for bad " << name;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage);
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
    EXPECT_FALSE(std::filesystem::exists(out));
  };
  auto p = smallParams();
  p.docs = 0;
  expectUsage(p, "docs");
  p = smallParams();
  p.vocabulary = 0;
  expectUsage(p, "vocabulary");
  p = smallParams();
  p.vocabulary = (1U << 31) + 1;
  expectUsage(p, "vocabulary");
  p = smallParams();
  p.meanLength = 0;
  expectUsage(p, "meanLength");
  for (double z : {0.0, -1.0, std::nan(""), HUGE_VAL}) {
    p = smallParams();
    p.zipf = z;
    expectUsage(p, "zipf");
  }
  for (double share : {-0.1, 1.5, std::nan("")}) {
    p = smallParams();
    p.topicWords = 8;
    p.topicShare = share;
    expectUsage(p, "topicShare");
  }
  p = smallParams();
  p.topicWords = 8;
  p.topicRun = 0;
  expectUsage(p, "topicRun");
  p = smallParams();
  p.topicWords = (1U << 20) + 1;
  expectUsage(p, "topicWords");
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

// Doc ids are 32-bit: a corpus larger than an index can hold is refused. 2^64 - 1 documents
// overflowed the batch count to 0 and wrote an empty file, reporting success; 2^32 + 1 wrote
// 30 GB. (The progress callback cancels a run that starts, so the test never writes much.)
TEST(CorpusGenerator, DocsBeyondWhatAnIndexCanHoldAreRefused) {
  TempDir dir;
  const auto out = dir / "huge.jsonl";
  struct Cancelled {};
  const auto cancel = [](const engine::Progress&) { throw Cancelled{}; };
  for (const std::uint64_t docs : {std::uint64_t{engine::kMaxCorpusDocs} + 1, std::uint64_t{1} << 32,
                                   std::numeric_limits<std::uint64_t>::max()}) {
    SCOPED_TRACE(docs);
    auto p = smallParams();
    p.docs = docs;
    try {
      generateCorpus(p, out, cancel);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage);
      EXPECT_EQ(std::string(e.what()), "corpus generator: docs must be at most 4294967294 (what an index can hold), got " +
                                           std::to_string(docs));
    } catch (const Cancelled&) {
      ADD_FAILURE() << "the run started";
    }
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
  }
  // The limit itself is accepted (the run starts, and is cancelled at once).
  auto p = smallParams();
  p.docs = engine::kMaxCorpusDocs;
  EXPECT_THROW(generateCorpus(p, out, cancel), Cancelled);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

// An error about the destination names the file given, not the temporary written beside it
// ("cannot create /x/c.jsonl.tmp.4242").
TEST(CorpusGenerator, AnUnwritableDestinationIsNamedAsGiven) {
  TempDir dir;
  const auto out = dir / "missing-dir" / "c.jsonl";
  try {
    generateCorpus(smallParams(), out);
    ADD_FAILURE() << "no error for a missing directory";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Io);
    const std::string message = e.what();
    EXPECT_NE(message.find(out.string() + ":"), std::string::npos) << message;
    EXPECT_EQ(message.find(".tmp."), std::string::npos) << message;
  }
}

CorpusGeneratorParams topicParams() {
  auto params = smallParams();
  params.docs = 2000;
  params.topicWords = 8;
  params.topicShare = 0.25;
  params.topicRun = 20;
  return params;
}

// For each run of `run` consecutive documents: the largest share of the run's documents that
// hold one word that is not common in the corpus (document frequency <= 5 %); the mean over runs.
// About 0.2 without topics (a binomial tail); a topic word is in most documents of its run.
double meanTopRunShare(const std::string& corpus, std::uint64_t run) {
  std::vector<std::unordered_set<std::string>> docs;
  std::unordered_map<std::string, int> df;
  for (const auto& line : lines(corpus)) {
    const auto words = splitSpaces(nlohmann::json::parse(line)["text"].get<std::string>());
    docs.emplace_back(words.begin(), words.end());
    for (const auto& w : docs.back()) ++df[w];
  }
  double sum = 0.0;
  std::size_t runs = 0;
  for (std::size_t start = 0; start + run <= docs.size(); start += run, ++runs) {
    std::unordered_map<std::string, int> inRun;
    for (std::size_t d = start; d < start + run; ++d) {
      for (const auto& w : docs[d]) {
        if (static_cast<double>(df[w]) <= 0.05 * static_cast<double>(docs.size())) ++inRun[w];
      }
    }
    int best = 0;
    for (const auto& [w, n] : inRun) best = std::max(best, n);
    sum += best / static_cast<double>(run);
  }
  return sum / static_cast<double>(runs);
}

TEST(CorpusGenerator, TopicsMakeWordsBurstWithinTheirRun) {
  TempDir dir;
  auto params = topicParams();
  const std::string corpus = generateToString(dir, params, "on.jsonl");
  const double on = meanTopRunShare(corpus, params.topicRun);
  // Runs misaligned by half a run see two topics, each in half the documents.
  const double shifted = [&] {
    const auto text = lines(corpus);
    std::string rest;
    for (std::size_t i = params.topicRun / 2; i < text.size(); ++i) rest += text[i] + "\n";
    return meanTopRunShare(rest, params.topicRun);
  }();
  params.topicWords = 0;
  const double off = meanTopRunShare(generateToString(dir, params, "off.jsonl"), params.topicRun);
  std::printf("mean top share of a run: topics on %.3f, off %.3f, half a run shifted %.3f\n", on, off, shifted);
  EXPECT_GT(on, 0.6);
  EXPECT_LT(off, 0.35);
  EXPECT_LT(shifted, on - 0.1);
}

// Without topics the corpus is the one generated before topics existed: the CRC-32 of
// smallParams()'s file as commit 3c7a668's generator wrote it (150,124 bytes). Its 1M-document
// PERF corpus was also compared whole with cmp: identical.
TEST(CorpusGenerator, WithoutTopicsTheCorpusIsTheOneOfBeforeTopics) {
  TempDir dir;
  const std::string corpus = generateToString(dir, smallParams(), "small.jsonl");
  EXPECT_EQ(corpus.size(), 150'124U);
  EXPECT_EQ(engine::crc32Of(std::as_bytes(std::span(corpus.data(), corpus.size()))), 0x45c7e803U);
}

TEST(CorpusGenerator, WithTopicsTheOutputStillDependsOnlyOnTheDocument) {
  TempDir dir;
  auto params = topicParams();
  params.docs = 9000;
  params.meanLength = 30;
  params.topicRun = 7;  // runs straddle the generator's batches
  params.threads = 1;
  const std::string one = generateToString(dir, params, "one.jsonl");
  params.threads = 3;
  EXPECT_TRUE(one == generateToString(dir, params, "three.jsonl"));
  params.docs = 123;
  const auto small = lines(generateToString(dir, params, "small.jsonl"));
  const auto big = lines(one);
  ASSERT_EQ(small.size(), 123U);
  EXPECT_TRUE(std::equal(small.begin(), small.end(), big.begin()));
  params.docs = 9000;
  params.topicWords = 0;
  EXPECT_FALSE(one == generateToString(dir, params, "off.jsonl"));
}

TEST(CorpusGenerator, SmallestParametersWork) {
  TempDir dir;
  CorpusGeneratorParams params;
  params.docs = 3;
  params.meanLength = 1;
  params.vocabulary = 1;
  params.zipf = 0.5;
  const auto all = lines(generateToString(dir, params, "tiny.jsonl"));
  ASSERT_EQ(all.size(), 3U);
  const std::string only = syntheticWord(0);
  for (const auto& line : all) {
    const auto json = nlohmann::json::parse(line);
    for (const auto& w : splitSpaces(json["text"].get<std::string>())) EXPECT_EQ(w, only);
    for (const auto& w : splitSpaces(json["title"].get<std::string>())) EXPECT_EQ(w, only);
  }
}

TEST(CorpusGenerator, ReportsProgressInDocuments) {
  TempDir dir;
  auto params = smallParams();
  params.docs = 20000;
  params.meanLength = 20;
  std::vector<engine::Progress> reports;
  generateCorpus(params, dir / "p.jsonl", [&](const engine::Progress& p) { reports.push_back(p); });
  ASSERT_GE(reports.size(), 2U);
  std::uint64_t previous = 0;
  for (const auto& r : reports) {
    EXPECT_EQ(r.stage, "generating");
    EXPECT_EQ(r.total, params.docs);
    EXPECT_GE(r.done, previous);
    EXPECT_LE(r.done, r.total);
    previous = r.done;
  }
  EXPECT_EQ(reports.back().done, params.docs);
}

TEST(CorpusGenerator, FailureLeavesNothingBehind) {
  TempDir dir;
  auto params = smallParams();
  params.docs = 20000;
  params.meanLength = 20;
  const auto out = dir / "c.jsonl";
  // A progress callback that throws cancels the run: the exception propagates, no file appears
  // at `out` and the temporary file is removed.
  struct Cancelled {};
  EXPECT_THROW(generateCorpus(params, out, [](const engine::Progress&) { throw Cancelled{}; }), Cancelled);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));

  // An existing file is replaced only by a complete one.
  const std::string before = "old content\n";
  dir.write("c.jsonl", before);
  EXPECT_THROW(generateCorpus(params, out, [](const engine::Progress&) { throw Cancelled{}; }), Cancelled);
  EXPECT_EQ(readFile(out), before);

  // An unwritable destination is an I/O error naming the path.
  try {
    generateCorpus(params, dir / "missing-dir" / "c.jsonl");
    ADD_FAILURE() << "no error for a missing directory";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Io);
    EXPECT_NE(std::string(e.what()).find("missing-dir"), std::string::npos) << e.what();
  }
}

// Throughput check, run by hand in a Release build:
//   engine_tests --gtest_also_run_disabled_tests --gtest_filter='*DISABLED_Throughput*'
// Prints docs/s and MB/s for 1,000,000 documents x 300 tokens (vocabulary 100,000, s = 1).
TEST(CorpusGenerator, DISABLED_Throughput) {
  TempDir dir;
  CorpusGeneratorParams params;
  params.docs = 1'000'000;
  params.meanLength = 300;
  params.vocabulary = 100'000;
  params.zipf = 1.0;
  const auto out = dir / "big.jsonl";
  const auto start = std::chrono::steady_clock::now();
  generateCorpus(params, out);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto bytes = static_cast<double>(std::filesystem::file_size(out));
  std::printf("%llu docs in %.2f s: %.0f docs/s, %.1f MB/s (%.1f MB)\n",
              static_cast<unsigned long long>(params.docs), seconds,
              static_cast<double>(params.docs) / seconds, bytes / seconds / 1e6, bytes / 1e6);
}

}  // namespace
}  // namespace wandscope::test
