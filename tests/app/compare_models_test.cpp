#include "tests/support/qt_test_support.h"
// SPDX-License-Identifier: GPL-3.0-or-later
// The Compare page's models and views on hand-made data: the ratio table (verdicts, intervals,
// result equality, A/A rows), the side-by-side result diff of a differing pair (agreeing with
// engine::diffHits on the first diverging rank), the view's explain panels, and the comparison of
// two recorded runs.
#include "app/workers/compare_recorded_runs.h"
#include "engine/bench/compare_report_writer.h"
#include "engine/bench/result_diff.h"
#include "widgets/models/explain_table_model.h"
#include "widgets/models/ratio_table_model.h"
#include "widgets/models/result_diff_model.h"
#include "widgets/views/result_diff_view.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QRegularExpression>
#include <QSignalSpy>

#include <cmath>

namespace wandscope::test {
namespace {

engine::CompareScenario scenario(const std::string& set, const std::string& metric, double a, double b, double lo,
                                 double hi, const std::string& verdict) {
  engine::CompareScenario s;
  s.querySet = set;
  s.metric = metric;
  s.name = set + ", " + metric;
  s.a = a;
  s.b = b;
  s.aGeomean = a;
  s.bGeomean = b;
  s.estimate.ratio = a / b;
  s.estimate.ciLow = lo;
  s.estimate.ciHigh = hi;
  s.estimate.noiseFloor = 0.02;
  s.estimate.verdict = verdict;
  s.queries = 100;
  s.samplesPerQuery = 6;
  s.diff.queries = 100;
  return s;
}

// builtin against builtin:bulk_and=off at the default 2 % floor, no rows yet.
engine::CompareReport ratioReportOfTwoBuiltins() {
  engine::CompareReport report;
  report.a.spec = "builtin";
  report.b.spec = "builtin:bulk_and=off";
  report.noiseFloor = 0.02;
  return report;
}

QString cell(const QAbstractItemModel& m, int row, int column, int role = Qt::DisplayRole) {
  return m.data(m.index(row, column), role).toString();
}

TEST(RatioTableModel, ShowsVerdictsIntervalsAndResultEquality) {
  widgets::RatioTableModel model;
  QAbstractItemModelTester tester(&model, kFatal);
  engine::CompareReport report;
  report.scenarios.push_back(scenario("mid-df-2", "cpu_ms_per_query", 0.2, 0.1, 1.9, 2.1, "faster"));
  report.scenarios.push_back(scenario("mid-df-2", "p50_ms", 0.25, 0.25, 0.99, 1.01, "no-difference"));
  auto slower = scenario("rare-2", "cpu_ms_per_query", 0.1, 0.2, 0.45, 0.55, "slower");
  slower.diff.rowSetDiff = 3;
  slower.diff.scoreBitDiff = 1;
  slower.diff.firstDivergingRank = 4;
  slower.diff.differingQueries = {"q1", "q2", "q3"};
  report.scenarios.push_back(slower);
  report.scenarios.push_back(scenario("rare-2", "p50_ms", 0.1, 0.1, 0.9, 1.2, "inconclusive"));
  report.noiseFloor = 0.02;  // every row's floor: none raised
  report.aa = true;
  report.aaScenarios.push_back(scenario("mid-df-2", "cpu_ms_per_query", 0.2, 0.2, 0.98, 1.03, "no-difference"));
  model.setReport(report);

  // Per set: its A vs B rows, then its A/A rows.
  ASSERT_EQ(model.rowCount(), 5);
  EXPECT_EQ(cell(model, 0, widgets::RatioTableModel::QuerySet), QStringLiteral("mid-df-2"));
  EXPECT_EQ(cell(model, 2, widgets::RatioTableModel::QuerySet), QStringLiteral("A/A: mid-df-2"));
  EXPECT_TRUE(model.isAa(2));
  EXPECT_EQ(cell(model, 3, widgets::RatioTableModel::QuerySet), QStringLiteral("rare-2"));
  EXPECT_EQ(cell(model, 0, widgets::RatioTableModel::Metric), QStringLiteral("CPU ms/query"));
  EXPECT_EQ(cell(model, 1, widgets::RatioTableModel::Metric), QStringLiteral("p50"));
  EXPECT_EQ(cell(model, 0, widgets::RatioTableModel::A), QStringLiteral("0.2 ms"));
  EXPECT_TRUE(cell(model, 0, widgets::RatioTableModel::Benefit).startsWith(QStringLiteral("2.000x"))) << cell(model, 0, 4).toStdString();
  EXPECT_EQ(cell(model, 0, widgets::RatioTableModel::Interval), QStringLiteral("[1.900x, 2.100x]"));

  const char* verdicts[] = {"faster", "no-difference", "no-difference", "slower", "inconclusive"};
  for (int r = 0; r < 5; ++r) {
    EXPECT_EQ(cell(model, r, widgets::RatioTableModel::Verdict), QLatin1String(verdicts[r])) << r;
    EXPECT_EQ(cell(model, r, widgets::RatioTableModel::Verdict, widgets::RatioTableModel::VerdictRole),
              QLatin1String(verdicts[r]));
    // Coloured, with a tooltip that says what the verdict means.
    const auto brush = model.data(model.index(r, widgets::RatioTableModel::Verdict), Qt::BackgroundRole).value<QBrush>();
    EXPECT_EQ(brush.color(), widgets::RatioTableModel::verdictColor(QLatin1String(verdicts[r]))) << r;
    EXPECT_FALSE(cell(model, r, widgets::RatioTableModel::Verdict, Qt::ToolTipRole).isEmpty());
  }
  EXPECT_NE(widgets::RatioTableModel::verdictColor(QStringLiteral("faster")),
            widgets::RatioTableModel::verdictColor(QStringLiteral("slower")));
  EXPECT_TRUE(cell(model, 3, widgets::RatioTableModel::Verdict, Qt::ToolTipRole).contains(QStringLiteral("slower")));

  EXPECT_EQ(cell(model, 0, widgets::RatioTableModel::Results), QStringLiteral("identical"));
  EXPECT_EQ(cell(model, 3, widgets::RatioTableModel::Results), QStringLiteral("DIFFER: row_set_diff=3, score_bit_diff=1"));
  EXPECT_TRUE(cell(model, 3, widgets::RatioTableModel::Results, Qt::ToolTipRole).contains(QStringLiteral("rank 4")));
  EXPECT_EQ(model.rowOfQuerySet(QStringLiteral("rare-2")), 3);
  EXPECT_EQ(model.rowOfQuerySet(QStringLiteral("nope")), -1);

  // Live: rows arrive per query set.
  model.clear();
  EXPECT_EQ(model.rowCount(), 0);
  model.addScenarios({report.scenarios[0], report.scenarios[1]});
  model.addScenarios({report.scenarios[2], report.scenarios[3]}, {report.aaScenarios[0]});
  EXPECT_EQ(model.rowCount(), 5);
  EXPECT_TRUE(model.isAa(4));
  EXPECT_EQ(model.scenario(2)->querySet, "rare-2");
}

// The table's figures read exactly as report.md writes them (engine::significant for times,
// engine::intervalText for the interval): a row copied from the table into a pull request is the
// exported report's row, and no figure is in exponent notation. Before, a slow set's A read
// "1.235e+04 ms" (report.md: "12,346 ms") and the interval "[1.203, 1.265]" ("[1.203x, 1.265x]").
TEST(RatioTableModel, FiguresReadAsTheExportedReportWritesThem) {
  using M = widgets::RatioTableModel;
  M model;
  QAbstractItemModelTester tester(&model, kFatal);
  engine::CompareReport report = ratioReportOfTwoBuiltins();
  report.scenarios.push_back(scenario("slow-set", "cpu_ms_per_query", 12345.6, 10012.5, 1.20314, 1.26548, "faster"));
  report.scenarios.push_back(scenario("tiny-set", "p50_ms", 0.0000123, 0.00002, 0.5, 0.7, "slower"));
  model.setReport(report);
  ASSERT_EQ(model.rowCount(), 2);
  EXPECT_EQ(cell(model, 0, M::A), QStringLiteral("12,346 ms"));
  EXPECT_EQ(cell(model, 0, M::B), QStringLiteral("10,013 ms"));
  EXPECT_EQ(cell(model, 1, M::A), QStringLiteral("0.0000123 ms"));
  EXPECT_EQ(cell(model, 0, M::Interval), QStringLiteral("[1.203x, 1.265x]"));
  // The geometric means in the tooltips are written the same way.
  EXPECT_TRUE(cell(model, 0, M::A, Qt::ToolTipRole).contains(QStringLiteral(": 12,346 ms ")))
      << cell(model, 0, M::A, Qt::ToolTipRole).toStdString();

  const std::string md = engine::compareReportMarkdown(report);
  const QRegularExpression exponent(QStringLiteral("\\de[+-]?\\d"));
  for (int r = 0; r < model.rowCount(); ++r) {
    QStringList cells{QString::fromStdString(report.scenarios[static_cast<std::size_t>(r)].name)};
    for (int c : {M::A, M::B, M::Benefit, M::Interval, M::Verdict}) {
      cells << cell(model, r, c);
      EXPECT_FALSE(exponent.match(cells.back()).hasMatch()) << cells.back().toStdString();
    }
    const std::string row = (QStringLiteral("| ") + cells.join(QStringLiteral(" | ")) + QStringLiteral(" |")).toStdString();
    EXPECT_NE(md.find(row), std::string::npos) << row << "\nnot in report.md:\n" << md;
  }
}

// The A/A calibration raised a set's noise floor: the verdict cell says against which floor it was
// judged, "no-difference (floor ±3.5 %)", exactly as report.md's verdict cell; the rows of the
// floor asked for (and the A/A rows) say the verdict alone. The table showed the bare verdict,
// so a verdict reading "no-difference" at ±3.5 % looked like one at ±2 %.
TEST(RatioTableModel, VerdictNamesTheFloorTheAaCalibrationRaised) {
  using M = widgets::RatioTableModel;
  M model;
  QAbstractItemModelTester tester(&model, kFatal);
  engine::CompareReport report = ratioReportOfTwoBuiltins();
  report.aa = true;
  auto raised = scenario("mid-df-2", "cpu_ms_per_query", 0.2, 0.195, 0.98, 1.04, "no-difference");
  raised.estimate.noiseFloor = 0.035;
  report.scenarios.push_back(raised);
  report.scenarios.push_back(scenario("mid-df-2", "p50_ms", 0.25, 0.2, 1.22, 1.28, "faster"));
  report.aaScenarios.push_back(scenario("mid-df-2", "cpu_ms_per_query", 0.2, 0.2, 0.965, 1.035, "inconclusive"));
  model.setReport(report);
  ASSERT_EQ(model.rowCount(), 3);
  EXPECT_EQ(cell(model, 0, M::Verdict), QStringLiteral("no-difference (floor \u00b13.5 %)"));
  EXPECT_EQ(cell(model, 1, M::Verdict), QStringLiteral("faster"));
  EXPECT_EQ(cell(model, 2, M::Verdict), QStringLiteral("inconclusive"));
  // The bare verdict stays the role's (colour, sorting, the page's counts).
  EXPECT_EQ(cell(model, 0, M::Verdict, M::VerdictRole), QStringLiteral("no-difference"));
  EXPECT_TRUE(cell(model, 0, M::Verdict, Qt::ToolTipRole).contains(QStringLiteral("from \u00b12.0 % to \u00b13.5 %")))
      << cell(model, 0, M::Verdict, Qt::ToolTipRole).toStdString();

  // As report.md writes the rows (the A/A table's too).
  const QString md = QString::fromStdString(engine::compareReportMarkdown(report));
  for (int r = 0; r < model.rowCount(); ++r) {
    const QString row = QStringLiteral("| %1 | %2 |").arg(cell(model, r, M::Interval), cell(model, r, M::Verdict));
    EXPECT_TRUE(md.contains(row)) << row.toStdString() << "\n" << md.toStdString();
  }

  // Rows arriving live are judged against the floor the page's comparison asked for.
  model.clear();
  EXPECT_DOUBLE_EQ(model.noiseFloor(), 0.02);
  model.setNoiseFloor(0.05);
  model.addScenarios({report.scenarios[0], report.scenarios[1]}, {report.aaScenarios[0]});
  EXPECT_EQ(cell(model, 0, M::Verdict), QStringLiteral("no-difference (floor \u00b13.5 %)"));
  EXPECT_EQ(cell(model, 1, M::Verdict), QStringLiteral("faster (floor \u00b12.0 %)"));
  QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
  model.setNoiseFloor(0.02);
  EXPECT_EQ(changed.count(), 1);
  EXPECT_EQ(cell(model, 1, M::Verdict), QStringLiteral("faster"));
  EXPECT_EQ(cell(model, 0, M::Verdict), QStringLiteral("no-difference (floor \u00b13.5 %)"));
}

TEST(RatioTableModel, RecordedRowsHaveNoIntervalAndNoVerdict) {
  widgets::RatioTableModel model;
  QAbstractItemModelTester tester(&model, kFatal);
  engine::CompareReport report;
  auto s = scenario("mid-df-2 \u00d71", "cpu_ms_per_query", 0.3, 0.2, NAN, NAN, "");
  s.diff.queries = 0;
  report.scenarios.push_back(s);
  model.setReport(report);
  ASSERT_EQ(model.rowCount(), 1);
  EXPECT_EQ(cell(model, 0, widgets::RatioTableModel::Interval), QStringLiteral("\u2014"));
  EXPECT_EQ(cell(model, 0, widgets::RatioTableModel::Verdict), QStringLiteral("not interleaved"));
  EXPECT_EQ(cell(model, 0, widgets::RatioTableModel::Results), QStringLiteral("not compared"));
  EXPECT_TRUE(cell(model, 0, widgets::RatioTableModel::Benefit).startsWith(QStringLiteral("1.500x")));
}

// A differs from B at rank 3 by a score bit, at rank 4 by another document, and B has a fifth.
widgets::QueryDiffSnapshotPtr differingPair() {
  auto s = std::make_shared<widgets::QueryDiffSnapshot>();
  s->querySet = QStringLiteral("mid-df-2");
  s->queryId = QStringLiteral("q7");
  s->text = QStringLiteral("alpha beta");
  s->a.spec = QStringLiteral("builtin");
  s->b.spec = QStringLiteral("xapian");
  s->a.ok = s->b.ok = true;
  s->a.hits = {{10, 5.0f, QStringLiteral("d10")}, {11, 4.0f, {}}, {12, 3.0f, {}}, {13, 2.0f, {}}};
  s->b.hits = {{10, 5.0f, QStringLiteral("d10")}, {11, 4.0f, {}}, {12, std::nextafter(3.0f, 4.0f), {}}, {14, 2.0f, {}},
               {15, 1.0f, {}}};
  std::vector<engine::TargetHit> ha, hb;
  for (const auto& h : s->a.hits) ha.push_back({h.doc, h.score});
  for (const auto& h : s->b.hits) hb.push_back({h.doc, h.score});
  s->diff = engine::diffHits(ha, hb);
  // Explain for A only (as for the built-in engine): two terms, rows in hit order.
  auto explain = std::make_shared<widgets::SearchSnapshot>();
  for (const char* t : {"alpha", "beta"}) {
    engine::QueryTerm term;
    term.text = t;
    term.id = 1;
    term.idf = 1.0f;
    explain->query.terms.push_back(term);
  }
  for (const auto& h : s->a.hits) {
    widgets::HitRow row;
    row.doc = h.doc;
    row.score = h.score;
    row.explain.doc = h.doc;
    row.explain.tf = {1, 1};
    row.explain.contribution = {h.score / 2, h.score / 2};
    row.explain.score = h.score;
    row.weight = {h.score / 2, h.score / 2};
    explain->rows.push_back(row);
  }
  s->a.explain = explain;
  s->b.explainNote = QStringLiteral("xapian does not explain its scores here");
  return s;
}

TEST(ResultDiffModel, SideBySideHighlightsTheFirstDivergingRank) {
  widgets::ResultDiffModel model;
  QAbstractItemModelTester tester(&model, kFatal);
  const auto pair = differingPair();
  ASSERT_TRUE(pair->diff.rowSetDiffers);
  ASSERT_TRUE(pair->diff.scoreBitsDiffer);
  ASSERT_EQ(pair->diff.firstDivergingRank, 3u);
  model.setSnapshot(pair);
  ASSERT_EQ(model.rowCount(), 5);
  // The model's first diverging row is the engine's first diverging rank.
  EXPECT_EQ(model.firstDivergingRow(), static_cast<int>(*pair->diff.firstDivergingRank) - 1);
  EXPECT_FALSE(model.rowDiffers(0));
  EXPECT_FALSE(model.rowDiffers(1));
  EXPECT_TRUE(model.rowDiffers(2));
  EXPECT_TRUE(model.rowDiffers(3));
  EXPECT_TRUE(model.rowDiffers(4));
  EXPECT_EQ(model.comparisonText(1), QStringLiteral("same"));
  EXPECT_EQ(model.comparisonText(2), QStringLiteral("score bits differ"));
  EXPECT_EQ(model.comparisonText(3), QStringLiteral("other document"));
  EXPECT_EQ(model.comparisonText(4), QStringLiteral("only in B"));
  EXPECT_TRUE(model.data(model.index(2, 0), widgets::ResultDiffModel::IsFirstDivergingRole).toBool());
  EXPECT_FALSE(model.data(model.index(3, 0), widgets::ResultDiffModel::IsFirstDivergingRole).toBool());
  EXPECT_TRUE(model.data(model.index(2, widgets::ResultDiffModel::Comparison)).toString().contains(QStringLiteral("first diverging")));
  EXPECT_TRUE(model.data(model.index(2, 0), Qt::BackgroundRole).isValid());
  EXPECT_FALSE(model.data(model.index(0, 0), Qt::BackgroundRole).isValid());
  EXPECT_EQ(cell(model, 0, widgets::ResultDiffModel::DocA), QStringLiteral("10  d10"));
  EXPECT_EQ(cell(model, 4, widgets::ResultDiffModel::DocA), QString());
  EXPECT_EQ(cell(model, 4, widgets::ResultDiffModel::DocB), QStringLiteral("15"));
  // Bits in the tooltip, and two different numbers in the cells: rank 3's scores differ by one ulp
  // (3 and 3 + 2^-22), which six decimals printed as 3.000000 on both sides of "score bits differ".
  EXPECT_NE(cell(model, 2, widgets::ResultDiffModel::ScoreA, Qt::ToolTipRole),
            cell(model, 2, widgets::ResultDiffModel::ScoreB, Qt::ToolTipRole));
  EXPECT_EQ(cell(model, 2, widgets::ResultDiffModel::ScoreA), QStringLiteral("3"));
  EXPECT_EQ(cell(model, 2, widgets::ResultDiffModel::ScoreB), QStringLiteral("3.0000002"));
  // The tooltip starts with the cell's own figure, then the bits.
  EXPECT_TRUE(cell(model, 2, widgets::ResultDiffModel::ScoreB, Qt::ToolTipRole)
                  .startsWith(cell(model, 2, widgets::ResultDiffModel::ScoreB) + QStringLiteral(" (f32 bits 0x")))
      << cell(model, 2, widgets::ResultDiffModel::ScoreB, Qt::ToolTipRole).toStdString();
  // As the Explore page's tables: the shortest decimal that reads back as the same f32 (every
  // digit it holds, none it does not), never an exponent.
  EXPECT_EQ(widgets::ResultDiffModel::scoreText(12.5f), QStringLiteral("12.5"));
  EXPECT_EQ(widgets::ResultDiffModel::scoreText(1146.3198242f), QStringLiteral("1146.3198"));
  EXPECT_EQ(widgets::ResultDiffModel::scoreText(0.0123456789f), QStringLiteral("0.012345679"));
  EXPECT_EQ(widgets::ResultDiffModel::scoreText(1e-6f), QStringLiteral("0.000001"));
  EXPECT_EQ(widgets::ResultDiffModel::scoreText(0.0f), QStringLiteral("0"));

  model.clear();
  EXPECT_EQ(model.rowCount(), 0);
  EXPECT_EQ(model.firstDivergingRow(), -1);
}

TEST(ResultDiffView, ShowsBothSidesAndExplainWhereTheTargetProvidesIt) {
  widgets::ResultDiffView view;
  QAbstractItemModelTester t1(view.model(), kFatal);
  QAbstractItemModelTester t2(view.explainModelA(), kFatal);
  QAbstractItemModelTester t3(view.explainModelB(), kFatal);
  view.resize(900, 500);
  view.show();
  view.setSnapshot(differingPair());
  EXPECT_TRUE(view.headerText().contains(QStringLiteral("differ"))) << view.headerText().toStdString();
  EXPECT_TRUE(view.headerText().contains(QStringLiteral("first at rank 3")));
  // Opens on the first diverging rank: A's explain of its rank 3 (two terms + total), B says why none.
  EXPECT_EQ(view.explainModelA()->rowCount(), 3);
  EXPECT_EQ(view.explainModelA()->hit()->doc, 12u);
  EXPECT_TRUE(view.explainModelA()->sumMatchesScore());
  EXPECT_EQ(view.explainModelB()->rowCount(), 0);
  EXPECT_TRUE(view.explainNoteB().contains(QStringLiteral("does not explain"))) << view.explainNoteB().toStdString();
  // The explain line writes rank 3's score as the table's cell does.
  const QString scoreA = view.model()->data(view.model()->index(2, widgets::ResultDiffModel::ScoreA)).toString();
  EXPECT_TRUE(view.explainNoteA().contains(QStringLiteral("score %1 ").arg(scoreA))) << view.explainNoteA().toStdString();
  view.selectRank(0);
  EXPECT_EQ(view.explainModelA()->hit()->doc, 10u);
  view.selectRank(4);  // only B has rank 5
  EXPECT_EQ(view.explainModelA()->rowCount(), 0);
  EXPECT_TRUE(view.explainNoteA().contains(QStringLiteral("no rank 5")));

  // A further target beside A (B2 of three) is named as such, not "B".
  auto b2 = std::make_shared<widgets::QueryDiffSnapshot>(*differingPair());
  b2->a.label = QStringLiteral("A");
  b2->b.label = QStringLiteral("B2");
  view.setSnapshot(b2);
  EXPECT_TRUE(view.headerText().contains(QStringLiteral("B2 (xapian) returned 5"))) << view.headerText().toStdString();
  EXPECT_EQ(view.model()->headerData(widgets::ResultDiffModel::DocB, Qt::Horizontal).toString(), QStringLiteral("B2: document"));
  EXPECT_EQ(view.model()->headerData(widgets::ResultDiffModel::Comparison, Qt::Horizontal).toString(), QStringLiteral("A vs B2"));
  EXPECT_EQ(view.model()->comparisonText(4), QStringLiteral("only in B2"));
  EXPECT_TRUE(view.explainNoteB().startsWith(QStringLiteral("<b>B2</b>"))) << view.explainNoteB().toStdString();

  // Identical answers say so.
  auto same = std::make_shared<widgets::QueryDiffSnapshot>(*differingPair());
  same->b.hits = same->a.hits;
  same->diff = {};
  view.setSnapshot(same);
  EXPECT_TRUE(view.headerText().contains(QStringLiteral("identical")));
  EXPECT_EQ(view.model()->firstDivergingRow(), -1);
}

engine::RunReport recorded(const std::string& id, const std::string& target, double cpu, double p50) {
  engine::RunReport r;
  r.header.runId = id;
  r.header.profileName = "smoke";
  r.header.targets = {target};
  r.header.environment.hostname = "host";
  r.header.environment.startedUtc = id;
  for (unsigned c : {1u, 2u}) {
    engine::RungResult g;
    g.index = c - 1;
    g.target = target;
    g.mode = "closed";
    g.querySet = "mid-df-2";
    g.concurrency = c;
    g.cpuMsPerQuery = cpu * c;
    g.p50Ms = p50;
    g.completed = 1000;
    r.rungs.push_back(g);
  }
  engine::RungResult open;
  open.index = 2;
  open.target = target;
  open.mode = "open";
  open.targetRate = 100;
  open.cpuMsPerQuery = cpu;
  open.p50Ms = p50;
  open.p99Ms = p50 * 4;
  r.rungs.push_back(open);
  return r;
}

TEST(CompareRecordedRuns, MatchesRungsByTargetPositionModeSetAndLoad) {
  // Different target names (two builds): matched by their position in each run.
  const auto a = recorded("20250101T000000Z-aaaaaa", "builtin", 0.4, 1.0);
  const auto b = recorded("20250102T000000Z-bbbbbb", "plugin:/tmp/new.so", 0.2, 0.8);
  const auto report = app::compareRecordedRuns(a, b);
  ASSERT_EQ(report.scenarios.size(), 7u);  // 2 closed rungs x 2 metrics + 1 open rung x 3 metrics
  EXPECT_EQ(report.scenarios[0].querySet, "mid-df-2 \u00d71");
  EXPECT_EQ(report.scenarios[0].metric, "cpu_ms_per_query");
  EXPECT_DOUBLE_EQ(report.scenarios[0].a, 0.4);
  EXPECT_DOUBLE_EQ(report.scenarios[0].b, 0.2);
  EXPECT_DOUBLE_EQ(report.scenarios[0].estimate.ratio, 2.0);
  EXPECT_TRUE(std::isnan(report.scenarios[0].estimate.ciLow));
  EXPECT_EQ(report.scenarios[0].diff.queries, 0u);
  EXPECT_DOUBLE_EQ(report.scenarios[1].estimate.ratio, 1.25);  // p50 1.0 / 0.8
  EXPECT_EQ(report.scenarios[2].querySet, "mid-df-2 \u00d72");
  EXPECT_DOUBLE_EQ(report.scenarios[2].a, 0.8);
  EXPECT_EQ(report.scenarios[6].metric, "p99_ms");
  EXPECT_DOUBLE_EQ(report.scenarios[6].estimate.ratio, 1.25);
  EXPECT_NE(report.a.spec.find("builtin"), std::string::npos);
  EXPECT_NE(report.b.spec.find("plugin:/tmp/new.so"), std::string::npos);
  EXPECT_TRUE(report.warnings.empty());

  // A rung without a counterpart is left out and said so.
  auto c = b;
  c.rungs.pop_back();
  c.header.environment.hostname = "other";
  const auto partial = app::compareRecordedRuns(a, c);
  EXPECT_EQ(partial.scenarios.size(), 4u);
  ASSERT_EQ(partial.warnings.size(), 2u);
  EXPECT_NE(partial.warnings[0].find("different hosts"), std::string::npos);
  EXPECT_NE(partial.warnings[1].find("1 rung has no counterpart in the other run and is not shown"), std::string::npos)
      << partial.warnings[1];

  // A run History read with a damaged stored rung left out: its missing rung was not read, which
  // the comparison says rather than only "no counterpart".
  auto damaged = b;
  damaged.rungs.pop_back();
  damaged.partsLeftOut = 1;
  damaged.rungsLeftOut = 1;
  const auto fromDamaged = app::compareRecordedRuns(a, damaged);
  ASSERT_EQ(fromDamaged.warnings.size(), 2u);
  EXPECT_EQ(fromDamaged.warnings[0],
            "run 20250102T000000Z-bbbbbb is damaged in the store: 1 stored part could not be read and is left out "
            "(its warnings on the History page name them)");
}

}  // namespace
}  // namespace wandscope::test
