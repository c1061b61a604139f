// SPDX-License-Identifier: GPL-3.0-or-later
// The History page over a temporary run store: a recorded run shows up, opens with its rungs and
// plots, exports (HTML-escaped), and is deleted; a stored comparison is deleted after asking.
#include "app/controllers/history_controller.h"
#include "app/gui/pages/history_page.h"
#include "app/workers/report_bundle.h"
#include "engine/store/run_store.h"
#include "engine/store/sqlite_db.h"
#include "engine/store/store_run_observer.h"
#include "tests/app/app_test_support.h"
#include "tests/support/qt_test_support.h"
#include "tests/support/temp_dir.h"
#include "widgets/models/run_list_model.h"
#include "widgets/models/rung_table_model.h"
#include "widgets/plots/distribution_plot.h"
#include "widgets/views/load_dashboard.h"
#include "widgets/views/notice_bar.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QCoreApplication>
#include <QFile>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QTimer>

#include <filesystem>
#include <map>
#include <memory>

namespace wandscope::test {
namespace {

engine::RunReport sampleReport(const std::string& id, const std::string& profile) {
  engine::RunReport r;
  r.header.runId = id;
  r.header.profileName = profile;
  r.header.profileJson = "{}";
  r.header.targets = {"builtin"};
  r.header.environment.startedUtc = "2025-01-01T00:00:00Z";
  r.header.environment.guiAttached = true;
  r.header.environment.hostname = "host<1>";
  for (std::uint32_t i = 0; i < 3; ++i) {
    engine::RungResult g;
    g.index = i;
    g.target = "builtin";
    g.mode = "open";
    g.targetRate = 100.0 * (i + 1);
    g.achievedRate = g.targetRate;
    g.completed = 500;
    g.p50Ms = 1.0 + i;
    if (i > 0) g.p99Ms = 4.0 + i;  // rung 0: too thin
    g.cpuMsPerQuery = 0.2;
    g.counters = {{"doc_blocks_decoded", 10.0}, {"full_scores", 20.0}};
    g.verdict = "pass";
    r.rungs.push_back(g);
  }
  r.capacity["builtin"] = {300.0, std::nullopt, ""};
  return r;
}

// A History page over the run store `db`, shown at the size the tests look at it.
struct ShownHistoryPage {
  explicit ShownHistoryPage(const std::filesystem::path& db) {
    history.setStorePath(qpath(db));
    context.history = &history;
    page = std::make_unique<app::HistoryPage>(context);
    page->resize(1200, 760);
    page->show();
  }
  app::HistoryController history;
  app::WorkbenchContext context;
  std::unique_ptr<app::HistoryPage> page;
};

TEST(HistoryPage, ListsOpensExportsAndDeletesRuns) {
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  recordRun(db, sampleReport("20250101T000000Z-aaaaaa", "smoke"));
  recordRun(db, sampleReport("20250102T000000Z-bbbbbb", "<b>odd & name</b>"));

  ShownHistoryPage shown(db);
  app::HistoryPage& page = *shown.page;
  QAbstractItemModelTester t1(page.runModel(), kFatal);
  QAbstractItemModelTester t2(page.runProxy(), kFatal);
  QAbstractItemModelTester t3(page.rungModel(), kFatal);

  ASSERT_EQ(page.runModel()->rowCount(), 2);
  page.setSearchText(QStringLiteral("SMOKE"));
  ASSERT_EQ(page.runProxy()->rowCount(), 1);
  EXPECT_EQ(page.runProxy()->index(0, 0).data(widgets::RunListModel::RunIdRole).toString(),
            QStringLiteral("20250101T000000Z-aaaaaa"));
  page.setSearchText(QString());
  EXPECT_EQ(page.runProxy()->rowCount(), 2);

  ASSERT_TRUE(page.openRun(QStringLiteral("20250102T000000Z-bbbbbb")));
  ASSERT_EQ(page.rungModel()->rowCount(), 3);
  EXPECT_EQ(page.rungModel()->index(0, widgets::RungTableModel::P99).data().toString(), QStringLiteral("\u2014"));
  EXPECT_EQ(page.dashboard()->latencyPerRung()->pointCount(0), 3);
  EXPECT_EQ(page.dashboard()->latencyPerRung()->pointCount(1), 2);  // the thin p99 is not drawn
  // The verdict column is inside the visible table (as the model's last column, after the
  // numbers sized to their contents, it started off screen in this narrow pane).
  auto* rungView = page.findChild<QTableView*>(QStringLiteral("rungs"));
  ASSERT_NE(rungView, nullptr);
  QCoreApplication::processEvents();
  EXPECT_LT(rungView->columnViewportPosition(widgets::RungTableModel::Verdict) + 40, rungView->viewport()->width());
  // And so are the latencies and CPU, whole (review, stop 32: at 1280x800 only #, Target and the
  // verdict were in view).
  using C = widgets::RungTableModel;
  for (const C::Column c : {C::Load, C::P50, C::P99, C::CpuPerQuery}) {
    EXPECT_LE(rungView->columnViewportPosition(c) + rungView->columnWidth(c), rungView->viewport()->width())
        << page.rungModel()->headerData(c, Qt::Horizontal).toString().toStdString();
  }
  // No comparison stored: a note says where they come from, in place of an empty table.
  EXPECT_TRUE(page.comparisonsEmptyLabel()->isVisible());
  EXPECT_FALSE(page.comparisonView()->isVisible());
  EXPECT_TRUE(page.comparisonsEmptyLabel()->text().contains(QStringLiteral("Compare page")));
  EXPECT_FALSE(page.openRun(QStringLiteral("no-such-run")));

  // Export: the bundle, every text HTML-escaped.
  QString error;
  ASSERT_TRUE(page.exportRunTo(qpath(dir / "bundle"), &error)) << error.toStdString();
  for (const char* f : {"report.md", "report.json", "rungs.csv", "report.html"}) {
    EXPECT_TRUE(std::filesystem::exists(dir / "bundle" / f)) << f;
  }
  QFile html(qpath(dir / "bundle" / "report.html"));
  ASSERT_TRUE(html.open(QIODevice::ReadOnly));
  const QString text = QString::fromUtf8(html.readAll());
  EXPECT_FALSE(text.contains(QStringLiteral("<b>odd & name</b>")));
  EXPECT_TRUE(text.contains(QStringLiteral("&lt;b&gt;odd &amp; name&lt;/b&gt;")));
  EXPECT_TRUE(text.contains(QStringLiteral("host&lt;1&gt;")));
  EXPECT_GE(text.count(QStringLiteral("data:image/png;base64,")), 3);  // the per-rung plots

  // Delete: gone from the store and from the page.
  QSignalSpy changed(&shown.history, &app::HistoryController::changed);
  ASSERT_TRUE(page.deleteRun(QStringLiteral("20250102T000000Z-bbbbbb")));
  EXPECT_EQ(changed.count(), 1);
  ASSERT_EQ(page.runModel()->rowCount(), 1);
  EXPECT_EQ(page.runModel()->runId(0), QStringLiteral("20250101T000000Z-aaaaaa"));
  EXPECT_EQ(page.rungModel()->rowCount(), 0);  // the open run was the deleted one
  EXPECT_EQ(engine::RunStore::open(db).listRuns().size(), 1u);
  EXPECT_FALSE(page.deleteRun(QStringLiteral("20250102T000000Z-bbbbbb")));
}

engine::CompareReport sampleComparison(const std::string& id, const std::string& startedUtc) {
  engine::CompareReport c;
  c.runId = id;
  c.profileName = "quick-compare";
  c.environment.startedUtc = startedUtc;
  c.a = {"builtin", "0.4.0+abc", "gcc"};
  c.b = {"builtin:bulk_and=off", "0.4.0+abc", "gcc"};
  engine::CompareScenario s;
  s.name = "mid-df-2, CPU ms/query";
  s.querySet = "mid-df-2";
  s.metric = "cpu_ms_per_query";
  s.a = 0.2;
  s.b = 0.1;
  s.estimate = {2.0, 1.9, 2.1, 0.02, "faster"};
  c.scenarios.push_back(s);
  return c;
}

// Answers the next modal message box (the confirmation) with `button` once it is shown.
void answerNextMessageBox(QMessageBox::StandardButton button, bool* answered, int turns = 1000) {
  QTimer::singleShot(0, [button, answered, turns] {
    auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
    if (box == nullptr) {
      // Not shown yet: look again on the next turn (a bounded number of times).
      if (turns > 0) answerNextMessageBox(button, answered, turns - 1);
      return;
    }
    *answered = true;
    box->button(button)->click();
  });
}

// Delete comparison: asks first (No keeps it), then removes only that comparison from the store
// and the list; the runs stay. An id that is not stored is an error notice naming it.
TEST(HistoryPage, DeletesAStoredComparisonAfterAsking) {
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  recordRun(db, sampleReport("20250101T000000Z-aaaaaa", "smoke"));
  {
    auto store = engine::RunStore::open(db);
    store.saveComparison(sampleComparison("20250103T000000Z-cccccc", "2025-01-03T00:00:00Z"));
    store.saveComparison(sampleComparison("20250104T000000Z-dddddd", "2025-01-04T00:00:00Z"));
  }

  ShownHistoryPage shown(db);
  app::HistoryPage& page = *shown.page;

  ASSERT_EQ(page.comparisons().size(), 2u);
  EXPECT_EQ(page.comparisons()[0].compareId, "20250104T000000Z-dddddd");  // newest first
  QAction* remove = menuAction(page, QStringLiteral("Delete co&mparison\u2026"));
  ASSERT_TRUE(remove);
  EXPECT_FALSE(remove->isEnabled()) << "nothing selected";
  page.comparisonView()->selectRow(1);
  ASSERT_TRUE(remove->isEnabled());

  QSignalSpy changed(&shown.history, &app::HistoryController::changed);
  bool answered = false;
  answerNextMessageBox(QMessageBox::No, &answered);
  remove->trigger();
  EXPECT_TRUE(answered);
  EXPECT_EQ(changed.count(), 0);
  EXPECT_EQ(page.comparisons().size(), 2u) << "No keeps it";

  answered = false;
  answerNextMessageBox(QMessageBox::Yes, &answered);
  remove->trigger();
  EXPECT_TRUE(answered);
  EXPECT_EQ(changed.count(), 1);
  // The list refreshed: only the other comparison is left, on the page and in the store.
  ASSERT_EQ(page.comparisons().size(), 1u);
  EXPECT_EQ(page.comparisons()[0].compareId, "20250104T000000Z-dddddd");
  EXPECT_EQ(page.comparisonView()->rowCount(), 1);
  const auto store = engine::RunStore::open(db);
  ASSERT_EQ(store.listComparisons().size(), 1u);
  EXPECT_EQ(store.listComparisons()[0].compareId, "20250104T000000Z-dddddd");
  // The runs are untouched.
  ASSERT_EQ(store.listRuns().size(), 1u);
  EXPECT_EQ(page.runModel()->rowCount(), 1);

  // Deleting what is not there: an error naming the id, shown like the page's other errors.
  QSignalSpy errors(&page, &app::Page::errorOccurred);
  EXPECT_FALSE(page.deleteComparison(QStringLiteral("20250103T000000Z-cccccc")));
  ASSERT_EQ(errors.count(), 1);
  EXPECT_TRUE(errors.at(0).at(0).toString().contains(QStringLiteral("20250103T000000Z-cccccc")))
      << errors.at(0).at(0).toString().toStdString();
  EXPECT_EQ(page.comparisons().size(), 1u);
}

// A run the store cannot load (a damaged rung), selected in the list: the error shows, and the
// pane no longer shows the run opened before it - Export wrote that other run's bundle while the
// damaged one was selected. Delete stays available to remove the damaged run.
TEST(HistoryPage, SelectingAnUnloadableRunDoesNotLeaveAnotherOnShow) {
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  recordRun(db, sampleReport("20250101T000000Z-aaaaaa", "good"));
  recordRun(db, sampleReport("20250102T000000Z-bbbbbb", "damaged"));
  {
    engine::SqliteDb raw(db, engine::SqliteDb::OpenMode::ReadWrite);
    // The header: a damaged rung is left out of a shown run (next test); without its header
    // there is no run to show.
    raw.exec("UPDATE runs SET header_json = '{broken' WHERE run_id = '20250102T000000Z-bbbbbb'");
  }
  ShownHistoryPage shown(db);
  app::HistoryPage& page = *shown.page;
  auto* runView = page.findChild<QTableView*>(QStringLiteral("runs"));
  ASSERT_NE(runView, nullptr);
  auto rowOf = [&](const QString& id) {
    return page.runProxy()->mapFromSource(page.runModel()->index(page.runModel()->rowOf(id), 0));
  };
  runView->setCurrentIndex(rowOf(QStringLiteral("20250101T000000Z-aaaaaa")));
  ASSERT_TRUE(page.openRunReport());
  EXPECT_EQ(page.rungModel()->rowCount(), 3);

  QSignalSpy errors(&page, &app::Page::errorOccurred);
  runView->setCurrentIndex(rowOf(QStringLiteral("20250102T000000Z-bbbbbb")));  // as a click does
  ASSERT_EQ(errors.count(), 1);
  EXPECT_TRUE(errors.at(0).at(0).toString().contains(QStringLiteral("damaged"))) << errors.at(0).at(0).toString().toStdString();
  EXPECT_FALSE(page.openRunReport()) << "still showing " << page.openRunReport()->header.runId;
  EXPECT_EQ(page.rungModel()->rowCount(), 0);
  QString error;
  EXPECT_FALSE(page.exportRunTo(qpath(dir / "bundle"), &error));
  EXPECT_FALSE(std::filesystem::exists(dir / "bundle" / "report.json"));
  QAction* exportAction = menuAction(page, QStringLiteral("&Export run\u2026"));
  QAction* deleteAction = menuAction(page, QStringLiteral("&Delete run\u2026"));
  ASSERT_TRUE(exportAction && deleteAction);
  EXPECT_FALSE(exportAction->isEnabled());
  EXPECT_TRUE(deleteAction->isEnabled()) << "a damaged run can still be deleted";
}

// A run with one damaged stored rung showed none of its rungs ("cannot be shown"), and no page
// showed a run's warnings (report.md heads the report with them). The readable rungs are shown,
// the run is partial, and the notice names the rung left out and the run's own warnings; a run
// without warnings hides it again.
TEST(HistoryPage, ADamagedRungIsLeftOutAndTheRunsWarningsAreShown) {
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  auto warned = sampleReport("20250102T000000Z-bbbbbb", "damaged");
  warned.warnings = {"load average 5.92 on 2 cores at the start: the machine was shared"};
  recordRun(db, sampleReport("20250101T000000Z-aaaaaa", "good"));
  recordRun(db, warned);
  engine::SqliteDb(db, engine::SqliteDb::OpenMode::ReadWrite)
      .exec("UPDATE rungs SET rung_json = '{broken' WHERE seq = 1 AND run = "
            "(SELECT id FROM runs WHERE run_id = '20250102T000000Z-bbbbbb')");
  ShownHistoryPage shown(db);
  app::HistoryPage& page = *shown.page;
  auto* runView = page.findChild<QTableView*>(QStringLiteral("runs"));
  auto* notice = page.findChild<widgets::NoticeBar*>();
  ASSERT_TRUE(runView && notice);
  auto rowOf = [&](const QString& id) {
    return page.runProxy()->mapFromSource(page.runModel()->index(page.runModel()->rowOf(id), 0));
  };
  QSignalSpy errors(&page, &app::Page::errorOccurred);
  runView->setCurrentIndex(rowOf(QStringLiteral("20250102T000000Z-bbbbbb")));
  EXPECT_EQ(errors.count(), 0);
  ASSERT_TRUE(page.openRunReport());
  EXPECT_TRUE(page.openRunReport()->partial);
  ASSERT_EQ(page.rungModel()->rowCount(), 2);
  EXPECT_EQ(page.rungModel()->rungs()[0].index, 0u);
  EXPECT_EQ(page.rungModel()->rungs()[1].index, 2u);
  EXPECT_FALSE(notice->isHidden());
  EXPECT_EQ(notice->kind(), widgets::NoticeBar::Kind::Warning);
  const std::string text = notice->text().toStdString();
  EXPECT_NE(text.find("Warning: load average 5.92 on 2 cores at the start: the machine was shared."), std::string::npos)
      << text;
  EXPECT_NE(text.find("Warning: rung #1 (2nd of 3 stored) could not be read from the store and is left out"),
            std::string::npos)
      << text;
  // Export refuses it, as `runs export` does: a bundle must not pass for the whole run.
  QString error;
  EXPECT_FALSE(page.exportRunTo(qpath(dir / "bundle"), &error));
  EXPECT_TRUE(error.contains(QStringLiteral("damaged parts left out"))) << error.toStdString();
  EXPECT_FALSE(std::filesystem::exists(dir / "bundle" / "report.json"));
  // A refresh does not read it again (the store's 3 rungs against the 2 shown looked like a run
  // still recording): a closed bar stays closed.
  notice->hideNotice();
  page.refresh();
  EXPECT_TRUE(notice->isHidden()) << notice->text().toStdString();
  ASSERT_TRUE(page.openRunReport());
  EXPECT_EQ(page.openRunReport()->header.runId, "20250102T000000Z-bbbbbb");

  runView->setCurrentIndex(rowOf(QStringLiteral("20250101T000000Z-aaaaaa")));
  ASSERT_TRUE(page.openRunReport());
  EXPECT_EQ(page.rungModel()->rowCount(), 3);
  EXPECT_TRUE(notice->isHidden()) << "the other run's warnings are not this one's: " << notice->text().toStdString();

  // Deleting the warned run while it is shown takes its warnings with it.
  runView->setCurrentIndex(rowOf(QStringLiteral("20250102T000000Z-bbbbbb")));
  ASSERT_FALSE(notice->isHidden());
  ASSERT_TRUE(page.deleteRun(QStringLiteral("20250102T000000Z-bbbbbb")));
  EXPECT_TRUE(notice->isHidden() || notice->kind() != widgets::NoticeBar::Kind::Warning) << notice->text().toStdString();
}

// The open run read again when the list refreshes and the store holds more of it: opened while
// the Load page was still recording it, it kept its first rungs after the run had finished (the
// list beside it said 3 rungs, complete; the table showed 1).
TEST(HistoryPage, RefreshRereadsTheOpenRunWhenTheStoreHasMoreOfIt) {
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  const auto report = sampleReport("20250101T000000Z-aaaaaa", "growing");
  engine::StoreRunObserver observer(db);
  observer.onRunStarted(report.header);
  observer.onRungFinished(report.header, report.rungs[0]);

  ShownHistoryPage shown(db);
  app::HistoryPage& page = *shown.page;
  ASSERT_TRUE(page.openRun(QStringLiteral("20250101T000000Z-aaaaaa")));
  ASSERT_EQ(page.rungModel()->rowCount(), 1);
  EXPECT_EQ(page.dashboard()->cpuPerRung()->pointCount(0), 1);

  observer.onRungFinished(report.header, report.rungs[1]);
  observer.onRungFinished(report.header, report.rungs[2]);
  observer.onRunFinished(report);
  shown.history.notifyChanged();  // what the Load page does when its run ends
  ASSERT_EQ(page.runModel()->rowCount(), 1);
  EXPECT_EQ(page.runModel()->runs()[0].rungs, 3u);
  ASSERT_TRUE(page.openRunReport());
  EXPECT_EQ(page.openRunReport()->rungs.size(), 3u);
  EXPECT_EQ(page.rungModel()->rowCount(), 3);
  EXPECT_EQ(page.dashboard()->cpuPerRung()->pointCount(0), 3);
}

// With no run open the plots say how to get one here: they said "Start a run to see it here", on
// a page that starts nothing.
TEST(HistoryPage, EmptyPlotsSayToSelectARun) {
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  recordRun(db, sampleReport("20250101T000000Z-aaaaaa", "smoke"));
  ShownHistoryPage shown(db);
  app::HistoryPage& page = *shown.page;
  ASSERT_FALSE(page.openRunReport());
  for (auto* plot : page.dashboard()->plots()) {
    EXPECT_TRUE(plot->emptyText().contains(QStringLiteral("Select a run"))) << plot->emptyText().toStdString();
    EXPECT_FALSE(plot->emptyText().contains(QStringLiteral("Start a run"))) << plot->emptyText().toStdString();
  }
  // Opened and then gone (deleted): the same words again.
  ASSERT_TRUE(page.openRun(QStringLiteral("20250101T000000Z-aaaaaa")));
  ASSERT_TRUE(page.deleteRun(QStringLiteral("20250101T000000Z-aaaaaa")));
  EXPECT_TRUE(page.dashboard()->cpuPerRung()->emptyText().contains(QStringLiteral("Select a run")));
}

// Two runs Ctrl+clicked (to compare them), then Refresh, or a run recorded meanwhile (the Load
// page refreshes the list): the same two runs stay selected, by run id, and the run opened last
// stays shown. The refresh kept only the current run selected, so Compare runs... went grey.
TEST(HistoryPage, RefreshKeepsTwoSelectedRuns) {
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  const QString older = QStringLiteral("20250101T000000Z-aaaaaa");
  const QString middle = QStringLiteral("20250102T000000Z-bbbbbb");
  const QString newer = QStringLiteral("20250103T000000Z-cccccc");
  for (const QString& id : {older, middle, newer}) recordRun(db, sampleReport(id.toStdString(), "smoke"));
  ShownHistoryPage shown(db);
  app::HistoryPage& page = *shown.page;
  auto* runView = page.findChild<QTableView*>(QStringLiteral("runs"));
  ASSERT_NE(runView, nullptr);
  ASSERT_TRUE(QTest::qWaitForWindowExposed(page.window()));
  auto click = [&](const QString& id, Qt::KeyboardModifiers modifiers) {
    const QModelIndex index = page.runProxy()->mapFromSource(page.runModel()->index(page.runModel()->rowOf(id), 0));
    ASSERT_TRUE(index.isValid());
    QTest::mouseClick(runView->viewport(), Qt::LeftButton, modifiers, runView->visualRect(index).center());
  };
  click(older, Qt::NoModifier);
  click(newer, Qt::ControlModifier);
  ASSERT_EQ(page.selectedRunIds().size(), 2);
  const QStringList selected = page.selectedRunIds();
  ASSERT_TRUE(page.openRunReport());
  EXPECT_EQ(QString::fromStdString(page.openRunReport()->header.runId), newer);
  QAction* refresh = menuAction(page, QStringLiteral("&Refresh"));
  QAction* compare = menuAction(page, QStringLiteral("&Compare runs\u2026"));
  ASSERT_TRUE(refresh && compare);
  EXPECT_TRUE(compare->isEnabled());

  refresh->trigger();
  auto sorted = [](QStringList ids) {
    ids.sort();
    return ids;
  };
  EXPECT_EQ(sorted(page.selectedRunIds()), sorted(selected));
  EXPECT_EQ(page.rungModel()->rowCount(), 3);
  ASSERT_TRUE(page.openRunReport());
  EXPECT_EQ(QString::fromStdString(page.openRunReport()->header.runId), newer) << "the current run stays shown";
  EXPECT_EQ(runView->currentIndex().data(widgets::RunListModel::RunIdRole).toString(), newer);
  EXPECT_TRUE(compare->isEnabled());

  // A run recorded meanwhile: the list grows, rows move, the selection follows the ids.
  recordRun(db, sampleReport("20250104T000000Z-dddddd", "smoke"));
  shown.history.notifyChanged();
  ASSERT_EQ(page.runModel()->rowCount(), 4);
  EXPECT_EQ(sorted(page.selectedRunIds()), sorted(selected));
  EXPECT_EQ(QString::fromStdString(page.openRunReport()->header.runId), newer);

  // The shown run deleted: the other selected run is left, selected, and shown - not highlighted
  // beside an empty pane.
  ASSERT_TRUE(page.deleteRun(newer));
  EXPECT_EQ(page.selectedRunIds(), QStringList{older});
  ASSERT_TRUE(page.openRunReport());
  EXPECT_EQ(QString::fromStdString(page.openRunReport()->header.runId), older);
  EXPECT_FALSE(compare->isEnabled());
}

// A stored run of two targets: each per-rung plot draws each target as its own series, with only
// that target's rungs (one line ran from the first target's last rung to the second's first), at
// the rates offered (both ladders offer 100, 200 and 300/s).
TEST(HistoryPage, PerRungPlotsDrawEachTargetApart) {
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  auto report = sampleReport("20250101T000000Z-aaaaaa", "two targets");
  const std::string other = "synthetic:service_us=200";
  report.header.targets.push_back(other);
  for (std::uint32_t i = 0; i < 3; ++i) {
    engine::RungResult g = report.rungs[i];
    g.index = 3 + i;
    g.target = other;
    g.cpuMsPerQuery = 0.05;
    report.rungs.push_back(g);
  }
  recordRun(db, report);
  ShownHistoryPage shown(db);
  app::HistoryPage& page = *shown.page;
  ASSERT_TRUE(page.openRun(QStringLiteral("20250101T000000Z-aaaaaa")));
  const widgets::DistributionPlot* cpu = page.dashboard()->cpuPerRung();
  ASSERT_EQ(cpu->seriesCount(), 2);
  std::map<QString, QList<double>> keys;
  for (int i = 0; i < cpu->seriesCount(); ++i) {
    for (const auto& p : *cpu->graph(i)->data()) keys[cpu->graph(i)->name()] << p.key;
  }
  EXPECT_EQ(keys[QStringLiteral("builtin")], (QList<double>{100, 200, 300}));
  EXPECT_EQ(keys[QString::fromStdString(other)], (QList<double>{100, 200, 300}));
  EXPECT_EQ(cpu->xAxis->label(), QStringLiteral("offered load (requests/s)"));
  EXPECT_EQ(cpu->xAxis->scaleType(), QCPAxis::stLogarithmic) << "100 to 300/s: 3x";
  EXPECT_NE(cpu->graph(0)->pen().color(), cpu->graph(1)->pen().color());
  EXPECT_EQ(cpu->legendTexts(), (QStringList{QStringLiteral("builtin"), QString::fromStdString(other)}));
  // Latency: p50 and p99 per target, the thin p99 of each target's rung 0 left out.
  const widgets::DistributionPlot* latency = page.dashboard()->latencyPerRung();
  ASSERT_EQ(latency->seriesCount(), 4);
  int points = 0;
  for (int i = 0; i < latency->seriesCount(); ++i) points += latency->pointCount(i);
  EXPECT_EQ(points, 3 + 2 + 3 + 2);
}

TEST(HistoryPage, ABadStoreIsAMessageNotACrash) {
  TempDir dir;
  const auto bad = dir.write("garbage.sqlite", std::string(4096, 'x'));
  app::HistoryController history;
  history.setStorePath(qpath(bad));
  QString error;
  EXPECT_TRUE(history.list(QString(), &error).empty());
  EXPECT_TRUE(error.contains(QStringLiteral("garbage.sqlite"))) << error.toStdString();
  app::WorkbenchContext context;
  context.history = &history;
  app::HistoryPage page(context);
  EXPECT_EQ(page.runModel()->rowCount(), 0);
}

TEST(ReportBundle, HtmlEscapesEveryTextAndLabelsTheGui) {
  auto report = sampleReport("run<&>", "p\"q");
  report.warnings = {"<script>alert(1)</script>"};
  const QString html = app::reportHtml(report, {{QStringLiteral("<plot>"), QByteArray("png")}});
  EXPECT_FALSE(html.contains(QStringLiteral("<script>alert")));
  EXPECT_TRUE(html.contains(QStringLiteral("&lt;script&gt;alert(1)&lt;/script&gt;")));
  EXPECT_TRUE(html.contains(QStringLiteral("run&lt;&amp;&gt;")));
  EXPECT_TRUE(html.contains(QStringLiteral("alt=\"&lt;plot&gt;\"")));
  EXPECT_TRUE(html.contains(QStringLiteral("data:image/png;base64,") + QString::fromLatin1(QByteArray("png").toBase64())));
  EXPECT_TRUE(html.contains(QStringLiteral("Measured with the workbench GUI attached")));
  report.header.environment.guiAttached = false;
  EXPECT_FALSE(app::reportHtml(report, {}).contains(QStringLiteral("Measured with the workbench GUI attached")));
}

}  // namespace
}  // namespace wandscope::test
