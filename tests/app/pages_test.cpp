// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/controllers/index_controller.h"
#include "app/controllers/query_controller.h"
#include "app/gui/main_window.h"
#include "app/gui/pages/explore_page.h"
#include "app/gui/pages/index_page.h"
#include "app/gui/pages/trace_page.h"
#include "app/gui/theme.h"
#include "tests/support/qt_test_support.h"
#include "tests/support/process.h"
#include "tests/support/same_counters.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_index.h"
#include "widgets/models/counter_table_model.h"
#include "widgets/models/explain_table_model.h"
#include "widgets/models/index_stats_model.h"
#include "widgets/models/result_table_model.h"
#include "widgets/models/term_table_model.h"
#include "widgets/plots/distribution_plot.h"
#include "widgets/views/notice_bar.h"
#include "widgets/views/switches_button.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <QAbstractItemModelTester>
#include <QLineEdit>
#include <QProgressBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <map>

namespace wandscope::test {
namespace {

using app::ExplorePage;
using app::IndexController;
using app::IndexPage;
using app::QueryController;
using widgets::NoticeBar;

constexpr int kPagesTimeoutMs = 120'000;
using Tester = QAbstractItemModelTester;

app::BuildRequest writeSmallCorpus(const TempDir& dir) {
  RandomCorpusParams params;
  params.docs = 800;
  params.vocabulary = 120;
  writeCorpus(dir / "corpus.jsonl", randomCorpus(3, params));
  app::BuildRequest r;
  r.corpus = qpath(dir / "corpus.jsonl");
  r.out = qpath(dir / "index");
  r.threads = 2;
  return r;
}

TEST(Pages, BuildThroughTheIndexPageThenQueryInExplore) {
  TempDir dir;
  IndexController indexController;
  QueryController queryController;
  const app::WorkbenchContext context{&indexController, &queryController};
  IndexPage indexPage(context);
  ExplorePage explore(context);
  Tester t1(indexPage.statsModel(), kFatal);
  Tester t2(explore.resultModel(), kFatal);
  Tester t3(explore.counterModel(), kFatal);
  Tester t4(explore.termModel(), kFatal);
  Tester t5(explore.explainModel(), kFatal);
  indexPage.resize(1000, 700);
  indexPage.show();
  EXPECT_FALSE(indexPage.notice()->isHidden());  // the welcome: no index yet
  EXPECT_FALSE(indexPage.notice()->actionText().isEmpty());

  QSignalSpy finished(&indexController, &IndexController::jobFinished);
  QSignalSpy failed(&indexController, &IndexController::jobFailed);
  const auto request = writeSmallCorpus(dir);
  indexController.buildIndex(request);
  EXPECT_FALSE(indexPage.progressBar()->parentWidget()->isHidden());
  ASSERT_TRUE(QTest::qWaitFor([&] { return finished.count() + failed.count() > 0; }, kPagesTimeoutMs));
  ASSERT_EQ(failed.count(), 0) << failed.at(0).at(0).toString().toStdString();
  EXPECT_TRUE(indexPage.progressBar()->parentWidget()->isHidden());
  const int docsRow = indexPage.statsModel()->rowOf(QStringLiteral("docs"));
  ASSERT_GE(docsRow, 0);
  EXPECT_EQ(indexPage.statsModel()->index(docsRow, 1).data().toString(), QLocale().toString(800));
  EXPECT_GT(indexPage.dfPlot()->pointCount(0), 0);
  EXPECT_GT(indexPage.lengthPlot()->pointCount(0), 0);
  EXPECT_GT(indexPage.lengthPlot()->pointCount(1), 0);
  EXPECT_EQ(indexPage.notice()->kind(), NoticeBar::Kind::Positive);

  explore.resize(1200, 800);
  explore.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&explore));
  QSignalSpy ready(&queryController, &QueryController::resultsReady);
  explore.queryEdit()->setFocus();
  QTest::keyClicks(explore.queryEdit(), QStringLiteral("w1 w2 w7"));
  ASSERT_TRUE(QTest::qWaitFor([&] { return ready.count() > 0 && !queryController.isSearching(); }, kPagesTimeoutMs));
  EXPECT_EQ(ready.count(), 1);  // the keystrokes were debounced into one search
  auto* model = explore.resultModel();
  ASSERT_EQ(model->rowCount(), 10);

  const auto cli = runProcess(WANDSCOPE_CLI, {"search", request.out.toStdString(), "--query", "w1 w2 w7", "--json"});
  ASSERT_EQ(cli.exitCode, 0) << cli.err;
  const auto hits = nlohmann::json::parse(cli.out).at("hits");
  ASSERT_EQ(static_cast<int>(hits.size()), model->rowCount());
  const int docCol = model->column(widgets::ResultTableModel::Column::Doc);
  const int scoreCol = model->column(widgets::ResultTableModel::Column::Score);
  for (int r = 0; r < model->rowCount(); ++r) {
    EXPECT_EQ(model->index(r, docCol).data(widgets::ResultTableModel::DocIdRole).toUInt(),
              hits[static_cast<std::size_t>(r)].at("internal_doc").get<std::uint32_t>());
    EXPECT_EQ(model->index(r, scoreCol).data(widgets::ResultTableModel::ScoreBitsRole).toUInt(),
              static_cast<std::uint32_t>(std::stoul(hits[static_cast<std::size_t>(r)].at("bits").get<std::string>(), nullptr, 16)));
  }
  // The first result is selected and explained; the terms table lists the three terms.
  EXPECT_EQ(explore.explainModel()->rowCount(), 4);
  EXPECT_TRUE(explore.explainModel()->sumMatchesScore());
  EXPECT_EQ(explore.termModel()->rowCount(), 3);
  EXPECT_EQ(explore.analysisText(), QStringLiteral("<small>3 distinct terms of 3 tokens</small>"));
  EXPECT_GT(explore.counterModel()->rowCount(), 0);

  // Compare with the exhaustive path: same hits, the indicator says so.
  explore.setCompareAlgorithm(engine::Algorithm::Exhaustive);
  ASSERT_TRUE(QTest::qWaitFor([&] { return ready.count() > 1 && !queryController.isSearching(); }, kPagesTimeoutMs));
  EXPECT_EQ(explore.counterModel()->columnCount(), 4);
  EXPECT_TRUE(explore.identityLabel()->text().contains(QStringLiteral("identical")));
  EXPECT_EQ(model->columnCount(), 8);
}

TEST(Pages, ErrorsAppearOnThePageNeverSilently) {
  TempDir dir;
  IndexController indexController;
  QueryController queryController;
  const app::WorkbenchContext context{&indexController, &queryController};
  IndexPage indexPage(context);
  ExplorePage explore(context);
  QSignalSpy indexErrors(&indexPage, &app::Page::errorOccurred);
  indexController.openIndex(qpath(dir / "missing-index"));
  ASSERT_TRUE(QTest::qWaitFor([&] { return indexErrors.count() > 0; }, kPagesTimeoutMs));
  EXPECT_EQ(indexPage.notice()->kind(), NoticeBar::Kind::Error);
  EXPECT_FALSE(indexPage.notice()->isHidden());
  EXPECT_TRUE(indexPage.notice()->text().contains(QStringLiteral("missing-index")));

  // Explore: a query over the engine's term limit is refused with a message on the page.
  QSignalSpy finished(&indexController, &IndexController::jobFinished);
  indexController.buildIndex(writeSmallCorpus(dir));
  ASSERT_TRUE(QTest::qWaitFor([&] { return finished.count() > 0; }, kPagesTimeoutMs));
  QSignalSpy exploreErrors(&explore, &app::Page::errorOccurred);
  QString huge;
  for (int i = 0; i < 1100; ++i) huge += QStringLiteral("t%1 ").arg(i);
  explore.setQueryText(huge);
  ASSERT_TRUE(QTest::qWaitFor([&] { return exploreErrors.count() > 0; }, kPagesTimeoutMs));
  EXPECT_EQ(explore.notice()->kind(), NoticeBar::Kind::Error);
  EXPECT_FALSE(explore.notice()->isHidden());
  EXPECT_EQ(explore.resultModel()->rowCount(), 0);
  // The next good query clears the error.
  QSignalSpy ready(&queryController, &QueryController::resultsReady);
  explore.setQueryText(QStringLiteral("w1"));
  ASSERT_TRUE(QTest::qWaitFor([&] { return ready.count() > 0; }, kPagesTimeoutMs));
  EXPECT_TRUE(explore.notice()->isHidden());
}

// A main window's settings and run store kept in `dir`.
app::MainWindowOptions scratchOptions(const TempDir& dir) {
  app::MainWindowOptions options;
  options.settingsFile = qpath(dir / "settings.ini");
  options.runStorePath = qpath(dir / "runs.sqlite");
  return options;
}

// Builds `request` in `window` (which then opens it) and waits for the build to finish.
void buildIn(app::MainWindow& window, const app::BuildRequest& request) {
  QSignalSpy finished(window.indexController(), &IndexController::jobFinished);
  window.indexController()->buildIndex(request);
  ASSERT_TRUE(QTest::qWaitFor([&] { return finished.count() > 0; }, kPagesTimeoutMs));
}

TEST(MainWindowTest, PersistsPageStateAndTheLastIndex) {
  TempDir dir;
  const app::MainWindowOptions options = scratchOptions(dir);
  const auto request = writeSmallCorpus(dir);
  {
    app::MainWindow window(options);
    QStringList ids;
    for (const auto* p : window.pages()) ids << p->pageId();
    for (const char* id : {"index", "explore", "load", "history"}) {
      EXPECT_TRUE(ids.contains(QLatin1String(id))) << id;
    }
    EXPECT_TRUE(window.showPage(QStringLiteral("explore")));
    EXPECT_FALSE(window.showPage(QStringLiteral("nope")));
    auto* explore = qobject_cast<ExplorePage*>(window.page(QStringLiteral("explore")));
    ASSERT_TRUE(explore);
    explore->setK(25);
    explore->setOperator(engine::Operator::And);
    ASSERT_NO_FATAL_FAILURE(buildIn(window, request));
    window.saveSettings();
  }
  app::MainWindow window(options);
  auto* explore = qobject_cast<ExplorePage*>(window.page(QStringLiteral("explore")));
  ASSERT_TRUE(explore);
  EXPECT_EQ(explore->currentParams().k, 25u);
  EXPECT_EQ(explore->currentParams().op, engine::Operator::And);
  EXPECT_EQ(window.currentPage()->pageId(), QStringLiteral("explore"));
  QSignalSpy changed(window.indexController(), &IndexController::indexChanged);
  window.openInitialIndex();
  ASSERT_TRUE(QTest::qWaitFor([&] { return changed.count() > 0; }, kPagesTimeoutMs));
  EXPECT_EQ(window.indexController()->currentPath(), request.out);
}

// Explore's "Trace this query" (a reviewer found no way from a result to its trace): the Trace page
// comes up tracing the shown query on the open index as it was searched, out of any lesson: the
// same path in the same form (auto's dense two-term OR runs bmm document at a time, a one-term OR
// the bulk AND over one list, which no OR algorithm can be forced to) with the same switches, so
// the same hits and every counter the same. It once handed over only the path's name: the trace
// then ran the windowed bmm, the default switches, or for a one-term OR whatever path the Trace
// page had selected.
TEST(MainWindowTest, ExploreTracesTheShownQueryOnTheTracePageAsItWasSearched) {
  TempDir dir;
  app::MainWindow window(scratchOptions(dir));
  ASSERT_NO_FATAL_FAILURE(buildIn(window, writeSmallCorpus(dir)));
  auto* explore = qobject_cast<ExplorePage*>(window.page(QStringLiteral("explore")));
  auto* trace = qobject_cast<app::TracePage*>(window.page(QStringLiteral("trace")));
  ASSERT_TRUE(explore && trace);
  EXPECT_FALSE(explore->traceAction()->isEnabled()) << "nothing shown yet";
  QSignalSpy ready(window.queryController(), &QueryController::resultsReady);
  QSignalSpy traced(trace, &app::TracePage::traceShown);
  explore->setOperator(engine::Operator::Or);
  struct Case {
    const char* query;
    const char* switchOff;  // nullptr: all on
  };
  bool sawDocumentAtATime = false;
  for (const Case& c : {Case{"w1 w2 w3", nullptr}, Case{"w1 w2", nullptr}, Case{"w7", nullptr},
                        Case{"w1 w2 w3", "rank_floor"}}) {
    SCOPED_TRACE(std::string("query '") + c.query + "'" + (c.switchOff ? std::string(" ") + c.switchOff + "=off" : ""));
    window.showPage(explore->pageId());
    if (c.switchOff != nullptr) {
      QAction* a = explore->switchesButton()->switchAction(QString::fromLatin1(c.switchOff));
      ASSERT_TRUE(a);
      a->trigger();
    }
    explore->setQueryText(QString::fromLatin1(c.query));
    widgets::SearchSnapshotPtr shown;
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
          if (ready.isEmpty()) return false;
          shown = ready.last().at(0).value<widgets::SearchSnapshotPtr>();
          return shown && shown->text == QString::fromLatin1(c.query) &&
                 shown->options == explore->switchesButton()->options() && explore->traceAction()->isEnabled();
        },
        kPagesTimeoutMs));
    EXPECT_EQ(shown->primary.requested, engine::Algorithm::Auto);
    if (shown->primary.reason.contains(QStringLiteral("document at a time"))) sawDocumentAtATime = true;
    const auto before = traced.count();
    explore->traceAction()->trigger();
    EXPECT_EQ(window.currentPage()->pageId(), QStringLiteral("trace"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return traced.count() > before; }, kPagesTimeoutMs));
    EXPECT_EQ(trace->queryEdit()->text(), QString::fromLatin1(c.query));
    EXPECT_FALSE(trace->corpusBox()->currentData().toBool()) << "on the open index, not the teaching corpus";
    EXPECT_TRUE(trace->lessonId().isEmpty());
    EXPECT_EQ(trace->switchesButton()->options(), shown->options);
    ASSERT_TRUE(trace->snapshot());
    const auto& run = trace->snapshot()->primary;
    EXPECT_EQ(run.requested, engine::Algorithm::Auto);
    EXPECT_EQ(run.algorithm, shown->primary.taken);
    EXPECT_EQ(run.hits, shown->primary.hits) << "the same top k, traced";
    EXPECT_TRUE(sameCounters(shown->primary.counters, run.counters)) << "the same evaluation, traced";
    if (c.switchOff != nullptr) explore->switchesButton()->switchAction(QString::fromLatin1(c.switchOff))->trigger();
  }
  EXPECT_TRUE(sawDocumentAtATime) << "the cases must include auto's document-at-a-time bmm";
}

// OR -> AND with wand chosen put auto in its place without a word (a walkthrough): the page says
// which path the new operator replaced.
TEST(Pages, AnOperatorSwitchSaysWhichPathItReplaced) {
  IndexController indexController;
  QueryController queryController;
  const app::WorkbenchContext context{&indexController, &queryController};
  ExplorePage explore(context);
  explore.setOperator(engine::Operator::Or);
  explore.setAlgorithm(engine::Algorithm::Wand);
  explore.setCompareAlgorithm(engine::Algorithm::Exhaustive);
  QSignalSpy said(&explore, &app::Page::statusMessage);
  explore.setOperator(engine::Operator::And);
  ASSERT_EQ(said.count(), 1);
  EXPECT_EQ(said.at(0).at(0).toString(), QStringLiteral("That path does not evaluate AND queries: algorithm wand -> auto"));
  said.clear();
  explore.setOperator(engine::Operator::Or);  // auto and exhaustive evaluate both: nothing to say
  EXPECT_EQ(said.count(), 0);
}

// No key is bound to two window-wide actions: Qt then fires neither ("Ambiguous shortcut
// overload"). Compare's Stop and Explore's Trace this query once shared Ctrl+Shift+T, so Stop did
// nothing from the keyboard while a result was shown.
TEST(MainWindowTest, NoTwoWindowWideActionsShareAKey) {
  TempDir dir;
  app::MainWindow window(scratchOptions(dir));
  std::map<QString, QString> owner;  // key -> action text
  int keys = 0;
  for (const QAction* a : window.findChildren<QAction*>()) {
    if (a->shortcutContext() != Qt::WindowShortcut && a->shortcutContext() != Qt::ApplicationShortcut) continue;
    for (const QKeySequence& key : a->shortcuts()) {
      if (key.isEmpty()) continue;
      ++keys;
      const QString k = key.toString();
      const auto [it, fresh] = owner.emplace(k, a->text());
      EXPECT_TRUE(fresh) << k.toStdString() << " is bound to '" << it->second.toStdString() << "' and '"
                         << a->text().toStdString() << "'";
    }
  }
  EXPECT_GT(keys, 20) << "the pages' menu actions were not found";
}

TEST(MainWindowTest, ThemesSwitchThePalette) {
  app::MainWindow window(app::MainWindowOptions{QString(), false, 0, QString(), QString()});
  window.setTheme(app::Theme::Dark);
  EXPECT_LT(QApplication::palette().color(QPalette::Base).lightness(), 128);
  window.setTheme(app::Theme::Light);
  EXPECT_GT(QApplication::palette().color(QPalette::Base).lightness(), 128);
  window.setTheme(app::Theme::System);
  EXPECT_EQ(app::parseTheme(QStringLiteral("dark")), app::Theme::Dark);
  EXPECT_EQ(app::parseTheme(QStringLiteral("bogus")), app::Theme::System);
}

}  // namespace
}  // namespace wandscope::test
