// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/query/search_request.h"

#include <QString>
#include <QToolButton>

class QAction;

namespace wandscope::widgets {

// The optimisation switches (engine::SearchOptions) as a button with a menu of checkable entries,
// one per switch under its CLI name, each with a tooltip saying what it does. The button says
// "Switches" while all are on and "Switches (2 off)" otherwise; its tooltip lists the ones off.
class SwitchesButton : public QToolButton {
  Q_OBJECT
 public:
  explicit SwitchesButton(QWidget* parent = nullptr);

  engine::SearchOptions options() const;
  // Sets every entry; emits nothing (optionsChanged is for the user's own changes).
  void setOptions(const engine::SearchOptions& options);
  // The entry of switch `name` ("bulk_or"), or nullptr.
  QAction* switchAction(const QString& name) const;

  // What switch `name` does, in one line (empty for an unknown name).
  static QString describe(const QString& name);

 signals:
  // The user turned a switch on or off.
  void optionsChanged();

 private:
  void updateText();

  QString m_baseToolTip;
};

}  // namespace wandscope::widgets
