// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/loadgen/target.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace wandscope::engine {

// A named query set as the load generator sees it.
struct WorkloadQuerySet {
  std::string name;                // "mid-df-2"
  std::string fingerprint;         // "fnv1a64:<16 hex>" of the ids and texts in order
  std::vector<std::string> ids;
  std::vector<std::string> texts;
};

// Reads a query file (engine/corpus/query_reader.h formats) as a named set.
WorkloadQuerySet loadWorkloadQuerySet(std::string name, const std::filesystem::path& path);
// The fingerprint of ids and texts (FNV-1a 64 over "id\ttext\n" lines).
std::string querySetFingerprint(const std::vector<std::string>& ids, const std::vector<std::string>& texts);

enum class WorkloadOrder { Cycle, Shuffle };
WorkloadOrder parseWorkloadOrder(std::string_view name);  // "cycle" | "shuffle"; throws Usage
const char* workloadOrderName(WorkloadOrder order) noexcept;

// The stream of queries requests run: all queries of all sets, concatenated in set order, and
// cycled (request s runs entry s mod size), either in that order or in one seeded permutation
// (SplitMix64 Fisher-Yates). `reverse` walks the same sequence backwards, for the closed loop's
// forward / reverse / forward passes. An empty workload (synthetic targets) yields {s, 0, 0}.
class Workload {
 public:
  Workload() = default;
  Workload(std::vector<WorkloadQuerySet> sets, WorkloadOrder order, std::uint64_t seed);

  const std::vector<WorkloadQuerySet>& sets() const noexcept { return m_sets; }
  std::size_t size() const noexcept { return m_entries.size(); }
  bool empty() const noexcept { return m_entries.empty(); }
  WorkItem item(std::uint64_t sequence, bool reverse = false) const noexcept;

  // The same sets, but a stream of set `index`'s queries only (the closed loop measures one set
  // per cell); items keep their set index, so a target built for the whole workload serves it.
  Workload restrictedTo(std::size_t index) const;

 private:
  struct Entry {
    std::uint32_t set;
    std::uint32_t query;
  };
  std::vector<WorkloadQuerySet> m_sets;
  WorkloadOrder m_order = WorkloadOrder::Cycle;
  std::uint64_t m_seed = 0;
  std::vector<Entry> m_entries;
};

}  // namespace wandscope::engine
