// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/workers/load_worker.h"

#include "app/workers/qt_live_sink.h"
#include "engine/bench/bench_runner.h"
#include "engine/core/fs_util.h"
#include "engine/core/log.h"
#include "engine/store/store_run_observer.h"

#include <fmt/format.h>

#include <exception>
#include <memory>

namespace wandscope::app {

void LoadWorker::run(const LoadJob& job) {
  const quint64 generation = job.generation;
  try {
    QtLiveSink::Callbacks callbacks;
    callbacks.batch = [this](widgets::LiveBatchPtr batch) { emit liveBatch(batch); };
    callbacks.rung = [this, generation](const engine::RungResult& rung) { emit rungFinished(generation, rung); };
    callbacks.message = [this, generation](const QString& text) { emit message(generation, text); };
    QtLiveSink sink(generation, std::move(callbacks));

    std::unique_ptr<engine::StoreRunObserver> observer;
    if (!job.storePath.isEmpty()) {
      observer = std::make_unique<engine::StoreRunObserver>(std::filesystem::path(job.storePath.toStdString()));
    }
    engine::BenchRunOptions options;
    options.cacheDir = job.cacheRoot.isEmpty() ? engine::userCacheDir() : std::filesystem::path(job.cacheRoot.toStdString());
    options.observer = observer.get();
    options.live = &sink;
    options.stop = job.stop;
    options.guiAttached = true;  // the report and the store label these numbers as such
    engine::BenchRunner runner(job.profile, options);
    auto report = std::make_shared<engine::RunReport>(runner.run());
    sink.flush();
    engine::log::info(fmt::format("load: run {} finished with {} rungs{}", report->header.runId, report->rungs.size(),
                                  report->partial ? " (partial: stopped)" : ""));
    emit finished(generation, std::move(report));
  } catch (const std::exception& e) {
    engine::log::error(fmt::format("load: {}", e.what()));
    emit failed(generation, QString::fromStdString(e.what()));
  }
}

}  // namespace wandscope::app
