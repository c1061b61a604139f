// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/gui/theme.h"
#include "app/gui/workbench_context.h"
#include "app/workers/index_handle.h"

#include <QMainWindow>
#include <QString>

#include <memory>

class QActionGroup;
class QLabel;
class QSettings;
class QTabWidget;

namespace wandscope::widgets {
class LogView;
}

namespace wandscope::app {

class CompareController;
class IndexController;
class LogBridge;
class Page;
class QtLogSink;
class QueryController;

struct MainWindowOptions {
  // Settings file (INI); empty: the platform's user settings for "wandscope/workbench".
  QString settingsFile;
  // Read and write settings (window layout, page state, last index, theme).
  bool persistSettings = true;
  // The embedded default dataset's size and cache (tests and --default-docs use smaller ones).
  quint64 defaultDocs = 0;  // 0: IndexController::kDefaultDocs
  QString defaultCacheRoot;
  // The run store of the Load and History pages (--db); empty: the "history/db" setting, else
  // engine::RunStore::defaultPath().
  QString runStorePath;
};

// The workbench window: pages as tabs (MainWindow::addPage is how later pages - Load, History,
// Export - join), the log panel as a dock, menus with the pages' actions and shortcuts, a status
// bar with the open index and the running job, and persistence of layout and state.
class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(const MainWindowOptions& options = {}, QWidget* parent = nullptr);
  ~MainWindow() override;

  // Adds a page as the next tab, with a View-menu entry (Ctrl+<n>) and its actions in its menu;
  // restores its settings. Takes ownership.
  void addPage(Page* page);
  Page* page(const QString& id) const;
  QList<Page*> pages() const;
  bool showPage(const QString& id);
  Page* currentPage() const;

  // What to open at start: `indexDir` if given, else the last index from the settings, else the
  // Index page's welcome (it offers the embedded default).
  void openInitialIndex(const QString& indexDir = {});
  void setTheme(Theme theme);

  const WorkbenchContext& context() const noexcept { return m_context; }
  IndexController* indexController() const noexcept { return m_context.index; }
  QueryController* queryController() const noexcept { return m_context.query; }
  CompareController* compareController() const noexcept { return m_compare; }
  widgets::LogView* logView() const noexcept { return m_log; }

  void saveSettings();

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void buildMenus();
  void restoreWindowSettings();
  void onIndexChanged(const IndexHandlePtr& handle);
  void showError(const QString& message);

  MainWindowOptions m_options;
  std::unique_ptr<QSettings> m_settings;
  WorkbenchContext m_context;
  CompareController* m_compare = nullptr;  // the Compare page's runs (not in the context: one page uses it)
  LogBridge* m_logBridge = nullptr;
  std::shared_ptr<QtLogSink> m_logSink;
  QTabWidget* m_tabs = nullptr;
  widgets::LogView* m_log = nullptr;
  QLabel* m_indexStatus = nullptr;
  QLabel* m_jobStatus = nullptr;
  QMenu* m_viewMenu = nullptr;
  QAction* m_pagesSeparator = nullptr;  // View menu: page entries above it, panels and theme below
  QMenu* m_themeMenu = nullptr;
  QActionGroup* m_themeGroup = nullptr;
  Theme m_theme = Theme::System;
  bool m_restored = false;
};

}  // namespace wandscope::app
