// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// QCustomPlot's header is not written for our build settings; include it only through here (as
// hotspot wraps it). Its inline templates use Qt's `foreach`, which QT_NO_FOREACH removes for our
// code: give the header a range-for stand-in for the duration of the include. Its warnings are
// not ours to fix.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wold-style-cast"
#if defined(QT_NO_FOREACH) && !defined(foreach)
#define WANDSCOPE_QCP_FOREACH
#define foreach(variable, container) for (variable : container)
#endif
#include <qcustomplot.h>
#ifdef WANDSCOPE_QCP_FOREACH
#undef foreach
#undef WANDSCOPE_QCP_FOREACH
#endif
#pragma GCC diagnostic pop
