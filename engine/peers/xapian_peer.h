// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/peers/peer_engine.h"
#include "engine/peers/peer_index_writer.h"

#include <filesystem>
#include <memory>

namespace wandscope::engine {

// Xapian 1.4 as a peer (docs/PEERS.md): a glass database under `<dir>/xapian`, document i + 1 =
// corpus document i with one Document::add_term per analyzed token (wdf = tf, document length =
// token count, no positions), compacted after the build. Searches Query::OP_AND / OP_OR over the
// terms with Enquire + BM25Weight(k1 = 1.2, k2 = 0, k3 = 1, b = 0.75, min_normlen = 0).
class XapianPeer final : public PeerEngine {
 public:
  static constexpr double kK1 = 1.2;
  static constexpr double kB = 0.75;

  static std::shared_ptr<const XapianPeer> open(const std::filesystem::path& dir);
  // The backend of PeerEngine::build, writing into `dir` (created by the caller).
  static std::unique_ptr<PeerIndexWriter> createWriter(const std::filesystem::path& dir);

  std::unique_ptr<PeerSearcher> openSearcher() const override;

 private:
  XapianPeer(std::filesystem::path dir, PeerManifest manifest);
  std::filesystem::path databasePath() const { return dir() / "xapian"; }
};

}  // namespace wandscope::engine
