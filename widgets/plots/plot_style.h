// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "widgets/plots/qcustomplot_include.h"

#include <QPalette>

namespace wandscope::widgets {

// Whether `palette` is a dark theme's: its base colour is darker than mid-grey.
bool isDarkPalette(const QPalette& palette);

// Axis line, ticks and labels in the palette's text colour and a faint dotted grid, the look every
// plot of the workbench shares; `subGrid` also gives the sub-grid a fainter dotted pen.
void styleAxis(QCPAxis* axis, const QPalette& palette, bool subGrid);

}  // namespace wandscope::widgets
