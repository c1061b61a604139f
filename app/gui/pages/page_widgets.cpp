// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/pages/page_widgets.h"

#include <QAction>
#include <QToolButton>

namespace wandscope::app {

QToolButton* actionButton(QAction* action, QWidget* parent) {
  auto* b = new QToolButton(parent);
  b->setDefaultAction(action);
  b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  return b;
}

QString embeddedProfileKey() { return QStringLiteral(":embedded"); }

}  // namespace wandscope::app
