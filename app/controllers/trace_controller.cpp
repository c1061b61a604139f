// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/controllers/trace_controller.h"

#include "app/workers/trace_worker.h"
#include "engine/core/log.h"

#include <QThread>

#include <limits>

namespace wandscope::app {

TraceController::TraceController(QObject* parent) : QObject(parent) {
  qRegisterMetaType<widgets::TraceSnapshotPtr>();
  m_thread = new QThread;
  m_thread->setObjectName(QStringLiteral("wandscope-trace"));
  m_worker = new TraceWorker(m_latest);
  m_worker->moveToThread(m_thread);
  connect(m_worker, &TraceWorker::started, this, [this](quint64 generation, const QString& what) {
    if (generation == m_generation) emit progress(what);
  });
  connect(m_worker, &TraceWorker::finished, this, [this](const widgets::TraceSnapshotPtr& snapshot) {
    if (!snapshot || snapshot->generation != m_generation) return;  // stale
    m_last = snapshot;
    setBusy(false);
    emit traceReady(snapshot);
  });
  connect(m_worker, &TraceWorker::failed, this, [this](quint64 generation, const QString& message) {
    if (generation != m_generation) return;
    setBusy(false);
    emit traceFailed(generation, message);
  });
  m_thread->start();
}

TraceController::~TraceController() {
  m_latest->store(std::numeric_limits<quint64>::max());
  m_thread->quit();
  if (m_thread->wait(kShutdownWaitMs)) {
    delete m_worker;
    delete m_thread;
  } else {
    engine::log::warn("the trace worker did not stop in time; leaving it to exit with the process");
    disconnect(m_worker, nullptr, this, nullptr);
  }
}

quint64 TraceController::trace(const TraceParams& params) {
  const quint64 generation = ++m_generation;
  m_latest->store(generation);
  TraceJob job{generation, m_index, m_cacheRoot, params};
  setBusy(true);
  emit traceStarted(generation);
  QMetaObject::invokeMethod(m_worker, [w = m_worker, job] { w->run(job); }, Qt::QueuedConnection);
  return generation;
}

void TraceController::setBusy(bool busy) {
  if (busy == m_busy) return;
  m_busy = busy;
  emit busyChanged(busy);
}

}  // namespace wandscope::app
