// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <string>
#include <vector>

class QAction;
class QToolButton;
class QWidget;

namespace wandscope::app {

// A tool button for `action` with its text beside its icon, as the pages' tool rows show them.
QToolButton* actionButton(QAction* action, QWidget* parent);

// The item data of a profile chooser's "embedded default" entry (the Load and Compare pages),
// never a file name: a file cannot be called ":embedded".
QString embeddedProfileKey();

// A run report's warnings (a shared machine, clock reads beside tiny CPU figures, thin rungs, a
// debug build, parts of a damaged stored run left out) as report.md heads them, for the Load,
// History and Compare pages' notices: "Warning: ... . Warning: ... ."; empty when there are none.
QString warningsText(const std::vector<std::string>& warnings);

}  // namespace wandscope::app
