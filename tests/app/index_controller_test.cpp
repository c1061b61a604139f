// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/controllers/index_controller.h"
#include "tests/support/qt_test_support.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_index.h"

#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QTest>

#include <filesystem>
#include <fstream>

namespace wandscope::test {
namespace {

using app::BuildRequest;
using app::IndexController;

constexpr int kIndexTimeoutMs = 120'000;

TEST(IndexController, BuildsAnIndexFromACorpusAndOpensIt) {
  TempDir dir;
  writeCorpus(dir / "corpus.jsonl", corpusFromDsl("d0: apple banana / d1: banana cherry / d2: apple apple cherry"));
  IndexController c;
  QSignalSpy started(&c, &IndexController::jobStarted);
  QSignalSpy changed(&c, &IndexController::indexChanged);
  QSignalSpy finished(&c, &IndexController::jobFinished);
  QSignalSpy failed(&c, &IndexController::jobFailed);
  QSignalSpy busy(&c, &IndexController::busyChanged);
  BuildRequest r;
  r.corpus = qpath(dir / "corpus.jsonl");
  r.out = qpath(dir / "index");
  r.threads = 2;
  c.buildIndex(r);
  EXPECT_TRUE(c.isBusy());
  EXPECT_EQ(started.count(), 1);
  ASSERT_TRUE(QTest::qWaitFor([&] { return finished.count() + failed.count() > 0; }, kIndexTimeoutMs));
  ASSERT_EQ(failed.count(), 0) << failed.at(0).at(0).toString().toStdString();
  ASSERT_EQ(changed.count(), 1);
  const auto handle = changed.at(0).at(0).value<app::IndexHandlePtr>();
  ASSERT_TRUE(handle && handle->index && handle->summary);
  EXPECT_EQ(handle->summary->stats.docs, 3u);
  EXPECT_EQ(handle->summary->stats.terms, 3u);
  EXPECT_FALSE(handle->summary->dfBinKeys.isEmpty());
  EXPECT_EQ(handle->summary->rankKeys.size(), 3);
  EXPECT_EQ(c.current(), handle);
  EXPECT_EQ(c.currentPath(), r.out);
  EXPECT_FALSE(c.isBusy());
  EXPECT_EQ(busy.count(), 2);  // true, then false
}

TEST(IndexController, ReportsEngineErrorsWithTheirMessage) {
  TempDir dir;
  IndexController c;
  QSignalSpy failed(&c, &IndexController::jobFailed);
  QSignalSpy changed(&c, &IndexController::indexChanged);
  c.openIndex(qpath(dir / "no-such-index"));
  ASSERT_TRUE(QTest::qWaitFor([&] { return failed.count() > 0; }, kIndexTimeoutMs));
  const QString message = failed.at(0).at(0).toString();
  EXPECT_TRUE(message.contains(QStringLiteral("no-such-index"))) << message.toStdString();
  EXPECT_TRUE(message.contains(QStringLiteral("index error"))) << message.toStdString();
  EXPECT_EQ(changed.count(), 0);
  EXPECT_FALSE(c.isBusy());

  // A malformed corpus: the message names the file and the line.
  std::ofstream(dir / "bad.jsonl") << "{\"_id\": \"a\", \"text\": \"x\"}\n{\"text\": \"no id\"}\n";
  BuildRequest r;
  r.corpus = qpath(dir / "bad.jsonl");
  r.out = qpath(dir / "index");
  c.buildIndex(r);
  ASSERT_TRUE(QTest::qWaitFor([&] { return failed.count() > 1; }, kIndexTimeoutMs));
  const QString bad = failed.at(1).at(0).toString();
  EXPECT_TRUE(bad.contains(QStringLiteral("bad.jsonl:2"))) << bad.toStdString();
  EXPECT_FALSE(std::filesystem::exists(dir / "index"));
}

TEST(IndexController, CancelStopsAGenerationAndLeavesNothingBehind) {
  TempDir dir;
  IndexController c;
  QSignalSpy progress(&c, &IndexController::progressChanged);
  QSignalSpy cancelled(&c, &IndexController::jobCancelled);
  QSignalSpy finished(&c, &IndexController::jobFinished);
  app::GenerateRequest g;
  g.params.docs = 50'000'000;  // far more than the test waits for
  g.params.meanLength = 50;
  g.params.vocabulary = 1000;
  g.params.threads = 1;
  g.corpus = qpath(dir / "big.jsonl");
  g.build = false;
  c.generateCorpus(g);
  ASSERT_TRUE(QTest::qWaitFor([&] { return progress.count() > 0; }, kIndexTimeoutMs));
  c.cancel();
  ASSERT_TRUE(QTest::qWaitFor([&] { return cancelled.count() > 0; }, kIndexTimeoutMs));
  EXPECT_EQ(finished.count(), 0);
  EXPECT_FALSE(c.isBusy());
  EXPECT_FALSE(std::filesystem::exists(dir / "big.jsonl"));
}

TEST(IndexController, ANewJobSupersedesTheRunningOne) {
  TempDir dir;
  writeCorpus(dir / "corpus.jsonl", corpusFromDsl("d0: a b / d1: b c"));
  IndexController c;
  QSignalSpy failed(&c, &IndexController::jobFailed);
  QSignalSpy finished(&c, &IndexController::jobFinished);
  QSignalSpy changed(&c, &IndexController::indexChanged);
  c.openIndex(qpath(dir / "missing"));  // would fail, but is superseded before it reports
  BuildRequest r;
  r.corpus = qpath(dir / "corpus.jsonl");
  r.out = qpath(dir / "index");
  c.buildIndex(r);
  ASSERT_TRUE(QTest::qWaitFor([&] { return finished.count() > 0; }, kIndexTimeoutMs));
  QTest::qWait(50);
  EXPECT_EQ(failed.count(), 0);
  EXPECT_EQ(changed.count(), 1);
}

TEST(IndexController, PreparesASmallEmbeddedDefault) {
  TempDir cache;
  IndexController c;
  QSignalSpy ready(&c, &IndexController::defaultDatasetReady);
  QSignalSpy changed(&c, &IndexController::indexChanged);
  QSignalSpy failed(&c, &IndexController::jobFailed);
  c.openDefault(3000, qpath(cache.path()));
  ASSERT_TRUE(QTest::qWaitFor([&] { return changed.count() + failed.count() > 0; }, kIndexTimeoutMs));
  ASSERT_EQ(failed.count(), 0) << failed.at(0).at(0).toString().toStdString();
  ASSERT_EQ(ready.count(), 1);
  const auto info = ready.at(0).at(0).value<app::DefaultDatasetInfo>();
  EXPECT_EQ(info.querySets.size(), 11);
  EXPECT_FALSE(info.sampleQueries.isEmpty());
  EXPECT_TRUE(info.rebuilt);
  EXPECT_EQ(c.current()->summary->stats.docs, 3000u);
  EXPECT_EQ(c.defaultDataset().index, info.index);
}

}  // namespace
}  // namespace wandscope::test
