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

#include <limits>
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

}  // namespace
}  // namespace wandscope::test
