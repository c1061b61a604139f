// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/views/result_diff_view.h"

#include "widgets/models/explain_table_model.h"
#include "widgets/models/result_diff_model.h"
#include "widgets/views/decimal_delegate.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <tuple>

namespace wandscope::widgets {
namespace {

QTableView* makeTable(QAbstractItemModel* model, QWidget* parent) {
  auto* v = new QTableView(parent);
  v->setModel(model);
  v->verticalHeader()->setVisible(false);
  v->verticalHeader()->setDefaultSectionSize(v->fontMetrics().height() + 6);
  v->setSelectionBehavior(QAbstractItemView::SelectRows);
  v->setSelectionMode(QAbstractItemView::SingleSelection);
  v->setWordWrap(false);
  v->horizontalHeader()->setHighlightSections(false);
  v->horizontalHeader()->setStretchLastSection(true);
  return v;
}

// "B2 (builtin:k=5)": the side's label in the comparison, `letter` when it has none.
QString sideName(const DiffSide& s, const QString& letter) {
  return QStringLiteral("%1 (%2)").arg(s.label.isEmpty() ? letter : s.label.toHtmlEscaped(), s.spec.toHtmlEscaped());
}

}  // namespace

ResultDiffView::ResultDiffView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(4);
  m_header = new QLabel(this);
  m_header->setWordWrap(true);
  m_header->setTextFormat(Qt::RichText);
  m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(m_header);

  auto* split = new QSplitter(Qt::Vertical, this);
  m_model = new ResultDiffModel(this);
  m_table = makeTable(m_model, split);
  m_table->setObjectName(QStringLiteral("resultDiff"));
  m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  // Scores line up on the decimal point, as on the Explore page (DecimalDelegate).
  auto* scores = new DecimalDelegate(m_table);
  m_table->setItemDelegateForColumn(ResultDiffModel::ScoreA, scores);
  m_table->setItemDelegateForColumn(ResultDiffModel::ScoreB, scores);
  split->addWidget(m_table);

  auto* explain = new QWidget(split);
  auto* explainLayout = new QHBoxLayout(explain);
  explainLayout->setContentsMargins(0, 0, 0, 0);
  explainLayout->setSpacing(6);
  m_explainA = new ExplainTableModel(this);
  m_explainB = new ExplainTableModel(this);
  for (auto [model, note, view] :
       {std::tuple{m_explainA, &m_noteA, &m_explainViewA}, std::tuple{m_explainB, &m_noteB, &m_explainViewB}}) {
    auto* column = new QVBoxLayout;
    column->setSpacing(2);
    *note = new QLabel(explain);
    (*note)->setWordWrap(true);
    (*note)->setTextFormat(Qt::RichText);
    *view = makeTable(model, explain);
    (*view)->setSelectionMode(QAbstractItemView::NoSelection);
    (*view)->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* figures = new DecimalDelegate(*view);
    for (const int c : {ExplainTableModel::IdfColumn, ExplainTableModel::WeightColumn, ExplainTableModel::ContributionColumn}) {
      (*view)->setItemDelegateForColumn(c, figures);
    }
    column->addWidget(*note);
    column->addWidget(*view, 1);
    explainLayout->addLayout(column, 1);
  }
  split->addWidget(explain);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  split->setSizes({300, 200});
  layout->addWidget(split, 1);

  connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &ResultDiffView::onCurrentRowChanged);
  setPlaceholder(QStringLiteral("<i>Choose a query to see both targets' results side by side.</i>"));
}

void ResultDiffView::setPlaceholder(const QString& text) {
  m_snapshot.reset();
  m_model->clear();
  m_explainA->clear();
  m_explainB->clear();
  m_header->setText(text);
  m_noteA->clear();
  m_noteB->clear();
}

void ResultDiffView::clear() { setPlaceholder(QStringLiteral("<i>Choose a query to see both targets' results side by side.</i>")); }

void ResultDiffView::setSnapshot(QueryDiffSnapshotPtr snapshot) {
  if (!snapshot) {
    clear();
    return;
  }
  m_snapshot = snapshot;
  m_model->setSnapshot(snapshot);
  const auto& d = snapshot->diff;
  QString verdict;
  if (!snapshot->a.ok || !snapshot->b.ok) {
    verdict = QStringLiteral("<span style='color:#d62728'><b>not comparable</b></span>: %1")
                  .arg(QString(!snapshot->a.ok ? m_model->labelA() + QStringLiteral(": ") + snapshot->a.error
                                               : m_model->labelB() + QStringLiteral(": ") + snapshot->b.error)
                           .toHtmlEscaped());
  } else if (d.rowSetDiffers || d.scoreBitsDiffer) {
    QStringList what;
    if (d.rowSetDiffers) what << QStringLiteral("other documents");
    if (d.scoreBitsDiffer) what << QStringLiteral("other score bits");
    verdict = QStringLiteral("<span style='color:#d62728'><b>differ</b></span> (%1), first at rank %2")
                  .arg(what.join(QStringLiteral(", ")))
                  .arg(d.firstDivergingRank ? QString::number(*d.firstDivergingRank) : QStringLiteral("?"));
  } else if (d.orderDiffers) {
    verdict = QStringLiteral("<b>same documents and score bits</b>, tied documents in another order (from rank %1)")
                  .arg(d.firstDivergingRank ? QString::number(*d.firstDivergingRank) : QStringLiteral("?"));
  } else {
    verdict = QStringLiteral("<span style='color:#2ca02c'><b>identical</b></span>: same documents, same order, same "
                             "f32 score bits");
  }
  m_header->setText(QStringLiteral("<b>%1</b> \u00b7 %2 \u00b7 \u201c%3\u201d<br>%4 returned %5, %6 returned %7: %8")
                        .arg(snapshot->querySet.toHtmlEscaped(), snapshot->queryId.toHtmlEscaped(),
                             snapshot->text.toHtmlEscaped(), sideName(snapshot->a, QStringLiteral("A")))
                        .arg(snapshot->a.hits.size())
                        .arg(sideName(snapshot->b, QStringLiteral("B")))
                        .arg(snapshot->b.hits.size())
                        .arg(verdict));
  m_table->resizeColumnsToContents();
  const int first = m_model->firstDivergingRow();
  selectRank(first >= 0 ? first : 0);
}

void ResultDiffView::selectRank(int row) {
  if (row < 0 || row >= m_model->rowCount()) {
    showExplain(-1);
    return;
  }
  const QModelIndex index = m_model->index(row, 0);
  m_table->setCurrentIndex(index);
  m_table->scrollTo(index);
  showExplain(row);  // also when the row was already current
}

void ResultDiffView::onCurrentRowChanged() { showExplain(m_table->currentIndex().row()); }

void ResultDiffView::showExplain(int row) {
  if (!m_snapshot) return;
  auto show = [row](const DiffSide& side, const QString& letter, ExplainTableModel* model, QLabel* note, QTableView* view) {
    const bool has = row >= 0 && row < static_cast<int>(side.hits.size());
    if (!side.explain) {
      model->clear();
      view->setVisible(false);
      note->setText(QStringLiteral("<b>%1</b>: %2").arg(letter, side.explainNote.toHtmlEscaped()));
      return;
    }
    view->setVisible(true);
    if (!has) {
      model->clear();
      note->setText(QStringLiteral("<b>%1</b> has no rank %2.").arg(letter).arg(row + 1));
      return;
    }
    model->setResult(side.explain, row);
    const auto& hit = side.hits[static_cast<std::size_t>(row)];
    const QString match = model->sumMatchesScore() ? QStringLiteral("equals the score bit for bit")
                                                   : QStringLiteral("<b>does not equal the score's bits</b>");
    note->setText(QStringLiteral("<b>%1</b> rank %2: document %3, score %4 (the contributions re-added %5)")
                      .arg(letter)
                      .arg(row + 1)
                      .arg(hit.doc)
                      .arg(ResultDiffModel::scoreText(hit.score))
                      .arg(match));
  };
  show(m_snapshot->a, m_model->labelA(), m_explainA, m_noteA, m_explainViewA);
  show(m_snapshot->b, m_model->labelB(), m_explainB, m_noteB, m_explainViewB);
}

QString ResultDiffView::headerText() const { return m_header->text(); }
QString ResultDiffView::explainNoteA() const { return m_noteA->text(); }
QString ResultDiffView::explainNoteB() const { return m_noteB->text(); }

}  // namespace wandscope::widgets
