// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/plot_style.h"

namespace wandscope::widgets {

bool isDarkPalette(const QPalette& palette) { return palette.color(QPalette::Base).lightness() < 128; }

void styleAxis(QCPAxis* axis, const QPalette& palette, bool subGrid) {
  const QColor text = palette.color(QPalette::Text);
  QColor grid = text;
  grid.setAlpha(40);
  axis->setBasePen(QPen(text, 1));
  axis->setTickPen(QPen(text, 1));
  axis->setSubTickPen(QPen(text, 1));
  axis->setTickLabelColor(text);
  axis->setLabelColor(text);
  axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
  if (subGrid) {
    QColor faint = grid;
    faint.setAlpha(16);
    axis->grid()->setSubGridPen(QPen(faint, 1, Qt::DotLine));
  }
  axis->grid()->setZeroLinePen(Qt::NoPen);
}

}  // namespace wandscope::widgets
