// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/screenshot_runner.h"

#include "app/gui/main_window.h"
#include "app/gui/pages/page.h"
#include "engine/core/log.h"

#include <QDir>
#include <QImageWriter>
#include <QPixmap>

namespace wandscope::app {

ScreenshotRunner::ScreenshotRunner(MainWindow* window, QString dir, QStringList pages, QString suffix, QObject* parent)
    : QObject(parent), m_window(window), m_dir(std::move(dir)), m_requested(std::move(pages)), m_suffix(std::move(suffix)) {
  m_watchdog.setSingleShot(true);
  m_watchdog.setInterval(kPageTimeoutMs);
  connect(&m_watchdog, &QTimer::timeout, this, [this] {
    engine::log::error(QStringLiteral("screenshot: the %1 page did not fill itself in time").arg(m_current).toStdString());
    m_failed = true;
    onReady();
  });
}

void ScreenshotRunner::start() {
  if (!QDir().mkpath(m_dir)) {
    engine::log::error(QStringLiteral("screenshot: cannot create %1").arg(m_dir).toStdString());
    emit finished(1);
    return;
  }
  if (m_requested.isEmpty()) {
    for (Page* p : m_window->pages()) m_requested << p->pageId();
  }
  for (const QString& id : std::as_const(m_requested)) {
    if (!m_window->page(id)) {
      QStringList valid;
      for (Page* p : m_window->pages()) valid << p->pageId();
      engine::log::error(QStringLiteral("screenshot: there is no page named %1 (pages: %2)")
                             .arg(id, valid.join(QStringLiteral(", ")))
                             .toStdString());
      emit finished(2);
      return;
    }
  }
  m_queue = QStringList{QStringLiteral("index")};
  for (const QString& id : std::as_const(m_requested)) {
    // History shows what the Load page ran: run its ladder first even when only History is asked.
    if (id == QLatin1String("history") && m_window->page(QStringLiteral("load")) && !m_queue.contains(QStringLiteral("load"))) {
      m_queue << QStringLiteral("load");
    }
    if (!m_queue.contains(id)) m_queue << id;
  }
  next();
}

void ScreenshotRunner::next() {
  if (m_queue.isEmpty()) {
    emit finished(m_failed || m_written.size() != m_requested.size() ? 1 : 0);
    return;
  }
  m_current = m_queue.takeFirst();
  Page* page = m_window->page(m_current);
  m_window->showPage(m_current);
  m_readyConnection = connect(page, &Page::screenshotReady, this, &ScreenshotRunner::onReady, Qt::QueuedConnection);
  m_watchdog.start();
  page->prepareScreenshot();
}

void ScreenshotRunner::onReady() {
  m_watchdog.stop();
  disconnect(m_readyConnection);
  const QString id = m_current;
  // Give layouts and queued replots a moment, then grab.
  QTimer::singleShot(400, this, [this, id] {
    if (m_requested.contains(id)) capture(id);
    next();
  });
}

void ScreenshotRunner::capture(const QString& id) {
  const QString path = QDir(m_dir).filePath(id + m_suffix + QStringLiteral(".png"));
  const QPixmap shot = m_window->grab();
  // Maximum zlib compression: the guide embeds these files, and they stay lossless.
  QImageWriter writer(path, "PNG");
  writer.setQuality(0);
  if (shot.isNull() || !writer.write(shot.toImage())) {
    engine::log::error(QStringLiteral("screenshot: cannot write %1").arg(path).toStdString());
    m_failed = true;
    return;
  }
  engine::log::info(QStringLiteral("screenshot: wrote %1 (%2x%3)").arg(path).arg(shot.width()).arg(shot.height()).toStdString());
  m_written << path;
}

}  // namespace wandscope::app
