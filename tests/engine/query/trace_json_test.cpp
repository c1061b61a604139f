// SPDX-License-Identifier: GPL-3.0-or-later
// The trace as JSON (`search --trace`, the workbench's export; docs/COUNTERS.md): every field of
// every event, compact and pretty text parsing to the same document, valid JSON for any term
// bytes, and a recorder whose memory stays bounded however many terms a query has.
#include "engine/query/trace_json.h"
#include "engine/query/searcher.h"
#include "engine/query/trace_recorder.h"
#include "tests/support/test_index.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <bit>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace wandscope::test {
namespace {

using engine::TraceEvent;
using engine::TraceEventKind;
using engine::TraceReason;

TEST(TraceJson, EveryFieldOfEveryEventCompactAndPretty) {
  engine::TraceRecorder trace(10);
  // No cursors behind the terms (unknown terms): their positions are null.
  trace.begin({nullptr, nullptr}, {"storm", "harbor"});
  trace.algorithm = "wand";
  const float inf = std::numeric_limits<float>::infinity();
  trace.record({TraceEventKind::QueryStart, TraceReason::None, -1, 0, 0, 10.0f, 0.0f, -inf});
  trace.record({TraceEventKind::BlockSkipped, TraceReason::Bound, 1, 128, 255, 0.0f, 2.5f, 3.0f});
  trace.record({TraceEventKind::QueryEnd, TraceReason::None, -1, 0, 0, 0.0f, 0.0f, 3.0f});
  const auto compact = nlohmann::json::parse(engine::traceToJson(trace, false));
  const auto pretty = nlohmann::json::parse(engine::traceToJson(trace, true));
  EXPECT_EQ(compact, pretty);
  EXPECT_EQ(compact["algorithm"], "wand");
  EXPECT_EQ(compact["terms"], nlohmann::json({"storm", "harbor"}));
  EXPECT_EQ(compact["max_events"], 10);
  EXPECT_EQ(compact["truncated"], false);
  EXPECT_EQ(compact["dropped_events"], 0);
  const auto& events = compact["events"];
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0]["kind"], "query_start");
  EXPECT_FALSE(events[0].contains("term")) << "-1: not about one term";
  EXPECT_FALSE(events[0].contains("reason"));
  EXPECT_TRUE(events[0]["floor"].is_null()) << "-inf is not JSON";
  EXPECT_EQ(events[0]["score"], 10.0);
  const auto& skip = events[1];
  EXPECT_EQ(skip["kind"], "block_skipped");
  EXPECT_EQ(skip["reason"], "bound");
  EXPECT_EQ(skip["term"], 1);
  EXPECT_EQ(skip["doc"], 128);
  EXPECT_EQ(skip["doc_end"], 255);
  EXPECT_EQ(skip["bound"], 2.5);
  EXPECT_EQ(skip["floor"], 3.0);
  EXPECT_EQ(skip["cursors"], nlohmann::json::parse("[null, null]"));
  EXPECT_EQ(events[2]["kind"], "query_end");
}

// Given the request, the trace says what ran so that it can be run again: running the request it
// names (the query text, operator, k, algorithm asked for and switches) writes the same trace.
TEST(TraceJson, TheRequestItNamesRunsTheSameTraceAgain) {
  const auto t = buildTestIndex(randomCorpus(7, {.docs = 600, .vocabulary = 50, .maxLength = 40}));
  engine::SearchRequest first;
  first.text = "w1 w3 w9";
  first.op = engine::Operator::Or;
  first.k = 7;
  first.algorithm = engine::Algorithm::Auto;
  first.options.apply("bulk_or=off,rank_floor=off");
  engine::TraceRecorder trace;
  first.trace = &trace;
  engine::search(*t->index, first);
  const std::string text = engine::traceToJson(trace, false, &first);
  const auto j = nlohmann::json::parse(text);
  ASSERT_TRUE(j.contains("request"));
  EXPECT_EQ(j["request"]["query"], "w1 w3 w9");
  EXPECT_EQ(j["request"]["op"], "or");
  EXPECT_EQ(j["request"]["k"], 7);
  EXPECT_EQ(j["request"]["algorithm"], "auto");
  EXPECT_EQ(j["request"]["opts"], first.options.toString());

  engine::SearchRequest again;
  again.text = j["request"]["query"].get<std::string>();
  again.op = engine::parseOperator(j["request"]["op"].get<std::string>());
  again.k = j["request"]["k"].get<std::size_t>();
  again.algorithm = engine::parseAlgorithm(j["request"]["algorithm"].get<std::string>());
  again.options.apply(j["request"]["opts"].get<std::string>());
  engine::TraceRecorder replay;
  again.trace = &replay;
  engine::search(*t->index, again);
  EXPECT_EQ(engine::traceToJson(replay, false, &again), text);
  // Without the request (a recorder alone), no "request" key.
  EXPECT_FALSE(nlohmann::json::parse(engine::traceToJson(trace)).contains("request"));
}

TEST(TraceJson, NoEventsAndAnyTermBytesStillMakeValidJson) {
  engine::TraceRecorder trace(0);
  trace.begin({nullptr}, {std::string("caf\xff")});  // not UTF-8: a query is bytes
  trace.record({});
  for (const bool pretty : {false, true}) {
    const auto j = nlohmann::json::parse(engine::traceToJson(trace, pretty));
    EXPECT_TRUE(j["events"].empty());
    EXPECT_EQ(j["truncated"], true);
    EXPECT_EQ(j["dropped_events"], 1);
    EXPECT_EQ(j["terms"][0], "caf\xEF\xBF\xBD") << "the invalid byte becomes U+FFFD";
  }
}

// A 1,000-term query kept 100,000 events of 1,000 positions each (and its JSON took 3 GB): the
// positions kept are bounded, so such a query keeps fewer events, and says so.
TEST(TraceJson, ManyTermsKeepFewerEventsNotMoreMemory) {
  constexpr std::size_t kTerms = 1000;
  engine::TraceRecorder trace(100'000);
  trace.begin(std::vector<const engine::PostingCursor*>(kTerms, nullptr), std::vector<std::string>(kTerms, "t"));
  const std::size_t limit = engine::TraceRecorder::kMaxPositions / kTerms;
  EXPECT_EQ(trace.eventLimit(), limit);
  EXPECT_EQ(trace.maxEvents(), 100'000u);
  for (std::size_t i = 0; i < limit + 5; ++i) trace.record({});
  EXPECT_EQ(trace.events().size(), limit);
  EXPECT_EQ(trace.dropped(), 5u);
  // Few terms: the requested limit holds.
  trace.begin({nullptr, nullptr, nullptr}, {"a", "b", "c"});
  EXPECT_EQ(trace.eventLimit(), 100'000u);
  EXPECT_TRUE(trace.events().empty());
}

// An event's term is the query-order index the trace's `terms` and cursor positions use, unknown
// terms counted: the paths record cursor indices, which skip unknown terms, and an unknown first
// word once made every pivot name it. The same query without the unknown word (first, second or
// last) gives the same events, with the term indices (and split mask bits) past it one lower.
TEST(TraceRecorder, EventTermsAreQueryTermIndicesWithUnknownTermsCounted) {
  const auto t = buildTestIndex(randomCorpus(11, {.docs = 800, .vocabulary = 60, .maxLength = 40}));
  for (const char* algo : {"wand", "bmw", "maxscore", "bmm", "taat", "auto"}) {
    for (const char* opts : {"", "rank_floor=off", "bulk_or=off"}) {
      SCOPED_TRACE(std::string(algo) + " '" + opts + "'");
      auto trace = [&](const std::string& text) {
        engine::SearchRequest r;
        r.text = text;
        r.k = 5;
        r.algorithm = engine::parseAlgorithm(algo);
        r.options.apply(opts);
        auto recorder = std::make_unique<engine::TraceRecorder>();
        r.trace = recorder.get();
        engine::search(*t->index, r);
        return recorder;
      };
      for (const std::size_t at : {0u, 1u, 3u}) {  // the unknown word first, second or last
      std::vector<std::string> words = {"w2", "w4", "w9"};
      words.insert(words.begin() + static_cast<std::ptrdiff_t>(at), "zzunknown");
      std::string text;
      for (const auto& w : words) text += (text.empty() ? "" : " ") + w;
      SCOPED_TRACE(text);
      const auto with = trace(text);
      const auto without = trace("w2 w4 w9");
      const auto shifted = [at](std::int32_t term) { return term >= static_cast<std::int32_t>(at) ? term + 1 : term; };
      const auto shiftedMask = [at](std::uint32_t mask) {
        const std::uint32_t low = mask & ((1u << at) - 1u);
        return low | ((mask & ~((1u << at) - 1u)) << 1);
      };
      ASSERT_EQ(with->terms().size(), 4u);
      ASSERT_EQ(with->events().size(), without->events().size());
      std::size_t termed = 0;
      for (std::size_t i = 0; i < with->events().size(); ++i) {
        const auto& a = with->events()[i];
        const auto& b = without->events()[i];
        ASSERT_EQ(a.kind, b.kind) << "event " << i;
        EXPECT_EQ(a.term, b.term < 0 ? -1 : shifted(b.term)) << "event " << i << " " << engine::traceEventKindName(a.kind);
        if (a.kind == TraceEventKind::EssentialSplit) {
          EXPECT_EQ(a.docEnd, shiftedMask(b.docEnd)) << "event " << i;
        } else {
          EXPECT_EQ(a.docEnd, b.docEnd) << "event " << i;
        }
        EXPECT_EQ(with->position(i, at), engine::kNoMoreDocs);
        for (std::size_t term = 0; term < 3; ++term) {
          EXPECT_EQ(with->position(i, static_cast<std::size_t>(shifted(static_cast<std::int32_t>(term)))),
                    without->position(i, term));
        }
        if (a.term >= 0) ++termed;
      }
      EXPECT_GT(termed, 0u) << "no event named a term";
      }
    }
  }
}

// Each essential split names its non-essential lists (docEnd, bit = query term): as many as it
// counts, never the first essential one. The windowed bmm reorders its lists by window maxima, so
// it records a split whenever that set changes, not only its size.
TEST(TraceRecorder, EveryEssentialSplitNamesItsNonEssentialLists) {
  const auto t = buildTestIndex(randomCorpus(13, {.docs = 3000, .vocabulary = 80, .maxLength = 60}));
  std::size_t splits = 0;
  std::mt19937_64 rng(13);
  for (int q = 0; q < 30; ++q) {
    const std::string text = randomQuery(rng, {.docs = 3000, .vocabulary = 80, .maxLength = 60}, 5);
    for (const char* algo : {"maxscore", "bmm"}) {
      for (const char* opts : {"rank_floor=off", "bulk_or=off"}) {
        engine::SearchRequest r;
        r.text = text;
        r.k = 10;
        r.algorithm = engine::parseAlgorithm(algo);
        r.options.apply(opts);
        engine::TraceRecorder recorder;
        r.trace = &recorder;
        engine::search(*t->index, r);
        std::uint32_t previous = ~0u;
        std::int32_t previousFirst = -2;
        for (const auto& e : recorder.events()) {
          if (e.kind != TraceEventKind::EssentialSplit) continue;
          ++splits;
          const std::string what = "'" + text + "' " + algo + " " + opts + " split at doc " + std::to_string(e.doc);
          EXPECT_EQ(std::popcount(e.docEnd), static_cast<int>(e.score)) << what;
          if (e.term >= 0) {
            EXPECT_EQ((e.docEnd >> e.term) & 1u, 0u) << what << ": the first essential list is named";
          }
          EXPECT_TRUE(e.docEnd != previous || e.term != previousFirst) << what << ": recorded without a change";
          previous = e.docEnd;
          previousFirst = e.term;
        }
      }
    }
  }
  EXPECT_GT(splits, 20u);
}

}  // namespace
}  // namespace wandscope::test
