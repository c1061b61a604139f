// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/controllers/query_controller.h"
#include "app/workers/index_summarizer.h"
#include "engine/query/searcher.h"
#include "tests/support/process.h"
#include "tests/support/test_index.h"
#include "widgets/models/result_table_model.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

namespace wandscope::test {
namespace {

using app::QueryController;
using app::QueryParams;
using widgets::SearchSnapshotPtr;

constexpr int kQueryTimeoutMs = 60'000;

class QueryControllerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    RandomCorpusParams params;
    params.docs = 3000;
    params.vocabulary = 300;
    params.maxLength = 80;
    s_index = buildTestIndex(randomCorpus(11, params)).release();
    auto handle = std::make_shared<app::IndexHandle>();
    handle->index = s_index->index;
    handle->summary = std::make_shared<const widgets::IndexSummary>(
        app::summarizeIndex(*s_index->index, QString::fromStdString(s_index->indexPath.string())));
    s_handle = new app::IndexHandlePtr(handle);
  }
  static void TearDownTestSuite() {
    delete s_handle;
    delete s_index;
  }

  static SearchSnapshotPtr runQuery(QueryController& q, const QueryParams& p) {
    QSignalSpy ready(&q, &QueryController::resultsReady);
    QSignalSpy failed(&q, &QueryController::searchFailed);
    q.submit(p);
    EXPECT_TRUE(QTest::qWaitFor([&] { return ready.count() + failed.count() > 0; }, kQueryTimeoutMs));
    if (failed.count() > 0) {
      ADD_FAILURE() << failed.at(0).at(1).toString().toStdString();
      return nullptr;
    }
    return ready.at(0).at(0).value<SearchSnapshotPtr>();
  }

  static inline TestIndex* s_index = nullptr;
  static inline app::IndexHandlePtr* s_handle = nullptr;
};

TEST_F(QueryControllerTest, ResultsMatchADirectSearchAndTheCli) {
  QueryController q;
  q.setIndex(*s_handle);
  for (const auto& [text, op] : {std::pair{"w1 w5 w17", engine::Operator::Or},
                                 std::pair{"w2 w3", engine::Operator::And},
                                 std::pair{"w40 w41 w42 w43 w199", engine::Operator::Or}}) {
    SCOPED_TRACE(text);
    QueryParams p;
    p.text = QString::fromLatin1(text);
    p.op = op;
    p.k = 10;
    const auto snapshot = runQuery(q, p);
    ASSERT_TRUE(snapshot);
    EXPECT_EQ(snapshot->generation, q.latestGeneration());

    engine::SearchRequest request;
    request.text = text;
    request.op = op;
    request.k = 10;
    const auto direct = engine::search(*s_index->index, request);
    ASSERT_EQ(snapshot->primary.hits.size(), direct.hits.size());
    ASSERT_FALSE(direct.hits.empty());
    EXPECT_EQ(snapshot->primary.taken, direct.algorithm);

    // The results table, as the Explore page shows it, against the CLI's JSON.
    widgets::ResultTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSnapshot(snapshot);
    const auto cli = runProcess(WANDSCOPE_CLI, {"search", s_index->indexPath.string(), "--query", text, "--op",
                                                engine::operatorName(op), "--k", "10", "--json"});
    ASSERT_EQ(cli.exitCode, 0) << cli.err;
    const auto json = nlohmann::json::parse(cli.out);
    const auto& hits = json.at("hits");
    ASSERT_EQ(model.rowCount(), static_cast<int>(hits.size()));
    const int docCol = model.column(widgets::ResultTableModel::Column::Doc);
    const int scoreCol = model.column(widgets::ResultTableModel::Column::Score);
    for (int r = 0; r < model.rowCount(); ++r) {
      const auto& h = hits[static_cast<std::size_t>(r)];
      const auto& d = direct.hits[static_cast<std::size_t>(r)];
      EXPECT_EQ(model.index(r, docCol).data(widgets::ResultTableModel::DocIdRole).toUInt(), d.doc);
      EXPECT_EQ(model.index(r, scoreCol).data(widgets::ResultTableModel::ScoreBitsRole).toUInt(),
                widgets::scoreBits(d.score));
      EXPECT_EQ(model.index(r, docCol).data(widgets::ResultTableModel::DocIdRole).toUInt(),
                h.at("internal_doc").get<std::uint32_t>());
      EXPECT_EQ(model.index(r, scoreCol).data(widgets::ResultTableModel::ScoreBitsRole).toUInt(),
                static_cast<std::uint32_t>(std::stoul(h.at("bits").get<std::string>(), nullptr, 16)));
      EXPECT_EQ(model.index(r, docCol).data().toString().toStdString(), h.at("doc").get<std::string>());
      // Explain: the contributions add up to the score, bit for bit.
      const auto& row = snapshot->rows[static_cast<std::size_t>(r)];
      engine::Score sum = 0.0f;
      for (const auto c : row.explain.contribution) sum += c;
      EXPECT_EQ(widgets::scoreBits(sum), widgets::scoreBits(row.score));
      EXPECT_FALSE(row.snippet.isEmpty());
      EXPECT_FALSE(row.highlights.isEmpty());
    }
  }
}

TEST_F(QueryControllerTest, EveryPathGivesTheSameHitsWithDifferentWork) {
  QueryController q;
  q.setIndex(*s_handle);
  for (const engine::Operator op : {engine::Operator::Or, engine::Operator::And}) {
    for (const engine::Algorithm a : engine::allAlgorithms()) {
      if (!engine::algorithmSupports(a, op)) continue;
      SCOPED_TRACE(engine::algorithmName(a));
      QueryParams p;
      p.text = QStringLiteral("w1 w2 w9");
      p.op = op;
      p.k = 20;
      p.algorithm = a;
      p.compare = engine::Algorithm::Exhaustive;
      const auto snapshot = runQuery(q, p);
      ASSERT_TRUE(snapshot && snapshot->compare);
      EXPECT_TRUE(snapshot->identical());
      EXPECT_EQ(snapshot->compare->taken, engine::Algorithm::Exhaustive);
      // The compared hits' external ids, as the primary rows have theirs.
      ASSERT_EQ(snapshot->compare->externalIds.size(), snapshot->compare->hits.size());
      for (std::size_t i = 0; i < snapshot->rows.size(); ++i) {
        EXPECT_EQ(snapshot->compare->externalIds[i], snapshot->rows[i].externalId) << "rank " << i + 1;
      }
      if (a != engine::Algorithm::Auto) {
        EXPECT_EQ(snapshot->primary.taken, a);
      }
    }
  }
}

TEST_F(QueryControllerTest, TypingIsDebouncedIntoOneSearch) {
  QueryController q;
  q.setIndex(*s_handle);
  QSignalSpy started(&q, &QueryController::searchStarted);
  QSignalSpy ready(&q, &QueryController::resultsReady);
  QueryParams p;
  for (const char* text : {"w", "w1", "w1 ", "w1 w", "w1 w2"}) {
    p.text = QString::fromLatin1(text);
    q.setParams(p);
  }
  ASSERT_TRUE(QTest::qWaitFor([&] { return ready.count() > 0; }, kQueryTimeoutMs));
  QTest::qWait(3 * QueryController::kDebounceMs);
  EXPECT_EQ(started.count(), 1);
  EXPECT_EQ(ready.count(), 1);
  EXPECT_EQ(ready.at(0).at(0).value<SearchSnapshotPtr>()->text, QStringLiteral("w1 w2"));
}

TEST_F(QueryControllerTest, StaleResultsAreDropped) {
  QueryController q;
  q.setIndex(*s_handle);
  QSignalSpy ready(&q, &QueryController::resultsReady);
  QueryParams p;
  p.k = 100;
  p.algorithm = engine::Algorithm::Exhaustive;
  for (int i = 0; i < 30; ++i) {
    p.text = QStringLiteral("w%1 w%2 w%3").arg(i).arg(i + 1).arg(i + 2);
    q.submit(p);  // each one makes the previous stale
  }
  ASSERT_TRUE(QTest::qWaitFor([&] { return ready.count() > 0 && !q.isSearching(); }, kQueryTimeoutMs));
  QTest::qWait(100);
  // Only the newest request's result is shown; nothing older arrives after it.
  ASSERT_GE(ready.count(), 1);
  const auto last = ready.last().at(0).value<SearchSnapshotPtr>();
  EXPECT_EQ(last->text, p.text);
  EXPECT_EQ(last->generation, q.latestGeneration());
  EXPECT_EQ(ready.count(), 1);
  EXPECT_EQ(q.lastSnapshot(), last);
}

TEST_F(QueryControllerTest, EngineErrorsArriveAsFailures) {
  QueryController q;
  q.setIndex(*s_handle);
  QSignalSpy ready(&q, &QueryController::resultsReady);
  QSignalSpy failed(&q, &QueryController::searchFailed);
  QueryParams p;
  p.text = QStringLiteral("w1 w2");
  p.op = engine::Operator::And;
  p.algorithm = engine::Algorithm::Wand;  // an OR-only path
  q.submit(p);
  ASSERT_TRUE(QTest::qWaitFor([&] { return failed.count() > 0; }, kQueryTimeoutMs));
  EXPECT_TRUE(failed.at(0).at(1).toString().contains(QStringLiteral("usage error"))) << failed.at(0).at(1).toString().toStdString();
  EXPECT_EQ(ready.count(), 0);
  EXPECT_FALSE(q.isSearching());
}

TEST_F(QueryControllerTest, AnEmptyQueryOrNoIndexClears) {
  QueryController q;
  QSignalSpy cleared(&q, &QueryController::cleared);
  QueryParams p;
  p.text = QStringLiteral("w1");
  q.submit(p);  // no index yet
  EXPECT_EQ(cleared.count(), 1);
  q.setIndex(*s_handle);
  p.text = QStringLiteral("   ");
  q.submit(p);
  EXPECT_EQ(cleared.count(), 2);
  EXPECT_FALSE(q.lastSnapshot());
}

TEST_F(QueryControllerTest, UnknownTermsAreKeptAndMarked) {
  QueryController q;
  q.setIndex(*s_handle);
  QueryParams p;
  p.text = QStringLiteral("w1 zzzunknown");
  p.op = engine::Operator::And;
  const auto snapshot = runQuery(q, p);
  ASSERT_TRUE(snapshot);
  ASSERT_EQ(snapshot->query.terms.size(), 2u);
  EXPECT_TRUE(snapshot->query.terms[0].id.has_value());
  EXPECT_FALSE(snapshot->query.terms[1].id.has_value());
  EXPECT_TRUE(snapshot->rows.empty());
}

TEST_F(QueryControllerTest, SwitchesChangeWorkNotResults) {
  QueryController q;
  q.setIndex(*s_handle);
  QueryParams p;
  p.text = QStringLiteral("w1 w2 w3");
  p.op = engine::Operator::And;
  p.algorithm = engine::Algorithm::BulkAnd;
  const auto on = runQuery(q, p);
  p.options.apply("freq_prune=off,candidate_prune=off,window_skip=off");
  const auto off = runQuery(q, p);
  ASSERT_TRUE(on && off);
  ASSERT_EQ(on->primary.hits.size(), off->primary.hits.size());
  for (std::size_t i = 0; i < on->primary.hits.size(); ++i) {
    EXPECT_EQ(on->primary.hits[i].doc, off->primary.hits[i].doc);
    EXPECT_EQ(widgets::scoreBits(on->primary.hits[i].score), widgets::scoreBits(off->primary.hits[i].score));
  }
  EXPECT_EQ(off->primary.counters.candidatesPrunedTable, 0u);
}

}  // namespace
}  // namespace wandscope::test
