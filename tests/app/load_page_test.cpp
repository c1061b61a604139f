// SPDX-License-Identifier: GPL-3.0-or-later
// The Load page run as a user would: a small profile over a tiny default dataset through the
// LoadController's worker thread, checked against `wandscope-cli bench` on the same profile.
#include "app/controllers/history_controller.h"
#include "app/controllers/load_controller.h"
#include "app/gui/pages/load_page.h"
#include "tests/support/qt_test_support.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"
#include "widgets/models/rung_table_model.h"
#include "widgets/plots/distribution_plot.h"
#include "widgets/views/load_dashboard.h"
#include "widgets/views/notice_bar.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <QAbstractItemModelTester>
#include <QAction>
#include <QLabel>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTest>

#include <fstream>
#include <memory>
#include <sstream>

namespace wandscope::test {
namespace {

constexpr int kLoadTimeoutMs = 180'000;

// A closed-loop cell and a two-rung open ladder at fixed rates over a 2,000-document default:
// a couple of seconds once the dataset is prepared. Every rung runs whatever its verdict (a busy
// machine may judge one invalid), so the GUI and the CLI run the same rungs.
const char* const kLadderProfile = R"({
  "format_version": 1,
  "name": "gui-test",
  "description": "Load page test: tiny closed loop and a two-rung ladder.",
  "dataset": {"default": {"docs": 2000}},
  "query_sets": ["mid-df-2"],
  "query": {"op": "and", "k": 10, "algorithm": "auto"},
  "targets": ["builtin"],
  "seed": 42,
  "mode": "both",
  "closed": {"concurrency": [1], "warmup_s": 0.1, "measure_s": 0.5, "passes": 1},
  "ladder": {"arrivals": "uniform", "rates": [40, 80], "settle_s": 0.1, "rung_duration_s": 0.75,
             "workers": 2, "in_flight_cap": 16, "stop_after_fail": false}
})";

int points(const widgets::DistributionPlot* p) {
  int n = 0;
  for (int i = 0; i < p->seriesCount(); ++i) n += p->pointCount(i);
  return n;
}

nlohmann::json readJson(const std::filesystem::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

TEST(LoadPage, RunsAProfileLiveAndMatchesTheCliReport) {
  TempDir dir;
  const auto profilePath = dir.write("gui-test.json", kLadderProfile);
  const auto cache = dir / "cache";
  const auto store = dir / "runs.sqlite";

  app::LoadController load;
  app::HistoryController history;
  history.setStorePath(qpath(store));
  load.setStorePath(history.storePath());
  load.setCacheRoot(qpath(cache));
  app::WorkbenchContext context;
  context.load = &load;
  context.history = &history;
  app::LoadPage page(context);
  QAbstractItemModelTester tester(page.rungModel(), kFatal);
  page.resize(1200, 760);
  page.show();
  page.selectProfileFile(qpath(profilePath));

  QSignalSpy started(&load, &app::LoadController::runStarted);
  QSignalSpy batches(&load, &app::LoadController::liveBatchReady);
  QSignalSpy rungs(&load, &app::LoadController::rungFinished);
  QSignalSpy finished(&load, &app::LoadController::runFinished);
  QSignalSpy failed(&load, &app::LoadController::runFailed);
  QElapsedTimer clock;
  page.startRun();
  ASSERT_EQ(started.count(), 1);
  EXPECT_TRUE(load.isRunning());
  EXPECT_FALSE(load.start(*page.currentProfile()));  // one run at a time
  failed.clear();
  // Measure the live rate once the dataset is ready (its preparation sends no ticks).
  ASSERT_TRUE(QTest::qWaitFor([&] { return batches.count() > 0 || !load.isRunning(); }, kLoadTimeoutMs));
  clock.start();
  const int firstBatches = batches.count();
  ASSERT_TRUE(QTest::qWaitFor([&] { return finished.count() + failed.count() > 0; }, kLoadTimeoutMs));
  ASSERT_EQ(failed.count(), 0) << failed.at(0).at(0).toString().toStdString();
  const double seconds = std::max(0.001, static_cast<double>(clock.elapsed()) / 1000.0);
  EXPECT_LE((batches.count() - firstBatches) / seconds, 20.0 + 2.0) << "GUI updates must be coalesced";
  const auto report = page.report();
  ASSERT_TRUE(report);
  EXPECT_FALSE(report->partial);
  EXPECT_TRUE(report->header.environment.guiAttached);
  // Rungs arrived one by one and the table holds exactly the report's.
  EXPECT_EQ(rungs.count(), static_cast<int>(report->rungs.size()));
  ASSERT_EQ(page.rungModel()->rowCount(), static_cast<int>(report->rungs.size()));

  // Every plot got data.
  QTest::qWait(3 * widgets::DistributionPlot::kReplotIntervalMs);
  for (auto* plot : page.dashboard()->plots()) {
    EXPECT_GT(points(plot), 0) << plot->objectName().toStdString();
  }

  // The same profile through the CLI: the same rungs (not the same timings).
  const auto out = dir / "cli";
  const auto r = runProcess(WANDSCOPE_CLI, {"bench", "--profile", profilePath.string(), "--out", out.string(), "--no-db",
                                            "--no-records", "--cache", cache.string()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto cli = readJson(out / "report.json");
  ASSERT_TRUE(cli.contains("rungs"));
  const auto& cliRungs = cli["rungs"];
  ASSERT_EQ(cliRungs.size(), report->rungs.size());
  EXPECT_EQ(cli["targets"].get<std::vector<std::string>>(), report->header.targets);
  EXPECT_EQ(cli["profile"].get<std::string>(), report->header.profileName);
  for (std::size_t i = 0; i < report->rungs.size(); ++i) {
    SCOPED_TRACE(i);
    const auto& g = report->rungs[i];
    const auto& c = cliRungs[i];
    const int row = static_cast<int>(i);
    EXPECT_EQ(c["target"].get<std::string>(), g.target);
    EXPECT_EQ(c["mode"].get<std::string>(), g.mode);
    EXPECT_EQ(c["concurrency"].get<unsigned>(), g.concurrency);
    EXPECT_DOUBLE_EQ(c["target_rate"].get<double>(), g.targetRate);
    EXPECT_GT(c["completed"].get<std::uint64_t>(), 0u);
    EXPECT_GT(g.completed, 0u);
    // What the table shows is the report's rung.
    EXPECT_EQ(page.rungModel()->index(row, widgets::RungTableModel::Target).data().toString().toStdString(), g.target);
    EXPECT_EQ(page.rungModel()->index(row, widgets::RungTableModel::Completed).data(widgets::RungTableModel::SortRole).toULongLong(),
              g.completed);
    EXPECT_EQ(page.rungModel()->index(row, widgets::RungTableModel::P99).data().toString(),
              widgets::RungTableModel::formatMs(g.p99Ms));
  }

  // Recorded in the store, labelled as measured with the GUI attached.
  QString error;
  const auto runs = history.list(QString(), &error);
  ASSERT_EQ(runs.size(), 1u) << error.toStdString();
  EXPECT_EQ(runs[0].runId, report->header.runId);
  const auto stored = history.load(QString::fromStdString(report->header.runId), &error);
  ASSERT_TRUE(stored) << error.toStdString();
  EXPECT_TRUE(stored->header.environment.guiAttached);
  EXPECT_EQ(stored->rungs.size(), report->rungs.size());

  // The report bundle.
  const auto bundle = dir / "bundle";
  ASSERT_TRUE(page.exportReportTo(qpath(bundle), &error)) << error.toStdString();
  for (const char* f : {"report.md", "report.json", "rungs.csv", "report.html"}) {
    EXPECT_TRUE(std::filesystem::exists(bundle / f)) << f;
  }
  QFile html(qpath(bundle / "report.html"));
  ASSERT_TRUE(html.open(QIODevice::ReadOnly));
  const QString text = QString::fromUtf8(html.readAll());
  EXPECT_EQ(text.count(QStringLiteral("data:image/png;base64,")), 6);
  EXPECT_TRUE(text.contains(QStringLiteral("Measured with the workbench GUI attached")));
}

// The ladder profile with `from` replaced by `to`, selected on a Load page with its own controller
// and dataset cache (no run store), and spies on the controller's ends.
struct EditedLadderOnLoadPage {
  EditedLadderOnLoadPage(const std::string& from, const std::string& to) {
    std::string profile = kLadderProfile;
    profile.replace(profile.find(from), from.size(), to);
    load.setCacheRoot(qpath(dir / "cache"));
    context.load = &load;
    page = std::make_unique<app::LoadPage>(context);
    page->selectProfileFile(qpath(dir.write("edited.json", profile)));
  }
  TempDir dir;
  app::LoadController load;
  app::WorkbenchContext context;
  std::unique_ptr<app::LoadPage> page;
  QSignalSpy finished{&load, &app::LoadController::runFinished};
  QSignalSpy failed{&load, &app::LoadController::runFailed};
};

// A run whose report carries warnings (a shared machine, requests as short as the clock reads
// timing them: report.md heads the report with them) ended in a green "Run ...: 3 rungs" notice.
TEST(LoadPage, TheReportsWarningsAreSaidWhenTheRunEnds) {
  app::LoadController load;
  app::WorkbenchContext context;
  context.load = &load;
  app::LoadPage page(context);
  auto* notice = page.findChild<widgets::NoticeBar*>();
  ASSERT_TRUE(notice);
  auto report = std::make_shared<engine::RunReport>();
  report->header.runId = "20250101T000000Z-aaaaaa";
  report->header.environment.simdTarget = "avx2";
  engine::RungResult rung;
  rung.target = "builtin";
  rung.mode = "open";
  report->rungs.push_back(rung);
  report->warnings = {"load average 5.92 on 2 cores at the start: the machine was shared",
                      "per-request thread CPU includes about one read of the thread CPU clock (1.987 us)"};
  emit load.runFinished(report);
  EXPECT_EQ(notice->kind(), widgets::NoticeBar::Kind::Warning);
  const std::string text = notice->text().toStdString();
  EXPECT_NE(text.find("Run 20250101T000000Z-aaaaaa: 1 rung on SIMD target avx2"), std::string::npos) << text;
  EXPECT_NE(text.find("Warning: load average 5.92 on 2 cores at the start: the machine was shared. "
                      "Warning: per-request thread CPU includes about one read of the thread CPU clock (1.987 us)."),
            std::string::npos)
      << text;

  auto clean = std::make_shared<engine::RunReport>(*report);
  clean->warnings.clear();
  emit load.runFinished(clean);
  EXPECT_EQ(notice->kind(), widgets::NoticeBar::Kind::Positive);
  EXPECT_EQ(notice->text().toStdString().find("Warning"), std::string::npos) << notice->text().toStdString();
}

TEST(LoadPage, StopEndsTheRunPartial) {
  // A long ladder: stopped long before its end.
  EditedLadderOnLoadPage f("\"rung_duration_s\": 0.75", "\"rung_duration_s\": 30.0");
  app::LoadController& load = f.load;
  app::LoadPage& page = *f.page;
  QSignalSpy& finished = f.finished;
  QSignalSpy& failed = f.failed;
  QSignalSpy rungs(&load, &app::LoadController::rungFinished);
  page.startRun();
  // Wait for the closed-loop cell, then stop inside the first 30 s rung.
  ASSERT_TRUE(QTest::qWaitFor([&] { return rungs.count() > 0 || failed.count() > 0; }, kLoadTimeoutMs));
  ASSERT_EQ(failed.count(), 0) << failed.at(0).at(0).toString().toStdString();
  QTest::qWait(300);
  QElapsedTimer clock;
  clock.start();
  page.stopRun();
  EXPECT_TRUE(load.isStopping());
  // Stop is asked once, and the status keeps saying so while the runner still reports its rung
  // (a tick's line replaced "Stopping" at once, and Stop stayed enabled as if nothing happened).
  QAction* stop = nullptr;
  for (QAction* a : page.menuActions()) {
    if (a->text() == QStringLiteral("S&top run")) stop = a;
  }
  ASSERT_TRUE(stop);
  EXPECT_FALSE(stop->isEnabled());
  if (load.isRunning()) {
    auto tick = std::make_shared<widgets::LiveBatch>();
    tick->generation = load.generation();
    tick->points.push_back({});
    tick->status = QStringLiteral("rung 1: open loop, builtin at 40/s \u2014 measure 0.5 s");
    emit load.liveBatchReady(tick);  // as the next tick arrives
    auto* status = page.findChild<QLabel*>(QStringLiteral("status"));
    ASSERT_TRUE(status);
    EXPECT_TRUE(status->text().contains(QStringLiteral("Stopping"))) << status->text().toStdString();
  }
  ASSERT_TRUE(QTest::qWaitFor([&] { return finished.count() + failed.count() > 0; }, 20'000));
  EXPECT_LT(clock.elapsed(), 15'000);
  ASSERT_EQ(finished.count(), 1);
  EXPECT_TRUE(page.report()->partial);
  EXPECT_FALSE(load.isRunning());
}

// A run of two targets on the Load page: the closed loop interleaves their cells and the ladders
// follow each other, and each per-rung plot draws each target as its own series with exactly that
// target's rungs - as they arrive, not only when the run is read back on History. Closed cells and
// open rungs share no load axis: the points are at their rung indexes.
TEST(LoadPage, PerRungPlotsDrawEachTargetApart) {
  const std::string synthetic = "synthetic:service_us=100";
  EditedLadderOnLoadPage f("\"targets\": [\"builtin\"]", "\"targets\": [\"builtin\", \"" + synthetic + "\"]");
  app::LoadPage& page = *f.page;
  page.startRun();
  ASSERT_TRUE(QTest::qWaitFor([&] { return f.finished.count() + f.failed.count() > 0; }, kLoadTimeoutMs));
  ASSERT_EQ(f.failed.count(), 0) << f.failed.at(0).at(0).toString().toStdString();
  const auto report = page.report();
  ASSERT_TRUE(report);
  ASSERT_EQ(report->header.targets.size(), 2u);
  const widgets::DistributionPlot* cpu = page.dashboard()->cpuPerRung();
  ASSERT_EQ(cpu->seriesCount(), 2);
  for (const auto& target : report->header.targets) {
    SCOPED_TRACE(target);
    QList<double> expected;
    for (const auto& r : report->rungs) {
      if (r.target == target && r.completed > 0) expected << static_cast<double>(r.index);
    }
    ASSERT_GE(expected.size(), 2) << "a closed cell and a ladder";
    int found = 0;
    for (int i = 0; i < cpu->seriesCount(); ++i) {
      if (cpu->graph(i)->name() != QString::fromStdString(target)) continue;
      ++found;
      QList<double> keys;
      for (const auto& p : *cpu->graph(i)->data()) keys << p.key;
      EXPECT_EQ(keys, expected);
    }
    EXPECT_EQ(found, 1);
    EXPECT_TRUE(cpu->legendTexts().contains(QString::fromStdString(target)));
  }
  EXPECT_EQ(cpu->xAxis->label(), QStringLiteral("rung"));
  EXPECT_EQ(page.dashboard()->latencyPerRung()->seriesCount(), 4);
  EXPECT_EQ(page.dashboard()->pruningPerRung()->seriesCount(), 6);
}

// Stopped while the default dataset is generated and indexed: the preparation
// ends, the page says nothing was measured or stored, and there is nothing to export. Stop did
// nothing until the dataset was ready, and then an empty run was stored (review, stop 34).
TEST(LoadPage, StopWhileTheDatasetIsPreparedEndsIt) {
  EditedLadderOnLoadPage f("\"docs\": 2000", "\"docs\": 60000");
  app::LoadController& load = f.load;
  app::LoadPage& page = *f.page;
  QSignalSpy& finished = f.finished;
  QSignalSpy& failed = f.failed;
  QSignalSpy messages(&load, &app::LoadController::message);
  page.startRun();
  ASSERT_TRUE(QTest::qWaitFor(
      [&] {
        for (const auto& m : messages) {
          if (m.at(0).toString().startsWith(QStringLiteral("dataset:"))) return true;
        }
        return finished.count() + failed.count() > 0;
      },
      kLoadTimeoutMs));
  page.stopRun();
  ASSERT_TRUE(QTest::qWaitFor([&] { return finished.count() + failed.count() > 0; }, kLoadTimeoutMs));
  ASSERT_EQ(failed.count(), 0) << failed.at(0).at(0).toString().toStdString();
  auto* status = page.findChild<QLabel*>(QStringLiteral("status"));
  ASSERT_TRUE(status);
  EXPECT_TRUE(status->text().contains(QStringLiteral("Stopped while the dataset was prepared"))) << status->text().toStdString();
  EXPECT_EQ(page.report(), nullptr) << "nothing to export";
  EXPECT_FALSE(load.isRunning());
}

}  // namespace
}  // namespace wandscope::test
