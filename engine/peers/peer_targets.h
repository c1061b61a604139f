// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/progress.h"
#include "engine/index/index.h"
#include "engine/loadgen/target_spec.h"
#include "engine/peers/peer_engine.h"
#include "engine/query/search_request.h"

#include <filesystem>
#include <memory>

namespace wandscope::engine {

// A peer target's options: "xapian:dir=PATH,corpus=PATH,op=and,k=10".
//   dir     the peer index directory (default: beside our index, `<index>.xapian` / `<index>.fts5`)
//   corpus  build the peer index from this corpus when `dir` holds none (the default dataset's
//           corpus is used when the profile has one)
//   op, k   override the profile's operator and k
struct PeerTargetOptions {
  PeerKind kind = PeerKind::Xapian;
  std::filesystem::path dir;
  std::filesystem::path corpus;
  Operator op = Operator::And;
  std::size_t k = 10;

  // Throws Usage naming the spec for an unknown key or a bad value.
  static PeerTargetOptions fromSpec(const TargetSpec& spec, Operator op, std::size_t k);
};

// Where a peer index of `kind` is cached beside our index directory.
std::filesystem::path defaultPeerDir(PeerKind kind, const std::filesystem::path& indexDir);

// Opens the peer index at `dir`; when there is none and `corpus` is not empty, builds it first.
// With `index`, checks that the peer holds the same analyzer and document count (else Index
// error naming both directories: a peer built from another corpus).
std::shared_ptr<const PeerEngine> openOrBuildPeer(PeerKind kind, const std::filesystem::path& dir,
                                                  const std::filesystem::path& corpus, const Index* index,
                                                  const ProgressFn& progress = {});

// Registers the `xapian` and `sqlite-fts5` target kinds with the bench runner
// (registerTargetFactory). Idempotent; programs that link engine_peers call it once at start-up.
void installPeerTargets();

}  // namespace wandscope::engine
