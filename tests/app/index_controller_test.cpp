// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/controllers/index_controller.h"
#include "app/gui/dialogs/build_index_dialog.h"
#include "app/gui/dialogs/generate_corpus_dialog.h"
#include "app/gui/pages/index_page.h"
#include "app/workers/index_worker.h"
#include "widgets/views/notice_bar.h"
#include "tests/support/qt_test_support.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_index.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QDir>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include <filesystem>
#include <fstream>
#include <functional>

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
  EXPECT_TRUE(cancelled.at(0).at(0).toString().isEmpty()) << "nothing was kept";
}

// Cancelling a generation while its corpus is being indexed: the corpus is complete and stays, so
// the page must say so. It said "Cancelled: Indexing the corpus - 3 s. Nothing was changed." with
// the new corpus (here tens of MB) left in place.
TEST(IndexController, CancellingTheBuildOfAGeneratedCorpusSaysTheCorpusWasKept) {
  TempDir dir;
  IndexController c;
  const app::WorkbenchContext context{&c, nullptr};
  app::IndexPage page(context);
  QSignalSpy progress(&c, &IndexController::progressChanged);
  QSignalSpy cancelled(&c, &IndexController::jobCancelled);
  QSignalSpy finished(&c, &IndexController::jobFinished);
  QSignalSpy failed(&c, &IndexController::jobFailed);
  app::GenerateRequest g;
  g.params.docs = 150'000;  // indexing takes seconds: the cancel lands well before it ends
  g.params.meanLength = 40;
  g.params.vocabulary = 5000;
  g.corpus = qpath(dir / "gen.jsonl");
  g.build = true;
  g.index.out = qpath(dir / "gen-index");
  c.generateCorpus(g);
  const QString indexing = app::progressStageTitle(QStringLiteral("indexing"));
  ASSERT_TRUE(QTest::qWaitFor(
      [&] {
        for (const auto& args : progress) {
          if (args.at(0).toString() == indexing) return true;
        }
        return finished.count() + failed.count() > 0;
      },
      kIndexTimeoutMs));
  c.cancel();
  ASSERT_TRUE(QTest::qWaitFor([&] { return cancelled.count() + finished.count() + failed.count() > 0; },
                              kIndexTimeoutMs));
  ASSERT_EQ(cancelled.count(), 1) << "the build finished before the cancel reached it";
  const QString kept = cancelled.at(0).at(0).toString();
  EXPECT_TRUE(kept.contains(g.corpus)) << kept.toStdString();
  EXPECT_TRUE(std::filesystem::exists(dir / "gen.jsonl"));
  EXPECT_FALSE(std::filesystem::exists(dir / "gen-index"));
  const QString notice = page.notice()->text();
  EXPECT_FALSE(notice.contains(QStringLiteral("Nothing was changed"))) << notice.toStdString();
  EXPECT_TRUE(notice.contains(g.corpus)) << notice.toStdString();
}

// A build that failed on a malformed corpus line is retried from the Build dialog with "Skip
// malformed lines" ticked: the dialog opens with the last request, not empty (the corpus, output,
// analyzer and BM25 fields all had to be typed again).
TEST(IndexPage, TheBuildDialogOpensWithTheLastRequest) {
  TempDir dir;
  {
    std::ofstream out(dir / "bad.jsonl");
    out << "{\"_id\":\"a\",\"text\":\"x y\"}\n{\"text\":\"no id\"}\n{\"_id\":\"c\",\"text\":\"z\"}\n";
  }
  IndexController c;
  const app::WorkbenchContext context{&c, nullptr};
  app::IndexPage page(context);
  QSignalSpy failed(&c, &IndexController::jobFailed);
  BuildRequest asked;
  asked.corpus = qpath(dir / "bad.jsonl");
  asked.out = qpath(dir / "bad-index");
  asked.analyzer = engine::AnalyzerKind::English;
  asked.bm25.k1 = 0.9f;
  // The dialog is modal: filled (or read) and closed from inside its event loop.
  auto whenOpen = [](const std::function<void(app::BuildIndexDialog&)>& act) {
    QTimer::singleShot(0, [act] {
      auto* dialog = qobject_cast<app::BuildIndexDialog*>(QApplication::activeModalWidget());
      ASSERT_NE(dialog, nullptr);
      act(*dialog);
    });
  };
  whenOpen([&](app::BuildIndexDialog& d) {
    EXPECT_TRUE(d.request().corpus.isEmpty()) << "the first time it is empty";
    d.setRequest(asked);
    d.accept();
  });
  page.chooseAndBuild();
  ASSERT_TRUE(QTest::qWaitFor([&] { return failed.count() > 0; }, kIndexTimeoutMs));
  EXPECT_TRUE(page.notice()->text().contains(QStringLiteral("bad.jsonl:2"))) << page.notice()->text().toStdString();
  BuildRequest shown;
  whenOpen([&](app::BuildIndexDialog& d) {
    shown = d.request();
    d.reject();
  });
  page.chooseAndBuild();
  EXPECT_EQ(shown.corpus.toStdString(), asked.corpus.toStdString());
  EXPECT_EQ(shown.out.toStdString(), asked.out.toStdString());
  EXPECT_TRUE(shown.analyzer == asked.analyzer);
  EXPECT_FLOAT_EQ(shown.bm25.k1, asked.bm25.k1);
  EXPECT_FALSE(shown.skipBadLines);

  // The Generate dialog likewise (here its corpus directory does not exist).
  app::GenerateRequest generate;
  generate.params.docs = 1234;
  generate.params.vocabulary = 777;
  generate.params.seed = 9;
  generate.corpus = qpath(dir / "missing-dir" / "g.jsonl");
  generate.build = false;
  auto whenGenerateOpen = [](const std::function<void(app::GenerateCorpusDialog&)>& act) {
    QTimer::singleShot(0, [act] {
      auto* dialog = qobject_cast<app::GenerateCorpusDialog*>(QApplication::activeModalWidget());
      ASSERT_NE(dialog, nullptr);
      act(*dialog);
    });
  };
  whenGenerateOpen([&](app::GenerateCorpusDialog& d) {
    d.setRequest(generate);
    d.accept();
  });
  page.chooseAndGenerate();
  ASSERT_TRUE(QTest::qWaitFor([&] { return failed.count() > 1; }, kIndexTimeoutMs));
  app::GenerateRequest again;
  whenGenerateOpen([&](app::GenerateCorpusDialog& d) {
    again = d.request();
    d.reject();
  });
  page.chooseAndGenerate();
  EXPECT_EQ(again.corpus.toStdString(), generate.corpus.toStdString());
  EXPECT_EQ(again.params.docs, 1234u);
  EXPECT_EQ(again.params.vocabulary, 777u);
  EXPECT_EQ(again.params.seed, 9u);
  EXPECT_FALSE(again.build);
}

// Paths typed with "~" are the home directory, as in a shell: "~/corpus-index" built the index in
// a directory named "~" under the working directory while the message said "Built ~/corpus-index".
TEST(IndexDialogs, TypedPathsStartingWithATildeAreInTheHomeDirectory) {
  const QString home = QDir::homePath();
  app::BuildIndexDialog build;
  BuildRequest r;
  r.corpus = QStringLiteral("~/corpora/c.jsonl");
  r.out = QStringLiteral("  ~/corpora/c-index ");
  build.setRequest(r);
  EXPECT_EQ(build.request().corpus.toStdString(), (home + QStringLiteral("/corpora/c.jsonl")).toStdString());
  EXPECT_EQ(build.request().out.toStdString(), (home + QStringLiteral("/corpora/c-index")).toStdString());
  r.out = QStringLiteral("/data/~/index");  // only a leading "~" is the home directory
  build.setRequest(r);
  EXPECT_EQ(build.request().out.toStdString(), "/data/~/index");

  app::GenerateCorpusDialog generate;
  QLineEdit* corpus = nullptr;
  QLineEdit* index = nullptr;
  for (auto* edit : generate.findChildren<QLineEdit*>()) {
    if (edit->text().endsWith(QStringLiteral("wandscope-corpus.jsonl"))) corpus = edit;
    if (edit->text().endsWith(QStringLiteral("wandscope-index"))) index = edit;
  }
  ASSERT_TRUE(corpus && index);
  corpus->setText(QStringLiteral("~/g.jsonl"));
  index->setText(QStringLiteral("~"));
  EXPECT_EQ(generate.request().corpus.toStdString(), (home + QStringLiteral("/g.jsonl")).toStdString());
  EXPECT_EQ(generate.request().index.out.toStdString(), home.toStdString());
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
