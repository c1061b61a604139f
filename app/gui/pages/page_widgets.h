// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QAction;
class QToolButton;
class QWidget;

namespace wandscope::app {

// A tool button for `action` with its text beside its icon, as the pages' tool rows show them.
QToolButton* actionButton(QAction* action, QWidget* parent);

// The item data of a profile chooser's "embedded default" entry (the Load and Compare pages),
// never a file name: a file cannot be called ":embedded".
QString embeddedProfileKey();

}  // namespace wandscope::app
