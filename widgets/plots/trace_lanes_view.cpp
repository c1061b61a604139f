// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/trace_lanes_view.h"

#include "widgets/color_contrast.h"

#include "widgets/models/trace_narrative.h"

#include <QFontMetrics>
#include <QHelpEvent>
#include <QLineF>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QRegion>
#include <QToolTip>
#include <QVector>
#include <QWheelEvent>

#include <algorithm>
#include <vector>
#include <cmath>
#include <limits>

namespace wandscope::widgets {

using engine::DocId;
using engine::kNoMoreDocs;
using engine::TraceEvent;
using engine::TraceEventKind;
using engine::TraceReason;

namespace {

constexpr int kLabelWidth = 150;
constexpr int kRightMargin = 14;
constexpr int kHeaderHeight = 84;
// Compact: the title and the numbers on one line, the meter's two bars under it (a run without
// bounds has no meter: the line alone, kLineHeaderHeight).
constexpr int kCompactHeaderHeight = 46;
constexpr int kLineHeaderHeight = 22;
// A run without bounds, tall: the title and the threshold's line, no meter. Its meter held the
// threshold alone, a red line on an empty track over the doc-id axis that read as a document.
constexpr int kTextHeaderHeight = 46;
constexpr int kAxisHeight = 24;
constexpr int kLabelTop = 2;  // the lane label's first line, below the lane's top
constexpr int kMaxLaneHeight = 120;
// Postings this close to a cursor (in postings, each side) are drawn as "near the cursor".
constexpr std::ptrdiff_t kNearPostings = 3;

QColor laneColor(std::size_t t) {
  static const QColor colors[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x7a, 0x00), QColor(0x2c, 0xa0, 0x2c),
                                  QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b), QColor(0x17, 0xbe, 0xcf)};
  return colors[t % (sizeof colors / sizeof colors[0])];
}

const QColor kThreshold(0xd6, 0x27, 0x28);
const QColor kSkip(0x2e, 0x8b, 0x57);

// The labels' small print (lane statistics, block maxima, the cursor).
QFont smallFont(const QFont& base) {
  QFont small = base;
  small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.8));
  return small;
}

bool hasDoc(TraceEventKind k) {
  return k != TraceEventKind::QueryStart && k != TraceEventKind::QueryEnd && k != TraceEventKind::EssentialSplit &&
         k != TraceEventKind::ThresholdRaised;
}

}  // namespace

TraceLanesView::TraceLanesView(QWidget* parent) : QWidget(parent) {
  setAttribute(Qt::WA_OpaquePaintEvent);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  // A click takes the keyboard focus from the query box, so the Trace page's step keys work.
  setFocusPolicy(Qt::StrongFocus);
}

QSize TraceLanesView::minimumSizeHint() const {
  return {400, kCompactHeaderHeight + 2 * kMinLaneHeight + (m_showAxis ? kAxisHeight : 0)};
}

void TraceLanesView::setShowAxis(bool show) {
  if (show == m_showAxis) return;
  m_showAxis = show;
  updateGeometry();
  update();
}

void TraceLanesView::setRun(TraceSnapshotPtr snapshot, const TraceRun* run) {
  m_snapshot = std::move(snapshot);
  m_run = m_snapshot ? run : nullptr;
  m_step = 0;
  m_span = 0;
  m_manualFrom.reset();
  m_scoreScale = 0.0f;
  if (m_snapshot) {
    for (const auto& l : m_snapshot->lanes) m_scoreScale = std::max(m_scoreScale, l.listMax);
  }
  if (m_scoreScale <= 0.0f) m_scoreScale = 1.0f;
  m_hasBounds = false;
  if (m_run != nullptr) {
    m_hasBounds = std::any_of(m_run->events.begin(), m_run->events.end(), [](const TraceEvent& e) {
      return e.kind == TraceEventKind::PivotSelected || e.kind == TraceEventKind::BlockSkipped ||
             e.kind == TraceEventKind::WindowEntered || e.kind == TraceEventKind::WindowSkipped;
    });
  }
  updateGeometry();
  update();
}

void TraceLanesView::setTitle(const QString& title) {
  m_title = title;
  update();
}

void TraceLanesView::setStep(std::size_t step) {
  if (m_run == nullptr || m_run->events.empty()) return;
  step = std::min(step, m_run->events.size() - 1);
  if (step == m_step) return;
  m_step = step;
  if (m_manualFrom) {
    // A panned window stays while the step's document is in it; otherwise it re-centres there.
    const auto [from, to] = viewRange();
    const DocId focus = focusDoc();
    if (focus < from || focus >= to) setManualFrom(static_cast<long long>(focus) - zoomSpan() / 2);
  }
  update();
}

std::pair<DocId, DocId> TraceLanesView::extent() const {
  const std::uint64_t docs = m_snapshot ? std::max<std::uint64_t>(m_snapshot->docs, 1) : 1;
  std::uint64_t lo = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t hi = 0;
  if (m_snapshot) {
    for (const auto& lane : m_snapshot->lanes) {
      if (!lane.known || lane.blockLast.empty()) continue;
      lo = std::min<std::uint64_t>(lo, lane.postings.empty() ? lane.blockFirst(0) : lane.postings.front());
      hi = std::max<std::uint64_t>(hi, std::uint64_t{lane.blockLast.back()} + 1);
    }
  }
  if (lo >= hi) return {0, static_cast<DocId>(std::min<std::uint64_t>(docs, kNoMoreDocs))};
  if (hi - lo < kMinSpan) {
    hi = std::min<std::uint64_t>(std::max(hi, lo + kMinSpan), std::max<std::uint64_t>(docs, hi));
    lo = hi > kMinSpan ? std::min(lo, hi - kMinSpan) : 0;
  }
  return {static_cast<DocId>(lo), static_cast<DocId>(hi)};
}

DocId TraceLanesView::zoomSpan() const {
  const auto [lo, hi] = extent();
  const DocId width = hi - lo;
  if (m_span == 0) return width <= kFullViewDocs ? width : std::min(width, kDefaultSpan);
  return std::clamp(m_span, std::min(kMinSpan, width), width);
}

void TraceLanesView::setZoomSpan(DocId span) {
  const auto [lo, hi] = extent();
  const auto [from, to] = viewRange();
  const long long centre = (static_cast<long long>(from) + to) / 2;
  m_span = std::clamp(span, std::min(kMinSpan, hi - lo), hi - lo);
  if (m_manualFrom) setManualFrom(centre - zoomSpan() / 2);
  update();
  emit viewChanged();
}

void TraceLanesView::zoomIn() { setZoomSpan(std::max<DocId>(zoomSpan() / 2, 1)); }

void TraceLanesView::zoomOut() {
  setZoomSpan(static_cast<DocId>(std::min<std::uint64_t>(std::uint64_t{zoomSpan()} * 2, kNoMoreDocs - 1)));
}

void TraceLanesView::setManualFrom(long long from) {
  const auto [lo, hi] = extent();
  const long long last = static_cast<long long>(hi) - zoomSpan();
  m_manualFrom = static_cast<DocId>(std::clamp(from, static_cast<long long>(lo), std::max<long long>(lo, last)));
}

void TraceLanesView::panBy(long long docs) {
  if (!m_snapshot) return;
  if (m_span == 0) m_span = zoomSpan();  // panning leaves the fitted view at its span
  setManualFrom(static_cast<long long>(viewRange().first) + docs);
  update();
  emit viewChanged();
}

void TraceLanesView::fit() {
  m_span = 0;
  m_manualFrom.reset();
  update();
  emit viewChanged();
}

DocId TraceLanesView::focusDoc() const {
  if (m_run == nullptr || m_run->events.empty()) return 0;
  const TraceEvent& e = m_run->events[m_step];
  if (hasDoc(e.kind) && e.doc != kNoMoreDocs) return e.doc;
  DocId low = kNoMoreDocs;
  for (std::size_t t = 0; t < m_run->termCount(); ++t) low = std::min(low, m_run->position(m_step, t));
  return low == kNoMoreDocs ? 0 : low;
}

std::pair<DocId, DocId> TraceLanesView::viewRange() const {
  const auto [lo, hi] = extent();
  const std::uint64_t span = zoomSpan();
  std::uint64_t from = 0;
  if (m_manualFrom) {
    from = *m_manualFrom;
  } else if (span >= std::uint64_t{hi} - lo) {
    from = lo;
  } else {
    const std::uint64_t focus = std::clamp<std::uint64_t>(focusDoc(), lo, hi);
    from = focus > lo + span / 2 ? focus - span / 2 : lo;
    // Snap to a quarter span so stepping through nearby documents does not scroll every frame.
    from -= from % std::max<std::uint64_t>(span / 4, 1);
  }
  from = std::clamp<std::uint64_t>(from, lo, hi - span);
  return {static_cast<DocId>(from), static_cast<DocId>(from + span)};
}

int TraceLanesView::laneCount() const {
  return m_snapshot ? static_cast<int>(std::max<std::size_t>(m_snapshot->lanes.size(), 1)) : 1;
}

TraceLanesView::Geometry TraceLanesView::geometry() const {
  Geometry g;
  g.left = kLabelWidth;
  g.right = width() - kRightMargin;
  // The postings this far inside the lanes' frame: the first one's tick merged with the left
  // border when the view started on it.
  g.plotLeft = g.left + kPlotInset;
  g.plotRight = std::max(g.plotLeft + 1, g.right - kPlotInset);
  g.top = 0;
  g.axisTop = height() - (m_showAxis ? kAxisHeight : 0);
  // The full header when the lanes stay roomy under it; otherwise the compact one (a small
  // window with comparison on), which keeps the meter and puts the text on one line.
  const bool roomy = (g.axisTop - kHeaderHeight) / laneCount() >= kRoomyLaneHeight;
  g.compact = !roomy;
  if (m_hasBounds) {
    g.lanesTop = roomy ? kHeaderHeight : kCompactHeaderHeight;
  } else {
    g.lanesTop = roomy ? kTextHeaderHeight : kLineHeaderHeight;
  }
  g.laneHeight = std::min(kMaxLaneHeight, std::max(0, g.axisTop - g.lanesTop) / laneCount());
  return g;
}

bool TraceLanesView::compactHeader() const { return geometry().compact; }

QRect TraceLanesView::plotRect() const {
  const Geometry g = geometry();
  const int lanes = m_snapshot ? static_cast<int>(m_snapshot->lanes.size()) : 0;
  return QRect(g.left, g.lanesTop, g.right - g.left, std::max(0, lanes * g.laneHeight));
}

TraceLanesView::HeaderTexts TraceLanesView::headerTexts() const {
  HeaderTexts h;
  if (m_run == nullptr || m_run->events.empty()) return h;
  const bool compact = compactHeader();
  QFont bold = font();
  bold.setBold(true);
  const QString title = titleText();
  h.title = QRect(8, compact ? 2 : 4, width() - 16, compact ? 17 : 18);
  // The texts after the title, each 24 pixels after the one before.
  int x = h.title.left() + QFontMetrics(bold).horizontalAdvance(title) + 24;
  if (!cursorsWalked()) {
    // The longest wording that fits whole (it was elided to "window by window (shade..." beside a
    // long title); the tooltip says it all. In the compact header the threshold's line follows on
    // the same row: its first number keeps its room.
    const bool taat = m_run->algorithm == engine::Algorithm::Taat;
    h.whyToolTip = taat ? QStringLiteral("taat reads each list whole, term at a time, without walking one cursor "
                                         "per term: no cursor is drawn.")
                        : QStringLiteral("The bulk AND decodes the lists' blocks one window at a time and intersects "
                                         "them, without walking one cursor per term: no cursor is drawn. The shaded "
                                         "range is the current window.");
    const QStringList wordings = taat ? QStringList{QStringLiteral("no cursors: taat reads whole lists"),
                                                    QStringLiteral("no cursors")}
                                      : QStringList{QStringLiteral("no cursors: the bulk AND goes window by window "
                                                                   "(shaded)"),
                                                    QStringLiteral("no cursors: window by window (shaded)"),
                                                    QStringLiteral("no cursors")};
    const int reserve =
        compact ? fontMetrics().horizontalAdvance(QStringLiteral("Threshold (k-th score): 0.000")) + 24 : 0;
    const int room = h.title.right() - x;
    for (const QString& w : wordings) {
      const int advance = fontMetrics().horizontalAdvance(w) + 2;  // the advance is rounded
      if (advance <= room - reserve || (&w == &wordings.back() && advance <= room)) {
        h.whyText = w;
        h.why = QRect(x, h.title.top(), advance, h.title.height());
        x += advance + 24;
        break;
      }
    }
  }
  if (!compact) {
    h.line = QRect(8, 24, width() - 16, 18);
  } else if (const int room = width() - 8 - x; room > 40) {
    h.line = QRect(x, h.title.top(), room, h.title.height());
  }
  return h;
}

QString TraceLanesView::titleText() const {
  if (m_run == nullptr || m_run->events.empty()) return {};
  const TraceEvent& e = m_run->events[m_step];
  // Grouped as the page's step label and event list print them ("step 12,345 of 19,999").
  const QLocale english(QLocale::English);
  return QStringLiteral("%1   step %2 of %3   %4")
      .arg(m_title, english.toString(static_cast<qulonglong>(m_step)),
           english.toString(static_cast<qulonglong>(m_run->events.size() - 1)), traceKindLabel(e.kind, e.reason));
}

QRect TraceLanesView::meterRect() const {
  if (m_run == nullptr || m_run->events.empty() || !m_snapshot) return {};
  const Geometry g = geometry();
  // Two bars (upper bounds, block maxima) with the threshold's line across both; none for a run
  // without bounds, whose header says the threshold in words.
  if (!m_hasBounds) return {};
  if (g.compact) return QRect(g.left, 22, g.right - g.left, 21);
  return QRect(g.left, 48, g.right - g.left, 24);
}

long TraceLanesView::laneAt(int y, const Geometry& g) const {
  if (!m_snapshot || g.laneHeight <= 0 || y < g.lanesTop) return -1;
  const long lane = (y - g.lanesTop) / g.laneHeight;
  return lane < static_cast<long>(m_snapshot->lanes.size()) ? lane : -1;
}

QString TraceLanesView::formatMaximum(float score) { return formatScore(score); }

namespace {
// A lane's statistics as its label and tooltip print them: "df 1,057", "9 blocks".
QString dfText(const TraceLane& lane) {
  return QStringLiteral("df %1").arg(QLocale(QLocale::English).toString(static_cast<qulonglong>(lane.df)));
}
QString blocksText(const TraceLane& lane) {
  const std::size_t n = lane.blockLast.size();
  return QStringLiteral("%1 %2").arg(QLocale(QLocale::English).toString(static_cast<qulonglong>(n)),
                                     n == 1 ? QStringLiteral("block") : QStringLiteral("blocks"));
}
}  // namespace

QStringList TraceLanesView::laneLabel(std::size_t term) const {
  if (!m_snapshot || term >= m_snapshot->lanes.size()) return {};
  const TraceLane& lane = m_snapshot->lanes[term];
  const Geometry g = geometry();
  const int width = kLabelWidth - 12;
  QFont bold = font();
  bold.setBold(true);
  const QFontMetrics termMetrics(bold);
  const QFontMetrics small(smallFont(font()));
  QStringList lines{termMetrics.elidedText(lane.term, Qt::ElideRight, width)};
  QStringList stats;
  if (!lane.known) {
    stats << QStringLiteral("not in the index");
  } else {
    stats << QStringLiteral("list max %1").arg(formatMaximum(lane.listMax));
    const QString df = dfText(lane);
    const QString blocks = blocksText(lane);
    const QString both = df + QStringLiteral(", ") + blocks;
    if (small.horizontalAdvance(both) <= width) {
      stats << both;
    } else {
      stats << df << blocks;
    }
  }
  // Below the term's line, as many lines of small print as the lane has room for.
  const int room = g.laneHeight - kLabelTop - termMetrics.height();
  const int fit = std::max(0, room / std::max(1, small.height()));
  for (int i = 0; i < fit && i < stats.size(); ++i) lines << small.elidedText(stats[i], Qt::ElideRight, width);
  return lines;
}

QString TraceLanesView::laneToolTip(std::size_t term) const {
  if (!m_snapshot || term >= m_snapshot->lanes.size()) return {};
  const TraceLane& lane = m_snapshot->lanes[term];
  if (!lane.known) return QStringLiteral("'%1' is not in the index").arg(lane.term);
  return QStringLiteral("'%1': %2, %3, list max %4")
      .arg(lane.term, dfText(lane), blocksText(lane), formatMaximum(lane.listMax));
}

bool TraceLanesView::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const Geometry g = geometry();
    const long lane = help->pos().x() < g.left ? laneAt(help->pos().y(), g) : -1;
    const HeaderTexts header = headerTexts();
    if (lane >= 0) {
      QToolTip::showText(help->globalPos(), laneToolTip(static_cast<std::size_t>(lane)), this);
    } else if (header.why.contains(help->pos())) {
      QToolTip::showText(help->globalPos(), header.whyToolTip, this);
    } else {
      QToolTip::hideText();
      event->ignore();
    }
    return true;
  }
  return QWidget::event(event);
}

double TraceLanesView::xOf(DocId doc, const Geometry& g) const {
  const auto [from, to] = viewRange();
  const double frac = (static_cast<double>(doc) - from) / std::max<double>(1.0, static_cast<double>(to - from));
  return g.plotLeft + frac * (g.plotRight - g.plotLeft);
}

bool TraceLanesView::nonEssential(std::size_t term) const {
  const long split = latest({TraceEventKind::EssentialSplit});
  if (split < 0 || !m_snapshot || term >= m_snapshot->lanes.size()) return false;
  const TraceEvent& e = m_run->events[static_cast<std::size_t>(split)];
  const auto count = static_cast<std::size_t>(e.score);
  if (count == 0 || !m_snapshot->lanes[term].known) return false;
  // The event names the non-essential lists (docEnd, a term mask) for up to 32 terms: the windowed
  // bmm orders them by window maxima, which change from window to window.
  if (e.docEnd != 0) return term < 32 && ((e.docEnd >> term) & 1u) != 0;
  // No mask (over 31 terms) from the windowed bmm, whose order is by window maxima: not known here,
  // so nothing is hatched rather than the wrong lists.
  if (split > 0 && m_run->events[static_cast<std::size_t>(split) - 1].kind == TraceEventKind::WindowEntered) return false;
  // Beyond 31 terms, MaxScore's order: the `count` known lists with the smallest maxima, the longer
  // first on a tie.
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < m_snapshot->lanes.size(); ++i) {
    if (m_snapshot->lanes[i].known) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const auto& la = m_snapshot->lanes[a];
    const auto& lb = m_snapshot->lanes[b];
    return la.listMax < lb.listMax || (la.listMax == lb.listMax && la.df > lb.df);
  });
  for (std::size_t i = 0; i < count && i < order.size(); ++i) {
    if (order[i] == term) return true;
  }
  return false;
}

int TraceLanesView::docToX(DocId doc) const {
  const auto [from, to] = viewRange();
  if (doc == kNoMoreDocs || doc < from || doc >= to) return -1;
  return static_cast<int>(std::lround(xOf(doc, geometry())));
}

int TraceLanesView::cursorX(std::size_t term) const {
  if (m_run == nullptr || m_run->events.empty() || term >= m_run->termCount() || !cursorsWalked()) return -1;
  return docToX(m_run->position(m_step, term));
}

bool TraceLanesView::cursorLabelsShown() const {
  const Geometry g = geometry();
  return g.laneHeight >= 2 * QFontMetrics(smallFont(font())).height() + 4;
}

bool TraceLanesView::cursorsWalked() const {
  return m_run == nullptr || m_run->cursorsWalked;
}

long TraceLanesView::latest(std::initializer_list<TraceEventKind> kinds) const {
  if (m_run == nullptr) return -1;
  for (std::size_t i = m_step + 1; i-- > 0;) {
    for (auto k : kinds) {
      if (m_run->events[i].kind == k) return static_cast<long>(i);
    }
  }
  return -1;
}

void TraceLanesView::wheelEvent(QWheelEvent* event) {
  const int delta = event->angleDelta().y();
  if (!m_snapshot || delta == 0) return QWidget::wheelEvent(event);
  // Zoom around the doc under the mouse: it stays under the mouse.
  const Geometry g = geometry();
  const auto [from, to] = viewRange();
  const double frac = std::clamp((event->position().x() - g.plotLeft) / std::max(1, g.plotRight - g.plotLeft), 0.0, 1.0);
  const double anchor = from + frac * (to - from);
  if (delta > 0) {
    m_span = std::max<DocId>(zoomSpan() / 2, 1);
  } else {
    m_span = static_cast<DocId>(std::min<std::uint64_t>(std::uint64_t{zoomSpan()} * 2, kNoMoreDocs - 1));
  }
  const auto [lo, hi] = extent();
  m_span = std::clamp(m_span, std::min(kMinSpan, hi - lo), hi - lo);
  setManualFrom(std::llround(anchor - frac * zoomSpan()));
  update();
  emit viewChanged();
  event->accept();
}

void TraceLanesView::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton || !m_snapshot) return QWidget::mousePressEvent(event);
  m_dragFrom = event->position().toPoint();
  m_dragViewFrom = viewRange().first;
  setCursor(Qt::ClosedHandCursor);
  event->accept();
}

void TraceLanesView::mouseMoveEvent(QMouseEvent* event) {
  if (!m_dragFrom) return QWidget::mouseMoveEvent(event);
  const Geometry g = geometry();
  const double docsPerPixel = static_cast<double>(zoomSpan()) / std::max(1, g.plotRight - g.plotLeft);
  const long long moved = std::llround((m_dragFrom->x() - event->position().x()) * docsPerPixel);
  if (m_span == 0) m_span = zoomSpan();
  setManualFrom(static_cast<long long>(m_dragViewFrom) + moved);
  update();
  emit viewChanged();
  event->accept();
}

void TraceLanesView::mouseReleaseEvent(QMouseEvent* event) {
  if (!m_dragFrom) return QWidget::mouseReleaseEvent(event);
  m_dragFrom.reset();
  unsetCursor();
  event->accept();
}

void TraceLanesView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().color(QPalette::Base));
  p.setRenderHint(QPainter::Antialiasing, false);
  if (m_run == nullptr || m_run->events.empty() || !m_snapshot) {
    p.setPen(palette().color(QPalette::Disabled, QPalette::Text));
    p.drawText(rect(), Qt::AlignCenter, QStringLiteral("Pick a lesson or type a query and press Trace"));
    return;
  }
  const Geometry g = geometry();
  m_pendingLabels.clear();
  m_marks.clear();
  m_cursorLabels.clear();
  m_blockLabels.clear();
  for (std::size_t t = 0; t < m_snapshot->lanes.size(); ++t) paintLane(p, g, t);
  paintOverlays(p, g);
  paintBlockLabels(p, g);
  paintHeader(p, g);
  if (m_showAxis) paintAxis(p, g);
  if (hasFocus()) {
    // The step keys act on the page while the view has the focus: say so, quietly.
    p.setPen(QPen(palette().color(QPalette::Highlight), 1));
    p.setBrush(Qt::NoBrush);
    p.drawRect(rect().adjusted(0, 0, -1, -1));
  }
}

void TraceLanesView::paintHeader(QPainter& p, const Geometry& g) const {
  const TraceEvent& e = m_run->events[m_step];
  const QColor text = palette().color(QPalette::Text);
  const bool compact = g.compact;
  QFont bold = font();
  bold.setBold(true);
  p.setFont(bold);
  p.setPen(text);
  const HeaderTexts texts = headerTexts();
  const QString title = titleText();
  p.drawText(texts.title, Qt::AlignLeft | Qt::AlignVCenter,
             p.fontMetrics().elidedText(title, Qt::ElideRight, texts.title.width()));
  p.setFont(font());
  if (!texts.why.isEmpty()) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    // Whole: headerTexts() picked a wording that fits (eliding against the rounded advance cut
    // the last word of a text that fitted).
    p.drawText(texts.why, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextDontClip, texts.whyText);
    p.setPen(text);
  }

  // The bounds behind the latest decision: a pivot's upper-bound sum, a skip's block-max sum.
  float upper = std::numeric_limits<float>::quiet_NaN();
  float blockSum = std::numeric_limits<float>::quiet_NaN();
  const long pivot = latest({TraceEventKind::PivotSelected});
  if (pivot >= 0) upper = m_run->events[static_cast<std::size_t>(pivot)].bound;
  const long skip = latest({TraceEventKind::BlockSkipped, TraceEventKind::WindowEntered, TraceEventKind::WindowSkipped});
  if (skip >= 0 && m_run->events[static_cast<std::size_t>(skip)].reason != TraceReason::Empty) {
    blockSum = m_run->events[static_cast<std::size_t>(skip)].bound;
  }
  const float floor = e.floor;
  QString line = QStringLiteral("Threshold (k-th score): %1").arg(formatScore(floor));
  if (!std::isnan(upper)) line += QStringLiteral("     Upper bounds at pivot: %1").arg(formatScore(upper));
  if (!std::isnan(blockSum)) line += QStringLiteral("     Block maxima sum: %1").arg(formatScore(blockSum));
  const long table = latest({TraceEventKind::PruneTableBuilt});
  if (table >= 0) {
    const TraceEvent& t = m_run->events[static_cast<std::size_t>(table)];
    // The last bucket is "tf >= 63" (the block maximum): cut there, no frequency can compete.
    line += t.docEnd >= 63 ? QStringLiteral("     Prune table: no tf can compete (limit %1)").arg(formatScore(t.bound))
                           : QStringLiteral("     Prune table: tf <= %1 cannot compete (limit %2)")
                                 .arg(t.docEnd)
                                 .arg(formatScore(t.bound));
  }
  // Compact: after the title (and the why) on the same line, elided when the view is narrow.
  if (!texts.line.isEmpty()) {
    p.drawText(texts.line, Qt::AlignLeft | Qt::AlignVCenter,
               p.fontMetrics().elidedText(line, Qt::ElideRight, texts.line.width()));
  }

  const QRect meter = meterRect();
  if (meter.isEmpty()) return;
  // The meter: 0 .. sum of list maxima; bars for the bounds, a red line for the threshold.
  double total = 0;
  for (const auto& l : m_snapshot->lanes) total += l.listMax;
  total = std::max(total * 1.05, 1e-6);
  const int mx = meter.left(), mw = meter.width(), my = meter.top();
  const int mh = compact ? 9 : 10;
  const int gap = compact ? 3 : 4;
  p.setPen(Qt::NoPen);
  p.setBrush(palette().color(QPalette::AlternateBase));
  p.drawRect(mx, my, mw, 2 * mh + gap);
  // Compact: the bars' labels in small print, so two fit in the meter's height.
  const QFont labelFont = compact ? smallFont(font()) : font();
  auto bar = [&](float v, int y, const QColor& c, const QString& label) {
    if (std::isnan(v) || std::isinf(v)) return;
    const int w = static_cast<int>(mw * std::clamp(static_cast<double>(v) / total, 0.0, 1.0));
    p.setPen(Qt::NoPen);
    p.setBrush(c);
    p.drawRect(mx, y, w, mh);
    p.setPen(text);
    p.setFont(labelFont);
    const int lh = compact ? mh + gap : mh + 6;
    p.drawText(QRect(8, y + mh / 2 - lh / 2, kLabelWidth - 12, lh), Qt::AlignRight | Qt::AlignVCenter, label);
    p.setFont(font());
  };
  bar(upper, my, QColor(0x1f, 0x77, 0xb4, 170), QStringLiteral("upper bound sum"));
  bar(blockSum, my + mh + gap, QColor(0xff, 0x7f, 0x0e, 190), QStringLiteral("block-max sum"));
  if (!std::isinf(floor)) {
    const int x = mx + static_cast<int>(mw * std::clamp(static_cast<double>(floor) / total, 0.0, 1.0));
    p.setPen(QPen(kThreshold, 2));
    p.drawLine(x, my - (compact ? 2 : 3), x, my + 2 * mh + gap + (compact ? 1 : 3));
    if (compact) return;  // the line is labelled by the header's text; no room for a word under it
    // Right of the line, or left of it when that would run off the widget.
    const QString label = QStringLiteral("threshold");
    const int tw = p.fontMetrics().horizontalAdvance(label);
    const int tx = x + 4 + tw > width() - 4 ? x - 4 - tw : x + 4;
    p.drawText(QRect(tx, my + 2 * mh + 4, tw, 14), Qt::AlignLeft | Qt::AlignTop, label);
  }
}

void TraceLanesView::paintLane(QPainter& p, const Geometry& g, std::size_t t) const {
  const TraceLane& lane = m_snapshot->lanes[t];
  const int top = g.lanesTop + static_cast<int>(t) * g.laneHeight;
  const int base = top + g.laneHeight - 6;  // the bars' baseline
  // Room above the tallest bar for the cursor's marker (less in a short lane: its label has a box).
  const int headroom = g.laneHeight >= kRoomyLaneHeight ? 24 : 18;
  const double yScale = (g.laneHeight - headroom) / static_cast<double>(m_scoreScale);
  const QColor color = laneColor(t);
  const TraceEvent& e = m_run->events[m_step];
  const bool focused = e.term == static_cast<std::int32_t>(t);

  p.fillRect(QRect(0, top, width(), g.laneHeight),
             t % 2 ? palette().color(QPalette::AlternateBase) : palette().color(QPalette::Base));
  if (focused) p.fillRect(QRect(0, top, 4, g.laneHeight), color);
  // Label: the term, then as much small print as the lane's height has room for (laneLabel).
  const QStringList label = laneLabel(t);
  QFont bold = font();
  bold.setBold(true);
  p.setFont(bold);
  p.setPen(color.darker(120));
  const int termHeight = p.fontMetrics().height();
  // Kept in its lane: lanes shorter than a line (many terms, Compare on) drew each term over its
  // neighbours; hovering the label gives it whole (laneToolTip).
  p.save();
  p.setClipRect(QRect(0, top, kLabelWidth, g.laneHeight));
  p.drawText(QRect(8, top + kLabelTop, kLabelWidth - 12, termHeight), Qt::AlignLeft | Qt::AlignVCenter, label.value(0));
  p.restore();
  const QFont small = smallFont(font());
  p.setFont(small);
  p.setPen(palette().color(QPalette::Text));
  const int smallHeight = p.fontMetrics().height();
  for (int i = 1; i < label.size(); ++i) {
    p.drawText(QRect(8, top + kLabelTop + termHeight + (i - 1) * smallHeight, kLabelWidth - 12, smallHeight),
               Qt::AlignLeft | Qt::AlignVCenter, label[i]);
  }
  p.setFont(font());
  if (!lane.known) return;
  const bool roomy = g.laneHeight >= kRoomyLaneHeight;
  if (nonEssential(t)) {
    // MaxScore: this list cannot bring a candidate on its own any more; it is only probed.
    p.fillRect(QRect(g.left, top, g.right - g.left, g.laneHeight), QBrush(palette().color(QPalette::Mid), Qt::BDiagPattern));
    p.setPen(palette().color(QPalette::Text));
    const QString note = QStringLiteral("non-essential: only probed");
    p.drawText(QRect(g.right - 260, top + 2, 256, 16), Qt::AlignRight | Qt::AlignTop, note);
    const int nw = p.fontMetrics().horizontalAdvance(note);
    m_marks.push_back(QRectF(g.right - 4 - nw, top + 2, nw, 16));
  }

  const auto [from, to] = viewRange();
  p.save();
  p.setClipRect(QRect(g.left, top, g.right - g.left + 1, g.laneHeight));
  // Blocks: bars as tall as their block maximum, boundaries as ticks.
  const DocId cursor = m_run->position(m_step, t);
  const std::size_t cursorBlock = cursorsWalked() ? lane.blockOf(cursor) : lane.blockLast.size();
  std::size_t b = lane.blockOf(from);
  p.setFont(small);
  for (; b < lane.blockLast.size() && lane.blockFirst(b) < to; ++b) {
    const double x0 = xOf(lane.blockFirst(b), g), x1 = xOf(lane.blockLast[b] + 1, g);
    const int h = static_cast<int>(lane.blockMax[b] * yScale);
    QColor fill = color;
    fill.setAlpha(b == cursorBlock ? 90 : 40);
    p.setPen(Qt::NoPen);
    p.setBrush(fill);
    p.drawRect(QRectF(x0, base - h, x1 - x0, h));
    p.setPen(QPen(color.darker(140), 1));
    p.drawLine(QPointF(x0, base - h), QPointF(x1, base - h));  // the block max
    p.setPen(QPen(palette().color(QPalette::Mid), 1, Qt::DotLine));
    p.drawLine(QPointF(x0, top + 2), QPointF(x0, base));        // boundary
    // Values on wide blocks of roomy lanes (in short ones they would cover the cursor's label),
    // drawn after the overlays, clear of them (paintBlockLabels).
    if (roomy && x1 - x0 > 38) {
      m_pendingLabels.push_back(PendingLabel{t, b, formatMaximum(lane.blockMax[b]), x0, x1, base - h - 14,
                                             h >= 16 ? base - h + 2 : -1, top, color.darker(160)});
    }
  }
  // List maximum.
  const int ymax = base - static_cast<int>(lane.listMax * yScale);
  p.setPen(QPen(color.darker(150), 1, Qt::DashLine));
  p.drawLine(g.left, ymax, g.right, ymax);
  // Postings: ticks as tall as their score; the ones next to the cursor darker and thicker.
  const auto first = std::lower_bound(lane.postings.begin(), lane.postings.end(), from);
  const auto last = std::lower_bound(first, lane.postings.end(), to);
  const auto at = std::lower_bound(lane.postings.begin(), lane.postings.end(), cursor);
  // Batched into two drawLines() calls: one pen change per lane, not per posting.
  QVector<QLineF> far;
  QVector<QLineF> near;
  far.reserve(static_cast<qsizetype>(last - first));
  for (auto it = first; it != last; ++it) {
    const double x = xOf(*it, g);
    const auto i = static_cast<std::size_t>(it - lane.postings.begin());
    const int h = std::max(2, static_cast<int>(lane.postingScores[i] * yScale));
    const std::ptrdiff_t d = it - at;
    (cursorsWalked() && d >= -kNearPostings && d <= kNearPostings ? near : far).append(QLineF(x, base, x, base - h));
  }
  p.setPen(QPen(color.darker(110), 1));
  p.drawLines(far);
  p.setPen(QPen(color.darker(190), 3));
  p.drawLines(near);
  p.restore();
  // The cursor.
  p.setFont(small);
  if (!cursorsWalked()) {
    // No marker (the header says why).
  } else if (cursor == kNoMoreDocs) {
    const QRect box(g.right - 90, top + 2, 88, 14);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(box, Qt::AlignRight, QStringLiteral("exhausted"));
    m_marks.push_back(box);
    m_cursorLabels.push_back(box);
  } else if (cursor >= from && cursor < to) {
    const double x = xOf(cursor, g);
    p.setPen(QPen(palette().color(QPalette::Text), 2));
    p.drawLine(QPointF(x, top + 14), QPointF(x, base + 4));
    QPainterPath tri;
    tri.moveTo(x - 5, top + 6);
    tri.lineTo(x + 5, top + 6);
    tri.lineTo(x, top + 14);
    tri.closeSubpath();
    p.setRenderHint(QPainter::Antialiasing, true);
    p.fillPath(tri, palette().color(QPalette::Text));
    p.setRenderHint(QPainter::Antialiasing, false);
    m_marks.push_back(QRectF(x - 5, top + 6, 10, 8));
    m_marks.push_back(QRectF(x - 2, top + 14, 4, base + 4 - (top + 14)));
    const bool flip = x > g.right - 90;
    // On a light box: in a short lane it may cross a block's bar or the list maximum's line. Not in
    // a lane too short for it, where it covered the lanes below (the marker and the event list
    // still give the position).
    if (cursorLabelsShown()) {
      const QString where = QStringLiteral("cursor %1").arg(formatDoc(cursor));
      const int tw = p.fontMetrics().horizontalAdvance(where) + 4;
      const QRectF box(flip ? x - 7 - tw : x + 6, top + 1, tw, p.fontMetrics().height());
      QColor bg = palette().color(QPalette::Base);
      bg.setAlpha(200);
      p.fillRect(box, bg);
      p.drawText(box.adjusted(2, 0, -2, 0), (flip ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter, where);
      m_marks.push_back(box);
      m_cursorLabels.push_back(box);
    }
  }
  p.setFont(font());
  p.setPen(palette().color(QPalette::Mid));
  p.drawLine(g.left, base, g.right, base);
}

void TraceLanesView::paintOverlays(QPainter& p, const Geometry& g) const {
  const TraceEvent& e = m_run->events[m_step];
  const int top = g.lanesTop;
  const int bottom = g.lanesTop + g.laneHeight * static_cast<int>(m_snapshot->lanes.size());
  const auto [from, to] = viewRange();
  auto clampDoc = [&, lo = from, hi = to](DocId d) { return std::clamp<DocId>(d, lo, hi); };
  // A label on a box of the base colour, kept inside the plot; its colour made readable there
  // (the darker reds and greens below are for a light base).
  auto labelBox = [&](double x, int y, const QString& text, const QColor& color, bool alignRight = false) {
    const int w = p.fontMetrics().horizontalAdvance(text) + 8;
    const int h = p.fontMetrics().height() + 2;
    double left = alignRight ? x - w : x;
    left = std::clamp(left, static_cast<double>(g.left), static_cast<double>(g.right - w));
    QColor bg = palette().color(QPalette::Base);
    bg.setAlpha(225);
    p.fillRect(QRectF(left, y, w, h), bg);
    m_marks.push_back(QRectF(left, y, w, h));
    p.setPen(readableOn(color, palette().color(QPalette::Base)));
    p.drawText(QRectF(left + 4, y, w - 4, h), Qt::AlignLeft | Qt::AlignVCenter, text);
  };
  auto range = [&](DocId a, DocId bEnd, const QColor& fill, const QString& label) {
    const double x0 = xOf(clampDoc(a), g), x1 = xOf(clampDoc(bEnd), g);
    p.fillRect(QRectF(x0, top, std::max(2.0, x1 - x0), bottom - top), fill);
    QColor edge = fill;
    edge.setAlpha(255);
    p.setPen(QPen(edge.darker(130), 1));
    p.drawLine(QPointF(x0, top), QPointF(x0, bottom));
    p.drawLine(QPointF(x1, top), QPointF(x1, bottom));
    m_marks.push_back(QRectF(x0 - 1.5, top, 3, bottom - top));
    m_marks.push_back(QRectF(x1 - 1.5, top, 3, bottom - top));
    if (!label.isEmpty()) labelBox(x0 + 3, top + 18, label, edge.darker(170));
  };

  // Bulk AND / block-max AND: the current window, shaded with its bound.
  const long window = latest({TraceEventKind::WindowEntered, TraceEventKind::WindowSkipped});
  if (window >= 0) {
    const TraceEvent& w = m_run->events[static_cast<std::size_t>(window)];
    const bool current = static_cast<std::size_t>(window) == m_step || w.kind == TraceEventKind::WindowEntered;
    if (current) {
      QString label;
      QColor fill;
      if (w.kind == TraceEventKind::WindowEntered) {
        fill = QColor(0x1f, 0x77, 0xb4, 38);
        label = QStringLiteral("window, bound %1").arg(formatScore(w.bound));
        const long table = latest({TraceEventKind::PruneTableBuilt});
        if (table >= 0) {
          label += QStringLiteral(", cut-off tf <= %1").arg(m_run->events[static_cast<std::size_t>(table)].docEnd);
        }
      } else if (w.reason == TraceReason::Empty) {
        fill = QColor(0x90, 0x90, 0x90, 40);
        label = QStringLiteral("empty window");
      } else {
        fill = QColor(0x2e, 0x8b, 0x57, 50);
        label = QStringLiteral("window skipped: bound %1 <= threshold").arg(formatScore(w.bound));
      }
      range(w.doc, w.docEnd == kNoMoreDocs ? to : w.docEnd + 1, fill, label);
    }
  }
  // Skips: the range jumped over, with an arrow.
  if (e.kind == TraceEventKind::BlockSkipped || e.kind == TraceEventKind::WindowJumped) {
    const DocId end = e.docEnd == kNoMoreDocs ? to : e.docEnd;
    range(e.doc, end, QColor(0x2e, 0x8b, 0x57, 55), QString());
    const double x0 = xOf(clampDoc(e.doc), g), x1 = xOf(clampDoc(end), g);
    const double y = top + 8;
    // Along the first lane's top, where its cursor's label is: the arrow passes under the labels.
    QRegion around(rect());
    for (const QRectF& box : m_cursorLabels) around -= QRegion(box.toAlignedRect());
    p.save();
    p.setClipRegion(around);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(kSkip.darker(120), 2));
    p.drawLine(QPointF(x0, y), QPointF(x1, y));
    QPainterPath head;
    head.moveTo(x1, y);
    head.lineTo(x1 - 8, y - 5);
    head.lineTo(x1 - 8, y + 5);
    head.closeSubpath();
    p.fillPath(head, kSkip.darker(120));
    p.restore();
    m_marks.push_back(QRectF(x0, y - 5, x1 - x0, 10));
    labelBox(x0 + 4, top + 18 + p.fontMetrics().height() + 4,
             e.kind == TraceEventKind::WindowJumped ? QStringLiteral("jump to %1").arg(formatDoc(e.docEnd))
                                                     : QStringLiteral("skip to %1").arg(formatDoc(e.docEnd)),
             kSkip.darker(150));
  }
  // The event's document.
  if (hasDoc(e.kind) && e.kind != TraceEventKind::WindowEntered && e.kind != TraceEventKind::WindowSkipped &&
      e.doc >= from && e.doc < to) {
    const double x = xOf(e.doc, g);
    QColor c = kThreshold;
    QString label;
    switch (e.kind) {
      case TraceEventKind::PivotSelected: label = QStringLiteral("pivot"); break;
      case TraceEventKind::CandidateScored: label = QStringLiteral("scored %1").arg(formatScore(e.score)); break;
      case TraceEventKind::CandidatePruned: c = kSkip; label = QStringLiteral("pruned"); break;
      case TraceEventKind::HeapInsert: label = QStringLiteral("enters top k"); break;
      case TraceEventKind::PruneTableBuilt: label = QStringLiteral("table built"); break;
      default: break;
    }
    p.setPen(QPen(c, 2, Qt::DashLine));
    p.drawLine(QPointF(x, top), QPointF(x, bottom));
    m_marks.push_back(QRectF(x - 2, top, 4, bottom - top));
    if (!label.isEmpty()) labelBox(x + 4, bottom - p.fontMetrics().height() - 4, label, c.darker(130), x > g.right - 140);
  }
}

void TraceLanesView::paintBlockLabels(QPainter& p, const Geometry& g) const {
  const QFont small = smallFont(font());
  p.setFont(small);
  const QFontMetrics metrics(small);
  const int h = metrics.height();
  QColor halo = palette().color(QPalette::Base);
  halo.setAlpha(215);
  for (const PendingLabel& l : m_pendingLabels) {
    const double w = metrics.horizontalAdvance(l.text) + 4;
    std::optional<QRectF> placed;
    for (const int y : {l.above, l.inside}) {
      if (y < l.laneTop || placed) continue;
      // Left to right: past every mark in the way, while the value stays over its block.
      double x = l.x0 + 2;
      while (x + w <= l.x1 - 2) {
        const QRectF at(x, y, w, h);
        double past = -1;
        for (const QRectF& m : m_marks) {
          if (m.intersects(at)) past = std::max(past, m.right());
        }
        if (past < 0) {
          placed = at;
          break;
        }
        x = std::max(x + 1, past + 2);
      }
    }
    if (!placed) continue;
    p.save();
    p.setClipRect(QRect(g.left, l.laneTop, g.right - g.left + 1, g.laneHeight));
    p.fillRect(*placed, halo);
    p.setPen(l.color);
    p.drawText(placed->adjusted(2, 0, -2, 0), Qt::AlignLeft | Qt::AlignVCenter, l.text);
    p.restore();
    m_blockLabels.push_back(BlockLabel{l.term, l.block, l.text, *placed});
  }
  p.setFont(font());
}

void TraceLanesView::paintAxis(QPainter& p, const Geometry& g) const {
  const auto [from, to] = viewRange();
  p.fillRect(QRect(0, g.axisTop, width(), kAxisHeight), palette().color(QPalette::Base));
  p.setPen(palette().color(QPalette::Text));
  p.drawLine(g.left, g.axisTop + 2, g.right, g.axisTop + 2);
  const double span = std::max<double>(1.0, to - from);
  const double raw = span / std::max(1, (g.plotRight - g.plotLeft) / 90);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double stepD = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * mag >= raw) {
      stepD = m * mag;
      break;
    }
  }
  const auto stepDocs = static_cast<DocId>(std::max(1.0, stepD));
  for (DocId d = from - from % stepDocs; d <= to; d += stepDocs) {
    if (d < from) continue;
    const double x = xOf(d, g);
    p.drawLine(QPointF(x, g.axisTop + 2), QPointF(x, g.axisTop + 6));
    p.drawText(QRectF(x - 40, g.axisTop + 6, 80, 16), Qt::AlignHCenter | Qt::AlignTop, formatDoc(d));
  }
  p.drawText(QRect(8, g.axisTop + 4, kLabelWidth - 12, 16), Qt::AlignLeft, QStringLiteral("doc id"));
}

}  // namespace wandscope::widgets
