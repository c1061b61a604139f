// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/models/search_snapshot.h"

#include "engine/core/wording.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace wandscope::widgets {

std::uint32_t scoreBits(engine::Score score) noexcept { return std::bit_cast<std::uint32_t>(score); }

QString formatFigure(float value) {
  if (std::isnan(value)) return QStringLiteral("\u2013");
  if (std::isinf(value)) return value < 0 ? QStringLiteral("-\u221e") : QStringLiteral("\u221e");
  return QString::fromStdString(engine::exactFigure(value));  // the CLI's search writes the same
}

std::pair<QString, QString> SearchSnapshot::pathLabels() const {
  QString a = QString::fromLatin1(engine::algorithmName(primary.taken));
  if (!compare) return {a, QString()};
  QString b = QString::fromLatin1(engine::algorithmName(compare->taken));
  if (a == b) {
    a.prepend(QStringLiteral("A: "));
    b.prepend(QStringLiteral("B: "));
  }
  return {a, b};
}

int SearchSnapshot::firstDifference() const noexcept {
  if (!compare) return -1;
  const auto& a = primary.hits;
  const auto& b = compare->hits;
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (a[i].doc != b[i].doc || scoreBits(a[i].score) != scoreBits(b[i].score)) return static_cast<int>(i);
  }
  return a.size() == b.size() ? -1 : static_cast<int>(n);
}

}  // namespace wandscope::widgets
