// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/models/rung_table_model.h"
#include "engine/bench/report_writer.h"
#include "widgets/rate_format.h"

#include "tests/support/qt_test_support.h"

#include <gtest/gtest.h>

#include <cmath>

#include <QAbstractItemModelTester>
#include <QLocale>
#include <QSignalSpy>
#include <QSortFilterProxyModel>

namespace wandscope::test {
namespace {

using widgets::RungTableModel;

engine::RungResult openRung(std::uint32_t index, double rate, std::optional<double> p99) {
  engine::RungResult r;
  r.index = index;
  r.target = "builtin";
  r.mode = "open";
  r.targetRate = rate;
  r.achievedRate = rate * 0.99;
  r.completed = 1234;
  r.shed = index;
  r.p50Ms = 0.5 + index;
  r.p99Ms = p99;
  r.cpuMsPerQuery = 0.25;
  r.rssPeakMib = 50;
  r.verdict = index < 2 ? "pass" : "fail";
  if (index >= 2) r.criterion = "p99 > 10 x first rung";
  return r;
}

QString cell(const RungTableModel& m, int row, RungTableModel::Column c, int role = Qt::DisplayRole) {
  return m.index(row, c).data(role).toString();
}

TEST(RungTableModel, FillsAsRungsFinishAndShowsThinQuantilesAsAbsent) {
  RungTableModel model;
  QAbstractItemModelTester tester(&model, kFatal);
  QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
  EXPECT_EQ(model.rowCount(), 0);
  model.addRung(openRung(0, 100, 3.25));
  model.addRung(openRung(1, 200, std::nullopt));
  EXPECT_EQ(inserted.count(), 2);
  ASSERT_EQ(model.rowCount(), 2);
  EXPECT_EQ(cell(model, 0, RungTableModel::P99), QStringLiteral("3.25 ms"));
  EXPECT_EQ(cell(model, 1, RungTableModel::P99), QStringLiteral("\u2014"));
  // The absent quantile explains itself; a present one carries the metric's definition.
  EXPECT_TRUE(cell(model, 1, RungTableModel::P99, Qt::ToolTipRole).startsWith(QStringLiteral("Absent")));
  EXPECT_FALSE(cell(model, 0, RungTableModel::P99, Qt::ToolTipRole).startsWith(QStringLiteral("Absent")));
  EXPECT_EQ(cell(model, 0, RungTableModel::Load), QStringLiteral("100/s"));
  EXPECT_EQ(cell(model, 0, RungTableModel::Verdict), QStringLiteral("pass"));
  // Large rates in full, never "1.0279e+05/s" (formatRate, the one rate format of the workbench).
  model.addRung(openRung(2, 102790, 4.0));
  EXPECT_EQ(cell(model, 2, RungTableModel::Load), QStringLiteral("102,790/s"));
  {
    // Whatever the system locale: the Load column read "102.790/s" in German beside report.md's
    // "102,790/s" (and the table's Completed and Shed, which already read as the report).
    const QLocale previous;
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    EXPECT_EQ(cell(model, 2, RungTableModel::Load), QStringLiteral("102,790/s"));
    EXPECT_EQ(widgets::formatRate(0.00001234), QStringLiteral("0.00001234/s")) << "never an exponent";
    QLocale::setDefault(previous);
  }
  EXPECT_EQ(widgets::formatRate(12.5), QStringLiteral("12.5/s"));
  // Plot categories: rungs a fraction apart stay apart.
  EXPECT_NE(widgets::formatRate(150.4), widgets::formatRate(150.2));
  EXPECT_EQ(widgets::formatRate(std::nan("")), QStringLiteral("\u2014"));
  EXPECT_FALSE(model.headerData(RungTableModel::P99, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
  model.clear();
  EXPECT_EQ(model.rowCount(), 0);
}

TEST(RungTableModel, ClosedCellsAndSorting) {
  RungTableModel model;
  QAbstractItemModelTester tester(&model, kFatal);
  std::vector<engine::RungResult> rungs{openRung(0, 100, 1.0), openRung(1, 200, std::nullopt), openRung(2, 400, 9.0)};
  engine::RungResult closed;
  closed.index = 3;
  closed.target = "builtin";
  closed.mode = "closed";
  closed.concurrency = 2;
  closed.querySet = "mid-df-2";
  rungs.push_back(closed);
  model.setRungs(rungs);
  ASSERT_EQ(model.rowCount(), 4);
  EXPECT_EQ(cell(model, 3, RungTableModel::Load), QStringLiteral("mid-df-2 \u00d7 2 clients"));
  EXPECT_EQ(cell(model, 3, RungTableModel::Verdict), QStringLiteral("\u2013"));
  EXPECT_EQ(cell(model, 2, RungTableModel::Verdict), QStringLiteral("fail: p99 > 10 x first rung"));

  QSortFilterProxyModel proxy;
  QAbstractItemModelTester proxyTester(&proxy, kFatal);
  proxy.setSourceModel(&model);
  proxy.setSortRole(RungTableModel::SortRole);
  proxy.sort(RungTableModel::P99, Qt::DescendingOrder);
  EXPECT_EQ(proxy.index(0, RungTableModel::P99).data().toString(), QStringLiteral("9 ms"));
  // Absent quantiles sort below every number.
  EXPECT_EQ(proxy.index(3, RungTableModel::P99).data().toString(), QStringLiteral("\u2014"));
}

// The table writes each figure as report.md (and `wandscope-cli runs show`) does for the same
// rung: fixed decimals showed a p50 of 0.004468 ms as "0.004 ms", a CPU of 0.007809 ms/query as
// "0.008" and a rung that completed nothing as "0.000" ms/query, beside a report saying otherwise.
TEST(RungTableModel, FiguresReadAsTheCliReportWritesThem) {
  engine::RungResult fast = openRung(0, 500, 0.01852);
  fast.mode = "closed";
  fast.targetRate = 0;
  fast.concurrency = 1;
  fast.querySet = "mid-df-2";
  fast.achievedRate = 94307.2;
  fast.completed = 46767;
  fast.p50Ms = 0.004468;
  fast.cpuMsPerQuery = 0.007809;
  engine::RungResult slow = openRung(1, 200, 2500.0);
  slow.p50Ms = 1234.0;
  slow.achievedRate = 150.4;
  slow.cpuMsPerQuery = 0.0004123;
  slow.completed = 123456;
  slow.shed = 1234;
  slow.rssPeakMib = 1234.56;
  engine::RungResult idle = openRung(2, 100, std::nullopt);
  idle.completed = 0;
  idle.p50Ms.reset();
  idle.cpuMsPerQuery = 0;
  // A locale that groups otherwise: the counts followed it ("123.456") beside a report that says
  // "123,456" (and the C locale's "123456" on a machine without one).
  const QLocale system;
  QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
  struct Restore {
    QLocale locale;
    ~Restore() { QLocale::setDefault(locale); }
  } restore{system};
  RungTableModel model;
  QAbstractItemModelTester tester(&model, kFatal);
  model.setRungs({fast, slow, idle});
  EXPECT_EQ(cell(model, 0, RungTableModel::P50), QStringLiteral("0.004468 ms"));
  EXPECT_EQ(cell(model, 0, RungTableModel::P99), QStringLiteral("0.01852 ms"));
  EXPECT_EQ(cell(model, 0, RungTableModel::CpuPerQuery), QStringLiteral("0.007809"));
  EXPECT_EQ(cell(model, 0, RungTableModel::Achieved), QStringLiteral("94,307"));
  EXPECT_EQ(cell(model, 1, RungTableModel::P50), QStringLiteral("1.234 s"));
  EXPECT_EQ(cell(model, 1, RungTableModel::P99), QStringLiteral("2.5 s"));
  EXPECT_EQ(cell(model, 1, RungTableModel::CpuPerQuery), QStringLiteral("0.0004123"));
  EXPECT_EQ(cell(model, 1, RungTableModel::Achieved), QStringLiteral("150.4"));
  EXPECT_EQ(cell(model, 2, RungTableModel::CpuPerQuery), QStringLiteral("\u2014")) << "nothing completed";
  EXPECT_EQ(cell(model, 0, RungTableModel::Completed), QStringLiteral("46,767"));
  EXPECT_EQ(cell(model, 1, RungTableModel::Completed), QStringLiteral("123,456"));
  EXPECT_EQ(cell(model, 1, RungTableModel::Shed), QStringLiteral("1,234"));
  EXPECT_EQ(cell(model, 1, RungTableModel::Rss), QStringLiteral("1234.6 MiB"));
  EXPECT_EQ(cell(model, 2, RungTableModel::Completed), QStringLiteral("0"));
  EXPECT_TRUE(cell(model, 2, RungTableModel::P50, Qt::ToolTipRole).startsWith(QStringLiteral("Absent: 0 completed")));

  // The same text as report.md's cells for these rungs.
  engine::RunReport report;
  report.header.runId = "r";
  report.header.profileName = "p";
  report.header.targets = {"builtin"};
  report.rungs = {fast, slow};
  const QString md = QString::fromStdString(engine::reportMarkdown(report));
  for (const auto& [row, col] : {std::pair{0, RungTableModel::P50}, std::pair{0, RungTableModel::P99},
                                 std::pair{1, RungTableModel::P50}, std::pair{1, RungTableModel::P99}}) {
    EXPECT_TRUE(md.contains(QStringLiteral(" %1 |").arg(cell(model, row, col)))) << cell(model, row, col).toStdString();
  }
  // The open-loop table's "completed", "shed" ("1,234 (1.0 %)") and "peak RSS" lines.
  EXPECT_TRUE(md.contains(QStringLiteral("| completed | %1 |").arg(cell(model, 1, RungTableModel::Completed)))) << md.toStdString();
  EXPECT_TRUE(md.contains(QStringLiteral("| shed | %1 (").arg(cell(model, 1, RungTableModel::Shed)))) << md.toStdString();
  EXPECT_TRUE(md.contains(QStringLiteral("| peak RSS | %1 |").arg(cell(model, 1, RungTableModel::Rss)))) << md.toStdString();
  EXPECT_TRUE(md.contains(QStringLiteral(" 0.007809 ms")));
  EXPECT_TRUE(md.contains(QStringLiteral(" 0.0004123 ms")));
}

}  // namespace
}  // namespace wandscope::test
