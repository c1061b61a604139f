// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/api/plugin_engine.h"
#include "engine/api/plugin_index.h"
#include "engine/loadgen/target.h"
#include "engine/loadgen/target_spec.h"
#include "engine/loadgen/workload.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace wandscope::engine {

// How a plugin build runs the workload's queries. Kept as text, not parsed into this host's enums
// and SearchOptions: the plugin may be an older or newer build with other switches, and it judges
// its own options (an unknown one is its error, naming the ones it has).
struct PluginQueryOptions {
  std::string op = "and";
  std::uint32_t k = 10;
  std::string algorithm = "auto";
  std::string options;  // SearchOptions switches, "a=off,b=on"

  // Applies a plugin spec's options: "op=", "k=", "algo="; every other key=value is appended to
  // `options`. Throws Usage naming the spec for a bad k.
  void applySpec(const TargetSpec& spec);
};

// An engine build loaded from a shared library (`plugin:PATH[:opts]`, docs/PLUGIN_ABI.md) as a
// load-generator target: it opens the same index directory with its own code and runs the
// workload's queries through the C ABI. The constructor loads the plugin, opens the index and runs
// the first query once, so a bad file, ABI version, index or option fails before anything is
// measured.
class PluginTarget final : public Target {
 public:
  PluginTarget(const TargetSpec& spec, const std::filesystem::path& indexDir, const Workload& workload,
               const PluginQueryOptions& options);

  const PluginEngine& engine() const noexcept { return *m_engine; }
  const PluginQueryOptions& options() const noexcept { return m_options; }

  const std::string& spec() const noexcept override { return m_spec; }
  const std::vector<std::string>& counterNames() const noexcept override { return m_engine->counterNames(); }
  bool execute(const WorkItem& item, std::span<std::uint64_t> counters) override;
  bool hits(const WorkItem& item, std::vector<TargetHit>& out) override;

 private:
  const std::string* text(const WorkItem& item) const noexcept;

  std::string m_spec;
  std::shared_ptr<PluginEngine> m_engine;
  std::unique_ptr<PluginIndex> m_index;
  PluginQueryOptions m_options;
  std::vector<std::vector<std::string>> m_texts;  // [set][query]
};

}  // namespace wandscope::engine
