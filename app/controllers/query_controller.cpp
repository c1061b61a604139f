// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/controllers/query_controller.h"

#include "app/workers/query_worker.h"
#include "app/workers/worker_thread.h"
#include "engine/core/log.h"

namespace wandscope::app {

QueryController::QueryController(QObject* parent) : QObject(parent) {
  qRegisterMetaType<widgets::SearchSnapshotPtr>();
  qRegisterMetaType<IndexHandlePtr>();
  m_thread = std::make_unique<WorkerThread>(QStringLiteral("wandscope-query"));
  m_worker = new QueryWorker(m_latest);
  m_thread->connect(m_worker, &QueryWorker::finished, this, &QueryController::onFinished);
  m_thread->connect(m_worker, &QueryWorker::failed, this, &QueryController::onFailed);
  m_thread->connect(m_worker, &QueryWorker::dropped, this, &QueryController::onDropped);
  m_thread->start(m_worker);

  m_debounce.setSingleShot(true);
  m_debounce.setInterval(kDebounceMs);
  connect(&m_debounce, &QTimer::timeout, this, &QueryController::dispatch);
}

QueryController::~QueryController() {
  m_latest->store(std::numeric_limits<quint64>::max());  // everything queued is stale now
  if (m_thread->quitAndWait(kShutdownWaitMs)) {
    delete m_worker;
  } else {
    engine::log::warn("the query worker did not stop in time; leaving it to exit with the process");
    disconnect(m_worker, nullptr, this, nullptr);
  }
}

void QueryController::setIndex(IndexHandlePtr index) {
  m_index = std::move(index);
  m_debounce.stop();
  dispatch();
}

void QueryController::setParams(const QueryParams& params) {
  m_params = params;
  m_debounce.start();  // restarts: one request after the typing pauses
}

void QueryController::submit(const QueryParams& params) {
  m_params = params;
  m_debounce.stop();
  dispatch();
}

void QueryController::rerun() {
  m_debounce.stop();
  dispatch();
}

void QueryController::dispatch() {
  const quint64 generation = ++m_generation;
  m_latest->store(generation);  // from now on every older job is stale
  if (!m_index || m_params.text.trimmed().isEmpty()) {
    m_last.reset();
    setSearching(false);
    emit cleared();
    return;
  }
  QueryJob job{generation, m_index, m_params};
  job.params.text = unshared(job.params.text);  // m_params (and the page's line edit) keep theirs
  job.params.simd = unshared(job.params.simd);
  setSearching(true);
  emit searchStarted(generation);
  m_thread->post([w = m_worker, job] { w->run(job); });
}

void QueryController::runOnWorkerThread(std::function<void()> fn) {
  m_thread->post([fn = std::move(fn)] { fn(); });
}

void QueryController::setSearching(bool searching) {
  if (searching == m_searching) return;
  m_searching = searching;
  emit searchingChanged(searching);
}

void QueryController::onFinished(const widgets::SearchSnapshotPtr& snapshot) {
  if (!snapshot || snapshot->generation != m_generation) return;  // stale: a newer request exists
  m_last = snapshot;
  setSearching(false);
  emit resultsReady(snapshot);
}

void QueryController::onFailed(quint64 generation, const QString& message) {
  if (generation != m_generation) return;
  m_last.reset();
  setSearching(false);
  emit searchFailed(generation, message);
}

void QueryController::onDropped(quint64 generation) {
  if (generation == m_generation) setSearching(false);  // only when the controller itself moved on
}

}  // namespace wandscope::app
