// SPDX-License-Identifier: GPL-3.0-or-later
// `run`: a whole query set, written as a TREC run or a bit-exact dump; optionally per-query
// counters and a CPU-per-query timing summary (the first seed's method). `--target xapian|sqlite-fts5`
// runs the same queries on a peer engine (engine/peers, docs/PEERS.md) with the same timing.
#include "app/cli/cli_support.h"

#include "engine/bench/query_set_timing.h"
#include "engine/codec/simd/simd_target.h"
#include "engine/core/error.h"
#include "engine/core/fs_util.h"
#include "engine/core/wording.h"
#include "engine/corpus/query_reader.h"
#include "engine/corpus/run_file.h"
#include "engine/index/index.h"
#include "engine/loadgen/target_spec.h"
#include "engine/peers/peer_targets.h"
#include "engine/query/searcher.h"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace wandscope::app {
namespace {

// Passes of --repeat: beyond this a run would take days on any query set.
constexpr std::size_t kMaxRepeat = 100'000;

}  // namespace

void addRunCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("run", "Run a query set and write its results (TREC run or bit-exact dump)");
  struct Args {
    std::string dir, queries, op = "or", algo = "auto", format = "trec", out, counters, summary, tag;
    std::vector<std::string> opts;
    std::string target = "builtin";
    std::int64_t k = 10;
    std::int64_t repeat = 0;
    double warmup = 0;
    bool removeQuery = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("dir", a->dir, "index directory")->required();
  cmd->add_option("--queries", a->queries, "query file (BEIR JSON lines or id<TAB>text)")->required();
  cmd->add_option("--op", a->op, "or | and")->capture_default_str();
  cmd->add_option("--k", a->k, fmt::format("results per query (0 to {})", engine::kMaxK))
      ->capture_default_str();
  cmd->add_option("--algo", a->algo, algorithmHelp())->capture_default_str();
  cmd->add_option("--opt", a->opts, optionSwitchHelp() + "; e.g. freq_prune=off");
  cmd->add_option("--format", a->format, "trec | dump (JSON lines with f32 score bits)")->capture_default_str();
  cmd->add_option("--out", a->out, "run file to write")->required();
  cmd->add_option("--tag", a->tag, "run tag in TREC output (default wandscope-<algo>)");
  cmd->add_flag("--remove-query", a->removeQuery, "drop a hit whose document id equals the query id (as Pyserini does)");
  cmd->add_option("--counters", a->counters,
                  "write per-query counters as JSON lines (with the path taken, the k-th score and tie_at_k)");
  cmd->add_option("--repeat", a->repeat,
                  fmt::format("timed passes after the run, 1 to {} (forward/reverse/forward...); 0, the default, times nothing", kMaxRepeat));
  cmd->add_option("--warmup-s", a->warmup, fmt::format("untimed warm-up seconds before the timed passes, 0 to {} (needs --repeat)", kMaxWarmupSeconds))
      ->capture_default_str();
  cmd->add_option("--summary", a->summary,
                  "write the timing summary (JSON) here (needs --repeat; wall_ms_p50 is null below 200 timed queries)");
  cmd->add_option("--target", a->target,
                  "builtin, or a peer engine fed our analyzer's tokens: xapian[:dir=PATH,corpus=FILE] or "
                  "sqlite-fts5[:dir=PATH,corpus=FILE] (peer index default: beside DIR as DIR.xapian / DIR.fts5; "
                  "corpus=FILE builds it when missing; see docs/PEERS.md)")
      ->capture_default_str();
  setAction(cmd, [a, cmd] {
    if (a->format != "trec" && a->format != "dump") {
      engine::throwUsage("--format must be trec or dump, got '" + a->format + "'");
    }
    for (const auto& [option, value] : {std::pair{"--out", &a->out}, {"--counters", &a->counters}, {"--summary", &a->summary}}) {
      if (cmd->count(option) > 0 && value->empty()) engine::throwUsage(fmt::format("{} needs a file name", option));
    }
    const std::size_t repeat = countOption("--repeat", a->repeat, kMaxRepeat);
    const std::size_t k = countOption("--k", a->k, engine::kMaxK);
    if (!a->summary.empty() && repeat == 0) engine::throwUsage("--summary needs --repeat N (N >= 1)");
    warmupOption("--warmup-s", a->warmup);
    if (cmd->count("--warmup-s") > 0 && repeat == 0) engine::throwUsage("--warmup-s needs --repeat N (N >= 1)");
    const auto spec = engine::TargetSpec::parse(a->target);
    const bool peerTarget = engine::isPeerKind(spec.kind);
    if (spec.kind == "synthetic") engine::throwUsage("--target: a synthetic target returns no results; use bench");
    if (spec.kind == "builtin" && !spec.options.empty()) {
      engine::throwUsage("--target: give builtin options with --algo and --opt, not '" + spec.text + "'");
    }
    if (peerTarget && !a->counters.empty()) engine::throwUsage("--counters needs the builtin target");
    // Every usage error and unwritable output before any work.
    engine::SearchRequest base;
    base.op = engine::parseOperator(a->op);
    base.k = k;
    base.algorithm = algorithmOption(a->algo, base.op);
    applyOptionSpecs(base.options, a->opts);
    base.describePlan = false;  // timed: the words are never read
    engine::checkRequest(base);
    for (const std::string* path : {&a->out, &a->counters, &a->summary}) {
      if (!path->empty()) engine::checkOutputWritable(*path);
    }
    engine::checkDistinctFiles({{"--out", a->out}, {"--counters", a->counters}, {"--summary", a->summary}},
                               {{"--queries", a->queries}});
    const std::string tag = a->tag.empty() ? (peerTarget ? spec.kind : "wandscope-" + a->algo) : a->tag;
    if (a->format == "trec" && !engine::isTrecField(tag)) {
      engine::throwUsage("--tag " + jsonText(tag) + " is empty or contains whitespace (a TREC run's fields are split on it)");
    }
    if (a->format == "dump" && !a->tag.empty()) engine::throwUsage("--tag names the run in TREC output; --format dump has none");
    const auto index = engine::Index::open(a->dir);
    std::shared_ptr<const engine::PeerEngine> peer;
    std::unique_ptr<engine::PeerSearcher> peerSearcher;
    std::optional<engine::Analyzer> peerAnalyzer;
    engine::PeerTargetOptions peerOptions;
    if (peerTarget) {
      peerOptions = engine::PeerTargetOptions::fromSpec(spec, engine::parseOperator(a->op), k);
      const auto peerDir = peerOptions.dir.empty() ? engine::defaultPeerDir(peerOptions.kind, a->dir) : peerOptions.dir;
      peer = engine::openOrBuildPeer(peerOptions.kind, peerDir, peerOptions.corpus, index.get(),
                                     terminalProgress("peer build"));
      endProgress();
      peerSearcher = peer->openSearcher();
      peerAnalyzer.emplace(peer->analyzerKind());
    }
    std::vector<engine::PeerHit> peerHits;
    // One query on the peer (analysis included, as in our engine's search()).
    auto runPeer = [&](const std::string& text) {
      const auto terms = engine::peerQueryTerms(*peerAnalyzer, text);
      peerSearcher->search(terms, peerOptions.op, peerOptions.k, peerHits);
      return peerHits.size();
    };
    const auto queries = readQueryFile(a->queries);
    std::vector<engine::SearchRequest> requests;
    for (const auto& q : queries) {
      engine::SearchRequest r = base;
      r.text = q.text;
      requests.push_back(std::move(r));
    }
    if (a->format == "trec") {
      for (std::size_t i = 0; i < queries.size(); ++i) {
        if (!engine::isTrecField(queries[i].id)) {
          engine::throwBadInput(fmt::format("{}: query id {} (the {} query of the file) is empty or contains "
                                            "whitespace: a TREC run cannot hold it (--format dump can)",
                                            a->queries, jsonText(queries[i].id), engine::ordinal(i + 1)));
        }
      }
    }
    std::ostringstream run;
    std::ostringstream counters;
    std::size_t totalHits = 0;
    auto progress = terminalProgress("run");
    for (std::size_t i = 0; i < queries.size(); ++i) {
      std::vector<engine::RunHit> hits;
      engine::SearchResult result;
      if (peerTarget) {
        runPeer(queries[i].text);
        for (const auto& h : peerHits) {
          std::string id(peer->externalId(h.doc));
          if (a->removeQuery && id == queries[i].id) continue;
          hits.push_back({std::move(id), static_cast<float>(h.score)});
        }
      } else {
        // With --counters, tie_at_k is exact on every path (this pass is not timed).
        engine::SearchRequest once = requests[i];
        once.exactTie = !a->counters.empty();
        result = engine::usageAsBadInput([&] { return engine::search(*index, once); },
                                         [&] { return a->queries + ": " + queryOfFile(queries[i], i); });
        for (const auto& h : result.hits) {
          std::string id(index->externalId(h.doc));
          if (a->removeQuery && id == queries[i].id) continue;
          hits.push_back({std::move(id), h.score});
        }
      }
      totalHits += hits.size();
      if (a->format == "trec") {
        engine::writeTrecRunQuery(run, queries[i].id, hits, tag);
      } else {
        engine::writeDumpQuery(run, queries[i].id, hits);
      }
      if (!a->counters.empty()) {
        nlohmann::json j = {{"qid", queries[i].id}};
        result.counters.forEach([&](const char* name, std::uint64_t v) { j[name] = v; });
        j["algorithm"] = engine::algorithmName(result.algorithm);
        j["kth_score"] = std::isnan(result.kthScore) ? nlohmann::json(nullptr) : nlohmann::json(result.kthScore);
        j["tie_at_k"] = result.tieAtK;
        counters << jsonText(j) << '\n';
      }
      if (progress) progress({"queries", i + 1, queries.size()});
    }
    endProgress();
    // Every output is written at the end, together: a run that fails (or is interrupted) during
    // its timing, or cannot write one of them, leaves all of them as they were.
    const std::string runText = run.str();
    const std::string countersText = counters.str();
    std::string summaryText;
    std::vector<engine::OutputFile> outputs{{a->out, runText}};
    if (!a->counters.empty()) outputs.push_back({a->counters, countersText});
    std::string timingLine;
    if (repeat > 0) {
      const auto t = peerTarget ? engine::timeQueryCalls(
                                      queries.size(), [&](std::size_t i, bool) { return runPeer(queries[i].text); },
                                      repeat, a->warmup)
                                : engine::timeQuerySet(*index, requests, repeat, a->warmup);
      nlohmann::json j = {{"queries", t.queries},
                          {"passes", t.passes},
                          {"cpu_ms_per_query", t.cpuMsPerQuery},
                          {"cpu_ms_per_query_by_pass", t.cpuMsPerQueryByPass},
                          {"target", spec.text},
                          {"algo", peerTarget ? spec.kind : a->algo},
                          {"op", a->op},
                          {"k", k},
                          {"opts", base.options.toString()},
                          {"warmup_s", t.warmupSeconds},
                          {"warmup_queries", t.warmupQueries},
                          {"quantile", "nearest rank; absent (null) with fewer than 100 samples beyond it"}};
      j["wall_ms_p50"] = t.wallMsP50 ? nlohmann::json(*t.wallMsP50) : nlohmann::json(nullptr);
      // What was timed, so a summary read later says which index, queries and kernels it is of.
      j["index"] = a->dir;
      j["queries_file"] = a->queries;
      j["simd"] = engine::simd::targetName(engine::simd::currentTarget());
      if (peerTarget) {
        const auto& m = peer->manifest();
        j["peer"] = {{"dir", peer->dir().string()},     {"version", m.peerVersion},
                     {"settings", m.settings},           {"build_seconds", m.buildSeconds},
                     {"index_bytes", m.indexBytes},      {"postings", m.postings},
                     {"bits_per_posting", m.bitsPerPosting()}};
      }
      summaryText = jsonText(j, 2) + "\n";
      if (!a->summary.empty()) outputs.push_back({a->summary, summaryText});
      timingLine = fmt::format("timing: {:.4f} CPU ms/query over {}", t.cpuMsPerQuery,
                               engine::counted(t.passes, "pass", "passes"));
      if (t.wallMsP50) timingLine += fmt::format(", wall p50 {:.4f} ms", *t.wallMsP50);
    }
    engine::writeFilesTogether(outputs);
    std::cerr << fmt::format("ran {} ({}) into {}\n", engine::counted(queries.size(), "query", "queries"),
                             engine::counted(totalHits, "hit", "hits"), a->out);
    if (!timingLine.empty()) std::cerr << timingLine << '\n';
    return 0;
  });
}

}  // namespace wandscope::app
