// SPDX-License-Identifier: GPL-3.0-or-later
// The peer engines: both index exactly our analyzer's tokens, answer AND/OR top-k, agree with our
// engine's top-10 on a random corpus, and fail clearly on a bad directory.
#include "engine/core/error.h"
#include "engine/loadgen/target_factory.h"
#include "engine/loadgen/target_spec.h"
#include "engine/loadgen/workload.h"
#include "engine/peers/fts5_peer.h"
#include "engine/peers/peer_engine.h"
#include "engine/peers/peer_manifest.h"
#include "engine/peers/peer_overlap.h"
#include "engine/peers/peer_target.h"
#include "engine/peers/peer_targets.h"
#include "engine/query/searcher.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>

namespace wandscope::test {
namespace {

using engine::Operator;
using engine::PeerKind;

class PeerTest : public ::testing::TestWithParam<PeerKind> {
 protected:
  std::shared_ptr<const engine::PeerEngine> buildPeer(const std::vector<engine::Document>& docs,
                                                     engine::AnalyzerKind analyzer = engine::AnalyzerKind::Plain) {
    const auto corpus = m_dir / "corpus.jsonl";
    writeCorpus(corpus, docs);
    engine::PeerBuildOptions o;
    o.corpus = corpus;
    o.analyzer = analyzer;
    o.dir = m_dir / "peer";
    return engine::PeerEngine::build(GetParam(), o);
  }

  // The external ids the peer returns for `text`, best first.
  static std::vector<std::string> ids(const engine::PeerEngine& peer, const std::string& text, Operator op,
                                      std::size_t k = 10) {
    engine::Analyzer analyzer(peer.analyzerKind());
    auto searcher = peer.openSearcher();
    std::vector<engine::PeerHit> hits;
    searcher->search(engine::peerQueryTerms(analyzer, text), op, k, hits);
    std::vector<std::string> out;
    for (std::size_t i = 0; i < hits.size(); ++i) {
      out.emplace_back(peer.externalId(hits[i].doc));
      if (i > 0) {
        EXPECT_GE(hits[i - 1].score, hits[i].score) << "not best first: " << text;
      }
    }
    return out;
  }
  static std::set<std::string> idSet(const engine::PeerEngine& peer, const std::string& text, Operator op) {
    const auto v = ids(peer, text, op);
    return {v.begin(), v.end()};
  }

  TempDir m_dir;
};

const char* kTiny = "d0: apple banana cherry / d1: apple banana / d2: banana cherry cherry / d3: durian / "
                    "d4: apple apple apple / d5: café cafe";

TEST_P(PeerTest, AndReturnsExactlyTheDocumentsWithEveryTerm) {
  const auto peer = buildPeer(corpusFromDsl(kTiny));
  EXPECT_EQ(peer->docCount(), 6u);
  EXPECT_EQ(idSet(*peer, "apple banana", Operator::And), (std::set<std::string>{"d0", "d1"}));
  EXPECT_EQ(idSet(*peer, "banana cherry", Operator::And), (std::set<std::string>{"d0", "d2"}));
  EXPECT_EQ(idSet(*peer, "apple banana cherry", Operator::And), (std::set<std::string>{"d0"}));
  // The query goes through our analyzer: case and punctuation do not matter, repeats count once.
  EXPECT_EQ(idSet(*peer, "APPLE, banana! apple", Operator::And), (std::set<std::string>{"d0", "d1"}));
  EXPECT_TRUE(ids(*peer, "durian apple", Operator::And).empty());
}

TEST_P(PeerTest, OrReturnsEveryDocumentWithAnyTermRankedByBm25) {
  const auto peer = buildPeer(corpusFromDsl(kTiny));
  EXPECT_EQ(idSet(*peer, "apple durian", Operator::Or), (std::set<std::string>{"d0", "d1", "d3", "d4"}));
  // durian (df 1) outweighs apple (df 3) in a document of similar length; d4 has apple three times.
  const auto r = ids(*peer, "apple durian", Operator::Or);
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0], "d3");
  EXPECT_EQ(r[1], "d4");
  EXPECT_EQ(ids(*peer, "apple durian", Operator::Or, 2), (std::vector<std::string>{"d3", "d4"}));
}

TEST_P(PeerTest, UnknownTermsEmptyAndButNotOr) {
  const auto peer = buildPeer(corpusFromDsl(kTiny));
  EXPECT_TRUE(ids(*peer, "apple zzz", Operator::And).empty());
  EXPECT_EQ(idSet(*peer, "apple zzz", Operator::Or), (std::set<std::string>{"d0", "d1", "d4"}));
  EXPECT_TRUE(ids(*peer, "zzz qqq", Operator::Or).empty());
  EXPECT_TRUE(ids(*peer, "", Operator::Or).empty());
  EXPECT_TRUE(ids(*peer, "... !!!", Operator::And).empty());
}

TEST_P(PeerTest, IndexesExactlyOurTokensIncludingNonAscii) {
  const auto peer = buildPeer(corpusFromDsl(kTiny));
  // The plain analyzer keeps the accent: café and cafe are different terms in both peers.
  EXPECT_EQ(idSet(*peer, "café", Operator::Or), (std::set<std::string>{"d5"}));
  EXPECT_EQ(idSet(*peer, "cafe", Operator::Or), (std::set<std::string>{"d5"}));
  EXPECT_TRUE(ids(*peer, "caf", Operator::Or).empty());
  EXPECT_EQ(peer->manifest().postings, 3u + 2u + 2u + 1u + 1u + 2u);
  EXPECT_EQ(peer->manifest().tokens, 3u + 2u + 3u + 1u + 3u + 2u);
  EXPECT_GT(peer->manifest().indexBytes, 0u);
}

TEST_P(PeerTest, EnglishAnalyzerStemsBeforeThePeerSeesTheTokens) {
  const auto peer = buildPeer(corpusFromDsl("a: running connections / b: the runner / c: connected"),
                              engine::AnalyzerKind::English);
  EXPECT_EQ(idSet(*peer, "run", Operator::Or), (std::set<std::string>{"a"}));
  EXPECT_EQ(idSet(*peer, "connecting", Operator::Or), (std::set<std::string>{"a", "c"}));
  EXPECT_TRUE(ids(*peer, "the", Operator::Or).empty());  // a stop word: never indexed, never queried
}

// Same tokens, BM25 with the same k1/b (different idf and no f32 rounding; docs/PEERS.md): the
// peers' top-10 should mostly agree with ours.
TEST_P(PeerTest, TopTenOverlapsOursOnARandomCorpus) {
  RandomCorpusParams params;
  params.docs = 3000;
  params.vocabulary = 400;
  params.maxLength = 80;
  const auto docs = randomCorpus(11, params);
  const auto ours = buildTestIndex(docs);
  const auto peer = buildPeer(docs);
  ASSERT_EQ(peer->docCount(), ours->index->docCount());
  std::mt19937_64 rng(5);
  for (const Operator op : {Operator::Or, Operator::And}) {
    double sum = 0;
    const int queries = 200;
    for (int i = 0; i < queries; ++i) {
      const std::string text = randomQuery(rng, params, 3);
      engine::SearchRequest r;
      r.text = text;
      r.op = op;
      r.k = 10;
      std::vector<std::string> a;
      for (const auto& h : engine::search(*ours->index, r).hits) a.emplace_back(ours->index->externalId(h.doc));
      sum += engine::overlapAtK(a, ids(*peer, text, op), 10);
    }
    EXPECT_GE(sum / queries, 0.8) << engine::operatorName(op);
  }
}

TEST_P(PeerTest, BadDirectoryIsAClearIndexError) {
  const auto missing = m_dir / "no-such-peer";
  try {
    (void)engine::PeerEngine::open(GetParam(), missing);
    FAIL() << "opened " << missing;
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::Index);
    EXPECT_NE(std::string(e.what()).find(missing.string()), std::string::npos) << e.what();
  }
  // A directory that is not a finished peer index (no peer.json).
  std::filesystem::create_directories(m_dir / "empty");
  try {
    (void)engine::PeerEngine::open(GetParam(), m_dir / "empty");
    FAIL();
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::Index);
    EXPECT_NE(std::string(e.what()).find("peer.json"), std::string::npos) << e.what();
  }
  // The other peer's index.
  (void)buildPeer(corpusFromDsl(kTiny));
  const PeerKind other = GetParam() == PeerKind::Xapian ? PeerKind::Fts5 : PeerKind::Xapian;
  EXPECT_THROW((void)engine::PeerEngine::open(other, m_dir / "peer"), engine::Error);
  // A corpus that does not exist: the error names it, nothing is left behind.
  engine::PeerBuildOptions o;
  o.corpus = m_dir / "missing.jsonl";
  o.dir = m_dir / "peer2";
  try {
    (void)engine::PeerEngine::build(GetParam(), o);
    FAIL();
  } catch (const engine::Error& e) {
    EXPECT_NE(std::string(e.what()).find("missing.jsonl"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(m_dir / "peer2"));
}

// A build replaces a peer index (of either kind) or an empty directory, and nothing else: "peers
// build --out" on a folder of the user's (or the one holding the corpus) deleted it whole (review,
// stop 32). The folder and the corpus in it are untouched, and the error names the folder.
TEST_P(PeerTest, ABuildNeverReplacesADirectoryThatIsNotAPeerIndex) {
  const auto folder = m_dir / "mydocs";
  std::filesystem::create_directories(folder);
  writeCorpus(folder / "corpus.jsonl", corpusFromDsl(kTiny));
  { std::ofstream(folder / "notes.txt") << "precious\n"; }
  engine::PeerBuildOptions o;
  o.corpus = folder / "corpus.jsonl";
  o.dir = folder;
  try {
    (void)engine::PeerEngine::build(GetParam(), o);
    FAIL() << "replaced " << folder;
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::Usage);
    EXPECT_NE(std::string(e.what()).find(folder.string() + " exists and is not a"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(std::filesystem::exists(folder / "notes.txt"));
  EXPECT_TRUE(std::filesystem::exists(folder / "corpus.jsonl"));
  // A file in the way is refused too; an empty directory and a peer index are replaced.
  { std::ofstream(m_dir / "a-file") << "x"; }
  o.dir = m_dir / "a-file";
  EXPECT_THROW((void)engine::PeerEngine::build(GetParam(), o), engine::Error);
  std::filesystem::create_directories(m_dir / "empty");
  o.dir = m_dir / "empty";
  EXPECT_EQ(engine::PeerEngine::build(GetParam(), o)->docCount(), 6u);
  EXPECT_EQ(engine::PeerEngine::build(GetParam(), o)->docCount(), 6u) << "its own index is rebuilt";
  const PeerKind other = GetParam() == PeerKind::Xapian ? PeerKind::Fts5 : PeerKind::Xapian;
  EXPECT_EQ(engine::PeerEngine::build(other, o)->docCount(), 6u) << "another kind's peer index is replaced";
}

// A peer index built from another corpus than our index is refused.
TEST_P(PeerTest, OpenOrBuildChecksItMatchesOurIndex) {
  const auto ours = buildTestIndex(corpusFromDsl("x: a b / y: b c"));
  (void)buildPeer(corpusFromDsl(kTiny));
  EXPECT_THROW((void)engine::openOrBuildPeer(GetParam(), m_dir / "peer", {}, ours->index.get()), engine::Error);
  // With a corpus and no peer index there yet, it is built beside our index and then matches.
  const auto dir = engine::defaultPeerDir(GetParam(), ours->indexPath);
  const auto peer = engine::openOrBuildPeer(GetParam(), dir, ours->corpusPath, ours->index.get());
  EXPECT_EQ(peer->docCount(), 2u);
  EXPECT_EQ(peer->dir(), dir);
}

// The load generator drives a peer through the registered factory, each worker with its own handle.
TEST_P(PeerTest, TargetRunsWorkloadQueriesConcurrently) {
  const auto ours = buildTestIndex(corpusFromDsl(kTiny));
  engine::installPeerTargets();
  engine::WorkloadQuerySet set;
  set.name = "s";
  set.ids = {"q1", "q2"};
  set.texts = {"apple banana", "durian zzz"};
  const engine::Workload workload({set}, engine::WorkloadOrder::Cycle, 1);
  const std::string kind = engine::peerKindName(GetParam());
  const auto factory = engine::findTargetFactory(kind);
  ASSERT_TRUE(factory);
  engine::TargetContext context;
  context.index = ours->index;
  context.workload = &workload;
  context.op = Operator::Or;
  context.corpus = ours->corpusPath;
  const auto target = factory(engine::TargetSpec::parse(kind + ":op=and,k=5"), context);
  ASSERT_EQ(target->counterNames(), (std::vector<std::string>{"hits"}));
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      std::uint64_t hits = 0;
      for (std::uint32_t i = 0; i < 50; ++i) {
        if (!target->execute({i, 0, 0}, std::span<std::uint64_t>(&hits, 1)) || hits != 2) ++failures;
        if (!target->execute({i, 0, 1}, std::span<std::uint64_t>(&hits, 1)) || hits != 0) ++failures;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_THROW((void)factory(engine::TargetSpec::parse(kind + ":colour=red"), context), engine::Error);
}

INSTANTIATE_TEST_SUITE_P(Peers, PeerTest, ::testing::Values(PeerKind::Xapian, PeerKind::Fts5),
                         [](const auto& info) { return info.param == PeerKind::Xapian ? "Xapian" : "Fts5"; });

// peer.json's counts are whole numbers: nlohmann converted a float to an integer type as undefined
// behaviour, and a negative wrapped; each is refused naming the file and field.
TEST(PeerManifest, CountsThatAreNotWholeNumbersAreRefusedNamingTheField) {
  const TempDir dir;
  engine::PeerManifest m;
  m.analyzer = "plain/1";
  m.docs = 10;
  m.write(dir.path());
  const std::string good = readFile(dir / engine::PeerManifest::kFileName);
  EXPECT_EQ(engine::PeerManifest::read(dir.path(), PeerKind::Xapian).docs, 10u);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"\"docs\": 10", "\"docs\": 3e31"},       {"\"docs\": 10", "\"docs\": -1"},
      {"\"tokens\": 0", "\"tokens\": 0.5"},     {"\"index_bytes\": 0", "\"index_bytes\": 1e300"},
      {"\"format_version\": 1", "\"format_version\": 1.0"}};
  for (const auto& [from, to] : cases) {
    SCOPED_TRACE(to);
    std::string text = good;
    const auto at = text.find(from);
    ASSERT_NE(at, std::string::npos) << text;
    text.replace(at, from.size(), to);
    writeFile(dir / engine::PeerManifest::kFileName, text);
    try {
      (void)engine::PeerManifest::read(dir.path(), PeerKind::Xapian);
      ADD_FAILURE() << "accepted " << to;
    } catch (const engine::Error& e) {
      const std::string message = e.what();
      EXPECT_EQ(e.kind(), engine::ErrorKind::Index) << message;
      EXPECT_NE(message.find("peer.json: " + to.substr(1, to.find('"', 1) - 1)), std::string::npos) << message;
    }
  }
}

TEST(PeerOverlap, CountsCommonIdsInTheTopK) {
  EXPECT_DOUBLE_EQ(engine::overlapAtK({}, {}, 10), 1.0);
  EXPECT_DOUBLE_EQ(engine::overlapAtK({"a", "b"}, {"b", "a"}, 10), 1.0);
  EXPECT_DOUBLE_EQ(engine::overlapAtK({"a", "b"}, {"a"}, 10), 0.5);
  EXPECT_DOUBLE_EQ(engine::overlapAtK({"a", "b", "c"}, {"a", "x", "c"}, 2), 0.5);
  EXPECT_DOUBLE_EQ(engine::overlapAtK({"a"}, {}, 10), 0.0);
}

TEST(PeerTargetSpec, KindsAndOptions) {
  EXPECT_EQ(engine::TargetSpec::parse("xapian:dir=/x").kind, "xapian");
  EXPECT_EQ(engine::TargetSpec::parse("sqlite-fts5").kind, "sqlite-fts5");
  const auto o = engine::PeerTargetOptions::fromSpec(engine::TargetSpec::parse("sqlite-fts5:dir=/p,op=or,k=7"),
                                                     Operator::And, 10);
  EXPECT_EQ(o.kind, PeerKind::Fts5);
  EXPECT_EQ(o.dir, "/p");
  EXPECT_EQ(o.op, Operator::Or);
  EXPECT_EQ(o.k, 7u);
  try {
    (void)engine::PeerTargetOptions::fromSpec(engine::TargetSpec::parse("xapian:k=0"), Operator::And, 10);
    FAIL();
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::Usage);
    EXPECT_NE(std::string(e.what()).find("target 'xapian:k=0'"), std::string::npos) << e.what();
  }
  EXPECT_EQ(engine::defaultPeerDir(PeerKind::Xapian, "/a/idx/"), std::filesystem::path("/a/idx.xapian"));
  EXPECT_EQ(engine::defaultPeerDir(PeerKind::Fts5, "/a/idx"), std::filesystem::path("/a/idx.fts5"));
}

TEST(Fts5Peer, MatchExpressionQuotesEveryTerm) {
  EXPECT_EQ(engine::Fts5Peer::matchExpression({"a", "or"}, Operator::And), "\"a\" AND \"or\"");
  EXPECT_EQ(engine::Fts5Peer::matchExpression({"x\"y", "é"}, Operator::Or), "\"x\"\"y\" OR \"é\"");
}

}  // namespace
}  // namespace wandscope::test
