// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string_view>

namespace wandscope::engine::log {

// The engine logs through one named spdlog logger ("wandscope"). It works unconfigured (stderr,
// warnings and above); applications add sinks to it by name (spdlog::get(kLoggerName)).
inline constexpr const char* kLoggerName = "wandscope";

void debug(std::string_view message);
void info(std::string_view message);
void warn(std::string_view message);
void error(std::string_view message);

}  // namespace wandscope::engine::log
