// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QString>
#include <QTimer>
#include <QVector>
#include <QWidget>

class QComboBox;
class QPlainTextEdit;

namespace wandscope::widgets {

// Severity of a log message (the order of spdlog's levels).
enum class LogLevel { Trace, Debug, Info, Warning, Error, Critical };

struct LogEntry {
  QDateTime time;
  LogLevel level = LogLevel::Info;
  QString text;
};

// The log panel: messages from the "wandscope" spdlog logger (forwarded by the app's sink) and
// the app's own, coloured by severity, filtered by a minimum level. append() only buffers; a timer
// writes the buffered messages to the view at most every kFlushIntervalMs, so a burst of log lines
// costs one update. At most kMaxEntries are kept.
class LogView : public QWidget {
  Q_OBJECT
 public:
  static constexpr int kFlushIntervalMs = 100;
  static constexpr int kMaxEntries = 5000;

  explicit LogView(QWidget* parent = nullptr);

  void setMinimumLevel(LogLevel level);
  LogLevel minimumLevel() const noexcept { return m_minimum; }
  // Entries kept (all levels) and the text currently shown (after filtering).
  int entryCount() const noexcept { return static_cast<int>(m_entries.size()); }
  QString shownText() const;
  bool flushPending() const noexcept { return !m_pending.isEmpty(); }

  static QString levelName(LogLevel level);

 public slots:
  void append(const wandscope::widgets::LogEntry& entry);
  void appendMessage(wandscope::widgets::LogLevel level, const QString& text);
  void clear();
  // Writes buffered entries now.
  void flush();

 signals:
  // Emitted (after a flush) with the newest warning-or-worse message, e.g. for a status bar.
  void problemLogged(const QString& text);

 private:
  void rebuildView();
  void appendToView(const LogEntry& entry);

  QComboBox* m_level = nullptr;
  QPlainTextEdit* m_text = nullptr;
  QTimer m_timer;
  QVector<LogEntry> m_entries;
  QVector<LogEntry> m_pending;
  LogLevel m_minimum = LogLevel::Info;
};

}  // namespace wandscope::widgets

Q_DECLARE_METATYPE(wandscope::widgets::LogEntry)
