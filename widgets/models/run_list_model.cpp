// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/models/run_list_model.h"

#include <QBrush>
#include <QColor>
#include <QStringList>

namespace wandscope::widgets {
namespace {

QString joined(const std::vector<std::string>& items) {
  QStringList out;
  for (const auto& s : items) out << QString::fromStdString(s);
  return out.join(QStringLiteral(", "));
}

}  // namespace

RunListModel::RunListModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunListModel::setRuns(std::vector<engine::RunSummary> runs) {
  beginResetModel();
  m_runs = std::move(runs);
  endResetModel();
}

int RunListModel::rowOf(const QString& runId) const {
  for (std::size_t i = 0; i < m_runs.size(); ++i) {
    if (QString::fromStdString(m_runs[i].runId) == runId) return static_cast<int>(i);
  }
  return -1;
}

QString RunListModel::runId(int row) const {
  if (row < 0 || row >= rowCount()) return {};
  return QString::fromStdString(m_runs[static_cast<std::size_t>(row)].runId);
}

int RunListModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_runs.size());
}

int RunListModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RunListModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
  const auto& r = m_runs[static_cast<std::size_t>(index.row())];
  const auto col = static_cast<Column>(index.column());
  if (role == RunIdRole) return QString::fromStdString(r.runId);
  if (role == SearchRole) {
    return QStringList{QString::fromStdString(r.runId), QString::fromStdString(r.profileName), joined(r.targets),
                       QString::fromStdString(r.gitCommit), QString::fromStdString(r.hostname)}
        .join(QLatin1Char(' '));
  }
  if (role == Qt::DisplayRole || role == SortRole) {
    switch (col) {
      case Started: return QString::fromStdString(r.startedUtc);
      case Profile: return QString::fromStdString(r.profileName);
      case Targets: return joined(r.targets);
      case Rungs: return static_cast<qulonglong>(r.rungs);
      case Status: return QString::fromLatin1(engine::runStatusName(r.status));
      case RunId: return QString::fromStdString(r.runId);
      case Host: return QString::fromStdString(r.hostname);
      case Commit:
        return role == Qt::DisplayRole ? QString::fromStdString(r.gitCommit).left(10) : QString::fromStdString(r.gitCommit);
      case ColumnCount: break;
    }
    return {};
  }
  if (role == Qt::ToolTipRole) {
    switch (col) {
      case Status:
        switch (r.status) {
          case engine::RunStatus::Complete: return QStringLiteral("Every rung finished.");
          case engine::RunStatus::Partial: return QStringLiteral("Interrupted: the rungs that finished are kept.");
          case engine::RunStatus::Running:
            return QStringLiteral("Begun and never finished: still running, or its process died.");
        }
        return {};
      case Commit: return QString::fromStdString(r.gitCommit);
      case Started: return QStringLiteral("Stored %1").arg(QString::fromStdString(r.storedUtc));
      default: return {};
    }
  }
  if (role == Qt::ForegroundRole && col == Status && r.status != engine::RunStatus::Complete) {
    return QBrush(QColor(0xc0, 0x80, 0x00));
  }
  if (role == Qt::TextAlignmentRole && col == Rungs) return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
  return {};
}

QVariant RunListModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount) return {};
  static const char* const kTitles[] = {"Started (UTC)", "Profile", "Targets", "Rungs", "Status", "Run id", "Host", "Commit"};
  return QString::fromLatin1(kTitles[section]);
}

}  // namespace wandscope::widgets
