// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/controllers/index_controller.h"

#include "app/workers/index_worker.h"
#include "app/workers/worker_thread.h"
#include "engine/core/fs_util.h"
#include "engine/core/log.h"

namespace wandscope::app {

namespace {

// The request as the worker gets it: its paths unshared() from the page's (worker_thread.h).
BuildRequest unsharedRequest(BuildRequest r) {
  r.corpus = unshared(r.corpus);
  r.out = unshared(r.out);
  return r;
}

GenerateRequest unsharedRequest(GenerateRequest r) {
  r.corpus = unshared(r.corpus);
  r.index = unsharedRequest(std::move(r.index));
  return r;
}

}  // namespace

IndexController::IndexController(QObject* parent) : QObject(parent) {
  qRegisterMetaType<IndexHandlePtr>();
  qRegisterMetaType<DefaultDatasetInfo>();
  m_thread = std::make_unique<WorkerThread>(QStringLiteral("wandscope-index"));
  m_worker = new IndexWorker;
  m_thread->connect(m_worker, &IndexWorker::progress, this, &IndexController::onProgress);
  m_thread->connect(m_worker, &IndexWorker::opened, this, &IndexController::onOpened);
  m_thread->connect(m_worker, &IndexWorker::defaultPrepared, this, &IndexController::onDefaultPrepared);
  m_thread->connect(m_worker, &IndexWorker::failed, this, &IndexController::onFailed);
  m_thread->connect(m_worker, &IndexWorker::cancelled, this, &IndexController::onCancelled);
  m_thread->start(m_worker);
}

IndexController::~IndexController() {
  m_stop.request_stop();
  if (m_thread->quitAndWait(kShutdownWaitMs)) {
    delete m_worker;
  } else {
    // A job that ignores its stop token (one uninterruptible engine call): leave it to the
    // process exit rather than destroy a running thread.
    engine::log::warn("the index worker did not stop in time; leaving it to exit with the process");
    disconnect(m_worker, nullptr, this, nullptr);
  }
}

QString IndexController::currentPath() const {
  return m_current && m_current->summary ? m_current->summary->path : QString();
}

std::pair<quint64, std::stop_token> IndexController::startJob(const QString& description) {
  if (m_busy) m_stop.request_stop();  // the worker unwinds it before starting the new one
  m_stop = std::stop_source();
  ++m_job;
  m_description = description;
  setBusy(true);
  emit jobStarted(description);
  return {m_job, m_stop.get_token()};
}

void IndexController::setBusy(bool busy) {
  if (busy == m_busy) return;
  m_busy = busy;
  emit busyChanged(busy);
}

void IndexController::openIndex(const QString& dir) {
  const auto [job, stop] = startJob(QStringLiteral("Opening %1").arg(dir));
  m_thread->post([w = m_worker, job = job, dir = unshared(dir), stop = stop] { w->open(job, dir, stop); });
}

void IndexController::buildIndex(const BuildRequest& request) {
  const auto [job, stop] = startJob(QStringLiteral("Building an index of %1").arg(request.corpus));
  m_thread->post([w = m_worker, job = job, request = unsharedRequest(request), stop = stop] { w->build(job, request, stop); });
}

void IndexController::generateCorpus(const GenerateRequest& request) {
  const auto [job, stop] = startJob(QStringLiteral("Generating %1").arg(request.corpus));
  m_thread->post([w = m_worker, job = job, request = unsharedRequest(request), stop = stop] { w->generate(job, request, stop); });
}

void IndexController::openDefault(quint64 docs, const QString& cacheRoot) {
  const QString root = cacheRoot.isEmpty() ? QString::fromStdString(engine::userCacheDir().string()) : unshared(cacheRoot);
  const auto [job, stop] = startJob(QStringLiteral("Opening the embedded default dataset"));
  m_thread->post([w = m_worker, job = job, root, docs, stop = stop] { w->prepareDefault(job, root, docs, stop); });
}

void IndexController::cancel() {
  if (!m_busy) return;
  m_stop.request_stop();
}

void IndexController::onProgress(quint64 job, const QString& stage, quint64 done, quint64 total) {
  if (job != m_job) return;
  emit progressChanged(progressStageTitle(stage), done, total);
}

void IndexController::onOpened(quint64 job, const IndexHandlePtr& handle, const QString& message) {
  if (job != m_job) return;
  setBusy(false);
  if (handle) {
    m_current = handle;
    emit indexChanged(handle);
  }
  emit jobFinished(message);
}

void IndexController::onDefaultPrepared(quint64 job, const DefaultDatasetInfo& info) {
  if (job != m_job) return;
  m_default = info;
  emit defaultDatasetReady(info);
}

void IndexController::onFailed(quint64 job, const QString& message) {
  if (job != m_job) return;
  setBusy(false);
  emit jobFailed(message);
}

void IndexController::onCancelled(quint64 job, const QString& kept) {
  if (job != m_job) return;
  setBusy(false);
  emit jobCancelled(kept);
}

}  // namespace wandscope::app
