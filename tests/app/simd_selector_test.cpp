// SPDX-License-Identifier: GPL-3.0-or-later
// The SIMD target selector (issue 4, "the same setting in the GUI"): what it lists, that a choice
// switches the engine process-wide and every selector with it, that it never switches under a
// query or a run, that it persists and is applied at startup, and that Explore results and Load
// reports name the target the kernels actually ran on.
#include "app/controllers/index_controller.h"
#include "app/controllers/load_controller.h"
#include "app/controllers/query_controller.h"
#include "app/gui/main_window.h"
#include "app/gui/pages/explore_page.h"
#include "app/gui/pages/load_page.h"
#include "app/gui/simd_selector.h"
#include "app/workers/index_summarizer.h"
#include "engine/codec/simd/simd_target.h"
#include "tests/support/qt_test_support.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_index.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <QSettings>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTest>

#include <algorithm>
#include <cstdlib>
#include <fstream>

namespace wandscope::test {
namespace {

namespace simd = engine::simd;
using app::SimdSelector;

constexpr int kSelectorTimeoutMs = 180'000;

// A target other than the best one that this CPU runs (scalar always qualifies).
QString otherTarget() { return QStringLiteral("scalar"); }

bool supported(simd::Target t) {
  const auto s = simd::supportedTargets();
  return std::find(s.begin(), s.end(), t) != s.end();
}

// Chooses an entry as a user does: the combo's activated signal for that row.
void pick(SimdSelector& selector, const QString& name) {
  const int row = selector.findData(name, Qt::UserRole);
  ASSERT_GE(row, 0) << name.toStdString();
  selector.setCurrentIndex(row);
  emit selector.activated(row);
}

class SimdSelectorTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(SimdSelector::request(QStringLiteral("best"))); }
  void TearDown() override {
    SimdSelector::setRunInFlight(false);
    SimdSelector::setQueryInFlight(false);
    SimdSelector::request(QStringLiteral("best"));
  }
};

TEST_F(SimdSelectorTest, ListsEveryCompiledTargetAndOnlySupportedOnesArePickable) {
  SimdSelector selector;
  const auto compiled = simd::compiledTargets();
  ASSERT_EQ(selector.count(), static_cast<int>(compiled.size()) + 1);
  EXPECT_EQ(selector.itemData(0, Qt::UserRole).toString(), QStringLiteral("best"));
  auto* model = qobject_cast<QStandardItemModel*>(selector.model());
  ASSERT_TRUE(model);
  for (std::size_t i = 0; i < compiled.size(); ++i) {
    const int row = static_cast<int>(i) + 1;
    const QString name = QString::fromLatin1(simd::targetName(compiled[i]));
    SCOPED_TRACE(name.toStdString());
    EXPECT_EQ(selector.itemData(row, Qt::UserRole).toString(), name);
    EXPECT_EQ(model->item(row)->isEnabled(), supported(compiled[i]));
    EXPECT_FALSE(selector.itemData(row, Qt::ToolTipRole).toString().isEmpty());
    if (!supported(compiled[i])) {
      EXPECT_TRUE(selector.itemText(row).contains(QStringLiteral("unsupported here")));
      QString error;
      EXPECT_FALSE(SimdSelector::request(name, &error));
      EXPECT_FALSE(error.isEmpty());
    }
  }
  // The tooltip says what the set is and that the choice is process-wide.
  EXPECT_TRUE(selector.toolTip().contains(QStringLiteral("process-wide")));
  QString error;
  EXPECT_FALSE(SimdSelector::request(QStringLiteral("neon"), &error));
  EXPECT_TRUE(error.contains(QStringLiteral("neon")));
  EXPECT_EQ(SimdSelector::requested(), QStringLiteral("best"));
  EXPECT_FALSE(simd::targetForced());
}

TEST_F(SimdSelectorTest, PickingATargetSwitchesTheEngineAndEverySelector) {
  SimdSelector a;
  SimdSelector b;
  QSignalSpy changed(&b, &SimdSelector::targetChanged);
  pick(a, otherTarget());
  EXPECT_EQ(simd::currentTarget(), simd::Target::Scalar);
  EXPECT_TRUE(simd::targetForced());
  EXPECT_EQ(SimdSelector::inUse(), QStringLiteral("scalar"));
  EXPECT_EQ(b.currentData(Qt::UserRole).toString(), QStringLiteral("scalar"));
  ASSERT_EQ(changed.count(), 1);
  EXPECT_EQ(changed.at(0).at(1).toString(), QStringLiteral("scalar"));

  pick(b, QStringLiteral("best"));
  EXPECT_EQ(simd::currentTarget(), simd::bestTarget());
  EXPECT_FALSE(simd::targetForced());
  EXPECT_EQ(a.currentData(Qt::UserRole).toString(), QStringLiteral("best"));
}

TEST_F(SimdSelectorTest, NeverSwitchesUnderAQueryOrARun) {
  SimdSelector selector;
  // A query in flight: the request waits for it.
  SimdSelector::setQueryInFlight(true);
  ASSERT_TRUE(SimdSelector::request(otherTarget()));
  EXPECT_EQ(SimdSelector::requested(), otherTarget());
  EXPECT_FALSE(simd::targetForced()) << "switched under a query";
  SimdSelector::setQueryInFlight(false);
  EXPECT_EQ(simd::currentTarget(), simd::Target::Scalar);
  // A run in flight: every selector is locked and requests are refused.
  SimdSelector::setRunInFlight(true);
  EXPECT_FALSE(selector.isEnabled());
  QString error;
  EXPECT_FALSE(SimdSelector::request(QStringLiteral("best"), &error));
  EXPECT_FALSE(error.isEmpty());
  EXPECT_EQ(simd::currentTarget(), simd::Target::Scalar);
  SimdSelector::setRunInFlight(false);
  EXPECT_TRUE(selector.isEnabled());
}

TEST_F(SimdSelectorTest, PersistsAndIsAppliedAtStartup) {
  TempDir dir;
  app::MainWindowOptions options;
  options.settingsFile = qpath(dir / "settings.ini");
  options.runStorePath = qpath(dir / "runs.sqlite");
  options.defaultCacheRoot = qpath(dir / "cache");
  {
    app::MainWindow window(options);
    auto* load = qobject_cast<app::LoadPage*>(window.page(QStringLiteral("load")));
    auto* explore = qobject_cast<app::ExplorePage*>(window.page(QStringLiteral("explore")));
    ASSERT_TRUE(load && explore && load->simdSelector() && explore->simdSelector());
    pick(*load->simdSelector(), otherTarget());
    // Both pages' selectors show the one process-wide choice.
    EXPECT_EQ(explore->simdSelector()->currentData(Qt::UserRole).toString(), otherTarget());
    window.saveSettings();
  }
  ASSERT_TRUE(SimdSelector::request(QStringLiteral("best")));
  ASSERT_FALSE(simd::targetForced());
  {
    app::MainWindow window(options);  // restores the pages' settings: the target is applied
    EXPECT_EQ(simd::currentTarget(), simd::Target::Scalar);
    EXPECT_TRUE(simd::targetForced());
    auto* load = qobject_cast<app::LoadPage*>(window.page(QStringLiteral("load")));
    ASSERT_TRUE(load);
    EXPECT_EQ(load->simdSelector()->currentData(Qt::UserRole).toString(), otherTarget());
  }
  // WANDSCOPE_SIMD wins over the saved choice, as it does for the CLI.
  ASSERT_TRUE(SimdSelector::request(QStringLiteral("best")));
  ::setenv(simd::kTargetEnvVar, "best", 1);
  {
    QSettings settings(options.settingsFile, QSettings::IniFormat);
    settings.beginGroup(QStringLiteral("pages/load"));
    EXPECT_EQ(settings.value(QStringLiteral("simd")).toString(), otherTarget());
    SimdSelector::restoreSettings(settings);
  }
  ::unsetenv(simd::kTargetEnvVar);
  EXPECT_FALSE(simd::targetForced());
}

TEST_F(SimdSelectorTest, ExploreQueriesRunOnTheChosenTargetAndSayWhich) {
  RandomCorpusParams params;
  params.docs = 2000;
  params.vocabulary = 200;
  params.maxLength = 60;
  auto index = buildTestIndex(randomCorpus(5, params));
  auto handle = std::make_shared<app::IndexHandle>();
  handle->index = index->index;
  handle->summary = std::make_shared<const widgets::IndexSummary>(
      app::summarizeIndex(*index->index, QString::fromStdString(index->indexPath.string())));

  app::IndexController indexController;
  app::QueryController queries;
  queries.setIndex(handle);
  app::WorkbenchContext context;
  context.index = &indexController;
  context.query = &queries;
  app::ExplorePage page(context);
  page.resize(1200, 800);
  page.show();
  pick(*page.simdSelector(), otherTarget());
  EXPECT_EQ(page.currentParams().simd, otherTarget());
  QSignalSpy ready(&queries, &app::QueryController::resultsReady);
  page.setQueryText(QStringLiteral("w1 w2"));
  ASSERT_TRUE(QTest::qWaitFor([&] { return ready.count() > 0; }, kSelectorTimeoutMs));
  auto snapshot = ready.last().at(0).value<widgets::SearchSnapshotPtr>();
  ASSERT_TRUE(snapshot);
  EXPECT_EQ(snapshot->simdTarget, QStringLiteral("scalar"));
  EXPECT_TRUE(page.cpuSummaryText().contains(QStringLiteral("scalar"))) << page.cpuSummaryText().toStdString();
  // A query this quick is timed warm: the medians of repeats after the first (cold) run, which
  // alone made fast paths look slower than the oracle.
  EXPECT_GT(snapshot->primary.timedRuns, 1);
  EXPECT_LE(snapshot->primary.timedRuns, 31);

  // Back to best: the page searches again and the summary names the best target.
  ready.clear();
  pick(*page.simdSelector(), QStringLiteral("best"));
  ASSERT_TRUE(QTest::qWaitFor([&] { return ready.count() > 0; }, kSelectorTimeoutMs));
  snapshot = ready.last().at(0).value<widgets::SearchSnapshotPtr>();
  const QString best = QString::fromLatin1(simd::targetName(simd::bestTarget()));
  EXPECT_EQ(snapshot->simdTarget, best);
  EXPECT_TRUE(page.cpuSummaryText().contains(best));
}

TEST_F(SimdSelectorTest, ALoadRunIsLockedToAndReportsTheChosenTarget) {
  TempDir dir;
  const auto profile = dir.write("simd.json", R"({
    "format_version": 1,
    "name": "simd-test",
    "description": "A tiny closed loop for the SIMD selector test.",
    "dataset": {"default": {"docs": 2000}},
    "query_sets": ["mid-df-2"],
    "query": {"op": "and", "k": 10, "algorithm": "auto"},
    "targets": ["builtin"],
    "seed": 42,
    "mode": "closed",
    "closed": {"concurrency": [1], "warmup_s": 0.05, "measure_s": 0.3, "passes": 1}
  })");
  app::LoadController load;
  load.setCacheRoot(qpath(dir / "cache"));
  app::WorkbenchContext context;
  context.load = &load;
  app::LoadPage page(context);
  SimdSelector other;  // e.g. the Explore page's
  page.selectProfileFile(qpath(profile));
  pick(*page.simdSelector(), otherTarget());

  bool lockedWhileRunning = false;
  QObject::connect(&load, &app::LoadController::runStarted, &page,
                   [&] { lockedWhileRunning = !page.simdSelector()->isEnabled() && !other.isEnabled(); });
  QSignalSpy finished(&load, &app::LoadController::runFinished);
  QSignalSpy failed(&load, &app::LoadController::runFailed);
  page.startRun();
  ASSERT_TRUE(QTest::qWaitFor([&] { return finished.count() + failed.count() > 0; }, kSelectorTimeoutMs));
  ASSERT_EQ(failed.count(), 0) << failed.at(0).at(0).toString().toStdString();
  EXPECT_TRUE(lockedWhileRunning);
  ASSERT_TRUE(page.report());
  EXPECT_EQ(page.report()->header.environment.simdTarget, "scalar");
  EXPECT_TRUE(page.report()->header.environment.guiAttached);
  EXPECT_TRUE(page.simdSelector()->isEnabled());

  // The exported bundle's report.json says so too.
  const auto bundle = dir / "bundle";
  QString error;
  ASSERT_TRUE(page.exportReportTo(qpath(bundle), &error)) << error.toStdString();
  std::ifstream in(bundle / "report.json");
  ASSERT_TRUE(in.good());
  const auto report = nlohmann::json::parse(in);
  EXPECT_EQ(report["environment"]["simd_target"].get<std::string>(), "scalar");
  EXPECT_TRUE(report["environment"]["gui_attached"].get<bool>());
}

}  // namespace
}  // namespace wandscope::test
