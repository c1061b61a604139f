// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/peers/peer_targets.h"

#include "engine/core/error.h"
#include "engine/loadgen/target_factory.h"
#include "engine/peers/peer_target.h"

#include <fmt/format.h>

#include <charconv>

namespace wandscope::engine {
namespace fs = std::filesystem;

PeerTargetOptions PeerTargetOptions::fromSpec(const TargetSpec& spec, Operator op, std::size_t k) {
  PeerTargetOptions o;
  o.kind = parsePeerKind(spec.kind);
  o.op = op;
  o.k = k;
  for (const auto& [key, value] : spec.options) {
    try {
      if (key == "dir") {
        o.dir = value;
      } else if (key == "corpus") {
        o.corpus = value;
      } else if (key == "op") {
        o.op = parseOperator(value);
      } else if (key == "k") {
        std::size_t v = 0;
        const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
        if (ec != std::errc() || ptr != value.data() + value.size() || v == 0 || v > kMaxK) {
          throwUsage(fmt::format("k must be an integer in [1, {}], got '{}'", kMaxK, value));
        }
        o.k = v;
      } else {
        throwUsage(fmt::format("{}: unknown option (expected dir, corpus, op or k)", key));
      }
    } catch (const Error& e) {
      throwUsage(fmt::format("target '{}': {}", spec.text, e.what()));
    }
  }
  return o;
}

fs::path defaultPeerDir(PeerKind kind, const fs::path& indexDir) {
  fs::path base = indexDir;
  if (!base.has_filename()) base = base.parent_path();  // "idx/" -> "idx"
  base += kind == PeerKind::Xapian ? ".xapian" : ".fts5";
  return base;
}

std::shared_ptr<const PeerEngine> openOrBuildPeer(PeerKind kind, const fs::path& dir, const fs::path& corpus,
                                                  const Index* index, const ProgressFn& progress) {
  std::error_code ec;
  std::shared_ptr<const PeerEngine> peer;
  if (!corpus.empty() && !fs::exists(dir / PeerManifest::kFileName, ec)) {
    PeerBuildOptions b;
    b.corpus = corpus;
    b.dir = dir;
    b.analyzer = index != nullptr ? index->analyzerKind() : AnalyzerKind::Plain;
    b.progress = progress;
    peer = PeerEngine::build(kind, b);
  } else {
    peer = PeerEngine::open(kind, dir);
  }
  if (index != nullptr) {
    if (peer->manifest().analyzer != index->manifest().analyzer) {
      throwIndex(fmt::format("{}: built with analyzer {}, but the index {} uses {}", dir.string(),
                             peer->manifest().analyzer, index->dir().string(), index->manifest().analyzer));
    }
    if (peer->docCount() != index->docCount()) {
      throwIndex(fmt::format("{}: holds {} documents, but the index {} holds {}: built from another corpus? (delete "
                             "it to rebuild)",
                             dir.string(), peer->docCount(), index->dir().string(), index->docCount()));
    }
  }
  return peer;
}

void installPeerTargets() {
  for (const PeerKind kind : {PeerKind::Xapian, PeerKind::Fts5}) {
    registerTargetFactory(peerKindName(kind), [](const TargetSpec& spec, const TargetContext& context) {
      const auto o = PeerTargetOptions::fromSpec(spec, context.op, context.k);
      if (!context.index || context.workload == nullptr) {
        throwUsage(fmt::format("target '{}' needs a dataset with an index and query sets", spec.text));
      }
      const fs::path dir = o.dir.empty() ? defaultPeerDir(o.kind, context.index->dir()) : o.dir;
      const fs::path corpus = o.corpus.empty() ? context.corpus : o.corpus;
      auto peer = openOrBuildPeer(o.kind, dir, corpus, context.index.get(), context.progress);
      return std::unique_ptr<Target>(std::make_unique<PeerTarget>(spec.text, std::move(peer), *context.workload, o.op, o.k));
    });
  }
}

}  // namespace wandscope::engine
