// SPDX-License-Identifier: GPL-3.0-or-later
// contrastRatio against WCAG's reference values, and readableOn over a sweep of hues and the
// light and dark themes' bases: the result is readable, keeps its hue, moves only as far as it
// must, and leaves a readable colour alone.
#include "widgets/color_contrast.h"

#include <gtest/gtest.h>

#include <cmath>

namespace wandscope::widgets {
namespace {

TEST(ColorContrast, RatioMatchesTheWcagReferences) {
  EXPECT_NEAR(contrastRatio(Qt::black, Qt::white), 21.0, 1e-9);
  EXPECT_NEAR(contrastRatio(Qt::white, Qt::black), 21.0, 1e-9);
  EXPECT_NEAR(contrastRatio(QColor(0x77, 0x77, 0x77), QColor(0x77, 0x77, 0x77)), 1.0, 1e-9);
  // #767676 on white is the classic lightest grey that passes 4.5.
  EXPECT_NEAR(contrastRatio(QColor(0x76, 0x76, 0x76), Qt::white), 4.54, 0.01);
}

TEST(ColorContrast, ReadableColoursAreLeftAlone) {
  const QColor red = QColor(0xd6, 0x27, 0x28).darker(130);  // the trace's threshold label
  ASSERT_GE(contrastRatio(red, Qt::white), 4.5);
  EXPECT_EQ(readableOn(red, Qt::white), red);
}

TEST(ColorContrast, EveryHueBecomesReadableOnLightAndDarkBases) {
  // White, the Fusion light base, a mid grey near the luminance where black and white tie, the
  // dark theme's base and black.
  const QColor bases[] = {Qt::white, QColor(0xfc, 0xfc, 0xfc), QColor(0x76, 0x76, 0x76), QColor(0x2d, 0x2d, 0x2d),
                          Qt::black};
  for (const QColor& base : bases) {
    for (int hue = 0; hue < 360; hue += 15) {
      for (const int lightness : {40, 128, 220}) {
        const QColor c = QColor::fromHsl(hue, 200, lightness);
        const QColor r = readableOn(c, base);
        SCOPED_TRACE(testing::Message() << c.name().toStdString() << " on " << base.name().toStdString() << " -> "
                                        << r.name().toStdString());
        EXPECT_GE(contrastRatio(r, base), 4.5);
        if (contrastRatio(c, base) >= 4.5) {
          EXPECT_EQ(r, c);
          continue;
        }
        EXPECT_NEAR(r.toHsl().hslHueF(), c.toHsl().hslHueF(), 0.02);
        // As near as it can be: a little less far from the original is no longer readable.
        const float step = r.toHsl().lightnessF() > c.toHsl().lightnessF() ? -0.02f : 0.02f;
        const QColor nearer = QColor::fromHslF(r.toHsl().hslHueF(), r.toHsl().hslSaturationF(),
                                               r.toHsl().lightnessF() + step);
        EXPECT_LT(contrastRatio(nearer, base), 4.5);
      }
    }
  }
}

TEST(ColorContrast, DarkRedOnTheDarkBaseIsLightened) {
  const QColor darkBase(0x2d, 0x2d, 0x2d);
  const QColor label = QColor(0xd6, 0x27, 0x28).darker(130);
  ASSERT_LT(contrastRatio(label, darkBase), 3.0) << "the faint label of the walkthrough";
  const QColor r = readableOn(label, darkBase);
  EXPECT_GT(r.toHsl().lightnessF(), label.toHsl().lightnessF());
  EXPECT_GE(contrastRatio(r, darkBase), 4.5);
  // Grey (no hue) works too.
  EXPECT_GE(contrastRatio(readableOn(QColor(0x40, 0x40, 0x40), darkBase), darkBase), 4.5);
}

}  // namespace
}  // namespace wandscope::widgets
