// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/controllers/compare_controller.h"

#include "app/workers/compare_worker.h"
#include "engine/core/log.h"

#include <QThread>

namespace wandscope::app {

CompareController::CompareController(QObject* parent)
    : QObject(parent), m_latestDiff(std::make_shared<std::atomic<quint64>>(0)) {
  qRegisterMetaType<CompareReportPtr>();
  qRegisterMetaType<CompareSetRowsPtr>();
  qRegisterMetaType<CompareQuerySetsPtr>();
  qRegisterMetaType<engine::OpenLatencyPoint>();
  qRegisterMetaType<widgets::QueryDiffSnapshotPtr>();
  m_thread = new QThread;
  m_thread->setObjectName(QStringLiteral("wandscope-compare"));
  m_worker = new CompareWorker;
  m_worker->moveToThread(m_thread);
  connect(m_worker, &CompareWorker::message, this, [this](quint64 generation, const QString& text) {
    if (generation == m_generation) emit message(text);
  });
  connect(m_worker, &CompareWorker::setFinished, this, [this](quint64 generation, const CompareSetRowsPtr& rows) {
    if (generation == m_generation) emit setFinished(rows);
  });
  connect(m_worker, &CompareWorker::openLatency, this,
          [this](quint64 generation, const engine::OpenLatencyPoint& point) {
            if (generation == m_generation) emit openLatency(point);
          });
  connect(m_worker, &CompareWorker::finished, this, [this](quint64 generation, const CompareReportPtr& report) {
    if (generation != m_generation) return;
    m_last = report;
    setRunning(false);
    emit compareFinished(report);
  });
  connect(m_worker, &CompareWorker::failed, this, [this](quint64 generation, const QString& text) {
    if (generation != m_generation) return;
    setRunning(false);
    emit compareFailed(text);
  });
  connect(m_worker, &CompareWorker::queriesReady, this, [this](quint64 generation, const CompareQuerySetsPtr& sets) {
    if (generation != m_generation) return;
    m_sets = sets;
    emit queriesReady(sets);
  });
  connect(m_worker, &CompareWorker::queryDiffReady, this, [this](const widgets::QueryDiffSnapshotPtr& snapshot) {
    if (snapshot && snapshot->generation == m_generation) emit queryDiffReady(snapshot);
  });
  connect(m_worker, &CompareWorker::queryDiffFailed, this, [this](quint64 generation, const QString& text) {
    if (generation == m_generation) emit queryDiffFailed(text);
  });
  m_thread->start();
}

CompareController::~CompareController() {
  m_stop.request_stop();
  m_thread->quit();
  if (m_thread->wait(kShutdownWaitMs)) {
    delete m_worker;
    delete m_thread;
  } else {
    engine::log::warn("the compare worker did not stop in time; leaving it to exit with the process");
    disconnect(m_worker, nullptr, this, nullptr);
  }
}

bool CompareController::start(CompareJob job) {
  if (m_running) {
    emit compareFailed(QStringLiteral("A comparison is already running; stop it first."));
    return false;
  }
  m_stop = std::stop_source();
  job.generation = ++m_generation;
  job.stop = m_stop.get_token();
  if (job.cacheRoot.isEmpty()) job.cacheRoot = m_cacheRoot;
  m_last.reset();
  m_sets.reset();
  const QString a = QString::fromStdString(job.a);
  const QString b = QString::fromStdString(job.b);
  setRunning(true);
  emit compareStarted(job.generation, a, b);
  QMetaObject::invokeMethod(m_worker, [w = m_worker, job = std::move(job)] { w->run(job); }, Qt::QueuedConnection);
  return true;
}

void CompareController::stop() {
  if (!m_running) return;
  m_stop.request_stop();
  emit message(QStringLiteral("Stopping after the current block\u2026"));
}

void CompareController::requestQueryDiff(int set, int query) {
  const quint64 request = m_latestDiff->fetch_add(1) + 1;
  QMetaObject::invokeMethod(
      m_worker,
      [w = m_worker, latest = m_latestDiff, request, generation = m_generation, set, query] {
        if (latest->load() != request) return;  // a newer request is queued behind this one
        w->diffQuery(generation, set, query);
      },
      Qt::QueuedConnection);
}

void CompareController::setRunning(bool running) {
  if (running == m_running) return;
  m_running = running;
  emit runningChanged(running);
}

}  // namespace wandscope::app
