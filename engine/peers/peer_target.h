// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/loadgen/target.h"
#include "engine/loadgen/workload.h"
#include "engine/peers/peer_engine.h"
#include "engine/query/search_request.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace wandscope::engine {

// A peer engine as a load-generator target (`xapian:...`, `sqlite-fts5:...`): request (set,
// query) analyzes the query with our analyzer (as our engine does inside every query) and runs
// the peer's top-k under `op`. Each concurrently running request uses its own searcher (its own
// Xapian::Database or sqlite3 connection) taken from a pool, so workers never share a handle.
// Counters: `hits`.
class PeerTarget final : public Target {
 public:
  PeerTarget(std::string specText, std::shared_ptr<const PeerEngine> peer, const Workload& workload, Operator op,
             std::size_t k);

  const PeerEngine& peer() const noexcept { return *m_peer; }
  Operator op() const noexcept { return m_op; }
  std::size_t k() const noexcept { return m_k; }

  const std::string& spec() const noexcept override { return m_spec; }
  const std::vector<std::string>& counterNames() const noexcept override { return m_counterNames; }
  bool execute(const WorkItem& item, std::span<std::uint64_t> counters) override;

 private:
  struct Handle {
    std::unique_ptr<PeerSearcher> searcher;
    Analyzer analyzer;
    std::vector<PeerHit> hits;
  };
  std::unique_ptr<Handle> acquire();
  void release(std::unique_ptr<Handle> handle);

  std::string m_spec;
  std::shared_ptr<const PeerEngine> m_peer;
  Operator m_op;
  std::size_t m_k;
  std::vector<std::vector<std::string>> m_texts;  // [set][query]
  std::vector<std::string> m_counterNames{"hits"};
  std::mutex m_poolMutex;
  std::vector<std::unique_ptr<Handle>> m_pool;
};

}  // namespace wandscope::engine
