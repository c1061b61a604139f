// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/peers/peer_kind.h"

#include <cstdint>
#include <filesystem>
#include <string>

namespace wandscope::engine {

// `peer.json` in a peer index directory: what was indexed, how, and what it cost. Written last by
// a build, so a directory without it is an unfinished build.
struct PeerManifest {
  static constexpr int kFormatVersion = 1;
  static constexpr const char* kFileName = "peer.json";
  static constexpr const char* kIdsFileName = "ids.txt";  // external ids, one a line, corpus order

  PeerKind kind = PeerKind::Xapian;
  std::string analyzer;           // our analyzer's identity ("plain/1"): the tokens fed to the peer
  std::string corpus;             // corpus file as given to the build
  std::uint64_t docs = 0;
  std::uint64_t tokens = 0;       // total tokens (sum of document lengths)
  std::uint64_t postings = 0;     // distinct (term, document) pairs
  double buildSeconds = 0;        // wall time of the whole build (read, analyze, index, merge)
  std::uint64_t indexBytes = 0;   // the peer's own files (not ids.txt / peer.json)
  std::string peerVersion;        // Xapian or SQLite version string
  std::string settings;           // backend settings, e.g. "tokenize=ascii detail=full"

  // Bits of the peer's index files per posting.
  double bitsPerPosting() const noexcept {
    return postings == 0 ? 0.0 : 8.0 * static_cast<double>(indexBytes) / static_cast<double>(postings);
  }

  // Throws Index naming the file when it is missing, malformed or of another kind/version.
  static PeerManifest read(const std::filesystem::path& dir, PeerKind expected);
  void write(const std::filesystem::path& dir) const;
};

}  // namespace wandscope::engine
