// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/engine/api/plugin_fixture.h"

#include <nlohmann/json.hpp>

#include <fstream>

namespace wandscope::test {

const PluginFixture& pluginFixture() {
  static const PluginFixture fixture = [] {
    PluginFixture f;
    RandomCorpusParams params;
    params.docs = 3000;
    params.vocabulary = 300;
    params.maxLength = 60;
    f.index = buildTestIndex(randomCorpus(7, params));
    std::mt19937_64 rng(11);
    f.queries = f.index->dir / "queries.jsonl";
    std::ofstream q(f.queries);
    for (int i = 0; i < 60; ++i) {
      std::string text = randomQuery(rng, params, 3);
      f.texts.push_back(text);
      q << nlohmann::json{{"_id", "q" + std::to_string(i)}, {"text", text}}.dump() << '\n';
    }
    q.close();
    const nlohmann::json profile = {
        {"format_version", 1},
        {"name", "plugin-test"},
        {"dataset", {{"index", f.index->indexPath.string()}, {"query_sets", {{"random", f.queries.string()}}}}},
        {"query", {{"op", "or"}, {"k", 10}, {"algorithm", "auto"}}},
        {"targets", {"builtin"}},
        {"seed", 42},
        {"mode", "closed"},
        {"closed", {{"concurrency", {1}}, {"warmup_s", 0.05}, {"measure_s", 0.1}, {"passes", 1}}}};
    f.profile = f.index->dir / "profile.json";
    std::ofstream p(f.profile);
    p << profile.dump(2) << '\n';
    return f;
  }();
  return fixture;
}

}  // namespace wandscope::test
