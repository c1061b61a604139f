// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/workers/index_worker.h"

#include "app/workers/index_summarizer.h"
#include "engine/bench/default_dataset.h"
#include "engine/core/error.h"
#include "engine/core/log.h"
#include "engine/corpus/query_reader.h"
#include "engine/index/index_builder.h"

#include <QElapsedTimer>
#include <QLocale>

#include <chrono>
#include <exception>

namespace wandscope::app {
namespace {

constexpr std::size_t kSamplesPerSet = 8;

// Thrown from a progress callback to unwind a job whose stop was requested.
struct JobCancelled {};

std::filesystem::path toPath(const QString& s) { return std::filesystem::path(s.toStdString()); }

QString errorMessage(const engine::Error& e) {
  return QStringLiteral("%1 error: %2").arg(QString::fromLatin1(engine::errorKindName(e.kind())),
                                            QString::fromStdString(e.what()));
}

std::int64_t nowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

QString progressStageTitle(const QString& stage) {
  if (stage == QLatin1String("generating")) return QStringLiteral("Generating the corpus");
  if (stage == QLatin1String("counting")) return QStringLiteral("Profiling the corpus for query sets");
  if (stage == QLatin1String("indexing")) return QStringLiteral("Indexing the corpus");
  if (stage == QLatin1String("bounds")) return QStringLiteral("Computing block maxima");
  if (stage == QLatin1String("opening")) return QStringLiteral("Opening and verifying the index");
  if (stage.isEmpty()) return QStringLiteral("Working");
  QString s = stage;
  s[0] = s[0].toUpper();
  return s;
}

IndexWorker::IndexWorker(QObject* parent) : QObject(parent) {}

engine::ProgressFn IndexWorker::progressFor(quint64 job, std::stop_token stop) {
  auto last = std::make_shared<std::atomic<std::int64_t>>(0);
  auto lastStage = std::make_shared<std::string>();
  return [this, job, stop, last, lastStage](const engine::Progress& p) {
    if (stop.stop_requested()) throw JobCancelled{};
    const std::int64_t now = nowMs();
    std::int64_t before = last->load();
    const bool done = p.total > 0 && p.done >= p.total;
    // At most ten reports a second, but never drop a stage's first or last report.
    if (!done && now - before < 100) return;
    if (!last->compare_exchange_strong(before, now) && !done) return;
    emit progress(job, QString::fromStdString(p.stage), p.done, p.total);
  };
}

template <typename F>
void IndexWorker::guarded(quint64 job, const std::stop_token& stop, const QString& what, F&& body) {
  m_kept.clear();
  try {
    body();
    return;
  } catch (const JobCancelled&) {
  } catch (const engine::Error& e) {
    if (!stop.stop_requested()) {
      const QString message = QStringLiteral("%1 failed: %2").arg(what, errorMessage(e));
      engine::log::error(message.toStdString());
      emit failed(job, message);
      return;
    }
  } catch (const std::exception& e) {
    if (!stop.stop_requested()) {
      const QString message = QStringLiteral("%1 failed: %2").arg(what, QString::fromStdString(e.what()));
      engine::log::error(message.toStdString());
      emit failed(job, message);
      return;
    }
  } catch (...) {
    if (!stop.stop_requested()) {
      const QString message = QStringLiteral("%1 failed with an unknown error").arg(what);
      engine::log::error(message.toStdString());
      emit failed(job, message);
      return;
    }
  }
  engine::log::info(QStringLiteral("%1 cancelled").arg(what).toStdString());
  emit cancelled(job, m_kept);
}

IndexHandlePtr IndexWorker::openHandle(const std::filesystem::path& dir) {
  auto handle = std::make_shared<IndexHandle>();
  handle->index = engine::Index::open(dir);
  handle->summary = std::make_shared<const widgets::IndexSummary>(
      summarizeIndex(*handle->index, QString::fromStdString(dir.string())));
  return handle;
}

void IndexWorker::open(quint64 job, const QString& dir, std::stop_token stop) {
  guarded(job, stop, QStringLiteral("Opening %1").arg(dir), [&] {
    emit progress(job, QStringLiteral("opening"), 0, 0);
    QElapsedTimer timer;
    timer.start();
    auto handle = openHandle(toPath(dir));
    if (stop.stop_requested()) throw JobCancelled{};
    const auto& st = handle->summary->stats;
    const QString message = QStringLiteral("Opened %1: %2 documents, %3 terms in %4 ms")
                                .arg(dir, QLocale().toString(static_cast<qulonglong>(st.docs)),
                                     QLocale().toString(static_cast<qulonglong>(st.terms)))
                                .arg(timer.elapsed());
    engine::log::info(message.toStdString());
    emit opened(job, handle, message);
  });
}

void IndexWorker::buildInto(quint64 job, const BuildRequest& request, const std::stop_token& stop) {
  engine::IndexBuildOptions options;
  options.corpus = toPath(request.corpus);
  options.format = request.format;
  options.badLines = request.skipBadLines ? engine::BadLinePolicy::Skip : engine::BadLinePolicy::Stop;
  options.analyzer = request.analyzer;
  options.bm25 = request.bm25;
  options.threads = request.threads;
  options.progress = progressFor(job, stop);
  options.stop = stop;
  engine::log::info(QStringLiteral("Building an index of %1 into %2").arg(request.corpus, request.out).toStdString());
  const auto manifest = engine::buildIndex(options, toPath(request.out));
  if (stop.stop_requested()) throw JobCancelled{};
  emit progress(job, QStringLiteral("opening"), 0, 0);
  auto handle = openHandle(toPath(request.out));
  const QString message = QStringLiteral("Built %1: %2 documents in %3 s")
                              .arg(request.out, QLocale().toString(static_cast<qulonglong>(manifest.docs)),
                                   QLocale().toString(manifest.build.seconds, 'f', 2));
  engine::log::info(message.toStdString());
  emit opened(job, handle, message);
}

void IndexWorker::build(quint64 job, const BuildRequest& request, std::stop_token stop) {
  guarded(job, stop, QStringLiteral("Building the index"), [&] { buildInto(job, request, stop); });
}

void IndexWorker::generate(quint64 job, const GenerateRequest& request, std::stop_token stop) {
  guarded(job, stop, QStringLiteral("Generating the corpus"), [&] {
    engine::log::info(QStringLiteral("Generating %1 documents into %2")
                          .arg(QLocale().toString(static_cast<qulonglong>(request.params.docs)), request.corpus)
                          .toStdString());
    engine::generateCorpus(request.params, toPath(request.corpus), progressFor(job, stop));
    if (stop.stop_requested()) throw JobCancelled{};
    if (!request.build) {
      emit opened(job, nullptr, QStringLiteral("Wrote the corpus %1").arg(request.corpus));
      return;
    }
    // The corpus is complete and stays if the build is cancelled: the page must not say that
    // nothing was changed.
    m_kept = QStringLiteral("the generated corpus %1 (complete; no index was built)").arg(request.corpus);
    BuildRequest b = request.index;
    b.corpus = request.corpus;
    buildInto(job, b, stop);
  });
}

void IndexWorker::prepareDefault(quint64 job, const QString& cacheRoot, quint64 docs, std::stop_token stop) {
  guarded(job, stop, QStringLiteral("Preparing the embedded default dataset"), [&] {
    auto spec = engine::defaultDatasetSpec(toPath(cacheRoot), docs);
    engine::log::info(QStringLiteral("Preparing the embedded default dataset in %1")
                          .arg(QString::fromStdString(spec.dir.string()))
                          .toStdString());
    const auto d = engine::prepareDefaultDataset(spec, progressFor(job, stop));
    if (stop.stop_requested()) throw JobCancelled{};
    DefaultDatasetInfo info;
    info.dir = QString::fromStdString(d.dir.string());
    info.corpus = QString::fromStdString(d.corpus.string());
    info.index = QString::fromStdString(d.index.string());
    info.rebuilt = d.rebuilt;
    for (const auto& q : d.querySets) {
      const QString name = QString::fromStdString(q.name);
      info.querySets.push_back({name, QString::fromStdString(q.path.string())});
      try {
        const auto queries = engine::readQueries(q.path);
        for (std::size_t i = 0; i < queries.size() && i < kSamplesPerSet; ++i) {
          info.sampleQueries.push_back({name, QString::fromStdString(queries[i].text)});
        }
      } catch (const engine::Error& e) {
        engine::log::warn(std::string("cannot read sample queries: ") + e.what());
      }
    }
    emit defaultPrepared(job, info);
    emit progress(job, QStringLiteral("opening"), 0, 0);
    auto handle = openHandle(d.index);
    const QString message = QStringLiteral("Opened the embedded default: %1 documents%2")
                                .arg(QLocale().toString(static_cast<qulonglong>(handle->summary->stats.docs)),
                                     d.rebuilt ? QStringLiteral(" (generated and indexed now)") : QString());
    engine::log::info(message.toStdString());
    emit opened(job, handle, message);
  });
}

}  // namespace wandscope::app
