// SPDX-License-Identifier: GPL-3.0-or-later
// `corpus gen` and `queries gen`: the synthetic corpus and query-set generators.
#include "app/cli/cli_support.h"

#include "engine/corpus/corpus_generator.h"
#include "engine/corpus/query_set_generator.h"

#include <fmt/format.h>

#include <iostream>
#include <memory>

namespace wandscope::app {

void addCorpusCommands(CLI::App& app) {
  auto* corpus = app.add_subcommand("corpus", "Synthetic corpora");
  corpus->require_subcommand(1);
  auto* gen = corpus->add_subcommand(
      "gen", "Generate a deterministic synthetic corpus (BEIR JSON lines) with Zipfian term frequencies");
  auto params = std::make_shared<engine::CorpusGeneratorParams>();
  auto out = std::make_shared<std::string>();
  gen->add_option("--docs", params->docs, "number of documents")->required()->check(CLI::PositiveNumber);
  gen->add_option("--mean-len", params->meanLength, "mean document length in tokens")
      ->required()
      ->check(CLI::PositiveNumber);
  gen->add_option("--vocab", params->vocabulary, "vocabulary size (distinct words)")
      ->required()
      ->check(CLI::PositiveNumber);
  gen->add_option("--zipf", params->zipf, "Zipf exponent s (P(rank r) ~ 1/r^s)")->capture_default_str();
  gen->add_option("--seed", params->seed, "random seed")->capture_default_str();
  gen->add_option("--threads", params->threads, "generator threads (0 = all cores; output does not depend on it)")
      ->capture_default_str();
  gen->add_option("--out", *out, "output file (.jsonl)")->required();
  setAction(gen, [params, out] {
    engine::generateCorpus(*params, *out, terminalProgress("corpus gen"));
    endProgress();
    std::cerr << fmt::format("wrote {} documents to {}\n", params->docs, *out);
    return 0;
  });

  auto* queries = app.add_subcommand("queries", "Query sets");
  queries->require_subcommand(1);
  auto* qgen = queries->add_subcommand(
      "gen", "Draw a query set from a corpus (categories of the first seed: mid-df, rare, rare+common, sequential)");
  auto qparams = std::make_shared<engine::QuerySetParams>();
  auto corpusPath = std::make_shared<std::string>();
  auto formatName = std::make_shared<std::string>();
  auto category = std::make_shared<std::string>();
  auto qout = std::make_shared<std::string>();
  qgen->add_option("--corpus", *corpusPath, "corpus file")->required();
  qgen->add_option("--format", *formatName, "corpus format: beir or msmarco (default: from the file name)");
  qgen->add_option("--category", *category, "mid-df | rare | rare+common | sequential")->required();
  qgen->add_option("--tokens", qparams->tokens, "tokens per query (1..5)")->required();
  qgen->add_option("--count", qparams->count, "number of queries")->required();
  qgen->add_option("--seed", qparams->seed, "random seed")->capture_default_str();
  qgen->add_option("--out", *qout, "output file (BEIR JSON lines)")->required();
  setAction(qgen, [=] {
    qparams->category = engine::parseQueryCategory(*category);
    const auto format = formatName->empty() ? engine::guessCorpusFormat(*corpusPath)
                                            : engine::parseCorpusFormat(*formatName);
    const auto set = engine::generateQuerySet(*corpusPath, format, *qparams, terminalProgress("queries gen"));
    endProgress();
    engine::writeQueriesJsonl(set, *qout);
    std::cerr << fmt::format("wrote {} queries to {}\n", set.size(), *qout);
    return 0;
  });
}

}  // namespace wandscope::app
