// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/models/trace_event_model.h"

#include "widgets/color_contrast.h"
#include "widgets/models/trace_narrative.h"

#include <QBrush>
#include <QColor>
#include <QGuiApplication>
#include <QPalette>

#include <cmath>

namespace wandscope::widgets {

using engine::TraceEventKind;

TraceEventModel::TraceEventModel(QObject* parent) : QAbstractTableModel(parent) {}

void TraceEventModel::setRun(TraceSnapshotPtr snapshot, const TraceRun* run) {
  beginResetModel();
  m_snapshot = std::move(snapshot);
  m_run = m_snapshot ? run : nullptr;
  endResetModel();
}

int TraceEventModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() || m_run == nullptr) return 0;
  return static_cast<int>(m_run->events.size());
}

int TraceEventModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant TraceEventModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || m_run == nullptr || index.row() >= rowCount()) return {};
  const auto step = static_cast<std::size_t>(index.row());
  const engine::TraceEvent& e = m_run->events[step];
  const bool hasDoc = e.kind != TraceEventKind::QueryStart && e.kind != TraceEventKind::QueryEnd &&
                      e.kind != TraceEventKind::EssentialSplit;
  const bool hasTo = e.kind == TraceEventKind::BlockSkipped || e.kind == TraceEventKind::WindowEntered ||
                     e.kind == TraceEventKind::WindowSkipped || e.kind == TraceEventKind::WindowJumped;
  switch (role) {
    case Qt::DisplayRole:
      switch (index.column()) {
        case StepColumn: return index.row();
        case EventColumn: return traceKindLabel(e.kind, e.reason);
        case TermColumn:
          if (e.term >= 0 && static_cast<std::size_t>(e.term) < m_snapshot->lanes.size()) {
            return m_snapshot->lanes[static_cast<std::size_t>(e.term)].term;
          }
          return {};
        case DocColumn: return hasDoc ? formatDoc(e.doc) : QVariant();
        case ToColumn: return hasTo ? formatDoc(e.docEnd) : QVariant();
        case ScoreColumn:
          if (e.kind == TraceEventKind::CandidateScored || e.kind == TraceEventKind::HeapInsert ||
              (e.kind == TraceEventKind::CandidatePruned && e.score != 0.0f)) {
            return formatScore(e.score);
          }
          return {};
        case BoundColumn:
          if (e.kind == TraceEventKind::PivotSelected || e.kind == TraceEventKind::BlockSkipped ||
              e.kind == TraceEventKind::WindowEntered || e.kind == TraceEventKind::CandidatePruned ||
              e.kind == TraceEventKind::PruneTableBuilt ||
              (e.kind == TraceEventKind::WindowSkipped && e.reason == engine::TraceReason::Bound)) {
            return formatScore(e.bound);
          }
          return {};
        case FloorColumn: return formatScore(e.floor);
        default: return {};
      }
    case Qt::ToolTipRole: return traceNarrative(*m_snapshot, *m_run, step);
    case Qt::TextAlignmentRole:
      return index.column() == EventColumn || index.column() == TermColumn
                 ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                 : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
      if (index.column() == EventColumn) {
        // Green skips, red heap changes, made readable on the application's base colour (on the
        // dark theme's base, #1e1f22, these two were at contrast 3.9 and 3.0).
        const QColor base = QGuiApplication::palette().color(QPalette::Base);
        switch (e.kind) {
          case TraceEventKind::BlockSkipped:
          case TraceEventKind::WindowJumped:
          case TraceEventKind::WindowSkipped:
          case TraceEventKind::CandidatePruned: return QBrush(readableOn(QColor(0x2e, 0x8b, 0x57), base));
          case TraceEventKind::HeapInsert:
          case TraceEventKind::ThresholdRaised: return QBrush(readableOn(QColor(0xc0, 0x39, 0x2b), base));
          default: return {};
        }
      }
      return {};
    case KindRole: return static_cast<int>(e.kind);
    case ReasonRole: return static_cast<int>(e.reason);
    case DocRole: return static_cast<qulonglong>(e.doc);
    default: return {};
  }
}

QVariant TraceEventModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case StepColumn: return QStringLiteral("Step");
    case EventColumn: return QStringLiteral("Event");
    case TermColumn: return QStringLiteral("Term");
    case DocColumn: return QStringLiteral("Doc");
    case ToColumn: return QStringLiteral("To");
    case ScoreColumn: return QStringLiteral("Score");
    case BoundColumn: return QStringLiteral("Bound");
    case FloorColumn: return QStringLiteral("Threshold");
    default: return {};
  }
}

}  // namespace wandscope::widgets
