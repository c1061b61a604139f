// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plot_export.h"

#include "widgets/plots/qcustomplot_include.h"

#include <QFileInfo>
#include <QSvgGenerator>

namespace wandscope::widgets {

QString plotExportFilter() {
  return QStringLiteral("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)");
}

bool exportPlot(QCustomPlot& plot, const QString& path, QString* error, int width, int height) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  const int w = width > 0 ? width : plot.width();
  const int h = height > 0 ? height : plot.height();
  bool ok = false;
  if (suffix == QLatin1String("png")) {
    ok = plot.savePng(path, w, h);
  } else if (suffix == QLatin1String("pdf")) {
    ok = plot.savePdf(path, w, h);
  } else if (suffix == QLatin1String("svg")) {
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(QSize(w, h));
    generator.setViewBox(QRect(0, 0, w, h));
    generator.setTitle(plot.objectName());
    QCPPainter painter;
    if (painter.begin(&generator)) {
      painter.setMode(QCPPainter::pmVectorized);
      painter.setMode(QCPPainter::pmNoCaching);
      plot.toPainter(&painter, w, h);
      ok = painter.end();
    }
    ok = ok && QFileInfo(path).size() > 0;
  } else {
    if (error) *error = QStringLiteral("%1: unknown image format (use .png, .svg or .pdf)").arg(path);
    return false;
  }
  if (!ok && error) *error = QStringLiteral("%1: could not be written").arg(path);
  return ok;
}

}  // namespace wandscope::widgets
