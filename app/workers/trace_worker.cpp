// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/workers/trace_worker.h"

#include "engine/core/error.h"
#include "engine/core/fs_util.h"
#include "engine/core/log.h"
#include "engine/index/index_builder.h"
#include "engine/query/posting_cursor.h"
#include "engine/query/searcher.h"
#include "engine/query/trace_json.h"
#include "engine/query/trace_recorder.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>

#include <algorithm>
#include <filesystem>

namespace wandscope::app {
namespace {

namespace fs = std::filesystem;

widgets::TraceLane readLane(const engine::Index& index, const engine::QueryTerm& term) {
  widgets::TraceLane lane;
  lane.term = QString::fromStdString(term.text);
  if (!term.id) return lane;
  lane.known = true;
  engine::QueryCounters scratch;
  engine::PostingCursor blocks(index, *term.id, scratch);
  lane.df = blocks.df();
  lane.idf = blocks.idf();
  lane.listMax = blocks.maxScore();
  // Blocks from the block pointer alone (no decoding).
  blocks.shallowAdvance(0);
  while (blocks.blockLastDoc() != engine::kNoMoreDocs) {
    const engine::DocId last = blocks.blockLastDoc();
    lane.blockLast.push_back(last);
    lane.blockMax.push_back(blocks.blockMaxScore());
    if (last == engine::kNoMoreDocs - 1) break;
    blocks.shallowAdvance(last + 1);
  }
  if (lane.df > TraceWorker::kMaxLanePostings) {
    lane.postingsCapped = true;
    return lane;
  }
  engine::PostingCursor postings(index, *term.id, scratch);
  lane.postings.reserve(lane.df);
  lane.postingScores.reserve(lane.df);
  for (; postings.docId() != engine::kNoMoreDocs; postings.next()) {
    lane.postings.push_back(postings.docId());
    lane.postingScores.push_back(postings.score());
  }
  // Each block drawn from its first posting, so a list that starts late does not seem to.
  auto at = lane.postings.begin();
  for (std::size_t b = 0; b < lane.blockLast.size(); ++b) {
    lane.blockStart.push_back(at == lane.postings.end() ? lane.blockLast[b] : *at);
    at = std::upper_bound(at, lane.postings.end(), lane.blockLast[b]);
  }
  return lane;
}

void traceRun(const engine::Index& index, const TraceParams& params, engine::Algorithm algorithm,
              widgets::TraceRun& out, engine::ParsedQuery* query) {
  engine::TraceRecorder recorder(params.maxEvents);
  engine::SearchRequest request;
  request.text = params.text.toStdString();
  request.op = params.op;
  request.k = params.k;
  request.algorithm = algorithm;
  request.options = params.options;
  request.trace = &recorder;
  request.exactTie = true;  // the check's own run is not traced
  engine::SearchResult result = engine::search(index, request);
  out.requested = algorithm;
  out.algorithm = result.algorithm;
  out.reason = QString::fromStdString(result.reason);
  out.events = recorder.events();
  const std::size_t terms = recorder.terms().size();
  out.positions.resize(out.events.size() * terms);
  for (std::size_t i = 0; i < out.events.size(); ++i) {
    for (std::size_t t = 0; t < terms; ++t) out.positions[i * terms + t] = recorder.position(i, t);
  }
  out.maxEvents = recorder.eventLimit();  // fewer than asked for a query of very many terms
  out.dropped = recorder.dropped();
  out.longWindows = recorder.longWindows;
  out.cursorsWalked = recorder.cursorsWalked;
  out.counters = result.counters;
  out.hits = result.hits;
  out.kthScore = result.kthScore;
  out.tieAtK = result.tieAtK;
  out.json = engine::traceToJson(recorder, true, &request);
  if (query != nullptr) *query = std::move(result.query);
}

}  // namespace

TraceWorker::TraceWorker(std::shared_ptr<const std::atomic<quint64>> latest, QObject* parent)
    : QObject(parent), m_latest(std::move(latest)) {}

IndexHandlePtr TraceWorker::teachingIndex(const QString& cacheRoot) {
  if (m_teaching) return m_teaching;
  QFile corpus(QStringLiteral(":/teaching/corpus.jsonl"));
  if (!corpus.open(QIODevice::ReadOnly)) throw std::runtime_error("the teaching corpus is not embedded");
  const QByteArray bytes = corpus.readAll();
  const QString hash = QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha1).toHex().left(12));
  const fs::path root = cacheRoot.isEmpty() ? engine::userCacheDir() : fs::path(cacheRoot.toStdString());
  const fs::path dir = root / ("teaching-" + hash.toStdString());
  const fs::path indexDir = dir / "index";
  auto handle = std::make_shared<IndexHandle>();
  if (fs::exists(indexDir / "CURRENT")) {
    // The cache outlives builds: an index written by another format version (or damaged) is
    // built again rather than leaving every lesson failing with "rebuild the index".
    try {
      handle->index = engine::Index::open(indexDir);
    } catch (const engine::Error& e) {
      if (e.kind() != engine::ErrorKind::Index) throw;
      engine::log::warn(std::string("the cached teaching index cannot be opened, building it again: ") + e.what());
      fs::remove_all(indexDir);
    }
  }
  if (!handle->index) {
    fs::create_directories(dir);
    const fs::path corpusPath = dir / "corpus.jsonl";
    QFile out(QString::fromStdString(corpusPath.string()));
    if (!out.open(QIODevice::WriteOnly) || out.write(bytes) != bytes.size()) {
      throw std::runtime_error("cannot write " + corpusPath.string());
    }
    out.close();
    engine::IndexBuildOptions options;
    options.corpus = corpusPath;
    options.threads = 1;
    engine::buildIndex(options, indexDir);
    engine::log::info("built the teaching index in " + indexDir.string());
    handle->index = engine::Index::open(indexDir);
  }
  m_teaching = handle;
  return m_teaching;
}

void TraceWorker::run(const TraceJob& job) {
  if (job.generation < m_latest->load()) return;  // a newer request exists
  try {
    IndexHandlePtr handle = job.index;
    if (job.params.teaching) {
      if (!m_teaching) emit started(job.generation, QStringLiteral("Building the teaching index"));
      handle = teachingIndex(job.cacheRoot);
    }
    if (!handle || !handle->index) throw std::runtime_error("no index is open: open one on the Index page, or pick a lesson");
    const engine::Index& index = *handle->index;
    emit started(job.generation, QStringLiteral("Tracing"));
    auto snapshot = std::make_shared<widgets::TraceSnapshot>();
    snapshot->generation = job.generation;
    snapshot->text = job.params.text;
    snapshot->lessonId = job.params.lessonId;
    snapshot->op = job.params.op;
    snapshot->k = std::min<std::size_t>(job.params.k, index.docCount());
    snapshot->options = job.params.options;
    snapshot->docs = index.docCount();
    engine::ParsedQuery query;
    traceRun(index, job.params, job.params.algorithm, snapshot->primary, &query);
    if (job.params.compare && job.generation >= m_latest->load()) {
      snapshot->compare = std::make_unique<widgets::TraceRun>();
      traceRun(index, job.params, *job.params.compare, *snapshot->compare, nullptr);
    }
    for (const auto& t : query.terms) snapshot->lanes.push_back(readLane(index, t));
    emit finished(snapshot);
  } catch (const std::exception& e) {
    emit failed(job.generation, QString::fromUtf8(e.what()));
  }
}

}  // namespace wandscope::app
