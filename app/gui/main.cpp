// SPDX-License-Identifier: GPL-3.0-or-later
// wandscope: the desktop workbench.
#include "app/controllers/index_controller.h"
#include "app/controllers/load_controller.h"
#include "app/gui/main_window.h"
#include "app/gui/pages/load_page.h"
#include "app/gui/screenshot_runner.h"
#include "app/gui/simd_selector.h"
#include "app/gui/theme.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace {

// `--run-profile FILE --out DIR`: the Load page runs the profile exactly as its Start button does,
// with the window and its live plots shown, then writes the report bundle into DIR and exits 0
// (1 when the run fails or the bundle cannot be written). What scripts/gui-cost.sh measures.
int runProfile(wandscope::app::MainWindow& window, const QString& profile, const QString& out) {
  using namespace wandscope::app;
  auto* page = qobject_cast<LoadPage*>(window.page(QStringLiteral("load")));
  if (!page) {
    std::fprintf(stderr, "wandscope: no Load page\n");
    return 1;
  }
  window.show();
  window.showPage(QStringLiteral("load"));
  page->selectProfileFile(profile);
  QString error;
  if (!page->currentProfile(&error)) {
    std::fprintf(stderr, "wandscope: %s: %s\n", qPrintable(profile), qPrintable(error));
    return 1;
  }
  LoadController* load = window.context().load;
  // Connected after the page's own slots, so the page has the report when these run.
  QObject::connect(load, &LoadController::runFinished, &window, [page, out] {
    QString why;
    if (!page->exportReportTo(out, &why)) {
      std::fprintf(stderr, "wandscope: cannot write the report bundle: %s\n", qPrintable(why));
      QCoreApplication::exit(1);
      return;
    }
    std::printf("wandscope: wrote the report bundle to %s\n", qPrintable(out));
    QCoreApplication::exit(0);
  });
  QObject::connect(load, &LoadController::runFailed, &window, [](const QString& message) {
    std::fprintf(stderr, "wandscope: the run failed: %s\n", qPrintable(message));
    QCoreApplication::exit(1);
  });
  QTimer::singleShot(0, page, &LoadPage::startRun);
  return QApplication::exec();
}

bool setInEnvironment(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0';
}

// Whether Qt will find somewhere to draw: a chosen platform plugin (offscreen, xcb, ...; by
// QT_QPA_PLATFORM or -platform), an X or a Wayland display. Without one, QApplication aborts ("could not connect to display").
bool hasDisplay(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {  // Qt's own -platform NAME chooses one too
    const std::string_view a = argv[i];
    if (a == "-platform" || a == "--platform" || a.starts_with("-platform=") || a.starts_with("--platform=")) return true;
  }
  return setInEnvironment("QT_QPA_PLATFORM") || setInEnvironment("DISPLAY") || setInEnvironment("WAYLAND_DISPLAY");
}

bool asksForHelpOrVersion(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "-h" || a == "--help" || a == "--help-all" || a == "-?" || a == "-v" || a == "--version") return true;
  }
  return false;
}

void setApplicationNames() {
  QCoreApplication::setOrganizationName(QStringLiteral("wandscope"));
  QCoreApplication::setApplicationName(QStringLiteral("wandscope"));
  QCoreApplication::setApplicationVersion(QStringLiteral(WANDSCOPE_VERSION));
}

}  // namespace

int main(int argc, char** argv) {
  using namespace wandscope::app;
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
  const QCommandLineOption runProfileOption(
      QStringLiteral("run-profile"),
      QStringLiteral("Run this benchmark profile on the Load page as its Start button does (window and live "
                     "plots shown), write the report bundle into --out DIR and exit: 0 on success, 1 when the "
                     "run fails. Settings are not touched; the run goes to --db or a scratch run store."),
      QStringLiteral("FILE"));
  const QCommandLineOption outOption(QStringLiteral("out"),
                                     QStringLiteral("With --run-profile: the report bundle directory."),
                                     QStringLiteral("DIR"));
  const QCommandLineOption simdOption(
      QStringLiteral("simd"),
      QStringLiteral("SIMD target of the kernels: scalar, sse4, avx2, avx3, avx3_vp2 or best (default: the saved "
                     "choice, else best; the SIMD selector on the Explore and Load pages changes it)."),
      QStringLiteral("TARGET"));
  parser.addOptions({indexOption, screenshotOption, pageOption, themeOption, darkOption, docsOption, settingsOption,
                     dbOption, runProfileOption, outOption, simdOption});
  // --help and --version need no display: answered before QApplication, which aborts without one
  // (it ended `wandscope --help` over ssh with SIGABRT).
  if (asksForHelpOrVersion(argc, argv)) {
    QCoreApplication core(argc, argv);
    setApplicationNames();
    parser.process(core);  // prints and exits
    return 0;
  }
  if (!hasDisplay(argc, argv)) {
    std::fprintf(stderr,
                 "wandscope: no display (DISPLAY and WAYLAND_DISPLAY are not set): run it on a desktop, under "
                 "xvfb-run, or with QT_QPA_PLATFORM=offscreen for --screenshot and --run-profile; "
                 "wandscope-cli runs everything without one\n");
    return 1;
  }
  QApplication app(argc, argv);
  setApplicationNames();
  QApplication::setApplicationDisplayName(QStringLiteral("Wandscope"));
  parser.process(app);

  const bool screenshot = parser.isSet(screenshotOption);
  if (parser.isSet(pageOption) && !screenshot) {
    std::fprintf(stderr, "wandscope: --page only applies with --screenshot\n");
    return 2;
  }
  const bool runProfileMode = parser.isSet(runProfileOption);
  if (runProfileMode && (screenshot || !parser.isSet(outOption))) {
    std::fprintf(stderr, "wandscope: --run-profile needs --out DIR and does not combine with --screenshot\n");
    return 2;
  }
  if (parser.isSet(outOption) && !runProfileMode) {
    std::fprintf(stderr, "wandscope: --out only applies with --run-profile\n");
    return 2;
  }
  if (runProfileMode && !QFileInfo(parser.value(runProfileOption)).isFile()) {
    std::fprintf(stderr, "wandscope: no such profile: %s\n", qPrintable(parser.value(runProfileOption)));
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
  // Screenshots and scripted runs never touch the user's settings.
  QTemporaryDir scratch;
  if (screenshot || runProfileMode) {
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
  if (parser.isSet(simdOption)) {
    QString error;
    if (!SimdSelector::request(parser.value(simdOption), &error)) {
      std::fprintf(stderr, "wandscope: --simd: %s\n", qPrintable(error));
      return 2;
    }
  }
  if (runProfileMode) return runProfile(window, parser.value(runProfileOption), parser.value(outOption));

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
