// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bench/compare_report_writer.h"

#include "engine/bench/report_writer.h"

#include "engine/bench/compare_stats.h"
#include "engine/core/error.h"
#include "engine/core/fs_util.h"
#include "engine/core/text_escape.h"
#include "engine/core/wording.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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

// The fields of a scenario object, in report.json's and report.csv's column order: report.csv's
// columns are these names, read from scenarioJson(), so the two cannot drift apart.
constexpr const char* kScenarioFields[] = {
    "name",       "query_set",      "metric",         "offered_rate", "a",
    "b",          "a_geomean",      "b_geomean",      "ratio",        "ci_low",
    "ci_high",    "noise_floor",    "verdict",        "queries",      "samples_per_query",
    "row_set_diff", "score_bit_diff", "order_diff",   "failed_queries", "first_diverging_rank",
    "differing_queries", "results_differ", "target"};

json scenarioJson(const CompareScenario& s) {
  json j{{"name", s.name},
         {"query_set", s.querySet},
         {"metric", s.metric},
         {"offered_rate", s.offeredRate ? json(*s.offeredRate) : json(nullptr)},
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
  j["target"] = s.target;
  return j;
}

json sideJson(const CompareSide& s) { return json{{"spec", s.spec}, {"build_id", s.buildId}, {"detail", s.detail}}; }

// A B target's column name: "B: builtin:bulk_and=off".
std::string targetName(const CompareReport& r, std::size_t i) {
  return CompareReport::targetLabel(i) + ": " + r.side(i).spec;
}

std::string ms(double v) { return significant(v) + " ms"; }

// One table of the report, rendered as Markdown (report.md) or HTML (report.html) from the same
// cells, so the two show the same figures. Cells are plain text; the renderers escape.
struct Table {
  int level = 3;                  // heading level of the title
  std::string title;
  std::string intro;              // a bold line between title and table ("" for none)
  std::vector<std::string> header;
  std::vector<bool> right;        // [column] numbers, right-aligned
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> rowClass;  // [row] HTML class ("" for none)
};

std::string verdictCell(const CompareReport& r, const RatioEstimate& e) { return verdictText(e, r.noiseFloor); }

// Two targets: "Scenario / metric | A | B | Benefit vs A | 95 % CI | Verdict", a row per scenario.
std::optional<Table> ratioTable(const CompareReport& r, const std::vector<CompareScenario>& rows,
                                const std::string& metric, const std::string& title, const std::string& aName,
                                const std::string& bName) {
  Table t;
  t.title = title;
  t.header = {"Scenario / metric", aName, bName, "Benefit vs A", "95 % CI", "Verdict"};
  t.right = {false, true, true, true, false, false};
  for (const auto& s : rows) {
    if (s.metric != metric) continue;
    const auto& e = s.estimate;
    t.rows.push_back({s.name + (s.diff.differs() ? " ⚠ results differ" : ""), ms(s.a), ms(s.b),
                      fmt::format("{} ({})", speedupText(e.ratio), percentText(e.ratio)),
                      intervalText(e.ciLow, e.ciHigh), verdictCell(r, e)});
    t.rowClass.push_back(s.diff.differs() ? "differ " + e.verdict : e.verdict);
  }
  if (t.rows.empty()) return std::nullopt;
  return t;
}

// n targets, the first seed's layout: "Scenario / metric | A | B | B2 | ... | Benefit B vs A |
// 95 % CI | Verdict | Benefit B2 vs A | ...": a row per scenario (query set or rate), a figure
// column per target and the benefit, interval and verdict of each B against A.
std::optional<Table> ratioTableN(const CompareReport& r, const std::vector<CompareScenario>& rows,
                                 const std::string& metric, const std::string& title) {
  const std::size_t n = r.targetCount();
  Table t;
  t.title = title;
  t.header = {"Scenario / metric"};
  t.right = {false};
  for (std::size_t i = 0; i < n; ++i) {
    t.header.push_back(targetName(r, i));
    t.right.push_back(true);
  }
  for (std::size_t i = 1; i < n; ++i) {
    const std::string label = CompareReport::targetLabel(i);
    t.header.insert(t.header.end(), {"Benefit " + label + " vs A", label + " 95 % CI", label + " verdict"});
    t.right.insert(t.right.end(), {true, false, false});
  }
  // Rows in the order their query set (or offered rate) first appears; one scenario per B in each.
  std::vector<std::vector<const CompareScenario*>> groups;
  std::vector<std::string> keys;
  for (const auto& s : rows) {
    if (s.metric != metric || s.target == 0 || s.target >= n) continue;
    const std::string key = s.querySet + (s.offeredRate ? fmt::format("@{}", *s.offeredRate) : std::string());
    auto it = std::find(keys.begin(), keys.end(), key);
    if (it == keys.end()) {
      keys.push_back(key);
      groups.emplace_back(n, nullptr);
      it = keys.end() - 1;
    }
    groups[static_cast<std::size_t>(it - keys.begin())][s.target] = &s;
  }
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto& row = groups[g];
    const CompareScenario* first = nullptr;
    std::string name, differing;
    for (std::size_t i = 1; i < n; ++i) {
      if (!row[i]) continue;
      if (!first) {
        first = row[i];
        name = first->name;
      } else if (row[i]->name != first->name) {
        // One B's row says more (an open rate's "(invalid rung)"): keep it, naming the B.
        name += " / " + CompareReport::targetLabel(i) + ": " + row[i]->name;
      }
      if (row[i]->diff.differs()) differing += (differing.empty() ? "" : ", ") + CompareReport::targetLabel(i);
    }
    std::vector<std::string> cells{name + (differing.empty() ? "" : " ⚠ results differ (" + differing + ")")};
    cells.push_back(first ? ms(first->a) : "—");
    for (std::size_t i = 1; i < n; ++i) cells.push_back(row[i] ? ms(row[i]->b) : "—");
    for (std::size_t i = 1; i < n; ++i) {
      if (!row[i]) {
        cells.insert(cells.end(), {"—", "—", "—"});
        continue;
      }
      const auto& e = row[i]->estimate;
      cells.insert(cells.end(), {fmt::format("{} ({})", speedupText(e.ratio), percentText(e.ratio)),
                                 intervalText(e.ciLow, e.ciHigh), verdictCell(r, e)});
    }
    t.rows.push_back(std::move(cells));
    t.rowClass.push_back(differing.empty() ? "" : "differ");
  }
  if (t.rows.empty()) return std::nullopt;
  return t;
}

// The ratio tables of one mode, in report order (report.md's sections).
std::vector<Table> ratioTables(const CompareReport& r) {
  const std::string aName = "A: " + r.a.spec;
  const std::string bName = "B: " + r.b.spec;
  const bool many = r.targetCount() > 2;
  auto table = [&](const std::string& metric, const std::string& title) {
    return many ? ratioTableN(r, r.scenarios, metric, title) : ratioTable(r, r.scenarios, metric, title, aName, bName);
  };
  std::vector<std::optional<Table>> tables;
  if (r.mode == "open") {
    tables.push_back(table("open_p50_ms", "p50 latency from the due time, ms (lower is better)"));
    tables.push_back(table("open_p99_ms", "p99 latency from the due time, ms (lower is better)"));
  } else {
    tables.push_back(table("cpu_ms_per_query", "CPU ms per query (lower is better)"));
    tables.push_back(table("p50_ms", "p50 latency ms (lower is better)"));
  }
  std::vector<Table> out;
  for (auto& t : tables) {
    if (t) out.push_back(std::move(*t));
  }
  return out;
}

std::vector<Table> aaTables(const CompareReport& r) {
  std::vector<Table> out;
  if (auto t = ratioTable(r, r.aaScenarios, "cpu_ms_per_query", "A/A, CPU ms per query", "A", "A again")) {
    out.push_back(std::move(*t));
  }
  if (auto t = ratioTable(r, r.aaScenarios, "p50_ms", "A/A, p50 latency ms", "A", "A again")) {
    out.push_back(std::move(*t));
  }
  return out;
}

Table capacityTable(const CompareReport& r) {
  Table t;
  t.title = "Capacity";
  t.intro = r.capacityVerdict;
  t.header = {"Target", "ladders"};
  t.right = {false, true};
  if (!r.capacity.empty()) {
    for (double rate : r.capacity.front().rates) {
      t.header.push_back(formatRate(rate));
      t.right.push_back(false);
    }
  }
  for (const auto& c : r.capacity) {
    std::vector<std::string> row{fmt::format("{}: {}", c.target, c.spec), std::to_string(c.ladders)};
    for (std::size_t j = 0; j < c.rates.size(); ++j) {
      row.push_back(fmt::format("{}/{} pass, shed {} %{}", c.passed[j], c.ladders, significant(c.shedFraction[j] * 100),
                                c.criteria[j].empty() ? "" : " (" + c.criteria[j] + ")"));
    }
    t.rows.push_back(std::move(row));
    t.rowClass.emplace_back();
  }
  return t;
}

// Every (query set, B) result comparison of the report: open mode keeps them apart, closed mode
// in each set's CPU row.
std::vector<SetResultDiff> resultDiffs(const CompareReport& r) {
  std::vector<SetResultDiff> diffs = r.diffs;
  for (const auto& s : r.scenarios) {
    if (s.metric == "cpu_ms_per_query") diffs.push_back(SetResultDiff{s.querySet, s.target, s.diff});
  }
  return diffs;
}

Table equalityTable(const CompareReport& r) {
  const bool many = r.targetCount() > 2;
  Table t;
  t.level = 2;
  t.title = "Result equality (k hits per query, doc ids and f32 score bits)";
  t.header = {"Query set", "queries", "row_set_diff", "score_bit_diff", "tie-order diff", "failed",
              "first diverging rank", "differing queries"};
  t.right = {false, true, true, true, true, true, true, false};
  if (many) {
    t.header.insert(t.header.begin() + 1, "A vs");
    t.right.insert(t.right.begin() + 1, false);
  }
  for (const auto& [set, target, d] : resultDiffs(r)) {
    std::string ids;
    for (std::size_t i = 0; i < d.differingQueries.size() && i < 10; ++i) {
      ids += (i ? ", " : "") + d.differingQueries[i];
    }
    if (d.differingQueries.size() > 10) ids += fmt::format(", … ({} in all)", d.differingQueries.size());
    std::vector<std::string> row{set, std::to_string(d.queries), std::to_string(d.rowSetDiff),
                                 std::to_string(d.scoreBitDiff), std::to_string(d.orderDiff), std::to_string(d.failed),
                                 d.firstDivergingRank ? std::to_string(*d.firstDivergingRank) : "—",
                                 ids.empty() ? "—" : ids};
    if (many) row.insert(row.begin() + 1, target < r.targetCount() ? targetName(r, target) : std::to_string(target));
    t.rows.push_back(std::move(row));
    t.rowClass.push_back(d.differs() ? "differ" : "");
  }
  return t;
}

// The header lines: environment and method, as label and plain text.
std::vector<std::pair<std::string, std::string>> summaryItems(const CompareReport& r) {
  const auto& e = r.environment;
  std::vector<std::pair<std::string, std::string>> items;
  for (std::size_t i = 0; i < r.targetCount(); ++i) {
    const auto& side = r.side(i);
    items.emplace_back(CompareReport::targetLabel(i),
                       fmt::format("{} — build {} ({})", side.spec, side.buildId, side.detail));
  }
  items.emplace_back("Run", fmt::format("{} started {}, profile {} (compare report schema {})", r.runId, e.startedUtc,
                                        r.profileName, CompareReport::kSchemaVersion));
  items.emplace_back("Environment", fmt::format("{}, {} cores, {:.1f} GiB, {}, host {}, load average {:.2f} at start{}",
                                                e.cpuModel, e.cores, e.memTotalMib / 1024.0, e.kernel, e.hostname,
                                                e.loadAverage1m,
                                                e.governor.empty() ? "" : fmt::format(", governor {}", e.governor)));
  items.emplace_back("Workbench build", fmt::format("{} {}, flags {}, git {}{}, SIMD target {}", e.compiler, e.buildType,
                                                    e.compilerFlags, e.gitCommit, e.gitDirty ? " (dirty)" : "",
                                                    e.simdTarget));
  if (!e.fingerprints.empty()) {
    std::string data;
    for (const auto& [k, v] : e.fingerprints) data += fmt::format("{}{} {}", data.empty() ? "" : "; ", k, v);
    items.emplace_back("Data", data);
  }
  items.emplace_back("Method", r.method);
  return items;
}

// The notices above the tables: warnings, the partial flag, differing results.
std::vector<std::pair<std::string, std::string>> notices(const CompareReport& r) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& w : r.warnings) out.emplace_back("Warning", w);
  if (r.partial) out.emplace_back("Partial run", "it was interrupted; the query sets below are the ones that finished.");
  std::size_t differing = 0;
  std::string labels;  // the Bs that differ from A, first seen first: "B, B2"
  std::vector<std::size_t> seen;
  for (const auto& d : resultDiffs(r)) {
    if (!d.diff.differs()) continue;
    ++differing;
    if (std::find(seen.begin(), seen.end(), d.target) != seen.end()) continue;
    labels += (seen.empty() ? "" : ", ") + CompareReport::targetLabel(d.target);
    seen.push_back(d.target);
  }
  if (differing > 0 && r.targetCount() == 2) {
    out.emplace_back("Results differ",
                     fmt::format("on {} query set(s): A and B do not return the same documents and scores, so the "
                                 "speed figures compare different work (rows marked ⚠).",
                                 differing));
  } else if (differing > 0) {
    out.emplace_back("Results differ",
                     fmt::format("on {} comparison(s) of a query set: A and {} do not return the same documents and "
                                 "scores, so those speed figures compare different work (rows marked ⚠).",
                                 differing, labels));
  }
  return out;
}

void markdownTable(std::string& md, const Table& t) {
  md += fmt::format("{} {}\n\n", std::string(static_cast<std::size_t>(t.level), '#'), t.title);
  if (!t.intro.empty()) md += fmt::format("**{}**\n\n", t.intro);
  md += "|";
  for (const auto& h : t.header) md += " " + markdownCell(h) + " |";
  md += "\n|";
  for (std::size_t c = 0; c < t.header.size(); ++c) md += c < t.right.size() && t.right[c] ? "---:|" : "---|";
  md += "\n";
  for (const auto& row : t.rows) {
    md += "|";
    for (const auto& cell : row) md += " " + markdownCell(cell) + " |";
    md += "\n";
  }
  md += "\n";
}

void htmlTable(std::string& html, const Table& t) {
  html += fmt::format("<h{0}>{1}</h{0}>\n", t.level, htmlEscape(t.title));
  if (!t.intro.empty()) html += fmt::format("<p><b>{}</b></p>\n", htmlEscape(t.intro));
  html += "<table>\n<tr>";
  for (std::size_t c = 0; c < t.header.size(); ++c) {
    html += fmt::format("<th{}>{}</th>", c < t.right.size() && t.right[c] ? " class=\"n\"" : "", htmlEscape(t.header[c]));
  }
  html += "</tr>\n";
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const std::string& cls = i < t.rowClass.size() ? t.rowClass[i] : std::string();
    html += cls.empty() ? "<tr>" : fmt::format("<tr class=\"{}\">", htmlEscape(cls));
    for (std::size_t c = 0; c < t.rows[i].size(); ++c) {
      html += fmt::format("<td{}>{}</td>", c < t.right.size() && t.right[c] ? " class=\"n\"" : "",
                          htmlEscape(t.rows[i][c]));
    }
    html += "</tr>\n";
  }
  html += "</table>\n";
}

// report.csv renders a scenario's JSON value: numbers as JSON writes them, text quoted as needed,
// null as an empty cell, a list of query ids joined with ';'.
std::string csvValue(const json& v) {
  if (v.is_null()) return {};
  if (v.is_string()) return csvField(v.get<std::string>());
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_array()) {
    std::string joined;
    for (const auto& item : v) joined += (joined.empty() ? "" : ";") + (item.is_string() ? item.get<std::string>() : item.dump());
    return csvField(joined);
  }
  return v.dump();
}

// "builtin vs builtin:bulk_and=off" (and " vs " each further target).
std::string titleOf(const CompareReport& r) {
  std::string t = r.a.spec;
  for (std::size_t i = 1; i < r.targetCount(); ++i) t += " vs " + r.side(i).spec;
  return t;
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
  json targets = json::array();
  for (std::size_t i = 0; i < r.targetCount(); ++i) {
    json t = sideJson(r.side(i));
    t["label"] = CompareReport::targetLabel(i);
    targets.push_back(std::move(t));
  }
  j["targets"] = targets;
  j["environment"] = environmentJson(r.environment);
  j["method"] = json{{"text", r.method},
                     {"repetitions", r.repetitions},
                     {"block_order", r.targetCount() > 2
                                         ? "every target in rotated order, then in reverse, the lead rotating per round"
                                         : "ABBA with the lead rotating per repetition"},
                     {"warmup_s", r.warmupSeconds},
                     {"warm_passes", r.warmPasses},
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
    for (const auto& [set, target, d] : r.diffs) {
      json row = diffJson(d);
      row["query_set"] = set;
      row["queries"] = d.queries;
      row["target"] = target;
      diffs.push_back(row);
    }
    j["result_equality"] = diffs;
  }
  return j.dump(2) + "\n";
}

std::string compareReportMarkdown(const CompareReport& r) {
  std::string md = fmt::format("# Comparison: {}\n\n", titleOf(r));
  for (const auto& [label, text] : notices(r)) md += fmt::format("> **{}:** {}\n\n", label, text);
  for (const auto& [label, text] : summaryItems(r)) md += fmt::format("- **{}:** {}\n", label, text);
  md += "\n";
  md += r.mode == "open" ? "## Open loop\n\n" : "## Concurrency 1\n\n";
  for (const auto& t : ratioTables(r)) markdownTable(md, t);
  if (r.mode == "open") markdownTable(md, capacityTable(r));
  markdownTable(md, equalityTable(r));
  if (!r.aaScenarios.empty()) {
    md += "## A/A calibration (A against a second instance of A: the noise floor)\n\n";
    for (const auto& t : aaTables(r)) markdownTable(md, t);
  }
  return md;
}

std::string compareReportHtml(const CompareReport& r) {
  const std::string title = htmlEscape(fmt::format("Comparison: {}", titleOf(r)));
  // No scripts, no external loads: a Content-Security-Policy that forbids both makes a string
  // that escaped escaping inert as well.
  std::string html = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
      "<title>{}</title>\n<style>\n"
      "body {{ font-family: sans-serif; margin: 2em; max-width: 80em; }}\n"
      "table {{ border-collapse: collapse; margin-bottom: 1.5em; }}\n"
      "th, td {{ border: 1px solid #bbb; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }}\n"
      "th {{ background: #eee; }}\n"
      ".n {{ text-align: right; font-variant-numeric: tabular-nums; }}\n"
      "tr.faster td:last-child {{ color: #1a7f37; }}\n"
      "tr.slower td:last-child {{ color: #c62828; }}\n"
      "tr.differ {{ background: #fff3cd; }}\n"
      ".notice {{ border-left: 4px solid #e0a800; padding: 0.3em 0.8em; background: #fffbea; }}\n"
      "</style></head><body>\n<h1>{}</h1>\n",
      title, title);
  for (const auto& [label, text] : notices(r)) {
    html += fmt::format("<p class=\"notice\"><b>{}:</b> {}</p>\n", htmlEscape(label), htmlEscape(text));
  }
  html += "<h2>Environment and method</h2>\n<table>\n";
  for (const auto& [label, text] : summaryItems(r)) {
    html += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", htmlEscape(label), htmlEscape(text));
  }
  html += "</table>\n";
  html += r.mode == "open" ? "<h2>Open loop</h2>\n" : "<h2>Concurrency 1</h2>\n";
  for (const auto& t : ratioTables(r)) htmlTable(html, t);
  if (r.mode == "open") htmlTable(html, capacityTable(r));
  htmlTable(html, equalityTable(r));
  if (!r.aaScenarios.empty()) {
    html += "<h2>A/A calibration (A against a second instance of A: the noise floor)</h2>\n";
    for (const auto& t : aaTables(r)) htmlTable(html, t);
  }
  html += "</body></html>\n";
  return html;
}

std::string compareReportCsv(const CompareReport& r) {
  std::string out = "section";
  for (const char* field : kScenarioFields) out.append(",").append(field);
  out += '\n';
  auto addRows = [&out](const char* section, const std::vector<CompareScenario>& rows) {
    for (const auto& s : rows) {
      const json j = scenarioJson(s);
      out += section;
      for (const char* field : kScenarioFields) out += "," + csvValue(j.at(field));
      out += '\n';
    }
  };
  addRows("ab", r.scenarios);
  addRows("aa", r.aaScenarios);
  return out;
}

namespace {
constexpr const char* kCompareReportFiles[] = {"report.json", "report.md", "report.csv", "report.html"};
}  // namespace

bool noiseFloorRaised(const RatioEstimate& e, double askedFloor) {
  return std::abs(e.noiseFloor - askedFloor) > 1e-12;  // false for a NaN floor: none asked for
}

std::string verdictText(const RatioEstimate& e, double askedFloor) {
  return e.verdict + (noiseFloorRaised(e, askedFloor) ? fmt::format(" (floor ±{:.1f} %)", e.noiseFloor * 100) : "");
}

void checkCompareReportFilesWritable(const std::filesystem::path& dir) {
  for (const char* name : kCompareReportFiles) checkOutputWritable(dir / name);
}

void writeCompareReportFiles(const std::filesystem::path& dir, const CompareReport& report) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throwIo(fmt::format("cannot create {}: {}", dir.string(), ec.message()));
  writeFileAtomically(dir / kCompareReportFiles[0], compareReportJson(report));
  writeFileAtomically(dir / kCompareReportFiles[1], compareReportMarkdown(report));
  writeFileAtomically(dir / kCompareReportFiles[2], compareReportCsv(report));
  writeFileAtomically(dir / kCompareReportFiles[3], compareReportHtml(report));
}

}  // namespace wandscope::engine
