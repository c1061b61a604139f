// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

struct wandscope_engine_api_v1;

namespace wandscope::engine {

// Who built a plugin (wandscope_build_info, copied).
struct PluginBuildInfo {
  std::string buildId;
  std::string version;
  std::string gitCommit;
  bool gitDirty = true;
  std::string compiler;
  std::string flags;
  std::string buildType;
  std::string simdTarget;
};

// An engine build loaded from a shared library through the versioned C ABI
// (engine/api/wandscope_engine_api.h, docs/PLUGIN_ABI.md).
//
// load() dlopen()s the file with RTLD_NOW | RTLD_LOCAL, so two builds of the same engine (same
// C++ symbol names) and the host's built-in engine live in one process without binding to each
// other's symbols; the plugin exports only `wandscope_engine_api`. Every way a file can fail to
// be a usable plugin is a clear Error(Usage) naming the file, and nothing in the plugin is called
// before its table passed the version check:
//  - missing or unreadable file, not a shared library, unresolved dependencies (dlerror's text);
//  - no `wandscope_engine_api` symbol ("not a Wandscope engine plugin");
//  - the plugin refuses this host's ABI version, or its table is from an incompatible version
//    (both versions named), or is shorter than version 1's.
// The library stays loaded while any PluginEngine or PluginIndex of it lives.
class PluginEngine {
 public:
  // The ABI version this host speaks and the oldest plugin ABI it still reads.
  static constexpr std::uint32_t kHostAbiVersion = 1;
  static constexpr std::uint32_t kOldestAbiVersion = 1;

  static std::shared_ptr<PluginEngine> load(const std::filesystem::path& file);
  ~PluginEngine();
  PluginEngine(const PluginEngine&) = delete;
  PluginEngine& operator=(const PluginEngine&) = delete;

  const std::filesystem::path& file() const noexcept { return m_file; }
  std::uint32_t abiVersion() const noexcept { return m_abiVersion; }
  const PluginBuildInfo& buildInfo() const noexcept { return m_buildInfo; }
  const std::vector<std::string>& counterNames() const noexcept { return m_counterNames; }

  // The raw table (PluginIndex calls through it).
  const wandscope_engine_api_v1& api() const noexcept { return *m_api; }
  // The plugin's last error on this thread, prefixed with the file name.
  std::string lastError(std::string_view what) const;

 private:
  PluginEngine() = default;

  std::filesystem::path m_file;
  void* m_handle = nullptr;
  const wandscope_engine_api_v1* m_api = nullptr;
  std::uint32_t m_abiVersion = 0;
  PluginBuildInfo m_buildInfo;
  std::vector<std::string> m_counterNames;
};

}  // namespace wandscope::engine
