// SPDX-License-Identifier: GPL-3.0-or-later
// wandscope: the desktop workbench.
#include "app/controllers/index_controller.h"
#include "app/gui/main_window.h"
#include "app/gui/screenshot_runner.h"
#include "app/gui/theme.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>

int main(int argc, char** argv) {
  using namespace wandscope::app;
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("wandscope"));
  QApplication::setApplicationName(QStringLiteral("wandscope"));
  QApplication::setApplicationVersion(QStringLiteral(WANDSCOPE_VERSION));
  QApplication::setApplicationDisplayName(QStringLiteral("Wandscope"));

  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral("Wandscope workbench: explore, explain and measure exact top-k search."));
  parser.addHelpOption();
  parser.addVersionOption();
  const QCommandLineOption indexOption(QStringLiteral("index"), QStringLiteral("Open this index directory."),
                                       QStringLiteral("DIR"));
  const QCommandLineOption screenshotOption(
      QStringLiteral("screenshot"),
      QStringLiteral("Open the pages with the embedded default dataset, fill them, write one PNG per page "
                     "into DIR and exit."),
      QStringLiteral("DIR"));
  const QCommandLineOption pageOption(QStringLiteral("page"),
                                      QStringLiteral("With --screenshot: only this page (index, explore, load, history, ...)."),
                                      QStringLiteral("NAME"));
  const QCommandLineOption themeOption(QStringLiteral("theme"), QStringLiteral("Colours: system, light or dark."),
                                       QStringLiteral("NAME"));
  const QCommandLineOption darkOption(QStringLiteral("dark"), QStringLiteral("Same as --theme dark."));
  const QCommandLineOption docsOption(
      QStringLiteral("default-docs"),
      QStringLiteral("Documents of the embedded default dataset (default 200000; smaller ones are cached "
                     "separately)."),
      QStringLiteral("N"));
  const QCommandLineOption settingsOption(QStringLiteral("settings"),
                                          QStringLiteral("Read and write settings in this INI file."),
                                          QStringLiteral("FILE"));
  const QCommandLineOption dbOption(QStringLiteral("db"),
                                    QStringLiteral("Run store of the Load and History pages (default "
                                                   "$XDG_DATA_HOME/wandscope/runs.sqlite)."),
                                    QStringLiteral("FILE"));
  parser.addOptions({indexOption, screenshotOption, pageOption, themeOption, darkOption, docsOption, settingsOption,
                     dbOption});
  parser.process(app);

  const bool screenshot = parser.isSet(screenshotOption);
  if (parser.isSet(pageOption) && !screenshot) {
    std::fprintf(stderr, "wandscope: --page only applies with --screenshot\n");
    return 2;
  }
  const QString themeArg = parser.isSet(darkOption) ? QStringLiteral("dark") : parser.value(themeOption);
  if (!themeArg.isEmpty() && themeArg != QLatin1String("system") && themeArg != QLatin1String("light") &&
      themeArg != QLatin1String("dark")) {
    std::fprintf(stderr, "wandscope: --theme must be system, light or dark, not %s\n", qPrintable(themeArg));
    return 2;
  }
  MainWindowOptions options;
  if (parser.isSet(docsOption)) {
    bool ok = false;
    options.defaultDocs = parser.value(docsOption).toULongLong(&ok);
    if (!ok || options.defaultDocs == 0) {
      std::fprintf(stderr, "wandscope: --default-docs must be a positive number\n");
      return 2;
    }
  }
  // Screenshots never touch the user's settings.
  QTemporaryDir scratch;
  if (screenshot) {
    options.settingsFile = scratch.filePath(QStringLiteral("settings.ini"));
    options.persistSettings = false;
    // Nor the user's run store: the screenshot's small ladder goes to a scratch one.
    options.runStorePath = parser.isSet(dbOption) ? parser.value(dbOption) : scratch.filePath(QStringLiteral("runs.sqlite"));
  } else {
    options.settingsFile = parser.value(settingsOption);
    options.runStorePath = parser.value(dbOption);
  }

  MainWindow window(options);
  if (!themeArg.isEmpty()) window.setTheme(parseTheme(themeArg));

  if (screenshot) {
    window.resize(1280, 800);
    window.show();
    QStringList pages;
    if (parser.isSet(pageOption)) pages << parser.value(pageOption);
    const QString suffix = themeArg == QLatin1String("dark") ? QStringLiteral("-dark") : QString();
    auto* runner = new ScreenshotRunner(&window, parser.value(screenshotOption), pages, suffix, &window);
    QObject::connect(runner, &ScreenshotRunner::finished, &app, [](int code) { QCoreApplication::exit(code); });
    QTimer::singleShot(0, runner, &ScreenshotRunner::start);
    return QApplication::exec();
  }

  window.show();
  window.openInitialIndex(parser.value(indexOption));
  return QApplication::exec();
}
