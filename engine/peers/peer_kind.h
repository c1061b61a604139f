// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string_view>

namespace wandscope::engine {

// The peer engines we compare against (docs/PEERS.md).
enum class PeerKind {
  Xapian,  // Xapian 1.4 (glass backend) with Xapian::BM25Weight
  Fts5,    // SQLite FTS5 with its bm25() ranking function
};

// "xapian" | "sqlite-fts5" (the target kinds); throws Usage naming the valid values.
PeerKind parsePeerKind(std::string_view name);
const char* peerKindName(PeerKind kind) noexcept;
// Whether `name` is a peer target kind.
bool isPeerKind(std::string_view name) noexcept;

}  // namespace wandscope::engine
