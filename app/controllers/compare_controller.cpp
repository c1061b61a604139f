// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/controllers/compare_controller.h"

#include "app/workers/compare_worker.h"
#include "app/workers/worker_thread.h"
#include "engine/core/log.h"

namespace wandscope::app {

CompareController::CompareController(QObject* parent)
    : QObject(parent), m_latestDiff(std::make_shared<std::atomic<quint64>>(0)) {
  qRegisterMetaType<CompareReportPtr>();
  qRegisterMetaType<CompareSetRowsPtr>();
  qRegisterMetaType<CompareQuerySetsPtr>();
  qRegisterMetaType<engine::OpenLatencyPoint>();
  qRegisterMetaType<widgets::QueryDiffSnapshotPtr>();
  m_thread = std::make_unique<WorkerThread>(QStringLiteral("wandscope-compare"));
  m_worker = new CompareWorker;
  m_thread->connect(m_worker, &CompareWorker::message, this, [this](quint64 generation, const QString& text) {
    if (generation == m_generation) emit message(text);
  });
  m_thread->connect(m_worker, &CompareWorker::setFinished, this, [this](quint64 generation, const CompareSetRowsPtr& rows) {
    if (generation == m_generation) emit setFinished(rows);
  });
  m_thread->connect(m_worker, &CompareWorker::openLatency, this,
                    [this](quint64 generation, const engine::OpenLatencyPoint& point) {
                      if (generation == m_generation) emit openLatency(point);
                    });
  m_thread->connect(m_worker, &CompareWorker::finished, this, [this](quint64 generation, const CompareReportPtr& report) {
    if (generation != m_generation) return;
    m_last = report;
    setRunning(false);
    emit compareFinished(report);
  });
  m_thread->connect(m_worker, &CompareWorker::failed, this, [this](quint64 generation, const QString& text) {
    if (generation != m_generation) return;
    setRunning(false);
    emit compareFailed(text);
  });
  m_thread->connect(m_worker, &CompareWorker::queriesReady, this, [this](quint64 generation, const CompareQuerySetsPtr& sets) {
    if (generation != m_generation) return;
    m_sets = sets;
    emit queriesReady(sets);
  });
  m_thread->connect(m_worker, &CompareWorker::queryDiffReady, this, [this](const widgets::QueryDiffSnapshotPtr& snapshot) {
    if (snapshot && snapshot->generation == m_generation) emit queryDiffReady(snapshot);
  });
  m_thread->connect(m_worker, &CompareWorker::queryDiffFailed, this, [this](quint64 generation, const QString& text) {
    if (generation == m_generation) emit queryDiffFailed(text);
  });
  m_thread->start(m_worker);
}

CompareController::~CompareController() {
  m_stop.request_stop();
  m_sessionStop.request_stop();
  if (m_thread->quitAndWait(kShutdownWaitMs)) {
    delete m_worker;
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
  m_sessionStop.request_stop();  // the previous comparison's diff session, if it is still preparing
  m_sessionStop = std::stop_source();
  job.generation = ++m_generation;
  job.stop = m_stop.get_token();
  job.sessionStop = m_sessionStop.get_token();
  job.cacheRoot = unshared(job.cacheRoot.isEmpty() ? m_cacheRoot : job.cacheRoot);
  m_last.reset();
  m_sets.reset();
  QStringList targets;
  for (const auto& t : job.targets()) targets << QString::fromStdString(t);
  setRunning(true);
  emit compareStarted(job.generation, targets);
  m_thread->post([w = m_worker, job = std::move(job)] { w->run(job); });
  return true;
}

void CompareController::stop() {
  if (!m_running) return;
  m_stop.request_stop();
  emit message(QStringLiteral("Stopping after the current block\u2026"));
}

void CompareController::requestQueryDiff(int set, int query, int versus) {
  const quint64 request = m_latestDiff->fetch_add(1) + 1;
  m_thread->post([w = m_worker, latest = m_latestDiff, request, generation = m_generation, set, query, versus] {
    if (latest->load() != request) return;  // a newer request is queued behind this one
    w->diffQuery(generation, set, query, versus);
  });
}

void CompareController::setRunning(bool running) {
  if (running == m_running) return;
  m_running = running;
  emit runningChanged(running);
}

}  // namespace wandscope::app
