// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>

namespace wandscope::widgets {

// WCAG 2 contrast ratio of two opaque colours, from 1 (same luminance) to 21 (black on white).
double contrastRatio(const QColor& a, const QColor& b);

// `color` with its lightness moved away from `background` (darker on a light background, lighter
// on a dark one) until the two reach `minRatio` (WCAG's 4.5 for text by default), hue and
// saturation kept; unchanged when already readable. The trace pictures draw their red and green
// labels darker than the mark they name: on the dark theme's base that was dark red on black.
QColor readableOn(const QColor& color, const QColor& background, double minRatio = 4.5);

}  // namespace wandscope::widgets
