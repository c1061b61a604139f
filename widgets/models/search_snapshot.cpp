// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/models/search_snapshot.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <system_error>

namespace wandscope::widgets {

std::uint32_t scoreBits(engine::Score score) noexcept { return std::bit_cast<std::uint32_t>(score); }

QString formatFigure(float value) {
  if (std::isnan(value)) return QStringLiteral("\u2013");
  if (std::isinf(value)) return value < 0 ? QStringLiteral("-\u221e") : QStringLiteral("\u221e");
  // to_chars without a precision writes the shortest round-trip form (fixed: no exponent); the
  // longest f32 in fixed form, the smallest denormal, takes 48 characters.
  char buffer[64];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed);
  if (ec != std::errc{}) return QString::number(static_cast<double>(value), 'g', 9);  // cannot happen: it fits
  return QString::fromLatin1(buffer, static_cast<qsizetype>(end - buffer));
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
