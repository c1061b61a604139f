// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/loadgen/target_factory.h"

#include <map>
#include <mutex>

namespace wandscope::engine {
namespace {

std::mutex& registryMutex() {
  static std::mutex m;
  return m;
}

std::map<std::string, TargetFactory, std::less<>>& registry() {
  static std::map<std::string, TargetFactory, std::less<>> r;
  return r;
}

}  // namespace

void registerTargetFactory(const std::string& kind, TargetFactory factory) {
  std::lock_guard lock(registryMutex());
  registry()[kind] = std::move(factory);
}

TargetFactory findTargetFactory(std::string_view kind) {
  std::lock_guard lock(registryMutex());
  const auto it = registry().find(kind);
  return it == registry().end() ? TargetFactory{} : it->second;
}

}  // namespace wandscope::engine
