// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/pages/explore_page.h"

#include "app/controllers/index_controller.h"
#include "app/controllers/query_controller.h"
#include "app/gui/simd_selector.h"
#include "engine/query/parsed_query.h"
#include "engine/text/analyzer.h"
#include "widgets/metric_descriptions.h"
#include "widgets/models/counter_table_model.h"
#include "widgets/models/explain_table_model.h"
#include "widgets/models/result_table_model.h"
#include "widgets/models/term_table_model.h"
#include "widgets/views/notice_bar.h"
#include "widgets/views/switches_button.h"
#include "widgets/views/snippet_delegate.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

namespace wandscope::app {
namespace {

QString algorithmDescription(engine::Algorithm a) {
  switch (a) {
    case engine::Algorithm::Auto: return QStringLiteral("The planner picks the path; the reason is shown next to it.");
    case engine::Algorithm::Exhaustive:
      return QStringLiteral("Document-at-a-time over every posting: the reference every other path must match.");
    case engine::Algorithm::Wand:
      return QStringLiteral("WAND: skips documents whose sum of list maxima cannot beat the k-th score (OR).");
    case engine::Algorithm::Bmw:
      return QStringLiteral("Block-Max WAND: refines WAND's bound with per-block maxima, skipping whole blocks (OR).");
    case engine::Algorithm::MaxScore:
      return QStringLiteral("MaxScore: only essential lists drive the candidates; the others are probed (OR).");
    case engine::Algorithm::Bmm: return QStringLiteral("Block-Max MaxScore: MaxScore with block-max bounds (OR).");
    case engine::Algorithm::BlockMaxAnd:
      return QStringLiteral("Conjunction that skips block ranges whose block-max sum cannot beat the floor (AND).");
    case engine::Algorithm::BulkAnd:
      return QStringLiteral("Windowed bulk conjunction with a frequency prune table (AND).");
    case engine::Algorithm::Taat:
      return QStringLiteral("Term at a time over rare lists: shared documents first, then blocks by block maximum (OR).");
  }
  return {};
}

QString formatMs(double ms) {
  if (ms < 1.0) return QStringLiteral("%1 ms").arg(ms, 0, 'f', 3);
  if (ms < 100.0) return QStringLiteral("%1 ms").arg(ms, 0, 'f', 2);
  return QStringLiteral("%1 ms").arg(ms, 0, 'f', 0);
}

QLabel* metricLabel(const QString& key, QWidget* parent, bool header) {
  auto* l = new QLabel(parent);
  l->setToolTip(widgets::metricDescription(key));
  if (header) {
    l->setText(QStringLiteral("<small>%1</small>").arg(widgets::metricTitle(key)));
    QPalette p = l->palette();
    p.setColor(QPalette::WindowText, p.color(QPalette::Disabled, QPalette::WindowText));
    l->setPalette(p);
  } else {
    // Always rich text: the cells are escaped HTML ("-&gt;" must show as "->", not literally).
    l->setTextFormat(Qt::RichText);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
  }
  return l;
}

const char* const kSummaryKeys[] = {"path", "wall_ms", "cpu_ms", "postings_decoded", "hits", "kth_score", "reason"};

QTableView* makeTable(QAbstractItemModel* model, QWidget* parent) {
  auto* v = new QTableView(parent);
  v->setModel(model);
  v->verticalHeader()->setVisible(false);
  v->verticalHeader()->setDefaultSectionSize(v->fontMetrics().height() + 8);
  v->setSelectionBehavior(QAbstractItemView::SelectRows);
  v->setSelectionMode(QAbstractItemView::SingleSelection);
  v->setAlternatingRowColors(true);
  v->setWordWrap(false);
  v->horizontalHeader()->setHighlightSections(false);
  return v;
}

QGroupBox* panel(const QString& title, QWidget* parent) {
  auto* box = new QGroupBox(title, parent);
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->setSpacing(4);
  return box;
}

}  // namespace

ExplorePage::ExplorePage(const WorkbenchContext& context, QWidget* parent) : Page(parent), m_context(context) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(8, 8, 8, 8);
  layout->setSpacing(6);
  buildControls();
  buildPanels();

  auto* q = m_context.query;
  connect(q, &QueryController::resultsReady, this, &ExplorePage::onResults);
  connect(q, &QueryController::searchFailed, this, &ExplorePage::onFailed);
  connect(q, &QueryController::cleared, this, &ExplorePage::onCleared);
  connect(q, &QueryController::searchingChanged, this, &ExplorePage::onSearching);
  // The Explore page is the query controller's client: it gives it the current index.
  connect(m_context.index, &IndexController::indexChanged, this, &ExplorePage::onIndexChanged);
  connect(m_context.index, &IndexController::defaultDatasetReady, this, &ExplorePage::onDefaultDataset);
  if (m_context.index->current()) onIndexChanged(m_context.index->current());
  if (!m_context.index->defaultDataset().sampleQueries.isEmpty()) onDefaultDataset(m_context.index->defaultDataset());
  onCleared();
}

void ExplorePage::buildControls() {
  auto* layout = static_cast<QVBoxLayout*>(this->layout());

  auto* row1 = new QHBoxLayout;
  m_query = new QLineEdit(this);
  m_query->setPlaceholderText(QStringLiteral("Type a query \u2014 results update as you type"));
  m_query->setClearButtonEnabled(true);
  m_query->setToolTip(QStringLiteral(
      "The query, analyzed like the documents. Results follow as you type (a search at most every "
      "%1 ms; older searches are dropped). Enter searches at once.").arg(QueryController::kDebounceMs));
  QFont big = m_query->font();
  big.setPointSizeF(big.pointSizeF() * 1.15);
  m_query->setFont(big);
  m_samples = new QToolButton(this);
  m_samples->setText(QStringLiteral("Examples"));
  m_samples->setPopupMode(QToolButton::InstantPopup);
  m_samplesMenu = new QMenu(m_samples);
  m_samples->setMenu(m_samplesMenu);
  m_samples->setToolTip(QStringLiteral("Queries from the embedded default dataset's query sets"));
  m_samples->setEnabled(false);
  row1->addWidget(m_query, 1);
  row1->addWidget(m_samples);
  layout->addLayout(row1);

  auto* row2 = new QHBoxLayout;
  auto addLabeled = [&](const QString& text, QWidget* w) {
    auto* l = new QLabel(text, this);
    l->setBuddy(w);
    row2->addWidget(l);
    row2->addWidget(w);
    row2->addSpacing(8);
  };
  m_operator = new QComboBox(this);
  m_operator->addItem(QStringLiteral("OR"), static_cast<int>(engine::Operator::Or));
  m_operator->addItem(QStringLiteral("AND"), static_cast<int>(engine::Operator::And));
  m_operator->setToolTip(QStringLiteral("OR: documents with any query term. AND: only documents with every "
                                        "term. (Ctrl+Shift+O toggles)"));
  addLabeled(QStringLiteral("&Operator:"), m_operator);
  m_algorithm = new QComboBox(this);
  // The list changes with the operator (AND adds block-max-and): follow it, never cut a name.
  m_algorithm->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  m_algorithm->setToolTip(QStringLiteral("The evaluation path. Every path returns the same top-k, bit for bit; "
                                         "they differ in the work done."));
  addLabeled(QStringLiteral("&Algorithm:"), m_algorithm);
  m_k = new QSpinBox(this);
  m_k->setRange(1, 1000);
  m_k->setValue(10);
  m_k->setToolTip(QStringLiteral("Number of results (the top k), at most 1,000 here: every hit gets its stored text and "
                                 "snippet. wandscope-cli search and run take k up to 10,000,000."));
  addLabeled(QStringLiteral("&k:"), m_k);
  m_compare = new QComboBox(this);
  m_compare->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  m_compare->setToolTip(QStringLiteral("Run the same query with a second path and show its results and "
                                       "counters side by side: the same hits, different work."));
  addLabeled(QStringLiteral("&Compare with:"), m_compare);
  m_switches = new widgets::SwitchesButton(this);
  connect(m_switches, &widgets::SwitchesButton::optionsChanged, this, [this] { onControlsChanged(true); });
  row2->addWidget(m_switches);
  row2->addSpacing(8);
  m_simd = new SimdSelector(this);
  addLabeled(QStringLiteral("SI&MD:"), m_simd);
  // A new target re-runs the query, so its timing shows what the instruction set buys.
  connect(m_simd, &SimdSelector::targetChanged, this, [this] { onControlsChanged(true); });
  row2->addStretch(1);
  m_searching = new QLabel(this);
  m_searching->setToolTip(QStringLiteral("A search is running on the query worker thread"));
  row2->addWidget(m_searching);
  layout->addLayout(row2);

  fillAlgorithms();

  connect(m_query, &QLineEdit::textEdited, this, [this] { onControlsChanged(false); });
  connect(m_query, &QLineEdit::returnPressed, this, [this] { onControlsChanged(true); });
  connect(m_operator, &QComboBox::currentIndexChanged, this, [this] {
    fillAlgorithms();
    onControlsChanged(true);
  });
  connect(m_algorithm, &QComboBox::currentIndexChanged, this, [this] { onControlsChanged(true); });
  connect(m_compare, &QComboBox::currentIndexChanged, this, [this] { onControlsChanged(true); });
  connect(m_k, &QSpinBox::valueChanged, this, [this] { onControlsChanged(false); });

  m_focusAction = new QAction(QStringLiteral("&Focus the query box"), this);
  m_focusAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
  connect(m_focusAction, &QAction::triggered, this, [this] {
    emit pageRequested(pageId());
    m_query->setFocus();
    m_query->selectAll();
  });
  m_rerunAction = new QAction(QStringLiteral("&Run again"), this);
  m_rerunAction->setShortcut(QKeySequence(Qt::Key_F5));
  m_rerunAction->setToolTip(QStringLiteral("Search again (fresh timings)"));
  connect(m_rerunAction, &QAction::triggered, this, [this] { m_context.query->submit(currentParams()); });
  m_toggleOpAction = new QAction(QStringLiteral("&Toggle AND/OR"), this);
  m_toggleOpAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
  connect(m_toggleOpAction, &QAction::triggered, this,
          [this] { m_operator->setCurrentIndex(1 - m_operator->currentIndex()); });
  m_traceAction = new QAction(QStringLiteral("&Trace this query"), this);
  m_traceAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
  m_traceAction->setToolTip(QStringLiteral("Replay the shown query step by step on the Trace page, on the open "
                                           "index, as it was searched (algorithm and switches)"));
  m_traceAction->setEnabled(false);
  connect(m_traceAction, &QAction::triggered, this, [this] {
    if (!m_shown) return;
    emit traceRequested(m_shown->text, static_cast<int>(m_shown->op), static_cast<int>(m_shown->k),
                        static_cast<int>(m_shown->primary.requested), m_shown->options);
  });
  m_compareAction = new QAction(QStringLiteral("&Compare with exhaustive"), this);
  m_compareAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
  m_compareAction->setToolTip(QStringLiteral("Compare the current path with the exhaustive reference (or stop comparing)"));
  connect(m_compareAction, &QAction::triggered, this, [this] {
    const auto current = currentParams().compare;
    setCompareAlgorithm(current ? std::nullopt : std::optional(engine::Algorithm::Exhaustive));
  });
  for (auto* a : {m_focusAction, m_rerunAction, m_toggleOpAction, m_compareAction}) addAction(a);
}

void ExplorePage::buildPanels() {
  auto* layout = static_cast<QVBoxLayout*>(this->layout());
  m_notice = new widgets::NoticeBar(this);
  connect(m_notice, &widgets::NoticeBar::actionTriggered, this, [this] { emit pageRequested(QStringLiteral("index")); });
  layout->addWidget(m_notice);

  // The query's path and timing, one row per path run.
  auto* summary = new QWidget(this);
  m_summaryGrid = new QGridLayout(summary);
  m_summaryGrid->setContentsMargins(4, 0, 4, 0);
  m_summaryGrid->setHorizontalSpacing(18);
  m_summaryGrid->setVerticalSpacing(2);
  int col = 1;
  for (const char* key : kSummaryKeys) {
    m_summaryGrid->addWidget(metricLabel(QString::fromLatin1(key), summary, true), 0, col++);
  }
  m_rowLabelA = new QLabel(QStringLiteral("<b>A</b>"), summary);
  m_rowLabelA->setToolTip(QStringLiteral("The primary path (the Algorithm selector)"));
  m_rowLabelB = new QLabel(QStringLiteral("<b>B</b>"), summary);
  m_rowLabelB->setToolTip(QStringLiteral("The compared path (Compare with)"));
  m_summaryGrid->addWidget(m_rowLabelA, 1, 0);
  m_summaryGrid->addWidget(m_rowLabelB, 2, 0);
  col = 1;
  for (const char* key : kSummaryKeys) {
    auto* a = metricLabel(QString::fromLatin1(key), summary, false);
    auto* b = metricLabel(QString::fromLatin1(key), summary, false);
    m_summaryA << a;
    m_summaryB << b;
    m_summaryGrid->addWidget(a, 1, col);
    m_summaryGrid->addWidget(b, 2, col);
    ++col;
  }
  m_summaryGrid->setColumnStretch(col - 1, 1);
  m_summaryA.last()->setWordWrap(true);
  m_summaryB.last()->setWordWrap(true);
  m_identity = new QLabel(summary);
  m_identity->setTextFormat(Qt::RichText);
  m_identity->setToolTip(QStringLiteral("Whether the compared path returned exactly the primary's top-k: the "
                                        "same document ids in the same order with the same f32 score bits."));
  m_summaryGrid->addWidget(m_identity, 1, col, 2, 1, Qt::AlignVCenter | Qt::AlignRight);
  layout->addWidget(summary);

  m_vertical = new QSplitter(Qt::Vertical, this);
  // Results.
  m_resultModel = new widgets::ResultTableModel(this);
  m_results = makeTable(m_resultModel, m_vertical);
  m_results->setItemDelegate(new widgets::SnippetDelegate(widgets::ResultTableModel::HighlightsRole, m_results));
  m_results->horizontalHeader()->setStretchLastSection(true);
  m_results->setTextElideMode(Qt::ElideRight);
  m_results->setObjectName(QStringLiteral("results"));
  connect(m_resultModel, &QAbstractItemModel::modelReset, this, &ExplorePage::resizeResultColumns);
  connect(m_results->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &ExplorePage::onResultSelected);
  m_vertical->addWidget(m_results);

  m_bottom = new QSplitter(Qt::Horizontal, m_vertical);
  // Counters.
  auto* counterBox = panel(QStringLiteral("Counters"), m_bottom);
  m_counterModel = new widgets::CounterTableModel(this);
  m_counterModel->setHideZeros(true);
  m_counters = makeTable(m_counterModel, counterBox);
  m_counters->setSelectionMode(QAbstractItemView::NoSelection);
  m_counters->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  m_counters->horizontalHeader()->setStretchLastSection(true);
  m_hideZeros = new QCheckBox(QStringLiteral("Hide counters that are zero on every path"), counterBox);
  m_hideZeros->setChecked(true);
  connect(m_hideZeros, &QCheckBox::toggled, m_counterModel, &widgets::CounterTableModel::setHideZeros);
  counterBox->layout()->addWidget(m_counters);
  counterBox->layout()->addWidget(m_hideZeros);
  m_bottom->addWidget(counterBox);
  // Terms.
  auto* termBox = panel(QStringLiteral("Query terms"), m_bottom);
  m_termModel = new widgets::TermTableModel(this);
  m_terms = makeTable(m_termModel, termBox);
  m_terms->setSelectionMode(QAbstractItemView::NoSelection);
  m_terms->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  m_terms->horizontalHeader()->setStretchLastSection(true);
  termBox->layout()->addWidget(m_terms);
  m_analysis = new QLabel(termBox);
  m_analysis->setWordWrap(true);
  m_analysis->setToolTip(QStringLiteral("What the analyzer made of the query text: repeated words count once, and "
                                        "stop words, tokens over %1 bytes and bytes that are not UTF-8 are dropped "
                                        "(docs/SCORING.md, \"Analysis\").")
                             .arg(engine::Analyzer::kMaxTokenBytes));
  termBox->layout()->addWidget(m_analysis);
  m_bottom->addWidget(termBox);
  // Explain.
  auto* explainBox = panel(QStringLiteral("Explain the selected result"), m_bottom);
  m_explainHeader = new QLabel(explainBox);
  m_explainHeader->setWordWrap(true);
  m_explainHeader->setTextFormat(Qt::RichText);
  m_explainModel = new widgets::ExplainTableModel(this);
  m_explain = makeTable(m_explainModel, explainBox);
  m_explain->setSelectionMode(QAbstractItemView::NoSelection);
  m_explain->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  m_explain->horizontalHeader()->setStretchLastSection(true);
  explainBox->layout()->addWidget(m_explainHeader);
  explainBox->layout()->addWidget(m_explain);
  m_bottom->addWidget(explainBox);
  m_bottom->setSizes({380, 360, 500});
  m_vertical->addWidget(m_bottom);
  m_vertical->setStretchFactor(0, 5);
  m_vertical->setStretchFactor(1, 4);
  layout->addWidget(m_vertical, 1);
}

QList<QAction*> ExplorePage::menuActions() const {
  return {m_focusAction, m_rerunAction, m_toggleOpAction, m_compareAction, m_traceAction};
}

void ExplorePage::fillAlgorithms() {
  const auto op = static_cast<engine::Operator>(m_operator->currentData().toInt());
  const QVariant keepAlgorithm = m_algorithm->currentData();
  const QVariant keepCompare = m_compare->currentData();
  m_updatingControls = true;
  m_algorithm->clear();
  m_compare->clear();
  m_compare->addItem(QStringLiteral("(none)"), -1);
  m_compare->setItemData(0, QStringLiteral("No comparison"), Qt::ToolTipRole);
  for (const engine::Algorithm a : engine::allAlgorithms()) {
    if (!engine::algorithmSupports(a, op)) continue;
    const QString name = QString::fromLatin1(engine::algorithmName(a));
    m_algorithm->addItem(name, static_cast<int>(a));
    m_algorithm->setItemData(m_algorithm->count() - 1, algorithmDescription(a), Qt::ToolTipRole);
    m_compare->addItem(name, static_cast<int>(a));
    m_compare->setItemData(m_compare->count() - 1, algorithmDescription(a), Qt::ToolTipRole);
  }
  const int ai = m_algorithm->findData(keepAlgorithm);
  m_algorithm->setCurrentIndex(ai >= 0 ? ai : 0);
  const int ci = m_compare->findData(keepCompare);
  m_compare->setCurrentIndex(ci >= 0 ? ci : 0);
  m_updatingControls = false;
  // A path the new operator has no use for is replaced: say so rather than switch silently.
  QStringList replaced;
  if (keepAlgorithm.isValid() && ai < 0) {
    replaced << QStringLiteral("algorithm %1 -> %2")
                    .arg(QString::fromLatin1(engine::algorithmName(static_cast<engine::Algorithm>(keepAlgorithm.toInt()))),
                         m_algorithm->currentText());
  }
  if (keepCompare.isValid() && keepCompare.toInt() >= 0 && ci < 0) {
    replaced << QStringLiteral("compare with %1 -> none")
                    .arg(QString::fromLatin1(engine::algorithmName(static_cast<engine::Algorithm>(keepCompare.toInt()))));
  }
  if (!replaced.isEmpty()) {
    emit statusMessage(QStringLiteral("%1 does not evaluate %2 queries: %3")
                           .arg(replaced.size() == 1 ? QStringLiteral("That path") : QStringLiteral("Those paths"),
                                QString::fromLatin1(engine::operatorName(op)).toUpper(),
                                replaced.join(QStringLiteral(", "))));
  }
}

QueryParams ExplorePage::currentParams() const {
  QueryParams p;
  p.text = m_query->text();
  p.op = static_cast<engine::Operator>(m_operator->currentData().toInt());
  p.k = static_cast<std::size_t>(m_k->value());
  p.algorithm = static_cast<engine::Algorithm>(m_algorithm->currentData().toInt());
  p.options = m_switches->options();
  p.simd = SimdSelector::requested();
  const int compare = m_compare->currentData().toInt();
  if (compare >= 0) p.compare = static_cast<engine::Algorithm>(compare);
  return p;
}

void ExplorePage::setQueryText(const QString& text) {
  m_query->setText(text);
  onControlsChanged(true);
}

void ExplorePage::setOperator(engine::Operator op) {
  m_operator->setCurrentIndex(m_operator->findData(static_cast<int>(op)));
}

void ExplorePage::setAlgorithm(engine::Algorithm algorithm) {
  const int i = m_algorithm->findData(static_cast<int>(algorithm));
  if (i >= 0) m_algorithm->setCurrentIndex(i);
}

void ExplorePage::setCompareAlgorithm(std::optional<engine::Algorithm> algorithm) {
  const int i = m_compare->findData(algorithm ? static_cast<int>(*algorithm) : -1);
  if (i >= 0) m_compare->setCurrentIndex(i);
}

void ExplorePage::setK(int k) { m_k->setValue(k); }

void ExplorePage::onControlsChanged(bool immediate) {
  if (m_updatingControls) return;
  if (immediate) {
    m_context.query->submit(currentParams());
  } else {
    m_context.query->setParams(currentParams());
  }
}

void ExplorePage::onIndexChanged(const IndexHandlePtr& handle) {
  m_context.query->setIndex(handle);
  if (handle && m_notice->kind() == widgets::NoticeBar::Kind::Information) m_notice->hideNotice();
}

void ExplorePage::onDefaultDataset(const DefaultDatasetInfo& info) {
  m_samplesMenu->clear();
  QMenu* sub = nullptr;
  QString current;
  for (const auto& [set, text] : info.sampleQueries) {
    if (set != current || !sub) {
      current = set;
      sub = m_samplesMenu->addMenu(set);
    }
    auto* a = sub->addAction(text);
    // A copy, not the binding: clang before 16 cannot capture a structured binding (C++20 allows it).
    connect(a, &QAction::triggered, this, [this, query = text] { setQueryText(query); });
  }
  m_samples->setEnabled(!info.sampleQueries.isEmpty());
}

void ExplorePage::onSearching(bool searching) {
  SimdSelector::setQueryInFlight(searching);
  m_searching->setText(searching ? QStringLiteral("<i>searching\u2026</i>") : QString());
}

void ExplorePage::onResults(const widgets::SearchSnapshotPtr& snapshot) {
  if (m_notice->kind() == widgets::NoticeBar::Kind::Error || m_notice->kind() == widgets::NoticeBar::Kind::Information) {
    m_notice->hideNotice();
  }
  const int keepRow = m_results->currentIndex().isValid() ? m_results->currentIndex().row() : 0;
  m_shown = snapshot;
  m_traceAction->setEnabled(true);
  m_resultModel->setSnapshot(snapshot);
  m_counterModel->setSnapshot(snapshot);
  m_termModel->setQuery(snapshot->query);
  m_analysis->setText(QStringLiteral("<small>%1</small>")
                          .arg(QString::fromStdString(engine::describeAnalysis(snapshot->query)).toHtmlEscaped()));
  updateSummary(snapshot);
  if (m_resultModel->rowCount() > 0) {
    const int row = std::min(keepRow, m_resultModel->rowCount() - 1);
    m_results->setCurrentIndex(m_resultModel->index(row, 0));
  } else {
    m_explainModel->clear();
    m_explainHeader->setText(QStringLiteral("<i>No results: nothing to explain.</i>"));
  }
  if (m_screenshotPending) {
    m_screenshotPending = false;
    QTimer::singleShot(300, this, &Page::screenshotReady);
  }
}

void ExplorePage::onFailed(quint64, const QString& message) {
  m_shown.reset();
  m_traceAction->setEnabled(false);
  m_resultModel->setSnapshot(nullptr);
  m_counterModel->setSnapshot(nullptr);
  m_termModel->clear();
  m_analysis->clear();
  m_explainModel->clear();
  updateSummary(nullptr);
  m_notice->showNotice(widgets::NoticeBar::Kind::Error, message);
  emit errorOccurred(message);
  if (m_screenshotPending) {
    m_screenshotPending = false;
    emit screenshotReady();
  }
}

QString ExplorePage::analysisText() const { return m_analysis->text(); }

void ExplorePage::onCleared() {
  m_shown.reset();
  m_traceAction->setEnabled(false);
  m_resultModel->setSnapshot(nullptr);
  m_counterModel->setSnapshot(nullptr);
  m_termModel->clear();
  m_analysis->clear();
  m_explainModel->clear();
  updateSummary(nullptr);
  m_explainHeader->setText(QStringLiteral("<i>Select a result to see why it scored what it did.</i>"));
  if (!m_context.query->index()) {
    m_notice->showNotice(widgets::NoticeBar::Kind::Information,
                         QStringLiteral("No index is open. Open or build one on the Index page, then type a query."),
                         QStringLiteral("Go to the Index page"));
  } else if (m_notice->kind() != widgets::NoticeBar::Kind::Positive) {
    m_notice->hideNotice();
  }
}

void ExplorePage::updateSummary(const widgets::SearchSnapshotPtr& snapshot) {
  const QString simdTarget = snapshot ? snapshot->simdTarget : QString();
  auto fill = [&simdTarget](const QList<QLabel*>& labels, const widgets::AlgorithmRun* run) {
    if (!run) {
      for (auto* l : labels) l->clear();
      return;
    }
    const QLocale locale;
    labels[0]->setText(QStringLiteral("<b>%1</b>").arg(QString::fromLatin1(engine::algorithmName(run->taken))));
    // A single run is mostly cold caches: the worker reports the median of warm repeats when the
    // query is quick enough to repeat (QueryWorker), and the label says which it was.
    labels[1]->setText(formatMs(run->wallMs) +
                       QStringLiteral(" <span style='color:gray'>(%1)</span>")
                           .arg(run->timedRuns > 0 ? QStringLiteral("median of %1").arg(run->timedRuns)
                                                   : QStringLiteral("one cold run")));
    labels[2]->setText(formatMs(run->cpuMs) + QStringLiteral(" \u00b7 ") + simdTarget);
    labels[3]->setText(locale.toString(static_cast<qulonglong>(run->counters.postingsDecoded)));
    labels[4]->setText(locale.toString(static_cast<qulonglong>(run->hits.size())));
    labels[5]->setText(std::isnan(run->kthScore) ? QStringLiteral("\u2013")
                                                 : QString::number(static_cast<double>(run->kthScore), 'f', 7) +
                                                       (run->tieAtK ? QStringLiteral(" (tie)") : QString()));
    labels[6]->setText(run->reason.toHtmlEscaped());
    labels[6]->setToolTip(widgets::metricDescription(u"path") + QStringLiteral("\n\n") + run->reason);
  };
  fill(m_summaryA, snapshot ? &snapshot->primary : nullptr);
  const QString cpuTip = widgets::metricDescription(u"cpu_ms") +
                         QStringLiteral("\n\nThe SIMD target the kernels ran on: %1 (the SIMD selector).")
                             .arg(simdTarget.isEmpty() ? QStringLiteral("\u2013") : simdTarget);
  m_summaryA[2]->setToolTip(cpuTip);
  m_summaryB[2]->setToolTip(cpuTip);
  const bool compared = snapshot && snapshot->compare;
  fill(m_summaryB, compared ? &*snapshot->compare : nullptr);
  m_rowLabelB->setVisible(compared);
  for (auto* l : m_summaryB) l->setVisible(compared);
  if (!compared) {
    m_identity->clear();
    m_identity->setVisible(false);
    return;
  }
  m_identity->setVisible(true);
  const int diff = snapshot->firstDifference();
  if (diff < 0) {
    m_identity->setText(QStringLiteral("<span style='background:#2e9e4f; color:white; padding:4px;'>"
                                       "&nbsp;\u2713 results identical (doc ids and score bits)&nbsp;</span>"));
  } else {
    m_identity->setText(QStringLiteral("<span style='background:#d83a3a; color:white; padding:4px;'>"
                                       "&nbsp;\u2717 results differ from rank %1&nbsp;</span>")
                            .arg(diff + 1));
  }
}

void ExplorePage::resizeResultColumns() {
  using C = widgets::ResultTableModel::Column;
  auto* header = m_results->horizontalHeader();
  const QFontMetrics fm(m_results->font());
  const auto setWidth = [&](C c, int w) {
    const int col = m_resultModel->column(c);
    if (col >= 0) header->resizeSection(col, w);
  };
  const int digits = fm.horizontalAdvance(QStringLiteral("0000000000")) ;
  // Headers name the algorithm ("Doc (block-max-and)"): wide enough for the longest name.
  QString longest;
  for (const engine::Algorithm a : engine::allAlgorithms()) {
    const QString name = QString::fromLatin1(engine::algorithmName(a));
    if (fm.horizontalAdvance(name) > fm.horizontalAdvance(longest)) longest = name;
  }
  // "A: " too: both paths the same, the headers say which is which (SearchSnapshot::pathLabels).
  const auto titled = [&](const char* title) {
    return fm.horizontalAdvance(QStringLiteral("%1 (A: %2)").arg(QLatin1String(title), longest)) + 16;
  };
  setWidth(C::Rank, fm.horizontalAdvance(QStringLiteral("Rank")) + 18);
  setWidth(C::Doc, std::max(titled("Doc"), digits));
  setWidth(C::Score, titled("Score"));
  setWidth(C::CompareDoc, std::max(titled("Doc"), digits));
  setWidth(C::CompareScore, titled("Score"));
  setWidth(C::Match, fm.horizontalAdvance(QStringLiteral("Match")) + 18);
  setWidth(C::Title, fm.horizontalAdvance(QLatin1Char('x')) * 28);
}

void ExplorePage::onResultSelected() {
  const int row = m_results->currentIndex().isValid() ? m_results->currentIndex().row() : -1;
  const auto& snapshot = m_resultModel->snapshot();
  m_explainModel->setResult(snapshot, row);
  const widgets::HitRow* hit = m_explainModel->hit();
  if (!hit) {
    m_explainHeader->setText(QStringLiteral("<i>Select a result to see why it scored what it did.</i>"));
    return;
  }
  const bool equal = m_explainModel->sumMatchesScore();
  m_explainHeader->setText(
      QStringLiteral("Rank %1 \u00b7 doc <b>%2</b> (internal %3) \u00b7 length %4 \u00b7 score %5 = "
                     "\u03a3 contributions %6")
          .arg(row + 1)
          .arg(hit->externalId.toHtmlEscaped())
          .arg(hit->doc)
          .arg(hit->explain.docLength)
          .arg(QString::number(static_cast<double>(hit->score), 'f', 7),
               equal ? QStringLiteral("<span style='color:#2e9e4f'>\u2713 same bits</span>")
                     : QStringLiteral("<span style='color:#d83a3a'>\u2717 differs</span>")));
  m_explainHeader->setToolTip(QStringLiteral("BM25 with k1 = %1, b = %2 over %3 documents. %4")
                                  .arg(static_cast<double>(snapshot->bm25.k1))
                                  .arg(static_cast<double>(snapshot->bm25.b))
                                  .arg(QLocale().toString(static_cast<qulonglong>(snapshot->docs)),
                                       widgets::metricDescription(u"contribution")));
}

QString ExplorePage::cpuSummaryText() const { return m_summaryA[2]->text(); }

void ExplorePage::saveSettings(QSettings& s) const {
  const QueryParams p = currentParams();
  SimdSelector::saveSettings(s);
  s.setValue(QStringLiteral("query"), p.text);
  s.setValue(QStringLiteral("operator"), QString::fromLatin1(engine::operatorName(p.op)));
  s.setValue(QStringLiteral("algorithm"), QString::fromLatin1(engine::algorithmName(p.algorithm)));
  s.setValue(QStringLiteral("compare"),
             p.compare ? QString::fromLatin1(engine::algorithmName(*p.compare)) : QString());
  s.setValue(QStringLiteral("k"), m_k->value());
  s.setValue(QStringLiteral("switches"), QString::fromStdString(p.options.toString()));
  s.setValue(QStringLiteral("hideZeros"), m_hideZeros->isChecked());
  s.setValue(QStringLiteral("splitter"), m_vertical->saveState());
  s.setValue(QStringLiteral("bottomSplitter"), m_bottom->saveState());
}

void ExplorePage::restoreSettings(QSettings& s) {
  m_updatingControls = true;
  try {
    const QString op = s.value(QStringLiteral("operator")).toString();
    if (!op.isEmpty()) setOperator(engine::parseOperator(op.toStdString()));
    fillAlgorithms();
    m_updatingControls = true;
    const QString algo = s.value(QStringLiteral("algorithm")).toString();
    if (!algo.isEmpty()) setAlgorithm(engine::parseAlgorithm(algo.toStdString()));
    const QString compare = s.value(QStringLiteral("compare")).toString();
    setCompareAlgorithm(compare.isEmpty() ? std::nullopt : std::optional(engine::parseAlgorithm(compare.toStdString())));
    engine::SearchOptions options;
    options.apply(s.value(QStringLiteral("switches")).toString().toStdString());
    m_switches->setOptions(options);
  } catch (const std::exception&) {
    // Settings from another version: keep the defaults.
  }
  m_k->setValue(s.value(QStringLiteral("k"), 10).toInt());
  m_hideZeros->setChecked(s.value(QStringLiteral("hideZeros"), true).toBool());
  m_vertical->restoreState(s.value(QStringLiteral("splitter")).toByteArray());
  m_bottom->restoreState(s.value(QStringLiteral("bottomSplitter")).toByteArray());
  m_query->setText(s.value(QStringLiteral("query")).toString());
  SimdSelector::restoreSettings(s);  // process-wide; the Load page saves the same value
  m_updatingControls = false;
  onControlsChanged(true);
}

void ExplorePage::prepareScreenshot() {
  if (!m_context.query->index()) {
    emit screenshotReady();
    return;
  }
  // A query from the default's query sets (three mid-df terms shows pruning well), compared with
  // the exhaustive reference.
  QString text;
  const auto& samples = m_context.index->defaultDataset().sampleQueries;
  for (const auto& [set, q] : samples) {
    if (set == QLatin1String("mid-df-3")) {
      text = q;
      break;
    }
  }
  if (text.isEmpty() && !samples.isEmpty()) text = samples.front().second;
  if (text.isEmpty()) text = m_query->text();
  m_screenshotPending = true;
  m_updatingControls = true;
  setOperator(engine::Operator::Or);
  fillAlgorithms();
  m_updatingControls = true;
  setAlgorithm(engine::Algorithm::Auto);
  setCompareAlgorithm(engine::Algorithm::Exhaustive);
  m_query->setText(text);
  m_updatingControls = false;
  m_context.query->submit(currentParams());
}

}  // namespace wandscope::app
