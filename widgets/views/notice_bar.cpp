// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/views/notice_bar.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QStyle>
#include <QTimer>
#include <QToolButton>

namespace wandscope::widgets {
namespace {

QColor accent(NoticeBar::Kind kind) {
  switch (kind) {
    case NoticeBar::Kind::Information: return QColor(0x3d, 0x8b, 0xd8);
    case NoticeBar::Kind::Positive: return QColor(0x2e, 0x9e, 0x4f);
    case NoticeBar::Kind::Warning: return QColor(0xe0, 0x92, 0x1c);
    case NoticeBar::Kind::Error: return QColor(0xd8, 0x3a, 0x3a);
  }
  return {};
}

QStyle::StandardPixmap iconFor(NoticeBar::Kind kind) {
  switch (kind) {
    case NoticeBar::Kind::Information: return QStyle::SP_MessageBoxInformation;
    case NoticeBar::Kind::Positive: return QStyle::SP_DialogApplyButton;
    case NoticeBar::Kind::Warning: return QStyle::SP_MessageBoxWarning;
    case NoticeBar::Kind::Error: return QStyle::SP_MessageBoxCritical;
  }
  return QStyle::SP_MessageBoxInformation;
}

}  // namespace

NoticeBar::NoticeBar(QWidget* parent) : QWidget(parent) {
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(8, 4, 4, 4);
  m_icon = new QLabel(this);
  m_text = new QLabel(this);
  m_text->setWordWrap(true);
  m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_text->setTextFormat(Qt::PlainText);
  m_action = new QToolButton(this);
  m_action->setVisible(false);
  m_close = new QToolButton(this);
  m_close->setAutoRaise(true);
  m_close->setText(QStringLiteral("\u2715"));
  m_close->setToolTip(QStringLiteral("Close this message"));
  layout->addWidget(m_icon, 0, Qt::AlignTop);
  layout->addWidget(m_text, 1);
  layout->addWidget(m_action, 0, Qt::AlignVCenter);
  layout->addWidget(m_close, 0, Qt::AlignTop);
  connect(m_action, &QToolButton::clicked, this, &NoticeBar::actionTriggered);
  connect(m_close, &QToolButton::clicked, this, [this] {
    hideNotice();
    emit closed();
  });
  setVisible(false);
}

void NoticeBar::showNotice(Kind kind, const QString& text, const QString& actionText) {
  m_kind = kind;
  m_text->setText(text);
  m_action->setText(actionText);
  m_action->setVisible(!actionText.isEmpty());
  const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
  m_icon->setPixmap(style()->standardIcon(iconFor(kind), nullptr, this).pixmap(size, size));
  update();
  setVisible(true);
  const int serial = ++m_serial;
  if (kind == Kind::Information && actionText.isEmpty()) {
    QTimer::singleShot(kInformationTimeoutMs, this, [this, serial] {
      if (serial == m_serial) hideNotice();
    });
  }
}

void NoticeBar::hideNotice() {
  ++m_serial;
  setVisible(false);
}

QString NoticeBar::text() const { return m_text->text(); }
QString NoticeBar::actionText() const { return m_action->isVisible() ? m_action->text() : QString(); }

void NoticeBar::paintEvent(QPaintEvent*) {
  // A tint of the accent over the window colour, so it reads in light and dark palettes alike.
  const QColor base = palette().color(QPalette::Window);
  const QColor a = accent(m_kind);
  const double t = 0.2;
  const QColor tint(static_cast<int>(base.red() * (1 - t) + a.red() * t),
                    static_cast<int>(base.green() * (1 - t) + a.green() * t),
                    static_cast<int>(base.blue() * (1 - t) + a.blue() * t));
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setPen(QPen(a, 1));
  painter.setBrush(tint);
  painter.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
}

}  // namespace wandscope::widgets
