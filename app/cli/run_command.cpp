// SPDX-License-Identifier: GPL-3.0-or-later
// `run`: a whole query set, written as a TREC run or a bit-exact dump; optionally per-query
// counters and a CPU-per-query timing summary (the first seed's method). `--target xapian|sqlite-fts5`
// runs the same queries on a peer engine (engine/peers, docs/PEERS.md) with the same timing.
#include "app/cli/cli_support.h"

#include "engine/bench/query_set_timing.h"
#include "engine/core/error.h"
#include "engine/core/fs_util.h"
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

namespace wandscope::app {

void addRunCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("run", "Run a query set and write its results (TREC run or bit-exact dump)");
  struct Args {
    std::string dir, queries, op = "or", algo = "auto", opts, format = "trec", out, counters, summary, tag;
    std::string target = "builtin";
    std::size_t k = 10;
    std::size_t repeat = 0;
    double warmup = 0;
    bool removeQuery = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("dir", a->dir, "index directory")->required();
  cmd->add_option("--queries", a->queries, "query file (BEIR JSON lines or id<TAB>text)")->required();
  cmd->add_option("--op", a->op, "or | and")->capture_default_str();
  cmd->add_option("--k", a->k, "results per query")->capture_default_str();
  cmd->add_option("--algo", a->algo, "evaluation path (auto, exhaustive, ...)")->capture_default_str();
  cmd->add_option("--opt", a->opts, "optimisation switches, e.g. freq_prune=off");
  cmd->add_option("--format", a->format, "trec | dump (JSON lines with f32 score bits)")->capture_default_str();
  cmd->add_option("--out", a->out, "run file to write")->required();
  cmd->add_option("--tag", a->tag, "run tag in TREC output (default wandscope-<algo>)");
  cmd->add_flag("--remove-query", a->removeQuery, "drop a hit whose document id equals the query id (as Pyserini does)");
  cmd->add_option("--counters", a->counters, "write per-query counters as JSON lines");
  cmd->add_option("--repeat", a->repeat, "timed passes after the run (forward/reverse/forward...)");
  cmd->add_option("--warmup-s", a->warmup, "untimed warm-up seconds before the timed passes")->capture_default_str();
  cmd->add_option("--summary", a->summary, "write the timing summary (JSON) here");
  cmd->add_option("--target", a->target,
                  "builtin, or a peer engine fed our analyzer's tokens: xapian[:dir=PATH,corpus=FILE] or "
                  "sqlite-fts5[:dir=PATH,corpus=FILE] (peer index default: beside DIR as DIR.xapian / DIR.fts5; "
                  "corpus=FILE builds it when missing; see docs/PEERS.md)")
      ->capture_default_str();
  setAction(cmd, [a] {
    if (a->format != "trec" && a->format != "dump") {
      engine::throwUsage("--format must be trec or dump, got '" + a->format + "'");
    }
    if (!a->summary.empty() && a->repeat == 0) engine::throwUsage("--summary needs --repeat N (N >= 1)");
    if (a->warmup < 0 || !std::isfinite(a->warmup)) engine::throwUsage("--warmup-s must be >= 0");
    const auto spec = engine::TargetSpec::parse(a->target);
    const bool peerTarget = engine::isPeerKind(spec.kind);
    if (spec.kind == "synthetic") engine::throwUsage("--target: a synthetic target returns no results; use bench");
    if (spec.kind == "builtin" && !spec.options.empty()) {
      engine::throwUsage("--target: give builtin options with --algo and --opt, not '" + spec.text + "'");
    }
    if (peerTarget && !a->counters.empty()) engine::throwUsage("--counters needs the builtin target");
    const auto index = engine::Index::open(a->dir);
    std::shared_ptr<const engine::PeerEngine> peer;
    std::unique_ptr<engine::PeerSearcher> peerSearcher;
    std::optional<engine::Analyzer> peerAnalyzer;
    engine::PeerTargetOptions peerOptions;
    if (peerTarget) {
      peerOptions = engine::PeerTargetOptions::fromSpec(spec, engine::parseOperator(a->op), a->k);
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
    const auto queries = engine::readQueries(a->queries);
    std::vector<engine::SearchRequest> requests;
    for (const auto& q : queries) {
      engine::SearchRequest r;
      r.text = q.text;
      r.op = engine::parseOperator(a->op);
      r.k = a->k;
      r.algorithm = engine::parseAlgorithm(a->algo);
      r.options.apply(a->opts);
      r.describePlan = false;  // timed: the words are never read
      requests.push_back(std::move(r));
    }
    const std::string tag = a->tag.empty() ? (peerTarget ? spec.kind : "wandscope-" + a->algo) : a->tag;
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
        result = engine::search(*index, requests[i]);
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
        counters << j.dump() << '\n';
      }
      if (progress) progress({"queries", i + 1, queries.size()});
    }
    endProgress();
    engine::writeFileAtomically(a->out, run.str());
    if (!a->counters.empty()) engine::writeFileAtomically(a->counters, counters.str());
    std::cerr << fmt::format("ran {} queries ({} hits) into {}\n", queries.size(), totalHits, a->out);

    if (a->repeat > 0) {
      const auto t = peerTarget ? engine::timeQueryCalls(
                                      queries.size(), [&](std::size_t i, bool) { return runPeer(queries[i].text); },
                                      a->repeat, a->warmup)
                                : engine::timeQuerySet(*index, requests, a->repeat, a->warmup);
      nlohmann::json j = {{"queries", t.queries},
                          {"passes", t.passes},
                          {"cpu_ms_per_query", t.cpuMsPerQuery},
                          {"cpu_ms_per_query_by_pass", t.cpuMsPerQueryByPass},
                          {"target", spec.text},
                          {"algo", peerTarget ? spec.kind : a->algo},
                          {"op", a->op},
                          {"k", a->k},
                          {"opts", requests.empty() ? std::string() : requests[0].options.toString()},
                          {"warmup_s", t.warmupSeconds},
                          {"warmup_queries", t.warmupQueries},
                          {"quantile", "nearest rank; absent (null) with fewer than 100 samples beyond it"}};
      j["wall_ms_p50"] = t.wallMsP50 ? nlohmann::json(*t.wallMsP50) : nlohmann::json(nullptr);
      if (peerTarget) {
        const auto& m = peer->manifest();
        j["peer"] = {{"dir", peer->dir().string()},     {"version", m.peerVersion},
                     {"settings", m.settings},           {"build_seconds", m.buildSeconds},
                     {"index_bytes", m.indexBytes},      {"postings", m.postings},
                     {"bits_per_posting", m.bitsPerPosting()}};
      }
      if (!a->summary.empty()) engine::writeFileAtomically(a->summary, j.dump(2) + "\n");
      std::cerr << fmt::format("timing: {:.4f} CPU ms/query over {} passes", t.cpuMsPerQuery, t.passes);
      if (t.wallMsP50) std::cerr << fmt::format(", wall p50 {:.4f} ms", *t.wallMsP50);
      std::cerr << '\n';
    }
    return 0;
  });
}

}  // namespace wandscope::app
