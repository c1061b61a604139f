// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/rate_format.h"

#include <QLocale>

#include <cmath>

namespace wandscope::widgets {

QString formatRate(double perSecond) {
  if (!std::isfinite(perSecond)) return QStringLiteral("\u2014");
  // Whole numbers from 1,000/s; four significant digits below, as the rates' plot categories had
  // (two rungs at 150.4/s and 150.2/s must stay two categories).
  if (std::abs(perSecond) >= 1000 && std::abs(perSecond) < 1e15) {
    return QStringLiteral("%1/s").arg(QLocale().toString(static_cast<qlonglong>(std::llround(perSecond))));
  }
  return QStringLiteral("%1/s").arg(QLocale().toString(perSecond, 'g', 4));
}

}  // namespace wandscope::widgets
