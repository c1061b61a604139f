// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/workers/qt_live_sink.h"

#include "app/workers/worker_thread.h"
#include "widgets/rate_format.h"

namespace wandscope::app {

QtLiveSink::QtLiveSink(quint64 generation, Callbacks callbacks)
    : m_generation(generation), m_callbacks(std::move(callbacks)) {}

QString QtLiveSink::describe(const engine::RungPlan& p) {
  const QString target = QString::fromStdString(p.target);
  if (p.mode == "open") return QStringLiteral("rung %1: open loop, %2 at %3").arg(p.index).arg(target, widgets::formatRate(p.targetRate));
  if (p.mode == "calibration") return QStringLiteral("calibrating %1 (sequential throughput)").arg(target);
  return QStringLiteral("rung %1: closed loop, %2, %3 \u00d7 %4 clients, pass %5/%6")
      .arg(p.index)
      .arg(target, QString::fromStdString(p.querySet))
      .arg(p.concurrency)
      .arg(p.pass + 1)
      .arg(p.passes);
}

void QtLiveSink::onRungStarted(const engine::RungPlan& plan) {
  std::lock_guard lock(m_mutex);
  m_status = describe(plan);
  m_rungShed = 0;
}

void QtLiveSink::onTick(const engine::LiveTick& t) {
  std::lock_guard lock(m_mutex);
  widgets::LivePoint p;
  p.runSeconds = std::chrono::duration<double>(Clock::now() - m_start).count();
  p.rung = t.plan.index;
  p.phase = QString::fromStdString(t.phase);
  p.completed = t.completed;
  p.tickSeconds = t.tickSeconds;
  p.p50Ms = t.p50Ms;
  p.p99Ms = t.p99Ms;
  p.shedTotal = t.shedTotal;
  if (t.plan.mode != "calibration") m_rungShed = t.shedTotal;
  p.runShedTotal = m_shedBefore + m_rungShed;
  p.rssMib = t.rssMib;
  m_buffer.push_back(std::move(p));
  m_status = QStringLiteral("%1 \u2014 %2 %3 s").arg(describe(t.plan), QString::fromStdString(t.phase)).arg(t.elapsedSeconds, 0, 'f', 1);
  if (Clock::now() - m_lastSent >= std::chrono::milliseconds(kMinIntervalMs)) sendLocked();
}

void QtLiveSink::onRungFinished(const engine::RungResult& rung) {
  {
    std::lock_guard lock(m_mutex);
    m_shedBefore += rung.shed;
    m_rungShed = 0;
    sendLocked();
  }
  if (m_callbacks.rung) m_callbacks.rung(rung);
}

void QtLiveSink::onProgress(const engine::Progress& progress) {
  std::lock_guard lock(m_mutex);
  const auto now = Clock::now();
  if (now - m_lastProgress < std::chrono::milliseconds(200)) return;
  m_lastProgress = now;
  QString text = QStringLiteral("preparing the dataset: %1").arg(QString::fromStdString(progress.stage));
  if (progress.total > 0) text += QStringLiteral(" %1 %").arg(100.0 * static_cast<double>(progress.done) / static_cast<double>(progress.total), 0, 'f', 0);
  m_status = text;
  if (m_callbacks.message) m_callbacks.message(text);
}

void QtLiveSink::onMessage(const std::string& message) {
  if (m_callbacks.message) m_callbacks.message(QString::fromStdString(message));
}

void QtLiveSink::flush() {
  std::lock_guard lock(m_mutex);
  sendLocked();
}

int QtLiveSink::batchesSent() const {
  std::lock_guard lock(m_mutex);
  return m_sent;
}

void QtLiveSink::sendLocked() {
  if (m_buffer.isEmpty()) return;
  auto batch = std::make_shared<widgets::LiveBatch>();
  batch->generation = m_generation;
  batch->points = std::move(m_buffer);
  batch->status = unshared(m_status);  // m_status stays on this thread
  m_buffer = {};
  m_lastSent = Clock::now();
  ++m_sent;
  if (m_callbacks.batch) m_callbacks.batch(std::move(batch));
}

}  // namespace wandscope::app
