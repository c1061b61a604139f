// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/workers/qt_log_sink.h"

#include "engine/core/log.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <QDateTime>

#include <algorithm>
#include <cstdio>

namespace wandscope::app {
namespace {

widgets::LogLevel toLevel(spdlog::level::level_enum level) {
  switch (level) {
    case spdlog::level::trace: return widgets::LogLevel::Trace;
    case spdlog::level::debug: return widgets::LogLevel::Debug;
    case spdlog::level::info: return widgets::LogLevel::Info;
    case spdlog::level::warn: return widgets::LogLevel::Warning;
    case spdlog::level::err: return widgets::LogLevel::Error;
    default: return widgets::LogLevel::Critical;
  }
}

// Set while a message is being forwarded: a Qt warning raised by the forwarding itself must not
// re-enter the sink (its mutex is held).
thread_local bool t_inSink = false;

void qtMessageHandler(QtMsgType type, const QMessageLogContext&, const QString& message) {
  auto logger = spdlog::get(engine::log::kLoggerName);
  if (!logger || t_inSink) {
    std::fprintf(stderr, "%s\n", message.toLocal8Bit().constData());
    return;
  }
  const std::string text = "Qt: " + message.toStdString();
  switch (type) {
    case QtDebugMsg: logger->debug(text); break;
    case QtInfoMsg: logger->info(text); break;
    case QtWarningMsg: logger->warn(text); break;
    case QtCriticalMsg: logger->error(text); break;
    case QtFatalMsg: logger->critical(text); break;
  }
}

}  // namespace

QtLogSink::QtLogSink(LogBridge* bridge) : m_bridge(bridge) {}

void QtLogSink::detach() {
  std::lock_guard lock(mutex_);
  m_bridge = nullptr;
}

void QtLogSink::sink_it_(const spdlog::details::log_msg& msg) {
  if (!m_bridge) return;
  widgets::LogEntry e;
  e.time = QDateTime::fromMSecsSinceEpoch(
      std::chrono::duration_cast<std::chrono::milliseconds>(msg.time.time_since_epoch()).count());
  e.level = toLevel(msg.level);
  e.text = QString::fromUtf8(msg.payload.data(), static_cast<qsizetype>(msg.payload.size()));
  // Queued even on the GUI thread: a message logged while a model resets must not re-enter views.
  t_inSink = true;
  postTo(m_bridge, [b = m_bridge, e = std::move(e)] { emit b->entry(e); });  // moved: nothing left shared here
  t_inSink = false;
}

std::shared_ptr<QtLogSink> installQtLogSink(LogBridge* bridge) {
  qRegisterMetaType<widgets::LogEntry>();
  auto sink = std::make_shared<QtLogSink>(bridge);
  sink->set_level(spdlog::level::debug);
  auto logger = spdlog::get(engine::log::kLoggerName);
  if (!logger) {
    auto console = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
    console->set_level(spdlog::level::warn);
    logger = std::make_shared<spdlog::logger>(engine::log::kLoggerName, spdlog::sinks_init_list{console, sink});
    logger->set_pattern("%^%l%$: %v");
    spdlog::register_logger(logger);
  } else {
    logger->sinks().push_back(sink);  // at start-up, before any worker thread logs
  }
  logger->set_level(spdlog::level::info);
  qInstallMessageHandler(qtMessageHandler);
  return sink;
}

void uninstallQtLogSink(const std::shared_ptr<QtLogSink>& sink) {
  if (!sink) return;
  sink->detach();
  qInstallMessageHandler(nullptr);
  if (auto logger = spdlog::get(engine::log::kLoggerName)) {
    auto& sinks = logger->sinks();
    sinks.erase(std::remove(sinks.begin(), sinks.end(), sink), sinks.end());
  }
}

}  // namespace wandscope::app
