// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/peers/peer_kind.h"

#include "engine/core/error.h"

#include <string>

namespace wandscope::engine {

PeerKind parsePeerKind(std::string_view name) {
  if (name == "xapian") return PeerKind::Xapian;
  if (name == "sqlite-fts5") return PeerKind::Fts5;
  throwUsage("unknown peer engine '" + std::string(name) + "' (expected xapian or sqlite-fts5)");
}

const char* peerKindName(PeerKind kind) noexcept {
  switch (kind) {
    case PeerKind::Xapian:
      return "xapian";
    case PeerKind::Fts5:
      return "sqlite-fts5";
  }
  return "?";
}

bool isPeerKind(std::string_view name) noexcept { return name == "xapian" || name == "sqlite-fts5"; }

}  // namespace wandscope::engine
