// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/models/search_snapshot.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace wandscope::widgets {

std::uint32_t scoreBits(engine::Score score) noexcept { return std::bit_cast<std::uint32_t>(score); }

QString formatFigure(double value, int decimals) {
  if (std::isnan(value)) return QStringLiteral("\u2013");
  if (std::isinf(value)) return value < 0 ? QStringLiteral("-\u221e") : QStringLiteral("\u221e");
  const double magnitude = std::abs(value);
  int shown = decimals;
  if (magnitude > 0 && magnitude < 1) {
    // 0.0000249991 has its first significant digit at decimal 5: four leading zeros to add.
    const int leadingZeros = -static_cast<int>(std::floor(std::log10(magnitude))) - 1;
    shown = std::min(std::max(decimals, decimals + leadingZeros), 12);
  }
  return QString::number(value, 'f', shown);
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
