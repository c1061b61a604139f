// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace wandscope::widgets {

// A request rate as the workbench writes it everywhere ("102,790/s", "400/s", "12.5/s"): whole
// numbers from 100/s up, three significant digits below, never scientific notation (the Load page
// showed "1.0279e+05/s"); "-" when not finite.
QString formatRate(double perSecond);

}  // namespace wandscope::widgets
