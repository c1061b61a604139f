// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/widgets/snapshot_fixtures.h"
#include "widgets/models/explain_table_model.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>

#include <charconv>
#include <cmath>
#include <random>
#include <string>
#include <system_error>

namespace wandscope::test {
namespace {

using widgets::ExplainTableModel;

TEST(ExplainTableModel, ContributionsAddUpToTheScore) {
  ExplainTableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  EXPECT_EQ(model.rowCount(), 0);
  const auto snapshot = makeSnapshot();
  for (int r = 0; r < 3; ++r) {
    model.setResult(snapshot, r);
    ASSERT_EQ(model.rowCount(), 4);  // three terms and the total
    EXPECT_TRUE(model.sumMatchesScore()) << r;
    EXPECT_EQ(widgets::scoreBits(model.contributionSum()),
              widgets::scoreBits(snapshot->rows[static_cast<std::size_t>(r)].explain.score));
    EXPECT_TRUE(model.index(3, 0).data(ExplainTableModel::IsTotalRole).toBool());
    EXPECT_FALSE(model.index(0, 0).data(ExplainTableModel::IsTotalRole).toBool());
  }
  model.setResult(snapshot, 0);
  EXPECT_EQ(model.index(0, ExplainTableModel::TfColumn).data().toString(), QStringLiteral("3"));
  EXPECT_DOUBLE_EQ(model.index(0, ExplainTableModel::ContributionColumn).data(ExplainTableModel::ValueRole).toDouble(),
                   static_cast<double>(3.1f));
  // The unknown term has no tf.
  EXPECT_EQ(model.index(2, ExplainTableModel::TfColumn).data().toString(), QStringLiteral("\u2013"));
  EXPECT_EQ(model.index(3, ExplainTableModel::ShareColumn).data().toString(), QStringLiteral("100%"));
  for (int c = 0; c < ExplainTableModel::ColumnCount; ++c) {
    EXPECT_FALSE(model.headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty()) << c;
  }
}

// A score, contribution, idf or weight is an f32: the tables write the shortest decimal that reads
// back as the same f32, never in exponent form. Seven decimals from 1 up wrote digits no f32
// holds ("1146.3198242" where the CLI says 1146.32), five dropped some (idf 2.9398737 read
// 2.93987, as its neighbours do); tiny figures keep their digits (a term in every document).
TEST(ExplainTableModel, FiguresShowEveryDigitOfTheF32AndNoMore) {
  EXPECT_EQ(widgets::formatFigure(1146.3198242f), QStringLiteral("1146.3198"));
  EXPECT_EQ(widgets::formatFigure(11.033596f), QStringLiteral("11.033596"));
  EXPECT_EQ(widgets::formatFigure(2.9398737f), QStringLiteral("2.9398737"));
  EXPECT_EQ(widgets::formatFigure(0.5f), QStringLiteral("0.5"));
  EXPECT_EQ(widgets::formatFigure(12.5f), QStringLiteral("12.5"));
  EXPECT_EQ(widgets::formatFigure(0.0f), QStringLiteral("0"));
  // One ulp apart: two texts (the result diff's "score bits differ" needs two numbers).
  EXPECT_EQ(widgets::formatFigure(3.0f), QStringLiteral("3"));
  EXPECT_EQ(widgets::formatFigure(std::nextafter(3.0f, 4.0f)), QStringLiteral("3.0000002"));
  EXPECT_EQ(widgets::formatFigure(2.49999e-06f), QStringLiteral("0.00000249999"));
  EXPECT_EQ(widgets::formatFigure(1e-30f), QStringLiteral("0.000000000000000000000000000001"));
  EXPECT_EQ(widgets::formatFigure(std::nanf("")), QStringLiteral("\u2013"));
}

// Over random f32s from 1e-7 to 1e6: the text reads back as the same bits, has no exponent, and
// is shortest (one significant digit fewer, correctly rounded, reads back as another f32).
TEST(ExplainTableModel, FiguresReadBackAsTheSameF32AndAreShortest) {
  const std::uint32_t seed = 20261206;
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> exponent(-7.0, 6.0);
  for (int i = 0; i < 20'000; ++i) {
    const float value = static_cast<float>(std::pow(10.0, exponent(random)));
    const QString text = widgets::formatFigure(value);
    const std::string s = text.toStdString();
    SCOPED_TRACE(s);
    ASSERT_EQ(s.find_first_of("eE"), std::string::npos);
    float back = 0.0f;
    ASSERT_EQ(std::from_chars(s.data(), s.data() + s.size(), back).ec, std::errc{});
    ASSERT_EQ(widgets::scoreBits(back), widgets::scoreBits(value));
    const auto first = s.find_first_not_of("0.");
    int digits = 0;
    for (std::size_t c = first; c < s.size(); ++c) digits += s[c] != '.' ? 1 : 0;
    const auto last = s.find_last_not_of('0');  // trailing zeros of an integer are not significant
    if (s.find('.') == std::string::npos) digits -= static_cast<int>(s.size() - 1 - last);
    if (digits > 1) {
      char shorter[64];
      const auto end = std::to_chars(shorter, shorter + sizeof shorter, static_cast<double>(value),
                                     std::chars_format::general, digits - 1).ptr;
      float other = 0.0f;
      std::from_chars(shorter, end, other);
      ASSERT_NE(widgets::scoreBits(other), widgets::scoreBits(value)) << std::string(shorter, end) << " would do";
    }
  }
}

// A 1,024-term query listed every term in query order, burying the few the document holds: with
// only the present terms, the rows are those (tf > 0, query order) and the total still adds all.
TEST(ExplainTableModel, OnlyTheTermsInTheDocumentWithTheSumOverAll) {
  ExplainTableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  auto many = std::make_shared<widgets::SearchSnapshot>();
  constexpr int kTerms = 40;
  widgets::HitRow row;
  for (int t = 0; t < kTerms; ++t) {
    engine::QueryTerm term;
    term.text = "t" + std::to_string(t);
    if (t % 7 != 6) term.id = static_cast<engine::TermId>(t + 1);  // every seventh unknown
    term.idf = 0.25f + 0.01f * static_cast<float>(t);
    many->query.terms.push_back(term);
    const bool present = t == 3 || t == 17 || t == 38;
    row.explain.tf.push_back(present ? static_cast<std::uint32_t>(t % 3 + 1) : 0u);
    row.explain.contribution.push_back(present ? term.idf * 1.3f : 0.0f);
    row.weight.push_back(present ? 1.3f : 0.0f);
  }
  engine::Score sum = 0.0f;
  for (const float c : row.explain.contribution) sum += c;
  row.score = sum;
  row.explain.score = sum;
  many->rows.push_back(row);

  model.setResult(many, 0);
  EXPECT_FALSE(model.onlyPresentTerms());
  EXPECT_EQ(model.rowCount(), kTerms + 1);
  EXPECT_EQ(model.termCount(), kTerms);
  EXPECT_EQ(model.presentTermCount(), 3);
  EXPECT_EQ(model.index(kTerms, 0).data().toString(), QStringLiteral("\u03a3 (query order)"));

  model.setOnlyPresentTerms(true);
  ASSERT_EQ(model.rowCount(), 4);
  const int expected[] = {3, 17, 38};
  for (int r = 0; r < 3; ++r) {
    EXPECT_EQ(model.termIndex(r), expected[r]);
    EXPECT_EQ(model.index(r, ExplainTableModel::TermColumn).data().toString(),
              QStringLiteral("t%1").arg(expected[r]));
    EXPECT_GT(model.index(r, ExplainTableModel::TfColumn).data(ExplainTableModel::ValueRole).toUInt(), 0u);
    EXPECT_EQ(model.index(r, ExplainTableModel::ContributionColumn).data().toString(),
              widgets::formatFigure(row.explain.contribution[static_cast<std::size_t>(expected[r])]));
  }
  EXPECT_EQ(model.termIndex(3), -1);
  EXPECT_TRUE(model.index(3, 0).data(ExplainTableModel::IsTotalRole).toBool());
  EXPECT_EQ(model.index(3, 0).data().toString(), QStringLiteral("\u03a3 (all 40 terms, query order)"));
  EXPECT_EQ(model.index(3, ExplainTableModel::ContributionColumn).data().toString(), widgets::formatFigure(sum));
  EXPECT_EQ(widgets::scoreBits(model.contributionSum()), widgets::scoreBits(row.score));
  EXPECT_TRUE(model.sumMatchesScore());
  EXPECT_TRUE(model.index(3, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("hidden ones")));

  // The filter stays across results: the fixture's third hit holds beta only.
  model.setResult(makeSnapshot(), 2);
  ASSERT_EQ(model.rowCount(), 2);
  EXPECT_EQ(model.index(0, ExplainTableModel::TermColumn).data().toString(), QStringLiteral("beta"));
  EXPECT_TRUE(model.sumMatchesScore());
  model.setOnlyPresentTerms(false);
  EXPECT_EQ(model.rowCount(), 4);
  EXPECT_EQ(model.index(3, 0).data().toString(), QStringLiteral("\u03a3 (query order)"));
}

TEST(ExplainTableModel, OutOfRangeRowsAreEmpty) {
  ExplainTableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setResult(makeSnapshot(), 5);
  EXPECT_EQ(model.rowCount(), 0);
  EXPECT_EQ(model.hit(), nullptr);
  model.setResult(makeSnapshot(), -1);
  EXPECT_EQ(model.rowCount(), 0);
  model.clear();
  EXPECT_EQ(model.rowCount(), 0);
}

}  // namespace
}  // namespace wandscope::test
