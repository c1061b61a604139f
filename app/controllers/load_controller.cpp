// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/controllers/load_controller.h"

#include "app/workers/load_worker.h"
#include "app/workers/worker_thread.h"
#include "engine/core/log.h"

namespace wandscope::app {

LoadController::LoadController(QObject* parent) : QObject(parent) {
  qRegisterMetaType<widgets::LiveBatchPtr>();
  qRegisterMetaType<engine::RungResult>();
  qRegisterMetaType<RunReportPtr>();
  m_thread = std::make_unique<WorkerThread>(QStringLiteral("wandscope-load"));
  m_worker = new LoadWorker;
  m_thread->connect(m_worker, &LoadWorker::liveBatch, this, &LoadController::onBatch);
  m_thread->connect(m_worker, &LoadWorker::rungFinished, this, &LoadController::onRung);
  m_thread->connect(m_worker, &LoadWorker::message, this, &LoadController::onMessage);
  m_thread->connect(m_worker, &LoadWorker::finished, this, &LoadController::onFinished);
  m_thread->connect(m_worker, &LoadWorker::failed, this, &LoadController::onFailed);
  m_thread->start(m_worker);
}

LoadController::~LoadController() {
  m_stop.request_stop();
  if (m_thread->quitAndWait(kShutdownWaitMs)) {
    delete m_worker;
  } else {
    engine::log::warn("the load worker did not stop in time; leaving it to exit with the process");
    disconnect(m_worker, nullptr, this, nullptr);
  }
}

bool LoadController::start(engine::BenchProfile profile) {
  if (m_running) {
    emit runFailed(QStringLiteral("A run is already in progress; stop it first."));
    return false;
  }
  m_stop = std::stop_source();
  LoadJob job;
  job.generation = ++m_generation;
  job.profile = std::move(profile);
  job.storePath = unshared(m_storePath);
  job.cacheRoot = unshared(m_cacheRoot);
  job.stop = m_stop.get_token();
  const QString name = QString::fromStdString(job.profile.name);
  setRunning(true);
  emit runStarted(job.generation, name);
  m_thread->post([w = m_worker, job = std::move(job)] { w->run(job); });
  return true;
}

void LoadController::stop() {
  if (!m_running) return;
  m_stop.request_stop();
  emit message(QStringLiteral("Stopping: the current rung ends partial\u2026"));
}

void LoadController::setRunning(bool running) {
  if (running == m_running) return;
  m_running = running;
  emit runningChanged(running);
}

void LoadController::onBatch(const widgets::LiveBatchPtr& batch) {
  if (!batch || batch->generation != m_generation) return;  // from an older run
  emit liveBatchReady(batch);
}

void LoadController::onRung(quint64 generation, const engine::RungResult& rung) {
  if (generation == m_generation) emit rungFinished(rung);
}

void LoadController::onMessage(quint64 generation, const QString& text) {
  if (generation == m_generation) emit message(text);
}

void LoadController::onFinished(quint64 generation, const RunReportPtr& report) {
  if (generation != m_generation) return;
  m_last = report;
  setRunning(false);
  emit runFinished(report);
}

void LoadController::onFailed(quint64 generation, const QString& message) {
  if (generation != m_generation) return;
  setRunning(false);
  emit runFailed(message);
}

}  // namespace wandscope::app
