// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/color_contrast.h"

#include <algorithm>
#include <cmath>

namespace wandscope::widgets {
namespace {

double linear(double channel) {
  return channel <= 0.04045 ? channel / 12.92 : std::pow((channel + 0.055) / 1.055, 2.4);
}

double luminance(const QColor& c) {
  const QColor rgb = c.toRgb();
  return 0.2126 * linear(rgb.redF()) + 0.7152 * linear(rgb.greenF()) + 0.0722 * linear(rgb.blueF());
}

}  // namespace

double contrastRatio(const QColor& a, const QColor& b) {
  const double la = luminance(a), lb = luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor readableOn(const QColor& color, const QColor& background, double minRatio) {
  if (contrastRatio(color, background) >= minRatio) return color;
  // Toward black on a light background, toward white on a dark one: the end of the lightness
  // range reaches the largest ratio there is (at least 4.58 against any background), so the
  // search below ends readable whenever minRatio is at most that.
  const bool lighten = luminance(background) < 0.18;
  const QColor hsl = color.toHsl();
  // An achromatic colour has hue -1, which fromHslF does not take; its saturation is 0 anyway.
  const float hue = std::max(0.0f, hsl.hslHueF()), saturation = hsl.hslSaturationF(), alpha = hsl.alphaF();
  float lo = hsl.lightnessF(), hi = lighten ? 1.0f : 0.0f;  // lo: not readable, hi: the extreme
  for (int i = 0; i < 20; ++i) {  // bisect to the lightness nearest the colour that is readable
    const float mid = (lo + hi) / 2;
    if (contrastRatio(QColor::fromHslF(hue, saturation, mid, alpha), background) >= minRatio) {
      hi = mid;
    } else {
      lo = mid;
    }
  }
  return QColor::fromHslF(hue, saturation, hi, alpha).toRgb();
}

}  // namespace wandscope::widgets
