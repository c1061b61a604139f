// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/models/run_list_model.h"

#include "tests/support/qt_test_support.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>

namespace wandscope::test {
namespace {

using widgets::RunListModel;

engine::RunSummary run(const std::string& id, const std::string& profile, const std::string& started, std::size_t rungs,
                       engine::RunStatus status) {
  engine::RunSummary s;
  s.runId = id;
  s.profileName = profile;
  s.targets = {"builtin", "synthetic:service_us=200"};
  s.startedUtc = started;
  s.gitCommit = "0123456789abcdef";
  s.hostname = "bench-host";
  s.rungs = rungs;
  s.status = status;
  return s;
}

TEST(RunListModel, RowsSortAndSearchThroughAProxy) {
  RunListModel model;
  QAbstractItemModelTester tester(&model, kFatal);
  model.setRuns({run("20250101T000000Z-aaaaaa", "smoke", "2025-01-01T00:00:00Z", 6, engine::RunStatus::Complete),
                 run("20250102T000000Z-bbbbbb", "open-ladder", "2025-01-02T00:00:00Z", 3, engine::RunStatus::Partial),
                 run("20250103T000000Z-cccccc", "smoke", "2025-01-03T00:00:00Z", 12, engine::RunStatus::Running)});
  ASSERT_EQ(model.rowCount(), 3);
  EXPECT_EQ(model.index(0, RunListModel::Targets).data().toString(),
            QStringLiteral("builtin, synthetic:service_us=200"));
  EXPECT_EQ(model.index(1, RunListModel::Status).data().toString(), QStringLiteral("partial"));
  EXPECT_EQ(model.index(0, RunListModel::Commit).data().toString(), QStringLiteral("0123456789"));
  EXPECT_FALSE(model.index(2, RunListModel::Status).data(Qt::ToolTipRole).toString().isEmpty());
  EXPECT_EQ(model.rowOf(QStringLiteral("20250102T000000Z-bbbbbb")), 1);
  EXPECT_EQ(model.rowOf(QStringLiteral("nope")), -1);

  QSortFilterProxyModel proxy;
  QAbstractItemModelTester proxyTester(&proxy, kFatal);
  proxy.setSourceModel(&model);
  proxy.setSortRole(RunListModel::SortRole);
  proxy.setFilterRole(RunListModel::SearchRole);
  proxy.setFilterCaseSensitivity(Qt::CaseInsensitive);
  proxy.sort(RunListModel::Rungs, Qt::DescendingOrder);
  EXPECT_EQ(proxy.index(0, RunListModel::Rungs).data().toString(), QStringLiteral("12"));  // numeric, not "6" > "12"
  proxy.setFilterFixedString(QStringLiteral("OPEN-ladder"));
  ASSERT_EQ(proxy.rowCount(), 1);
  EXPECT_EQ(proxy.index(0, 0).data(RunListModel::RunIdRole).toString(), QStringLiteral("20250102T000000Z-bbbbbb"));
  proxy.setFilterFixedString(QStringLiteral("cccccc"));
  EXPECT_EQ(proxy.rowCount(), 1);
  proxy.setFilterFixedString(QStringLiteral("no such run"));
  EXPECT_EQ(proxy.rowCount(), 0);
  model.setRuns({});
  EXPECT_EQ(model.rowCount(), 0);
}

}  // namespace
}  // namespace wandscope::test
