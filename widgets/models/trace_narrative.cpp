// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/models/trace_narrative.h"

#include "engine/core/wording.h"

#include <QLocale>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace wandscope::widgets {

using engine::TraceEvent;
using engine::TraceEventKind;
using engine::TraceReason;

namespace {

// At least `precision` decimals, and below 0.1 as many as three significant digits need (at most
// 9, a float's precision): a tiny score never reads 0.000 ("Doc 1 scored 0.0000805").
QString fmt(float v, int precision) {
  if (std::isinf(v)) return v < 0 ? QStringLiteral("none") : QStringLiteral("infinity");
  if (std::isnan(v)) return QStringLiteral("NaN");
  const double a = std::abs(static_cast<double>(v));
  const int significant = a > 0 && a < 0.1 ? std::min(9, 2 - static_cast<int>(std::floor(std::log10(a)))) : 0;
  return QString::number(static_cast<double>(v), 'f', std::max(precision, significant));
}

// Two scores compared in one sentence: enough decimals that different values print differently.
std::pair<QString, QString> fmtPair(float a, float b) {
  for (int p = 3; p <= 9; ++p) {
    QString x = fmt(a, p), y = fmt(b, p);
    if (a == b || x != y || p == 9) return {x, y};
  }
  return {fmt(a, 3), fmt(b, 3)};
}

QString termName(const TraceSnapshot& s, std::int32_t term) {
  if (term < 0 || static_cast<std::size_t>(term) >= s.lanes.size()) return {};
  return QStringLiteral("'%1'").arg(s.lanes[static_cast<std::size_t>(term)].term);
}

// The most recent pivot event before `step` (for BMW's block skips).
const TraceEvent* previousPivot(const TraceRun& run, std::size_t step) {
  for (std::size_t i = step; i-- > 0;) {
    const auto k = run.events[i].kind;
    if (k == TraceEventKind::PivotSelected) return &run.events[i];
    if (k != TraceEventKind::BlockSkipped) return nullptr;
  }
  return nullptr;
}

QString thresholdClause(float floor) {
  return std::isinf(floor) ? QStringLiteral("the heap is not full yet, so any document can enter")
                           : QStringLiteral("threshold %1").arg(fmt(floor, 3));
}

}  // namespace

QString formatDoc(engine::DocId doc) {
  if (doc == engine::kNoMoreDocs) return QStringLiteral("the end");
  return QLocale(QLocale::English).toString(static_cast<qulonglong>(doc));
}

QString formatScore(float score) { return fmt(score, 3); }

QString traceKindLabel(TraceEventKind kind, TraceReason reason) {
  switch (kind) {
    case TraceEventKind::QueryStart: return QStringLiteral("start");
    case TraceEventKind::PivotSelected: return QStringLiteral("pivot");
    // A skip decision, not a count of blocks (the counter blocks_skipped counts blocks never decoded).
    case TraceEventKind::BlockSkipped: return QStringLiteral("block-max skip");
    case TraceEventKind::WindowEntered: return QStringLiteral("window entered");
    case TraceEventKind::WindowSkipped:
      return reason == TraceReason::Empty ? QStringLiteral("window empty") : QStringLiteral("window skipped");
    case TraceEventKind::WindowJumped: return QStringLiteral("window jump");
    case TraceEventKind::CandidateScored: return QStringLiteral("scored");
    case TraceEventKind::CandidatePruned:
      switch (reason) {
        case TraceReason::Table: return QStringLiteral("pruned (table)");
        case TraceReason::Limit: return QStringLiteral("pruned (limit)");
        default: return QStringLiteral("pruned (bound)");
      }
    case TraceEventKind::HeapInsert: return QStringLiteral("heap insert");
    case TraceEventKind::ThresholdRaised: return QStringLiteral("threshold raised");
    case TraceEventKind::PruneTableBuilt: return QStringLiteral("prune table built");
    case TraceEventKind::EssentialSplit: return QStringLiteral("essential split");
    case TraceEventKind::QueryEnd: return QStringLiteral("end");
  }
  return QStringLiteral("?");
}

QString traceNarrative(const TraceSnapshot& s, const TraceRun& run, std::size_t step) {
  if (step >= run.events.size()) return {};
  const TraceEvent& e = run.events[step];
  const QString doc = formatDoc(e.doc);
  const QString to = formatDoc(e.docEnd);
  switch (e.kind) {
    case TraceEventKind::QueryStart: {
      const int k = static_cast<int>(e.score);
      // The rank floor, when preset, is the next event: the heap is empty but not the threshold.
      const bool floorNext = step + 1 < run.events.size() && run.events[step + 1].kind == TraceEventKind::ThresholdRaised &&
                             run.events[step + 1].term >= 0;
      const QString heap =
          floorNext ? QStringLiteral("The top-%1 heap is empty, but the next step presets a threshold from the index's "
                                     "stored weights, so candidates can be dismissed before it holds %1 documents.")
                          .arg(k)
                    : QStringLiteral("The top-%1 heap is empty, so until it holds %1 documents every candidate is "
                                     "scored.")
                          .arg(k);
      if (!run.cursorsWalked) {
        return QStringLiteral("Start: %1 decodes the lists' blocks itself instead of walking one cursor per term, so "
                              "no cursors are drawn. %2")
            .arg(QString::fromLatin1(engine::algorithmName(run.algorithm)), heap);
      }
      // A term the index does not know has no cursor: said in words ("'zzz' at doc the end" told a
      // reader nothing, and "()" for a query of no terms even less).
      QStringList at;
      QStringList unknown;
      bool anyCursor = false;
      for (std::size_t t = 0; t < run.termCount() && t < s.lanes.size(); ++t) {
        const engine::DocId position = run.position(step, t);
        anyCursor = anyCursor || position != engine::kNoMoreDocs;
        if (!s.lanes[t].known) {
          unknown << QStringLiteral("'%1'").arg(s.lanes[t].term);
          at << QStringLiteral("'%1' is not in the index, no cursor").arg(s.lanes[t].term);
        } else {
          at << QStringLiteral("'%1' at doc %2").arg(s.lanes[t].term, formatDoc(position));
        }
      }
      if (!anyCursor) {
        QString why = QStringLiteral("the query has no terms after analysis");
        if (!unknown.isEmpty() && unknown.size() == static_cast<qsizetype>(s.lanes.size())) {
          why = QStringLiteral("none of its terms is in the index (%1)").arg(unknown.join(QStringLiteral(", ")));
        } else if (!unknown.isEmpty()) {
          why = QStringLiteral("%1 %2 not in the index and AND needs every term, so no document can match")
                    .arg(unknown.join(QStringLiteral(", ")),
                         unknown.size() == 1 ? QStringLiteral("is") : QStringLiteral("are"));
        }
        return QStringLiteral("Start: %1: there is nothing to evaluate, no cursor is opened.").arg(why);
      }
      return QStringLiteral("Start: one cursor per query term on its first posting (%1). %2")
          .arg(at.join(QStringLiteral(", ")), heap);
    }
    case TraceEventKind::PivotSelected: {
      if (std::isinf(e.floor)) {
        return QStringLiteral("Pivot at doc %1 (%2): the heap is not full yet, so the first cursor's document is "
                              "the pivot and is evaluated.")
            .arg(doc, termName(s, e.term));
      }
      const auto [b, f] = fmtPair(e.bound, e.floor);
      const QString found = QStringLiteral("Pivot at doc %1 (%2): adding the list maxima of the cursors in doc-id "
                                           "order, the sum first beats the threshold here: %3 > threshold %4.")
                                .arg(doc, termName(s, e.term), b, f);
      bool behind = false;
      for (std::size_t t = 0; t < run.termCount(); ++t) behind = behind || run.position(step, t) < e.doc;
      if (behind) {
        return found + QStringLiteral(" Every document before it is in fewer lists and cannot enter the top k, so the "
                                      "cursors behind it move up to doc %1.")
                           .arg(doc);
      }
      // No cursor behind the pivot: this step is the evaluation, not another move. WAND selects the
      // pivot again once the cursors behind it have moved up, and the same words twice read as a
      // step that did nothing.
      const bool scoredNext = step + 1 < run.events.size() &&
                              run.events[step + 1].kind == TraceEventKind::CandidateScored &&
                              run.events[step + 1].doc == e.doc;
      const QString next = scoredNext ? QStringLiteral("gets scored")
                           : run.algorithm == engine::Algorithm::Bmw
                               ? QStringLiteral("is checked against the maxima of the blocks holding it first")
                               : QStringLiteral("is evaluated");
      const TraceEvent* before = nullptr;
      for (std::size_t i = step; i-- > 0 && before == nullptr;) {
        if (run.events[i].kind == TraceEventKind::PivotSelected) before = &run.events[i];
      }
      if (before != nullptr && before->doc == e.doc) {
        return QStringLiteral("Pivot at doc %1 (%2) again: the cursors that were behind it have moved up, so every "
                              "cursor is on doc %1 or beyond, and their maxima still sum to %3 > threshold %4. Doc "
                              "%1 %5.")
            .arg(doc, termName(s, e.term), b, f, next);
      }
      return found + QStringLiteral(" No cursor is behind it, so doc %1 %2.").arg(doc, next);
    }
    case TraceEventKind::BlockSkipped: {
      const auto [b, f] = fmtPair(e.bound, e.floor);
      if (const TraceEvent* pivot = previousPivot(run, step); pivot != nullptr && e.term >= 0) {
        // Block-Max WAND skips up to the nearest end of the blocks the pivot lies in (or the next
        // cursor), which may be another list's block: the moving list need not leave its block.
        const auto [ub, f2] = fmtPair(pivot->bound, e.floor);
        return QStringLiteral("Pivot at doc %1: upper bounds sum to %2 > threshold %3, but the maxima of the blocks "
                              "holding it sum to %4 <= %5: skip to doc %6, where the first of those blocks ends. "
                              "%7, the list with the largest maximum, moves there; no document in between is "
                              "scored, and blocks lying wholly in between are never decoded.")
            .arg(doc, ub, f2, b, f, to, termName(s, e.term));
      }
      const QString last = e.docEnd == engine::kNoMoreDocs ? to : formatDoc(e.docEnd - 1);
      if (run.longWindows && e.term >= 0) {
        return QStringLiteral("Docs %1 to %2, a block of %3 (the lead): its maximum plus the largest maxima of the "
                              "other lists' blocks overlapping it is %4 <= threshold %5, so no document in it can "
                              "enter the top k: the block is not decoded.")
            .arg(doc, last, termName(s, e.term), b, f);
      }
      return QStringLiteral("Docs %1 to %2: the block maxima sum to %3 <= threshold %4, so no document there can "
                            "enter the top k: the cursors skip to doc %5 without decoding.")
          .arg(doc, last, b, f, to);
    }
    case TraceEventKind::WindowEntered:
      if (run.longWindows) {
        if (std::isinf(e.floor)) {
          return QStringLiteral("Long window docs %1 to %2 (many blocks of the lead list at once): the heap is not "
                                "full, so all its lead blocks are decoded and intersected with the other lists.")
              .arg(doc, to);
        }
        const auto [b, f] = fmtPair(e.bound, e.floor);
        return QStringLiteral("Long window docs %1 to %2: its best lead block bounds at %3 > threshold %4, so the "
                              "lead blocks that can reach the threshold are decoded and intersected with the other "
                              "lists (the others were skipped, each a block-skipped step).")
            .arg(doc, to, b, f);
      }
      if (std::isinf(e.floor)) {
        return QStringLiteral("Window docs %1 to %2 (up to the nearest block end): the heap is not full, so the "
                              "blocks are decoded and intersected (window bound %3).")
            .arg(doc, to, fmt(e.bound, 3));
      }
      {
        const auto [b, f] = fmtPair(e.bound, e.floor);
        return QStringLiteral("Window docs %1 to %2: block maxima sum to %3 > threshold %4, so a document here might "
                              "enter: decode the blocks and intersect them.")
            .arg(doc, to, b, f);
      }
    case TraceEventKind::WindowSkipped:
      if (e.reason == TraceReason::Empty) {
        return QStringLiteral("Window docs %1 to %2 is empty: the lists share no document in it, nothing is scored.")
            .arg(doc, to);
      } else if (run.longWindows) {
        return QStringLiteral("Long window docs %1 to %2 skipped whole: every lead block examined was skipped on "
                              "its bound (threshold %3), so no block is decoded (the segment may end in it).")
            .arg(doc, to, fmt(e.floor, 3));
      } else {
        const auto [b, f] = fmtPair(e.bound, e.floor);
        return QStringLiteral("Window docs %1 to %2 skipped whole: block maxima sum to %3 <= threshold %4. No block "
                              "is decoded.")
            .arg(doc, to, b, f);
      }
    case TraceEventKind::WindowJumped:
      return QStringLiteral("Jump: no common document can come before doc %1 (the furthest next posting of the "
                            "lists), so the next window starts there, %2 documents further on.")
          .arg(to, QLocale(QLocale::English).toString(static_cast<qulonglong>(e.docEnd - e.doc)));
    case TraceEventKind::CandidateScored: {
      if (std::isinf(e.floor)) {
        return QStringLiteral("Doc %1 scored %2 (the sum of its terms' BM25 contributions in query order): the heap "
                              "is not full, so it enters.")
            .arg(doc, fmt(e.score, 3));
      }
      const auto [sc, f] = fmtPair(e.score, e.floor);
      if (e.score > e.floor) {
        return QStringLiteral("Doc %1 scored %2 > threshold %3: it enters the top k.").arg(doc, sc, f);
      }
      if (e.score == e.floor) {
        return QStringLiteral("Doc %1 scored %2, exactly the threshold %3. Ties are broken by doc id (the earlier "
                              "document ranks first), so it does not enter.")
            .arg(doc, sc, f);
      }
      return QStringLiteral("Doc %1 scored %2 <= threshold %3: it does not enter the top k (scored for nothing: "
                            "this is the work pruning avoids).")
          .arg(doc, sc, f);
    }
    case TraceEventKind::CandidatePruned: {
      const auto [b, f] = fmtPair(e.bound, e.floor);
      switch (e.reason) {
        case TraceReason::Table:
          return QStringLiteral("Doc %1 pruned by the prune table: with its frequency, %2 can add at most %3, not "
                                "above the limit. One table lookup, no scoring.")
              .arg(doc, termName(s, e.term), fmt(e.bound, 3));
        case TraceReason::Limit: {
          if (run.longWindows) {
            // Long windows: `bound` is the lead's exact score plus the other lists' block maxima.
            const auto [bd, fl] = fmtPair(e.bound, e.floor);
            return QStringLiteral("Doc %1 pruned: %2 scores %3 here, and adding the other lists' block maxima gives "
                                  "at most %4 <= threshold %5. The other terms are not scored.")
                .arg(doc, termName(s, e.term), fmt(e.score, 3), bd, fl);
          }
          const auto [sc, l] = fmtPair(e.score, e.bound);
          return QStringLiteral("Doc %1 pruned: %2 scores %3 <= the partial-score limit %4 (what the others' block "
                                "maxima leave below threshold %5). The other terms are not scored.")
              .arg(doc, termName(s, e.term), sc, l, fmt(e.floor, 3));
        }
        default:
          return QStringLiteral("Doc %1 pruned: its upper bound %2 <= threshold %3, so it is not fully scored.")
              .arg(doc, b, f);
      }
    }
    case TraceEventKind::HeapInsert: {
      QString left;
      if (step > 0) {
        const auto before = TraceSnapshot::heapAt(run, s.k, step - 1);
        const auto after = TraceSnapshot::heapAt(run, s.k, step);
        if (before.size() == s.k && !before.empty()) {
          for (const auto& h : before) {
            bool still = false;
            for (const auto& a : after) still = still || a.doc == h.doc;
            if (!still) left = QStringLiteral(" Doc %1 (%2) leaves the heap.").arg(formatDoc(h.doc), fmt(h.score, 3));
          }
        }
      }
      return QStringLiteral("Doc %1 enters the top-%2 heap with score %3.%4")
          .arg(doc)
          .arg(s.k)
          .arg(fmt(e.score, 3), left);
    }
    case TraceEventKind::ThresholdRaised:
      if (e.term >= 0) {  // the rank floor, before any document (engine/query/rank_floor.h)
        return QStringLiteral("Rank floor: %1 has at least %2 scoring %3 or more on it alone (the index "
                              "stores each list's %4-largest weight), so the k-th score will be at least %3. The "
                              "threshold starts just below it, at %5, before any document is scored.")
            .arg(termName(s, e.term), QString::fromStdString(engine::counted(e.docEnd, "document", "documents")),
                 fmt(e.score, 3), QString::fromStdString(engine::ordinal(e.docEnd)), fmt(e.floor, 3));
      }
      if (std::isinf(e.bound)) {
        return QStringLiteral("The heap is full: the threshold (the k-th score) turns from none to %1. From now on a "
                              "document must score more than %1 to enter.")
            .arg(fmt(e.floor, 3));
      }
      return QStringLiteral("Threshold raised from %1 to %2: documents must now score more than %2; every bound is "
                            "compared with it.")
          .arg(fmt(e.bound, 3), fmt(e.floor, 3));
    case TraceEventKind::PruneTableBuilt: {
      // The last of the 64 buckets is "tf >= 63" (bounded by the lead's block maximum): a cut-off
      // there means no frequency of this block can compete, not "up to 63".
      const QString which = e.docEnd >= 63 ? QStringLiteral("No frequency of this block can beat it (its maximum is "
                                                            "below), so every candidate is dropped with one lookup.")
                                           : QStringLiteral("Frequencies up to %1 cannot beat it, so those candidates "
                                                            "are dropped with one lookup.")
                                                 .arg(e.docEnd);
      return QStringLiteral("Prune table (re)built for %1: limit %2 (threshold %3 minus the others' block maxima). %4")
          .arg(termName(s, e.term), fmt(e.bound, 3), fmt(e.floor, 3), which);
    }
    case TraceEventKind::EssentialSplit: {
      const int nonEssential = static_cast<int>(e.score);
      // The windowed bmm splits each window (recorded right after entering it) on its window
      // maxima; MaxScore on the lists' maxima.
      const bool windowed = step > 0 && run.events[step - 1].kind == TraceEventKind::WindowEntered;
      const QString maxima = windowed ? QStringLiteral("maxima in this window") : QStringLiteral("maxima");
      if (e.term < 0 && nonEssential > 0) {  // every list non-essential: nothing can enter any more
        return QStringLiteral("Essential split: all the lists' %1 together sum to no more than threshold %2: no "
                              "document still to come can enter the top k, so the evaluation ends.")
            .arg(maxima, fmt(e.floor, 3));
      }
      if (nonEssential == 0) {
        return QStringLiteral("Essential split: every list is essential (%1): each list proposes candidates.")
            .arg(thresholdClause(e.floor));
      }
      QStringList names;  // from the event's term mask (queries of up to 31 terms)
      for (std::size_t t = 0; t < 32 && t < s.lanes.size(); ++t) {
        if ((e.docEnd >> t) & 1u) names << QStringLiteral("'%1'").arg(s.lanes[t].term);
      }
      const QString lists = names.isEmpty() ? QStringLiteral("the %1 with the smallest %2")
                                                  .arg(nonEssential == 1 ? QStringLiteral("list")
                                                                         : QStringLiteral("%1 lists").arg(nonEssential),
                                                       maxima)
                                            : QStringLiteral("%1 (the smallest %2)").arg(names.join(QStringLiteral(", ")), maxima);
      return QStringLiteral("Essential split: %1 %2 to no more than threshold %3, so %4 non-essential: only %5 and "
                            "lists with larger %6 propose candidates; the others are only probed.")
          .arg(lists, nonEssential == 1 ? QStringLiteral("comes") : QStringLiteral("sum"), fmt(e.floor, 3),
               nonEssential == 1 ? QStringLiteral("it is") : QStringLiteral("they are"), termName(s, e.term), maxima);
    }
    case TraceEventKind::QueryEnd:
      return QStringLiteral("Done: the final threshold (k-th score) is %1; %2 candidates were fully scored.")
          .arg(fmt(e.floor, 3))
          .arg(QLocale(QLocale::English).toString(static_cast<qulonglong>(run.counters.fullScores)));
  }
  return {};
}

}  // namespace wandscope::widgets
