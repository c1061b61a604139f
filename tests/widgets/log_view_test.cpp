// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/views/log_view.h"

#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QTest>

namespace wandscope::test {
namespace {

using widgets::LogLevel;
using widgets::LogView;

TEST(LogView, BatchesMessagesAndFiltersByLevel) {
  LogView view;
  QSignalSpy problems(&view, &LogView::problemLogged);
  view.appendMessage(LogLevel::Debug, QStringLiteral("debug detail"));
  view.appendMessage(LogLevel::Info, QStringLiteral("opened an index"));
  view.appendMessage(LogLevel::Error, QStringLiteral("index error: CURRENT is missing"));
  EXPECT_TRUE(view.flushPending());
  EXPECT_EQ(view.entryCount(), 0);  // nothing written before the flush timer
  ASSERT_TRUE(QTest::qWaitFor([&] { return !view.flushPending(); }, 5000));
  EXPECT_EQ(view.entryCount(), 3);
  EXPECT_EQ(problems.count(), 1);
  EXPECT_EQ(problems.at(0).at(0).toString(), QStringLiteral("index error: CURRENT is missing"));
  EXPECT_FALSE(view.shownText().contains(QStringLiteral("debug detail")));
  EXPECT_TRUE(view.shownText().contains(QStringLiteral("opened an index")));

  view.setMinimumLevel(LogLevel::Debug);
  EXPECT_TRUE(view.shownText().contains(QStringLiteral("debug detail")));
  view.setMinimumLevel(LogLevel::Error);
  EXPECT_FALSE(view.shownText().contains(QStringLiteral("opened an index")));
  EXPECT_TRUE(view.shownText().contains(QStringLiteral("CURRENT is missing")));

  view.clear();
  EXPECT_EQ(view.entryCount(), 0);
  EXPECT_TRUE(view.shownText().isEmpty());
}

TEST(LogView, KeepsABoundedHistory) {
  LogView view;
  for (int i = 0; i < LogView::kMaxEntries + 10; ++i) view.appendMessage(LogLevel::Info, QString::number(i));
  view.flush();
  EXPECT_EQ(view.entryCount(), LogView::kMaxEntries);
}

}  // namespace
}  // namespace wandscope::test
