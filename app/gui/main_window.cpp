// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/main_window.h"

#include "app/controllers/compare_controller.h"
#include "app/controllers/history_controller.h"
#include "app/controllers/index_controller.h"
#include "app/controllers/load_controller.h"
#include "app/controllers/query_controller.h"
#include "app/gui/pages/compare_page.h"
#include "app/gui/pages/explore_page.h"
#include "app/gui/pages/history_page.h"
#include "app/gui/pages/index_page.h"
#include "app/gui/pages/load_page.h"
#include "app/gui/pages/trace_page.h"
#include "app/workers/qt_log_sink.h"
#include "widgets/views/log_view.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>

namespace wandscope::app {

MainWindow::MainWindow(const MainWindowOptions& options, QWidget* parent) : QMainWindow(parent), m_options(options) {
  setWindowTitle(QStringLiteral("Wandscope"));
  setObjectName(QStringLiteral("mainWindow"));
  if (m_options.settingsFile.isEmpty()) {
    m_settings = std::make_unique<QSettings>(QStringLiteral("wandscope"), QStringLiteral("workbench"));
  } else {
    m_settings = std::make_unique<QSettings>(m_options.settingsFile, QSettings::IniFormat);
  }

  // The log panel first, so it sees everything that follows.
  m_log = new widgets::LogView(this);
  m_logBridge = new LogBridge(this);
  connect(m_logBridge, &LogBridge::entry, m_log, &widgets::LogView::append);
  m_logSink = installQtLogSink(m_logBridge);
  auto* dock = new QDockWidget(QStringLiteral("Log"), this);
  dock->setObjectName(QStringLiteral("logDock"));
  dock->setWidget(m_log);
  dock->setAllowedAreas(Qt::BottomDockWidgetArea | Qt::RightDockWidgetArea | Qt::LeftDockWidgetArea);
  addDockWidget(Qt::BottomDockWidgetArea, dock);
  resizeDocks({dock}, {150}, Qt::Vertical);

  m_context.index = new IndexController(this);
  m_context.query = new QueryController(this);
  m_context.load = new LoadController(this);
  m_context.history = new HistoryController(this);
  {
    QString store = m_options.runStorePath;
    if (store.isEmpty() && m_options.persistSettings) store = m_settings->value(QStringLiteral("history/db")).toString();
    if (!store.isEmpty()) m_context.history->setStorePath(store);
    m_context.load->setStorePath(m_context.history->storePath());
    m_context.load->setCacheRoot(m_options.defaultCacheRoot);
    connect(m_context.history, &HistoryController::storePathChanged, m_context.load, &LoadController::setStorePath);
  }
  connect(m_context.load, &LoadController::runningChanged, this, [this](bool running) {
    if (running) {
      m_jobStatus->setText(QStringLiteral("Load run\u2026"));
    } else {
      m_jobStatus->clear();
    }
  });
  connect(m_context.index, &IndexController::indexChanged, this, &MainWindow::onIndexChanged);
  connect(m_context.index, &IndexController::jobStarted, this,
          [this](const QString& what) { m_jobStatus->setText(what + QStringLiteral("\u2026")); });
  connect(m_context.index, &IndexController::busyChanged, this, [this](bool busy) {
    if (!busy) m_jobStatus->clear();
  });
  connect(m_context.index, &IndexController::jobFailed, this, &MainWindow::showError);
  connect(m_context.index, &IndexController::jobFinished, this,
          [this](const QString& message) { statusBar()->showMessage(message, 8000); });
  connect(m_context.query, &QueryController::searchFailed, this,
          [this](quint64, const QString& message) { statusBar()->showMessage(message, 10000); });

  m_tabs = new QTabWidget(this);
  m_tabs->setDocumentMode(true);
  setCentralWidget(m_tabs);

  m_indexStatus = new QLabel(this);
  m_indexStatus->setText(QStringLiteral("No index"));
  m_indexStatus->setToolTip(QStringLiteral("The open index"));
  m_jobStatus = new QLabel(this);
  statusBar()->addPermanentWidget(m_jobStatus);
  statusBar()->addPermanentWidget(m_indexStatus);

  buildMenus();
  auto* viewLog = dock->toggleViewAction();
  viewLog->setText(QStringLiteral("&Log panel"));
  viewLog->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
  m_viewMenu->insertAction(m_themeMenu->menuAction(), viewLog);

  auto* indexPage = new IndexPage(m_context, this);
  if (m_options.defaultDocs > 0) indexPage->setDefaultDocs(m_options.defaultDocs);
  indexPage->setDefaultCacheRoot(m_options.defaultCacheRoot);
  addPage(indexPage);
  auto* explorePage = new ExplorePage(m_context, this);
  addPage(explorePage);
  auto* loadPage = new LoadPage(m_context, this);
  loadPage->setDefaultDocs(m_options.defaultDocs > 0 ? m_options.defaultDocs : IndexController::kDefaultDocs);
  addPage(loadPage);
  auto* historyPage = new HistoryPage(m_context, this);
  addPage(historyPage);
  auto* tracePage = new TracePage(m_context, this);
  addPage(tracePage);
  // Explore's "Trace this query": the same query, step by step, on the Trace page.
  connect(explorePage, &ExplorePage::traceRequested, this,
          [this, tracePage](const QString& text, int op, int k, int algorithm, const engine::SearchOptions& options) {
            showPage(tracePage->pageId());
            tracePage->traceQuery(text, static_cast<engine::Operator>(op), k, static_cast<engine::Algorithm>(algorithm),
                                  options);
          });
  m_compare = new CompareController(this);
  m_compare->setCacheRoot(m_options.defaultCacheRoot);
  auto* comparePage = new ComparePage(m_context, m_compare, this);
  comparePage->setDefaultDocs(m_options.defaultDocs > 0 ? m_options.defaultDocs : IndexController::kDefaultDocs);
  addPage(comparePage);
  // History's "Compare..." shows two recorded runs side by side on the Compare page.
  connect(historyPage, &HistoryPage::compareRequested, comparePage, &ComparePage::showRecordedComparison);
  connect(historyPage, &HistoryPage::comparisonOpened, comparePage, &ComparePage::showStoredComparison);
  connect(m_compare, &CompareController::runningChanged, this, [this](bool running) {
    if (running) {
      m_jobStatus->setText(QStringLiteral("Comparison\u2026"));
    } else {
      m_jobStatus->clear();
    }
  });

  resize(1280, 800);
  restoreWindowSettings();
}

MainWindow::~MainWindow() {
  uninstallQtLogSink(m_logSink);
  // Controllers (children) stop their threads in their destructors.
}

void MainWindow::buildMenus() {
  auto* file = menuBar()->addMenu(QStringLiteral("&File"));
  file->setObjectName(QStringLiteral("&File"));
  m_viewMenu = menuBar()->addMenu(QStringLiteral("&View"));
  m_pagesSeparator = m_viewMenu->addSeparator();
  auto* themes = m_viewMenu->addMenu(QStringLiteral("&Theme"));
  m_themeMenu = themes;
  m_themeGroup = new QActionGroup(this);
  for (Theme t : {Theme::System, Theme::Light, Theme::Dark}) {
    const QString name = themeName(t);
    auto* a = themes->addAction(name.at(0).toUpper() + name.mid(1));
    a->setCheckable(true);
    a->setData(name);
    a->setChecked(t == m_theme);
    m_themeGroup->addAction(a);
    connect(a, &QAction::triggered, this, [this, t] { setTheme(t); });
  }
  auto* help = menuBar()->addMenu(QStringLiteral("&Help"));
  help->addAction(QStringLiteral("&About Wandscope"), this, [this] {
    QMessageBox::about(this, QStringLiteral("About Wandscope"),
                       QStringLiteral("<h3>Wandscope %1</h3><p>A workbench for fast, exact full-text search: "
                                      "a block-compressed BM25 engine in-process, and why each query is fast "
                                      "or slow.</p><p>GPL-3.0-or-later. Hover any metric for its definition; "
                                      "docs/GUIDE.md describes every page.</p>")
                           .arg(QApplication::applicationVersion()));
  });
}

void MainWindow::addPage(Page* page) {
  page->setParent(this);
  const int n = m_tabs->addTab(page, page->title());
  page->setObjectName(page->pageId() + QStringLiteral("Page"));

  auto* show = new QAction(page->title(), page);
  if (n < 9) show->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + n)));
  show->setToolTip(QStringLiteral("Show the %1 page").arg(page->title()));
  connect(show, &QAction::triggered, this, [this, page] { m_tabs->setCurrentWidget(page); });
  m_viewMenu->insertAction(m_pagesSeparator, show);

  const auto actions = page->menuActions();
  if (!actions.isEmpty()) {
    QMenu* menu = nullptr;
    for (auto* m : menuBar()->findChildren<QMenu*>(QString(), Qt::FindDirectChildrenOnly)) {
      if (m->title() == page->menuTitle()) menu = m;
    }
    if (!menu) {
      menu = new QMenu(page->menuTitle(), menuBar());
      menuBar()->insertMenu(m_viewMenu->menuAction(), menu);
    }
    if (!menu->isEmpty()) menu->addSeparator();
    for (auto* a : actions) {
      menu->addAction(a);
      addAction(a);  // shortcuts work whichever page is shown
    }
    if (menu->title() == QLatin1String("&File")) {
      // Quit stays last.
      const auto all = menu->actions();
      for (auto* a : all) {
        if (a->objectName() == QLatin1String("quit")) menu->removeAction(a);
      }
      menu->addSeparator();
      auto* quit = menu->addAction(QStringLiteral("&Quit"), this, &QWidget::close);
      quit->setObjectName(QStringLiteral("quit"));
      quit->setShortcut(QKeySequence::Quit);
    }
  }

  connect(page, &Page::statusMessage, this, [this](const QString& text, int ms) { statusBar()->showMessage(text, ms); });
  connect(page, &Page::errorOccurred, this, [this](const QString& message) { statusBar()->showMessage(message, 10000); });
  connect(page, &Page::pageRequested, this, [this](const QString& id) { showPage(id); });

  if (m_options.persistSettings) {
    m_settings->beginGroup(QStringLiteral("pages/") + page->pageId());
    page->restoreSettings(*m_settings);
    m_settings->endGroup();
  }
}

Page* MainWindow::page(const QString& id) const {
  for (Page* p : pages()) {
    if (p->pageId() == id) return p;
  }
  return nullptr;
}

QList<Page*> MainWindow::pages() const {
  QList<Page*> out;
  for (int i = 0; i < m_tabs->count(); ++i) {
    if (auto* p = qobject_cast<Page*>(m_tabs->widget(i))) out << p;
  }
  return out;
}

bool MainWindow::showPage(const QString& id) {
  Page* p = page(id);
  if (!p) return false;
  m_tabs->setCurrentWidget(p);
  return true;
}

Page* MainWindow::currentPage() const { return qobject_cast<Page*>(m_tabs->currentWidget()); }

void MainWindow::openInitialIndex(const QString& indexDir) {
  if (!indexDir.isEmpty()) {
    m_context.index->openIndex(indexDir);
    return;
  }
  const QString last = m_options.persistSettings ? m_settings->value(QStringLiteral("index/last")).toString() : QString();
  if (!last.isEmpty() && QDir(last).exists()) {
    m_context.index->openIndex(last);
    return;
  }
  showPage(QStringLiteral("index"));  // its welcome notice offers the embedded default
}

void MainWindow::setTheme(Theme theme) {
  m_theme = theme;
  applyTheme(theme);
  for (auto* a : m_themeGroup->actions()) a->setChecked(a->data().toString() == themeName(theme));
}

void MainWindow::onIndexChanged(const IndexHandlePtr& handle) {
  if (!handle || !handle->summary) return;
  // Elided: a long path must not set the window's minimum width.
  m_indexStatus->setText(m_indexStatus->fontMetrics().elidedText(handle->summary->path, Qt::ElideMiddle, 360));
  m_indexStatus->setToolTip(QStringLiteral("The open index: %1").arg(handle->summary->path));
  setWindowTitle(QStringLiteral("%1 \u2014 Wandscope").arg(QDir(handle->summary->path).dirName()));
  if (m_options.persistSettings) m_settings->setValue(QStringLiteral("index/last"), handle->summary->path);
}

void MainWindow::showError(const QString& message) { statusBar()->showMessage(message, 10000); }

void MainWindow::restoreWindowSettings() {
  if (!m_options.persistSettings) return;
  restoreGeometry(m_settings->value(QStringLiteral("window/geometry")).toByteArray());
  restoreState(m_settings->value(QStringLiteral("window/state")).toByteArray());
  const QString page = m_settings->value(QStringLiteral("window/page")).toString();
  if (!page.isEmpty()) showPage(page);
  const QString theme = m_settings->value(QStringLiteral("window/theme")).toString();
  if (!theme.isEmpty()) setTheme(parseTheme(theme));
}

void MainWindow::saveSettings() {
  if (!m_options.persistSettings) return;
  m_settings->setValue(QStringLiteral("window/geometry"), saveGeometry());
  m_settings->setValue(QStringLiteral("window/state"), saveState());
  if (auto* p = currentPage()) m_settings->setValue(QStringLiteral("window/page"), p->pageId());
  m_settings->setValue(QStringLiteral("window/theme"), themeName(m_theme));
  if (m_options.runStorePath.isEmpty()) m_settings->setValue(QStringLiteral("history/db"), m_context.history->storePath());
  for (Page* p : pages()) {
    m_settings->beginGroup(QStringLiteral("pages/") + p->pageId());
    p->saveSettings(*m_settings);
    m_settings->endGroup();
  }
  m_settings->sync();
}

void MainWindow::closeEvent(QCloseEvent* event) {
  saveSettings();
  m_context.index->cancel();
  m_context.load->stop();
  m_compare->stop();
  event->accept();
}

}  // namespace wandscope::app
