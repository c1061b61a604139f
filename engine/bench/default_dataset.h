// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/progress.h"
#include "engine/corpus/corpus_generator.h"
#include "engine/corpus/query_set_generator.h"

#include <filesystem>
#include <string>
#include <vector>

namespace wandscope::engine {

// One query set of the default dataset (the first seed's shapes).
struct DefaultQuerySet {
  std::string name;  // "mid-df-2"
  QueryCategory category;
  std::uint32_t tokens;
  std::filesystem::path path;
};

// The embedded default: a generated corpus big enough to show pruning, its index and its query
// sets, cached under `<cache>/default-v<N>/` and rebuilt only when missing or stale (a stamp file
// records the parameters and the index format version).
struct DefaultDataset {
  std::filesystem::path dir;
  std::filesystem::path corpus;
  std::filesystem::path index;
  CorpusGeneratorParams corpusParams;
  std::vector<DefaultQuerySet> querySets;
  bool rebuilt = false;  // whether this call (re)generated anything
};

// Queries in each set of the default.
inline constexpr std::size_t kQueriesPerSet = 100;

// The default's parameters: 200,000 documents of ~300 tokens over a 100,000-word Zipf(1.0)
// vocabulary, seed 42; 100 queries per set for mid-df 1/2/3, sequential 2/3/5, rare 2/3 and
// rare+common 2/3/5 (set i has seed 1000 + i; all drawn from one CorpusProfile scan of the corpus).
// `docs` overrides the document count (tests use small values).
DefaultDataset defaultDatasetSpec(const std::filesystem::path& cacheRoot, std::uint64_t docs = 200'000);

// Makes sure the dataset described by `spec` exists and is current (its stamp matches, its index
// opens and each query file holds its kQueriesPerSet queries), making it again otherwise; returns it.
DefaultDataset prepareDefaultDataset(DefaultDataset spec, const ProgressFn& progress = {});

}  // namespace wandscope::engine
