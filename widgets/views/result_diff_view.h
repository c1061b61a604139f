// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "widgets/models/query_diff_snapshot.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace wandscope::widgets {

class ExplainTableModel;
class ResultDiffModel;

// One query answered by two targets, side by side: a header with the query and how its answers
// differ, the ranks of A and B in one table (ResultDiffModel: the first diverging rank
// highlighted), and below it the explain of the selected rank for each side (per-term tf, idf,
// weight and contribution) when that target can explain its scores; a side that cannot says so.
// Displays data only: the app computes the snapshot off the GUI thread.
class ResultDiffView : public QWidget {
  Q_OBJECT
 public:
  explicit ResultDiffView(QWidget* parent = nullptr);

  void setSnapshot(QueryDiffSnapshotPtr snapshot);
  void clear();
  // Shown instead of a query (no comparison yet, no query chosen, a failure).
  void setPlaceholder(const QString& text);
  // Selects rank `row` (0-based) and shows its explain.
  void selectRank(int row);

  ResultDiffModel* model() const noexcept { return m_model; }
  ExplainTableModel* explainModelA() const noexcept { return m_explainA; }
  ExplainTableModel* explainModelB() const noexcept { return m_explainB; }
  QString headerText() const;
  QString explainNoteA() const;
  QString explainNoteB() const;

 private:
  void onCurrentRowChanged();
  void showExplain(int row);

  QueryDiffSnapshotPtr m_snapshot;
  QLabel* m_header = nullptr;
  QTableView* m_table = nullptr;
  ResultDiffModel* m_model = nullptr;
  QLabel* m_noteA = nullptr;
  QLabel* m_noteB = nullptr;
  QTableView* m_explainViewA = nullptr;
  QTableView* m_explainViewB = nullptr;
  ExplainTableModel* m_explainA = nullptr;
  ExplainTableModel* m_explainB = nullptr;
};

}  // namespace wandscope::widgets
