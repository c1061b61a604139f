// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/index/index_writer.h"

#include "engine/core/error.h"
#include "engine/index/index.h"
#include "engine/query/searcher.h"
#include "tests/support/test_index.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bit>
#include <chrono>
#include <random>
#include <thread>

namespace wandscope::test {
namespace {

std::vector<engine::Hit> hits(const engine::Index& index, const std::string& q, engine::Operator op) {
  engine::SearchRequest r;
  r.text = q;
  r.op = op;
  r.k = 20;
  return engine::search(index, r).hits;
}

// Adding documents and committing gives exactly the index a fresh build of all the documents
// gives: the same statistics, block maxima recomputed for them, the same results bit for bit.
TEST(IndexWriter, CommitEqualsAFreshBuildOfEverything) {
  const std::uint64_t seed = 515;
  SCOPED_TRACE("seed " + std::to_string(seed));
  const auto all = randomCorpus(seed, {.docs = 1500, .vocabulary = 120, .maxLength = 40, .duplicateFraction = 0.1});
  const std::vector<engine::Document> first(all.begin(), all.begin() + 1000);
  engine::IndexBuildOptions options;
  options.segmentDocs = 600;
  auto incremental = buildTestIndex(first, options);
  {
    engine::IndexWriter writer(incremental->indexPath, 2);
    for (std::size_t d = 1000; d < 1200; ++d) writer.addDocument(all[d]);
    const auto s1 = writer.commit();
    EXPECT_EQ(s1.generation, 2u);
    EXPECT_EQ(s1.documentsAdded, 200u);
    for (std::size_t d = 1200; d < all.size(); ++d) writer.addDocument(all[d]);
    const auto s2 = writer.commit();
    EXPECT_EQ(s2.generation, 3u);
    EXPECT_GE(s2.totalSeconds, s2.boundsSeconds);
  }
  const auto updated = engine::Index::open(incremental->indexPath);
  EXPECT_EQ(updated->docCount(), all.size());
  EXPECT_EQ(updated->segments().size(), 4u);
  const auto fresh = buildTestIndex(all, options);
  EXPECT_EQ(updated->bm25().avgdl(), fresh->index->bm25().avgdl());
  std::mt19937_64 rng(seed);
  for (int q = 0; q < 40; ++q) {
    const std::string query = randomQuery(rng, {.docs = 1500, .vocabulary = 120}, 4);
    for (auto op : {engine::Operator::Or, engine::Operator::And}) {
      const auto a = hits(*updated, query, op);
      const auto b = hits(*fresh->index, query, op);
      ASSERT_EQ(a.size(), b.size()) << query;
      for (std::size_t i = 0; i < a.size(); ++i) {
        ASSERT_EQ(a[i].doc, b[i].doc) << query;
        ASSERT_EQ(std::bit_cast<std::uint32_t>(a[i].score), std::bit_cast<std::uint32_t>(b[i].score)) << query;
      }
    }
  }
  EXPECT_EQ(updated->externalId(1499), all[1499].id);
  EXPECT_EQ(updated->storedDocument(1499).text, all[1499].text);
}

TEST(IndexWriter, AnOpenSnapshotKeepsAnsweringAcrossACommit) {
  auto t = buildTestIndex(corpusFromDsl("a: apple pie / b: apple tart / c: pear"));
  const auto before = t->index;  // opened before the commit
  const auto oldHits = hits(*before, "apple", engine::Operator::Or);
  {
    engine::IndexWriter writer(t->indexPath);
    writer.addDocument({"d", "", "apple apple apple"});
    writer.commit();
  }
  EXPECT_EQ(hits(*before, "apple", engine::Operator::Or), oldHits) << "the old snapshot is unchanged";
  const auto after = engine::Index::open(t->indexPath);
  EXPECT_EQ(after->docCount(), 4u);
  EXPECT_EQ(hits(*after, "apple", engine::Operator::Or).front().doc, 3u);
}

TEST(IndexWriter, RejectsDuplicatesAndASecondWriter) {
  auto t = buildTestIndex(corpusFromDsl("a: x / b: y"));
  engine::IndexWriter writer(t->indexPath);
  EXPECT_THROW(writer.addDocument({"a", "", "again"}), engine::Error);
  EXPECT_THROW(writer.addDocument({"", "", "no id"}), engine::Error);
  writer.addDocument({"c", "", "z"});
  EXPECT_THROW(writer.addDocument({"c", "", "z"}), engine::Error);
  // The lock is per open file description, so a second writer in this process is refused too.
  try {
    engine::IndexWriter second(t->indexPath);
    FAIL() << "a second writer must be refused";
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::Index);
    EXPECT_NE(std::string(e.what()).find("LOCK"), std::string::npos);
  }
}

TEST(IndexWriter, CommittingNothingOnlyBumpsTheGeneration) {
  auto t = buildTestIndex(corpusFromDsl("a: x / b: y"));
  engine::IndexWriter writer(t->indexPath);
  EXPECT_EQ(writer.commit().generation, 2u);
  EXPECT_EQ(engine::Index::open(t->indexPath)->manifest().generation, 2u);
}

// Killed at any point of a commit, the index opens as the previous generation or the new one,
// never as something in between; the next writer removes the interrupted commit's files.
TEST(IndexWriter, AKillAtAnyPointLeavesTheIndexOldOrNew) {
  const auto base = randomCorpus(777, {.docs = 3000, .vocabulary = 200, .maxLength = 50, .duplicateFraction = 0.0});
  const auto extra = randomCorpus(778, {.docs = 3000, .vocabulary = 200, .maxLength = 50, .duplicateFraction = 0.0});
  int sawOld = 0;
  int sawNew = 0;
  for (int trial = 0; trial < 12; ++trial) {
    auto t = buildTestIndex(base);
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      try {
        engine::IndexWriter writer(t->indexPath, 1);
        for (const auto& d : extra) writer.addDocument({"x" + d.id, d.title, d.text});
        writer.commit();
      } catch (...) {
        ::_exit(3);
      }
      ::_exit(0);
    }
    // Kill after a delay that sweeps the commit (inverting, writing, bounds, manifest).
    std::this_thread::sleep_for(std::chrono::milliseconds(5 + trial * 25));
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    std::shared_ptr<const engine::Index> index;
    ASSERT_NO_THROW(index = engine::Index::open(t->indexPath)) << "trial " << trial;
    if (index->docCount() == base.size()) {
      ++sawOld;
      EXPECT_EQ(index->manifest().generation, 1u);
    } else {
      ++sawNew;
      EXPECT_EQ(index->docCount(), base.size() + extra.size()) << "trial " << trial;
    }
    // A new writer cleans up and can commit.
    engine::IndexWriter writer(t->indexPath);
    writer.addDocument({"final", "", "w1 w2"});
    writer.commit();
    EXPECT_NO_THROW(engine::Index::open(t->indexPath));
  }
  std::printf("kill test: %d trials saw the old generation, %d the new one\n", sawOld, sawNew);
  EXPECT_GT(sawOld, 0) << "some kill must land before the switch";
}

}  // namespace
}  // namespace wandscope::test
