// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/core/wording.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <system_error>

namespace wandscope::engine {

std::string counted(std::uint64_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", grouped(n), n == 1 ? one : many);
}

std::string grouped(std::uint64_t n) {
  std::string digits = std::to_string(n);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<std::size_t>(i), ",");
  return digits;
}

std::string ordinal(std::uint64_t n) {
  const std::uint64_t tens = n % 100;
  const char* suffix = (tens >= 11 && tens <= 13) ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
  return grouped(n) + suffix;
}

std::string significant(double value) {
  if (!std::isfinite(value)) return fmt::format("{}", value);
  const double magnitude = std::abs(value);
  if (magnitude >= 1000 && magnitude < 1e18) {
    return (value < 0 ? "-" : "") + grouped(static_cast<std::uint64_t>(std::llabs(std::llround(value))));
  }
  if (magnitude >= 1e18) return fmt::format("{:.4g}", value);  // no grouping would help there
  if (magnitude == 0) return "0";
  // Four significant digits after the leading zeros, trailing zeros dropped: as {:.4g} without
  // its exponent form below 1e-4.
  const int exponent = static_cast<int>(std::floor(std::log10(magnitude)));
  const int decimals = std::max(0, 3 - exponent);
  std::string text = fmt::format("{:.{}f}", value, decimals);
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  return text;
}

std::string formatRate(double perSecond) { return significant(perSecond) + "/s"; }

std::string exactFigure(float value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  // to_chars without a precision writes the shortest round-trip form; fixed: no exponent. The
  // longest f32 in fixed form (the smallest denormal) takes 48 characters.
  char buffer[64];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed);
  if (ec != std::errc{}) return fmt::format("{:.9g}", value);  // cannot happen: it fits
  return std::string(buffer, end);
}

}  // namespace wandscope::engine
