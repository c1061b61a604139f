// SPDX-License-Identifier: GPL-3.0-or-later
// `peers`: the peer engines (Xapian, SQLite FTS5; engine/peers, docs/PEERS.md). `peers build`
// indexes a corpus with our analyzer's tokens; `peers overlap` compares a peer's top-k with ours
// per query set. Timing a peer is `run --target xapian ... --repeat N`; load is `bench --target`.
#include "app/cli/cli_support.h"

#include "engine/core/error.h"
#include "engine/core/fs_util.h"
#include "engine/corpus/query_reader.h"
#include "engine/index/index.h"
#include "engine/loadgen/target_spec.h"
#include "engine/peers/peer_overlap.h"
#include "engine/peers/peer_targets.h"
#include "engine/query/searcher.h"

#include <fmt/format.h>

#include <iostream>
#include <memory>

namespace wandscope::app {
namespace {

nlohmann::json manifestJson(const engine::PeerEngine& peer) {
  const auto& m = peer.manifest();
  return {{"engine", engine::peerKindName(m.kind)},
          {"dir", peer.dir().string()},
          {"version", m.peerVersion},
          {"settings", m.settings},
          {"analyzer", m.analyzer},
          {"corpus", m.corpus},
          {"docs", m.docs},
          {"tokens", m.tokens},
          {"postings", m.postings},
          {"build_seconds", m.buildSeconds},
          {"index_bytes", m.indexBytes},
          {"bits_per_posting", m.bitsPerPosting()}};
}

std::string setName(const std::string& path) {
  std::string stem = std::filesystem::path(path).filename().string();
  for (const char* ext : {".gz", ".jsonl", ".tsv", ".txt"}) {
    const std::string e(ext);
    if (stem.size() > e.size() && stem.compare(stem.size() - e.size(), e.size(), e) == 0) stem.resize(stem.size() - e.size());
  }
  if (stem.rfind("q-", 0) == 0) stem = stem.substr(2);
  return stem;
}

}  // namespace

void addPeersCommand(CLI::App& app) {
  auto* peers = app.add_subcommand("peers", "Peer engines (xapian, sqlite-fts5) fed our analyzer's tokens: build, overlap");
  peers->require_subcommand(1);

  struct BuildArgs {
    std::string engine, corpus, index, analyzer = "plain", out;
  };
  auto b = std::make_shared<BuildArgs>();
  auto* build = peers->add_subcommand("build", "Index a corpus into a peer engine with our analyzer's tokens");
  build->add_option("--engine", b->engine, "xapian or sqlite-fts5")->required();
  build->add_option("--corpus", b->corpus, "corpus file (BEIR JSONL or MS MARCO TSV, plain or .gz)")->required();
  build->add_option("--index", b->index, "our index of the same corpus: its analyzer is used and --out defaults to "
                                         "INDEX.xapian / INDEX.fts5 beside it");
  build->add_option("--analyzer", b->analyzer, "plain or english, without --index")->capture_default_str();
  build->add_option("--out", b->out, "peer index directory (replaced if present)");
  setAction(build, [b] {
    const auto kind = engine::parsePeerKind(b->engine);
    std::shared_ptr<const engine::Index> index;
    engine::PeerBuildOptions o;
    o.corpus = b->corpus;
    if (!b->index.empty()) {
      index = engine::Index::open(b->index);
      o.analyzer = index->analyzerKind();
    } else {
      o.analyzer = engine::Analyzer::parseKind(b->analyzer);
    }
    if (b->out.empty() && index == nullptr) engine::throwUsage("peers build needs --out or --index");
    o.dir = b->out.empty() ? engine::defaultPeerDir(kind, b->index) : std::filesystem::path(b->out);
    o.progress = terminalProgress("peers build");
    const auto peer = engine::PeerEngine::build(kind, o);
    endProgress();
    if (index != nullptr && peer->docCount() != index->docCount()) {
      engine::throwIndex(fmt::format("{}: {} documents, but the index {} holds {}", o.dir.string(), peer->docCount(),
                                     b->index, index->docCount()));
    }
    printJson(manifestJson(*peer));
    return 0;
  });

  struct OverlapArgs {
    std::string dir, target, op = "or", json;
    std::vector<std::string> queries;
    std::size_t k = 10;
  };
  auto o = std::make_shared<OverlapArgs>();
  auto* overlap = peers->add_subcommand(
      "overlap", "Mean overlap@k of a peer's top-k document ids with ours (auto algorithm), per query set");
  overlap->add_option("dir", o->dir, "our index directory")->required();
  overlap->add_option("--target", o->target, "xapian[:dir=PATH] or sqlite-fts5[:dir=PATH] (as run --target)")->required();
  overlap->add_option("--queries", o->queries, "query files, one set each (repeatable)")->required();
  overlap->add_option("--op", o->op, "or | and")->capture_default_str();
  overlap->add_option("--k", o->k, "results per query")->capture_default_str();
  overlap->add_option("--json", o->json, "also write the per-set results (JSON) here");
  setAction(overlap, [o] {
    const auto spec = engine::TargetSpec::parse(o->target);
    if (!engine::isPeerKind(spec.kind)) engine::throwUsage("--target must be xapian or sqlite-fts5, got '" + spec.text + "'");
    const auto op = engine::parseOperator(o->op);
    const auto po = engine::PeerTargetOptions::fromSpec(spec, op, o->k);
    const auto index = engine::Index::open(o->dir);
    const auto peerDir = po.dir.empty() ? engine::defaultPeerDir(po.kind, o->dir) : po.dir;
    const auto peer = engine::openOrBuildPeer(po.kind, peerDir, po.corpus, index.get(), terminalProgress("peer build"));
    endProgress();
    auto searcher = peer->openSearcher();
    engine::Analyzer analyzer(peer->analyzerKind());
    nlohmann::json sets = nlohmann::json::array();
    std::cout << fmt::format("{:<20} {:>7} {:>12} {:>8} {:>9}\n", "query set", "queries",
                             fmt::format("overlap@{}", po.k), "min", "all same");
    std::vector<engine::PeerHit> hits;
    for (const auto& file : o->queries) {
      const auto queries = engine::readQueries(file);
      double sum = 0, minimum = 1;
      std::size_t same = 0;
      for (const auto& q : queries) {
        engine::SearchRequest r;
        r.text = q.text;
        r.op = po.op;
        r.k = po.k;
        const auto ours = engine::search(*index, r);
        std::vector<std::string> a, p;
        for (const auto& h : ours.hits) a.emplace_back(index->externalId(h.doc));
        searcher->search(engine::peerQueryTerms(analyzer, q.text), po.op, po.k, hits);
        for (const auto& h : hits) p.emplace_back(peer->externalId(h.doc));
        const double v = engine::overlapAtK(a, p, po.k);
        sum += v;
        minimum = std::min(minimum, v);
        if (v == 1.0) ++same;
      }
      const double mean = queries.empty() ? 1.0 : sum / static_cast<double>(queries.size());
      std::cout << fmt::format("{:<20} {:>7} {:>12.4f} {:>8.2f} {:>9}\n", setName(file), queries.size(), mean, minimum,
                               same);
      sets.push_back({{"query_set", setName(file)},
                      {"file", file},
                      {"queries", queries.size()},
                      {"mean_overlap", mean},
                      {"min_overlap", minimum},
                      {"identical_sets", same}});
    }
    if (!o->json.empty()) {
      const nlohmann::json j = {{"target", spec.text}, {"op", engine::operatorName(po.op)}, {"k", po.k},
                                {"peer", manifestJson(*peer)}, {"sets", sets}};
      engine::writeFileAtomically(o->json, jsonText(j, 2) + "\n");
    }
    return 0;
  });
}

}  // namespace wandscope::app
