// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/workers/qt_log_sink.h"
#include "engine/core/log.h"

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <QSignalSpy>
#include <QTest>

#include <thread>

namespace wandscope::test {
namespace {

TEST(QtLogSink, ForwardsEngineMessagesFromAnyThreadToTheGuiThread) {
  app::LogBridge bridge;
  auto sink = app::installQtLogSink(&bridge);
  QSignalSpy entries(&bridge, &app::LogBridge::entry);
  std::thread worker([] { engine::log::warn("segment 3 is damaged (from a worker)"); });
  worker.join();
  engine::log::info("opened an index");
  ASSERT_TRUE(QTest::qWaitFor([&] { return entries.count() >= 2; }, 5000));
  const auto first = entries.at(0).at(0).value<widgets::LogEntry>();
  EXPECT_EQ(first.level, widgets::LogLevel::Warning);
  EXPECT_EQ(first.text, QStringLiteral("segment 3 is damaged (from a worker)"));
  EXPECT_EQ(entries.at(1).at(0).value<widgets::LogEntry>().level, widgets::LogLevel::Info);

  // Qt's own warnings land in the same log.
  qWarning("a Qt warning");
  ASSERT_TRUE(QTest::qWaitFor([&] { return entries.count() >= 3; }, 5000));
  EXPECT_TRUE(entries.at(2).at(0).value<widgets::LogEntry>().text.contains(QStringLiteral("a Qt warning")));

  app::uninstallQtLogSink(sink);
  engine::log::warn("after detaching");
  QTest::qWait(50);
  EXPECT_EQ(entries.count(), 3);
}

}  // namespace
}  // namespace wandscope::test
