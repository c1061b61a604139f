// SPDX-License-Identifier: GPL-3.0-or-later
// `index build`, `index stats` and `index bound-study`.
#include "app/cli/cli_support.h"

#include "engine/core/error.h"
#include "engine/core/wording.h"
#include "engine/index/index.h"
#include "engine/index/index_builder.h"
#include "engine/query/bound_study.h"
#include "engine/query/parsed_query.h"
#include "engine/text/analyzer.h"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

namespace wandscope::app {
namespace {

nlohmann::json statsJson(const engine::Index& index) {
  const auto s = index.statistics();
  const auto& m = index.manifest();
  nlohmann::json segs = nlohmann::json::array();
  for (const auto& seg : m.segments) {
    segs.push_back({{"id", seg.id}, {"doc_base", seg.docBase}, {"docs", seg.docCount},
                    {"terms", seg.terms}, {"postings", seg.postings}, {"blocks", seg.blocks}});
  }
  return {
      {"index", index.dir().string()},
      {"format_version", m.formatVersion},
      {"generation", m.generation},
      {"analyzer", m.analyzer},
      {"bm25", {{"k1", m.bm25.k1}, {"b", m.bm25.b}}},
      {"docs", s.docs},
      {"terms", s.terms},
      {"postings", s.postings},
      {"tokens", s.totalTokens},
      {"avgdl", s.avgdl},
      {"blocks", s.blocks},
      {"segments", s.segments},
      {"store_text", m.storeText},
      {"bytes",
       {{"terms", s.termsBytes}, {"postings", s.postingsBytes}, {"bounds", s.boundsBytes},
        {"docs", s.docsBytes}, {"store", s.storeBytes}, {"total", s.totalBytes()}}},
      {"posting_bits_per_posting", s.postingBitsPerPosting()},
      {"search_bits_per_posting", s.searchBitsPerPosting()},
      {"segment_list", segs},
      {"build",
       {{"corpus", m.build.corpus}, {"corpus_bytes", m.build.corpusBytes}, {"threads", m.build.threads},
        {"seconds", m.build.seconds}, {"created_utc", m.build.createdUtc}, {"tool", m.build.tool},
        {"invalid_utf8_bytes", m.build.invalidUtf8Bytes}, {"overlong_tokens", m.build.overlongTokens},
        {"stop_words", m.build.stopWords}, {"skipped_lines", m.build.skippedLines}}},
  };
}

}  // namespace

void addIndexCommands(CLI::App& app) {
  auto* index = app.add_subcommand("index", "Build and inspect indexes");
  index->require_subcommand(1);

  auto* build = index->add_subcommand("build", "Build an index from a corpus (BEIR JSONL or MS MARCO TSV, plain or .gz)");
  auto options = std::make_shared<engine::IndexBuildOptions>();
  auto corpus = std::make_shared<std::string>();
  auto formatName = std::make_shared<std::string>();
  auto analyzerName = std::make_shared<std::string>("plain");
  auto out = std::make_shared<std::string>();
  auto skipBad = std::make_shared<bool>(false);
  auto noStore = std::make_shared<bool>(false);
  build->add_option("--corpus", *corpus, "corpus file")->required();
  build->add_option("--format", *formatName, "beir or msmarco (default: from the file name, *.tsv = msmarco)");
  build->add_option("--analyzer", *analyzerName, "plain (lowercased letters/digits) or english (+ stop words, Porter stemmer)")
      ->capture_default_str();
  build->add_option("--k1", options->bm25.k1, "BM25 k1, in [0, 1e28]")->capture_default_str();
  build->add_option("--b", options->bm25.b, "BM25 b, in [0, 1]")->capture_default_str();
  build->add_option("--threads", options->threads, "build threads (0 = all cores)")->capture_default_str();
  build->add_option("--segment-docs", options->segmentDocs, "documents per segment")->capture_default_str();
  build->add_flag("--skip-bad-lines", *skipBad, "skip malformed corpus lines (counted) instead of stopping at the first");
  build->add_flag("--no-store", *noStore, "do not keep titles and texts (no snippets; smaller index)");
  build->add_option("--max-doc-bytes", options->maxDocumentBytes,
                    "longest corpus line (document) accepted, in bytes; longer ones are bad lines")
      ->capture_default_str();
  build->add_option("--out", *out, "index directory (replaced atomically if it holds an index)")->required();
  setAction(build, [=] {
    options->corpus = *corpus;
    options->format = formatName->empty() ? engine::guessCorpusFormat(*corpus) : engine::parseCorpusFormat(*formatName);
    options->analyzer = engine::Analyzer::parseKind(*analyzerName);
    options->badLines = *skipBad ? engine::BadLinePolicy::Skip : engine::BadLinePolicy::Stop;
    options->storeText = !*noStore;
    options->progress = terminalProgress("index build");
    // A stopped build removes its staging directory and lock (StagingDirectory) and leaves --out
    // as it was.
    return runStoppable("index build", [&](std::stop_token stop) {
      options->stop = std::move(stop);
      const auto manifest = engine::buildIndex(*options, *out);
      endProgress();
      std::uint64_t postings = 0;
      for (const auto& s : manifest.segments) postings += s.postings;
      std::cerr << fmt::format("indexed {} ({}, {}) into {} in {:.1f} s",
                               engine::counted(manifest.docs, "document", "documents"),
                               engine::counted(postings, "posting", "postings"),
                               engine::counted(manifest.segments.size(), "segment", "segments"), *out,
                               manifest.build.seconds);
      if (manifest.build.skippedLines > 0) std::cerr << fmt::format("; skipped {} bad lines", manifest.build.skippedLines);
      std::cerr << '\n';
      return 0;
    });
  });

  auto* stats = index->add_subcommand("stats", "Show an index's statistics, sizes and settings");
  auto dir = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  stats->add_option("dir", *dir, "index directory")->required();
  stats->add_flag("--json", *json, "print JSON");
  setAction(stats, [=] {
    const auto idx = engine::Index::open(*dir);
    const auto j = statsJson(*idx);
    if (*json) {
      printJson(j);
      return 0;
    }
    const auto s = idx->statistics();
    const auto& m = idx->manifest();
    std::cout << fmt::format(
        "index        {}\n"
        "documents    {}\n"
        "terms        {}\n"
        "postings     {}\n"
        "tokens       {} (avgdl {:.2f})\n"
        "segments     {} ({} blocks of 128)\n"
        "analyzer     {}\n"
        "bm25         k1={} b={}\n"
        "size         {} total: postings {}, terms {}, bounds {}, docs {}, store {}\n"
        "postings     {:.2f} bits/posting (lists); {:.2f} bits/posting (all a query reads)\n"
        "built        {} by {} from {} with {} threads in {:.1f} s\n",
        idx->dir().string(), s.docs, s.terms, s.postings, s.totalTokens, s.avgdl, s.segments, s.blocks,
        m.analyzer, m.bm25.k1, m.bm25.b, humanBytes(s.totalBytes()), humanBytes(s.postingsBytes),
        humanBytes(s.termsBytes), humanBytes(s.boundsBytes), humanBytes(s.docsBytes), humanBytes(s.storeBytes),
        s.postingBitsPerPosting(), s.searchBitsPerPosting(), m.build.createdUtc, m.build.tool, m.build.corpus,
        m.build.threads, m.build.seconds);
    return 0;
  });

  auto* study = index->add_subcommand(
      "bound-study",
      "How much block-max pruning could skip for a query set: per bound granularity (postings per bound), the "
      "share of the documents an exhaustive path scores whose bound still reaches the query's final k-th score "
      "(docs/PERF.md, \"What the bounds allow\")");
  struct StudyArgs {
    std::string dir, queries, op = "or", granularities = "128,64,32,16,8";
    std::int64_t k = 10;  // signed, so that -1 is refused rather than wrapped (countOption)
    bool json = false;
  };
  auto sa = std::make_shared<StudyArgs>();
  study->add_option("dir", sa->dir, "index directory")->required();
  study->add_option("--queries", sa->queries, "query file (BEIR JSON lines or id<TAB>text)")->required();
  study->add_option("--op", sa->op, "or | and")->capture_default_str();
  study->add_option("--k", sa->k, "results per query (the floor is the k-th score)")->capture_default_str();
  study->add_option("--granularity", sa->granularities,
                    "postings per bound, comma-separated (128 = the index's blocks; runs restart per segment)")
      ->capture_default_str();
  study->add_flag("--json", sa->json, "print JSON");
  setAction(study, [sa] {
    engine::BoundStudyOptions options;
    options.op = engine::parseOperator(sa->op);
    // The limit search and run keep (kMaxK): a larger k was taken and studied as "none with k hits".
    options.k = countOption("--k", sa->k, engine::kMaxK);
    if (options.k == 0) engine::throwUsage("--k must be at least 1: the study needs a k-th score");
    options.granularities.clear();
    for (std::size_t from = 0; from <= sa->granularities.size();) {  // "a,,b" and "a," have an empty item
      const std::size_t comma = std::min(sa->granularities.find(',', from), sa->granularities.size());
      const std::string item = sa->granularities.substr(from, comma - from);
      from = comma + 1;
      std::size_t used = 0;
      unsigned long value = 0;
      try {
        value = std::stoul(item, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != item.size() || value == 0 || value > UINT32_MAX) {
        engine::throwUsage("--granularity: '" + item + "' is not a whole number of postings >= 1");
      }
      options.granularities.push_back(static_cast<std::uint32_t>(value));
    }
    const auto idx = engine::Index::open(sa->dir);
    const auto queries = readQueryFile(sa->queries);
    // A query the engine refuses (more than kMaxQueryTerms distinct terms) is a bad line of the
    // query file, named as `run` names it. The study sees only texts (its refusal was exit 2,
    // naming neither the file nor the query), so each query is parsed here first.
    engine::Analyzer analyzer(idx->analyzerKind());
    std::vector<std::string> texts;
    for (std::size_t i = 0; i < queries.size(); ++i) {
      engine::usageAsBadInput([&] { (void)engine::parseQuery(*idx, queries[i].text, analyzer); },
                              [&] { return sa->queries + ": " + queryOfFile(queries[i], i); });
      texts.push_back(queries[i].text);
    }
    const auto result = engine::studyBounds(*idx, texts, options, terminalProgress("bound study"));
    endProgress();
    const double considered = static_cast<double>(result.considered);
    if (sa->json) {
      nlohmann::json rows = nlohmann::json::array();
      for (const auto& r : result.rows) {
        rows.push_back({{"granularity", r.granularity},
                        {"reaching", r.reaching},
                        // null, not 0, when no query has a k-th score: nothing was measured.
                        {"share", considered > 0 ? nlohmann::json(static_cast<double>(r.reaching) / considered)
                                                 : nlohmann::json(nullptr)},
                        {"mean_query_share",
                         result.withKth > 0 ? nlohmann::json(r.meanQueryShare) : nlohmann::json(nullptr)}});
      }
      printJson({{"index", sa->dir}, {"queries_file", sa->queries}, {"op", sa->op}, {"k", sa->k},
                 {"queries", result.queries}, {"queries_with_kth", result.withKth},
                 {"considered", result.considered}, {"rows", rows}});
      return 0;
    }
    const std::string queriesRead = engine::counted(result.queries, "query", "queries");
    const std::string kHits = engine::counted(options.k, "hit", "hits");
    if (result.withKth == 0) {
      // No k-th score, no floor: a table would show 0 % everywhere, which reads as "the bounds
      // dismiss nothing" rather than "nothing was measured".
      std::cout << fmt::format("{}, none with {}: no query has a k-th score, so there is nothing to study "
                               "(a smaller --k may help)\n",
                               queriesRead, kHits);
      return 0;
    }
    std::cout << fmt::format(
        "{}, {} with {}{}; {} documents considered ({:.1f} per query: those an exhaustive {} path scores)\n\n",
        queriesRead, result.withKth, kHits,
        result.withKth < result.queries ? " (the others have no k-th score and are left out)" : "",
        result.considered, considered / static_cast<double>(result.withKth),
        options.op == engine::Operator::And ? "AND" : "OR");
    std::cout << "| postings per bound | reaching the k-th score | share | mean share per query |\n"
                 "|-------------------:|------------------------:|------:|---------------------:|\n";
    for (const auto& r : result.rows) {
      std::cout << fmt::format("| {} | {} | {:.1f} % | {:.1f} % |\n", r.granularity, r.reaching,
                               considered > 0 ? 100.0 * static_cast<double>(r.reaching) / considered : 0.0,
                               100.0 * r.meanQueryShare);
    }
    std::cout << "\nA document below the k-th score at its bound can be dismissed on bounds alone by a path that "
                 "knew that score\nfrom the start; each of the others needs at least one exact contribution: no "
                 "path with these bounds\nevaluates fewer documents, even in part.\n";
    return 0;
  });
}

}  // namespace wandscope::app
