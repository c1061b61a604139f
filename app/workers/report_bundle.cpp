// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/workers/report_bundle.h"

#include "engine/bench/report_writer.h"
#include "widgets/models/rung_table_model.h"
#include "widgets/plots/distribution_plot.h"
#include "widgets/rate_format.h"

#include <QDir>
#include <QFile>
#include <QSaveFile>
#include <QStringList>

#include <exception>

namespace wandscope::app {
namespace {

QString esc(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }
QString esc(const QString& s) { return s.toHtmlEscaped(); }

QString row(const QString& key, const QString& value) {
  return QStringLiteral("<tr><th>%1</th><td>%2</td></tr>\n").arg(esc(key), esc(value));
}

QString optionalRate(const std::optional<double>& v, const char* otherwise) {
  return v ? widgets::formatRate(*v) : QString::fromLatin1(otherwise);
}

}  // namespace

QList<BundleImage> renderPlots(const QList<widgets::DistributionPlot*>& plots, int width, int height) {
  QList<BundleImage> out;
  for (auto* plot : plots) {
    bool any = false;
    for (int i = 0; i < plot->seriesCount(); ++i) any = any || plot->pointCount(i) > 0;
    if (!any) continue;
    out.push_back({plot->objectName(), plot->renderPng(width, height)});
  }
  return out;
}

QString reportHtml(const engine::RunReport& report, const QList<BundleImage>& images) {
  const auto& h = report.header;
  const auto& e = h.environment;
  QString html;
  html += QStringLiteral(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>Wandscope run %1</title>\n"
      "<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}"
      "table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:3px 8px;text-align:left}"
      "td.n{text-align:right}.gui{background:#fff3cd;border:1px solid #e0c060;padding:6px 10px}"
      ".pass{color:#2e7d32}.fail{color:#c62828}.invalid{color:#a06000}img{max-width:100%;border:1px solid #ddd;"
      "margin:6px 0}pre{background:#f6f6f6;padding:1em;overflow-x:auto}</style></head><body>\n")
              .arg(esc(h.runId));
  html += QStringLiteral("<h1>Run %1 \u2014 profile %2</h1>\n").arg(esc(h.runId), esc(h.profileName));
  if (e.guiAttached) {
    html += QStringLiteral(
        "<p class=\"gui\"><b>Measured with the workbench GUI attached.</b> Its live plots cost a little CPU; "
        "run the same profile with <code>wandscope-cli bench</code> for clean numbers.</p>\n");
  }
  if (report.partial) html += QStringLiteral("<p class=\"gui\"><b>Partial run:</b> it was stopped before its last rung.</p>\n");

  QStringList targets;
  for (const auto& t : h.targets) targets << QString::fromStdString(t);
  html += QStringLiteral("<h2>Environment</h2>\n<table>\n");
  html += row(QStringLiteral("Targets"), targets.join(QStringLiteral(", ")));
  html += row(QStringLiteral("Started (UTC)"), QString::fromStdString(e.startedUtc));
  html += row(QStringLiteral("CPU"), QStringLiteral("%1 (%2 cores)").arg(QString::fromStdString(e.cpuModel)).arg(e.cores));
  html += row(QStringLiteral("Kernel"), QString::fromStdString(e.kernel));
  html += row(QStringLiteral("Host"), QString::fromStdString(e.hostname));
  html += row(QStringLiteral("Compiler"), QString::fromStdString(e.compiler + " " + e.buildType));
  html += row(QStringLiteral("Git commit"), QString::fromStdString(e.gitCommit) + (e.gitDirty ? QStringLiteral(" (dirty)") : QString()));
  html += row(QStringLiteral("SIMD target"), QString::fromStdString(e.simdTarget));
  html += row(QStringLiteral("Version"), QString::fromStdString(e.wandscopeVersion));
  html += row(QStringLiteral("GUI attached"), e.guiAttached ? QStringLiteral("yes") : QStringLiteral("no"));
  html += QStringLiteral("</table>\n");

  if (!report.warnings.empty()) {
    html += QStringLiteral("<h2>Warnings</h2>\n<ul>\n");
    for (const auto& w : report.warnings) html += QStringLiteral("<li>%1</li>\n").arg(esc(w));
    html += QStringLiteral("</ul>\n");
  }
  if (!report.capacity.empty()) {
    html += QStringLiteral("<h2>Maximum sustainable rate</h2>\n<table><tr><th>Target</th><th>Last pass</th>"
                           "<th>First fail</th><th>Criterion</th></tr>\n");
    for (const auto& [target, c] : report.capacity) {
      html += QStringLiteral("<tr><td>%1</td><td class=\"n\">%2</td><td class=\"n\">%3</td><td>%4</td></tr>\n")
                  .arg(esc(target), esc(optionalRate(c.lastPass, "below the first rung")),
                       esc(optionalRate(c.firstFail, "above the last rung")), esc(c.criterion));
    }
    html += QStringLiteral("</table>\n");
  }
  if (!report.saturationRule.empty()) html += QStringLiteral("<p><b>Saturation rule:</b> %1</p>\n").arg(esc(report.saturationRule));
  html += QStringLiteral("<p><b>Quantiles:</b> %1. An absent quantile is shown as \u2014.</p>\n").arg(esc(report.quantileDefinition));

  // The rung table, as the workbench shows it.
  widgets::RungTableModel model;
  model.setRungs(report.rungs);
  html += QStringLiteral("<h2>Rungs</h2>\n<table>\n<tr>");
  for (int c = 0; c < model.columnCount(); ++c) {
    html += QStringLiteral("<th>%1</th>").arg(esc(model.headerData(c, Qt::Horizontal).toString()));
  }
  html += QStringLiteral("</tr>\n");
  for (int r = 0; r < model.rowCount(); ++r) {
    const auto& rung = report.rungs[static_cast<std::size_t>(r)];
    html += QStringLiteral("<tr>");
    for (int c = 0; c < model.columnCount(); ++c) {
      const QString text = model.index(r, c).data().toString();
      QString cls;
      if (c == widgets::RungTableModel::Verdict && rung.mode == "open") cls = QString::fromStdString(rung.verdict);
      else if (c != widgets::RungTableModel::Target && c != widgets::RungTableModel::Mode &&
               c != widgets::RungTableModel::Load)
        cls = QStringLiteral("n");
      html += QStringLiteral("<td class=\"%1\">%2</td>").arg(esc(cls), esc(text));
    }
    html += QStringLiteral("</tr>\n");
  }
  html += QStringLiteral("</table>\n");

  if (!images.isEmpty()) {
    html += QStringLiteral("<h2>Plots</h2>\n");
    for (const auto& image : images) {
      html += QStringLiteral("<figure><img alt=\"%1\" src=\"data:image/png;base64,%2\"><figcaption>%1</figcaption></figure>\n")
                  .arg(esc(image.title), QString::fromLatin1(image.png.toBase64()));
    }
  }
  html += QStringLiteral("<h2>report.md</h2>\n<pre>%1</pre>\n</body></html>\n").arg(esc(engine::reportMarkdown(report)));
  return html;
}

bool writeReportBundle(const QString& dir, const engine::RunReport& report, const QList<BundleImage>& images,
                       QString* error) {
  try {
    engine::writeReportFiles(std::filesystem::path(dir.toStdString()), report);
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
  const QString path = QDir(dir).filePath(QStringLiteral("report.html"));
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(reportHtml(report, images).toUtf8()) < 0 || !file.commit()) {
    if (error) *error = QStringLiteral("%1: cannot be written (%2)").arg(path, file.errorString());
    return false;
  }
  return true;
}

}  // namespace wandscope::app
