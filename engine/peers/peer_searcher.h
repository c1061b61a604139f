// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/query/search_request.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace wandscope::engine {

// One result of a peer engine: the document's position in the corpus file (0-based, the order
// both peers and our index builder assign) and the peer's own score (docs/PEERS.md: scores are
// not comparable with ours, only rankings are).
struct PeerHit {
  std::uint32_t doc = 0;
  double score = 0;
};

// A search handle on a peer index. Not thread-safe: each thread uses its own (it owns a
// Xapian::Database or a sqlite3 connection).
class PeerSearcher {
 public:
  virtual ~PeerSearcher() = default;
  // Top-k of the query's distinct `terms` (already analyzed, in query order) under `op`, best
  // first. A term the peer's index lacks contributes nothing (OR) or empties the result (AND).
  virtual void search(const std::vector<std::string>& terms, Operator op, std::size_t k,
                      std::vector<PeerHit>& out) = 0;
};

}  // namespace wandscope::engine
