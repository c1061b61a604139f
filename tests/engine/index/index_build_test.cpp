// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/core/error.h"
#include "engine/index/index.h"
#include "engine/index/index_builder.h"
#include "engine/query/searcher.h"
#include "tests/support/brute_force.h"
#include "tests/support/test_index.h"

#include <gtest/gtest.h>

#include <bit>
#include <fstream>
#include <random>

namespace wandscope::test {
namespace {

using engine::ErrorKind;

TEST(IndexBuild, RoundTripsStatisticsIdsAndStoredText) {
  std::vector<engine::Document> docs = {
      {"alpha", "First Title", "the quick brown fox"},
      {"beta", "", "quick quick fox jumps"},
      {"gamma", "Ünïcode", "naïve café ΑΒΓ"},
  };
  const auto t = buildTestIndex(docs);
  const auto& index = *t->index;
  EXPECT_EQ(index.docCount(), 3u);
  const auto stats = index.statistics();
  // title + text tokens: 2+4, 0+4, 1+3
  EXPECT_EQ(stats.totalTokens, 14u);
  EXPECT_FLOAT_EQ(stats.avgdl, static_cast<float>(14.0 / 3.0));
  EXPECT_EQ(index.docLength(0), 6u);
  EXPECT_EQ(index.docLength(2), 4u);
  const auto quick = index.findTerm("quick");
  ASSERT_TRUE(quick);
  EXPECT_EQ(index.term(*quick).df, 2u);
  EXPECT_EQ(index.term(*quick).cf, 3u);
  EXPECT_TRUE(index.findTerm("café"));
  EXPECT_TRUE(index.findTerm("αβγ")) << "lowercased";
  EXPECT_TRUE(index.findTerm("ünïcode"));
  EXPECT_FALSE(index.findTerm("Quick"));
  EXPECT_EQ(index.externalId(0), "alpha");
  EXPECT_EQ(index.externalId(2), "gamma");
  const auto stored = index.storedDocument(2);
  EXPECT_EQ(stored.title, "Ünïcode");
  EXPECT_EQ(stored.text, "naïve café ΑΒΓ");
  EXPECT_EQ(index.manifest().analyzer, "plain/1");
}

// Every term is found by its text, whatever its length (the term table keeps 22 bytes in a slot)
// and however many segments hold it; near misses are not.
TEST(IndexBuild, EveryTermIsFoundByItsTextAcrossSegments) {
  std::vector<engine::Document> docs = {
      {"a", "", "supercalifragilisticexpialidocious fox"},
      {"b", "", "supercalifragilisticexpialidociousness fox hound"},
      {"c", "", "twentytwocharacterterm twentythreecharacterterm fox"},
  };
  engine::IndexBuildOptions options;
  options.segmentDocs = 1;
  const auto t = buildTestIndex(docs, options);
  const auto& index = *t->index;
  ASSERT_EQ(index.segments().size(), 3u);
  for (engine::TermId id = 0; id < index.termCount(); ++id) {
    const auto found = index.findTerm(index.term(id).text);
    ASSERT_TRUE(found) << index.term(id).text;
    EXPECT_EQ(*found, id) << index.term(id).text;
  }
  EXPECT_EQ(index.term(*index.findTerm("fox")).partCount, 3u);
  for (const char* absent : {"supercalifragilisticexpialidociou", "supercalifragilisticexpialidociousnes",
                             "twentytwocharactertern", "twentythreecharactertern", "fo", ""}) {
    EXPECT_FALSE(index.findTerm(absent)) << absent;
  }
}

TEST(IndexBuild, StoredTextOfEveryDocumentAcrossChunksAndSegments) {
  const auto docs = randomCorpus(77, {.docs = 300, .vocabulary = 50, .maxLength = 20, .duplicateFraction = 0});
  engine::IndexBuildOptions options;
  options.segmentDocs = 70;
  const auto t = buildTestIndex(docs, options);
  for (engine::DocId d = 0; d < docs.size(); ++d) {
    ASSERT_EQ(t->index->externalId(d), docs[d].id);
    ASSERT_EQ(t->index->storedDocument(d).text, docs[d].text) << "doc " << d;
  }
  EXPECT_EQ(t->index->segments().size(), 5u);
}

TEST(IndexBuild, WithoutStoredText) {
  engine::IndexBuildOptions options;
  options.storeText = false;
  const auto t = buildTestIndex(corpusFromDsl("a: one two / b: two"), options);
  EXPECT_EQ(t->index->storedDocument(1).text, "");
  EXPECT_EQ(t->index->externalId(1), "b");
}

// Scores and tie order must not depend on how the corpus was cut into segments or how many
// threads built it: statistics are global and doc ids follow corpus order.
TEST(IndexBuild, ResultsDoNotDependOnSegmentsOrThreads) {
  const std::uint64_t seed = 31337;
  SCOPED_TRACE("seed " + std::to_string(seed));
  const auto docs = randomCorpus(seed, {.docs = 700, .vocabulary = 120, .maxLength = 40, .duplicateFraction = 0.2});
  struct Layout {
    std::uint32_t segmentDocs;
    unsigned threads;
  };
  std::vector<std::unique_ptr<TestIndex>> indexes;
  for (const Layout l : {Layout{65536, 1}, Layout{9, 2}, Layout{33, 3}, Layout{250, 2}}) {
    engine::IndexBuildOptions options;
    options.segmentDocs = l.segmentDocs;
    options.threads = l.threads;
    indexes.push_back(buildTestIndex(docs, options));
  }
  EXPECT_EQ(indexes[1]->index->segments().size(), 78u);
  std::mt19937_64 rng(seed);
  for (int q = 0; q < 50; ++q) {
    engine::SearchRequest r;
    r.text = randomQuery(rng, {.docs = 700, .vocabulary = 120}, 4);
    r.k = 50;
    r.op = q % 2 == 0 ? engine::Operator::Or : engine::Operator::And;
    const auto reference = engine::search(*indexes[0]->index, r).hits;
    for (std::size_t i = 1; i < indexes.size(); ++i) {
      const auto hits = engine::search(*indexes[i]->index, r).hits;
      ASSERT_EQ(hits.size(), reference.size()) << r.text;
      for (std::size_t h = 0; h < hits.size(); ++h) {
        ASSERT_EQ(hits[h].doc, reference[h].doc) << r.text << " layout " << i;
        ASSERT_EQ(std::bit_cast<std::uint32_t>(hits[h].score), std::bit_cast<std::uint32_t>(reference[h].score));
      }
    }
  }
  // Term statistics agree too.
  for (engine::TermId id = 0; id < indexes[0]->index->termCount(); ++id) {
    const auto& a = indexes[0]->index->term(id);
    const auto other = indexes[2]->index->findTerm(a.text);
    ASSERT_TRUE(other);
    EXPECT_EQ(indexes[2]->index->term(*other).df, a.df);
    EXPECT_EQ(indexes[2]->index->term(*other).maxWeight, a.maxWeight);
  }
}

// Chunks and segments are cut at fixed document counts and written in doc order, so the segment
// files do not depend on how many threads built them.
TEST(IndexBuild, SegmentFilesAreByteIdenticalWhateverTheThreadCount) {
  const auto docs = randomCorpus(99, {.docs = 20000, .vocabulary = 500, .maxLength = 30, .duplicateFraction = 0.1});
  std::vector<engine::Manifest> manifests;
  for (unsigned threads : {1u, 3u}) {
    engine::IndexBuildOptions options;
    options.threads = threads;
    options.segmentDocs = 12000;  // two segments, the first of two chunks
    manifests.push_back(buildTestIndex(docs, options)->index->manifest());
  }
  ASSERT_EQ(manifests[0].segments.size(), 2u);
  for (std::size_t s = 0; s < 2; ++s) {
    for (const auto& [kind, file] : manifests[0].segments[s].files) {
      const auto& other = manifests[1].segments[s].files.at(kind);
      EXPECT_EQ(file.bytes, other.bytes) << kind;
      EXPECT_EQ(file.crc32, other.crc32) << kind;
    }
  }
}

TEST(IndexBuild, MalformedCorpusLineNamesFileAndLine) {
  TempDir dir;
  const auto corpus = dir.write("bad.jsonl", "{\"_id\":\"a\",\"text\":\"ok\"}\n{\"text\":\"no id\"}\n");
  engine::IndexBuildOptions options;
  options.corpus = corpus;
  try {
    engine::buildIndex(options, dir / "index");
    FAIL() << "expected a bad-input error";
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    EXPECT_NE(std::string(e.what()).find("bad.jsonl:2:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("_id"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "index"));
  // Nothing is left behind in the parent directory.
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    EXPECT_EQ(entry.path().filename().string().find(".building"), std::string::npos) << entry.path();
  }
  options.badLines = engine::BadLinePolicy::Skip;
  const auto manifest = engine::buildIndex(options, dir / "index");
  EXPECT_EQ(manifest.docs, 1u);
  EXPECT_EQ(manifest.build.skippedLines, 1u);
}

TEST(IndexBuild, DuplicateDocumentIdsAreAnError) {
  TempDir dir;
  const auto corpus = dir.write("dup.jsonl",
                                "{\"_id\":\"a\",\"text\":\"x\"}\n{\"_id\":\"b\",\"text\":\"y\"}\n{\"_id\":\"a\",\"text\":\"z\"}\n");
  engine::IndexBuildOptions options;
  options.corpus = corpus;
  try {
    engine::buildIndex(options, dir / "index");
    FAIL();
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    EXPECT_NE(std::string(e.what()).find("dup.jsonl:3: duplicate document id a (first on line 1)"),
              std::string::npos)
        << e.what();
  }
}

TEST(IndexBuild, AFailedRebuildLeavesThePreviousIndexIntact) {
  TempDir dir;
  const auto good = dir.write("good.jsonl", "{\"_id\":\"a\",\"text\":\"apple\"}\n");
  const auto bad = dir.write("bad.jsonl", "{\"_id\":\"x\",\"text\":\"pear\"}\n{broken\n");
  engine::IndexBuildOptions options;
  options.corpus = good;
  engine::buildIndex(options, dir / "index");
  options.corpus = bad;
  EXPECT_THROW(engine::buildIndex(options, dir / "index"), engine::Error);
  const auto index = engine::Index::open(dir / "index");
  EXPECT_TRUE(index->findTerm("apple"));
  EXPECT_FALSE(index->findTerm("pear"));
  // A successful rebuild replaces it.
  const auto other = dir.write("other.jsonl", "{\"_id\":\"p\",\"text\":\"pear\"}\n");
  options.corpus = other;
  engine::buildIndex(options, dir / "index");
  const auto rebuilt = engine::Index::open(dir / "index");
  EXPECT_TRUE(rebuilt->findTerm("pear"));
  EXPECT_FALSE(rebuilt->findTerm("apple"));
}

TEST(IndexBuild, CancellationLeavesNothingBehind) {
  TempDir dir;
  writeCorpus(dir / "c.jsonl", randomCorpus(3, {.docs = 2000}));
  std::stop_source stop;
  stop.request_stop();
  engine::IndexBuildOptions options;
  options.corpus = dir / "c.jsonl";
  options.stop = stop.get_token();
  EXPECT_THROW(engine::buildIndex(options, dir / "index"), engine::Error);
  EXPECT_FALSE(std::filesystem::exists(dir / "index"));
}

TEST(IndexBuild, RefusesToReplaceSomethingThatIsNotAnIndex) {
  TempDir dir;
  dir.write("precious/file.txt", "keep me");
  const auto corpus = dir.write("c.jsonl", "{\"_id\":\"a\",\"text\":\"x\"}\n");
  engine::IndexBuildOptions options;
  options.corpus = corpus;
  EXPECT_THROW(engine::buildIndex(options, dir / "precious"), engine::Error);
  EXPECT_TRUE(std::filesystem::exists(dir / "precious/file.txt"));
}

TEST(IndexBuild, EmptyCorpusGivesAnEmptySearchableIndex) {
  TempDir dir;
  const auto corpus = dir.write("empty.jsonl", "");
  engine::IndexBuildOptions options;
  options.corpus = corpus;
  engine::buildIndex(options, dir / "index");
  const auto index = engine::Index::open(dir / "index");
  EXPECT_EQ(index->docCount(), 0u);
  engine::SearchRequest r;
  r.text = "anything";
  EXPECT_TRUE(engine::search(*index, r).hits.empty());
}

TEST(IndexBuild, EnglishAnalyzerAndBm25ParametersAreRecordedAndUsed) {
  engine::IndexBuildOptions options;
  options.analyzer = engine::AnalyzerKind::English;
  options.bm25 = {0.9f, 0.4f};
  const auto t = buildTestIndex(corpusFromDsl("a: The connections were running / b: a connected runner"), options);
  EXPECT_EQ(t->index->manifest().analyzer, "english-porter-lucene33/1");
  EXPECT_EQ(t->index->bm25().params().k1, 0.9f);
  EXPECT_TRUE(t->index->findTerm("connect"));
  EXPECT_FALSE(t->index->findTerm("the"));
  engine::SearchRequest r;
  r.text = "connecting";
  EXPECT_EQ(engine::search(*t->index, r).hits.size(), 2u) << "the query is stemmed the same way";
}

}  // namespace
}  // namespace wandscope::test
