// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/workers/index_handle.h"
#include "app/workers/index_jobs.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <stop_token>

namespace wandscope::app {

// Does the long index operations - open, build, generate, prepare the embedded default - on the
// thread it lives in (IndexController's worker thread). Every engine call happens in these
// methods; the controller reaches them only through queued invocations. Each job carries an id
// that its signals repeat, and a stop token: when stop is requested the job unwinds at the next
// progress report (generation, profiling) or stop check (build) and reports `cancelled` instead
// of `failed`. Progress is throttled to about ten signals a second.
class IndexWorker : public QObject {
  Q_OBJECT
 public:
  explicit IndexWorker(QObject* parent = nullptr);

  void open(quint64 job, const QString& dir, std::stop_token stop);
  void build(quint64 job, const BuildRequest& request, std::stop_token stop);
  void generate(quint64 job, const GenerateRequest& request, std::stop_token stop);
  void prepareDefault(quint64 job, const QString& cacheRoot, quint64 docs, std::stop_token stop);

 signals:
  void progress(quint64 job, const QString& stage, quint64 done, quint64 total);
  void opened(quint64 job, const wandscope::app::IndexHandlePtr& handle, const QString& message);
  void defaultPrepared(quint64 job, const wandscope::app::DefaultDatasetInfo& info);
  void failed(quint64 job, const QString& message);
  // `kept`: what the job had completed and leaves in place (the generated corpus of a generation
  // cancelled while indexing it), empty when nothing was changed.
  void cancelled(quint64 job, const QString& kept);

 private:
  // Runs `body`, turning engine errors, other exceptions and cancellation into signals.
  template <typename F>
  void guarded(quint64 job, const std::stop_token& stop, const QString& what, F&& body);
  engine::ProgressFn progressFor(quint64 job, std::stop_token stop);
  IndexHandlePtr openHandle(const std::filesystem::path& dir);
  void buildInto(quint64 job, const BuildRequest& request, const std::stop_token& stop);

  QString m_kept;  // the running job's `kept` (see cancelled)
};

// A user-facing name for an engine progress stage ("indexing" -> "Indexing the corpus").
QString progressStageTitle(const QString& stage);

}  // namespace wandscope::app
