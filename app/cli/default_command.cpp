// SPDX-License-Identifier: GPL-3.0-or-later
// `default`: the quick start's main job. Prepares the embedded default (a generated corpus, its
// query sets and index, cached) and runs every query set, printing results and statistics.
#include "app/cli/cli_support.h"

#include "engine/bench/default_dataset.h"
#include "engine/bench/query_set_timing.h"
#include "engine/core/fs_util.h"
#include "engine/core/wording.h"
#include "engine/corpus/query_reader.h"
#include "engine/index/index.h"
#include "engine/query/searcher.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace wandscope::app {
namespace {

// A word as a POSIX shell reads it back: as it is when it holds only characters no shell treats
// specially, else in single quotes (a quote inside written '\''). The next steps are for pasting,
// and a cache path may hold spaces.
std::string shellWord(const std::string& text) {
  const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || std::string_view("_-./:=,+@%").find(c) != std::string_view::npos;
  });
  if (plain) return text;
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

struct ExampleQuery {
  std::string text;
  bool hasHits = false;
};

// A query of the default's mid-df-2 set (two words of mid document frequency) whose AND has hits,
// for the next steps to show something; the first of the set, said to find nothing, if none has
// (a small --docs).
std::optional<ExampleQuery> exampleQuery(const engine::DefaultDataset& d, const engine::Index& index) {
  const auto set = std::find_if(d.querySets.begin(), d.querySets.end(),
                                [](const engine::DefaultQuerySet& q) { return q.name == "mid-df-2"; });
  if (set == d.querySets.end()) return std::nullopt;
  const auto queries = engine::readQueries(set->path);
  if (queries.empty()) return std::nullopt;
  for (const auto& q : queries) {
    engine::SearchRequest request;
    request.text = q.text;
    request.op = engine::Operator::And;
    request.k = 1;
    request.describePlan = false;
    if (!engine::search(index, request).hits.empty()) return ExampleQuery{q.text, true};
  }
  return ExampleQuery{queries.front().text, false};
}

}  // namespace

void addDefaultCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "default",
      "Prepare the embedded default dataset (generated corpus, query sets, index; cached under "
      "$XDG_CACHE_HOME/wandscope) and run its query sets, printing a results and statistics summary");
  struct Args {
    std::string cache;
    std::uint64_t docs = 200'000;
    bool prepareOnly = false;
    bool json = false;
    std::size_t passes = 3;
    std::size_t k = 10;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("--cache", a->cache, "cache directory (default $XDG_CACHE_HOME/wandscope)");
  cmd->add_option("--docs", a->docs, "documents in the generated corpus")->capture_default_str();
  cmd->add_option("--passes", a->passes, "timed passes per query set")->capture_default_str();
  cmd->add_option("--k", a->k, "results per query")->capture_default_str();
  cmd->add_flag("--prepare-only", a->prepareOnly, "only make sure the dataset exists; print its paths");
  cmd->add_flag("--json", a->json, "print JSON");
  setAction(cmd, [a] {
    const std::filesystem::path cache = a->cache.empty() ? engine::userCacheDir() : std::filesystem::path(a->cache);
    auto spec = engine::defaultDatasetSpec(cache, a->docs);
    if (!std::filesystem::exists(spec.dir / "stamp.json")) {
      std::cerr << fmt::format("preparing the default dataset in {} (first run only)...\n", spec.dir.string());
    }
    const auto d = engine::prepareDefaultDataset(spec, terminalProgress("default"));
    endProgress();
    const auto index = engine::Index::open(d.index);
    const auto stats = index->statistics();
    nlohmann::json j = {{"dir", d.dir.string()},
                        {"corpus", d.corpus.string()},
                        {"index", d.index.string()},
                        {"docs", stats.docs},
                        {"terms", stats.terms},
                        {"postings", stats.postings},
                        {"segments", stats.segments},
                        {"posting_bits_per_posting", stats.postingBitsPerPosting()}};
    nlohmann::json sets = nlohmann::json::array();
    for (const auto& q : d.querySets) sets.push_back({{"name", q.name}, {"path", q.path.string()}});
    j["query_sets"] = sets;
    if (a->prepareOnly) {
      printJson(j);
      return 0;
    }
    if (!a->json) {
      std::cout << fmt::format(
          "Wandscope default dataset: {} (mean length {}, vocabulary {}, Zipf {}), "
          "{}, {}\nindex {}: {}, {:.2f} bits/posting; k = {}, {} per set\n\n",
          engine::counted(stats.docs, "generated document", "generated documents"), d.corpusParams.meanLength,
          engine::grouped(d.corpusParams.vocabulary), d.corpusParams.zipf, engine::counted(stats.terms, "term", "terms"),
          engine::counted(stats.postings, "posting", "postings"), d.index.string(),
          engine::counted(stats.segments, "segment", "segments"), stats.postingBitsPerPosting(), a->k,
          engine::counted(a->passes, "timed pass", "timed passes"));
      std::cout << fmt::format("{:<20} {:<4} {:>7} {:>8} {:>12} {:>13} {:>12} {:>10}\n", "query set", "op",
                               "queries", "hits/q", "postings/q", "scored/q", "CPU ms/q", "p50 ms");
    }
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& q : d.querySets) {
      const auto queries = engine::readQueries(q.path);
      for (const auto op : {engine::Operator::Or, engine::Operator::And}) {
        std::vector<engine::SearchRequest> requests;
        for (const auto& r : queries) {
          engine::SearchRequest req;
          req.text = r.text;
          req.op = op;
          req.k = a->k;
          req.describePlan = false;  // timed: the words are never read
          requests.push_back(std::move(req));
        }
        const auto t = engine::timeQuerySet(*index, requests, a->passes, 0.2);
        const double n = static_cast<double>(std::max<std::size_t>(1, t.queries));
        const double postings = static_cast<double>(t.counters.postingsDecoded) / n;
        const double scored = static_cast<double>(t.counters.fullScores) / n;
        const double hits = static_cast<double>(t.hits) / n;
        rows.push_back({{"set", q.name}, {"op", engine::operatorName(op)}, {"queries", t.queries},
                        {"hits_per_query", hits}, {"postings_per_query", postings},
                        {"scored_per_query", scored}, {"cpu_ms_per_query", t.cpuMsPerQuery},
                        {"wall_ms_p50", t.wallMsP50 ? nlohmann::json(*t.wallMsP50) : nlohmann::json(nullptr)}});
        if (!a->json) {
          std::cout << fmt::format("{:<20} {:<4} {:>7} {:>8.1f} {:>12.0f} {:>13.0f} {:>12.3f} {:>10}\n", q.name,
                                   engine::operatorName(op), t.queries, hits, postings, scored, t.cpuMsPerQuery,
                                   t.wallMsP50 ? fmt::format("{:.3f}", *t.wallMsP50) : std::string("absent"));
        }
      }
    }
    if (a->json) {
      j["results"] = rows;
      printJson(j);
    } else {
      std::cout << "\nCPU ms/q is process CPU time per query (mean over passes); p50 is nearest-rank wall time, "
                   "absent with fewer than 200 samples.\n";
      // Next steps on a real query of the default (a placeholder "..." found nothing).
      if (const auto example = exampleQuery(d, *index)) {
        std::cout << fmt::format(
            "\nNext:\n"
            "  {2}:\n"
            "    wandscope-cli search {0} --query {1} --op and --explain\n"
            "  every pruning step as JSON (the workbench's Trace page steps through the same):\n"
            "    wandscope-cli search {0} --query {1} --algo bmw --trace trace.json\n"
            "  an open-loop load ladder (run from the source tree):\n"
            "    wandscope-cli bench --profile benchprofiles/smoke.json --out smoke-report\n",
            shellWord(d.index.string()), shellWord(example->text),
            example->hasHits ? "why these hits, term by term"
                             : "term by term (no query of the set finds documents in an AND at this size)");
      }
    }
    return 0;
  });
}

}  // namespace wandscope::app
