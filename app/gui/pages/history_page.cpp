// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/pages/history_page.h"

#include "app/gui/pages/page_widgets.h"
#include "app/controllers/history_controller.h"
#include "app/workers/report_bundle.h"
#include "engine/core/wording.h"
#include "widgets/models/run_list_model.h"
#include "widgets/models/rung_table_model.h"
#include "widgets/views/load_dashboard.h"
#include "widgets/views/notice_bar.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QSettings>
#include <QShowEvent>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardPaths>
#include <QStyle>
#include <QTableView>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <iterator>

namespace wandscope::app {
namespace {

QTableView* makeHistoryTable(QAbstractItemModel* model, QWidget* parent) {
  auto* v = new QTableView(parent);
  v->setModel(model);
  v->verticalHeader()->setVisible(false);
  v->verticalHeader()->setDefaultSectionSize(v->fontMetrics().height() + 6);
  v->setSelectionBehavior(QAbstractItemView::SelectRows);
  v->setSelectionMode(QAbstractItemView::SingleSelection);
  v->setAlternatingRowColors(true);
  v->setWordWrap(false);
  v->horizontalHeader()->setHighlightSections(false);
  v->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  v->horizontalHeader()->setStretchLastSection(true);
  return v;
}

}  // namespace

HistoryPage::HistoryPage(const WorkbenchContext& context, QWidget* parent) : Page(parent), m_context(context) {
  m_findAction = new QAction(QStringLiteral("&Find runs"), this);
  m_findAction->setShortcut(QKeySequence::Find);
  connect(m_findAction, &QAction::triggered, this, [this] {
    emit pageRequested(pageId());
    m_search->setFocus();
    m_search->selectAll();
  });
  m_refreshAction = new QAction(style()->standardIcon(QStyle::SP_BrowserReload), QStringLiteral("&Refresh"), this);
  m_refreshAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
  m_refreshAction->setToolTip(QStringLiteral("Read the run store again (Ctrl+Shift+R)"));
  m_deleteAction = new QAction(style()->standardIcon(QStyle::SP_TrashIcon), QStringLiteral("&Delete run\u2026"), this);
  m_deleteAction->setShortcut(QKeySequence::Delete);
  m_deleteAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  m_deleteAction->setToolTip(QStringLiteral("Delete the selected run and its rungs from the store (Del)"));
  m_exportAction = new QAction(style()->standardIcon(QStyle::SP_DialogSaveButton), QStringLiteral("&Export run\u2026"), this);
  m_exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_X));
  m_exportAction->setToolTip(QStringLiteral("Write the selected run's report.md, report.json, rungs.csv and "
                                            "report.html (plots embedded) into a directory (Ctrl+Shift+X)"));
  m_storeAction = new QAction(style()->standardIcon(QStyle::SP_DirOpenIcon), QStringLiteral("Open run &store\u2026"), this);
  m_storeAction->setToolTip(QStringLiteral("Show the runs of another store file (also: wandscope --db FILE)"));
  connect(m_refreshAction, &QAction::triggered, this, &HistoryPage::refresh);
  connect(m_deleteAction, &QAction::triggered, this, &HistoryPage::confirmDelete);
  connect(m_exportAction, &QAction::triggered, this, &HistoryPage::exportRun);
  connect(m_storeAction, &QAction::triggered, this, &HistoryPage::chooseStore);
  m_compareAction = new QAction(QStringLiteral("&Compare runs\u2026"), this);
  m_compareAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
  m_compareAction->setToolTip(QStringLiteral("Show the two selected runs' figures side by side with their ratio on the "
                                             "Compare page (Ctrl+Shift+D); select two runs with Ctrl+click"));
  m_compareAction->setEnabled(false);
  connect(m_compareAction, &QAction::triggered, this, [this] {
    QStringList ids = selectedRunIds();
    if (ids.size() != 2) return;
    // The older run is A (the baseline), the newer B: "Benefit vs A" then reads as progress.
    auto started = [this](const QString& id) {
      const int row = m_runs->rowOf(id);
      return row >= 0 ? m_runs->runs()[static_cast<std::size_t>(row)].startedUtc : std::string();
    };
    if (started(ids[1]) < started(ids[0])) ids.swapItemsAt(0, 1);
    compareRuns(ids[0], ids[1]);
  });
  m_openComparisonAction = new QAction(QStringLiteral("&Open comparison"), this);
  m_openComparisonAction->setToolTip(
      QStringLiteral("Show the selected stored comparison on the Compare page, where Export writes it as md, json, csv "
                     "and html (also: double-click)"));
  m_openComparisonAction->setEnabled(false);
  connect(m_openComparisonAction, &QAction::triggered, this, [this] {
    const QString id = selectedComparisonId();
    if (!id.isEmpty()) openComparison(id);
  });
  m_deleteComparisonAction =
      new QAction(style()->standardIcon(QStyle::SP_TrashIcon), QStringLiteral("Delete co&mparison\u2026"), this);
  m_deleteComparisonAction->setToolTip(
      QStringLiteral("Delete the selected stored comparison from the store (asks first); runs are not touched"));
  m_deleteComparisonAction->setEnabled(false);
  connect(m_deleteComparisonAction, &QAction::triggered, this, &HistoryPage::confirmDeleteComparison);
  addAction(m_deleteAction);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(8, 8, 8, 8);
  layout->setSpacing(6);
  auto* bar = new QHBoxLayout;
  m_search = new QLineEdit(this);
  m_search->setPlaceholderText(QStringLiteral("Search runs: profile, target, run id, commit, host"));
  m_search->setClearButtonEnabled(true);
  m_search->setToolTip(QStringLiteral("Plain text, case-insensitive (Ctrl+F)"));
  bar->addWidget(m_search, 2);
  bar->addWidget(actionButton(m_refreshAction, this));
  bar->addWidget(actionButton(m_deleteAction, this));
  bar->addWidget(actionButton(m_exportAction, this));
  bar->addWidget(actionButton(m_compareAction, this));
  bar->addWidget(actionButton(m_storeAction, this));
  m_storeLabel = new QLabel(this);
  m_storeLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  m_storeLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
  bar->addWidget(m_storeLabel, 1);
  layout->addLayout(bar);

  m_notice = new widgets::NoticeBar(this);
  layout->addWidget(m_notice);

  m_vertical = new QSplitter(Qt::Vertical, this);
  m_top = new QSplitter(Qt::Horizontal, m_vertical);
  m_runs = new widgets::RunListModel(this);
  m_proxy = new QSortFilterProxyModel(this);
  m_proxy->setSourceModel(m_runs);
  m_proxy->setSortRole(widgets::RunListModel::SortRole);
  m_proxy->setFilterRole(widgets::RunListModel::SearchRole);
  m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
  m_proxy->setFilterKeyColumn(0);
  m_runView = makeHistoryTable(m_proxy, m_top);
  m_runView->setObjectName(QStringLiteral("runs"));
  m_runView->setSortingEnabled(true);
  m_runView->setSelectionMode(QAbstractItemView::ExtendedSelection);  // two runs for Compare...
  m_runView->sortByColumn(widgets::RunListModel::Started, Qt::DescendingOrder);
  // Left: the runs, and under them the stored comparisons.
  auto* lists = new QSplitter(Qt::Vertical, m_top);
  lists->setObjectName(QStringLiteral("lists"));
  lists->addWidget(m_runView);
  auto* comparisons = new QWidget(lists);
  auto* comparisonsLayout = new QVBoxLayout(comparisons);
  comparisonsLayout->setContentsMargins(0, 0, 0, 0);
  comparisonsLayout->setSpacing(4);
  auto* comparisonsBar = new QHBoxLayout;
  comparisonsBar->addWidget(new QLabel(QStringLiteral("<b>Comparisons</b> (Compare page, wandscope-cli compare)"), comparisons), 1);
  comparisonsBar->addWidget(actionButton(m_openComparisonAction, comparisons));
  comparisonsBar->addWidget(actionButton(m_deleteComparisonAction, comparisons));
  comparisonsLayout->addLayout(comparisonsBar);
  m_compareView = new QTableWidget(0, 7, comparisons);
  m_compareView->setObjectName(QStringLiteral("comparisons"));
  m_compareView->setHorizontalHeaderLabels({QStringLiteral("Started"), QStringLiteral("Profile"), QStringLiteral("A"),
                                            QStringLiteral("B"), QStringLiteral("Mode"), QStringLiteral("Results"),
                                            QStringLiteral("Status")});
  m_compareView->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_compareView->verticalHeader()->setVisible(false);
  m_compareView->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_compareView->setSelectionMode(QAbstractItemView::SingleSelection);
  m_compareView->setAlternatingRowColors(true);
  m_compareView->setWordWrap(false);
  m_compareView->horizontalHeader()->setStretchLastSection(true);
  comparisonsLayout->addWidget(m_compareView, 1);
  // In place of an empty table, which said nothing about where comparisons come from.
  m_compareEmpty = new QLabel(QStringLiteral("None stored yet: every comparison run on the Compare page is listed here."),
                              comparisons);
  m_compareEmpty->setWordWrap(true);
  m_compareEmpty->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  m_compareEmpty->setFrameShape(QFrame::StyledPanel);
  m_compareEmpty->setMargin(6);
  m_compareEmpty->setEnabled(false);  // the disabled text colour: a note, not content
  comparisonsLayout->addWidget(m_compareEmpty, 1);
  lists->addWidget(comparisons);
  lists->setStretchFactor(0, 3);
  lists->setStretchFactor(1, 1);
  m_top->addWidget(lists);
  connect(m_compareView, &QTableWidget::itemSelectionChanged, this, [this] {
    const bool selected = !selectedComparisonId().isEmpty();
    m_openComparisonAction->setEnabled(selected);
    m_deleteComparisonAction->setEnabled(selected);
  });
  connect(m_compareView, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
    if (row >= 0 && row < static_cast<int>(m_comparisons.size())) {
      openComparison(QString::fromStdString(m_comparisons[static_cast<std::size_t>(row)].compareId));
    }
  });

  auto* detail = new QWidget(m_top);
  auto* detailLayout = new QVBoxLayout(detail);
  detailLayout->setContentsMargins(0, 0, 0, 0);
  detailLayout->setSpacing(4);
  m_runHeader = new QLabel(detail);
  m_runHeader->setWordWrap(true);
  m_runHeader->setTextFormat(Qt::RichText);
  m_runHeader->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_rungs = new widgets::RungTableModel(this);
  auto* rungProxy = new QSortFilterProxyModel(this);
  rungProxy->setSourceModel(m_rungs);
  rungProxy->setSortRole(widgets::RungTableModel::SortRole);
  m_rungView = makeHistoryTable(rungProxy, detail);
  m_rungView->setObjectName(QStringLiteral("rungs"));
  // What a reader compares first, in view order (the model's is the report's): the verdict, the
  // load and the latencies and CPU, then the counts. At 1280x800 the pane showed #, Target and the
  // verdict and hid every number beyond its edge (review, stop 32).
  {
    using C = widgets::RungTableModel;
    QHeaderView* header = m_rungView->horizontalHeader();
    const C::Column order[] = {C::Index, C::Target, C::Verdict, C::Load, C::P50, C::P99, C::CpuPerQuery,
                               C::Achieved, C::Completed, C::Shed, C::Rss, C::Mode};
    for (int visual = 0; visual < static_cast<int>(std::size(order)); ++visual) {
      header->moveSection(header->visualIndex(order[visual]), visual);
    }
  }
  m_rungView->horizontalHeader()->setStretchLastSection(false);
  m_rungView->setTextElideMode(Qt::ElideRight);
  m_rungView->setSortingEnabled(true);
  m_rungView->sortByColumn(widgets::RungTableModel::Index, Qt::AscendingOrder);
  detailLayout->addWidget(m_runHeader);
  detailLayout->addWidget(m_rungView, 1);
  m_top->addWidget(detail);
  m_top->setStretchFactor(0, 1);
  m_top->setStretchFactor(1, 1);

  m_dashboard = new widgets::LoadDashboard(m_vertical);
  // Runs are not started here: the plots said "Start a run to see it here" while none was open.
  m_dashboard->setIdleText(QStringLiteral("Select a run above to see its plots"));
  m_vertical->addWidget(m_top);
  m_vertical->addWidget(m_dashboard);
  m_vertical->setStretchFactor(0, 2);
  m_vertical->setStretchFactor(1, 3);
  layout->addWidget(m_vertical, 1);

  connect(m_dashboard, &widgets::LoadDashboard::exported, this,
          [this](const QString& path) { emit statusMessage(QStringLiteral("Exported the plot to %1").arg(path)); });
  connect(m_dashboard, &widgets::LoadDashboard::exportFailed, this, [this](const QString& message) {
    m_notice->showNotice(widgets::NoticeBar::Kind::Error, message);
    emit errorOccurred(message);
  });
  connect(m_search, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
  connect(m_runView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &HistoryPage::onCurrentRowChanged);
  connect(m_runView->selectionModel(), &QItemSelectionModel::selectionChanged, this, &HistoryPage::onSelectionChanged);
  connect(m_context.history, &HistoryController::changed, this, &HistoryPage::refresh);
  connect(m_context.history, &HistoryController::storePathChanged, this, &HistoryPage::showStorePath);

  showStorePath();
  m_runHeader->setText(QStringLiteral("<i>Select a run to see its rungs and plots.</i>"));
  m_deleteAction->setEnabled(false);
  m_exportAction->setEnabled(false);
  refresh();
}

QList<QAction*> HistoryPage::menuActions() const {
  return {m_findAction, m_refreshAction, m_deleteAction, m_exportAction, m_compareAction, m_openComparisonAction,
          m_deleteComparisonAction, m_storeAction};
}

void HistoryPage::showStorePath() {
  const QString path = m_context.history->storePath();
  // Elided in the middle, so the file's name stays in view (cut at the right, it hid it).
  m_storeLabel->setText(QStringLiteral("Store: %1").arg(m_storeLabel->fontMetrics().elidedText(path, Qt::ElideMiddle, 180)));
  m_storeLabel->setToolTip(QStringLiteral("The run store (SQLite): %1").arg(path));
}

void HistoryPage::setSearchText(const QString& text) { m_search->setText(text); }

QString HistoryPage::selectedRunId() const {
  const QModelIndex current = m_runView->currentIndex();
  if (!current.isValid()) return {};
  return current.data(widgets::RunListModel::RunIdRole).toString();
}

QStringList HistoryPage::selectedRunIds() const {
  QModelIndexList rows = m_runView->selectionModel()->selectedRows();
  std::sort(rows.begin(), rows.end(), [](const QModelIndex& x, const QModelIndex& y) { return x.row() < y.row(); });
  QStringList ids;
  for (const QModelIndex& r : rows) ids << r.data(widgets::RunListModel::RunIdRole).toString();
  return ids;
}

void HistoryPage::onSelectionChanged() { m_compareAction->setEnabled(selectedRunIds().size() == 2); }

bool HistoryPage::compareRuns(const QString& runA, const QString& runB) {
  QString error;
  auto a = m_context.history->load(runA, &error);
  auto b = a ? m_context.history->load(runB, &error) : RunReportPtr();
  if (!a || !b) {
    m_notice->showNotice(widgets::NoticeBar::Kind::Error, error);
    emit errorOccurred(error);
    return false;
  }
  emit compareRequested(a, b);
  return true;
}

bool HistoryPage::openComparison(const QString& compareId) {
  QString error;
  auto report = m_context.history->loadComparison(compareId, &error);
  if (!report) {
    m_notice->showNotice(widgets::NoticeBar::Kind::Error, error);
    emit errorOccurred(error);
    return false;
  }
  emit comparisonOpened(report);
  return true;
}

void HistoryPage::fillComparisons() {
  QString error;
  m_comparisons = m_context.history->listComparisons(&error);
  if (!error.isEmpty()) m_notice->showNotice(widgets::NoticeBar::Kind::Error, error);
  m_compareView->clearContents();
  m_compareView->setRowCount(static_cast<int>(m_comparisons.size()));
  for (std::size_t i = 0; i < m_comparisons.size(); ++i) {
    const auto& c = m_comparisons[i];
    QString b = QString::fromStdString(c.bSpec);
    for (const auto& more : c.moreSpecs) b += QStringLiteral(" | ") + QString::fromStdString(more);  // B2, B3, ...
    const QStringList cells = {
        QString::fromStdString(c.startedUtc), QString::fromStdString(c.profileName), QString::fromStdString(c.aSpec), b, QString::fromStdString(c.mode) + (c.aa ? QStringLiteral(" + A/A") : QString()),
        c.resultsDiffer ? QStringLiteral("differ") : QStringLiteral("identical"),
        c.partial ? QStringLiteral("partial") : QStringLiteral("complete")};
    for (int col = 0; col < cells.size(); ++col) {
      auto* item = new QTableWidgetItem(cells[col]);
      item->setToolTip(QStringLiteral("%1: A build %2, B build %3, %4 rows")
                           .arg(QString::fromStdString(c.compareId), QString::fromStdString(c.aBuildId),
                                QString::fromStdString(c.bBuildId))
                           .arg(c.scenarios));
      m_compareView->setItem(static_cast<int>(i), col, item);
    }
  }
  m_compareView->resizeColumnsToContents();
  m_compareView->setVisible(!m_comparisons.empty());
  m_compareEmpty->setVisible(m_comparisons.empty());
  const bool selected = !selectedComparisonId().isEmpty();
  m_openComparisonAction->setEnabled(selected);
  m_deleteComparisonAction->setEnabled(selected);
}

QString HistoryPage::selectedComparisonId() const {
  const int row = m_compareView->currentRow();
  if (row < 0 || row >= static_cast<int>(m_comparisons.size())) return {};
  return QString::fromStdString(m_comparisons[static_cast<std::size_t>(row)].compareId);
}

bool HistoryPage::deleteComparison(const QString& compareId) {
  QString error;
  if (!m_context.history->removeComparison(compareId, &error)) {  // emits changed(): the lists refresh
    m_notice->showNotice(widgets::NoticeBar::Kind::Error, error);
    emit errorOccurred(error);
    return false;
  }
  emit statusMessage(QStringLiteral("Deleted comparison %1").arg(compareId));
  return true;
}

void HistoryPage::confirmDeleteComparison() {
  const QString id = selectedComparisonId();
  if (id.isEmpty()) return;
  const auto answer = QMessageBox::question(
      this, QStringLiteral("Delete comparison"),
      QStringLiteral("Delete the stored comparison %1 from the store? This cannot be undone; the runs are kept.").arg(id));
  if (answer == QMessageBox::Yes) deleteComparison(id);
}

void HistoryPage::refresh() {
  fillComparisons();
  const QString keep = selectedRunId().isEmpty() && m_report ? QString::fromStdString(m_report->header.runId) : selectedRunId();
  // The model reset below drops the selection: a second run Ctrl+clicked for Compare runs... was
  // lost with every refresh (one when the Load page records a run too), leaving the current one.
  const QStringList selected = selectedRunIds();
  QString error;
  auto runs = m_context.history->list(QString(), &error);
  if (!error.isEmpty()) {
    m_notice->showNotice(widgets::NoticeBar::Kind::Error, error);
    emit errorOccurred(error);
  } else if (runs.empty()) {
    m_notice->showNotice(widgets::NoticeBar::Kind::Information,
                         QStringLiteral("No runs in the store yet. Runs from the Load page and from "
                                        "wandscope-cli bench are recorded here."));
  } else if (m_notice->kind() == widgets::NoticeBar::Kind::Information) {
    m_notice->hideNotice();
  }
  m_runs->setRuns(std::move(runs));
  m_runView->resizeColumnsToContents();
  const int row = m_runs->rowOf(keep);
  if (row >= 0) {
    m_runView->setCurrentIndex(m_proxy->mapFromSource(m_runs->index(row, 0)));
    // The open run may have changed in the store since it was read (it was still running, and
    // has since finished more rungs or ended): read it again, or its rungs stayed as first seen
    // while the list beside them said otherwise.
    const auto& summary = m_runs->runs()[static_cast<std::size_t>(row)];
    if (m_report && m_report->header.runId == summary.runId &&
        (summary.rungs != m_report->rungs.size() + m_report->rungsLeftOut || summary.status != m_openStatus)) {
      openRun(keep);
    }
  } else {
    clearOpenRun(QStringLiteral("<i>Select a run to see its rungs and plots.</i>"));
  }
  // Select again the runs that were (setCurrentIndex selected the current one alone); the current
  // run stays current, and shown, whether or not it is one of them.
  QItemSelection reselect;
  for (const QString& id : selected) {
    const int r = m_runs->rowOf(id);
    const QModelIndex index = r >= 0 ? m_proxy->mapFromSource(m_runs->index(r, 0)) : QModelIndex();
    if (index.isValid()) reselect.select(index, index);
  }
  if (reselect.isEmpty()) return;
  QItemSelectionModel* selection = m_runView->selectionModel();
  selection->select(reselect, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  // The current run is gone (deleted): a selected run left highlighted but not shown read as the
  // open one; it becomes current, and is opened.
  if (row < 0) selection->setCurrentIndex(reselect.indexes().value(0), QItemSelectionModel::NoUpdate);
}

void HistoryPage::clearOpenRun(const QString& header) {
  // The bar's warnings (Warning is used for nothing else here) were the run's that is no longer
  // shown: deleted, or another store opened.
  if (!m_notice->isHidden() && m_notice->kind() == widgets::NoticeBar::Kind::Warning) m_notice->hideNotice();
  m_report.reset();
  m_rungs->clear();
  m_dashboard->clear();
  m_runHeader->setText(header);
  m_deleteAction->setEnabled(false);
  m_exportAction->setEnabled(false);
}

void HistoryPage::onCurrentRowChanged() {
  const QString id = selectedRunId();
  if (id.isEmpty()) return;
  if (m_report && QString::fromStdString(m_report->header.runId) == id) return;
  openRun(id);
}

bool HistoryPage::openRun(const QString& runId) {
  QString error;
  auto report = m_context.history->load(runId, &error);
  if (!report) {
    m_notice->showNotice(widgets::NoticeBar::Kind::Error, error);
    emit errorOccurred(error);
    if (selectedRunId() == runId) {
      // The list points at this run: the pane must not keep showing (and Export writing) the
      // run opened before it. Delete stays enabled, so a damaged run can be removed.
      clearOpenRun(QStringLiteral("<b>%1</b> cannot be shown: %2")
                       .arg(runId.toHtmlEscaped(), error.toHtmlEscaped()));
      m_deleteAction->setEnabled(true);
    }
    return false;
  }
  m_report = report;
  const int listed = m_runs->rowOf(runId);
  m_openStatus = listed >= 0 ? m_runs->runs()[static_cast<std::size_t>(listed)].status : engine::RunStatus::Complete;
  m_rungs->setRungs(report->rungs);
  // The columns fit their contents, but this pane shares the window with the run list: the
  // verdict (shown right after the target, see the constructor) is at most kVerdictWidth wide,
  // elided with its whole text in the tooltip, so the latencies and CPU beside it stay in view.
  constexpr int kVerdictWidth = 170;
  m_rungView->resizeColumnsToContents();
  m_rungView->setColumnWidth(widgets::RungTableModel::Verdict,
                             std::min(m_rungView->columnWidth(widgets::RungTableModel::Verdict), kVerdictWidth));
  m_dashboard->setRungs(report->rungs);
  const auto& h = report->header;
  QStringList targets;
  for (const auto& t : h.targets) targets << QString::fromStdString(t);
  m_runHeader->setText(QStringLiteral("<b>%1</b> \u00b7 %2 \u00b7 %3 \u00b7 %4%5%6")
                           .arg(QString::fromStdString(h.runId).toHtmlEscaped(),
                                QString::fromStdString(h.profileName).toHtmlEscaped(),
                                targets.join(QStringLiteral(", ")).toHtmlEscaped(),
                                QString::fromStdString(engine::counted(report->rungs.size(), "rung", "rungs")))
                           .arg(report->partial ? QStringLiteral(" \u00b7 <span style='color:#c08000'>partial</span>") : QString(),
                                h.environment.guiAttached ? QStringLiteral(" \u00b7 measured with the GUI attached") : QString()));
  const int row = m_runs->rowOf(runId);
  if (row >= 0) {
    const QModelIndex index = m_proxy->mapFromSource(m_runs->index(row, 0));
    if (index.isValid() && m_runView->currentIndex().row() != index.row()) m_runView->setCurrentIndex(index);
  }
  m_deleteAction->setEnabled(true);
  // An export is a copy of the run, and `runs export` refuses one missing a damaged part: so does
  // this one rather than write a bundle that could pass for the whole run.
  m_exportAction->setEnabled(report->partsLeftOut == 0);
  m_exportAction->setToolTip(report->partsLeftOut == 0
                                 ? QString()
                                 : QStringLiteral("This run has damaged parts left out (see the warnings): an export "
                                                  "would not be the whole run"));
  // report.md heads the run with its warnings; the page showed none of them. Warning is the kind
  // this page uses for nothing else, so it is hidden again for a run without any.
  if (const QString warnings = warningsText(report->warnings); !warnings.isEmpty()) {
    m_notice->showNotice(widgets::NoticeBar::Kind::Warning,
                         QStringLiteral("Run %1: %2").arg(QString::fromStdString(h.runId), warnings));
  } else if (!m_notice->isHidden() && m_notice->kind() == widgets::NoticeBar::Kind::Warning) {
    m_notice->hideNotice();
  }
  return true;
}

bool HistoryPage::deleteRun(const QString& runId) {
  QString error;
  if (!m_context.history->remove(runId, &error)) {  // emits changed(): the list refreshes
    m_notice->showNotice(widgets::NoticeBar::Kind::Error, error);
    emit errorOccurred(error);
    return false;
  }
  emit statusMessage(QStringLiteral("Deleted run %1").arg(runId));
  return true;
}

void HistoryPage::confirmDelete() {
  const QString id = selectedRunId();
  if (id.isEmpty()) return;
  const auto answer = QMessageBox::question(this, QStringLiteral("Delete run"),
                                            QStringLiteral("Delete run %1 and its rungs from the store? This cannot be undone.").arg(id));
  if (answer == QMessageBox::Yes) deleteRun(id);
}

bool HistoryPage::exportRunTo(const QString& dir, QString* error) {
  if (!m_report) {
    if (error) *error = QStringLiteral("No run selected");
    return false;
  }
  if (m_report->partsLeftOut > 0) {
    if (error) {
      *error = QStringLiteral("Run %1 has damaged parts left out (see the warnings): not exported, as "
                              "wandscope-cli runs export refuses it too")
                   .arg(QString::fromStdString(m_report->header.runId));
    }
    return false;
  }
  return writeReportBundle(dir, *m_report, renderPlots(m_dashboard->plots()), error);
}

void HistoryPage::exportRun() {
  if (!m_report) return;
  const QString dir = QFileDialog::getExistingDirectory(this, QStringLiteral("Export the report bundle into"),
                                                        QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation));
  if (dir.isEmpty()) return;
  const QString target = QDir(dir).filePath(QString::fromStdString(m_report->header.runId));
  QString error;
  if (exportRunTo(target, &error)) {
    m_notice->showNotice(widgets::NoticeBar::Kind::Positive, QStringLiteral("Wrote the report bundle to %1").arg(target));
  } else {
    m_notice->showNotice(widgets::NoticeBar::Kind::Error, error);
    emit errorOccurred(error);
  }
}

void HistoryPage::chooseStore() {
  const QString path = QFileDialog::getOpenFileName(this, QStringLiteral("Open a run store"), m_context.history->storePath(),
                                                    QStringLiteral("Run stores (*.sqlite *.db);;All files (*)"));
  if (!path.isEmpty()) m_context.history->setStorePath(path);
}

void HistoryPage::saveSettings(QSettings& settings) const {
  settings.setValue(QStringLiteral("splitter"), m_vertical->saveState());
  settings.setValue(QStringLiteral("topSplitter"), m_top->saveState());
}

void HistoryPage::restoreSettings(QSettings& settings) {
  m_vertical->restoreState(settings.value(QStringLiteral("splitter")).toByteArray());
  if (m_top->restoreState(settings.value(QStringLiteral("topSplitter")).toByteArray())) m_topSized = true;
}

void HistoryPage::showEvent(QShowEvent* event) {
  Page::showEvent(event);
  if (m_topSized || m_top->width() <= 0) return;
  m_topSized = true;
  const int width = m_top->width() - m_top->handleWidth();
  m_top->setSizes({width * 45 / 100, width - width * 45 / 100});
}

void HistoryPage::prepareScreenshot() {
  refresh();
  if (m_proxy->rowCount() > 0) {
    m_runView->setCurrentIndex(m_proxy->index(0, 0));
    openRun(m_proxy->index(0, 0).data(widgets::RunListModel::RunIdRole).toString());
  }
  QTimer::singleShot(400, this, &Page::screenshotReady);
}

}  // namespace wandscope::app
