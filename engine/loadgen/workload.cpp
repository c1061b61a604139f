// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/loadgen/workload.h"

#include "engine/core/error.h"
#include "engine/corpus/query_reader.h"
#include "engine/loadgen/arrival_schedule.h"

#include <fmt/format.h>

#include <utility>

namespace wandscope::engine {

std::string querySetFingerprint(const std::vector<std::string>& ids, const std::vector<std::string>& texts) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  auto mix = [&h](std::string_view s) {
    for (char ch : s) {
      h ^= static_cast<unsigned char>(ch);
      h *= 0x100000001b3ull;
    }
  };
  for (std::size_t i = 0; i < ids.size(); ++i) {
    mix(ids[i]);
    mix("\t");
    mix(i < texts.size() ? std::string_view(texts[i]) : std::string_view());
    mix("\n");
  }
  return fmt::format("fnv1a64:{:016x}", h);
}

WorkloadQuerySet loadWorkloadQuerySet(std::string name, const std::filesystem::path& path) {
  WorkloadQuerySet set;
  set.name = std::move(name);
  for (auto& q : readQueries(path)) {
    set.ids.push_back(std::move(q.id));
    set.texts.push_back(std::move(q.text));
  }
  if (set.ids.empty()) throwBadInput(path.string() + ": the query set is empty");
  set.fingerprint = querySetFingerprint(set.ids, set.texts);
  return set;
}

WorkloadOrder parseWorkloadOrder(std::string_view name) {
  if (name == "cycle") return WorkloadOrder::Cycle;
  if (name == "shuffle") return WorkloadOrder::Shuffle;
  throwUsage("unknown query order '" + std::string(name) + "' (expected cycle or shuffle)");
}

const char* workloadOrderName(WorkloadOrder order) noexcept {
  return order == WorkloadOrder::Cycle ? "cycle" : "shuffle";
}

Workload::Workload(std::vector<WorkloadQuerySet> sets, WorkloadOrder order, std::uint64_t seed)
    : m_sets(std::move(sets)), m_order(order), m_seed(seed) {
  for (std::size_t s = 0; s < m_sets.size(); ++s) {
    for (std::size_t q = 0; q < m_sets[s].ids.size(); ++q) {
      m_entries.push_back({static_cast<std::uint32_t>(s), static_cast<std::uint32_t>(q)});
    }
  }
  if (order == WorkloadOrder::Shuffle && m_entries.size() > 1) {
    std::uint64_t state = seed;
    for (std::size_t i = m_entries.size() - 1; i > 0; --i) {
      const auto j = static_cast<std::size_t>(splitMix64(state) % (i + 1));
      std::swap(m_entries[i], m_entries[j]);
    }
  }
}

WorkItem Workload::item(std::uint64_t sequence, bool reverse) const noexcept {
  WorkItem w;
  w.sequence = sequence;
  if (m_entries.empty()) return w;
  const std::uint64_t n = m_entries.size();
  const std::uint64_t pos = sequence % n;
  const Entry& e = m_entries[reverse ? n - 1 - pos : pos];
  w.querySet = e.set;
  w.query = e.query;
  return w;
}

Workload Workload::restrictedTo(std::size_t index) const {
  if (index >= m_sets.size()) throwInternal("Workload::restrictedTo: no such set");
  Workload w;
  w.m_sets = m_sets;
  w.m_order = m_order;
  w.m_seed = m_seed;
  for (const Entry& e : m_entries) {
    if (e.set == index) w.m_entries.push_back(e);
  }
  // A shuffled whole keeps its order restricted to the set; a cycled one is the set in file order.
  return w;
}

}  // namespace wandscope::engine
