// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace wandscope::engine {

// A target as written on the command line or in a profile: "<kind>[:key=value,...]", e.g.
// "builtin", "builtin:freq_prune=off,algo=bmw", "synthetic:service_us=200,dist=exp,stall_ms=300@2".
// A key without "=" has the value "on". Order is kept; keys are not interpreted here.
struct TargetSpec {
  std::string text;  // as given (trimmed)
  std::string kind;  // "builtin" | "synthetic" | "xapian" | "sqlite-fts5" (peers: engine/peers) | "plugin"
  std::string path;  // "plugin:PATH[:opts]": the engine plugin's shared library (no ':' inside)
  std::vector<std::pair<std::string, std::string>> options;

  // Throws Usage naming the spec for an empty kind, an unknown kind or an empty key.
  static TargetSpec parse(std::string_view text);
};

}  // namespace wandscope::engine
