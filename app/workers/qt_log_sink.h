// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/workers/worker_thread.h"
#include "widgets/views/log_view.h"

#include <spdlog/sinks/base_sink.h>

#include <QObject>
#include <QPointer>

#include <memory>
#include <mutex>

namespace wandscope::app {

// Receives log messages on the GUI thread and passes them on as LogEntry (to a LogView and the
// status bar). Lives on the GUI thread; QtLogSink reaches it through postTo() (a queued hand-off
// TSan can see, worker_thread.h).
class LogBridge : public HandoffReceiver {
  Q_OBJECT
 public:
  using HandoffReceiver::HandoffReceiver;

 signals:
  void entry(const wandscope::widgets::LogEntry& entry);
};

// An spdlog sink that forwards every message of the logger it is attached to (the engine's
// "wandscope" logger) to a LogBridge by queued invocation, from whatever thread logged it. It
// never blocks on the GUI thread. detach() (called before the bridge goes away) makes later
// messages no-ops.
class QtLogSink : public spdlog::sinks::base_sink<std::mutex> {
 public:
  explicit QtLogSink(LogBridge* bridge);
  void detach();

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override;
  void flush_() override {}

 private:
  LogBridge* m_bridge;  // guarded by base_sink's mutex
};

// Routes the engine's "wandscope" logger to `bridge` (keeping a stderr sink), at info level, and
// Qt's own warnings into the same logger. Returns the sink so the caller can detach it at exit.
std::shared_ptr<QtLogSink> installQtLogSink(LogBridge* bridge);
// Detaches `sink`, removes it from the logger and restores Qt's message handler (at exit, when
// no other thread logs).
void uninstallQtLogSink(const std::shared_ptr<QtLogSink>& sink);

}  // namespace wandscope::app
