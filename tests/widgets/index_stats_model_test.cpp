// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/widgets/snapshot_fixtures.h"
#include "widgets/models/index_stats_model.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QLocale>

namespace wandscope::test {
namespace {

using widgets::IndexStatsModel;

TEST(IndexStatsModel, EveryRowHasAValueAndATooltip) {
  IndexStatsModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  EXPECT_EQ(model.rowCount(), 0);
  model.setSummary(makeSummary());
  ASSERT_GT(model.rowCount(), 15);
  for (int r = 0; r < model.rowCount(); ++r) {
    EXPECT_FALSE(model.index(r, 0).data().toString().isEmpty()) << r;
    EXPECT_FALSE(model.index(r, 1).data().toString().isEmpty()) << r;
    EXPECT_FALSE(model.index(r, 0).data(Qt::ToolTipRole).toString().isEmpty())
        << model.index(r, 0).data(IndexStatsModel::KeyRole).toString().toStdString();
  }
  EXPECT_EQ(model.index(model.rowOf(QStringLiteral("docs")), 1).data().toString(), QLocale().toString(1000));
  EXPECT_EQ(model.index(model.rowOf(QStringLiteral("analyzer")), 1).data().toString(), QStringLiteral("plain/1"));
  EXPECT_EQ(model.index(model.rowOf(QStringLiteral("k1")), 1).data().toString(), QStringLiteral("1.2"));
  EXPECT_EQ(model.index(model.rowOf(QStringLiteral("segments")), 1).data().toString(), QStringLiteral("2"));
  model.setSummary(nullptr);
  EXPECT_EQ(model.rowCount(), 0);
}

TEST(IndexStatsModel, FormatsBytes) {
  EXPECT_EQ(IndexStatsModel::formatBytes(512), QStringLiteral("512 bytes"));
  EXPECT_TRUE(IndexStatsModel::formatBytes(3u << 20).startsWith(QStringLiteral("3.0")));
  EXPECT_TRUE(IndexStatsModel::formatBytes(3u << 20).endsWith(QStringLiteral("MiB"))) << "as the CLI says it";
}

}  // namespace
}  // namespace wandscope::test
