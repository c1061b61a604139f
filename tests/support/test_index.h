// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/corpus/document.h"
#include "engine/index/index.h"
#include "engine/index/index_builder.h"
#include "tests/support/temp_dir.h"

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace wandscope::test {

// A tiny corpus DSL: "d0: a b c / d1: a a / d2: c" -> documents d0, d1, d2 with those texts
// (empty titles). Ids and texts are trimmed.
std::vector<engine::Document> corpusFromDsl(const std::string& dsl);

// Writes documents as BEIR JSON lines.
void writeCorpus(const std::filesystem::path& path, const std::vector<engine::Document>& docs);

// An index built into its own temporary directory from in-memory documents.
struct TestIndex {
  TempDir dir;
  std::filesystem::path corpusPath;
  std::filesystem::path indexPath;
  std::vector<engine::Document> docs;
  std::shared_ptr<const engine::Index> index;
};

// Builds with `options` (corpus and progress are filled in; threads default to 2).
std::unique_ptr<TestIndex> buildTestIndex(const std::vector<engine::Document>& docs,
                                          engine::IndexBuildOptions options = {});

// Random corpora for property tests: skewed document lengths (1..maxLen, many short, some long),
// a skewed vocabulary (a few very frequent words, many rare ones), and duplicate documents so
// scores tie. Words are "w<rank>".
struct RandomCorpusParams {
  std::size_t docs = 500;
  std::size_t vocabulary = 200;
  std::size_t maxLength = 60;
  double duplicateFraction = 0.1;
};
std::vector<engine::Document> randomCorpus(std::uint64_t seed, const RandomCorpusParams& params = {});

// A random query of 1..maxTerms words drawn from the corpus vocabulary (possibly repeated,
// possibly unknown with small probability).
std::string randomQuery(std::mt19937_64& rng, const RandomCorpusParams& params, std::size_t maxTerms);

}  // namespace wandscope::test
