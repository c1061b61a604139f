// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/rate_format.h"

#include <QLocale>

#include <cmath>

namespace wandscope::widgets {

QString formatRate(double perSecond) {
  if (!std::isfinite(perSecond)) return QStringLiteral("\u2014");
  if (std::abs(perSecond) >= 100) {
    return QStringLiteral("%1/s").arg(QLocale().toString(static_cast<qlonglong>(std::llround(perSecond))));
  }
  return QStringLiteral("%1/s").arg(QLocale().toString(perSecond, 'g', 3));
}

}  // namespace wandscope::widgets
