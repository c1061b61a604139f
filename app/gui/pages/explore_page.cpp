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
#include "widgets/views/decimal_delegate.h"
#include "widgets/views/snippet_delegate.h"

#include <QAction>
#include <QApplication>
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
#include <QTabBar>
#include <QTextDocumentFragment>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>
#include <optional>

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

// Why a query returned nothing, in words: the table alone is just empty, and a forced path's
// reason ("forced") says nothing about it.
QString noResultsText(const widgets::SearchSnapshot& s) {
  const engine::ParsedQuery& q = s.query;
  const auto quoted = [](const std::string& term) {
    return QStringLiteral("'%1'").arg(QString::fromStdString(term));
  };
  if (q.terms.empty()) {
    if (q.analysis.stopWords > 0 && q.analysis.overlongTokens == 0) {
      return QStringLiteral("No results: every word of the query is a stop word (%1), and stop words are not "
                            "searched.")
          .arg(QString::fromStdString(engine::describeAnalysis(q)));
    }
    return QStringLiteral("No results: the query has no searchable word (%1).")
        .arg(QString::fromStdString(engine::describeAnalysis(q)));
  }
  QStringList unknown;
  for (const auto& t : q.terms) {
    if (!t.id) unknown << quoted(t.text);
  }
  const auto list = [](const QStringList& items) {
    return items.size() <= 4 ? items.join(QStringLiteral(", "))
                             : QStringLiteral("%1 and %2 more")
                                   .arg(items.mid(0, 4).join(QStringLiteral(", ")), QString::number(items.size() - 4));
  };
  if (unknown.size() == static_cast<int>(q.terms.size())) {
    return unknown.size() == 1 ? QStringLiteral("No results: %1 is not in the index.").arg(unknown.front())
                               : QStringLiteral("No results: no query term is in the index (%1).").arg(list(unknown));
  }
  if (s.op == engine::Operator::And && !unknown.isEmpty()) {
    return QStringLiteral("No results: %1 %2 not in the index, and AND needs every term in a document.")
        .arg(list(unknown), unknown.size() == 1 ? QStringLiteral("is") : QStringLiteral("are"));
  }
  if (s.op == engine::Operator::And) return QStringLiteral("No results: no document holds every term (AND).");
  return QStringLiteral("No results: no document matches.");
}

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
  connect(q, &QueryController::searchStarted, this, &ExplorePage::onSearchStarted);
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
  m_searching = new QLabel(this);
  m_searching->setTextFormat(Qt::RichText);
  m_searching->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  // The room the controls leave, never more: its text must not widen the window.
  m_searching->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  m_searching->setToolTip(QStringLiteral("A search is running on the query worker thread, for this long so far. "
                                         "What is shown greyed below is the previous query's until its results "
                                         "arrive."));
  row2->addWidget(m_searching, 1);
  layout->addLayout(row2);
  m_searchTimer = new QTimer(this);
  connect(m_searchTimer, &QTimer::timeout, this, &ExplorePage::onSearchTick);

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
  m_summary = summary;
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
  // Hidden while a slow search runs (its colours do not grey), keeping its room.
  QSizePolicy identityPolicy = m_identity->sizePolicy();
  identityPolicy.setRetainSizeWhenHidden(true);
  m_identity->setSizePolicy(identityPolicy);
  m_identity->setToolTip(QStringLiteral("Whether the compared path returned exactly the primary's top-k: the "
                                        "same document ids in the same order with the same f32 score bits."));
  m_summaryGrid->addWidget(m_identity, 1, col, 2, 1, Qt::AlignVCenter | Qt::AlignRight);
  layout->addWidget(summary);

  m_vertical = new QSplitter(Qt::Vertical, this);
  // Results.
  m_resultModel = new widgets::ResultTableModel(this);
  m_results = makeTable(m_resultModel, m_vertical);
  m_results->setItemDelegate(new widgets::SnippetDelegate(widgets::ResultTableModel::HighlightsRole, m_results));
  // The score columns (which shift with the comparison's: resizeResultColumns places it) line up
  // on the decimal point.
  m_scoreDelegate = new widgets::DecimalDelegate(m_results);
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
  m_terms->setObjectName(QStringLiteral("terms"));
  // The figures whole, the term's text taking what is left (elided if need be, whole in its
  // tooltip): with every column sized to its contents and the last stretched, a narrow panel cut
  // the blocks column, and 157 blocks read "15".
  m_terms->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  m_terms->horizontalHeader()->setSectionResizeMode(widgets::TermTableModel::TermColumn, QHeaderView::Stretch);
  m_terms->horizontalHeader()->setStretchLastSection(false);
  m_terms->setTextElideMode(Qt::ElideMiddle);
  // idf and max score line up on the decimal point (formatFigure's decimals vary).
  auto* termFigures = new widgets::DecimalDelegate(m_terms);
  m_terms->setItemDelegateForColumn(widgets::TermTableModel::IdfColumn, termFigures);
  m_terms->setItemDelegateForColumn(widgets::TermTableModel::MaxScoreColumn, termFigures);
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
  m_explain->setObjectName(QStringLiteral("explain"));
  // As the terms' table: the figures whole (the share's "%" was cut), the term's text gives way.
  m_explain->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  m_explain->horizontalHeader()->setSectionResizeMode(widgets::ExplainTableModel::TermColumn, QHeaderView::Stretch);
  m_explain->horizontalHeader()->setStretchLastSection(false);
  m_explain->setTextElideMode(Qt::ElideMiddle);
  // idf, W and the contributions (the sum row too) line up on the decimal point.
  auto* explainFigures = new widgets::DecimalDelegate(m_explain);
  for (const int c : {widgets::ExplainTableModel::IdfColumn, widgets::ExplainTableModel::WeightColumn,
                      widgets::ExplainTableModel::ContributionColumn}) {
    m_explain->setItemDelegateForColumn(c, explainFigures);
  }
  explainBox->layout()->addWidget(m_explainHeader);
  explainBox->layout()->addWidget(m_explain);
  m_presentTerms = new QCheckBox(QStringLiteral("Only terms in this document"), explainBox);
  m_presentTerms->setToolTip(QStringLiteral("List only the query terms the selected document holds (tf > 0). The "
                                            "\u03a3 row still adds every term's contribution. On by itself for a "
                                            "query of more than %1 terms.")
                                 .arg(kPresentTermsAbove));
  connect(m_presentTerms, &QCheckBox::toggled, this, [this](bool on) {
    m_explainModel->setOnlyPresentTerms(on);
    onResultSelected();  // the box's counts
  });
  explainBox->layout()->addWidget(m_presentTerms);
  m_bottom->addWidget(explainBox);
  m_bottom->setSizes({360, 400, 480});
  m_vertical->addWidget(m_bottom);
  m_vertical->setStretchFactor(0, 5);
  m_vertical->setStretchFactor(1, 4);
  layout->addWidget(m_vertical, 1);
}

void ExplorePage::showEvent(QShowEvent* event) {
  Page::showEvent(event);
  // Ready to type: started on this page, the window gave the focus to the log panel's filter.
  // Focus already inside the page stays, and so does the tab bar's (arrow keys walk the tabs).
  QWidget* focus = window()->focusWidget();  // the window's focus child, also before it is active
  if (focus && (isAncestorOf(focus) || qobject_cast<QTabBar*>(focus))) return;
  m_query->setFocus(Qt::OtherFocusReason);
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
  if (searching) return;  // onSearchStarted starts the clock
  m_searchTimer->stop();
  m_searching->clear();
  setStale(false);
}

void ExplorePage::onSearchStarted() {
  // The time since the newest request: a search sent while another runs waits for it (a search
  // cannot be interrupted), and that wait is part of what the user waits for.
  m_searchClock.start();
  if (m_stale) {
    onSearchTick();
  } else {
    // Nothing changes for a search quicker than this: no flicker while typing.
    m_searchTimer->start(kStaleAfterMs);
  }
}

void ExplorePage::onSearchTick() {
  if (!m_context.query->isSearching()) {
    m_searchTimer->stop();
    return;
  }
  setStale(true);
  if (m_searchTimer->interval() != kSearchTickMs || !m_searchTimer->isActive()) m_searchTimer->start(kSearchTickMs);
  const double seconds = static_cast<double>(m_searchClock.elapsed()) / 1000.0;
  m_searching->setText(QStringLiteral("<span style='background:#f2c14e; color:black;'>&nbsp;<b>searching\u2026 %1 s</b>"
                                      "&nbsp;</span>%2")
                           .arg(QLocale().toString(seconds, 'f', 1),
                                m_shown ? QStringLiteral("&nbsp; the results shown are the previous query's") : QString()));
}

void ExplorePage::setStale(bool stale) {
  if (stale == m_stale) return;
  m_stale = stale;
  if (stale) {
    // Disabling takes the keyboard focus from a table inside: it comes back with the results.
    QWidget* focus = QApplication::focusWidget();
    m_focusBeforeStale = focus && (m_vertical->isAncestorOf(focus) || m_summary->isAncestorOf(focus)) ? focus : nullptr;
  }
  // Greyed, not hidden: the previous query's figures stay readable, and nothing jumps.
  m_summary->setEnabled(!stale);
  m_vertical->setEnabled(!stale);
  m_identity->setVisible(!stale && m_shown && m_shown->compare);
  if (!stale && m_focusBeforeStale && !QApplication::focusWidget()) m_focusBeforeStale->setFocus(Qt::OtherFocusReason);
  if (!stale) m_focusBeforeStale.clear();
}

QString ExplorePage::searchStatusText() const {
  return QTextDocumentFragment::fromHtml(m_searching->text()).toPlainText().simplified();  // no &nbsp; padding
}

void ExplorePage::onResults(const widgets::SearchSnapshotPtr& snapshot) {
  if (m_notice->kind() == widgets::NoticeBar::Kind::Error || m_notice->kind() == widgets::NoticeBar::Kind::Information) {
    m_notice->hideNotice();
  }
  const int keepRow = m_results->currentIndex().isValid() ? m_results->currentIndex().row() : 0;
  // A long query buries its few terms a document holds among the absent ones: list only those.
  const bool longQuery = snapshot->query.terms.size() > static_cast<std::size_t>(kPresentTermsAbove);
  if (m_presentTermsAuto != longQuery) {
    m_presentTermsAuto = longQuery;
    m_presentTerms->setChecked(longQuery);
  }
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
    // Said where the results would be (the notice above them) and kept in the explain panel.
    const QString why = noResultsText(*snapshot);
    m_explainModel->clear();
    m_explainHeader->setText(QStringLiteral("<i>%1</i>").arg(why.toHtmlEscaped()));
    m_notice->showNotice(widgets::NoticeBar::Kind::Information, why);
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
  // Never the last result's explain under an error: it would read as this query's.
  m_explainHeader->setText(QStringLiteral("<i>The query failed: nothing to explain.</i>"));
  updateSummary(nullptr);
  m_notice->showNotice(widgets::NoticeBar::Kind::Error, message);
  emit errorOccurred(message);
  if (m_screenshotPending) {
    m_screenshotPending = false;
    emit screenshotReady();
  }
}

QString ExplorePage::analysisText() const { return m_analysis->text(); }

QString ExplorePage::explainHeaderText() const { return m_explainHeader->text(); }

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
  // A warning about the saved settings stays until it is closed (an empty query box clears here).
  const bool warning = m_notice->kind() == widgets::NoticeBar::Kind::Warning && !m_notice->isHidden();
  if (!m_context.query->index()) {
    if (warning) return;
    m_notice->showNotice(widgets::NoticeBar::Kind::Information,
                         QStringLiteral("No index is open. Open or build one on the Index page, then type a query."),
                         QStringLiteral("Go to the Index page"));
  } else if (!warning && m_notice->kind() != widgets::NoticeBar::Kind::Positive) {
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
                                                 : widgets::formatFigure(run->kthScore) +
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
  QFont mono = m_results->font();  // the scores' font (ResultTableModel's FontRole)
  mono.setFamily(QStringLiteral("monospace"));
  mono.setStyleHint(QFont::Monospace);
  constexpr int kPad = 18;
  // The snippet (the last column, stretched) gets what the others leave, so they are as narrow as
  // their headers and cells allow. Sized for the longest algorithm name whatever the headers said,
  // they left the snippet a quarter of the table at 1280 px with a comparison: a few words.
  // Floors (an 8-character id, a score of 1000 and more: an f32's nine digits at most) keep them
  // from jumping while typing.
  const int idFloor = fm.horizontalAdvance(QStringLiteral("d0000000")) + kPad;
  const int scoreFloor = QFontMetrics(mono).horizontalAdvance(QStringLiteral("0000.00000")) + kPad;
  // QTableView hides sizeHintForColumn(); QAbstractItemView's is public (the same virtual).
  const QAbstractItemView* view = m_results;
  // The scores' columns (where they are now) draw through the decimal-point delegate, the others
  // through the view's (the snippet's).
  for (int col = 0; col < m_resultModel->columnCount(); ++col) {
    const C kind = m_resultModel->columnKind(col);
    m_results->setItemDelegateForColumn(col, kind == C::Score || kind == C::CompareScore ? m_scoreDelegate : nullptr);
  }
  const auto fit = [&](C c, int floor) {
    const int col = m_resultModel->column(c);
    if (col < 0) return;
    header->resizeSection(col, std::max({header->sectionSizeHint(col), view->sizeHintForColumn(col), floor}));
  };
  fit(C::Rank, 0);
  fit(C::Doc, idFloor);
  fit(C::Score, scoreFloor);
  fit(C::CompareDoc, idFloor);
  fit(C::CompareScore, scoreFloor);
  fit(C::Match, 0);
  // Titles: up to 28 characters' room, the rest elided (the tooltip has it whole).
  const int title = m_resultModel->column(C::Title);
  if (title >= 0) {
    const int want = std::max(header->sectionSizeHint(title), view->sizeHintForColumn(title));
    header->resizeSection(title, std::min(want, fm.horizontalAdvance(QLatin1Char('x')) * 28));
  }
}

void ExplorePage::onResultSelected() {
  const int row = m_results->currentIndex().isValid() ? m_results->currentIndex().row() : -1;
  const auto& snapshot = m_resultModel->snapshot();
  m_explainModel->setResult(snapshot, row);
  const widgets::HitRow* hit = m_explainModel->hit();
  m_presentTerms->setText(hit ? QStringLiteral("Only terms in this document (%1 of %2)")
                                    .arg(QLocale().toString(m_explainModel->presentTermCount()),
                                         QLocale().toString(m_explainModel->termCount()))
                              : QStringLiteral("Only terms in this document"));
  if (!hit) {
    m_explainHeader->setText(QStringLiteral("<i>Select a result to see why it scored what it did.</i>"));
    return;
  }
  const bool equal = m_explainModel->sumMatchesScore();
  const QLocale locale;
  // One arg() call: an external id is corpus text, and a "%3" in it must stay as it is.
  m_explainHeader->setText(
      QStringLiteral("Rank %1 \u00b7 doc <b>%2</b> (internal %3) \u00b7 length %4 \u00b7 score %5 = "
                     "\u03a3 contributions %6")
          .arg(locale.toString(row + 1), hit->externalId.toHtmlEscaped(), QString::number(hit->doc),
               locale.toString(hit->explain.docLength) +
                   (hit->explain.docLength == 1 ? QStringLiteral(" token") : QStringLiteral(" tokens")),
               widgets::formatFigure(hit->score),
               equal ? QStringLiteral("<span style='color:#2e9e4f'>\u2713 same bits</span>")
                     : QStringLiteral("<span style='color:#d83a3a'>\u2717 differs</span>")));
  m_explainHeader->setToolTip(QStringLiteral("BM25 with k1 = %1, b = %2 over %3 documents. %4")
                                  .arg(static_cast<double>(snapshot->bm25.k1))
                                  .arg(static_cast<double>(snapshot->bm25.b))
                                  .arg(QLocale().toString(static_cast<qulonglong>(snapshot->docs)),
                                       widgets::metricDescription(u"contribution")));
}

QString ExplorePage::cpuSummaryText() const { return m_summaryA[2]->text(); }

QString ExplorePage::summaryText(const QString& key, bool compared) const {
  const QList<QLabel*>& labels = compared ? m_summaryB : m_summaryA;
  for (int i = 0; i < static_cast<int>(std::size(kSummaryKeys)); ++i) {
    if (key == QLatin1String(kSummaryKeys[i])) return QTextDocumentFragment::fromHtml(labels[i]->text()).toPlainText();
  }
  return {};
}

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
  // A saved value this version cannot use (another version's settings, a hand-edited file: an
  // unknown switch, an AND-only path saved with OR) keeps the default, and the page says so: it
  // was once dropped without a word, with every later value of the group.
  QStringList ignored;
  const auto setting = [&s](const char* key) { return s.value(QLatin1String(key)).toString().trimmed(); };
  const auto ignore = [&ignored](const QString& what, const QString& value, const QString& why) {
    ignored << QStringLiteral("%1 '%2' (%3)").arg(what, value, why);
  };
  const QString op = setting("operator");
  if (!op.isEmpty()) {
    try {
      setOperator(engine::parseOperator(op.toStdString()));
    } catch (const std::exception& e) {
      ignore(QStringLiteral("operator"), op, QString::fromUtf8(e.what()));
    }
  }
  fillAlgorithms();
  m_updatingControls = true;
  const auto currentOp = static_cast<engine::Operator>(m_operator->currentData().toInt());
  const QString opName = QString::fromLatin1(engine::operatorName(currentOp)).toUpper();
  // Some path for the current operator, or the reason it cannot be one.
  const auto path = [&](const char* what, const QString& name) -> std::optional<engine::Algorithm> {
    try {
      const engine::Algorithm a = engine::parseAlgorithm(name.toStdString());
      if (engine::algorithmSupports(a, currentOp)) return a;
      ignore(QString::fromLatin1(what), name, QStringLiteral("it does not evaluate %1 queries").arg(opName));
    } catch (const std::exception& e) {
      ignore(QString::fromLatin1(what), name, QString::fromUtf8(e.what()));
    }
    return std::nullopt;
  };
  const QString algo = setting("algorithm");
  if (!algo.isEmpty()) {
    if (const auto a = path("algorithm", algo)) setAlgorithm(*a);
  }
  const QString compare = setting("compare");
  setCompareAlgorithm(compare.isEmpty() ? std::nullopt : path("compare with", compare));
  const QString switches = setting("switches");
  engine::SearchOptions options;
  try {
    options.apply(switches.toStdString());
  } catch (const std::exception& e) {
    ignore(QStringLiteral("switches"), switches, QString::fromUtf8(e.what()));
    options = engine::SearchOptions{};  // all on, not half of the saved ones
  }
  m_switches->setOptions(options);
  // k: a number from 1 up; above what the page takes it is cut to that, and said (it once was
  // cut without a word).
  QStringList cut;
  const QString k = setting("k");
  int kValue = 10;
  if (!k.isEmpty()) {
    bool number = false;
    const qlonglong saved = k.toLongLong(&number);
    if (!number || saved < m_k->minimum()) {
      ignore(QStringLiteral("k"), k, QStringLiteral("not a number from %1 up").arg(m_k->minimum()));
    } else if (saved > m_k->maximum()) {
      kValue = m_k->maximum();
      cut << QStringLiteral("k %1 -> %2 (the most this page lists; wandscope-cli search takes more)")
                 .arg(QLocale().toString(saved), QLocale().toString(kValue));
    } else {
      kValue = static_cast<int>(saved);
    }
  }
  m_k->setValue(kValue);
  QStringList said;
  if (!ignored.isEmpty()) {
    said << QStringLiteral("Saved Explore settings not used, the defaults instead: %1.")
                .arg(ignored.join(QStringLiteral("; ")));
  }
  if (!cut.isEmpty()) {
    said << QStringLiteral("Saved Explore settings cut to what the page takes: %1.").arg(cut.join(QStringLiteral("; ")));
  }
  if (!said.isEmpty()) m_notice->showNotice(widgets::NoticeBar::Kind::Warning, said.join(QLatin1Char(' ')));
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
