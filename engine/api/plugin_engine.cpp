// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/api/plugin_engine.h"

#include "engine/api/wandscope_engine_api.h"
#include "engine/core/error.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <cstddef>
#include <cstring>
#include <system_error>

namespace wandscope::engine {
namespace {

std::string str(const char* s) { return s ? std::string(s) : std::string(); }

// Whether the table (of `size` bytes) holds the field ending at `end` bytes.
bool has(std::uint32_t size, std::size_t end) { return static_cast<std::size_t>(size) >= end; }

}  // namespace

std::shared_ptr<PluginEngine> PluginEngine::load(const std::filesystem::path& file) {
  const std::string name = file.string();
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) throwUsage(fmt::format("plugin {}: no such file", name));
  if (std::filesystem::is_directory(file, ec)) throwUsage(fmt::format("plugin {}: is a directory, not a shared library", name));
  // A path without a slash would make dlopen search the library path: always pass one.
  std::filesystem::path resolved = file;
  if (!file.has_parent_path()) resolved = std::filesystem::path(".") / file;

  std::shared_ptr<PluginEngine> engine(new PluginEngine());
  engine->m_file = file;
  ::dlerror();
  // RTLD_LOCAL: this build's symbols never satisfy another library's references (two builds of
  // the same engine have the same C++ symbol names). RTLD_NOW: a missing dependency fails here,
  // with dlerror's message, not at the first search.
  engine->m_handle = ::dlopen(resolved.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (engine->m_handle == nullptr) {
    throwUsage(fmt::format("plugin {}: cannot load: {}", name, str(::dlerror())));
  }
  ::dlerror();
  void* symbol = ::dlsym(engine->m_handle, WANDSCOPE_ENGINE_API_SYMBOL);
  if (symbol == nullptr) {
    const std::string why = str(::dlerror());
    throwUsage(fmt::format("plugin {}: not a Wandscope engine plugin: it exports no '{}' ({})", name,
                           WANDSCOPE_ENGINE_API_SYMBOL, why.empty() ? "symbol is NULL" : why));
  }
  wandscope_engine_api_fn entry = nullptr;
  static_assert(sizeof(entry) == sizeof(symbol));
  std::memcpy(&entry, &symbol, sizeof entry);  // POSIX: object pointer -> function pointer
  const wandscope_engine_api_v1* api = entry(kHostAbiVersion);
  if (api == nullptr) {
    throwUsage(fmt::format("plugin {}: refuses ABI version {} (this workbench's); it is built for a newer, "
                           "incompatible ABI: load it with a matching workbench or rebuild it",
                           name, kHostAbiVersion));
  }
  const std::size_t headerEnd = offsetof(wandscope_engine_api_v1, abi_compat) + sizeof(api->abi_compat);
  if (!has(api->struct_size, headerEnd)) {
    throwUsage(fmt::format("plugin {}: its API table is {} bytes, too short to be any ABI version", name,
                           api->struct_size));
  }
  if (api->abi_compat > kHostAbiVersion) {
    throwUsage(fmt::format("plugin {}: implements engine ABI v{} (readable by hosts of v{} and later); this workbench "
                           "speaks v{}: update the workbench or rebuild the plugin from an older revision",
                           name, api->abi_version, api->abi_compat, kHostAbiVersion));
  }
  if (api->abi_version < kOldestAbiVersion) {
    throwUsage(fmt::format("plugin {}: implements engine ABI v{}, older than the oldest this workbench reads (v{})",
                           name, api->abi_version, kOldestAbiVersion));
  }
  if (!has(api->struct_size, sizeof(wandscope_engine_api_v1))) {
    throwUsage(fmt::format("plugin {}: claims ABI v{} but its table is {} bytes, shorter than v1's {}", name,
                           api->abi_version, api->struct_size, sizeof(wandscope_engine_api_v1)));
  }
  if (!api->build_info || !api->last_error || !api->open_index || !api->build_index || !api->close_index ||
      !api->doc_count || !api->external_id || !api->counter_count || !api->counter_name || !api->search ||
      !api->free_result) {
    throwUsage(fmt::format("plugin {}: its ABI v{} table has NULL functions", name, api->abi_version));
  }
  engine->m_api = api;
  engine->m_abiVersion = api->abi_version;

  if (const wandscope_build_info* b = api->build_info()) {
    PluginBuildInfo& info = engine->m_buildInfo;
    if (has(b->struct_size, offsetof(wandscope_build_info, simd_target) + sizeof(b->simd_target))) {
      info.buildId = str(b->build_id);
      info.version = str(b->version);
      info.gitCommit = str(b->git_commit);
      info.gitDirty = b->git_dirty != 0;
      info.compiler = str(b->compiler);
      info.flags = str(b->flags);
      info.buildType = str(b->build_type);
      info.simdTarget = str(b->simd_target);
    }
  }
  if (engine->m_buildInfo.buildId.empty()) engine->m_buildInfo.buildId = file.filename().string();
  const std::uint32_t counters = api->counter_count();
  for (std::uint32_t i = 0; i < counters; ++i) engine->m_counterNames.push_back(str(api->counter_name(i)));
  return engine;
}

PluginEngine::~PluginEngine() {
  if (m_handle != nullptr) ::dlclose(m_handle);
}

std::string PluginEngine::lastError(std::string_view what) const {
  std::string message = str(m_api->last_error());
  if (message.empty()) message = "failed (no message)";
  return fmt::format("plugin {}: {}: {}", m_file.string(), what, message);
}

}  // namespace wandscope::engine
