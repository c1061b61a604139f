// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/peers/peer_engine.h"
#include "engine/peers/peer_index_writer.h"

#include <filesystem>
#include <memory>

namespace wandscope::engine {

// SQLite FTS5 as a peer (docs/PEERS.md): `<dir>/fts5.db` with one table
//   CREATE VIRTUAL TABLE docs USING fts5(body, tokenize='ascii', detail=full)
// where row i + 1 = corpus document i, its body our analyzer's tokens joined by single spaces.
// The `ascii` tokenizer is the identity on those tokens (they hold no ASCII separators or upper
// case, and it passes every non-ASCII byte through unchanged), so FTS5 indexes exactly our terms.
// The build ends with 'optimize' (one merged segment). Searches
//   SELECT rowid, rank FROM docs WHERE docs MATCH '"t1" AND "t2"' ORDER BY rank LIMIT k
// (rank = bm25(docs), k1 = 1.2, b = 0.75 fixed by SQLite; negative, best first).
class Fts5Peer final : public PeerEngine {
 public:
  static std::shared_ptr<const Fts5Peer> open(const std::filesystem::path& dir);
  static std::unique_ptr<PeerIndexWriter> createWriter(const std::filesystem::path& dir);

  std::unique_ptr<PeerSearcher> openSearcher() const override;

  // The MATCH expression for `terms` ("\"a\" AND \"b\""); terms are quoted ('"' doubled).
  static std::string matchExpression(const std::vector<std::string>& terms, Operator op);

 private:
  Fts5Peer(std::filesystem::path dir, PeerManifest manifest);
  std::filesystem::path databasePath() const { return dir() / "fts5.db"; }
};

}  // namespace wandscope::engine
