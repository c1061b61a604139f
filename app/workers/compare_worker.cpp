// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/workers/compare_worker.h"

#include "engine/api/plugin_engine.h"
#include "engine/api/plugin_index.h"
#include "engine/bench/bench_runner.h"
#include "engine/bench/compare_runner.h"
#include "engine/bench/result_diff.h"
#include "engine/core/error.h"
#include "engine/core/fs_util.h"
#include "engine/core/json_number.h"
#include "engine/core/log.h"
#include "engine/loadgen/builtin_target.h"
#include "engine/loadgen/plugin_target.h"
#include "engine/loadgen/target_spec.h"
#include "engine/peers/peer_targets.h"
#include "engine/query/searcher.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <exception>
#include <limits>
#include <map>
#include <stdexcept>

namespace wandscope::app {

// The targets of a finished comparison, prepared again (as the runner prepares them) so any
// query can be answered by both untimed. Plugin sides get their own index handle for explain.
struct CompareWorker::Session {
  quint64 generation = 0;
  std::unique_ptr<engine::BenchRunner> runner;
  std::map<std::size_t, std::unique_ptr<engine::PluginIndex>> pluginIndexes;  // by side, opened on demand
};

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

engine::BenchProfile sessionProfile(const CompareJob& job) {
  engine::BenchProfile p = job.profile;
  p.targets = job.targets();
  p.runClosed = true;
  p.runOpen = false;
  return p;
}

// The explain of a builtin search as the Explore page's snapshot, so the same explain model shows it.
widgets::SearchSnapshotPtr builtinExplain(const engine::Index& index, const engine::SearchResult& r) {
  auto snap = std::make_shared<widgets::SearchSnapshot>();
  snap->query = r.query;
  snap->bm25 = index.bm25().params();
  snap->docs = index.docCount();
  const auto explain = engine::explainHits(index, r.query, r.hits);
  const engine::Bm25& bm25 = index.bm25();
  for (std::size_t i = 0; i < r.hits.size(); ++i) {
    widgets::HitRow row;
    row.doc = r.hits[i].doc;
    row.score = r.hits[i].score;
    if (i < explain.size()) {
      row.explain = explain[i];
      const float norm = bm25.lengthNorm(row.explain.docLength);
      for (const std::uint32_t tf : row.explain.tf) row.weight.push_back(tf > 0 ? bm25.weight(tf, norm) : 0.0f);
    }
    snap->rows.push_back(std::move(row));
  }
  return snap;
}

// A count in the plugin's JSON: an integer that fits, never a float (nlohmann converts 3e31 to an
// integer type as undefined behaviour; engine/core/json_number.h).
std::uint64_t pluginCount(const nlohmann::json& value, const char* field, std::uint64_t max) {
  const auto n = engine::jsonUnsigned(value, max);
  if (!n) throw std::runtime_error(fmt::format("{} must be a whole number up to {}, found {}", field, max,
                                               engine::jsonSnippet(value)));
  return *n;
}

// A plugin's explain JSON (docs/PLUGIN_ABI.md: terms[], hits[] {doc, doc_length, tf[],
// contribution[], score}) as the same snapshot. W is recomputed with this index's BM25 (the
// plugin searched the same index directory).
widgets::SearchSnapshotPtr pluginExplain(const engine::Index& index, const engine::PluginResult& r) {
  const auto j = nlohmann::json::parse(r.explainJson);
  auto snap = std::make_shared<widgets::SearchSnapshot>();
  snap->bm25 = index.bm25().params();
  snap->docs = index.docCount();
  for (const auto& t : j.at("terms")) {
    engine::QueryTerm term;
    term.text = t.at("text").get<std::string>();
    if (t.value("known", false)) term.id = engine::TermId{0};
    term.df = t.contains("df") ? pluginCount(t.at("df"), "df", std::numeric_limits<std::uint64_t>::max()) : 0;
    term.idf = t.value("idf", 0.0f);
    term.maxScore = t.value("max_score", 0.0f);
    snap->query.terms.push_back(std::move(term));
  }
  const engine::Bm25& bm25 = index.bm25();
  const auto& hits = j.at("hits");
  for (std::size_t i = 0; i < r.docs.size(); ++i) {
    widgets::HitRow row;
    row.doc = r.docs[i];
    row.score = i < r.scores.size() ? r.scores[i] : 0.0f;
    if (i < hits.size()) {
      const auto& h = hits[i];
      constexpr std::uint64_t kMaxU32 = std::numeric_limits<std::uint32_t>::max();
      row.explain.doc = static_cast<std::uint32_t>(pluginCount(h.at("doc"), "doc", kMaxU32));
      row.explain.docLength = static_cast<std::uint32_t>(pluginCount(h.at("doc_length"), "doc_length", kMaxU32));
      for (const auto& tf : h.at("tf")) {
        row.explain.tf.push_back(static_cast<std::uint32_t>(pluginCount(tf, "tf", kMaxU32)));
      }
      row.explain.contribution = h.at("contribution").get<std::vector<float>>();
      row.explain.score = h.at("score").get<float>();
      const float norm = bm25.lengthNorm(row.explain.docLength);
      for (const std::uint32_t tf : row.explain.tf) row.weight.push_back(tf > 0 ? bm25.weight(tf, norm) : 0.0f);
    }
    snap->rows.push_back(std::move(row));
  }
  return snap;
}

}  // namespace

CompareWorker::CompareWorker(QObject* parent) : QObject(parent) {}

CompareWorker::~CompareWorker() = default;

void CompareWorker::run(const CompareJob& job) {
  const quint64 generation = job.generation;
  m_session.reset();  // the previous comparison's targets
  try {
    engine::installPeerTargets();  // idempotent: xapian and sqlite-fts5 work here as in the CLI
    engine::CompareOptions options;
    options.repetitions = job.repetitions;
    options.warmPasses = job.warmPasses;
    options.warmupSeconds = job.warmupSeconds >= 0 ? job.warmupSeconds : job.profile.closed.warmupSeconds;
    options.aa = job.aa;
    options.noiseFloor = job.noiseFloor;
    options.bootstrapSamples = job.bootstrapSamples;
    options.cacheDir = job.cacheRoot.isEmpty() ? engine::userCacheDir() : std::filesystem::path(job.cacheRoot.toStdString());
    options.stop = job.stop;
    options.onMessage = [this, generation](const std::string& m) { emit message(generation, qs(m)); };
    options.onScenarios = [this, generation](const std::vector<engine::CompareScenario>& rows,
                                             const std::vector<engine::CompareScenario>& aaRows) {
      emit setFinished(generation, std::make_shared<const CompareSetRows>(CompareSetRows{rows, aaRows}));
    };
    options.onOpenLatency = [this, generation](const engine::OpenLatencyPoint& point) {
      emit openLatency(generation, point);
    };
    engine::CompareRunner runner(job.profile, job.targets(), options);
    auto report = std::make_shared<const engine::CompareReport>(runner.run());
    engine::log::info(fmt::format("compare: {} vs {}{}: {} scenarios{}", job.a, job.b,
                                  job.more.empty() ? "" : fmt::format(" and {} more", job.more.size()),
                                  report->scenarios.size(), report->partial ? " (partial: stopped)" : ""));
    emit finished(generation, report);
  } catch (const std::exception& e) {
    engine::log::error(fmt::format("compare: {}", e.what()));
    emit failed(generation, qs(e.what()));
    return;
  }
  // Stopped by the user: the report is partial, and the result diff of its finished sets is as
  // useful as a complete one's, so the targets are prepared again all the same; not when the
  // controller is shutting down or a newer comparison waits (sessionStop).
  if (job.sessionStop.stop_requested()) return;
  openSession(job);
}

void CompareWorker::openSession(const CompareJob& job) {
  try {
    auto session = std::make_unique<Session>();
    session->generation = job.generation;
    engine::BenchRunOptions ro;
    ro.cacheDir = job.cacheRoot.isEmpty() ? engine::userCacheDir() : std::filesystem::path(job.cacheRoot.toStdString());
    ro.stop = job.sessionStop;
    session->runner = std::make_unique<engine::BenchRunner>(sessionProfile(job), ro);
    // Stopped while the dataset was prepared: the session is being shut down or superseded.
    if (!session->runner->prepare()) return;
    auto sets = std::make_shared<std::vector<CompareQuerySet>>();
    for (const auto& s : session->runner->workload().sets()) {
      CompareQuerySet set;
      set.name = qs(s.name);
      for (const auto& id : s.ids) set.ids.push_back(qs(id));
      for (const auto& t : s.texts) set.texts.push_back(qs(t));
      sets->push_back(std::move(set));
    }
    m_session = std::move(session);
    emit queriesReady(job.generation, std::move(sets));
  } catch (const std::exception& e) {
    engine::log::warn(fmt::format("compare: cannot prepare the targets again for the result diff: {}", e.what()));
    emit queryDiffFailed(job.generation, QStringLiteral("Cannot answer queries side by side: %1").arg(qs(e.what())));
  }
}

widgets::DiffSide CompareWorker::answer(std::size_t side, int set, int query) {
  const auto& runner = *m_session->runner;
  engine::Target& target = *runner.targets()[side];
  const auto& qset = runner.workload().sets()[static_cast<std::size_t>(set)];
  const std::string& text = qset.texts[static_cast<std::size_t>(query)];
  const auto index = runner.index();
  widgets::DiffSide out;
  out.spec = qs(target.spec());
  out.label = qs(engine::CompareReport::targetLabel(side));
  auto external = [&index](std::uint32_t doc) {
    return index && doc < index->docCount() ? QString::fromUtf8(index->externalId(doc)) : QString();
  };

  if (auto* builtin = dynamic_cast<engine::BuiltinTarget*>(&target)) {
    const auto& o = builtin->options();
    engine::SearchRequest request;
    request.text = text;
    request.op = o.op;
    request.k = o.k;
    request.algorithm = o.algorithm;
    request.options = o.options;
    const auto idx = builtin->index();
    const engine::SearchResult r = engine::search(*idx, request);  // what BuiltinTarget::hits runs
    for (const auto& h : r.hits) out.hits.push_back({h.doc, h.score, external(h.doc)});
    out.ok = true;
    out.explain = builtinExplain(*idx, r);
    return out;
  }

  engine::WorkItem item;
  item.querySet = static_cast<std::uint32_t>(set);
  item.query = static_cast<std::uint32_t>(query);
  std::vector<engine::TargetHit> hits;
  out.ok = target.hits(item, hits);
  if (!out.ok) out.error = QStringLiteral("the target failed or has no results to compare");
  for (const auto& h : hits) out.hits.push_back({h.doc, h.score, external(h.doc)});

  if (auto* plugin = dynamic_cast<engine::PluginTarget*>(&target)) {
    try {
      auto& handle = m_session->pluginIndexes[side];
      if (!handle) {
        if (!index) engine::throwUsage("no index directory");
        const auto spec = engine::TargetSpec::parse(target.spec());
        handle = engine::PluginIndex::open(engine::PluginEngine::load(spec.path), index->dir());
      }
      const auto& o = plugin->options();
      const auto r = handle->search(text, o.op, o.algorithm, o.k, o.options, true);
      if (r.explainJson.empty()) {
        out.explainNote = QStringLiteral("this plugin build returned no explain for the query");
      } else {
        out.explain = pluginExplain(*index, r);
      }
    } catch (const std::exception& e) {
      out.explainNote = QStringLiteral("the plugin's explain failed: %1").arg(qs(e.what()));
    }
  } else {
    out.explainNote = QStringLiteral("%1 does not explain its scores here (peers score with their own BM25 variant "
                                     "and have no per-term explain through this workbench; docs/PEERS.md)")
                          .arg(out.spec);
  }
  return out;
}

void CompareWorker::diffQuery(quint64 generation, int set, int query, int versus) {
  if (!m_session || m_session->generation != generation) {
    emit queryDiffFailed(generation, QStringLiteral("That comparison's targets are no longer prepared; run it again."));
    return;
  }
  if (versus < 1 || static_cast<std::size_t>(versus) >= m_session->runner->targets().size()) {
    emit queryDiffFailed(generation, QStringLiteral("No such target"));
    return;
  }
  const auto& sets = m_session->runner->workload().sets();
  if (set < 0 || static_cast<std::size_t>(set) >= sets.size() || query < 0 ||
      static_cast<std::size_t>(query) >= sets[static_cast<std::size_t>(set)].texts.size()) {
    emit queryDiffFailed(generation, QStringLiteral("No such query"));
    return;
  }
  try {
    auto snap = std::make_shared<widgets::QueryDiffSnapshot>();
    snap->generation = generation;
    const auto& qset = sets[static_cast<std::size_t>(set)];
    snap->querySet = qs(qset.name);
    snap->queryId = qs(qset.ids[static_cast<std::size_t>(query)]);
    snap->text = qs(qset.texts[static_cast<std::size_t>(query)]);
    snap->a = answer(0, set, query);
    snap->b = answer(static_cast<std::size_t>(versus), set, query);
    std::vector<engine::TargetHit> ha, hb;
    for (const auto& h : snap->a.hits) ha.push_back({h.doc, h.score});
    for (const auto& h : snap->b.hits) hb.push_back({h.doc, h.score});
    snap->diff = engine::diffHits(ha, hb);
    emit queryDiffReady(std::move(snap));
  } catch (const std::exception& e) {
    emit queryDiffFailed(generation, qs(e.what()));
  }
}

}  // namespace wandscope::app
