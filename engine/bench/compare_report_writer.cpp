// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bench/compare_report_writer.h"

#include "engine/bench/report_writer.h"

#include "engine/bench/compare_stats.h"
#include "engine/core/error.h"
#include "engine/core/fs_util.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace wandscope::engine {
namespace {

using nlohmann::json;

json diffJson(const ResultDiff& d) {
  return json{{"row_set_diff", d.rowSetDiff},
              {"score_bit_diff", d.scoreBitDiff},
              {"order_diff", d.orderDiff},
              {"failed_queries", d.failed},
              {"first_diverging_rank", d.firstDivergingRank ? json(*d.firstDivergingRank) : json(nullptr)},
              {"differing_queries", d.differingQueries},
              {"results_differ", d.differs()}};
}

json scenarioJson(const CompareScenario& s) {
  json j{{"name", s.name},
         {"query_set", s.querySet},
         {"metric", s.metric},
         {"a", s.a},
         {"b", s.b},
         {"a_geomean", s.aGeomean},
         {"b_geomean", s.bGeomean},
         {"ratio", s.estimate.ratio},
         {"ci_low", s.estimate.ciLow},
         {"ci_high", s.estimate.ciHigh},
         {"noise_floor", s.estimate.noiseFloor},
         {"verdict", s.estimate.verdict},
         {"queries", s.queries},
         {"samples_per_query", s.samplesPerQuery}};
  j.update(diffJson(s.diff));
  return j;
}

json sideJson(const CompareSide& s) { return json{{"spec", s.spec}, {"build_id", s.buildId}, {"detail", s.detail}}; }

std::string ms(double v) { return fmt::format("{:.4g} ms", v); }

void ratioTable(std::string& md, const CompareReport& r, const std::vector<CompareScenario>& rows,
                const std::string& metric, const std::string& title, const std::string& aName,
                const std::string& bName) {
  bool any = false;
  for (const auto& s : rows) any = any || s.metric == metric;
  if (!any) return;
  md += fmt::format("### {}\n\n", title);
  md += fmt::format("| Scenario / metric | {} | {} | Benefit vs A | 95 % CI | Verdict |\n", aName, bName);
  md += "|---|---:|---:|---:|---|---|\n";
  for (const auto& s : rows) {
    if (s.metric != metric) continue;
    const auto& e = s.estimate;
    md += fmt::format("| {}{} | {} | {} | {} ({}) | [{:.3f}x, {:.3f}x] | {}{} |\n", s.name,
                      s.diff.differs() ? " ⚠ results differ" : "", ms(s.a), ms(s.b), speedupText(e.ratio),
                      percentText(e.ratio), e.ciLow, e.ciHigh, e.verdict,
                      std::abs(e.noiseFloor - r.noiseFloor) > 1e-12 ? fmt::format(" (floor ±{:.1f} %)", e.noiseFloor * 100)
                                                                     : "");
  }
  md += "\n";
}

}  // namespace

std::string compareReportJson(const CompareReport& r) {
  json j;
  j["schema_version"] = CompareReport::kSchemaVersion;
  j["kind"] = "compare";
  j["run_id"] = r.runId;
  j["profile"] = r.profileName;
  j["profile_json"] = r.profileJson;
  j["a"] = sideJson(r.a);
  j["b"] = sideJson(r.b);
  j["environment"] = environmentJson(r.environment);
  j["method"] = json{{"text", r.method},
                     {"repetitions", r.repetitions},
                     {"block_order", "ABBA with the lead rotating per repetition"},
                     {"warmup_s", r.warmupSeconds},
                     {"bootstrap_samples", r.bootstrapSamples},
                     {"noise_floor", r.noiseFloor},
                     {"aa", r.aa},
                     {"ratio", "A/B of geometric means over queries of per-query medians; > 1: B faster"}};
  json rows = json::array();
  for (const auto& s : r.scenarios) rows.push_back(scenarioJson(s));
  j["scenarios"] = rows;
  json aa = json::array();
  for (const auto& s : r.aaScenarios) aa.push_back(scenarioJson(s));
  j["aa_scenarios"] = aa;
  j["warnings"] = r.warnings;
  j["partial"] = r.partial;
  j["mode"] = r.mode;
  if (r.mode == "open") {
    json cap = json::array();
    for (const auto& c : r.capacity) {
      auto opt = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
      cap.push_back(json{{"target", c.target},
                         {"spec", c.spec},
                         {"ladders", c.ladders},
                         {"rates", c.rates},
                         {"passed", c.passed},
                         {"shed_fraction", c.shedFraction},
                         {"criteria", c.criteria},
                         {"last_pass", opt(c.lastPass)},
                         {"first_fail", opt(c.firstFail)}});
    }
    j["capacity"] = cap;
    j["capacity_verdict"] = r.capacityVerdict;
    json diffs = json::array();
    for (const auto& [set, d] : r.diffs) {
      json row = diffJson(d);
      row["query_set"] = set;
      diffs.push_back(row);
    }
    j["result_equality"] = diffs;
  }
  return j.dump(2) + "\n";
}

std::string compareReportMarkdown(const CompareReport& r) {
  const auto& e = r.environment;
  std::string md = fmt::format("# Comparison: {} vs {}\n\n", r.a.spec, r.b.spec);
  for (const auto& w : r.warnings) md += fmt::format("> **Warning:** {}\n\n", w);
  if (r.partial) md += "> **Partial run:** it was interrupted; the query sets below are the ones that finished.\n\n";
  std::size_t differing = 0;
  for (const auto& s : r.scenarios) {
    if (s.diff.differs() && s.metric == "cpu_ms_per_query") ++differing;
  }
  for (const auto& [set, d] : r.diffs) {
    if (d.differs()) ++differing;
  }
  if (differing > 0) {
    md += fmt::format("> **Results differ** on {} query set(s): A and B do not return the same documents and scores, "
                      "so the speed figures compare different work (rows marked ⚠).\n\n",
                      differing);
  }
  md += fmt::format("- **A:** `{}` — build {} ({})\n", r.a.spec, r.a.buildId, r.a.detail);
  md += fmt::format("- **B:** `{}` — build {} ({})\n", r.b.spec, r.b.buildId, r.b.detail);
  md += fmt::format("- **Run:** {} started {}, profile {} (compare report schema {})\n", r.runId, e.startedUtc,
                    r.profileName, CompareReport::kSchemaVersion);
  md += fmt::format("- **Environment:** {}, {} cores, {:.1f} GiB, {}, load average {:.2f} at start{}\n", e.cpuModel,
                    e.cores, e.memTotalMib / 1024.0, e.kernel, e.loadAverage1m,
                    e.governor.empty() ? "" : fmt::format(", governor {}", e.governor));
  md += fmt::format("- **Workbench build:** {} {}, `{}`, git {}{}, SIMD target {}\n", e.compiler, e.buildType,
                    e.compilerFlags, e.gitCommit, e.gitDirty ? " (dirty)" : "", e.simdTarget);
  if (!e.fingerprints.empty()) {
    md += "- **Data:**";
    bool first = true;
    for (const auto& [k, v] : e.fingerprints) {
      md += fmt::format("{} {} `{}`", first ? "" : ";", k, v);
      first = false;
    }
    md += "\n";
  }
  md += fmt::format("- **Method:** {}\n\n", r.method);

  const std::string aName = "A: " + r.a.spec;
  const std::string bName = "B: " + r.b.spec;
  if (r.mode == "open") {
    md += "## Open loop\n\n";
    ratioTable(md, r, r.scenarios, "open_p50_ms", "p50 latency from the due time, ms (lower is better)", aName, bName);
    ratioTable(md, r, r.scenarios, "open_p99_ms", "p99 latency from the due time, ms (lower is better)", aName, bName);
    md += fmt::format("### Capacity\n\n**{}**\n\n| Target | ladders |", r.capacityVerdict);
    const OpenCapacity* first = r.capacity.empty() ? nullptr : &r.capacity.front();
    if (first != nullptr) {
      for (double rate : first->rates) md += fmt::format(" {:.4g}/s |", rate);
      md += "\n|---|---:|";
      for (std::size_t j = 0; j < first->rates.size(); ++j) md += "---|";
      md += "\n";
    }
    for (const auto& c : r.capacity) {
      md += fmt::format("| {}: `{}` | {} |", c.target, c.spec, c.ladders);
      for (std::size_t j = 0; j < c.rates.size(); ++j) {
        md += fmt::format(" {}/{} pass, shed {:.2g} %{} |", c.passed[j], c.ladders, c.shedFraction[j] * 100,
                          c.criteria[j].empty() ? "" : " (" + c.criteria[j] + ")");
      }
      md += "\n";
    }
    md += "\n";
  } else {
    md += "## Concurrency 1\n\n";
    ratioTable(md, r, r.scenarios, "cpu_ms_per_query", "CPU ms per query (lower is better)", aName, bName);
    ratioTable(md, r, r.scenarios, "p50_ms", "p50 latency ms (lower is better)", aName, bName);
  }

  md += "## Result equality (k hits per query, doc ids and f32 score bits)\n\n";
  md += "| Query set | queries | row_set_diff | score_bit_diff | tie-order diff | failed | first diverging rank | "
        "differing queries |\n|---|---:|---:|---:|---:|---:|---:|---|\n";
  std::vector<std::pair<std::string, ResultDiff>> diffs = r.diffs;
  for (const auto& s : r.scenarios) {
    if (s.metric == "cpu_ms_per_query") diffs.emplace_back(s.querySet, s.diff);
  }
  for (const auto& [set, d] : diffs) {
    std::string ids;
    for (std::size_t i = 0; i < d.differingQueries.size() && i < 10; ++i) {
      ids += (i ? ", " : "") + d.differingQueries[i];
    }
    if (d.differingQueries.size() > 10) ids += fmt::format(", … ({} in all)", d.differingQueries.size());
    md += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", set, d.queries, d.rowSetDiff,
                      d.scoreBitDiff, d.orderDiff, d.failed,
                      d.firstDivergingRank ? std::to_string(*d.firstDivergingRank) : "—", ids.empty() ? "—" : ids);
  }
  md += "\n";
  if (!r.aaScenarios.empty()) {
    md += "## A/A calibration (A against a second instance of A: the noise floor)\n\n";
    ratioTable(md, r, r.aaScenarios, "cpu_ms_per_query", "A/A, CPU ms per query", "A", "A again");
    ratioTable(md, r, r.aaScenarios, "p50_ms", "A/A, p50 latency ms", "A", "A again");
  }
  return md;
}

void writeCompareReportFiles(const std::filesystem::path& dir, const CompareReport& report) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throwIo(fmt::format("cannot create {}: {}", dir.string(), ec.message()));
  writeFileAtomically(dir / "report.json", compareReportJson(report));
  writeFileAtomically(dir / "report.md", compareReportMarkdown(report));
}

}  // namespace wandscope::engine
