// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

namespace wandscope::app {

class MainWindow;

// `wandscope --screenshot DIR [--page NAME]`: shows each page, lets it fill itself with data (the
// Index page opens the embedded default dataset; Explore runs a sample query compared with the
// exhaustive path), writes DIR/<page><suffix>.png, and finishes with an exit code (0: every
// requested page written). The Index page is always prepared first, since the others need its
// index; the Load page (a small ladder on the embedded default) before History, which shows it.
class ScreenshotRunner : public QObject {
  Q_OBJECT
 public:
  ScreenshotRunner(MainWindow* window, QString dir, QStringList pages, QString suffix, QObject* parent = nullptr);

  void start();
  QStringList written() const { return m_written; }

  // How long a page may take to fill itself (the first preparation of the default dataset is slow).
  static constexpr int kPageTimeoutMs = 30 * 60 * 1000;

 signals:
  void finished(int exitCode);

 private:
  void next();
  void onReady();
  void capture(const QString& id);

  MainWindow* m_window;
  QString m_dir;
  QStringList m_requested;
  QString m_suffix;
  QStringList m_queue;
  QString m_current;
  QStringList m_written;
  bool m_failed = false;
  QTimer m_watchdog;
  QMetaObject::Connection m_readyConnection;
};

}  // namespace wandscope::app
