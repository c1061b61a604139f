// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/peers/peer_target.h"

namespace wandscope::engine {

PeerTarget::PeerTarget(std::string specText, std::shared_ptr<const PeerEngine> peer, const Workload& workload,
                       Operator op, std::size_t k)
    : m_spec(std::move(specText)), m_peer(std::move(peer)), m_op(op), m_k(k) {
  for (const auto& set : workload.sets()) m_texts.push_back(set.texts);
  release(acquire());  // opens the first handle now: a broken index fails here, not per request
}

std::unique_ptr<PeerTarget::Handle> PeerTarget::acquire() {
  {
    std::lock_guard lock(m_poolMutex);
    if (!m_pool.empty()) {
      auto h = std::move(m_pool.back());
      m_pool.pop_back();
      return h;
    }
  }
  auto h = std::make_unique<Handle>();
  h->searcher = m_peer->openSearcher();
  h->analyzer = Analyzer(m_peer->analyzerKind());
  return h;
}

void PeerTarget::release(std::unique_ptr<Handle> handle) {
  std::lock_guard lock(m_poolMutex);
  m_pool.push_back(std::move(handle));
}

bool PeerTarget::execute(const WorkItem& item, std::span<std::uint64_t> counters) {
  if (item.querySet >= m_texts.size() || item.query >= m_texts[item.querySet].size()) return false;
  auto handle = acquire();
  const auto terms = peerQueryTerms(handle->analyzer, m_texts[item.querySet][item.query]);
  handle->searcher->search(terms, m_op, m_k, handle->hits);
  if (!counters.empty()) counters[0] = handle->hits.size();
  release(std::move(handle));
  return true;
}

}  // namespace wandscope::engine
