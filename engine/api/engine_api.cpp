// SPDX-License-Identifier: GPL-3.0-or-later
// The plugin side of the engine ABI (engine/api/wandscope_engine_api.h): compiled only into the
// `wandscope_engine_plugin` MODULE library, whose version script exports nothing but
// `wandscope_engine_api`. Every entry point catches everything: no C++ exception crosses the C
// boundary; failures leave a per-thread message for last_error().
//
// Test builds (tests/engine/api) compile this same file with
//   WANDSCOPE_PLUGIN_BUILD_ID="..."   a build id instead of "<version>+<commit>"
//   WANDSCOPE_PLUGIN_SPIN_US=N        a busy-spin of N microseconds added to every search
//   WANDSCOPE_PLUGIN_TEST_ABI=N       report ABI version N (and compat N): a "wrong version" build
#include "engine/api/wandscope_engine_api.h"

#include "engine/bench/environment.h"
#include "engine/codec/simd/simd_target.h"
#include "engine/core/error.h"
#include "engine/corpus/corpus_reader.h"
#include "engine/index/index.h"
#include "engine/index/index_builder.h"
#include "engine/query/query_counters.h"
#include "engine/query/searcher.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <charconv>
#include <chrono>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#ifndef WANDSCOPE_PLUGIN_SPIN_US
#define WANDSCOPE_PLUGIN_SPIN_US 0
#endif

namespace we = wandscope::engine;

struct wandscope_index {
  std::shared_ptr<const we::Index> index;
};

namespace {

thread_local std::string t_lastError;

void setError(std::string message) { t_lastError = std::move(message); }

// A result owns the storage its C view (the base) points into; free_result downcasts back.
struct ResultBox : wandscope_result {
  std::vector<std::uint32_t> docs;
  std::vector<float> scores;
  std::vector<std::uint64_t> counterValues;
  std::string algorithm;
  std::string explain;
};

struct CounterNames {
  std::vector<std::string> names;
  std::vector<const char*> pointers;
};

const CounterNames& counterNames() {
  static const CounterNames names = [] {
    CounterNames n;
    we::QueryCounters{}.forEach([&](const char* name, std::uint64_t) { n.names.emplace_back(name); });
    for (const auto& s : n.names) n.pointers.push_back(s.c_str());
    return n;
  }();
  return names;
}

struct BuildStrings {
  std::string buildId, version, commit, compiler, flags, buildType, simd;
  wandscope_build_info info{};
};

BuildStrings& buildStrings() {
  static BuildStrings s = [] {
    BuildStrings b;
    const we::Environment env = we::collectEnvironment();
    b.version = env.wandscopeVersion;
    b.commit = env.gitCommit;
    b.compiler = env.compiler;
    b.flags = env.compilerFlags;
    b.buildType = env.buildType;
#ifdef WANDSCOPE_PLUGIN_BUILD_ID
    b.buildId = WANDSCOPE_PLUGIN_BUILD_ID;
#else
    b.buildId = fmt::format("{}+{}{}", b.version, b.commit.substr(0, 12), env.gitDirty ? "-dirty" : "");
#endif
    b.info.struct_size = sizeof(wandscope_build_info);
    b.info.build_id = b.buildId.c_str();
    b.info.version = b.version.c_str();
    b.info.git_commit = b.commit.c_str();
    b.info.git_dirty = env.gitDirty ? 1 : 0;
    b.info.compiler = b.compiler.c_str();
    b.info.flags = b.flags.c_str();
    b.info.build_type = b.buildType.c_str();
    b.info.simd_target = "";
    return b;
  }();
  return s;
}

const wandscope_build_info* apiBuildInfo() {
  try {
    static std::mutex mutex;
    std::lock_guard lock(mutex);
    BuildStrings& b = buildStrings();
    // The SIMD target can be forced at run time; report the current one.
    b.simd = we::simd::targetName(we::simd::currentTarget());
    b.info.simd_target = b.simd.c_str();
    return &b.info;
  } catch (const std::exception& e) {
    setError(e.what());
    return nullptr;
  }
}

const char* apiLastError() { return t_lastError.c_str(); }

wandscope_index* apiOpenIndex(const char* dir) {
  try {
    if (dir == nullptr) we::throwUsage("open_index: dir is NULL");
    auto handle = std::make_unique<wandscope_index>();
    handle->index = we::Index::open(dir);
    return handle.release();
  } catch (const std::exception& e) {
    setError(e.what());
    return nullptr;
  }
}

wandscope_index* apiBuildIndex(const char* corpus, const char* outDir, const char* options) {
  try {
    if (corpus == nullptr || outDir == nullptr) we::throwUsage("build_index: corpus or out_dir is NULL");
    we::IndexBuildOptions o;
    o.corpus = corpus;
    o.format = we::guessCorpusFormat(o.corpus);
    std::string_view rest = options ? options : "";
    while (!rest.empty()) {
      const auto comma = rest.find(',');
      const std::string_view item = rest.substr(0, comma);
      rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
      if (item.empty()) continue;
      const auto eq = item.find('=');
      const std::string key(item.substr(0, eq));
      const std::string value(eq == std::string_view::npos ? "" : item.substr(eq + 1));
      if (key == "analyzer") {
        o.analyzer = we::Analyzer::parseKind(value);
      } else if (key == "format") {
        o.format = we::parseCorpusFormat(value);
      } else if (key == "threads") {
        unsigned t = 0;
        const auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), t);
        if (ec != std::errc() || p != value.data() + value.size()) {
          we::throwUsage("build_index: threads must be an integer, got '" + value + "'");
        }
        o.threads = t;
      } else if (key == "store_text") {
        if (value != "on" && value != "off") we::throwUsage("build_index: store_text must be on or off");
        o.storeText = value == "on";
      } else {
        we::throwUsage("build_index: unknown option '" + key + "' (expected analyzer, format, threads, store_text)");
      }
    }
    we::buildIndex(o, outDir);
    return apiOpenIndex(outDir);
  } catch (const std::exception& e) {
    setError(e.what());
    return nullptr;
  }
}

void apiCloseIndex(wandscope_index* index) { delete index; }

std::uint64_t apiDocCount(const wandscope_index* index) { return index ? index->index->docCount() : 0; }

const char* apiExternalId(const wandscope_index* index, std::uint32_t doc) {
  // The stored ids are NUL-free strings in the mapped doc table, but not NUL-terminated: keep a
  // per-thread copy (valid until this thread's next call, which is what callers need).
  thread_local std::string id;
  id.clear();
  if (index == nullptr || doc >= index->index->docCount()) return "";
  id = std::string(index->index->externalId(doc));
  return id.c_str();
}

std::uint32_t apiCounterCount() { return static_cast<std::uint32_t>(counterNames().names.size()); }

const char* apiCounterName(std::uint32_t i) {
  const auto& n = counterNames();
  return i < n.pointers.size() ? n.pointers[i] : nullptr;
}

void spin() {
  if constexpr (WANDSCOPE_PLUGIN_SPIN_US > 0) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(WANDSCOPE_PLUGIN_SPIN_US);
    while (std::chrono::steady_clock::now() < until) {
    }
  }
}

std::string explainJson(const we::SearchResult& r) {
  nlohmann::json j;
  j["algorithm"] = we::algorithmName(r.algorithm);
  j["reason"] = r.reason;
  nlohmann::json terms = nlohmann::json::array();
  for (const auto& t : r.query.terms) {
    terms.push_back({{"text", t.text}, {"known", t.id.has_value()}, {"df", t.df}, {"idf", t.idf},
                     {"max_score", t.maxScore}});
  }
  j["terms"] = std::move(terms);
  nlohmann::json hits = nlohmann::json::array();
  for (const auto& e : r.explain) {
    hits.push_back({{"doc", e.doc}, {"doc_length", e.docLength}, {"tf", e.tf}, {"contribution", e.contribution},
                    {"score", e.score}});
  }
  j["hits"] = std::move(hits);
  return j.dump();
}

wandscope_result* apiSearch(const wandscope_index* index, const char* text, const char* op, const char* algorithm,
                            std::uint32_t k, const char* options, std::uint32_t flags) {
  try {
    if (index == nullptr || text == nullptr) we::throwUsage("search: index or text is NULL");
    we::SearchRequest request;
    request.text = text;
    request.op = we::parseOperator(op ? op : "or");
    request.algorithm = (algorithm == nullptr || *algorithm == '\0') ? we::Algorithm::Auto : we::parseAlgorithm(algorithm);
    if (k == 0) we::throwUsage("search: k must be >= 1");
    request.k = k;
    if (options != nullptr && *options != '\0') request.options.apply(options);
    request.explain = (flags & WANDSCOPE_SEARCH_EXPLAIN) != 0;
    request.describePlan = request.explain;  // the reason is read only by explain
    spin();
    const we::SearchResult r = we::search(*index->index, request);
    auto box = std::make_unique<ResultBox>();
    box->docs.reserve(r.hits.size());
    box->scores.reserve(r.hits.size());
    for (const auto& h : r.hits) {
      box->docs.push_back(h.doc);
      box->scores.push_back(h.score);
    }
    r.counters.forEach([&](const char*, std::uint64_t v) { box->counterValues.push_back(v); });
    box->algorithm = we::algorithmName(r.algorithm);
    if (request.explain) box->explain = explainJson(r);
    wandscope_result& v = *box;
    v.struct_size = sizeof(wandscope_result);
    v.hit_count = static_cast<std::uint32_t>(box->docs.size());
    v.docs = box->docs.data();
    v.scores = box->scores.data();
    v.counter_count = static_cast<std::uint32_t>(box->counterValues.size());
    v.counter_names = counterNames().pointers.data();
    v.counter_values = box->counterValues.data();
    v.algorithm = box->algorithm.c_str();
    v.explain_json = request.explain ? box->explain.c_str() : nullptr;
    return box.release();
  } catch (const std::exception& e) {
    setError(e.what());
    return nullptr;
  }
}

void apiFreeResult(wandscope_result* result) {
  // Every result we hand out is a ResultBox.
  delete static_cast<ResultBox*>(result);
}

#ifdef WANDSCOPE_PLUGIN_TEST_ABI
constexpr std::uint32_t kAbiVersion = WANDSCOPE_PLUGIN_TEST_ABI;
constexpr std::uint32_t kAbiCompat = WANDSCOPE_PLUGIN_TEST_ABI;
#else
constexpr std::uint32_t kAbiVersion = WANDSCOPE_ENGINE_ABI_VERSION;
constexpr std::uint32_t kAbiCompat = 1;
#endif

const wandscope_engine_api_v1 kApi = {
    sizeof(wandscope_engine_api_v1),
    kAbiVersion,
    kAbiCompat,
    apiBuildInfo,
    apiLastError,
    apiOpenIndex,
    apiBuildIndex,
    apiCloseIndex,
    apiDocCount,
    apiExternalId,
    apiCounterCount,
    apiCounterName,
    apiSearch,
    apiFreeResult,
};

}  // namespace

extern "C" __attribute__((visibility("default"))) const wandscope_engine_api_v1* wandscope_engine_api(
    std::uint32_t requested_version) {
  // A host older than our layout's compat version cannot read this table. (We still return it when
  // built as a "wrong ABI" test plugin so the host's own check, and its message, are exercised.)
#ifndef WANDSCOPE_PLUGIN_TEST_ABI
  if (requested_version < kAbiCompat) return nullptr;
#else
  (void)requested_version;
#endif
  return &kApi;
}
