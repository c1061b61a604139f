// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/views/log_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace wandscope::widgets {
namespace {

QString levelColor(LogLevel level, bool dark) {
  switch (level) {
    case LogLevel::Trace:
    case LogLevel::Debug: return dark ? QStringLiteral("#9a9a9a") : QStringLiteral("#707070");
    case LogLevel::Info: return QString();
    case LogLevel::Warning: return dark ? QStringLiteral("#f0b050") : QStringLiteral("#a05a00");
    case LogLevel::Error:
    case LogLevel::Critical: return dark ? QStringLiteral("#ff7070") : QStringLiteral("#c01818");
  }
  return {};
}

}  // namespace

LogView::LogView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->setSpacing(4);
  auto* bar = new QHBoxLayout;
  auto* label = new QLabel(QStringLiteral("Show:"), this);
  m_level = new QComboBox(this);
  for (LogLevel l : {LogLevel::Debug, LogLevel::Info, LogLevel::Warning, LogLevel::Error}) {
    m_level->addItem(levelName(l) + QStringLiteral(" and above"), static_cast<int>(l));
  }
  m_level->setCurrentIndex(1);
  m_level->setToolTip(QStringLiteral("Minimum severity of the messages shown"));
  label->setBuddy(m_level);
  auto* clearButton = new QToolButton(this);
  clearButton->setText(QStringLiteral("Clear"));
  clearButton->setToolTip(QStringLiteral("Remove every message from the log panel"));
  bar->addWidget(label);
  bar->addWidget(m_level);
  bar->addStretch(1);
  bar->addWidget(clearButton);
  layout->addLayout(bar);

  m_text = new QPlainTextEdit(this);
  m_text->setReadOnly(true);
  m_text->setMaximumBlockCount(kMaxEntries);
  m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
  m_text->setFont(QFont(QStringLiteral("monospace")));
  m_text->setPlaceholderText(QStringLiteral("Messages from the engine and the workbench appear here."));
  layout->addWidget(m_text, 1);

  connect(m_level, &QComboBox::currentIndexChanged, this,
          [this] { setMinimumLevel(static_cast<LogLevel>(m_level->currentData().toInt())); });
  connect(clearButton, &QToolButton::clicked, this, &LogView::clear);
  m_timer.setSingleShot(true);
  m_timer.setInterval(kFlushIntervalMs);
  connect(&m_timer, &QTimer::timeout, this, &LogView::flush);
}

QString LogView::levelName(LogLevel level) {
  switch (level) {
    case LogLevel::Trace: return QStringLiteral("Trace");
    case LogLevel::Debug: return QStringLiteral("Debug");
    case LogLevel::Info: return QStringLiteral("Info");
    case LogLevel::Warning: return QStringLiteral("Warning");
    case LogLevel::Error: return QStringLiteral("Error");
    case LogLevel::Critical: return QStringLiteral("Critical");
  }
  return {};
}

void LogView::setMinimumLevel(LogLevel level) {
  if (level == m_minimum) return;
  m_minimum = level;
  const int i = m_level->findData(static_cast<int>(level));
  if (i >= 0 && i != m_level->currentIndex()) m_level->setCurrentIndex(i);
  flush();
  rebuildView();
}

QString LogView::shownText() const { return m_text->toPlainText(); }

void LogView::append(const LogEntry& entry) {
  m_pending.push_back(entry);
  if (!m_timer.isActive()) m_timer.start();
}

void LogView::appendMessage(LogLevel level, const QString& text) {
  append(LogEntry{QDateTime::currentDateTime(), level, text});
}

void LogView::clear() {
  m_entries.clear();
  m_pending.clear();
  m_text->clear();
}

void LogView::flush() {
  if (m_pending.isEmpty()) return;
  QString problem;
  for (const auto& e : std::as_const(m_pending)) {
    m_entries.push_back(e);
    if (e.level >= m_minimum) appendToView(e);
    if (e.level >= LogLevel::Warning) problem = e.text;
  }
  m_pending.clear();
  if (m_entries.size() > kMaxEntries) m_entries.remove(0, m_entries.size() - kMaxEntries);
  m_text->verticalScrollBar()->setValue(m_text->verticalScrollBar()->maximum());
  if (!problem.isEmpty()) emit problemLogged(problem);
}

void LogView::rebuildView() {
  m_text->clear();
  for (const auto& e : std::as_const(m_entries)) {
    if (e.level >= m_minimum) appendToView(e);
  }
}

void LogView::appendToView(const LogEntry& e) {
  const bool dark = palette().color(QPalette::Base).lightness() < 128;
  const QString color = levelColor(e.level, dark);
  QString line = QStringLiteral("%1 %2 %3")
                     .arg(e.time.toString(QStringLiteral("HH:mm:ss.zzz")), levelName(e.level).leftJustified(7),
                          e.text)
                     .toHtmlEscaped();
  line.replace(QLatin1Char(' '), QStringLiteral("&nbsp;"));
  if (!color.isEmpty()) line = QStringLiteral("<span style=\"color:%1\">%2</span>").arg(color, line);
  m_text->appendHtml(line);
}

}  // namespace wandscope::widgets
