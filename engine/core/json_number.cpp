// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/core/json_number.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace wandscope::engine {

std::optional<std::uint64_t> jsonUnsigned(const nlohmann::json& value, std::uint64_t max) {
  std::uint64_t n = 0;
  if (value.is_number_unsigned()) {
    n = value.get<std::uint64_t>();
  } else if (value.is_number_integer()) {
    const auto i = value.get<std::int64_t>();
    if (i < 0) return std::nullopt;
    n = static_cast<std::uint64_t>(i);
  } else {
    return std::nullopt;
  }
  if (n > max) return std::nullopt;
  return n;
}

std::optional<double> jsonFinite(const nlohmann::json& value) {
  if (!value.is_number()) return std::nullopt;
  const auto d = value.get<double>();
  if (!std::isfinite(d)) return std::nullopt;
  return d;
}

std::string jsonSnippet(const nlohmann::json& value) {
  constexpr std::size_t kMax = 40;
  std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (text.size() > kMax) text = text.substr(0, kMax - 3) + "...";
  return text;
}

}  // namespace wandscope::engine
