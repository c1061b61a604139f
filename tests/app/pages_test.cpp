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
#include "widgets/views/decimal_delegate.h"
#include "widgets/views/notice_bar.h"
#include "widgets/views/switches_button.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QImage>
#include <QScrollBar>
#include <QLineEdit>
#include <QPainter>
#include <QProgressBar>
#include <QRegularExpression>
#include <QSettings>
#include <QTabBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <map>
#include <set>
#include <system_error>
#include <thread>

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
  QSignalSpy ready(&queryController, &QueryController::resultsReady);
  explore.setQueryText(QStringLiteral("w1"));
  ASSERT_TRUE(QTest::qWaitFor([&] { return ready.count() > 0; }, kPagesTimeoutMs));
  ASSERT_TRUE(explore.explainHeaderText().startsWith(QStringLiteral("Rank 1"))) << explore.explainHeaderText().toStdString();
  QString huge;
  for (int i = 0; i < 2000; ++i) huge += QStringLiteral("t%1 ").arg(i);
  explore.setQueryText(huge);
  ASSERT_TRUE(QTest::qWaitFor([&] { return exploreErrors.count() > 0; }, kPagesTimeoutMs));
  EXPECT_EQ(explore.notice()->kind(), NoticeBar::Kind::Error);
  EXPECT_FALSE(explore.notice()->isHidden());
  EXPECT_EQ(explore.resultModel()->rowCount(), 0);
  // Nothing of the last result stays to read as this query's: the explain panel's heading named
  // the previous query's first result under the error.
  EXPECT_EQ(explore.explainModel()->rowCount(), 0);
  EXPECT_EQ(explore.explainHeaderText(), QStringLiteral("<i>The query failed: nothing to explain.</i>"));
  EXPECT_TRUE(explore.summaryText(QStringLiteral("path")).isEmpty());
  EXPECT_EQ(explore.termModel()->rowCount(), 0);
  // The next good query clears the error.
  explore.setQueryText(QStringLiteral("w1"));
  ASSERT_TRUE(QTest::qWaitFor([&] { return ready.count() > 1; }, kPagesTimeoutMs));
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


// An Explore page on `handle` (no Index page: the query controller gets the index directly).
struct ExploreOn {
  IndexController indexController;
  QueryController queryController;
  app::WorkbenchContext context{&indexController, &queryController};
  ExplorePage page{context};
  QSignalSpy ready{&queryController, &QueryController::resultsReady};
  QSignalSpy failed{&queryController, &QueryController::searchFailed};

  explicit ExploreOn(const std::shared_ptr<const engine::Index>& index) {
    auto handle = std::make_shared<app::IndexHandle>();
    handle->index = index;
    queryController.setIndex(handle);
    page.resize(1264, 640);
    page.show();
  }
  // Sets the query text (searching at once) and waits for its result or failure.
  bool search(const QString& text) {
    const auto before = ready.count() + failed.count();
    page.setQueryText(text);
    return QTest::qWaitFor([&] { return ready.count() + failed.count() > before && !queryController.isSearching(); },
                           kPagesTimeoutMs);
  }
};

// The corpus of the explain comparisons: random documents, each also holding "everywhere" (a
// term in every document: idf ln(1 + 0.5 / (N + 0.5)), some 3e-4), and one document whose
// external id has a "%2" in it.
std::vector<engine::Document> explainCorpus() {
  RandomCorpusParams params;
  params.docs = 1500;
  params.vocabulary = 150;
  auto docs = randomCorpus(5, params);
  for (auto& d : docs) d.text += " everywhere";
  docs.push_back(engine::Document{"pct%2id", "", "onlyhere everywhere w1"});
  return docs;
}

std::uint32_t jsonFloatBits(const nlohmann::json& v) { return widgets::scoreBits(v.get<float>()); }

// The f32 a figure shown on the page reads as (NaN when it is no number).
float shownFloat(const QString& text) {
  const std::string s = text.toStdString();
  float value = std::nanf("");
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  return ec == std::errc{} && end == s.data() + s.size() ? value : std::nanf("");
}

// What the Explore page shows of a query, figure by figure, against `wandscope-cli search
// --explain --json` on the same index: the path and its reason; every term's df, idf, max score
// and blocks; every result's score, tf and contribution per term, their f32 sum equal to the
// score's bits, and its length. Every figure's text reads back as the CLI's f32, bit for bit: a
// term in every document once read idf 0.00017, or 0.00000 with 200,000 documents, where the CLI
// says 0.000166639, and seven decimals wrote digits no f32 holds (1146.3198242).
TEST(Pages, ExploreShowsTheCliExplainFigureForFigure) {
  const auto built = buildTestIndex(explainCorpus());
  ExploreOn explore(built->index);
  ASSERT_NE(explore.page.notice()->kind(), NoticeBar::Kind::Error);
  struct Case {
    const char* query;
    engine::Operator op;
    engine::Algorithm algorithm;
  };
  for (const Case& c : {Case{"everywhere w1 w5", engine::Operator::Or, engine::Algorithm::Auto},
                        Case{"w2 everywhere", engine::Operator::And, engine::Algorithm::Auto},
                        Case{"w3 w8 zzzunknown w3", engine::Operator::Or, engine::Algorithm::Bmw},
                        Case{"w4 w9", engine::Operator::And, engine::Algorithm::BulkAnd},
                        Case{"onlyhere", engine::Operator::Or, engine::Algorithm::Auto}}) {
    SCOPED_TRACE(std::string(c.query) + " " + engine::operatorName(c.op) + " " + engine::algorithmName(c.algorithm));
    explore.page.setOperator(c.op);
    explore.page.setAlgorithm(c.algorithm);
    ASSERT_TRUE(explore.search(QString::fromLatin1(c.query)));
    ASSERT_EQ(explore.failed.count(), 0);
    const auto cli = runProcess(WANDSCOPE_CLI, {"search", built->indexPath.string(), "--query", c.query, "--op",
                                                engine::operatorName(c.op), "--algo", engine::algorithmName(c.algorithm),
                                                "--k", "10", "--explain", "--json"});
    ASSERT_EQ(cli.exitCode, 0) << cli.err;
    const auto json = nlohmann::json::parse(cli.out);

    EXPECT_EQ(explore.page.summaryText(QStringLiteral("path")).toStdString(), json.at("algorithm").get<std::string>());
    EXPECT_EQ(explore.page.summaryText(QStringLiteral("reason")).toStdString(), json.at("reason").get<std::string>());
    EXPECT_EQ(explore.page.summaryText(QStringLiteral("hits")), QLocale().toString(static_cast<int>(json.at("hits").size())));

    using T = widgets::TermTableModel;
    const auto* terms = explore.page.termModel();
    const auto& jterms = json.at("terms");
    ASSERT_EQ(terms->rowCount(), static_cast<int>(jterms.size()));
    for (int r = 0; r < terms->rowCount(); ++r) {
      const auto& jt = jterms[static_cast<std::size_t>(r)];
      SCOPED_TRACE(jt.at("text").get<std::string>());
      EXPECT_EQ(terms->index(r, T::TermColumn).data().toString().toStdString(), jt.at("text").get<std::string>());
      ASSERT_EQ(terms->index(r, 0).data(T::KnownRole).toBool(), jt.at("known").get<bool>());
      if (!jt.at("known").get<bool>()) continue;
      EXPECT_EQ(terms->index(r, T::DfColumn).data().toString(), QLocale().toString(jt.at("df").get<qulonglong>()));
      EXPECT_EQ(terms->index(r, T::BlocksColumn).data().toString(), QLocale().toString(jt.at("blocks").get<qulonglong>()));
      for (const auto& [column, key] : {std::pair{T::IdfColumn, "idf"}, std::pair{T::MaxScoreColumn, "max_score"}}) {
        const float shown = static_cast<float>(terms->index(r, column).data(T::ValueRole).toDouble());
        EXPECT_EQ(widgets::scoreBits(shown), jsonFloatBits(jt.at(key))) << key;
        const QString text = terms->index(r, column).data().toString();
        EXPECT_EQ(widgets::scoreBits(shownFloat(text)), jsonFloatBits(jt.at(key)))
            << key << " reads " << text.toStdString() << " for " << jt.at(key).dump();
      }
    }

    using E = widgets::ExplainTableModel;
    const auto* explain = explore.page.explainModel();
    const auto& hits = json.at("hits");
    ASSERT_EQ(explore.page.resultModel()->rowCount(), static_cast<int>(hits.size()));
    for (int r = 0; r < static_cast<int>(hits.size()); ++r) {
      SCOPED_TRACE("rank " + std::to_string(r + 1));
      const auto& h = hits[static_cast<std::size_t>(r)];
      explore.page.resultView()->setCurrentIndex(explore.page.resultModel()->index(r, 0));
      ASSERT_EQ(explain->rowCount(), static_cast<int>(jterms.size()) + 1);
      for (int t = 0; t < static_cast<int>(jterms.size()); ++t) {
        if (!jterms[static_cast<std::size_t>(t)].at("known").get<bool>()) continue;
        EXPECT_EQ(explain->index(t, E::TfColumn).data().toString(),
                  QString::number(h.at("tf")[static_cast<std::size_t>(t)].get<std::uint32_t>()));
        const float c = static_cast<float>(explain->index(t, E::ContributionColumn).data(E::ValueRole).toDouble());
        EXPECT_EQ(widgets::scoreBits(c), jsonFloatBits(h.at("contribution")[static_cast<std::size_t>(t)]));
        const QString text = explain->index(t, E::ContributionColumn).data().toString();
        EXPECT_EQ(widgets::scoreBits(shownFloat(text)), jsonFloatBits(h.at("contribution")[static_cast<std::size_t>(t)]))
            << "contribution reads " << text.toStdString();
      }
      // The score: in the results table, the explain heading and the sum row, the CLI's f32.
      const std::uint32_t bits = static_cast<std::uint32_t>(std::stoul(h.at("bits").get<std::string>(), nullptr, 16));
      const auto* results = explore.page.resultModel();
      const QString score = results->index(r, results->column(widgets::ResultTableModel::Column::Score)).data().toString();
      EXPECT_EQ(widgets::scoreBits(shownFloat(score)), bits) << "score reads " << score.toStdString();
      EXPECT_EQ(explain->index(explain->rowCount() - 1, E::ContributionColumn).data().toString(), score);
      EXPECT_EQ(widgets::scoreBits(explain->contributionSum()), static_cast<std::uint32_t>(std::stoul(h.at("bits").get<std::string>(), nullptr, 16)));
      EXPECT_TRUE(explain->sumMatchesScore());
      const QString header = explore.page.explainHeaderText();
      EXPECT_TRUE(header.contains(QStringLiteral("doc <b>%1</b>").arg(QString::fromStdString(h.at("doc").get<std::string>()))))
          << header.toStdString();
      EXPECT_TRUE(header.contains(QStringLiteral("(internal %1)").arg(h.at("internal_doc").get<std::uint32_t>())))
          << header.toStdString();
      EXPECT_TRUE(header.contains(QStringLiteral("length %1 tokens").arg(QLocale().toString(h.at("doc_length").get<std::uint32_t>()))))
          << header.toStdString();
      EXPECT_TRUE(header.contains(QStringLiteral("score %1 =").arg(score))) << header.toStdString();
    }
  }
}

// An empty result says why where the results would be, and keeps it in the explain panel: the
// table alone was just empty ("No results: nothing to explain"), and a forced path's reason says
// nothing about unknown terms or stop words.
TEST(Pages, AnEmptyResultSaysWhy) {
  const auto built = buildTestIndex(explainCorpus());
  ExploreOn explore(built->index);
  struct Case {
    const char* query;
    engine::Operator op;
    const char* says;
  };
  for (const Case& c : {Case{"w1 zzzunknown", engine::Operator::And,
                             "No results: 'zzzunknown' is not in the index, and AND needs every term in a document."},
                        Case{"zzz qqq", engine::Operator::Or, "No results: no query term is in the index ('zzz', 'qqq')."},
                        Case{"qqq", engine::Operator::Or, "No results: 'qqq' is not in the index."},
                        Case{"\u00ac\u00ac !!", engine::Operator::Or, "No results: the query has no searchable word (0 distinct terms of 0 tokens)."}}) {
    SCOPED_TRACE(c.query);
    explore.page.setOperator(c.op);
    explore.page.setAlgorithm(engine::Algorithm::Exhaustive);
    ASSERT_TRUE(explore.search(QString::fromUtf8(c.query)));
    ASSERT_EQ(explore.page.resultModel()->rowCount(), 0);
    EXPECT_FALSE(explore.page.notice()->isHidden());
    EXPECT_EQ(explore.page.notice()->text(), QString::fromUtf8(c.says));
    EXPECT_TRUE(explore.page.explainHeaderText().contains(QString::fromUtf8(c.says).toHtmlEscaped()))
        << explore.page.explainHeaderText().toStdString();
  }
  // A query with results takes the message away.
  ASSERT_TRUE(explore.search(QStringLiteral("w1")));
  EXPECT_TRUE(explore.page.notice()->isHidden());

  // Stop words (the english analyzer) are named as such.
  engine::IndexBuildOptions english;
  english.analyzer = engine::AnalyzerKind::English;
  const auto stemmed = buildTestIndex(corpusFromDsl("d0: running dogs / d1: the cat"), english);
  ExploreOn onEnglish(stemmed->index);
  ASSERT_TRUE(onEnglish.search(QStringLiteral("the and of")));
  EXPECT_EQ(onEnglish.page.notice()->text(),
            QStringLiteral("No results: every word of the query is a stop word (0 distinct terms of 0 tokens; dropped 3 "
                           "stop words), and stop words are not searched."));
}

// With a comparison at 1280 px the Doc and Score columns were sized for the longest algorithm name
// whatever their headers said, and the snippet got a quarter of the table: a few words.
TEST(Pages, TheSnippetGetsTheRoomTheOtherColumnsLeave) {
  const auto built = buildTestIndex(explainCorpus());
  ExploreOn explore(built->index);
  explore.page.resize(1264, 600);
  explore.page.setCompareAlgorithm(engine::Algorithm::Exhaustive);
  ASSERT_TRUE(explore.search(QStringLiteral("w1 w2 w3")));
  ASSERT_TRUE(explore.page.resultModel()->snapshot() && explore.page.resultModel()->snapshot()->compare);
  QTest::qWait(50);
  auto* view = explore.page.resultView();
  const int snippet = explore.page.resultModel()->column(widgets::ResultTableModel::Column::Snippet);
  const int width = view->viewport()->width();
  EXPECT_GE(view->horizontalHeader()->sectionSize(snippet), width * 2 / 5)
      << "of " << width << " px; the doc column takes " << view->horizontalHeader()->sectionSize(1);
  // Every other column still shows its header whole.
  for (int c = 0; c < snippet; ++c) {
    EXPECT_GE(view->horizontalHeader()->sectionSize(c), view->horizontalHeader()->sectionSizeHint(c)) << c;
  }
}

// The query terms panel at 1280 px cut its last column: a term in every document of the default
// dataset has 157 blocks, and the panel showed "15"; the explain panel cut the share's "%". Every
// figure shows whole; the term's text gives way instead (elided, whole in its tooltip).
TEST(Pages, TheTermAndExplainFiguresAreNeverCut) {
  const auto built = buildTestIndex(explainCorpus());
  ExploreOn explore(built->index);
  explore.page.resize(1264, 600);
  ASSERT_TRUE(explore.search(QStringLiteral("everywhere w1 w17 w100 onlyhere zzzunknownword")));
  QTest::qWait(50);
  for (const char* name : {"terms", "explain"}) {
    SCOPED_TRACE(name);
    auto* view = explore.page.findChild<QTableView*>(QLatin1String(name));
    ASSERT_TRUE(view);
    ASSERT_GE(view->model()->rowCount(), 6);
    EXPECT_EQ(view->horizontalScrollBar()->maximum(), 0) << "the panel is " << view->viewport()->width() << " px";
    const QAbstractItemView* base = view;
    for (int c = 1; c < view->model()->columnCount(); ++c) {
      EXPECT_GE(view->horizontalHeader()->sectionSize(c), base->sizeHintForColumn(c)) << c;
    }
  }
  EXPECT_TRUE(explore.page.termModel()->index(0, 0).data(Qt::ToolTipRole).toString().startsWith(QStringLiteral("everywhere\n")));
}

// Where a right-aligned figure's decimal point is drawn in `view` (viewport x): the right edge of
// the text as the cell's delegate places it, less the fraction's width. A DecimalDelegate says
// where it draws; any other delegate draws as Qt's item views do (the style's text rectangle less
// its margins).
// The rightmost column paint() inks for the cell, drawn on white: where the drawn text ends.
int inkedRight(const QAbstractItemDelegate* delegate, const QStyleOptionViewItem& option, const QModelIndex& index) {
  QImage image(option.rect.size(), QImage::Format_ARGB32);
  image.fill(Qt::white);
  QPainter painter(&image);
  painter.translate(-option.rect.topLeft());
  delegate->paint(&painter, option, index);
  painter.end();
  for (int x = image.width() - 1; x >= 0; --x) {
    for (int y = 0; y < image.height(); ++y) {
      if (qGray(image.pixel(x, y)) < 128) return option.rect.left() + x;
    }
  }
  return -1;
}

int decimalPointXIn(const QTableView* view, const QModelIndex& index) {
  QStyleOptionViewItem option;
  option.initFrom(view->viewport());
  option.font = view->font();
  option.rect = view->visualRect(index);
  option.widget = view;
  option.displayAlignment = Qt::AlignRight | Qt::AlignVCenter;
  option.features |= QStyleOptionViewItem::HasDisplay;
  const QString text = index.data().toString();
  const QVariant fontRole = index.data(Qt::FontRole);
  const QFont font = fontRole.isValid() ? qvariant_cast<QFont>(fontRole).resolve(view->font()) : view->font();
  QRect textRect;
  if (const auto* decimal = qobject_cast<const widgets::DecimalDelegate*>(view->itemDelegateForIndex(index))) {
    textRect = decimal->textRect(option, index);
    // textRect() is the delegate's own word: what paint() draws must end there too (a glyph's
    // side bearing and antialiasing apart), or the test would only show the delegate installed.
    EXPECT_NEAR(inkedRight(decimal, option, index), textRect.right(), 2) << text.toStdString();
  } else {
    option.text = text;
    option.font = font;
    const int margin = view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1;
    textRect = view->style()->subElementRect(QStyle::SE_ItemViewItemText, &option, view).adjusted(margin, 0, -margin, 0);
  }
  return textRect.right() - QFontMetrics(font).horizontalAdvance(widgets::DecimalDelegate::fractionOf(text));
}

// The scores (the shortest decimals that read back as their f32, as `wandscope-cli search`
// prints them) have from two to seven decimals, and right-aligned they did not line up: every
// score and explain figure column is right-aligned, shows the CLI's text, and its decimal points
// are drawn at one x; no figure is cut.
TEST(Pages, ScoresAndExplainFiguresLineUpOnTheDecimalPoint) {
  const auto built = buildTestIndex(explainCorpus());
  ExploreOn explore(built->index);
  explore.page.setOperator(engine::Operator::Or);
  const char* query = "w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 onlyhere";
  ASSERT_TRUE(explore.search(QString::fromLatin1(query)));
  QTest::qWait(50);
  const auto* results = explore.page.resultModel();
  const QTableView* view = explore.page.resultView();
  const int scoreCol = results->column(widgets::ResultTableModel::Column::Score);
  ASSERT_EQ(results->rowCount(), 10);

  // The CLI's lines: rank, id, score, title.
  const auto cli = runProcess(WANDSCOPE_CLI, {"search", built->indexPath.string(), "--query", query, "--op", "or"});
  ASSERT_EQ(cli.exitCode, 0) << cli.err;
  std::map<int, QString> cliScores;
  for (const QString& line : QString::fromStdString(cli.out).split(QLatin1Char('\n'))) {
    const QStringList words = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    bool rank = false;
    if (words.size() >= 3 && words[0].toInt(&rank) > 0 && rank) cliScores[words[0].toInt()] = words[2];
  }
  ASSERT_EQ(cliScores.size(), 10u) << cli.out;

  std::set<qsizetype> decimals;
  std::set<int> points;
  for (int r = 0; r < results->rowCount(); ++r) {
    const QModelIndex cell = results->index(r, scoreCol);
    const QString text = cell.data().toString();
    EXPECT_EQ(text, cliScores[r + 1]) << "rank " << r + 1;
    // Every digit: the text reads back as the score's own f32 bits, which the tooltip names.
    EXPECT_EQ(widgets::scoreBits(shownFloat(text)), cell.data(widgets::ResultTableModel::ScoreBitsRole).toUInt());
    EXPECT_TRUE(cell.data(Qt::ToolTipRole).toString().contains(QStringLiteral("f32 bits 0x"))) << r;
    EXPECT_EQ(cell.data(Qt::TextAlignmentRole).value<Qt::Alignment>(), Qt::AlignRight | Qt::AlignVCenter);
    decimals.insert(widgets::DecimalDelegate::fractionOf(text).size());
    points.insert(decimalPointXIn(view, cell));
    EXPECT_LE(view->visualRect(cell).right(), view->viewport()->width());
  }
  ASSERT_GT(decimals.size(), 1u) << "the scores of this query have the same number of decimals: nothing to line up";
  EXPECT_EQ(points.size(), 1u) << "the decimal points of the score column are drawn at " << points.size() << " x";

  // The explain panel of a result: idf, W and contribution, the sum row's too.
  auto* explainView = explore.page.findChild<QTableView*>(QStringLiteral("explain"));
  ASSERT_NE(explainView, nullptr);
  const auto* explain = explore.page.explainModel();
  ASSERT_GT(explain->rowCount(), 2);
  using E = widgets::ExplainTableModel;
  bool someDiffer = false;
  for (const int column : {E::IdfColumn, E::WeightColumn, E::ContributionColumn}) {
    std::set<int> columnPoints;
    std::set<qsizetype> columnDecimals;
    for (int r = 0; r < explain->rowCount(); ++r) {
      const QModelIndex cell = explain->index(r, column);
      const QString text = cell.data().toString();
      if (!text.contains(QLatin1Char('.'))) continue;
      EXPECT_EQ(cell.data(Qt::TextAlignmentRole).value<Qt::Alignment>(), Qt::AlignRight | Qt::AlignVCenter);
      columnDecimals.insert(widgets::DecimalDelegate::fractionOf(text).size());
      columnPoints.insert(decimalPointXIn(explainView, cell));
    }
    someDiffer = someDiffer || columnDecimals.size() > 1;
    EXPECT_EQ(columnPoints.size(), 1u) << "explain column " << column;
  }
  EXPECT_TRUE(someDiffer) << "no explain column mixes decimals: nothing to line up";
}


// Saved settings this version cannot use (a hand-edited file, another version's) were dropped
// without a word: an unknown switch, an AND-only path saved with OR. They keep the defaults, and
// the page says which and why; the usable ones are applied.
TEST(Pages, UnusableSavedSettingsAreNamedNotDropped) {
  TempDir dir;
  QSettings settings(qpath(dir / "explore.ini"), QSettings::IniFormat);
  settings.setValue(QStringLiteral("operator"), QStringLiteral("or"));
  settings.setValue(QStringLiteral("algorithm"), QStringLiteral("bulk-and"));
  settings.setValue(QStringLiteral("compare"), QStringLiteral("wand"));
  settings.setValue(QStringLiteral("switches"), QStringLiteral("freq_prune=off,bogus=off"));
  settings.setValue(QStringLiteral("k"), 25);
  IndexController indexController;
  QueryController queryController;
  const app::WorkbenchContext context{&indexController, &queryController};
  ExplorePage explore(context);
  explore.restoreSettings(settings);
  const auto p = explore.currentParams();
  EXPECT_EQ(p.op, engine::Operator::Or);
  EXPECT_EQ(p.algorithm, engine::Algorithm::Auto);
  EXPECT_EQ(p.compare, std::optional(engine::Algorithm::Wand));
  EXPECT_EQ(p.options, engine::SearchOptions{});
  EXPECT_EQ(p.k, 25u);
  EXPECT_FALSE(explore.notice()->isHidden());
  EXPECT_EQ(explore.notice()->kind(), NoticeBar::Kind::Warning);
  const QString text = explore.notice()->text();
  EXPECT_TRUE(text.contains(QStringLiteral("algorithm 'bulk-and' (it does not evaluate OR queries)"))) << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("switches 'freq_prune=off,bogus=off' (unknown optimisation 'bogus'")))
      << text.toStdString();
  EXPECT_FALSE(text.contains(QStringLiteral("wand"))) << "compare with wand was usable";
}
// A saved k above what the page takes (1,000: every hit gets its stored text and snippet) was cut
// to 1,000 without a word; it is named in the saved-settings warning, and so is a k that is no
// number from 1 up (which keeps the default).
TEST(Pages, ASavedKTheSpinBoxCannotTakeIsNamed) {
  TempDir dir;
  struct Case {
    QVariant saved;
    unsigned k;
    QString says;  // empty: no warning
  };
  const QLocale locale;
  for (const Case& c : {Case{5000, 1000, QStringLiteral("k %1 -> %2").arg(locale.toString(5000), locale.toString(1000))},
                        Case{QStringLiteral("many"), 10, QStringLiteral("k 'many' (not a number from 1 up)")},
                        Case{0, 10, QStringLiteral("k '0' (not a number from 1 up)")},
                        Case{1000, 1000, QString()}, Case{25, 25, QString()}}) {
    SCOPED_TRACE(c.saved.toString().toStdString());
    QSettings settings(qpath(dir / "k.ini"), QSettings::IniFormat);
    settings.clear();
    settings.setValue(QStringLiteral("k"), c.saved);
    IndexController indexController;
    QueryController queryController;
    const app::WorkbenchContext context{&indexController, &queryController};
    ExplorePage explore(context);
    explore.restoreSettings(settings);
    EXPECT_EQ(explore.currentParams().k, c.k);
    const bool warned = !explore.notice()->isHidden() && explore.notice()->kind() == NoticeBar::Kind::Warning;
    if (c.says.isEmpty()) {
      EXPECT_FALSE(warned) << explore.notice()->text().toStdString();
      continue;
    }
    EXPECT_TRUE(warned);
    EXPECT_TRUE(explore.notice()->text().contains(c.says)) << explore.notice()->text().toStdString();
  }
}

// Holds the query worker thread from construction until release() (or the end of the scope): a
// search sent meanwhile stays in flight, as a slow one does.
class ExploreWorkerHold {
 public:
  explicit ExploreWorkerHold(QueryController& q) {
    q.runOnWorkerThread([state = m_state] {
      state->held = true;
      while (!state->released) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
  }
  ~ExploreWorkerHold() { release(); }
  ExploreWorkerHold(const ExploreWorkerHold&) = delete;
  ExploreWorkerHold& operator=(const ExploreWorkerHold&) = delete;
  bool held() const { return m_state->held; }
  void release() { m_state->released = true; }

 private:
  struct State {
    std::atomic<bool> held{false};
    std::atomic<bool> released{false};
  };
  std::shared_ptr<State> m_state = std::make_shared<State>();
};

// Counts a widget's enabled/disabled switches.
class EnabledSwitchCounter : public QObject {
 public:
  int count = 0;
  bool eventFilter(QObject*, QEvent* e) override {
    if (e->type() == QEvent::EnabledChange) ++count;
    return false;
  }
};

// A search of a second or more (a 1,024-term query at k = 1,000 compared with exhaustive) kept
// the old results on screen with a small "searching…" at the far right: no time, nothing said
// about the results. Past a short grace the page says how long it has been searching and greys
// the results, summary and panels (the previous query's) until the new ones arrive; a quick
// search changes nothing on screen, so typing does not flicker.
TEST(Pages, ASlowSearchShowsItsTimeAndGreysThePreviousResults) {
  const auto built = buildTestIndex(explainCorpus());
  ExploreOn explore(built->index);
  explore.page.activateWindow();
  const bool active = QTest::qWaitForWindowActive(&explore.page);
  explore.page.setCompareAlgorithm(engine::Algorithm::Exhaustive);
  const QRegularExpression status(QStringLiteral("^searching\u2026 ([0-9.,]+) s"));
  const auto seconds = [&] {
    const auto m = status.match(explore.page.searchStatusText());
    return m.hasMatch() ? QLocale().toDouble(m.captured(1)) : -1.0;
  };
  {
    // The first search: nothing on screen yet, so no "previous results" to speak of.
    ExploreWorkerHold hold(explore.queryController);
    ASSERT_TRUE(QTest::qWaitFor([&] { return hold.held(); }, kPagesTimeoutMs));
    explore.page.setQueryText(QStringLiteral("w1 w2"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return seconds() >= 0; }, kPagesTimeoutMs));
    EXPECT_FALSE(explore.page.searchStatusText().contains(QStringLiteral("previous"))) << explore.page.searchStatusText().toStdString();
  }
  ASSERT_TRUE(QTest::qWaitFor([&] { return explore.ready.count() > 0 && !explore.queryController.isSearching(); },
                              kPagesTimeoutMs));
  auto* explainView = explore.page.findChild<QTableView*>(QStringLiteral("explain"));
  ASSERT_TRUE(explainView);

  EnabledSwitchCounter switches;
  explore.page.resultView()->installEventFilter(&switches);
  bool sawStatus = false;
  for (const char* quick : {"w3", "w4 w5", "w6 w7 w8"}) {
    const auto before = explore.ready.count();
    explore.page.setQueryText(QString::fromLatin1(quick));
    EXPECT_TRUE(explore.page.searchStatusText().isEmpty()) << explore.page.searchStatusText().toStdString();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
          sawStatus = sawStatus || !explore.page.searchStatusText().isEmpty();
          return explore.ready.count() > before && !explore.queryController.isSearching();
        },
        kPagesTimeoutMs));
  }
  EXPECT_FALSE(sawStatus) << "a quick search showed a status";
  EXPECT_EQ(switches.count, 0) << "a quick search greyed the results";

  ASSERT_TRUE(explore.search(QStringLiteral("w1 w2")));
  const auto previous = explore.page.resultModel()->snapshot();
  ASSERT_TRUE(previous && explore.page.resultModel()->rowCount() > 0);
  if (active) explore.page.resultView()->setFocus();
  ExploreWorkerHold hold(explore.queryController);
  ASSERT_TRUE(QTest::qWaitFor([&] { return hold.held(); }, kPagesTimeoutMs));
  explore.page.setQueryText(QStringLiteral("w3 w4"));
  ASSERT_TRUE(explore.queryController.isSearching());
  EXPECT_TRUE(explore.page.searchStatusText().isEmpty());
  EXPECT_FALSE(explore.page.showsStaleResults());

  // Past the grace: the time so far, and the previous results greyed, still there to read.
  ASSERT_TRUE(QTest::qWaitFor([&] { return seconds() >= 0; }, kPagesTimeoutMs))
      << explore.page.searchStatusText().toStdString();
  const double first = seconds();
  ASSERT_TRUE(QTest::qWaitFor([&] { return seconds() >= 1.0; }, kPagesTimeoutMs))
      << explore.page.searchStatusText().toStdString();
  EXPECT_GT(seconds(), first) << "the time counts up";
  EXPECT_TRUE(explore.page.searchStatusText().contains(QStringLiteral("previous query"))) << explore.page.searchStatusText().toStdString();
  EXPECT_TRUE(explore.page.showsStaleResults());
  EXPECT_FALSE(explore.page.resultView()->isEnabled());
  EXPECT_FALSE(explainView->isEnabled());
  EXPECT_FALSE(explore.page.identityLabel()->isVisible()) << "the old comparison's badge does not grey";
  EXPECT_EQ(explore.page.resultModel()->snapshot(), previous);
  EXPECT_GT(explore.page.resultModel()->rowCount(), 0);
  EXPECT_TRUE(explore.page.queryEdit()->isEnabled()) << "the controls stay usable";

  const auto before = explore.ready.count();
  hold.release();
  ASSERT_TRUE(QTest::qWaitFor([&] { return explore.ready.count() > before && !explore.queryController.isSearching(); },
                              kPagesTimeoutMs));
  EXPECT_TRUE(explore.page.searchStatusText().isEmpty()) << explore.page.searchStatusText().toStdString();
  EXPECT_FALSE(explore.page.showsStaleResults());
  EXPECT_TRUE(explore.page.resultView()->isEnabled());
  EXPECT_TRUE(explainView->isEnabled());
  EXPECT_TRUE(explore.page.identityLabel()->isVisible());
  ASSERT_TRUE(explore.page.resultModel()->snapshot());
  EXPECT_EQ(explore.page.resultModel()->snapshot()->text, QStringLiteral("w3 w4"));
  if (active) {
    EXPECT_TRUE(explore.page.resultView()->hasFocus()) << "the focus comes back to the results";
  }
}

// A 1,024-term query's explain listed every term in query order, the few in the document buried
// among the rest. A query of more than 12 terms lists only the terms the document holds (a box
// says how many of how many, and shows them all when unticked); the sum row stays the exact sum
// over all terms. The user's choice stays while the queries stay long (or short).
TEST(Pages, ALongQueryExplainsOnlyTheTermsInTheDocument) {
  const auto built = buildTestIndex(explainCorpus());
  ExploreOn explore(built->index);
  QStringList words;
  for (int i = 1; i <= 20; ++i) words << QStringLiteral("w%1").arg(i);
  words << QStringLiteral("zzzunknown");
  ASSERT_TRUE(explore.search(words.join(QLatin1Char(' '))));
  auto* box = explore.page.presentTermsBox();
  const auto* explain = explore.page.explainModel();
  const auto* results = explore.page.resultModel();
  ASSERT_GT(results->rowCount(), 0);
  EXPECT_TRUE(box->isChecked());
  const int present = explain->presentTermCount();
  ASSERT_GT(present, 0);
  ASSERT_LT(present, 21);
  ASSERT_EQ(explain->rowCount(), present + 1);
  using E = widgets::ExplainTableModel;
  for (int r = 0; r < present; ++r) {
    EXPECT_GT(explain->index(r, E::TfColumn).data(E::ValueRole).toUInt(), 0u) << r;
    if (r > 0) {
      EXPECT_GT(explain->termIndex(r), explain->termIndex(r - 1)) << "query order";
    }
  }
  EXPECT_EQ(box->text(), QStringLiteral("Only terms in this document (%1 of 21)").arg(present));
  const QString score = results->index(0, results->column(widgets::ResultTableModel::Column::Score)).data().toString();
  EXPECT_EQ(explain->index(present, E::ContributionColumn).data().toString(), score);
  EXPECT_TRUE(explain->sumMatchesScore());

  box->setChecked(false);
  EXPECT_EQ(explain->rowCount(), 22);
  ASSERT_TRUE(explore.search(words.join(QLatin1Char(' ')) + QStringLiteral(" w21")));
  EXPECT_FALSE(box->isChecked()) << "the user's choice stays for another long query";
  EXPECT_EQ(explain->rowCount(), 23);

  ASSERT_TRUE(explore.search(QStringLiteral("w1 w2 w3")));
  EXPECT_FALSE(box->isChecked());
  EXPECT_EQ(explain->rowCount(), 4);
  ASSERT_TRUE(explore.search(words.join(QLatin1Char(' '))));
  EXPECT_TRUE(box->isChecked()) << "a long query after a short one lists the present terms again";
  EXPECT_EQ(explain->rowCount(), explain->presentTermCount() + 1);
}

// Started on Explore (the last page), the window gave the keyboard focus to the log panel's
// filter: typing a query went nowhere. The query box takes the focus whenever the page comes up
// with the focus outside it (not from the tab bar, where arrow keys walk the tabs); Enter then
// searches at once, without waiting for the typing pause.
TEST(MainWindowTest, ExploreComesUpReadyToType) {
  TempDir dir;
  const auto request = writeSmallCorpus(dir);
  app::MainWindow window(scratchOptions(dir));
  window.showPage(QStringLiteral("explore"));
  window.resize(1280, 800);
  window.show();
  window.activateWindow();
  ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
  QApplication::processEvents();
  auto* explore = qobject_cast<ExplorePage*>(window.page(QStringLiteral("explore")));
  ASSERT_TRUE(explore);
  EXPECT_TRUE(explore->queryEdit()->hasFocus())
      << (QApplication::focusWidget() ? QApplication::focusWidget()->metaObject()->className() : "nothing");

  ASSERT_NO_FATAL_FAILURE(buildIn(window, request));
  window.showPage(QStringLiteral("explore"));
  auto* q = window.queryController();
  ASSERT_TRUE(QTest::qWaitFor([&] { return !q->isSearching(); }, kPagesTimeoutMs));
  q->setDebounceInterval(60'000);  // only Enter can search now
  QSignalSpy started(q, &QueryController::searchStarted);
  explore->queryEdit()->clear();
  QTest::keyClicks(explore->queryEdit(), QStringLiteral("w1 w2"));
  EXPECT_EQ(started.count(), 0);
  QTest::keyClick(explore->queryEdit(), Qt::Key_Return);
  EXPECT_EQ(started.count(), 1);
  ASSERT_TRUE(QTest::qWaitFor([&] { return !q->isSearching(); }, kPagesTimeoutMs));
  EXPECT_EQ(q->lastSnapshot() ? q->lastSnapshot()->text : QString(), QStringLiteral("w1 w2"));

  // The tab bar keeps the focus (keyboard navigation between tabs).
  auto* tabBar = window.findChild<QTabBar*>();
  ASSERT_TRUE(tabBar);
  window.showPage(QStringLiteral("index"));
  tabBar->setFocus();
  window.showPage(QStringLiteral("explore"));
  QApplication::processEvents();
  EXPECT_TRUE(tabBar->hasFocus());
}

}  // namespace
}  // namespace wandscope::test
