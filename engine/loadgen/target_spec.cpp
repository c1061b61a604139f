// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/loadgen/target_spec.h"

#include "engine/core/error.h"

namespace wandscope::engine {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

TargetSpec TargetSpec::parse(std::string_view text) {
  TargetSpec spec;
  text = trim(text);
  spec.text = std::string(text);
  const std::size_t colon = text.find(':');
  spec.kind = std::string(trim(text.substr(0, colon)));
  if (spec.kind != "builtin" && spec.kind != "synthetic" && spec.kind != "xapian" && spec.kind != "sqlite-fts5" &&
      spec.kind != "plugin") {
    std::string message = "target '";
    message.append(text).append("': unknown kind '").append(spec.kind).append("' (expected builtin, synthetic, xapian, sqlite-fts5 or plugin)");
    throwUsage(message);
  }
  if (colon == std::string_view::npos && spec.kind != "plugin") return spec;
  std::string_view rest = colon == std::string_view::npos ? std::string_view{} : text.substr(colon + 1);
  if (spec.kind == "plugin") {
    // "plugin:PATH[:opts]": the path runs to the next ':' (paths with ':' are not supported).
    const std::size_t end = rest.find(':');
    spec.path = std::string(trim(rest.substr(0, end)));
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
    if (spec.path.empty()) {
      std::string message = "target '";
      message.append(text).append("': expected plugin:PATH[:opt=v,...] (the engine plugin's shared library)");
      throwUsage(message);
    }
  }
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = trim(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    const std::string key(trim(item.substr(0, eq)));
    const std::string value = eq == std::string_view::npos ? "on" : std::string(trim(item.substr(eq + 1)));
    if (key.empty()) {
      std::string message = "target '";
      message.append(spec.text).append("': empty option name");
      throwUsage(message);
    }
    spec.options.emplace_back(key, value);
  }
  return spec;
}

}  // namespace wandscope::engine
