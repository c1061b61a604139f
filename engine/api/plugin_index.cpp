// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/api/plugin_index.h"

#include "engine/api/wandscope_engine_api.h"
#include "engine/core/error.h"

namespace wandscope::engine {

PluginIndex::PluginIndex(std::shared_ptr<PluginEngine> engine, wandscope_index* handle)
    : m_engine(std::move(engine)), m_handle(handle) {}

PluginIndex::~PluginIndex() {
  if (m_handle != nullptr) m_engine->api().close_index(m_handle);
}

std::unique_ptr<PluginIndex> PluginIndex::open(std::shared_ptr<PluginEngine> engine, const std::filesystem::path& dir) {
  wandscope_index* handle = engine->api().open_index(dir.c_str());
  if (handle == nullptr) throwIndex(engine->lastError("open_index " + dir.string()));
  return std::unique_ptr<PluginIndex>(new PluginIndex(std::move(engine), handle));
}

std::unique_ptr<PluginIndex> PluginIndex::build(std::shared_ptr<PluginEngine> engine, const std::filesystem::path& corpus,
                                                const std::filesystem::path& outDir, const std::string& options) {
  wandscope_index* handle = engine->api().build_index(corpus.c_str(), outDir.c_str(), options.c_str());
  if (handle == nullptr) throwIndex(engine->lastError("build_index " + corpus.string()));
  return std::unique_ptr<PluginIndex>(new PluginIndex(std::move(engine), handle));
}

std::uint64_t PluginIndex::docCount() const { return m_engine->api().doc_count(m_handle); }

std::string PluginIndex::externalId(std::uint32_t doc) const {
  const char* id = m_engine->api().external_id(m_handle, doc);
  return id ? std::string(id) : std::string();
}

PluginResult PluginIndex::search(const std::string& text, const std::string& op, const std::string& algorithm,
                                 std::uint32_t k, const std::string& options, bool explain) const {
  const auto& api = m_engine->api();
  wandscope_result* r = api.search(m_handle, text.c_str(), op.c_str(), algorithm.c_str(), k, options.c_str(),
                                   explain ? WANDSCOPE_SEARCH_EXPLAIN : 0u);
  if (r == nullptr) throwUsage(m_engine->lastError("search"));
  PluginResult out;
  out.docs.assign(r->docs, r->docs + r->hit_count);
  out.scores.assign(r->scores, r->scores + r->hit_count);
  out.counters.assign(r->counter_values, r->counter_values + r->counter_count);
  out.algorithm = r->algorithm ? r->algorithm : "";
  if (r->explain_json) out.explainJson = r->explain_json;
  api.free_result(r);
  return out;
}

}  // namespace wandscope::engine
