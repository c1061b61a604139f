// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/pages/page_widgets.h"

#include <QAction>
#include <QStringList>
#include <QToolButton>

namespace wandscope::app {

QToolButton* actionButton(QAction* action, QWidget* parent) {
  auto* b = new QToolButton(parent);
  b->setDefaultAction(action);
  b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  return b;
}

QString embeddedProfileKey() { return QStringLiteral(":embedded"); }

QString warningsText(const std::vector<std::string>& warnings) {
  QStringList parts;
  for (const auto& w : warnings) parts << QStringLiteral("Warning: %1.").arg(QString::fromStdString(w));
  return parts.join(QLatin1Char(' '));
}

}  // namespace wandscope::app
