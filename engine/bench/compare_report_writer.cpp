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

json scenarioJson(const CompareScenario& s) {
  const auto& d = s.diff;
  return json{{"name", s.name},
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
              {"samples_per_query", s.samplesPerQuery},
              {"row_set_diff", d.rowSetDiff},
              {"score_bit_diff", d.scoreBitDiff},
              {"order_diff", d.orderDiff},
              {"failed_queries", d.failed},
              {"first_diverging_rank", d.firstDivergingRank ? json(*d.firstDivergingRank) : json(nullptr)},
              {"differing_queries", d.differingQueries},
              {"results_differ", d.differs()}};
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
  md += "## Concurrency 1\n\n";
  ratioTable(md, r, r.scenarios, "cpu_ms_per_query", "CPU ms per query (lower is better)", aName, bName);
  ratioTable(md, r, r.scenarios, "p50_ms", "p50 latency ms (lower is better)", aName, bName);

  md += "## Result equality (k hits per query, doc ids and f32 score bits)\n\n";
  md += "| Query set | queries | row_set_diff | score_bit_diff | tie-order diff | failed | first diverging rank | "
        "differing queries |\n|---|---:|---:|---:|---:|---:|---:|---|\n";
  for (const auto& s : r.scenarios) {
    if (s.metric != "cpu_ms_per_query") continue;
    const auto& d = s.diff;
    std::string ids;
    for (std::size_t i = 0; i < d.differingQueries.size() && i < 10; ++i) {
      ids += (i ? ", " : "") + d.differingQueries[i];
    }
    if (d.differingQueries.size() > 10) ids += fmt::format(", … ({} in all)", d.differingQueries.size());
    md += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", s.querySet, d.queries, d.rowSetDiff,
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
