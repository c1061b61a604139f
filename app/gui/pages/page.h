// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QWidget>

class QAction;
class QSettings;

namespace wandscope::app {

// A page of the workbench (a tab of the main window). The main window knows pages only through
// this interface, so later pages (Load, History, Export) plug in with MainWindow::addPage():
// an id for --page, settings and screenshot file names; a title; actions for the page's menu;
// settings persistence; and a screenshot hook.
class Page : public QWidget {
  Q_OBJECT
 public:
  using QWidget::QWidget;

  // Lowercase, stable: "index", "explore".
  virtual QString pageId() const = 0;
  virtual QString title() const = 0;
  // Actions shown in the page's menu (with their shortcuts); the page owns them. Pages naming the
  // same menu share it (the Index page's actions go to "&File").
  virtual QList<QAction*> menuActions() const { return {}; }
  virtual QString menuTitle() const { return QLatin1Char('&') + title(); }
  // Persistence, inside a settings group named after pageId().
  virtual void saveSettings(QSettings& settings) const { (void)settings; }
  virtual void restoreSettings(QSettings& settings) { (void)settings; }
  // Screenshot mode: start whatever fills the page with data and emit screenshotReady() once it
  // is filled (the default: at once).
  virtual void prepareScreenshot() { emit screenshotReady(); }

 signals:
  void screenshotReady();
  // Short-lived status-bar text.
  void statusMessage(const QString& text, int timeoutMs = 5000);
  // An error the main window should also show (status bar and log are fed by the logger).
  void errorOccurred(const QString& message);
  // Asks the main window to show another page ("index", ...).
  void pageRequested(const QString& id);
};

}  // namespace wandscope::app
