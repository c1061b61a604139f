// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/widgets/snapshot_fixtures.h"

namespace wandscope::test {

widgets::SearchSnapshotPtr makeSnapshot(bool compare, bool differ) {
  auto s = std::make_shared<widgets::SearchSnapshot>();
  s->generation = 7;
  s->text = QStringLiteral("alpha beta gamma");
  s->k = 3;
  s->docs = 100;
  engine::QueryTerm alpha{"alpha", 1u, 10, 2.2f, 3.5f, 1};
  engine::QueryTerm beta{"beta", 2u, 40, 0.9f, 1.6f, 1};
  engine::QueryTerm gamma{"gamma", std::nullopt, 0, 0.0f, 0.0f, 0};
  s->query.terms = {alpha, beta, gamma};
  s->query.tokens = 3;

  const float contributions[3][2] = {{3.1f, 1.25f}, {2.5f, 1.5f}, {0.0f, 1.25f}};
  const std::uint32_t tfs[3][2] = {{3, 1}, {2, 2}, {0, 1}};
  const engine::DocId docs[3] = {4, 17, 2};
  for (int i = 0; i < 3; ++i) {
    widgets::HitRow row;
    row.doc = docs[i];
    row.externalId = QStringLiteral("d%1").arg(docs[i]);
    engine::Score sum = 0.0f;
    row.explain.doc = row.doc;
    row.explain.docLength = static_cast<std::uint32_t>(10 + i);
    for (int t = 0; t < 3; ++t) {
      const float c = t < 2 ? contributions[i][t] : 0.0f;
      row.explain.tf.push_back(t < 2 ? tfs[i][t] : 0);
      row.explain.contribution.push_back(c);
      row.weight.push_back(t < 2 && tfs[i][t] > 0 ? c / (t == 0 ? 2.2f : 0.9f) : 0.0f);
      sum += c;
    }
    row.explain.score = sum;
    row.score = sum;
    row.title = QStringLiteral("Title %1").arg(i);
    row.snippet = QStringLiteral("some alpha text and beta words");
    row.highlights = {5, 5, 20, 4};
    s->primary.hits.push_back({row.doc, row.score});
    s->rows.push_back(row);
  }
  s->primary.requested = engine::Algorithm::Auto;
  s->primary.taken = engine::Algorithm::Bmw;
  s->primary.reason = QStringLiteral("auto: 3 clauses");
  s->primary.counters.postingsDecoded = 128;
  s->primary.counters.fullScores = 12;
  s->primary.kthScore = s->rows.back().score;
  if (compare) {
    widgets::AlgorithmRun b;
    b.requested = engine::Algorithm::Exhaustive;
    b.taken = engine::Algorithm::Exhaustive;
    b.reason = QStringLiteral("forced");
    b.hits = s->primary.hits;
    if (differ) b.hits[1].doc = 99;
    b.counters.postingsDecoded = 512;
    b.counters.fullScores = 50;
    b.counters.wandPivots = 0;
    b.kthScore = s->primary.kthScore;
    s->compare = b;
  }
  return s;
}

widgets::IndexSummaryPtr makeSummary() {
  auto s = std::make_shared<widgets::IndexSummary>();
  s->path = QStringLiteral("/tmp/some-index");
  s->stats.docs = 1000;
  s->stats.terms = 500;
  s->stats.postings = 20000;
  s->stats.totalTokens = 50000;
  s->stats.blocks = 300;
  s->stats.segments = 2;
  s->stats.avgdl = 50.0f;
  s->stats.termsBytes = 4000;
  s->stats.postingsBytes = 30000;
  s->stats.boundsBytes = 1200;
  s->stats.docsBytes = 9000;
  s->stats.storeBytes = 100000;
  s->manifest.analyzer = "plain/1";
  s->manifest.formatVersion = 3;
  s->manifest.build.corpus = "corpus.jsonl";
  s->manifest.build.threads = 2;
  s->manifest.build.seconds = 0.5;
  s->dfBinKeys = {1, 2, 4, 8};
  s->dfBinCounts = {300, 100, 60, 40};
  s->rankKeys = {1, 2, 10, 500};
  s->rankDf = {900, 700, 100, 1};
  s->rankCf = {5000, 3000, 200, 1};
  return s;
}

}  // namespace wandscope::test
