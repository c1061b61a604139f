// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/core/log.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <mutex>

namespace wandscope::engine::log {
namespace {

spdlog::logger& logger() {
  static std::once_flag once;
  static std::shared_ptr<spdlog::logger> instance;
  std::call_once(once, [] {
    instance = spdlog::get(kLoggerName);
    if (!instance) {
      instance = spdlog::stderr_color_mt(kLoggerName);
      instance->set_level(spdlog::level::warn);
      instance->set_pattern("%^%l%$: %v");
    }
  });
  return *instance;
}

}  // namespace

void debug(std::string_view message) { logger().debug(message); }
void info(std::string_view message) { logger().info(message); }
void warn(std::string_view message) { logger().warn(message); }
void error(std::string_view message) { logger().error(message); }

}  // namespace wandscope::engine::log
