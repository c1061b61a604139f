// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/loadgen/plugin_target.h"

#include "engine/core/error.h"

#include <fmt/format.h>

#include <charconv>

namespace wandscope::engine {

void PluginQueryOptions::applySpec(const TargetSpec& spec) {
  for (const auto& [key, value] : spec.options) {
    if (key == "algo") {
      algorithm = value;
    } else if (key == "op") {
      op = value;
    } else if (key == "k") {
      std::uint32_t v = 0;
      const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (ec != std::errc() || ptr != value.data() + value.size() || v == 0) {
        throwUsage(fmt::format("target '{}': k must be a positive integer, got '{}'", spec.text, value));
      }
      k = v;
    } else {
      options.append(options.empty() ? "" : ",").append(key).append("=").append(value);
    }
  }
}

PluginTarget::PluginTarget(const TargetSpec& spec, const std::filesystem::path& indexDir, const Workload& workload,
                           const PluginQueryOptions& options)
    : m_spec(spec.text), m_engine(PluginEngine::load(spec.path)), m_options(options) {
  m_index = PluginIndex::open(m_engine, indexDir);
  for (const auto& set : workload.sets()) m_texts.push_back(set.texts);
  // Let the plugin judge the options now, not in the middle of a measurement.
  for (const auto& set : m_texts) {
    if (set.empty()) continue;
    try {
      (void)m_index->search(set.front(), m_options.op, m_options.algorithm, m_options.k, m_options.options);
    } catch (const Error& e) {
      throwUsage(fmt::format("target '{}': {}", m_spec, e.what()));
    }
    break;
  }
}

const std::string* PluginTarget::text(const WorkItem& item) const noexcept {
  if (item.querySet >= m_texts.size() || item.query >= m_texts[item.querySet].size()) return nullptr;
  return &m_texts[item.querySet][item.query];
}

bool PluginTarget::execute(const WorkItem& item, std::span<std::uint64_t> counters) {
  const std::string* q = text(item);
  if (q == nullptr) return false;
  try {
    const PluginResult r = m_index->search(*q, m_options.op, m_options.algorithm, m_options.k, m_options.options);
    for (std::size_t i = 0; i < counters.size() && i < r.counters.size(); ++i) counters[i] = r.counters[i];
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

bool PluginTarget::hits(const WorkItem& item, std::vector<TargetHit>& out) {
  out.clear();
  const std::string* q = text(item);
  if (q == nullptr) return false;
  try {
    const PluginResult r = m_index->search(*q, m_options.op, m_options.algorithm, m_options.k, m_options.options);
    out.reserve(r.docs.size());
    for (std::size_t i = 0; i < r.docs.size(); ++i) out.push_back({r.docs[i], r.scores[i]});
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace wandscope::engine
