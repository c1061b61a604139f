// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bench/default_dataset.h"

#include "engine/core/error.h"
#include "engine/core/fs_util.h"
#include "engine/core/log.h"
#include "engine/corpus/query_reader.h"
#include "engine/index/format.h"
#include "engine/index/index.h"
#include "engine/index/index_builder.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace wandscope::engine {
namespace {

// Bump when the generator, the query-set generator or the default parameters change meaning.
// 2: the query sets are drawn from one shared CorpusProfile (the sequential sets changed).
constexpr int kDatasetVersion = 2;

std::string stampText(const DefaultDataset& d) {
  nlohmann::json j = {{"dataset_version", kDatasetVersion},
                      {"index_format_version", format::kFormatVersion},
                      {"docs", d.corpusParams.docs},
                      {"mean_len", d.corpusParams.meanLength},
                      {"vocab", d.corpusParams.vocabulary},
                      {"zipf", d.corpusParams.zipf},
                      {"seed", d.corpusParams.seed}};
  nlohmann::json sets = nlohmann::json::array();
  for (const auto& q : d.querySets) sets.push_back(q.name);
  j["query_sets"] = sets;
  return j.dump(2) + "\n";
}

// Removes what a preparation writes (never throws): the corpus, the query files, the index.
void removeDatasetFiles(const DefaultDataset& d) noexcept {
  std::error_code ec;
  std::filesystem::remove(d.corpus, ec);
  for (const auto& q : d.querySets) std::filesystem::remove(q.path, ec);
  std::filesystem::remove_all(d.index, ec);
}

}  // namespace

DefaultDataset defaultDatasetSpec(const std::filesystem::path& cacheRoot, std::uint64_t docs) {
  DefaultDataset d;
  d.dir = cacheRoot / fmt::format("default-v{}-{}", kDatasetVersion, docs);
  d.corpus = d.dir / "corpus.jsonl";
  d.index = d.dir / "index";
  d.corpusParams.docs = docs;
  d.corpusParams.meanLength = 300;
  d.corpusParams.vocabulary = 100'000;
  d.corpusParams.zipf = 1.0;
  d.corpusParams.seed = 42;
  const std::pair<QueryCategory, std::uint32_t> sets[] = {
      {QueryCategory::MidDf, 1},      {QueryCategory::MidDf, 2},      {QueryCategory::MidDf, 3},
      {QueryCategory::Sequential, 2}, {QueryCategory::Sequential, 3}, {QueryCategory::Sequential, 5},
      {QueryCategory::Rare, 2},       {QueryCategory::Rare, 3},       {QueryCategory::RareCommon, 2},
      {QueryCategory::RareCommon, 3}, {QueryCategory::RareCommon, 5},
  };
  for (const auto& [category, tokens] : sets) {
    DefaultQuerySet q;
    q.category = category;
    q.tokens = tokens;
    q.name = fmt::format("{}-{}", queryCategoryName(category), tokens);
    q.path = d.dir / "queries" / (q.name + ".jsonl");
    d.querySets.push_back(q);
  }
  return d;
}

DefaultDataset prepareDefaultDataset(DefaultDataset d, const ProgressFn& progress) {
  std::error_code ec;
  const std::string stamp = stampText(d);
  const auto stampPath = d.dir / "stamp.json";
  bool current = std::filesystem::exists(stampPath, ec) && readWholeFile(stampPath) == stamp;
  if (current) {
    // Each set whole: an emptied or cut query file was read as a set of 0 queries and a run
    // over it reported nothing, exit 0 (review, stop 32). A damaged cache is made again.
    for (const auto& q : d.querySets) {
      if (!current) break;
      try {
        current = readQueries(q.path, BadLinePolicy::Stop).size() == kQueriesPerSet;
      } catch (const Error&) {
        current = false;
      }
      if (!current) log::warn("default query set " + q.path.string() + " is damaged, making the dataset again");
    }
    current = current && std::filesystem::exists(d.corpus, ec);
    if (current) {
      try {
        (void)Index::open(d.index);
      } catch (const Error& e) {
        log::warn(std::string("default index is unusable, rebuilding it: ") + e.what());
        current = false;
      }
    }
  }
  if (current) return d;

  // Set i: kQueriesPerSet queries, seed 1000 + i; checked before the slow steps.
  std::vector<QuerySetParams> params;
  for (std::size_t i = 0; i < d.querySets.size(); ++i) {
    QuerySetParams p;
    p.category = d.querySets[i].category;
    p.tokens = d.querySets[i].tokens;
    p.count = kQueriesPerSet;
    p.seed = 1000 + i;
    validateQuerySetParams(p);
    params.push_back(p);
  }
  d.rebuilt = true;
  std::filesystem::create_directories(d.dir / "queries", ec);
  if (ec) throwIo("cannot create " + d.dir.string() + ": " + ec.message());
  std::filesystem::remove(stampPath, ec);
  // A failure or a stop (the progress callback throwing) from here on leaves no part of the
  // dataset: a stop at the corpus's last report left a complete corpus.jsonl without a stamp.
  try {
    generateCorpus(d.corpusParams, d.corpus, progress);
    // All sets from one scan of the corpus (a scan costs seconds; drawing a set, milliseconds).
    const CorpusProfile profile = CorpusProfile::scan(d.corpus, CorpusFormat::Beir, scanOptionsFor(params), progress);
    for (std::size_t i = 0; i < d.querySets.size(); ++i) {
      writeQueriesJsonl(generateQuerySet(profile, params[i]), d.querySets[i].path);
    }
    IndexBuildOptions options;
    options.corpus = d.corpus;
    options.progress = progress;
    buildIndex(options, d.index);
    writeFileAtomically(stampPath, stamp);
  } catch (...) {
    removeDatasetFiles(d);
    throw;
  }
  return d;
}

}  // namespace wandscope::engine
