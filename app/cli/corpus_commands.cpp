// SPDX-License-Identifier: GPL-3.0-or-later
// `corpus gen` and `queries gen`: the synthetic corpus and query-set generators.
#include "app/cli/cli_support.h"

#include "engine/core/error.h"
#include "engine/core/fs_util.h"
#include "engine/corpus/corpus_generator.h"
#include "engine/corpus/corpus_profile.h"
#include "engine/corpus/query_set_generator.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <set>
#include <stop_token>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace wandscope::app {

namespace {

struct CorpusGenArgs {
  engine::CorpusGeneratorParams params;
  // Read as signed integers and range-checked by countOption: a negative count is refused rather
  // than wrapped, and the message names the option and its range.
  std::int64_t docs = 0;
  std::int64_t meanLength = 0;
  std::int64_t vocabulary = 0;
  std::string out;
};

struct QueriesGenArgs {
  std::string corpus;
  std::string format;
  std::string category;
  std::uint32_t tokens = 0;
  std::uint32_t count = 0;
  std::uint64_t seed = engine::QuerySetParams{}.seed;
  std::string out;
  std::string sets;
  std::string outDir;
  CLI::Option* categoryOption = nullptr;
  CLI::Option* tokensOption = nullptr;
};

// "mid-df:1,rare+common:3" -> the sets in order, set i seeded with `seed + i`.
std::vector<engine::QuerySetParams> parseSetList(const std::string& spec, std::uint32_t count, std::uint64_t seed) {
  std::vector<engine::QuerySetParams> sets;
  std::set<std::pair<engine::QueryCategory, std::uint32_t>> seen;
  std::size_t begin = 0;
  for (;;) {
    const std::size_t end = std::min(spec.find(',', begin), spec.size());
    std::string item = spec.substr(begin, end - begin);
    item.erase(0, std::min(item.find_first_not_of(" \t"), item.size()));  // "a:1, b:2" is fine too
    item.erase(item.find_last_not_of(" \t") + 1);
    const std::size_t colon = item.rfind(':');
    if (item.empty() || colon == std::string::npos || colon == 0 || colon + 1 == item.size()) {
      std::string message = "--sets: expected CATEGORY:TOKENS items separated by commas, got '";
      message.append(item).append("' in '").append(spec).append("'");
      engine::throwUsage(message);
    }
    engine::QuerySetParams params;
    const char* first = item.data() + colon + 1;
    const char* last = item.data() + item.size();
    const auto [ptr, ec] = std::from_chars(first, last, params.tokens);
    if (ec != std::errc() || ptr != last) {
      std::string message = "--sets: the token count of '";
      message.append(item).append("' is not a number");
      engine::throwUsage(message);
    }
    params.count = count;
    params.seed = seed + sets.size();
    try {
      params.category = engine::parseQueryCategory(std::string_view(item).substr(0, colon));
      engine::validateQuerySetParams(params);
    } catch (const engine::Error& e) {
      std::string message = "--sets: '";
      message.append(item).append("': ").append(e.what());
      engine::throwUsage(message);
    }
    if (!seen.emplace(params.category, params.tokens).second) {
      std::string message = "--sets: '";
      message.append(item).append("' appears twice (both would write the same file)");
      engine::throwUsage(message);
    }
    sets.push_back(params);
    if (end == spec.size()) break;
    begin = end + 1;
  }
  return sets;
}

int runQueriesGen(const QueriesGenArgs& a, const std::stop_token& stop) {
  const bool single = !a.out.empty();
  const bool several = !a.outDir.empty();
  const bool hasCategory = a.categoryOption->count() > 0;
  const bool hasTokens = a.tokensOption->count() > 0;
  if (single == several) {
    engine::throwUsage(single ? "queries gen: give --out (one set) or --out-dir (--sets), not both"
                              : "queries gen: give --out FILE with --category and --tokens, or --out-dir DIR with --sets");
  }
  if (single && !a.sets.empty()) engine::throwUsage("queries gen: --sets writes one file per set; use --out-dir, not --out");
  if (single && !(hasCategory && hasTokens)) engine::throwUsage("queries gen: --out needs --category and --tokens");
  if (several && a.sets.empty()) engine::throwUsage("queries gen: --out-dir needs --sets");
  if (several && (hasCategory || hasTokens)) {
    engine::throwUsage("queries gen: --category and --tokens describe the single set of --out; with --out-dir use --sets");
  }

  std::vector<engine::QuerySetParams> sets;
  std::vector<std::filesystem::path> outputs;
  if (single) {
    engine::QuerySetParams params;
    params.category = engine::parseQueryCategory(a.category);
    params.tokens = a.tokens;
    params.count = a.count;
    params.seed = a.seed;
    engine::validateQuerySetParams(params);
    sets.push_back(params);
    outputs.emplace_back(a.out);
  } else {
    sets = parseSetList(a.sets, a.count, a.seed);
    for (const auto& params : sets) {
      outputs.push_back(std::filesystem::path(a.outDir) /
                        fmt::format("{}-{}.jsonl", engine::queryCategoryName(params.category), params.tokens));
    }
  }
  // `--out c.jsonl --corpus c.jsonl` replaced the corpus with its own queries.
  std::vector<engine::NamedPath> named;
  for (const auto& path : outputs) named.push_back({single ? "--out" : "--out-dir", path});
  engine::checkDistinctFiles(named, {{"--corpus", a.corpus}});
  const auto format = a.format.empty() ? engine::guessCorpusFormat(a.corpus) : engine::parseCorpusFormat(a.format);
  // One pass over the corpus serves every set.
  // The scan's only hook is its progress callback: it stops there. Each set is then written
  // whole (atomically); a stop between two sets keeps those already written.
  const auto profile = engine::CorpusProfile::scan(a.corpus, format, engine::scanOptionsFor(sets),
                                                   stoppableProgress(terminalProgress("queries gen"), stop));
  endProgress();
  if (several) {
    std::error_code ec;
    std::filesystem::create_directories(a.outDir, ec);
    if (ec) engine::throwIo(fmt::format("cannot create {}: {}", a.outDir, ec.message()));
  }
  for (std::size_t i = 0; i < sets.size(); ++i) {
    if (stop.stop_requested()) engine::throwUsage("queries gen cancelled");  // runStoppable reports it
    const auto queries = engine::generateQuerySet(profile, sets[i]);
    engine::writeQueriesJsonl(queries, outputs[i]);
    std::cerr << fmt::format("wrote {} queries to {}\n", queries.size(), outputs[i].string());
  }
  return 0;
}

}  // namespace

void addCorpusCommands(CLI::App& app) {
  auto* corpus = app.add_subcommand("corpus", "Synthetic corpora");
  corpus->require_subcommand(1);
  auto* gen = corpus->add_subcommand(
      "gen", "Generate a deterministic synthetic corpus (BEIR JSON lines) with Zipfian term frequencies");
  auto g = std::make_shared<CorpusGenArgs>();
  engine::CorpusGeneratorParams* params = &g->params;
  gen->add_option("--docs", g->docs,
                  fmt::format("number of documents, 1 to {} (what an index can hold)", engine::kMaxCorpusDocs))
      ->required();
  gen->add_option("--mean-len", g->meanLength, "mean document length in tokens")->required();
  gen->add_option("--vocab", g->vocabulary, fmt::format("vocabulary size (distinct words), 1 to {}", engine::kMaxVocabulary))
      ->required();
  gen->add_option("--zipf", params->zipf, "Zipf exponent s (P(rank r) ~ 1/r^s)")->capture_default_str();
  gen->add_option("--topic-words", params->topicWords,
                  "words per topic; > 0 turns topical locality on (runs of documents share a topic, so words "
                  "burst where their topic runs; docs/GENERATOR.md)")
      ->capture_default_str();
  gen->add_option("--topic-share", params->topicShare, "with topics: fraction of text tokens drawn from the topic")
      ->capture_default_str();
  gen->add_option("--topic-run", params->topicRun, "with topics: consecutive documents that share a topic")
      ->capture_default_str();
  gen->add_option("--seed", params->seed, "random seed")->capture_default_str();
  gen->add_option("--threads", params->threads, "generator threads (0 = all cores; output does not depend on it)")
      ->capture_default_str();
  gen->add_option("--out", g->out, "output file (.jsonl)")->required();
  setAction(gen, [g] {
    engine::CorpusGeneratorParams& p = g->params;
    p.docs = countOption("--docs", g->docs, 1, engine::kMaxCorpusDocs);
    p.meanLength =
        static_cast<std::uint32_t>(countOption("--mean-len", g->meanLength, 1, std::numeric_limits<std::uint32_t>::max()));
    p.vocabulary = static_cast<std::uint32_t>(countOption("--vocab", g->vocabulary, 1, engine::kMaxVocabulary));
    return runStoppable("corpus gen", [&](std::stop_token stop) {
      engine::generateCorpus(p, g->out, terminalProgress("corpus gen"), stop);
      endProgress();
      std::cerr << fmt::format("wrote {} documents to {}\n", p.docs, g->out);
      return 0;
    });
  });

  auto* queries = app.add_subcommand("queries", "Query sets");
  queries->require_subcommand(1);
  auto* qgen = queries->add_subcommand(
      "gen",
      "Draw query sets from a corpus (categories of the first seed: mid-df, rare, rare+common, sequential).\n"
      "One set: --category C --tokens T --out FILE. Several sets from one pass over the corpus:\n"
      "--sets C:T,C:T,... --out-dir DIR writes DIR/<category>-<tokens>.jsonl per set; --count applies to\n"
      "every set, and set i (from 0, in --sets order) uses seed --seed + i.");
  auto a = std::make_shared<QueriesGenArgs>();
  qgen->add_option("--corpus", a->corpus, "corpus file")->required();
  qgen->add_option("--format", a->format, "corpus format: beir or msmarco (default: from the file name)");
  a->categoryOption = qgen->add_option("--category", a->category, "mid-df | rare | rare+common | sequential (with --out)");
  a->tokensOption = qgen->add_option("--tokens", a->tokens, "tokens per query, 1..5 (with --out)");
  qgen->add_option("--count", a->count, "number of queries (per set)")->required();
  qgen->add_option("--seed", a->seed, "random seed (set i of --sets uses seed + i)")->capture_default_str();
  qgen->add_option("--out", a->out, "output file (BEIR JSON lines) of the single set");
  qgen->add_option("--sets", a->sets,
                   "comma-separated CATEGORY:TOKENS list, e.g. mid-df:1,mid-df:2,rare+common:3 (with --out-dir)");
  qgen->add_option("--out-dir", a->outDir, "output directory of --sets (created if missing)");
  setAction(qgen, [a] {
    return runStoppable("queries gen", [&](std::stop_token stop) { return runQueriesGen(*a, stop); });
  });
}

}  // namespace wandscope::app
