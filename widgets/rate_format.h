// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace wandscope::widgets {

// A request rate as the workbench writes it everywhere, in report.md's words (engine::formatRate):
// "102,790/s", "400/s", "150.4/s" - whole and grouped from 1,000/s up (the Load page showed
// "1.0279e+05/s"), four significant digits below, never an exponent, whatever the system locale;
// an em dash when not finite.
QString formatRate(double perSecond);

}  // namespace wandscope::widgets
