// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/workers/compare_recorded_runs.h"

#include "engine/core/wording.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <tuple>

namespace wandscope::app {
namespace {

using Key = std::tuple<std::size_t, std::string, std::string, std::uint64_t>;  // target slot, mode, set, conc|step

std::size_t slotOf(const engine::RunReport& r, const std::string& target) {
  const auto& t = r.header.targets;
  const auto it = std::find(t.begin(), t.end(), target);
  return it == t.end() ? t.size() : static_cast<std::size_t>(it - t.begin());
}

std::map<Key, const engine::RungResult*> keyed(const engine::RunReport& r) {
  std::map<Key, const engine::RungResult*> out;
  std::map<std::size_t, std::uint64_t> openStep;  // per target slot
  for (const auto& g : r.rungs) {
    const std::size_t slot = slotOf(r, g.target);
    Key k = g.mode == "open" ? Key{slot, g.mode, std::string(), openStep[slot]++}
                             : Key{slot, g.mode, g.querySet, g.concurrency};
    out.emplace(std::move(k), &g);
  }
  return out;
}

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out.append(out.empty() ? "" : ", ").append(s);
  return out;
}

std::string rungName(const engine::RungResult& g, bool multipleTargets) {
  std::string name = g.mode == "open" ? "open " + engine::formatRate(g.targetRate)
                                      : fmt::format("{} \u00d7{}", g.querySet.empty() ? "closed" : g.querySet, g.concurrency);
  if (multipleTargets) name = fmt::format("{} [{}]", name, g.target);
  return name;
}

engine::CompareSide side(const engine::RunReport& r) {
  engine::CompareSide s;
  s.spec = fmt::format("{} ({})", r.header.runId, joined(r.header.targets));
  const auto& e = r.header.environment;
  s.buildId = fmt::format("{}+{}{}", e.wandscopeVersion, e.gitCommit.substr(0, 12), e.gitDirty ? "-dirty" : "");
  s.detail = fmt::format("run {} of profile {}, started {} on {}{}", r.header.runId, r.header.profileName, e.startedUtc,
                         e.hostname, e.guiAttached ? ", measured with the GUI attached" : "");
  return s;
}

}  // namespace

engine::CompareReport compareRecordedRuns(const engine::RunReport& a, const engine::RunReport& b) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  engine::CompareReport out;
  out.runId = fmt::format("{}-vs-{}", a.header.runId, b.header.runId);
  out.profileName = a.header.profileName == b.header.profileName
                        ? a.header.profileName
                        : fmt::format("{} vs {}", a.header.profileName, b.header.profileName);
  out.profileJson = a.header.profileJson;
  out.a = side(a);
  out.b = side(b);
  out.environment = a.header.environment;
  out.partial = a.partial || b.partial;
  out.method = "Two runs recorded in the run store, side by side (no re-run): rungs matched by target position, "
               "mode, query set and concurrency (closed loop) or ladder step (open loop). The figures are the runs' "
               "own (CPU ms/query: process CPU over the rung / completed requests; p50/p99 as recorded); Benefit is "
               "the ratio A/B of those figures. Runs made at different times are not paired samples, so there is no "
               "interval and no verdict, and their results were not compared.";
  // A run read with damaged stored parts left out (History shows it so): its missing rungs are not
  // "without a counterpart" in the other run, they were not read.
  for (const engine::RunReport* run : {&a, &b}) {
    if (run->partsLeftOut > 0) {
      out.warnings.push_back(fmt::format("run {} is damaged in the store: {} could not be read and {} left out "
                                         "(its warnings on the History page name them)",
                                         run->header.runId,
                                         engine::counted(run->partsLeftOut, "stored part", "stored parts"),
                                         run->partsLeftOut == 1 ? "is" : "are"));
    }
  }
  if (a.header.profileName != b.header.profileName) {
    out.warnings.push_back(fmt::format("the runs used different profiles ({} and {})", a.header.profileName,
                                       b.header.profileName));
  }
  if (a.header.environment.hostname != b.header.environment.hostname) {
    out.warnings.push_back(fmt::format("the runs were made on different hosts ({} and {})", a.header.environment.hostname,
                                       b.header.environment.hostname));
  }
  const auto ka = keyed(a);
  const auto kb = keyed(b);
  const bool multiple = a.header.targets.size() > 1 || b.header.targets.size() > 1;
  std::size_t unmatched = 0;
  for (const auto& [key, ra] : ka) {
    const auto it = kb.find(key);
    if (it == kb.end()) {
      ++unmatched;
      continue;
    }
    const engine::RungResult& rb = *it->second;
    const std::string name = rungName(*ra, multiple);
    // Not ra itself in the lambda: clang before 16 cannot capture a structured binding (C++20
    // allows it), and the TSan tree is built with clang 14.
    const auto queries = ra->completed;
    auto add = [&](const char* metric, const char* title, std::optional<double> va, std::optional<double> vb) {
      engine::CompareScenario s;
      s.querySet = name;
      s.metric = metric;
      s.name = fmt::format("{}, {}", name, title);
      s.a = va.value_or(0);
      s.b = vb.value_or(0);
      s.aGeomean = s.a;
      s.bGeomean = s.b;
      s.queries = queries;
      s.estimate.ratio = va && vb && *vb > 0 ? *va / *vb : 0;
      s.estimate.ciLow = kNaN;
      s.estimate.ciHigh = kNaN;
      s.estimate.noiseFloor = 0;
      s.estimate.verdict.clear();
      out.scenarios.push_back(std::move(s));
    };
    add("cpu_ms_per_query", "CPU ms/query", ra->cpuMsPerQuery, rb.cpuMsPerQuery);
    add("p50_ms", "p50", ra->p50Ms, rb.p50Ms);
    if (ra->mode == "open") add("p99_ms", "p99", ra->p99Ms, rb.p99Ms);
  }
  unmatched += kb.size() - (ka.size() - unmatched);
  if (unmatched > 0) {
    out.warnings.push_back(fmt::format("{} no counterpart in the other run and {} not shown",
                                       engine::counted(unmatched, "rung has", "rungs have"),
                                       unmatched == 1 ? "is" : "are"));
  }
  // Order the rows as run A ran them.
  std::map<std::string, std::size_t> order;
  for (const auto& g : a.rungs) order.emplace(rungName(g, multiple), order.size());
  std::stable_sort(out.scenarios.begin(), out.scenarios.end(), [&order](const auto& x, const auto& y) {
    return order[x.querySet] < order[y.querySet];
  });
  return out;
}

}  // namespace wandscope::app
