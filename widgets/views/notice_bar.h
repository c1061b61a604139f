// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>
#include <QString>

class QLabel;
class QToolButton;

namespace wandscope::widgets {

// A non-modal message strip at the top of a page (in the manner of KMessageWidget): an error, a
// warning, a hint or a success, with an optional action button and a close button. It never
// blocks; it stays until closed or replaced (information hides itself after a while).
class NoticeBar : public QWidget {
  Q_OBJECT
 public:
  enum class Kind { Information, Positive, Warning, Error };

  explicit NoticeBar(QWidget* parent = nullptr);

  // Shows `text` (plain text). `actionText` non-empty adds a button that emits actionTriggered.
  void showNotice(Kind kind, const QString& text, const QString& actionText = {});
  void hideNotice();

  Kind kind() const noexcept { return m_kind; }
  QString text() const;
  QString actionText() const;

  static constexpr int kInformationTimeoutMs = 8000;

 signals:
  void actionTriggered();
  void closed();

 protected:
  void paintEvent(QPaintEvent* event) override;

  Kind m_kind = Kind::Information;
  QLabel* m_icon = nullptr;
  QLabel* m_text = nullptr;
  QToolButton* m_action = nullptr;
  QToolButton* m_close = nullptr;
  int m_serial = 0;
};

}  // namespace wandscope::widgets
