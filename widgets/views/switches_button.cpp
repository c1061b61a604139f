// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/views/switches_button.h"

#include <QAction>
#include <QHash>
#include <QMenu>
#include <QStringList>

namespace wandscope::widgets {

SwitchesButton::SwitchesButton(QWidget* parent) : QToolButton(parent) {
  setPopupMode(QToolButton::InstantPopup);
  m_baseToolTip = QStringLiteral("Optimisation switches, all on by default: turn one off to see what it buys "
                                 "(the results must not change).");
  auto* menu = new QMenu(this);
  menu->setToolTipsVisible(true);
  engine::SearchOptions{}.forEach([&](const char* name, bool on) {
    const QString n = QString::fromLatin1(name);
    QAction* a = menu->addAction(n);
    a->setCheckable(true);
    a->setChecked(on);
    a->setData(n);
    a->setToolTip(describe(n));
    connect(a, &QAction::triggered, this, [this] {
      updateText();
      emit optionsChanged();
    });
  });
  setMenu(menu);
  updateText();
}

engine::SearchOptions SwitchesButton::options() const {
  engine::SearchOptions o;
  QStringList spec;
  for (const QAction* a : menu()->actions()) {
    spec << a->data().toString() + (a->isChecked() ? QStringLiteral("=on") : QStringLiteral("=off"));
  }
  o.apply(spec.join(QLatin1Char(',')).toStdString());
  return o;
}

void SwitchesButton::setOptions(const engine::SearchOptions& options) {
  options.forEach([&](const char* name, bool on) {
    if (QAction* a = switchAction(QString::fromLatin1(name))) a->setChecked(on);
  });
  updateText();
}

QAction* SwitchesButton::switchAction(const QString& name) const {
  for (QAction* a : menu()->actions()) {
    if (a->data().toString() == name) return a;
  }
  return nullptr;
}

void SwitchesButton::updateText() {
  QStringList off;
  for (const QAction* a : menu()->actions()) {
    if (!a->isChecked()) off << a->data().toString();
  }
  setText(off.isEmpty() ? QStringLiteral("Switches") : QStringLiteral("Switches (%1 off)").arg(off.size()));
  setToolTip(off.isEmpty() ? m_baseToolTip
                           : m_baseToolTip + QStringLiteral("\nOff: ") + off.join(QStringLiteral(", ")));
}

QString SwitchesButton::describe(const QString& name) {
  static const QHash<QString, QString> d = {
      {QStringLiteral("bulk_and"), QStringLiteral("auto may route AND queries to the bulk conjunction")},
      {QStringLiteral("freq_prune"), QStringLiteral("the bulk AND's 64-bucket frequency prune table")},
      {QStringLiteral("candidate_prune"), QStringLiteral("per-candidate exclusive partial-score limit")},
      {QStringLiteral("lazy_freq"), QStringLiteral("hand already-decoded frequencies to scoring")},
      {QStringLiteral("window_jump"), QStringLiteral("after an empty window, jump to the lead's next document")},
      {QStringLiteral("slice_resume"), QStringLiteral("resume clause slices instead of binary search")},
      {QStringLiteral("window_skip"), QStringLiteral("skip windows whose bound cannot beat the floor")},
      {QStringLiteral("simd_merge"), QStringLiteral("specialised 2- and 3-way merge kernels (generic otherwise)")},
      {QStringLiteral("long_windows"), QStringLiteral("bulk AND windows of whole lead blocks, intersected as long runs "
                                                      "(the first seed's block-end windows otherwise)")},
      {QStringLiteral("bulk_or"),
       QStringLiteral("bmm scores window by window, term at a time (document at a time otherwise)")},
      {QStringLiteral("bound_first"),
       QStringLiteral("windowed bmm bounds documents by block maxima and scores only those that can compete")},
      {QStringLiteral("taat"), QStringLiteral("auto may route OR queries whose lists are all rare to taat")},
      {QStringLiteral("rank_floor"), QStringLiteral("OR pruning paths (and a one-term AND) start from a floor the "
                                                    "terms' stored 10th/100th/1000th weights guarantee")},
  };
  return d.value(name);
}

}  // namespace wandscope::widgets
