// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/progress.h"
#include "engine/peers/peer_kind.h"
#include "engine/peers/peer_manifest.h"
#include "engine/peers/peer_searcher.h"
#include "engine/text/analyzer.h"

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace wandscope::engine {

struct PeerBuildOptions {
  std::filesystem::path corpus;            // BEIR JSON lines (.gz ok) or MS MARCO tsv, by name
  AnalyzerKind analyzer = AnalyzerKind::Plain;
  std::filesystem::path dir;               // the peer index directory to create (replaced if present)
  ProgressFn progress;                     // stage "indexing" in corpus bytes, then "merging"
};

// An opened peer index (docs/PEERS.md): Xapian or SQLite FTS5 fed exactly our analyzer's tokens.
// Immutable and shareable between threads; searching goes through per-thread PeerSearchers.
class PeerEngine {
 public:
  virtual ~PeerEngine() = default;
  PeerEngine(const PeerEngine&) = delete;
  PeerEngine& operator=(const PeerEngine&) = delete;

  // Builds a peer index of `options.corpus` (in a staging directory beside options.dir, installed
  // at the end), then opens it. Errors name the corpus file and line.
  static std::shared_ptr<const PeerEngine> build(PeerKind kind, const PeerBuildOptions& options);
  // Opens a finished peer index; throws Index naming the directory when it is not one.
  static std::shared_ptr<const PeerEngine> open(PeerKind kind, const std::filesystem::path& dir);

  PeerKind kind() const noexcept { return m_manifest.kind; }
  const std::filesystem::path& dir() const noexcept { return m_dir; }
  const PeerManifest& manifest() const noexcept { return m_manifest; }
  AnalyzerKind analyzerKind() const noexcept { return m_analyzerKind; }
  std::uint64_t docCount() const noexcept { return m_ids.size(); }
  // The external id of corpus document `doc` (0-based); empty when out of range.
  std::string_view externalId(std::uint32_t doc) const noexcept {
    return doc < m_ids.size() ? std::string_view(m_ids[doc]) : std::string_view();
  }

  // A new search handle (its own database handle / connection) for one thread.
  virtual std::unique_ptr<PeerSearcher> openSearcher() const = 0;

 protected:
  PeerEngine(std::filesystem::path dir, PeerManifest manifest);

 private:
  std::filesystem::path m_dir;
  PeerManifest m_manifest;
  AnalyzerKind m_analyzerKind = AnalyzerKind::Plain;
  std::vector<std::string> m_ids;
};

// The distinct terms of `text` under `analyzer`, in order of first occurrence (docs/SCORING.md
// section 2: how our engine reads a query).
std::vector<std::string> peerQueryTerms(Analyzer& analyzer, std::string_view text);

}  // namespace wandscope::engine
