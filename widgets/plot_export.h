// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QCustomPlot;

namespace wandscope::widgets {

// Writes `plot` to `path` in the format its suffix names: .png (raster), .svg (vector, through
// QSvgGenerator) or .pdf (vector). `width`/`height` 0 keep the widget's size. On failure returns
// false and sets `error` to a one-line message naming the file.
bool exportPlot(QCustomPlot& plot, const QString& path, QString* error = nullptr, int width = 0, int height = 0);

// The file-dialog filter of the formats exportPlot writes.
QString plotExportFilter();

}  // namespace wandscope::widgets
