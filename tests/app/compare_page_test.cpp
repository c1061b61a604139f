// SPDX-License-Identifier: GPL-3.0-or-later
// The Compare page's controller, worker and page on a real comparison: builtin against
// builtin:bulk_and=off on a 2,000-document default dataset, checked against engine::CompareRunner
// run directly on the same profile; the result diff of a query against a direct engine::search;
// the export; and History's Compare... with two stored runs.
#include "app/controllers/compare_controller.h"
#include "app/controllers/history_controller.h"
#include "app/gui/pages/compare_page.h"
#include "app/gui/pages/history_page.h"
#include "app/gui/main_window.h"
#include "engine/bench/compare_runner.h"
#include "engine/bench/compare_stats.h"
#include "engine/bench/default_dataset.h"
#include "engine/index/index.h"
#include "engine/query/searcher.h"
#include "engine/store/run_store.h"
#include "engine/store/store_run_observer.h"
#include "tests/app/app_test_support.h"
#include "tests/support/qt_test_support.h"
#include "tests/support/temp_dir.h"
#include "widgets/models/explain_table_model.h"
#include "widgets/models/ratio_table_model.h"
#include "widgets/models/result_diff_model.h"
#include "widgets/plots/compare_plot.h"
#include "widgets/views/result_diff_view.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QHeaderView>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QListWidget>
#include <QSignalSpy>
#include <QTableView>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <set>

namespace wandscope::test {
namespace {

constexpr int kCompareTimeoutMs = 300'000;

const char* const kCompareProfile = R"({
  "format_version": 1,
  "name": "compare-test",
  "description": "Compare page test: two query sets of a tiny default dataset.",
  "dataset": {"default": {"docs": 2000}},
  "query_sets": ["mid-df-1", "mid-df-2"],
  "query": {"op": "and", "k": 10, "algorithm": "auto"},
  "targets": ["builtin"],
  "seed": 42,
  "mode": "closed",
  "closed": {"concurrency": [1], "warmup_s": 0.05, "measure_s": 0.5, "passes": 1}
})";

// The page asks both targets for a diff when its query list fills and again when a query is
// selected, so one or two diffs of the same query may arrive, in either order with the test's
// waits (CI's ASan run delivered both in one event batch). Wait until the panel shows the latest
// diff delivered and it is the selected query's, and return it.
widgets::QueryDiffSnapshotPtr waitForShownDiff(app::ComparePage& page, QSignalSpy& diffs) {
  widgets::QueryDiffSnapshotPtr shown;
  const bool ok = QTest::qWaitFor(
      [&] {
        if (diffs.isEmpty()) return false;
        const auto latest = diffs.last().at(0).value<widgets::QueryDiffSnapshotPtr>();
        const QListWidgetItem* item = page.queryList()->currentItem();
        if (latest == nullptr || page.diffView()->model()->snapshot() != latest || item == nullptr) return false;
        const QString id = QString(item->text()).remove(QStringLiteral("\u2260 ")).section(QStringLiteral("  "), 0, 0);
        if (id != latest->queryId) return false;
        shown = latest;
        return true;
      },
      kCompareTimeoutMs);
  return ok ? shown : nullptr;
}

// A Compare page on the test profile cut to one query set (mid-df-2); its controller caches the
// dataset under the fixture's temporary directory.
struct OneSetPage {
  TempDir dir;
  app::CompareController controller;
  app::WorkbenchContext context;
  app::ComparePage page{context, &controller};
  OneSetPage() {
    std::string text = kCompareProfile;
    text.replace(text.find(R"(["mid-df-1", "mid-df-2"])"), 24, R"(["mid-df-2"])");
    controller.setCacheRoot(qpath(dir / "cache"));
    page.selectProfileFile(qpath(dir.write("compare-test.json", text)));
  }
};

engine::RunReport storedRun(const std::string& id, const std::string& target, double cpu);

bool isVerdict(const std::string& v) {
  return v == "faster" || v == "slower" || v == "no-difference" || v == "inconclusive";
}

TEST(ComparePage, RunsBuiltinAgainstBulkAndOffLikeTheRunner) {
  TempDir dir;
  const auto profilePath = dir.write("compare-test.json", kCompareProfile);
  const auto cache = dir / "cache";

  app::CompareController controller;
  controller.setCacheRoot(qpath(cache));
  app::WorkbenchContext context;
  app::ComparePage page(context, &controller);
  QAbstractItemModelTester t1(page.ratioModel(), kFatal);
  QAbstractItemModelTester t2(page.diffView()->model(), kFatal);
  QAbstractItemModelTester t3(page.diffView()->explainModelA(), kFatal);
  QAbstractItemModelTester t4(page.diffView()->explainModelB(), kFatal);
  page.resize(1280, 800);
  page.show();
  page.selectProfileFile(qpath(profilePath));
  page.setTargets(QStringLiteral("builtin"), QStringLiteral("builtin:bulk_and=off"));
  page.setRepetitions(1);
  page.setWarmPasses(1);
  QString error;
  ASSERT_TRUE(page.currentJob(&error)) << error.toStdString();
  EXPECT_EQ(page.currentJob()->warmPasses, 1u);

  // A target of no known kind is refused before anything runs, naming it.
  page.setTargets(QStringLiteral("builtin"), QStringLiteral("nosuchengine"));
  EXPECT_FALSE(page.currentJob(&error));
  EXPECT_TRUE(error.contains(QStringLiteral("nosuchengine"))) << error.toStdString();
  page.setTargets(QStringLiteral("builtin"), QStringLiteral("builtin:bulk_and=off"));

  QSignalSpy started(&controller, &app::CompareController::compareStarted);
  QSignalSpy sets(&controller, &app::CompareController::setFinished);
  QSignalSpy finished(&controller, &app::CompareController::compareFinished);
  QSignalSpy failed(&controller, &app::CompareController::compareFailed);
  QSignalSpy queries(&controller, &app::CompareController::queriesReady);
  page.startComparison();
  ASSERT_EQ(started.count(), 1);
  EXPECT_TRUE(controller.isRunning());
  EXPECT_FALSE(controller.start(*page.currentJob()));  // one comparison at a time
  ASSERT_TRUE(QTest::qWaitFor([&] { return finished.count() > 0 || failed.count() > 1; }, kCompareTimeoutMs));
  ASSERT_EQ(finished.count(), 1) << failed.at(failed.count() - 1).at(0).toString().toStdString();
  EXPECT_FALSE(controller.isRunning());
  const auto report = page.report();
  ASSERT_TRUE(report);
  EXPECT_FALSE(report->partial);
  EXPECT_EQ(report->warmPasses, 1u) << "the page's warm passes reach the runner";

  // Live: one row batch and one progress line per query set, as they finished.
  EXPECT_EQ(sets.count(), 2);
  const QStringList lines = page.progressText().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  ASSERT_EQ(lines.size(), 2) << page.progressText().toStdString();
  EXPECT_TRUE(lines[0].startsWith(QStringLiteral("mid-df-1: CPU A "))) << lines[0].toStdString();
  EXPECT_TRUE(lines[1].contains(QStringLiteral("identical")));
  // The plot: one point per set per target, the report's figures.
  auto* plot = page.plot();
  EXPECT_EQ(plot->querySets(), (QStringList{QStringLiteral("mid-df-1"), QStringLiteral("mid-df-2")}));
  EXPECT_EQ(plot->pointCount(0), 2);
  EXPECT_EQ(plot->pointCount(1), 2);
  EXPECT_DOUBLE_EQ(plot->value(0, 1), report->scenarios[2].a);
  EXPECT_DOUBLE_EQ(plot->value(1, 1), report->scenarios[2].b);

  // The same comparison run by the engine directly, on the same (now cached) dataset.
  auto profile = engine::loadBenchProfile(profilePath);
  engine::CompareOptions options;
  options.repetitions = 1;
  options.warmPasses = 1;
  options.warmupSeconds = 0.05;
  options.bootstrapSamples = 200;
  options.cacheDir = cache;
  const auto direct = engine::CompareRunner(profile, "builtin", "builtin:bulk_and=off", options).run();

  // The table: the report's rows, in the runner's order, with valid verdicts and the runner's
  // result equality - bulk AND on or off returns the same documents with the same score bits.
  const auto* model = page.ratioModel();
  ASSERT_EQ(model->rowCount(), static_cast<int>(direct.scenarios.size()));
  ASSERT_EQ(direct.scenarios.size(), 4u);
  for (int r = 0; r < model->rowCount(); ++r) {
    const auto& d = direct.scenarios[static_cast<std::size_t>(r)];
    const auto* s = model->scenario(r);
    SCOPED_TRACE(d.name);
    EXPECT_EQ(s->querySet, d.querySet);
    EXPECT_EQ(s->metric, d.metric);
    EXPECT_TRUE(isVerdict(s->estimate.verdict)) << s->estimate.verdict;
    EXPECT_EQ(model->data(model->index(r, widgets::RatioTableModel::Verdict)).toString(),
              QString::fromStdString(s->estimate.verdict));
    EXPECT_LE(s->estimate.ciLow, s->estimate.ratio);
    EXPECT_GE(s->estimate.ciHigh, s->estimate.ratio);
    EXPECT_EQ(s->diff.queries, d.diff.queries);
    EXPECT_GT(s->diff.queries, 0u);
    EXPECT_EQ(d.diff.rowSetDiff, 0u);
    EXPECT_EQ(d.diff.scoreBitDiff, 0u);
    EXPECT_EQ(s->diff.rowSetDiff, d.diff.rowSetDiff);
    EXPECT_EQ(s->diff.scoreBitDiff, d.diff.scoreBitDiff);
    EXPECT_EQ(s->diff.firstDivergingRank, d.diff.firstDivergingRank);
    EXPECT_EQ(model->data(model->index(r, widgets::RatioTableModel::Results)).toString(), QStringLiteral("identical"));
  }
  EXPECT_EQ(report->a.spec, direct.a.spec);
  EXPECT_EQ(report->b.spec, direct.b.spec);

  // The result diff: the sets and their queries, then a query answered by both targets.
  ASSERT_TRUE(QTest::qWaitFor([&] { return queries.count() > 0; }, kCompareTimeoutMs));
  ASSERT_EQ(page.querySetList()->count(), 2);
  EXPECT_TRUE(page.querySetList()->itemText(0).contains(QStringLiteral("identical")));
  EXPECT_EQ(page.queryList()->count(), 0);  // nothing differs, and identical queries are not listed yet
  page.setShowIdentical(true);
  ASSERT_TRUE(page.selectQuerySet(QStringLiteral("mid-df-2")));
  const auto* querySets = controller.querySets().get();
  ASSERT_EQ(querySets->size(), 2u);
  const auto& set = (*querySets)[1];
  ASSERT_EQ(page.queryList()->count(), static_cast<int>(set.ids.size()));
  // The engine's own answer (the default dataset's index, the same request) for the first query
  // of the set that has results.
  const auto index = engine::Index::open(engine::defaultDatasetSpec(cache, 2000).index);
  engine::SearchResult expected;
  int row = -1;
  for (int r = 0; r < page.queryList()->count() && row < 0; ++r) {
    const int q = page.queryList()->item(r)->data(Qt::UserRole).toInt();
    engine::SearchRequest request;
    request.text = set.texts[static_cast<std::size_t>(q)].toStdString();
    request.op = engine::Operator::And;
    request.k = 10;
    expected = engine::search(*index, request);
    if (!expected.hits.empty()) row = r;
  }
  ASSERT_GE(row, 0) << "no query of mid-df-2 has results";
  const QString id = set.ids[static_cast<std::size_t>(page.queryList()->item(row)->data(Qt::UserRole).toInt())];
  ASSERT_TRUE(page.selectQuery(row));
  ASSERT_TRUE(QTest::qWaitFor(
      [&] {
        const auto& s = page.diffView()->model()->snapshot();
        return s && s->queryId == id;
      },
      kCompareTimeoutMs));
  const auto snap = page.diffView()->model()->snapshot();
  EXPECT_FALSE(snap->diff.any());
  EXPECT_EQ(snap->a.hits.size(), snap->b.hits.size());
  EXPECT_TRUE(page.diffView()->headerText().contains(QStringLiteral("identical")));
  ASSERT_EQ(snap->a.hits.size(), expected.hits.size());
  for (std::size_t i = 0; i < expected.hits.size(); ++i) {
    EXPECT_EQ(snap->a.hits[i].doc, expected.hits[i].doc);
    EXPECT_EQ(widgets::scoreBits(snap->a.hits[i].score), widgets::scoreBits(expected.hits[i].score));
  }
  // The built-in engine explains its scores: the explain sums to the score's bits.
  ASSERT_TRUE(snap->a.explain);
  ASSERT_TRUE(snap->b.explain);
  EXPECT_GT(page.diffView()->explainModelA()->rowCount(), 1);
  EXPECT_TRUE(page.diffView()->explainModelA()->sumMatchesScore());

  // Export: report.md and report.json as the CLI writes them.
  const auto out = dir / "export";
  ASSERT_TRUE(page.exportReportTo(qpath(out), &error)) << error.toStdString();
  std::ifstream in(out / "report.json");
  const auto json = nlohmann::json::parse(in);
  ASSERT_EQ(json.at("scenarios").size(), 4u);
  EXPECT_EQ(json.at("scenarios")[0].at("row_set_diff"), 0);
  EXPECT_EQ(json.at("scenarios")[0].at("score_bit_diff"), 0);
  EXPECT_TRUE(std::filesystem::exists(out / "report.md"));

  // A switch the engine does not have is refused before anything runs (the targets' options are
  // checked with the profile since stop 32), with a message naming it.
  page.setTargets(QStringLiteral("builtin"), QStringLiteral("builtin:no_such_switch=on"));
  EXPECT_FALSE(page.currentJob(&error));
  EXPECT_TRUE(error.contains(QStringLiteral("no_such_switch"))) << error.toStdString();
  EXPECT_FALSE(controller.isRunning());
  // The plot no longer says it is waiting for a query set.
  EXPECT_FALSE(page.plot()->emptyText().contains(QStringLiteral("Waiting"))) << page.plot()->emptyText().toStdString();
}

TEST(ComparePage, StopEndsTheComparisonPartial) {
  TempDir dir;
  std::string text = kCompareProfile;
  const auto profilePath = dir.write("compare-test.json", text);
  app::CompareController controller;
  controller.setCacheRoot(qpath(dir / "cache"));
  app::HistoryController history;
  history.setStorePath(qpath(dir / "runs.sqlite"));
  app::WorkbenchContext context;
  context.history = &history;
  app::ComparePage page(context, &controller);
  page.selectProfileFile(qpath(profilePath));
  page.setTargets(QStringLiteral("builtin"), QStringLiteral("builtin:bulk_and=off"));
  page.setRepetitions(100);  // far longer than the test waits
  QSignalSpy sets(&controller, &app::CompareController::setFinished);
  QSignalSpy finished(&controller, &app::CompareController::compareFinished);
  QSignalSpy failed(&controller, &app::CompareController::compareFailed);
  QSignalSpy queries(&controller, &app::CompareController::queriesReady);
  page.startComparison();
  ASSERT_TRUE(QTest::qWaitFor([&] { return sets.count() > 0 || finished.count() > 0 || failed.count() > 0; }, kCompareTimeoutMs));
  page.stopComparison();
  ASSERT_TRUE(QTest::qWaitFor([&] { return finished.count() > 0 || failed.count() > 0; }, kCompareTimeoutMs));
  ASSERT_EQ(failed.count(), 0) << failed.at(0).at(0).toString().toStdString();
  ASSERT_TRUE(page.report());
  EXPECT_TRUE(page.report()->partial);
  EXPECT_LT(page.report()->scenarios.size(), 4u);
  EXPECT_FALSE(controller.isRunning());
  // Stopped comparisons go into the run history too, flagged partial.
  QString error;
  const auto stored = history.listComparisons(&error);
  ASSERT_EQ(stored.size(), 1u) << error.toStdString();
  EXPECT_EQ(stored[0].compareId, page.report()->runId);
  EXPECT_TRUE(stored[0].partial);
  EXPECT_EQ(stored[0].aSpec, "builtin");
  EXPECT_EQ(stored[0].bSpec, "builtin:bulk_and=off");
  EXPECT_NE(page.progressText().indexOf(QStringLiteral("Stored in the run history")), -1);

  // Stop keeps the finished sets' result diff: the targets are prepared again (the panel said
  // "Preparing both targets again..." for good before), the set the comparison stopped before is
  // listed as not measured (not "identical"), and a query of a finished set is answered by both.
  ASSERT_TRUE(QTest::qWaitFor([&] { return queries.count() > 0; }, kCompareTimeoutMs)) << "no result diff after Stop";
  std::set<QString> measured;
  for (const auto& s : page.report()->scenarios) measured.insert(QString::fromStdString(s.querySet));
  ASSERT_EQ(measured.size(), 1u);  // stopped during the second set
  ASSERT_EQ(page.querySetList()->count(), 2);
  for (int i = 0; i < 2; ++i) {
    const QString item = page.querySetList()->itemText(i);
    const bool wasMeasured = measured.count(page.querySetList()->itemData(i).toString()) > 0;
    EXPECT_EQ(item.contains(QStringLiteral("not measured")), !wasMeasured) << item.toStdString();
    EXPECT_EQ(item.contains(QStringLiteral("identical")), wasMeasured) << item.toStdString();
  }
  page.setShowIdentical(true);
  ASSERT_TRUE(page.selectQuerySet(*measured.begin()));
  ASSERT_GT(page.queryList()->count(), 0);
  QSignalSpy diffs(&controller, &app::CompareController::queryDiffReady);
  ASSERT_TRUE(page.selectQuery(0));
  const auto snap = waitForShownDiff(page, diffs);
  ASSERT_NE(snap, nullptr);
  EXPECT_EQ(snap->querySet, *measured.begin());
  EXPECT_TRUE(snap->a.ok && snap->b.ok);
}

// History's two recorded runs: the progress line writes each figure as the table and the plot do
// (engine::significant), not "1.235e+04".
TEST(ComparePage, RecordedRunsWriteFiguresAsTheTable) {
  app::CompareController controller;
  app::WorkbenchContext context;
  app::ComparePage page(context, &controller);
  page.showRecordedComparison(
      std::make_shared<const engine::RunReport>(storedRun("20250101T000000Z-aaaaaa", "builtin", 12345.6)),
      std::make_shared<const engine::RunReport>(storedRun("20250102T000000Z-bbbbbb", "builtin:bulk_and=off", 0.0000123)));
  const auto* model = page.ratioModel();
  ASSERT_GT(model->rowCount(), 0);
  ASSERT_EQ(model->scenario(0)->metric, "cpu_ms_per_query");
  const QString a = model->data(model->index(0, widgets::RatioTableModel::A)).toString();
  const QString b = model->data(model->index(0, widgets::RatioTableModel::B)).toString();
  EXPECT_EQ(a, QStringLiteral("12,346 ms"));
  EXPECT_EQ(b, QStringLiteral("0.0000123 ms"));
  const QString line = page.progressText().section(QLatin1Char('\n'), 0, 0);
  EXPECT_TRUE(line.contains(QStringLiteral("CPU A %1, B %2/query").arg(a, b))) << line.toStdString();
  EXPECT_TRUE(page.plot()->pointText(0, 0).contains(a)) << page.plot()->pointText(0, 0).toStdString();
  EXPECT_TRUE(page.plot()->pointText(1, 0).contains(b)) << page.plot()->pointText(1, 0).toStdString();
}

// An open-loop profile plots while its ladders run: each rung's pooled p50 per offered rate reaches
// the plot (queued from the worker) before the comparison finishes, and the live plot's last
// figures are the report's, which the final plot shows.
TEST(ComparePage, PlotsOpenLoopLaddersWhileTheyRun) {
  TempDir dir;
  const auto profilePath = dir.write("open.json", R"({"name": "open-compare-page", "targets": ["synthetic:service_us=100"],
      "mode": "open", "ladder": {"rates": [200, 400], "settle_s": 0.05, "requests": 220, "workers": 4,
      "in_flight_cap": 1000},
      "rule": {"min_achieved_ratio": 0.5, "max_latency_ratio": 1000, "late_dispatch_us": 1000000}})");
  app::CompareController controller;
  controller.setCacheRoot(qpath(dir / "cache"));
  app::WorkbenchContext context;
  app::ComparePage page(context, &controller);
  page.resize(1280, 800);
  page.show();
  page.selectProfileFile(qpath(profilePath));
  page.setTargets(QStringLiteral("synthetic:service_us=100"), QStringLiteral("synthetic:service_us=2000"));
  page.setRepetitions(1);  // ladders A, B
  auto* plot = page.plot();

  // What the page shows at each live point (connected after the page: its slot has run).
  struct Seen {
    engine::OpenLatencyPoint point;
    int points = 0;
    bool finished = false;
    bool running = false;
    QStringList categories;
    QString axis;
    double a200 = 0, a400 = 0, b200 = 0, b400 = 0;
  };
  std::vector<Seen> seen;
  QSignalSpy finished(&controller, &app::CompareController::compareFinished);
  QSignalSpy failed(&controller, &app::CompareController::compareFailed);
  QObject::connect(&controller, &app::CompareController::openLatency, &page, [&](const engine::OpenLatencyPoint& p) {
    seen.push_back({p, plot->pointCount(0) + plot->pointCount(1), finished.count() > 0, controller.isRunning(),
                    plot->querySets(), plot->categoryLabel(), plot->value(0, 0), plot->value(0, 1), plot->value(1, 0),
                    plot->value(1, 1)});
  });
  page.startComparison();
  EXPECT_EQ(plot->categoryLabel(), QStringLiteral("offered rate"));
  ASSERT_TRUE(QTest::qWaitFor([&] { return finished.count() > 0 || failed.count() > 0; }, kCompareTimeoutMs));
  ASSERT_EQ(failed.count(), 0) << failed.at(0).at(0).toString().toStdString();
  const auto report = page.report();
  ASSERT_TRUE(report);
  ASSERT_FALSE(report->partial);
  EXPECT_EQ(report->mode, "open");

  // One point per rung, A's ladder then B's, all of them before the report.
  ASSERT_EQ(seen.size(), 4u);
  for (std::size_t i = 0; i < seen.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(seen[i].point.a, i < 2);
    EXPECT_EQ(seen[i].point.rate, i % 2 == 0 ? 200.0 : 400.0);
    ASSERT_TRUE(seen[i].point.p50Ms);  // 220 samples: enough for a p50
    EXPECT_FALSE(seen[i].finished);
    EXPECT_TRUE(seen[i].running);
    EXPECT_EQ(seen[i].points, static_cast<int>(i) + 1) << "the plot grows by a point per rung";
    EXPECT_EQ(seen[i].axis, QStringLiteral("offered rate"));
  }
  EXPECT_EQ(seen[0].a200, *seen[0].point.p50Ms);
  EXPECT_EQ(seen[1].categories, (QStringList{QStringLiteral("200/s"), QStringLiteral("400/s")}));

  // The report compares p50 at both rates; the live plot's last figures are exactly its figures,
  // and the final plot (drawn from the report) shows them.
  ASSERT_EQ(report->scenarios.size(), 2u);
  const auto& s200 = report->scenarios[0];
  const auto& s400 = report->scenarios[1];
  ASSERT_EQ(s200.metric, "open_p50_ms");
  ASSERT_EQ(s200.offeredRate.value_or(0), 200.0);
  ASSERT_EQ(s400.offeredRate.value_or(0), 400.0);
  const Seen& last = seen.back();
  EXPECT_EQ(last.a200, s200.a);
  EXPECT_EQ(last.a400, s400.a);
  EXPECT_EQ(last.b200, s200.b);
  EXPECT_EQ(last.b400, s400.b);
  EXPECT_EQ(plot->querySets(), (QStringList{QStringLiteral("200/s"), QStringLiteral("400/s")}));
  EXPECT_EQ(plot->pointCount(0), 2);
  EXPECT_EQ(plot->pointCount(1), 2);
  EXPECT_EQ(plot->value(0, 0), s200.a);
  EXPECT_EQ(plot->value(0, 1), s400.a);
  EXPECT_EQ(plot->value(1, 0), s200.b);
  EXPECT_EQ(plot->value(1, 1), s400.b);
  EXPECT_EQ(plot->categoryLabel(), QStringLiteral("offered rate"));
}

// A peer answers side by side but has no explain here: the panel says so instead of showing one.
TEST(ComparePage, APeerSaysItHasNoExplain) {
  OneSetPage fixture;
  app::CompareController& controller = fixture.controller;
  app::ComparePage& page = fixture.page;
  QAbstractItemModelTester tester(page.diffView()->model(), kFatal);
  page.setTargets(QStringLiteral("builtin"), QStringLiteral("sqlite-fts5"));
  page.setRepetitions(1);
  page.setShowIdentical(true);
  QSignalSpy failed(&controller, &app::CompareController::compareFailed);
  QSignalSpy queries(&controller, &app::CompareController::queriesReady);
  page.startComparison();
  ASSERT_TRUE(QTest::qWaitFor([&] { return queries.count() > 0 || failed.count() > 0; }, kCompareTimeoutMs));
  ASSERT_EQ(failed.count(), 0) << failed.at(0).at(0).toString().toStdString();
  EXPECT_EQ(page.report()->b.spec, "sqlite-fts5");
  ASSERT_GT(page.queryList()->count(), 0);
  QSignalSpy diffs(&controller, &app::CompareController::queryDiffReady);
  ASSERT_TRUE(page.selectQuery(0));
  const auto snap = waitForShownDiff(page, diffs);
  ASSERT_NE(snap, nullptr);
  EXPECT_TRUE(snap->a.explain);
  EXPECT_FALSE(snap->b.explain);
  EXPECT_TRUE(snap->b.explainNote.contains(QStringLiteral("does not explain"))) << snap->b.explainNote.toStdString();
  EXPECT_TRUE(page.diffView()->explainNoteB().contains(QStringLiteral("does not explain")));
  EXPECT_EQ(page.diffView()->explainModelB()->rowCount(), 0);
}

// Three targets: "Add target" adds B2; every B gets its rows in the ratio table (named), a series
// in the plot and its own result diff against A, chosen in the versus list or by its table row.
TEST(ComparePage, ThreeTargetsEachBAgainstA) {
  OneSetPage fixture;
  app::CompareController& controller = fixture.controller;
  app::ComparePage& page = fixture.page;
  QAbstractItemModelTester t1(page.ratioModel(), kFatal);
  QAbstractItemModelTester t2(page.diffView()->model(), kFatal);
  page.resize(1280, 800);
  page.show();
  page.setTargets(QStringLiteral("builtin"), QStringLiteral("builtin:bulk_and=off"));
  ASSERT_TRUE(page.addTarget(QStringLiteral("builtin:k=5")));
  ASSERT_TRUE(page.addTarget());
  ASSERT_TRUE(page.removeTarget());
  EXPECT_EQ(page.targets(), (QStringList{QStringLiteral("builtin"), QStringLiteral("builtin:bulk_and=off"),
                                         QStringLiteral("builtin:k=5")}));
  page.setRepetitions(1);
  QString error;
  const auto job = page.currentJob(&error);
  ASSERT_TRUE(job) << error.toStdString();
  EXPECT_EQ(job->more, (std::vector<std::string>{"builtin:k=5"}));

  QSignalSpy started(&controller, &app::CompareController::compareStarted);
  QSignalSpy finished(&controller, &app::CompareController::compareFinished);
  QSignalSpy failed(&controller, &app::CompareController::compareFailed);
  QSignalSpy queries(&controller, &app::CompareController::queriesReady);
  page.startComparison();
  ASSERT_EQ(started.count(), 1);
  EXPECT_EQ(started.at(0).at(1).toStringList().size(), 3);
  ASSERT_TRUE(QTest::qWaitFor([&] { return queries.count() > 0 || failed.count() > 0; }, kCompareTimeoutMs));
  ASSERT_EQ(failed.count(), 0) << failed.at(0).at(0).toString().toStdString();
  ASSERT_EQ(finished.count(), 1);
  const auto report = page.report();
  ASSERT_EQ(report->targetCount(), 3u);
  ASSERT_EQ(report->scenarios.size(), 4u);
  // One query set, compared once per B.
  EXPECT_TRUE(page.statusText().startsWith(QStringLiteral("1 query set x 2 targets against A in ")))
      << page.statusText().toStdString();

  // The table: CPU and p50 for B, then for B2, each row naming its B.
  const auto* model = page.ratioModel();
  ASSERT_EQ(model->rowCount(), 4);
  for (int r = 0; r < 4; ++r) {
    const auto* s = model->scenario(r);
    const std::size_t target = r < 2 ? 1 : 2;
    EXPECT_EQ(s->target, target) << r;
    EXPECT_TRUE(isVerdict(s->estimate.verdict)) << s->estimate.verdict;
    EXPECT_EQ(model->data(model->index(r, 0), widgets::RatioTableModel::TargetRole).toInt(), static_cast<int>(target));
    EXPECT_TRUE(model->data(model->index(r, widgets::RatioTableModel::Metric))
                    .toString()
                    .contains(target == 1 ? QStringLiteral("(B vs A)") : QStringLiteral("(B2 vs A)")))
        << r;
  }
  EXPECT_EQ(model->scenario(0)->diff.rowSetDiff, 0u);  // bulk_and=off: the same hits
  EXPECT_GT(model->scenario(2)->diff.rowSetDiff, 0u);  // k=5: fewer
  EXPECT_EQ(model->data(model->index(0, widgets::RatioTableModel::Results)).toString(), QStringLiteral("identical"));

  // The plot: a series per target, A's figure and each B's.
  auto* plot = page.plot();
  ASSERT_EQ(plot->seriesCount(), 3);
  EXPECT_TRUE(plot->seriesName(2).startsWith(QStringLiteral("B2: builtin:k=5"))) << plot->seriesName(2).toStdString();
  for (int series = 0; series < 3; ++series) EXPECT_EQ(plot->pointCount(series), 1) << series;
  EXPECT_DOUBLE_EQ(plot->value(0, 0), report->scenarios[0].a);
  EXPECT_DOUBLE_EQ(plot->value(1, 0), report->scenarios[0].b);
  EXPECT_DOUBLE_EQ(plot->value(2, 0), report->scenarios[2].b);

  // The result diff: A against B first (identical), then against B2 (differs).
  ASSERT_EQ(page.versusList()->count(), 2);
  EXPECT_FALSE(page.versusList()->isHidden());
  EXPECT_EQ(page.versus(), 1);
  ASSERT_EQ(page.querySetList()->count(), 1);
  EXPECT_TRUE(page.querySetList()->itemText(0).contains(QStringLiteral("identical")));
  EXPECT_EQ(page.queryList()->count(), 0);
  QSignalSpy diffs(&controller, &app::CompareController::queryDiffReady);
  ASSERT_TRUE(page.selectVersus(2));
  EXPECT_TRUE(page.querySetList()->itemText(0).contains(QStringLiteral("differ"))) << page.querySetList()->itemText(0).toStdString();
  ASSERT_GT(page.queryList()->count(), 0);
  ASSERT_TRUE(page.selectQuery(0));
  const auto snap = waitForShownDiff(page, diffs);
  ASSERT_NE(snap, nullptr);
  EXPECT_EQ(snap->a.spec, QStringLiteral("builtin"));
  EXPECT_EQ(snap->b.spec, QStringLiteral("builtin:k=5"));
  EXPECT_TRUE(snap->diff.any());
  EXPECT_LT(snap->b.hits.size(), snap->a.hits.size());
  // The panel names B2 as B2 (it said "B" for whichever B was beside A): header, columns, ranks.
  const auto* diffModel = page.diffView()->model();
  EXPECT_EQ(diffModel->headerData(widgets::ResultDiffModel::ScoreB, Qt::Horizontal).toString(), QStringLiteral("B2: score"));
  EXPECT_EQ(diffModel->headerData(widgets::ResultDiffModel::Comparison, Qt::Horizontal).toString(), QStringLiteral("A vs B2"));
  EXPECT_TRUE(page.diffView()->headerText().contains(QStringLiteral("B2 (builtin:k=5) returned")))
      << page.diffView()->headerText().toStdString();
  EXPECT_EQ(diffModel->comparisonText(static_cast<int>(snap->a.hits.size()) - 1), QStringLiteral("only in A"));
  // Selecting B's row in the table puts B beside A again.
  auto* view = page.findChild<QTableView*>(QStringLiteral("ratios"));
  ASSERT_NE(view, nullptr);
  view->setCurrentIndex(model->index(1, 0));
  EXPECT_EQ(page.versus(), 1);
  view->setCurrentIndex(model->index(3, 0));
  EXPECT_EQ(page.versus(), 2);

  // Exported as the CLI writes it: a column per target.
  const auto out = fixture.dir / "export";
  ASSERT_TRUE(page.exportReportTo(qpath(out), &error)) << error.toStdString();
  std::ifstream in(out / "report.md");
  const std::string md((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(md.find("| B2: builtin:k=5 | Benefit B vs A |"), std::string::npos) << md;
}

// Opt-in (a plugin build is not part of this test binary's build): WANDSCOPE_TEST_ENGINE_PLUGIN=
// path of a libwandscope_engine_plugin.so built from this source. The result diff then explains
// the plugin side through the ABI's explain JSON, and its explain re-adds to its scores' bits.
TEST(ComparePage, ExplainsAPluginBuildThroughTheAbi) {
  const char* plugin = std::getenv("WANDSCOPE_TEST_ENGINE_PLUGIN");
  if (plugin == nullptr || *plugin == 0) GTEST_SKIP() << "set WANDSCOPE_TEST_ENGINE_PLUGIN to an engine plugin .so";
  OneSetPage fixture;
  app::CompareController& controller = fixture.controller;
  app::ComparePage& page = fixture.page;
  page.setTargets(QStringLiteral("builtin"), QStringLiteral("plugin:") + QString::fromUtf8(plugin));
  page.setRepetitions(1);
  page.setShowIdentical(true);
  QSignalSpy finished(&controller, &app::CompareController::compareFinished);
  QSignalSpy failed(&controller, &app::CompareController::compareFailed);
  QSignalSpy queries(&controller, &app::CompareController::queriesReady);
  page.startComparison();
  ASSERT_TRUE(QTest::qWaitFor([&] { return queries.count() > 0 || failed.count() > 0; }, kCompareTimeoutMs));
  ASSERT_EQ(failed.count(), 0) << failed.at(0).at(0).toString().toStdString();
  ASSERT_EQ(finished.count(), 1);
  EXPECT_EQ(page.report()->scenarios[0].diff.rowSetDiff, 0u);
  EXPECT_EQ(page.report()->scenarios[0].diff.scoreBitDiff, 0u);
  // Walk the queries until one has results, and look at its explain on both sides.
  bool explained = false;
  for (int row = 0; row < page.queryList()->count() && !explained; ++row) {
    QSignalSpy diffs(&controller, &app::CompareController::queryDiffReady);
    ASSERT_TRUE(page.selectQuery(row));
    const auto snap = waitForShownDiff(page, diffs);
    ASSERT_NE(snap, nullptr);
    if (snap->b.hits.empty()) continue;
    ASSERT_TRUE(snap->b.explain) << snap->b.explainNote.toStdString();
    EXPECT_FALSE(snap->diff.any());
    EXPECT_GT(page.diffView()->explainModelB()->rowCount(), 1);
    EXPECT_TRUE(page.diffView()->explainModelB()->sumMatchesScore());
    explained = true;
  }
  EXPECT_TRUE(explained) << "no query with results";
}

engine::RunReport storedRun(const std::string& id, const std::string& target, double cpu) {
  engine::RunReport r;
  r.header.runId = id;
  r.header.profileName = "smoke";
  r.header.profileJson = "{}";
  r.header.targets = {target};
  r.header.environment.startedUtc = id.substr(0, 16);
  r.header.environment.hostname = "host";
  for (unsigned c : {1u, 2u}) {
    engine::RungResult g;
    g.index = c - 1;
    g.target = target;
    g.mode = "closed";
    g.querySet = "mid-df-2";
    g.concurrency = c;
    g.completed = 1000;
    g.cpuMsPerQuery = cpu;
    g.p50Ms = cpu * 2;
    g.verdict = "pass";
    r.rungs.push_back(g);
  }
  return r;
}

// The History and Compare pages on one run store, wired as the main window wires them.
struct HistoryWithCompare {
  explicit HistoryWithCompare(const std::filesystem::path& db) {
    history.setStorePath(qpath(db));
    context.history = &history;
    historyPage = std::make_unique<app::HistoryPage>(context);
    comparePage = std::make_unique<app::ComparePage>(context, &controller);
    tester = std::make_unique<QAbstractItemModelTester>(comparePage->ratioModel(), kFatal);
    QObject::connect(historyPage.get(), &app::HistoryPage::compareRequested, comparePage.get(),
                     &app::ComparePage::showRecordedComparison);
    QObject::connect(historyPage.get(), &app::HistoryPage::comparisonOpened, comparePage.get(),
                     &app::ComparePage::showStoredComparison);
    historyPage->resize(1200, 700);
    historyPage->show();
  }
  app::HistoryController history;
  app::WorkbenchContext context;
  app::CompareController controller;
  std::unique_ptr<app::HistoryPage> historyPage;
  std::unique_ptr<app::ComparePage> comparePage;
  std::unique_ptr<QAbstractItemModelTester> tester;
};

TEST(HistoryPage, CompareShowsTwoStoredRunsSideBySide) {
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  recordRun(db, storedRun("20250101T000000Z-aaaaaa", "builtin:bulk_and=off", 0.3));
  recordRun(db, storedRun("20250102T000000Z-bbbbbb", "builtin", 0.1));

  HistoryWithCompare pages(db);
  auto& historyPage = *pages.historyPage;
  auto& comparePage = *pages.comparePage;

  // The action needs exactly two selected runs.
  QAction* compare = nullptr;
  for (QAction* a : historyPage.menuActions()) {
    if (a->text().startsWith(QStringLiteral("&Compare"))) compare = a;
  }
  ASSERT_TRUE(compare);
  EXPECT_FALSE(compare->isEnabled());
  auto* view = historyPage.findChild<QTableView*>(QStringLiteral("runs"));
  ASSERT_TRUE(view);
  ASSERT_EQ(view->model()->rowCount(), 2);
  view->selectAll();
  EXPECT_EQ(historyPage.selectedRunIds().size(), 2);
  EXPECT_TRUE(compare->isEnabled());

  QSignalSpy requested(&historyPage, &app::HistoryPage::compareRequested);
  QSignalSpy pageRequested(&comparePage, &app::Page::pageRequested);
  compare->trigger();
  ASSERT_EQ(requested.count(), 1);
  // The older run is A.
  const auto a = requested.at(0).at(0).value<app::RunReportPtr>();
  EXPECT_EQ(a->header.runId, "20250101T000000Z-aaaaaa");
  ASSERT_EQ(pageRequested.count(), 1);
  EXPECT_EQ(pageRequested.at(0).at(0).toString(), QStringLiteral("compare"));

  ASSERT_TRUE(comparePage.isRecordedComparison());
  const auto* model = comparePage.ratioModel();
  ASSERT_EQ(model->rowCount(), 4);  // two closed rungs x (CPU ms/query, p50)
  const auto* s = model->scenario(0);
  EXPECT_EQ(s->metric, "cpu_ms_per_query");
  EXPECT_DOUBLE_EQ(s->a, 0.3);
  EXPECT_DOUBLE_EQ(s->b, 0.1);
  EXPECT_NEAR(s->estimate.ratio, 3.0, 1e-12);
  EXPECT_EQ(model->data(model->index(0, widgets::RatioTableModel::Verdict)).toString(), QStringLiteral("not interleaved"));
  EXPECT_EQ(comparePage.plot()->pointCount(0), 2);
  // The runs' targets are offered for an interleaved re-run.
  QString error;
  const auto job = comparePage.currentJob(&error);
  ASSERT_TRUE(job) << error.toStdString();
  EXPECT_EQ(job->a, "builtin:bulk_and=off");
  EXPECT_EQ(job->b, "builtin");
  // And it exports like a comparison.
  ASSERT_TRUE(comparePage.exportReportTo(qpath(dir / "out"), &error)) << error.toStdString();
  EXPECT_TRUE(std::filesystem::exists(dir / "out" / "report.json"));

  // A run that cannot be loaded is an error on the History page, not a comparison.
  EXPECT_FALSE(historyPage.compareRuns(QStringLiteral("20250101T000000Z-aaaaaa"), QStringLiteral("nope")));
  EXPECT_EQ(requested.count(), 1);
}

// A comparison in the run store (as `wandscope-cli compare` stores it) is listed on the History
// page, opens on the Compare page with its tables, and exports in all four formats, escaped.
TEST(HistoryPage, ListsAndOpensAStoredComparison) {
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  engine::CompareReport stored;
  stored.runId = "20250103T000000Z-cccccc";
  stored.profileName = "stored <profile>";
  stored.environment.startedUtc = "2025-01-03T00:00:00Z";
  stored.a = {"builtin", "0.4.0+abc", "gcc"};
  stored.b = {"builtin:bulk_and=off", "0.4.0+abc", "gcc"};
  stored.method = "ABBA";
  for (const char* metric : {"cpu_ms_per_query", "p50_ms"}) {
    engine::CompareScenario s;
    s.name = std::string("q<script>x</script>, ") + metric;
    s.querySet = "q<script>x</script>";
    s.metric = metric;
    s.a = 0.2;
    s.b = 0.1;
    s.estimate = {2.0, 1.9, 2.1, 0.02, "faster"};
    s.queries = 5;
    s.diff.queries = 5;
    stored.scenarios.push_back(s);
  }
  engine::RunStore::open(db).saveComparison(stored);

  HistoryWithCompare pages(db);
  auto& history = pages.history;
  auto& historyPage = *pages.historyPage;
  auto& comparePage = *pages.comparePage;

  ASSERT_EQ(historyPage.comparisons().size(), 1u);
  auto* view = historyPage.comparisonView();
  ASSERT_EQ(view->rowCount(), 1);
  EXPECT_EQ(view->item(0, 0)->text(), QStringLiteral("2025-01-03T00:00:00Z"));
  EXPECT_EQ(view->item(0, 1)->text(), QStringLiteral("stored <profile>"));
  EXPECT_EQ(view->item(0, 3)->text(), QStringLiteral("builtin:bulk_and=off"));
  EXPECT_EQ(view->item(0, 6)->text(), QStringLiteral("complete"));
  QAction* open = menuAction(historyPage, QStringLiteral("&Open comparison"));
  ASSERT_TRUE(open);
  EXPECT_FALSE(open->isEnabled());
  view->selectRow(0);
  EXPECT_TRUE(open->isEnabled());

  QSignalSpy opened(&historyPage, &app::HistoryPage::comparisonOpened);
  QSignalSpy pageRequested(&comparePage, &app::Page::pageRequested);
  open->trigger();
  ASSERT_EQ(opened.count(), 1);
  ASSERT_EQ(pageRequested.count(), 1);
  ASSERT_TRUE(comparePage.report());
  EXPECT_EQ(comparePage.report()->runId, stored.runId);
  EXPECT_TRUE(comparePage.isRecordedComparison());
  ASSERT_EQ(comparePage.ratioModel()->rowCount(), 2);
  EXPECT_EQ(comparePage.ratioModel()->scenario(0)->estimate.verdict, "faster");
  EXPECT_EQ(comparePage.plot()->pointCount(0), 1);
  QString error;
  const auto job = comparePage.currentJob(&error);
  ASSERT_TRUE(job) << error.toStdString();
  EXPECT_EQ(job->b, "builtin:bulk_and=off");

  ASSERT_TRUE(comparePage.exportReportTo(qpath(dir / "out"), &error)) << error.toStdString();
  for (const char* f : {"report.md", "report.json", "report.csv", "report.html"}) {
    EXPECT_TRUE(std::filesystem::exists(dir / "out" / f)) << f;
  }
  const std::string html = readFile(dir / "out" / "report.html");
  EXPECT_EQ(html.find("<script>"), std::string::npos);
  EXPECT_NE(html.find("q&lt;script&gt;x&lt;/script&gt;"), std::string::npos);

  EXPECT_FALSE(historyPage.openComparison(QStringLiteral("nope")));
  EXPECT_EQ(opened.count(), 1);
  // A comparison the Compare page stores later shows up without reopening the page.
  stored.runId = "20250104T000000Z-dddddd";
  ASSERT_TRUE(history.saveComparison(stored, &error)) << error.toStdString();
  EXPECT_EQ(historyPage.comparisons().size(), 2u);
}

// The page as the main window gives it at its default 1280x800 with the log open (menu, page tabs,
// log and status bar take the rest).
constexpr int kComparePageWidth = 1280;
constexpr int kComparePageHeight = 590;

// A quick comparison of three targets as the controller reports it, without running one: six
// sets, each with its runner line per B and its rows, B2 answering differently (as builtin:k=5
// does), two long warnings (the notice wraps onto three lines).
engine::CompareReport threeTargetLayoutReport() {
  engine::CompareReport r;
  r.runId = "20261206T052048Z-ccefdd";
  r.profileName = "quick-compare";
  r.environment.startedUtc = "2026-12-06T05:20:48Z";
  r.a = {"builtin", "0.4.0+abc", "gcc"};
  r.b = {"builtin:bulk_and=off", "0.4.0+abc", "gcc"};
  r.more = {{"builtin:freq_prune=off", "0.4.0+abc", "gcc"}};
  r.method = "ABBA";
  r.noiseFloor = 0.02;
  r.warnings = {"load average 8.11 on 2 cores at the start: the machine was shared",
                "the clock reads timing each query (about 3.21 us, the same for every target) are 10 % or more of "
                "the median thread CPU per query on 6 of 6 sets (mid-df-1 46 %, mid-df-2 47 %, mid-df-3 56 %, "
                "sequential-2 15 %, rare-2 132 %, rare+common-3 106 %): every CPU figure of those sets includes "
                "them, which pulls each CPU benefit toward 1"};
  const char* sets[] = {"mid-df-1", "mid-df-2", "mid-df-3", "sequential-2", "rare-2", "rare+common-3"};
  for (const char* set : sets) {
    for (std::size_t target = 1; target <= 2; ++target) {
      for (const char* metric : {"cpu_ms_per_query", "p50_ms"}) {
        engine::CompareScenario s;
        s.querySet = set;
        s.metric = metric;
        s.name = std::string(set) + ", " + metric;
        s.target = target;
        s.a = 0.009417;
        s.b = target == 1 ? 0.01489 : 0.008739;
        s.aGeomean = s.a;
        s.bGeomean = s.b;
        s.estimate = {s.a / s.b, s.a / s.b * 0.97, s.a / s.b * 1.03, 0.02, target == 1 ? "slower" : "inconclusive"};
        s.queries = 100;
        s.samplesPerQuery = 4;
        s.diff.queries = 100;
        if (target == 2) {
          s.diff.rowSetDiff = 37;
          s.diff.scoreBitDiff = 12;
          s.diff.firstDivergingRank = 6;
        }
        r.scenarios.push_back(s);
      }
    }
  }
  return r;
}

// The page at 1280x800 after a three-target quick comparison with a three-line warning: every
// part readable - the ratio table's Results column inside the view, the plot with a data area
// and its category label inside the widget, the progress box several per-set lines high and as
// wide as its lines.
TEST(ComparePage, ThreeTargetsFitTheDefaultWindow) {
  TempDir dir;
  app::HistoryController history;
  history.setStorePath(qpath(dir / "runs.sqlite"));
  app::CompareController controller;
  app::WorkbenchContext context;
  context.history = &history;
  app::ComparePage page(context, &controller);
  QAbstractItemModelTester tester(page.ratioModel(), kFatal);
  page.setTargets(QStringList{QStringLiteral("builtin"), QStringLiteral("builtin:bulk_and=off"),
                              QStringLiteral("builtin:freq_prune=off")});
  page.resize(kComparePageWidth, kComparePageHeight);
  page.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));

  const auto report = std::make_shared<const engine::CompareReport>(threeTargetLayoutReport());
  emit controller.compareStarted(1, QStringList{QStringLiteral("builtin"), QStringLiteral("builtin:bulk_and=off"),
                                                QStringLiteral("builtin:freq_prune=off")});
  QStringList lines;
  for (std::size_t i = 0; i < report->scenarios.size(); i += 4) {
    auto rows = std::make_shared<app::CompareSetRows>();
    rows->rows.assign(report->scenarios.begin() + static_cast<std::ptrdiff_t>(i),
                      report->scenarios.begin() + static_cast<std::ptrdiff_t>(i + 4));
    for (std::size_t t = 0; t < 2; ++t) {
      const auto& cpu = rows->rows[2 * t];
      lines << QStringLiteral("%1: CPU A 0.009417 ms, %2 %3 ms/query: %4 [%5x, %6x] %7; p50 %4; results %8")
                   .arg(QString::fromStdString(cpu.querySet), t == 0 ? QStringLiteral("B") : QStringLiteral("B2"))
                   .arg(cpu.b)
                   .arg(cpu.estimate.ratio, 0, 'f', 3)
                   .arg(cpu.estimate.ciLow, 0, 'f', 3)
                   .arg(cpu.estimate.ciHigh, 0, 'f', 3)
                   .arg(QString::fromStdString(cpu.estimate.verdict),
                        t == 0 ? QStringLiteral("identical") : QStringLiteral("DIFFER (row_set_diff=37)"));
      emit controller.message(lines.back());
    }
    emit controller.setFinished(rows);
  }
  emit controller.compareFinished(report);
  QTest::qWait(3 * widgets::ComparePlot::kReplotIntervalMs);
  QApplication::processEvents();

  // The page fits the window it is given (a taller minimum grew the window past the screen).
  EXPECT_EQ(page.height(), kComparePageHeight);
  EXPECT_EQ(page.width(), kComparePageWidth);
  ASSERT_EQ(page.ratioModel()->rowCount(), 24);

  // The Results column ends inside the view, wide enough for "identical" or "DIFFER" (the rest is
  // elided, its tooltip has it): it was pushed past the right edge, one letter showing.
  const QTableView* view = page.ratioView();
  const QHeaderView* header = view->horizontalHeader();
  const int results = widgets::RatioTableModel::Results;
  const int right = header->sectionViewportPosition(results) + header->sectionSize(results);
  EXPECT_LE(right, view->viewport()->width()) << "Results column ends at " << right << " of "
                                               << view->viewport()->width();
  EXPECT_GE(header->sectionSize(results), view->fontMetrics().horizontalAdvance(QStringLiteral("identical")) + 8);
  EXPECT_GE(header->sectionViewportPosition(results), 0);

  // The plot: a data area a user can read, and the layout (title, legend, slanted set names, the
  // "query set" label) inside the widget - it was 80 pixels and the label cut off.
  widgets::ComparePlot* plot = page.plot();
  plot->replot(QCustomPlot::rpImmediateRefresh);
  ASSERT_EQ(plot->seriesCount(), 3);
  ASSERT_EQ(plot->querySets().size(), 6);
  EXPECT_GE(plot->axisRect()->height(), 70) << "plot " << plot->width() << "x" << plot->height();
  EXPECT_LE(plot->axisRect()->outerRect().bottom(), plot->height()) << "category axis label cut off";
  EXPECT_EQ(plot->visibleRegion().boundingRect(), plot->rect()) << "the plot is cut by the splitter";
  EXPECT_EQ(plot->categoryLabel(), QStringLiteral("query set"));

  // The progress box: several lines high and as wide as its lines (they were cut at 50 characters
  // in a box two lines high), ending with the runner's last line and where the comparison was
  // stored.
  const auto* progress = page.findChild<QPlainTextEdit*>(QStringLiteral("compareProgress"));
  ASSERT_NE(progress, nullptr);
  EXPECT_GE(page.progressLines(), 4);
  EXPECT_EQ(progress->horizontalScrollBar()->maximum(), 0) << "progress lines cut at " << progress->viewport()->width();
  EXPECT_EQ(page.progressText().split(QLatin1Char('\n')),
            lines + QStringList{QStringLiteral("Stored in the run history as 20261206T052048Z-ccefdd.")});
  QString error;
  EXPECT_EQ(history.listComparisons(&error).size(), 1u) << error.toStdString();
}

// The main window at its default 1280x800 (the log open) showing the Compare page, with its own
// settings file and run store.
struct CompareInMainWindow {
  TempDir dir;
  app::MainWindowOptions options;
  std::unique_ptr<app::MainWindow> window;
  app::ComparePage* page = nullptr;
  CompareInMainWindow() {
    options.settingsFile = qpath(dir / "settings.ini");
    options.runStorePath = qpath(dir / "runs.sqlite");
    window = std::make_unique<app::MainWindow>(options);
    window->resize(1280, 800);
    window->showPage(QStringLiteral("compare"));
    window->show();
    page = qobject_cast<app::ComparePage*>(window->page(QStringLiteral("compare")));
  }
  bool shown() { return QTest::qWaitForWindowExposed(window.get()) && page != nullptr; }
};

// The Compare page in the main window at its default 1280x800, the log open, after a three-target
// quick comparison with a three-line warning: the plot, under the controls, is tall enough to read
// (it was about 80 pixels of data, the ratio table and the result diff sharing the height), the
// ratio table shows most of its rows, and each B's benefit is drawn with the report's 95 %
// interval of the ratio as its error bar. A row without an interval (recorded runs) gets no bar,
// and its hover text says so.
TEST(ComparePage, PlotIsReadableAndDrawsTheReportsIntervals) {
  CompareInMainWindow w;
  ASSERT_TRUE(w.shown());
  app::MainWindow& window = *w.window;
  app::ComparePage* page = w.page;
  app::CompareController* controller = window.compareController();
  const QStringList specs{QStringLiteral("builtin"), QStringLiteral("builtin:bulk_and=off"),
                          QStringLiteral("builtin:freq_prune=off")};
  page->setTargets(specs);

  const auto report = std::make_shared<const engine::CompareReport>(threeTargetLayoutReport());
  emit controller->compareStarted(1, specs);
  for (std::size_t i = 0; i < report->scenarios.size(); i += 4) {
    auto rows = std::make_shared<app::CompareSetRows>();
    rows->rows.assign(report->scenarios.begin() + static_cast<std::ptrdiff_t>(i),
                      report->scenarios.begin() + static_cast<std::ptrdiff_t>(i + 4));
    emit controller->setFinished(rows);
  }
  emit controller->compareFinished(report);
  QTest::qWait(3 * widgets::ComparePlot::kReplotIntervalMs);
  QApplication::processEvents();
  ASSERT_EQ(window.height(), 800);

  widgets::ComparePlot* plot = page->plot();
  plot->replot(QCustomPlot::rpImmediateRefresh);
  ASSERT_TRUE(plot->isVisible());
  EXPECT_EQ(plot->visibleRegion().boundingRect(), plot->rect()) << "the plot is cut";
  EXPECT_GE(plot->height(), 300) << "plot " << plot->width() << "x" << plot->height();
  // Both panels have a data area to read: the figures and the benefit with its bars.
  const std::string sizes = "plot " + std::to_string(plot->width()) + "x" + std::to_string(plot->height()) +
                            ", figures " + std::to_string(plot->axisRect()->height()) + ", benefit " +
                            std::to_string(plot->benefitRect()->height());
  EXPECT_GE(plot->axisRect()->height(), 80) << sizes;
  EXPECT_GE(plot->benefitRect()->height(), 80) << sizes;
  EXPECT_LE(plot->benefitRect()->outerRect().bottom(), plot->height()) << "category axis label cut off";
  EXPECT_EQ(plot->categoryLabel(), QStringLiteral("query set"));
  // The table stays usable beside it: at least eight of its rows show (four did).
  const QTableView* view = page->ratioView();
  ASSERT_GT(view->rowHeight(0), 0);
  EXPECT_GE(view->viewport()->height() / view->rowHeight(0), 8);

  // Every B's benefit per set is the report's ratio, its error bar the report's interval.
  ASSERT_EQ(plot->querySets().size(), 6);
  int checked = 0;
  for (const auto& s : report->scenarios) {
    if (s.metric != "cpu_ms_per_query") continue;
    const int set = static_cast<int>(plot->querySets().indexOf(QString::fromStdString(s.querySet)));
    const int series = static_cast<int>(s.target);
    SCOPED_TRACE(s.querySet + " target " + std::to_string(s.target));
    EXPECT_DOUBLE_EQ(plot->benefit(series, set), s.estimate.ratio);
    const auto interval = plot->benefitInterval(series, set);
    ASSERT_TRUE(interval.has_value());
    EXPECT_DOUBLE_EQ(interval->first, s.estimate.ciLow);
    EXPECT_DOUBLE_EQ(interval->second, s.estimate.ciHigh);
    const QString tip = plot->benefitText(series, set);
    EXPECT_TRUE(tip.contains(QStringLiteral("95 % bootstrap interval of the ratio"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QString::fromStdString(engine::intervalText(s.estimate.ciLow, s.estimate.ciHigh))))
        << tip.toStdString();
    ++checked;
  }
  EXPECT_EQ(checked, 12);
  EXPECT_EQ(plot->benefitCount(1), 6);
  EXPECT_EQ(plot->benefitCount(2), 6);
  EXPECT_TRUE(plot->benefitCaption().contains(QStringLiteral("95 % bootstrap CI"))) << plot->benefitCaption().toStdString();

  // A double-click on a row shows its set in the result diff.
  ASSERT_EQ(page->views()->currentIndex(), app::ComparePage::kFiguresTab);
  const QRect row = view->visualRect(page->ratioModel()->index(2, widgets::RatioTableModel::QuerySet));
  QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, row.center());
  QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, row.center());
  EXPECT_EQ(page->views()->currentIndex(), app::ComparePage::kResultDiffTab);
  page->views()->setCurrentIndex(app::ComparePage::kFiguresTab);

  // Without an interval (recorded runs are not paired samples): the point, no bar, and why.
  engine::CompareReport recorded = threeTargetLayoutReport();
  recorded.more.clear();
  std::erase_if(recorded.scenarios, [](const engine::CompareScenario& s) { return s.target != 1; });
  for (auto& s : recorded.scenarios) {
    s.estimate.ciLow = std::numeric_limits<double>::quiet_NaN();
    s.estimate.ciHigh = std::numeric_limits<double>::quiet_NaN();
    s.estimate.verdict.clear();
  }
  page->showStoredComparison(std::make_shared<const engine::CompareReport>(recorded));
  ASSERT_EQ(plot->querySets().size(), 6);
  EXPECT_DOUBLE_EQ(plot->benefit(1, 0), recorded.scenarios.front().estimate.ratio);
  EXPECT_FALSE(plot->benefitInterval(1, 0).has_value());
  EXPECT_TRUE(plot->benefitText(1, 0).contains(QStringLiteral("No bar: the report has no interval")))
      << plot->benefitText(1, 0).toStdString();
  EXPECT_TRUE(plot->benefitCaption().contains(QStringLiteral("no intervals"))) << plot->benefitCaption().toStdString();
}

// The Figures tab at 1280x800 in the main window (log open) after the common two-target
// comparison: the plot had some 300 pixels (320 of 1280 at first launch, then whatever the saved
// state said), its legend "B: builtin:..." and its set names slanted into each other. Now the ratio
// table has exactly its columns' width - none scrolled out of view - and the plot the rest; every
// target named whole; the set names level or on two lines, apart; each benefit bar either longer
// than its marker or its hover text saying how short it is. At 1920x1080 the plot takes the extra
// width. A split the user drags holds, and is saved; the default is not.
TEST(ComparePage, FiguresGiveThePlotAFairShareAndTheTableItsColumns) {
  CompareInMainWindow w;
  ASSERT_TRUE(w.shown());
  app::MainWindow& window = *w.window;
  app::ComparePage* page = w.page;
  app::CompareController* controller = window.compareController();
  const QStringList specs{QStringLiteral("builtin"), QStringLiteral("builtin:bulk_and=off")};
  page->setTargets(specs);
  engine::CompareReport two = threeTargetLayoutReport();
  two.more.clear();
  std::erase_if(two.scenarios, [](const engine::CompareScenario& s) { return s.target != 1; });
  // Intervals of +-1.5 % (a real quick comparison's), on an axis from about 0.6 to 1.1.
  for (std::size_t i = 0; i < two.scenarios.size(); ++i) {
    auto& e = two.scenarios[i].estimate;
    e.ratio = 0.63 + 0.1 * static_cast<double>(i / 2);
    e.ciLow = e.ratio * 0.985;
    e.ciHigh = e.ratio * 1.015;
  }
  const auto report = std::make_shared<const engine::CompareReport>(two);
  emit controller->compareStarted(1, specs);
  for (std::size_t i = 0; i < report->scenarios.size(); i += 2) {
    auto rows = std::make_shared<app::CompareSetRows>();
    rows->rows.assign(report->scenarios.begin() + static_cast<std::ptrdiff_t>(i),
                      report->scenarios.begin() + static_cast<std::ptrdiff_t>(i + 2));
    emit controller->setFinished(rows);
  }
  emit controller->compareFinished(report);
  const auto settle = [] {
    QTest::qWait(3 * widgets::ComparePlot::kReplotIntervalMs);
    QApplication::processEvents();
  };
  settle();
  ASSERT_EQ(window.height(), 800);

  widgets::ComparePlot* plot = page->plot();
  const QTableView* view = page->ratioView();
  const auto tableWhole = [&] {
    const QHeaderView* header = view->horizontalHeader();
    const int results = widgets::RatioTableModel::Results;
    EXPECT_EQ(view->horizontalScrollBar()->maximum(), 0) << "the table scrolls sideways";
    EXPECT_LE(header->sectionViewportPosition(results) + header->sectionSize(results), view->viewport()->width());
    for (int c = 0; c < widgets::RatioTableModel::ColumnCount; ++c) {
      int content = header->sectionSizeHint(c);
      for (int r = 0; r < page->ratioModel()->rowCount(); ++r) {
        content = std::max(content, view->sizeHintForIndex(page->ratioModel()->index(r, c)).width());
      }
      EXPECT_GE(header->sectionSize(c), c == results ? view->fontMetrics().horizontalAdvance(QStringLiteral("identical"))
                                                       : content)
          << "column " << c << " cut";
    }
  };
  plot->replot(QCustomPlot::rpImmediateRefresh);
  EXPECT_GE(plot->width(), 380) << "plot " << plot->width() << "x" << plot->height();
  EXPECT_EQ(plot->visibleRegion().boundingRect(), plot->rect()) << "the plot is cut";
  tableWhole();
  EXPECT_GE(plot->axisRect()->height(), 80);
  EXPECT_GE(plot->benefitRect()->height(), 80);
  EXPECT_LE(plot->benefitRect()->outerRect().bottom(), plot->height()) << "category axis label cut off";
  for (int i = 0; i < plot->seriesCount(); ++i) {
    EXPECT_EQ(plot->legendText(i), QStringLiteral("%1: %2").arg(i == 0 ? QStringLiteral("A") : QStringLiteral("B"), specs[i]));
    EXPECT_LE(plot->legendRect(i).right(), plot->width());
  }
  EXPECT_NE(plot->categoryLabels(), widgets::ComparePlot::CategoryLabels::Slanted);
  // Every bar: longer than its marker, or its hover text says how short it is.
  QCPAxis* values = plot->benefitRect()->axis(QCPAxis::atLeft);
  int shortBars = 0;
  for (int set = 0; set < 6; ++set) {
    const auto interval = plot->benefitInterval(1, set);
    ASSERT_TRUE(interval.has_value()) << set;
    EXPECT_LE(values->range().lower, interval->first);
    EXPECT_GE(values->range().upper, interval->second);
    const double pixels = std::abs(values->coordToPixel(interval->second) - values->coordToPixel(interval->first));
    const bool short_ = pixels < widgets::ComparePlot::kBenefitMarkerSize + 2;
    shortBars += short_ ? 1 : 0;
    EXPECT_EQ(short_, plot->benefitText(1, set).contains(QStringLiteral("At this scale the bar is"))) << set << ": " << pixels;
  }
  EXPECT_GT(shortBars, 0);
  EXPECT_TRUE(values->range().contains(1.0));

  // A larger screen: the plot takes the extra width, the table keeps its columns.
  window.resize(1920, 1080);
  settle();
  settle();
  plot->replot(QCustomPlot::rpImmediateRefresh);
  EXPECT_GE(plot->width(), 900) << "plot " << plot->width() << "x" << plot->height();
  tableWhole();
  EXPECT_EQ(plot->legend->rowCount(), 1);
  EXPECT_EQ(plot->categoryLabels(), widgets::ComparePlot::CategoryLabels::Level);

  // The user's split holds through a resize and is saved; the default is not.
  {
    QSettings settings(qpath(w.dir / "page.ini"), QSettings::IniFormat);
    page->saveSettings(settings);
    EXPECT_FALSE(settings.contains(QStringLiteral("figuresSplitter")));
  }
  QSplitter* split = page->figuresSplitter();
  const int total = split->sizes().value(0) + split->sizes().value(1);
  split->setSizes({total / 2, total - total / 2});
  emit split->splitterMoved(total / 2, 1);  // as a drag of the handle does
  EXPECT_TRUE(page->figuresSplitChosen());
  // More rows (which fit the table's columns again) leave it alone.
  auto more = std::make_shared<app::CompareSetRows>();
  more->rows.assign(report->scenarios.end() - 2, report->scenarios.end());
  emit controller->setFinished(more);
  settle();
  EXPECT_NEAR(static_cast<double>(split->sizes().value(0)) / (split->sizes().value(0) + split->sizes().value(1)), 0.5, 0.05);
  QSettings settings(qpath(w.dir / "page.ini"), QSettings::IniFormat);
  page->saveSettings(settings);
  EXPECT_TRUE(settings.contains(QStringLiteral("figuresSplitter")));
  app::CompareController other;
  app::WorkbenchContext context;
  app::ComparePage restored(context, &other);
  restored.restoreSettings(settings);
  EXPECT_TRUE(restored.figuresSplitChosen());
  // The warm passes are kept like the repetitions.
  restored.setWarmPasses(5);
  restored.saveSettings(settings);
  app::ComparePage again(context, &other);
  again.restoreSettings(settings);
  again.setTargets(QStringLiteral("builtin"), QStringLiteral("builtin:bulk_and=off"));
  ASSERT_TRUE(again.currentJob());
  EXPECT_EQ(again.currentJob()->warmPasses, 5u);
}

// The export button names every file an export writes.
TEST(ComparePage, ExportTooltipNamesEveryFileWritten) {
  TempDir dir;
  app::CompareController controller;
  app::WorkbenchContext context;
  app::ComparePage page(context, &controller);
  page.showStoredComparison(std::make_shared<const engine::CompareReport>(threeTargetLayoutReport()));
  QAction* exportAction = nullptr;
  for (QAction* a : page.menuActions()) {
    if (a->text().startsWith(QStringLiteral("E&xport"))) exportAction = a;
  }
  ASSERT_NE(exportAction, nullptr);
  EXPECT_TRUE(exportAction->isEnabled());
  QString error;
  ASSERT_TRUE(page.exportReportTo(qpath(dir / "out"), &error)) << error.toStdString();
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir / "out")) {
    ++files;
    const QString name = QString::fromStdString(entry.path().filename().string());
    EXPECT_TRUE(exportAction->toolTip().contains(name)) << name.toStdString() << " not in: "
                                                        << exportAction->toolTip().toStdString();
  }
  EXPECT_EQ(files, 4);
}

}  // namespace
}  // namespace wandscope::test
