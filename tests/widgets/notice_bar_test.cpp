// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/views/notice_bar.h"

#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QToolButton>

namespace wandscope::test {
namespace {

using widgets::NoticeBar;

TEST(NoticeBar, ShowsErrorsWithAnOptionalAction) {
  QWidget parent;
  auto* bar = new NoticeBar(&parent);
  parent.show();
  EXPECT_FALSE(bar->isVisible());
  bar->showNotice(NoticeBar::Kind::Error, QStringLiteral("Index error: CURRENT is missing"));
  EXPECT_TRUE(bar->isVisible());
  EXPECT_EQ(bar->kind(), NoticeBar::Kind::Error);
  EXPECT_EQ(bar->text(), QStringLiteral("Index error: CURRENT is missing"));
  EXPECT_TRUE(bar->actionText().isEmpty());

  QSignalSpy actions(bar, &NoticeBar::actionTriggered);
  bar->showNotice(NoticeBar::Kind::Information, QStringLiteral("No index"), QStringLiteral("Open the default"));
  EXPECT_EQ(bar->actionText(), QStringLiteral("Open the default"));
  const auto buttons = bar->findChildren<QToolButton*>();
  for (auto* b : buttons) {
    if (b->text() == QStringLiteral("Open the default")) b->click();
  }
  EXPECT_EQ(actions.count(), 1);

  QSignalSpy closed(bar, &NoticeBar::closed);
  for (auto* b : buttons) {
    if (b->toolTip() == QStringLiteral("Close this message")) b->click();
  }
  EXPECT_EQ(closed.count(), 1);
  EXPECT_FALSE(bar->isVisible());
}

}  // namespace
}  // namespace wandscope::test
