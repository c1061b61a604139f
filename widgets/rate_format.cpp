// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/rate_format.h"

#include "engine/core/wording.h"

#include <cmath>

namespace wandscope::widgets {

QString formatRate(double perSecond) {
  if (!std::isfinite(perSecond)) return QStringLiteral("\u2014");
  // The engine's words (report.md, bench, `runs show`): the system locale grouped the Load column
  // as it liked ("102.790/s" in German) beside the report's "102,790/s" and the table's other
  // figures, and wrote "1e-05/s" below 0.0001/s.
  return QString::fromStdString(engine::formatRate(perSecond));
}

}  // namespace wandscope::widgets
