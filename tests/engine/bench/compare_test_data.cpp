// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/engine/bench/compare_test_data.h"

namespace wandscope::test {
namespace {

engine::CompareScenario scenario(const std::string& set, const std::string& metric, double a, double b) {
  engine::CompareScenario s;
  s.name = set + (metric == "p50_ms" ? ", p50" : ", CPU ms/query");
  s.querySet = set;
  s.metric = metric;
  s.a = a;
  s.b = b;
  s.aGeomean = a * 0.9;
  s.bGeomean = b * 0.9;
  s.estimate = {a / b, a / b * 0.95, a / b * 1.05, 0.02, a > b * 1.1 ? "faster" : "no-difference"};
  s.queries = 30;
  s.samplesPerQuery = 12;
  s.diff.queries = 30;
  return s;
}

}  // namespace

engine::CompareReport makeCompareReport(const std::string& id, const std::string& mode) {
  engine::CompareReport r;
  r.runId = id;
  r.profileName = "compare, \"quoted\"";
  r.profileJson = R"({"name": "compare"})";
  r.a = {"builtin", "0.4.0+0123456789ab", "gcc 12, -O2, AVX2"};
  r.b = {std::string("plugin:/tmp/") + kHostileText + ".so", std::string("build ") + kHostileText, "clang 15, -O3"};
  r.environment.cpuModel = "Test CPU <fast>";
  r.environment.cores = 2;
  r.environment.memTotalMib = 4096;
  r.environment.kernel = "6.1.0";
  r.environment.hostname = std::string("host") + kHostileText;
  r.environment.startedUtc = "2025-01-02T03:04:05Z";
  r.environment.compiler = "gcc 12.2";
  r.environment.buildType = "Release";
  r.environment.gitCommit = "0123456789abcdef";
  r.environment.simdTarget = "AVX2";
  r.environment.fingerprints = {{"index", "fnv1a64:0123"}};
  r.repetitions = 3;
  r.warmupSeconds = 0.25;
  r.warmPasses = mode == "closed" ? 2 : 0;
  r.bootstrapSamples = 2000;
  r.noiseFloor = 0.02;
  r.method = "ABBA blocks, geometric means, bootstrap";
  r.mode = mode;
  r.warnings = {std::string("a warning with ") + kHostileText};
  if (mode == "open") {
    for (double rate : {100.0, 250.0}) {
      for (const char* metric : {"open_p50_ms", "open_p99_ms"}) {
        auto s = scenario("mixed", metric, 2.0, 1.0);
        s.name = std::to_string(static_cast<int>(rate)) + "/s offered, " + (metric[6] == '5' ? "p50" : "p99") +
                 " latency";
        s.offeredRate = rate;
        r.scenarios.push_back(s);
      }
    }
    r.capacity.push_back({"A", r.a.spec, 1, {100, 250}, {1, 0}, {0.0, 0.125}, 100.0, 250.0, {"", "p99"}});
    r.capacity.push_back({"B", r.b.spec, 1, {100, 250}, {1, 1}, {0.0, 0.0}, 250.0, std::nullopt, {"", ""}});
    r.capacityVerdict = "B sustains more";
    engine::ResultDiff same;
    same.queries = 30;
    engine::ResultDiff differ = same;
    differ.rowSetDiff = 1;
    differ.firstDivergingRank = 4;
    differ.differingQueries = {kHostileText};
    r.diffs = {{"mid-df-2", 1, same}, {std::string("set ") + kHostileText, 1, differ}};
    return r;
  }
  r.aa = true;
  for (const std::string& set : {std::string("mid-df-2"), std::string("set ") + kHostileText}) {
    for (const char* metric : {"cpu_ms_per_query", "p50_ms"}) {
      auto s = scenario(set, metric, 1.5, set == "mid-df-2" ? 1.0 : 1.49);
      if (set != "mid-df-2") {
        s.diff.rowSetDiff = 2;
        s.diff.scoreBitDiff = 1;
        s.diff.firstDivergingRank = 3;
        s.diff.differingQueries = {"q1, with comma", kHostileText};
      }
      r.scenarios.push_back(s);
      auto aa = scenario(set, metric, 1.5, 1.5);
      aa.estimate.noiseFloor = 0.031;
      r.aaScenarios.push_back(aa);
    }
  }
  return r;
}

engine::CompareReport makeCompareReport3(const std::string& id, const std::string& mode) {
  engine::CompareReport r = makeCompareReport(id, mode);
  r.more.push_back({"builtin:bulk_and=off", "0.4.0+0123456789ab", "gcc 12, -O2, AVX2"});
  // Per query set (or rate) B's rows, then B2's, as the runners order them.
  std::vector<engine::CompareScenario> rows;
  const auto& src = r.scenarios;
  for (std::size_t i = 0; i < src.size();) {
    std::size_t j = i;
    while (j < src.size() && src[j].querySet == src[i].querySet && (src[j].offeredRate == src[i].offeredRate)) ++j;
    for (std::size_t k = i; k < j; ++k) rows.push_back(src[k]);
    for (std::size_t k = i; k < j; ++k) {
      auto s = src[k];
      s.target = 2;
      s.b *= 1.2;
      s.bGeomean *= 1.2;
      const double ratio = s.a / s.b;
      s.estimate = {ratio, ratio * 0.97, ratio * 1.03, 0.02,
                    ratio * 0.97 > 1.02 ? "faster" : ratio * 1.03 < 1 / 1.02 ? "slower" : "inconclusive"};
      s.diff = {};
      s.diff.queries = 30;
      rows.push_back(s);
    }
    i = j;
  }
  r.scenarios = rows;
  if (mode == "open") {
    r.capacity.push_back({"B2", "builtin:bulk_and=off", 1, {100, 250}, {1, 0}, {0.0, 0.5}, 100.0, 250.0, {"", "shed"}});
    const auto diffs = r.diffs;
    r.diffs.clear();
    for (const auto& d : diffs) {
      r.diffs.push_back(d);
      engine::SetResultDiff same{d.querySet, 2, {}};
      same.diff.queries = d.diff.queries;
      r.diffs.push_back(same);
    }
  }
  return r;
}

}  // namespace wandscope::test
