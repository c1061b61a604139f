// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/index/segment_files.h"
#include "engine/score/bm25.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace wandscope::engine {

// How an index was built; informational (shown by `index stats`), not checked on open.
struct BuildInfo {
  std::string corpus;            // the corpus path as given
  std::uint64_t corpusBytes = 0;
  unsigned threads = 0;
  double seconds = 0;
  std::string createdUtc;        // ISO 8601
  std::string tool;              // "wandscope <version> (<git commit>)"
  std::uint64_t invalidUtf8Bytes = 0;
  std::uint64_t overlongTokens = 0;
  std::uint64_t stopWords = 0;
  std::uint64_t skippedLines = 0;
};

// The root of an index generation: what the segments are and the statistics and settings that
// every query must use. Stored as MANIFEST-<generation> (JSON plus a CRC-32 line); the file
// CURRENT names the live one. See docs/FORMAT.md.
struct Manifest {
  std::uint32_t formatVersion = 0;
  std::uint64_t generation = 1;
  std::string analyzer;  // Analyzer::identity()
  Bm25Params bm25;
  std::uint64_t docs = 0;
  std::uint64_t totalTokens = 0;
  bool storeText = true;
  std::vector<SegmentInfo> segments;
  BuildInfo build;

  std::string serialize() const;
  // Throws Error(Index) naming `name` when the text is not a valid manifest.
  static Manifest parse(const std::string& text, const std::string& name);
};

// Writes MANIFEST-<generation> and then atomically points CURRENT at it.
void writeManifest(const std::filesystem::path& dir, const Manifest& manifest);
// Reads the manifest CURRENT names. Error(Index) when the directory is not an index.
Manifest readCurrentManifest(const std::filesystem::path& dir);
std::string manifestFileName(std::uint64_t generation);

}  // namespace wandscope::engine
