// SPDX-License-Identifier: GPL-3.0-or-later
// Engine builds as plugins: two builds of the same source (one busy-spins per query and reports
// another build id) and the built-in engine in one process each answer as themselves with
// bit-identical results; files that are not usable plugins are refused with a message naming why.
#include "engine/api/plugin_engine.h"
#include "engine/api/plugin_index.h"
#include "engine/api/wandscope_engine_api.h"
#include "engine/core/error.h"
#include "engine/loadgen/plugin_target.h"
#include "engine/loadgen/target_spec.h"
#include "engine/query/query_counters.h"
#include "engine/query/searcher.h"
#include "tests/engine/api/plugin_fixture.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <bit>
#include <chrono>

namespace wandscope::test {
namespace {

using engine::PluginEngine;
using engine::PluginIndex;

std::string loadError(const std::string& path) {
  try {
    (void)PluginEngine::load(path);
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::Usage);
    return e.what();
  }
  return "";
}

TEST(PluginEngine, TwoBuildsAndTheBuiltinEngineAnswerAsThemselves) {
  const auto& f = pluginFixture();
  auto fast = PluginEngine::load(WANDSCOPE_TEST_PLUGIN_FAST);
  auto slow = PluginEngine::load(WANDSCOPE_TEST_PLUGIN_SLOW);
  EXPECT_EQ(fast->buildInfo().buildId, "test-fast");
  EXPECT_EQ(slow->buildInfo().buildId, "test-slow");
  EXPECT_EQ(fast->abiVersion(), WANDSCOPE_ENGINE_ABI_VERSION);
  EXPECT_FALSE(fast->buildInfo().compiler.empty());
  EXPECT_FALSE(fast->buildInfo().simdTarget.empty());
  std::vector<std::string> names;
  engine::QueryCounters{}.forEach([&](const char* n, std::uint64_t) { names.emplace_back(n); });
  EXPECT_EQ(fast->counterNames(), names);

  auto fastIndex = PluginIndex::open(fast, f.index->indexPath);
  auto slowIndex = PluginIndex::open(slow, f.index->indexPath);
  EXPECT_EQ(fastIndex->docCount(), f.index->index->docCount());
  EXPECT_EQ(fastIndex->externalId(5), std::string(f.index->index->externalId(5)));

  using Clock = std::chrono::steady_clock;
  for (const auto& text : f.texts) {
    SCOPED_TRACE(text);
    engine::SearchRequest request;
    request.text = text;
    request.op = engine::Operator::Or;
    request.k = 10;
    const auto builtin = engine::search(*f.index->index, request);
    const auto a = fastIndex->search(text, "or", "auto", 10, "");
    const auto t1 = Clock::now();
    const auto b = slowIndex->search(text, "or", "auto", 10, "");
    const auto t2 = Clock::now();
    // The slow build really is the slow one: it spins until steady_clock has moved 200 us, so
    // every one of its calls takes at least that long, whatever the machine's load. (A bound on
    // the difference to the fast build's time was flaky: under ASan on a loaded runner the fast
    // build's first, colder calls ate most of the margin.)
    EXPECT_GE(t2 - t1, std::chrono::microseconds(200));
    ASSERT_EQ(a.docs.size(), builtin.hits.size());
    ASSERT_EQ(b.docs.size(), builtin.hits.size());
    for (std::size_t i = 0; i < builtin.hits.size(); ++i) {
      EXPECT_EQ(a.docs[i], builtin.hits[i].doc);
      EXPECT_EQ(b.docs[i], builtin.hits[i].doc);
      EXPECT_EQ(std::bit_cast<std::uint32_t>(a.scores[i]), std::bit_cast<std::uint32_t>(builtin.hits[i].score));
      EXPECT_EQ(std::bit_cast<std::uint32_t>(b.scores[i]), std::bit_cast<std::uint32_t>(builtin.hits[i].score));
    }
    std::vector<std::uint64_t> counters;
    builtin.counters.forEach([&](const char*, std::uint64_t v) { counters.push_back(v); });
    EXPECT_EQ(a.counters, counters);
    EXPECT_EQ(a.algorithm, engine::algorithmName(builtin.algorithm));
  }
}

TEST(PluginEngine, ExportsOnlyTheEntryPoint) {
  auto fast = PluginEngine::load(WANDSCOPE_TEST_PLUGIN_FAST);
  void* handle = ::dlopen(WANDSCOPE_TEST_PLUGIN_FAST, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
  ASSERT_NE(handle, nullptr);
  EXPECT_NE(::dlsym(handle, "wandscope_engine_api"), nullptr);
  // engine::search(const Index&, const SearchRequest&): in the plugin, but not exported.
  EXPECT_EQ(::dlsym(handle, "_ZN9wandscope6engine6searchERKNS0_5IndexERKNS0_13SearchRequestE"), nullptr);
  ::dlclose(handle);
}

TEST(PluginEngine, ExplainAndOptionErrorsCrossTheBoundaryAsText) {
  const auto& f = pluginFixture();
  auto fast = PluginEngine::load(WANDSCOPE_TEST_PLUGIN_FAST);
  auto index = PluginIndex::open(fast, f.index->indexPath);
  const auto r = index->search(f.texts[0], "or", "exhaustive", 3, "bulk_and=off", true);
  EXPECT_NE(r.explainJson.find("\"hits\""), std::string::npos);
  EXPECT_EQ(r.algorithm, "exhaustive");
  try {
    (void)index->search(f.texts[0], "or", "auto", 10, "no_such_switch=off");
    FAIL() << "an unknown option must be refused";
  } catch (const engine::Error& e) {
    EXPECT_NE(std::string(e.what()).find("no_such_switch"), std::string::npos) << e.what();
  }
  try {
    (void)PluginIndex::open(fast, f.index->dir / "not-an-index");
    FAIL() << "a missing index must be refused";
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::Index);
  }
}

TEST(PluginEngine, BadPluginsAreRefusedWithAMessage) {
  const auto& f = pluginFixture();
  EXPECT_NE(loadError("/nonexistent/libengine.so").find("no such file"), std::string::npos);
  EXPECT_NE(loadError(f.index->dir.path().string()).find("is a directory"), std::string::npos);
  EXPECT_NE(loadError(f.queries.string()).find("cannot load"), std::string::npos);
  const std::string noSymbol = loadError(WANDSCOPE_TEST_PLUGIN_NOSYMBOL);
  EXPECT_NE(noSymbol.find("not a Wandscope engine plugin"), std::string::npos) << noSymbol;
  EXPECT_NE(noSymbol.find("wandscope_engine_api"), std::string::npos) << noSymbol;
  const std::string abi = loadError(WANDSCOPE_TEST_PLUGIN_ABI99);
  EXPECT_NE(abi.find("ABI v99"), std::string::npos) << abi;
  EXPECT_NE(abi.find("speaks v1"), std::string::npos) << abi;
}

TEST(PluginTarget, SpecsAndTargetErrors) {
  const auto spec = engine::TargetSpec::parse("plugin:/x/lib.so:bulk_and=off,k=5");
  EXPECT_EQ(spec.kind, "plugin");
  EXPECT_EQ(spec.path, "/x/lib.so");
  ASSERT_EQ(spec.options.size(), 2u);
  engine::PluginQueryOptions o;
  o.applySpec(spec);
  EXPECT_EQ(o.k, 5u);
  EXPECT_EQ(o.options, "bulk_and=off");
  EXPECT_EQ(engine::TargetSpec::parse("plugin:/x/lib.so").path, "/x/lib.so");
  EXPECT_THROW((void)engine::TargetSpec::parse("plugin"), engine::Error);
  EXPECT_THROW((void)engine::TargetSpec::parse("plugin::k=3"), engine::Error);

  const auto& f = pluginFixture();
  engine::Workload workload({engine::loadWorkloadQuerySet("random", f.queries)}, engine::WorkloadOrder::Cycle, 1);
  engine::PluginQueryOptions bad;
  bad.options = "no_such_switch=on";
  try {
    engine::PluginTarget t(engine::TargetSpec::parse(std::string("plugin:") + WANDSCOPE_TEST_PLUGIN_FAST), f.index->indexPath,
                           workload, bad);
    FAIL() << "the plugin must refuse an option it does not have";
  } catch (const engine::Error& e) {
    EXPECT_NE(std::string(e.what()).find("no_such_switch"), std::string::npos) << e.what();
  }
}

TEST(PluginEngine, TheReleasePluginLoadsToo) {
  auto release = PluginEngine::load(WANDSCOPE_ENGINE_PLUGIN);
  EXPECT_NE(release->buildInfo().buildId.find('+'), std::string::npos) << release->buildInfo().buildId;
  EXPECT_FALSE(release->buildInfo().gitCommit.empty());
}

}  // namespace
}  // namespace wandscope::test
