// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace wandscope::engine {

// The backend half of a peer build: receives every document's analyzed tokens (our analyzer's
// output, in text order, duplicates kept) in corpus order; document i becomes the peer's
// document i + 1 (Xapian docid, SQLite rowid). Created by XapianPeer/Fts5Peer::createWriter.
class PeerIndexWriter {
 public:
  virtual ~PeerIndexWriter() = default;
  virtual void add(const std::vector<std::string>& tokens) = 0;
  // Flushes, merges/optimizes and closes; the files are complete afterwards.
  virtual void finish() = 0;
  virtual std::string peerVersion() const = 0;
  virtual std::string settings() const = 0;
};

}  // namespace wandscope::engine
