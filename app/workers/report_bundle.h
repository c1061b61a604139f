// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/bench/run_types.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace wandscope::widgets {
class DistributionPlot;
}

namespace wandscope::app {

// A plot of the run, rendered as PNG, for the HTML report.
struct BundleImage {
  QString title;
  QByteArray png;
};

// The plots that hold data, rendered as PNG (GUI thread) for report.html.
QList<BundleImage> renderPlots(const QList<widgets::DistributionPlot*>& plots, int width = 900, int height = 420);

// report.html: the run's environment (with the "measured with the workbench attached" label when
// it was), warnings, capacity, rung table, the plots embedded as PNG data URIs and report.md's
// text. Every text from the run is HTML-escaped; the page loads nothing from elsewhere.
QString reportHtml(const engine::RunReport& report, const QList<BundleImage>& images);

// The report bundle of a run in `dir` (created): report.json, report.md and rungs.csv (the CLI's
// writers, engine/bench/report_writer.h) plus report.html. False with `error` set (naming the
// file) when something cannot be written.
bool writeReportBundle(const QString& dir, const engine::RunReport& report, const QList<BundleImage>& images,
                       QString* error = nullptr);

}  // namespace wandscope::app
