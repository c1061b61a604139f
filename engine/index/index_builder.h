// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/progress.h"
#include "engine/corpus/corpus_reader.h"
#include "engine/index/manifest.h"
#include "engine/score/bm25.h"
#include "engine/text/analyzer.h"

#include <cstdint>
#include <filesystem>
#include <stop_token>

namespace wandscope::engine {

struct IndexBuildOptions {
  std::filesystem::path corpus;
  CorpusFormat format = CorpusFormat::Beir;
  BadLinePolicy badLines = BadLinePolicy::Stop;
  AnalyzerKind analyzer = AnalyzerKind::Plain;
  Bm25Params bm25;
  unsigned threads = 0;                 // 0 = hardware concurrency
  std::uint32_t segmentDocs = 262'144;  // documents per segment (build memory scales with it)
  bool storeText = true;                // keep title and text for snippets
  std::uint64_t maxDocumentBytes = kDefaultMaxDocumentBytes;  // longer corpus lines are bad lines
  ProgressFn progress;
  std::stop_token stop;                 // cancels the build (Error(Usage) "cancelled"), nothing is left behind
};

// Builds an index from a corpus into `out`, in parallel: the corpus is cut into segments of
// consecutive documents (doc ids follow corpus order), each inverted and written by one of
// `threads` workers; then the collection statistics are known and every segment's block maxima
// are computed. Everything is written into a temporary directory beside `out` and installed only
// when complete (an existing index at `out` is replaced atomically; an interrupted build leaves it
// untouched). Titles and texts are indexed together ("title text"). Duplicate document ids are an
// error naming both lines.
Manifest buildIndex(const IndexBuildOptions& options, const std::filesystem::path& out);

}  // namespace wandscope::engine
