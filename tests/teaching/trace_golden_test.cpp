// SPDX-License-Identifier: GPL-3.0-or-later
// Golden traces of the teaching lessons (docs/teaching/lessons.json) on the teaching corpus
// (resources/teaching/corpus.jsonl): for each lesson and each algorithm it lists, the trace's event
// list, one event per line, must match tests/golden/traces/<lesson>.<algorithm>.trace. On a
// mismatch the actual list is written beside it as .actual and a unified diff is printed;
// UPDATE_GOLDEN=1 (as every golden test) rewrites the expected files instead. Beyond the golden files, each
// lesson must show what it teaches (its key step exists) and every algorithm must return the same
// hits, bit for bit.
#include "engine/index/index.h"
#include "engine/index/index_builder.h"
#include "engine/query/searcher.h"
#include "engine/query/trace_recorder.h"
#include "tests/support/golden.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace wandscope::engine {
namespace {

namespace fs = std::filesystem;
using test::readFile;

const fs::path kSource = WANDSCOPE_SOURCE_DIR;

nlohmann::json lessons() {
  return nlohmann::json::parse(readFile(kSource / "docs/teaching/lessons.json")).at("lessons");
}

// The teaching index, built once for the whole test program.
std::shared_ptr<const Index> teachingIndex() {
  static test::TempDir dir;
  static std::shared_ptr<const Index> index = [] {
    IndexBuildOptions o;
    o.corpus = kSource / "resources/teaching/corpus.jsonl";
    o.threads = 1;
    buildIndex(o, dir.path() / "index");
    return Index::open(dir.path() / "index");
  }();
  return index;
}

// %.9g round-trips an f32; infinities spelled out.
std::string num(float v) {
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  std::array<char, 32> buf{};
  std::snprintf(buf.data(), buf.size(), "%.9g", static_cast<double>(v));
  return buf.data();
}

std::string docText(DocId d) { return d == kNoMoreDocs ? "end" : std::to_string(d); }

// One line per event: index, kind[/reason], the fields that are set, the cursors (query order).
std::string traceText(const TraceRecorder& trace) {
  std::ostringstream out;
  const auto& events = trace.events();
  for (std::size_t i = 0; i < events.size(); ++i) {
    const TraceEvent& e = events[i];
    out << i << ' ' << traceEventKindName(e.kind);
    if (e.reason != TraceReason::None) out << '/' << traceReasonName(e.reason);
    if (e.term >= 0) out << " term=" << e.term;
    out << " doc=" << docText(e.doc);
    if (e.docEnd != 0) out << " end=" << docText(e.docEnd);
    if (e.score != 0.0f) out << " score=" << num(e.score);
    if (e.bound != 0.0f) out << " bound=" << num(e.bound);
    out << " floor=" << num(e.floor) << " cur=";
    for (std::size_t t = 0; t < trace.terms().size(); ++t) out << (t ? "," : "") << docText(trace.position(i, t));
    out << '\n';
  }
  if (trace.truncated()) out << "# truncated: " << trace.dropped() << " events dropped\n";
  return out.str();
}

void expectGoldenTrace(const std::string& name, const std::string& actual) {
  test::expectGoldenFile(kSource / "tests/golden/traces" / name, actual);
}

struct LessonRun {
  SearchResult result;
  std::unique_ptr<TraceRecorder> trace;
};

LessonRun runLesson(const nlohmann::json& lesson, const std::string& algorithm) {
  SearchRequest r;
  r.text = lesson.at("query").get<std::string>();
  r.op = parseOperator(lesson.at("operator").get<std::string>());
  r.k = lesson.at("k").get<std::size_t>();
  r.options.apply(lesson.value("options", std::string()));
  r.algorithm = parseAlgorithm(algorithm);
  LessonRun run;
  run.trace = std::make_unique<TraceRecorder>();
  r.trace = run.trace.get();
  run.result = search(*teachingIndex(), r);
  return run;
}

// The index of the nth (1-based) event of a kind (and reason, when given), or -1.
long findStep(const TraceRecorder& trace, const nlohmann::json& step) {
  const std::string kind = step.at("kind").get<std::string>();
  const std::string reason = step.value("reason", std::string());
  long nth = step.value("nth", 1L);
  const auto& events = trace.events();
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (kind != traceEventKindName(events[i].kind)) continue;
    if (!reason.empty() && reason != traceReasonName(events[i].reason)) continue;
    if (--nth == 0) return static_cast<long>(i);
  }
  return -1;
}

TEST(TeachingCorpus, HasTheDocumentsTheLessonsAssume) {
  auto index = teachingIndex();
  EXPECT_EQ(index->docCount(), 2048u);
  // Lists of several 128-posting blocks, so block skipping shows (the block size is fixed).
  for (const char* t : {"river", "harbor", "storm", "garden", "copper", "valley", "signal"}) {
    auto id = index->findTerm(t);
    ASSERT_TRUE(id.has_value()) << t;
    EXPECT_GE(index->term(*id).blocks, 3u) << t;
  }
  EXPECT_EQ(index->term(*index->findTerm("quartz")).df, 12u);
}

TEST(TeachingLessons, TracesMatchGoldenFiles) {
  const auto all = lessons();
  ASSERT_GE(all.size(), 6u);
  for (const auto& lesson : all) {
    const std::string id = lesson.at("id").get<std::string>();
    for (const auto& algo : lesson.at("algorithms")) {
      SCOPED_TRACE(id + " / " + algo.get<std::string>());
      LessonRun run = runLesson(lesson, algo.get<std::string>());
      std::ostringstream text;
      text << "# lesson " << id << ": " << lesson.at("query").get<std::string>() << " ("
           << lesson.at("operator").get<std::string>() << ", k=" << lesson.at("k").get<int>() << ") algorithm "
           << run.trace->algorithm << "\n# hits:";
      for (const Hit& h : run.result.hits) text << ' ' << h.doc << '=' << num(h.score);
      text << "\n# tie_at_k: " << (run.result.tieAtK ? "yes" : "no") << '\n' << traceText(*run.trace);
      expectGoldenTrace(id + "." + algo.get<std::string>() + ".trace", text.str());
    }
  }
}

TEST(TeachingLessons, EveryAlgorithmReturnsTheSameHits) {
  for (const auto& lesson : lessons()) {
    const auto& algos = lesson.at("algorithms");
    LessonRun reference = runLesson(lesson, algos.at(0).get<std::string>());
    ASSERT_EQ(reference.result.hits.size(), lesson.at("k").get<std::size_t>()) << lesson.at("id");
    for (const auto& algo : algos) {
      LessonRun other = runLesson(lesson, algo.get<std::string>());
      ASSERT_EQ(other.result.hits.size(), reference.result.hits.size());
      for (std::size_t i = 0; i < other.result.hits.size(); ++i) {
        EXPECT_EQ(other.result.hits[i].doc, reference.result.hits[i].doc) << lesson.at("id") << " " << algo;
        EXPECT_EQ(std::bit_cast<std::uint32_t>(other.result.hits[i].score),
                  std::bit_cast<std::uint32_t>(reference.result.hits[i].score));
      }
    }
  }
}

TEST(TeachingLessons, EachLessonShowsWhatItTeaches) {
  for (const auto& lesson : lessons()) {
    const std::string id = lesson.at("id").get<std::string>();
    LessonRun run = runLesson(lesson, lesson.at("algorithms").at(0).get<std::string>());
    EXPECT_GE(findStep(*run.trace, lesson.at("key_step")), 0) << id << ": the key step never happens";
    for (const auto& step : lesson.at("watch")) {
      EXPECT_GE(findStep(*run.trace, step), 0) << id << ": step to watch " << step.dump() << " never happens";
    }
  }
}

// The lessons' specific claims, checked on the counters rather than on the golden text.
TEST(TeachingLessons, PruningSavesWorkWhereTheLessonsSayItDoes) {
  auto byId = [](const std::string& id) {
    for (const auto& l : lessons()) {
      if (l.at("id") == id) return l;
    }
    throw std::runtime_error("no lesson " + id);
  };
  {
    auto l = byId("wand-pivot");
    EXPECT_LT(runLesson(l, "wand").result.counters.fullScores, runLesson(l, "exhaustive").result.counters.fullScores / 4);
  }
  {
    auto l = byId("bmw-blocks");
    LessonRun bmw = runLesson(l, "bmw");
    LessonRun wand = runLesson(l, "wand");
    EXPECT_GT(bmw.result.counters.blocksSkipped, 0u);
    EXPECT_LT(bmw.result.counters.fullScores, wand.result.counters.fullScores / 2);
  }
  {
    auto l = byId("maxscore-lists");
    LessonRun ms = runLesson(l, "maxscore");
    bool lanternAlone = false;  // split with two non-essential lists
    for (const auto& e : ms.trace->events()) {
      if (e.kind == TraceEventKind::EssentialSplit && e.score == 2.0f) lanternAlone = true;
    }
    EXPECT_TRUE(lanternAlone);
  }
  {
    auto l = byId("bulk-and-windows");
    LessonRun bulk = runLesson(l, "bulk-and");
    EXPECT_GT(bulk.result.counters.windowsJumped, 0u);
    EXPECT_GT(bulk.result.counters.windowsSkippedBound, 0u);
  }
  {
    // The seed's review case: the floor turns positive mid-window; the table must be built at
    // once (not left disabled) and prune candidates in the next window without a rebuild.
    auto l = byId("floor-mid-window");
    LessonRun bulk = runLesson(l, "bulk-and");
    const auto& ev = bulk.trace->events();
    long raised = -1, built = -1, window2 = -1, prunedInWindow2 = -1;
    int windows = 0;
    for (std::size_t i = 0; i < ev.size(); ++i) {
      if (ev[i].kind == TraceEventKind::ThresholdRaised && std::isinf(ev[i].bound) && raised < 0) raised = static_cast<long>(i);
      if (ev[i].kind == TraceEventKind::PruneTableBuilt && built < 0) built = static_cast<long>(i);
      if (ev[i].kind == TraceEventKind::WindowEntered && ++windows == 2) window2 = static_cast<long>(i);
      if (window2 >= 0 && prunedInWindow2 < 0 && ev[i].kind == TraceEventKind::CandidatePruned &&
          ev[i].reason == TraceReason::Table) {
        prunedInWindow2 = static_cast<long>(i);
      }
    }
    ASSERT_GE(raised, 0);
    ASSERT_GE(window2, 0);
    EXPECT_GT(built, raised);
    EXPECT_LT(built, window2) << "the table must be built in the window where the floor turned positive";
    EXPECT_GT(prunedInWindow2, window2) << "the second window must apply the prune table";
    for (long i = window2; i < prunedInWindow2; ++i) {
      EXPECT_NE(ev[static_cast<std::size_t>(i)].kind, TraceEventKind::PruneTableBuilt) << "key unchanged: no rebuild";
    }
  }
  {
    auto l = byId("ties-at-k");
    LessonRun ex = runLesson(l, "exhaustive");
    EXPECT_TRUE(ex.result.tieAtK);
  }
}

}  // namespace
}  // namespace wandscope::engine
