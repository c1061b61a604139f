// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/theme.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace wandscope::app {
namespace {

struct Original {
  QString style;
  QPalette palette;
};

const Original& original() {
  static const Original o{QApplication::style()->name(), QApplication::palette()};
  return o;
}

QPalette darkPalette() {
  QPalette p;
  const QColor window(0x2b, 0x2d, 0x30);
  const QColor base(0x1e, 0x1f, 0x22);
  const QColor text(0xe6, 0xe6, 0xe6);
  const QColor disabled(0x80, 0x80, 0x80);
  p.setColor(QPalette::Window, window);
  p.setColor(QPalette::WindowText, text);
  p.setColor(QPalette::Base, base);
  p.setColor(QPalette::AlternateBase, QColor(0x27, 0x29, 0x2c));
  p.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3d, 0x41));
  p.setColor(QPalette::ToolTipText, text);
  p.setColor(QPalette::PlaceholderText, disabled);
  p.setColor(QPalette::Text, text);
  p.setColor(QPalette::Button, QColor(0x35, 0x38, 0x3b));
  p.setColor(QPalette::ButtonText, text);
  p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
  p.setColor(QPalette::Light, QColor(0x45, 0x48, 0x4c));
  p.setColor(QPalette::Midlight, QColor(0x3a, 0x3d, 0x41));
  p.setColor(QPalette::Mid, QColor(0x30, 0x32, 0x35));
  p.setColor(QPalette::Dark, QColor(0x1a, 0x1b, 0x1d));
  p.setColor(QPalette::Shadow, QColor(0x10, 0x10, 0x10));
  p.setColor(QPalette::Highlight, QColor(0x3d, 0x7e, 0xc6));
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::Link, QColor(0x6c, 0xb4, 0xf0));
  p.setColor(QPalette::LinkVisited, QColor(0xb0, 0x8c, 0xf0));
  for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText}) {
    p.setColor(QPalette::Disabled, role, disabled);
  }
  p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x50, 0x50, 0x50));
  return p;
}

}  // namespace

void applyTheme(Theme theme) {
  const Original& o = original();
  switch (theme) {
    case Theme::System:
      QApplication::setStyle(QStyleFactory::create(o.style));
      QApplication::setPalette(o.palette);
      break;
    case Theme::Light:
      QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
      QApplication::setPalette(QApplication::style()->standardPalette());
      break;
    case Theme::Dark:
      QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
      QApplication::setPalette(darkPalette());
      break;
  }
}

QString themeName(Theme theme) {
  switch (theme) {
    case Theme::System: return QStringLiteral("system");
    case Theme::Light: return QStringLiteral("light");
    case Theme::Dark: return QStringLiteral("dark");
  }
  return {};
}

Theme parseTheme(const QString& name) {
  if (name == QLatin1String("light")) return Theme::Light;
  if (name == QLatin1String("dark")) return Theme::Dark;
  return Theme::System;
}

}  // namespace wandscope::app
