// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace wandscope::app {

// The workbench's colours: the platform's own (default), or Fusion with a light or dark palette.
// Every widget draws from the palette, so switching needs no restart.
enum class Theme { System, Light, Dark };

// Captures the platform style and palette on first use so System can restore them.
void applyTheme(Theme theme);
QString themeName(Theme theme);           // "system" | "light" | "dark"
Theme parseTheme(const QString& name);   // unknown names give System

}  // namespace wandscope::app
