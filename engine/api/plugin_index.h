// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/api/plugin_engine.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

struct wandscope_index;

namespace wandscope::engine {

// One query's answer from a plugin, copied out of the plugin's memory.
struct PluginResult {
  std::vector<std::uint32_t> docs;
  std::vector<float> scores;
  std::vector<std::uint64_t> counters;  // in PluginEngine::counterNames() order
  std::string algorithm;
  std::string explainJson;              // empty unless asked for
};

// An index opened (or built) by a plugin. search() is thread-safe.
class PluginIndex {
 public:
  // Errors: Error(Index) with the plugin's message.
  static std::unique_ptr<PluginIndex> open(std::shared_ptr<PluginEngine> engine, const std::filesystem::path& dir);
  static std::unique_ptr<PluginIndex> build(std::shared_ptr<PluginEngine> engine, const std::filesystem::path& corpus,
                                            const std::filesystem::path& outDir, const std::string& options);
  ~PluginIndex();
  PluginIndex(const PluginIndex&) = delete;
  PluginIndex& operator=(const PluginIndex&) = delete;

  const PluginEngine& engine() const noexcept { return *m_engine; }
  std::uint64_t docCount() const;
  std::string externalId(std::uint32_t doc) const;

  // One query (see the ABI's search). Throws Error(Usage) with the plugin's message (unknown
  // option, algorithm that does not apply, ...).
  PluginResult search(const std::string& text, const std::string& op, const std::string& algorithm, std::uint32_t k,
                      const std::string& options, bool explain = false) const;

 private:
  PluginIndex(std::shared_ptr<PluginEngine> engine, wandscope_index* handle);

  std::shared_ptr<PluginEngine> m_engine;
  wandscope_index* m_handle = nullptr;
};

}  // namespace wandscope::engine
