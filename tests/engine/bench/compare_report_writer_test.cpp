// SPDX-License-Identifier: GPL-3.0-or-later
// The compare report's four forms: report.csv parsed back (RFC 4180) against report.json's
// scenario fields, report.html's tables and escaping of untrusted text, and the file set.
#include "engine/bench/compare_report_writer.h"

#include "tests/engine/bench/compare_test_data.h"
#include "tests/support/golden.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <vector>

namespace wandscope::test {
namespace {

using Rows = std::vector<std::vector<std::string>>;

// An RFC 4180 reader: quoted fields may hold commas, doubled quotes and line breaks.
Rows parseCsv(const std::string& text) {
  Rows rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      EXPECT_TRUE(field.empty()) << "a quote inside an unquoted field at " << i;
      quoted = true;
    } else if (c == ',') {
      row.push_back(std::move(field));
      field.clear();
    } else if (c == '\n') {
      row.push_back(std::move(field));
      field.clear();
      rows.push_back(std::move(row));
      row.clear();
    } else {
      field += c;
    }
  }
  EXPECT_FALSE(quoted) << "unterminated quoted field";
  EXPECT_TRUE(row.empty() && field.empty()) << "the last line has no line break";
  return rows;
}

std::string cellText(const nlohmann::json& v) {
  if (v.is_null()) return "";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_array()) {
    std::string joined;
    for (const auto& item : v) joined += (joined.empty() ? "" : ";") + item.get<std::string>();
    return joined;
  }
  return v.dump();
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + what.size())) ++n;
  return n;
}

TEST(CompareReportCsv, OneRowPerScenarioWithReportJsonsFieldsAsColumns) {
  const auto report = makeCompareReport("cmp-csv");
  const std::string csv = engine::compareReportCsv(report);
  expectGolden("compare_report.csv", csv);
  const Rows rows = parseCsv(csv);
  ASSERT_EQ(rows.size(), 1 + report.scenarios.size() + report.aaScenarios.size());
  const auto j = nlohmann::json::parse(engine::compareReportJson(report));
  // The columns are exactly the scenario fields of report.json, after `section`.
  ASSERT_EQ(rows[0].front(), "section");
  std::set<std::string> columns(rows[0].begin() + 1, rows[0].end());
  std::set<std::string> fields;
  for (const auto& [key, value] : j["scenarios"][0].items()) fields.insert(key);
  EXPECT_EQ(columns, fields);
  // Every cell holds the JSON value, untrusted text intact after the round trip.
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const bool aa = i > report.scenarios.size();
    const auto& s = aa ? j["aa_scenarios"][i - 1 - report.scenarios.size()] : j["scenarios"][i - 1];
    ASSERT_EQ(rows[i].size(), rows[0].size()) << "row " << i;
    EXPECT_EQ(rows[i][0], aa ? "aa" : "ab");
    for (std::size_t c = 1; c < rows[0].size(); ++c) {
      EXPECT_EQ(rows[i][c], cellText(s[rows[0][c]])) << "row " << i << ", " << rows[0][c];
    }
  }
  EXPECT_EQ(rows[3][2], std::string("set ") + kHostileText);
  EXPECT_EQ(rows[3][21], std::string("q1, with comma;") + kHostileText) << rows[0][21];
}

TEST(CompareReportCsv, OpenModeHasOneRowPerRateAndQuantile) {
  const auto report = makeCompareReport("cmp-open", "open");
  const Rows rows = parseCsv(engine::compareReportCsv(report));
  ASSERT_EQ(rows.size(), 5u);
  std::size_t rateColumn = 0;
  for (std::size_t c = 0; c < rows[0].size(); ++c) {
    if (rows[0][c] == "offered_rate") rateColumn = c;
  }
  ASSERT_NE(rateColumn, 0u);
  EXPECT_EQ(rows[1][rateColumn], "100.0");
  EXPECT_EQ(rows[4][rateColumn], "250.0");
  // Closed-loop rows have no offered rate: an empty cell.
  const Rows closed = parseCsv(engine::compareReportCsv(makeCompareReport("cmp-closed")));
  EXPECT_EQ(closed[1][rateColumn], "");
}

TEST(CompareReportHtml, HasReportMdsTablesAndEscapesUntrustedText) {
  const auto report = makeCompareReport("cmp-html");
  const std::string html = engine::compareReportHtml(report);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("</html>"), std::string::npos);
  // Nothing from the report survives as markup: the only <script is none at all.
  EXPECT_EQ(html.find("<script"), std::string::npos) << html;
  EXPECT_EQ(html.find("alert(\"x\")"), std::string::npos);
  const std::string escaped = "&lt;script&gt;alert(&quot;x&quot;)&amp;&#39;1&#39;&lt;/script&gt;";
  EXPECT_NE(html.find("<td>q1, with comma, " + escaped + "</td>"), std::string::npos) << html;  // query ids
  EXPECT_NE(html.find("set " + escaped), std::string::npos);                                   // query set
  EXPECT_NE(html.find("plugin:/tmp/" + escaped + ".so"), std::string::npos);                   // spec
  EXPECT_NE(html.find("build " + escaped), std::string::npos);                                 // build id
  EXPECT_NE(html.find("host" + escaped), std::string::npos);                                   // environment
  EXPECT_NE(html.find("a warning with " + escaped), std::string::npos);
  EXPECT_NE(html.find("Test CPU &lt;fast&gt;"), std::string::npos);
  // Scripts could not run even if something slipped through.
  EXPECT_NE(html.find("Content-Security-Policy\" content=\"default-src 'none'"), std::string::npos);
  // The tables of report.md: environment and method, ratios per metric, equality, A/A.
  for (const char* heading : {"<h2>Environment and method</h2>", "<h3>CPU ms per query (lower is better)</h3>",
                              "<h3>p50 latency ms (lower is better)</h3>", "<h2>Result equality",
                              "<h2>A/A calibration", "<h3>A/A, CPU ms per query</h3>"}) {
    EXPECT_NE(html.find(heading), std::string::npos) << heading;
  }
  EXPECT_EQ(count(html, "<table>"), 6u);  // environment, 2 ratio, equality, 2 A/A
  EXPECT_NE(html.find("<th>Verdict</th>"), std::string::npos);
  EXPECT_NE(html.find("<tr class=\"faster\"><td>mid-df-2, CPU ms/query</td>"), std::string::npos) << html;
  EXPECT_NE(html.find("⚠ results differ"), std::string::npos);
  EXPECT_NE(html.find("<b>Results differ:</b>"), std::string::npos);
  // The A/A rows say their raised floor, as in report.md.
  EXPECT_NE(html.find("no-difference (floor ±3.1 %)"), std::string::npos);
  // The same cells as report.md.
  const std::string md = engine::compareReportMarkdown(report);
  EXPECT_NE(md.find("| mid-df-2, CPU ms/query | 1.5 ms | 1 ms | 1.500x speedup"), std::string::npos) << md;
  EXPECT_NE(html.find("<td>mid-df-2, CPU ms/query</td><td class=\"n\">1.5 ms</td><td class=\"n\">1 ms</td>"
                      "<td class=\"n\">1.500x speedup"),
            std::string::npos);
}

TEST(CompareReportHtml, OpenModeHasTheCapacityTable) {
  const auto report = makeCompareReport("cmp-open", "open");
  const std::string html = engine::compareReportHtml(report);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_NE(html.find("<h2>Open loop</h2>"), std::string::npos);
  EXPECT_NE(html.find("<h3>Capacity</h3>\n<p><b>B sustains more</b></p>"), std::string::npos) << html;
  EXPECT_NE(html.find("<th>100/s</th><th>250/s</th>"), std::string::npos) << html;
  EXPECT_NE(html.find("<td>0/1 pass, shed 12.5 % (p99)</td>"), std::string::npos) << html;  // 0.125: was "12"
  EXPECT_NE(html.find("<tr class=\"differ\"><td>set &lt;script&gt;"), std::string::npos) << html;
  const std::string md = engine::compareReportMarkdown(report);
  EXPECT_NE(md.find("### Capacity\n\n**B sustains more**\n\n| Target | ladders | 100/s | 250/s |"), std::string::npos)
      << md;
}

// A '|' or a line break in untrusted text (here a query set name) must not split report.md's
// table rows: every table line keeps its header's number of cells.
TEST(CompareReportMarkdown, PipesAndLineBreaksInCellsKeepTheTableShape) {
  auto report = makeCompareReport("cmp-md");
  for (auto& s : report.scenarios) {
    s.querySet = "a|b\nc";
    s.name = s.querySet + ", CPU ms/query";
  }
  const std::string md = engine::compareReportMarkdown(report);
  EXPECT_NE(md.find("a\\|b c, CPU ms/query"), std::string::npos) << md;
  auto cells = [](const std::string& line) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < line.size(); ++i) n += line[i] == '|' && (i == 0 || line[i - 1] != '\\') ? 1 : 0;
    return n;
  };
  std::size_t expected = 0;
  std::size_t rows = 0;
  std::size_t start = 0;
  while (start < md.size()) {
    const std::size_t end = md.find('\n', start);
    const std::string line = md.substr(start, end - start);
    start = end == std::string::npos ? md.size() : end + 1;
    if (line.empty() || line[0] != '|') {
      expected = 0;
      continue;
    }
    if (expected == 0) expected = cells(line);  // a table's header line
    EXPECT_EQ(cells(line), expected) << line;
    ++rows;
  }
  EXPECT_GT(rows, 3u);
}

TEST(CompareReportFiles, WritesAllFourFormats) {
  TempDir dir;
  const auto report = makeCompareReport("cmp-files");
  engine::writeCompareReportFiles(dir / "out", report);
  EXPECT_EQ(readFile(dir / "out" / "report.json"), engine::compareReportJson(report));
  EXPECT_EQ(readFile(dir / "out" / "report.md"), engine::compareReportMarkdown(report));
  EXPECT_EQ(readFile(dir / "out" / "report.csv"), engine::compareReportCsv(report));
  EXPECT_EQ(readFile(dir / "out" / "report.html"), engine::compareReportHtml(report));
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir / "out")) ++files;
  EXPECT_EQ(files, 4u) << "no temporary files left behind";
}

// Three targets: the first seed's layout, a column per target and a benefit, interval and verdict
// per B against A; report.json lists the targets and names each scenario's B.
TEST(CompareReportMarkdown, ThreeTargetsHaveAColumnPerTargetAndABenefitPerB) {
  const auto report = makeCompareReport3("cmp-three");
  const std::string md = engine::compareReportMarkdown(report);
  expectGolden("compare_report_3.md", md);
  EXPECT_NE(md.find("| Scenario / metric | A: builtin | B: plugin:/tmp/"), std::string::npos) << md;
  EXPECT_NE(md.find("| B2: builtin:bulk_and=off | Benefit B vs A | B 95 % CI | B verdict | Benefit B2 vs A | "
                    "B2 95 % CI | B2 verdict |"),
            std::string::npos)
      << md;
  // One row per set and metric (not per B), the set whose B results differ flagged with its B.
  const std::string ratios = md.substr(0, md.find("## Result equality"));
  EXPECT_EQ(count(ratios, "| mid-df-2, CPU ms/query |"), 1u) << md;
  EXPECT_NE(md.find("CPU ms/query ⚠ results differ (B) |"), std::string::npos) << md;
  // Result equality per set and B.
  EXPECT_NE(md.find("| mid-df-2 | B2: builtin:bulk_and=off | 30 | 0 |"), std::string::npos) << md;
  EXPECT_NE(md.find("- **B2:** builtin:bulk_and=off"), std::string::npos) << md;
  EXPECT_NE(md.find("# Comparison: builtin vs plugin:/tmp/"), std::string::npos);
  EXPECT_NE(md.find(" vs builtin:bulk_and=off\n"), std::string::npos);

  const auto j = nlohmann::json::parse(engine::compareReportJson(report));
  EXPECT_EQ(j["schema_version"], engine::CompareReport::kSchemaVersion);
  ASSERT_EQ(j["targets"].size(), 3u);
  EXPECT_EQ(j["targets"][2]["label"], "B2");
  EXPECT_EQ(j["targets"][2]["spec"], "builtin:bulk_and=off");
  EXPECT_EQ(j["a"]["spec"], "builtin");  // a and b as in a two-target report
  ASSERT_EQ(j["scenarios"].size(), 8u);
  std::size_t b2 = 0;
  for (const auto& sc : j["scenarios"]) b2 += sc["target"] == 2 ? 1 : 0;
  EXPECT_EQ(b2, 4u);

  const Rows rows = parseCsv(engine::compareReportCsv(report));
  ASSERT_EQ(rows.size(), 1 + report.scenarios.size() + report.aaScenarios.size());
  EXPECT_EQ(rows[0].back(), "target");
  EXPECT_EQ(rows[2].back(), "1");
  EXPECT_EQ(rows[3].back(), "2");

  const std::string html = engine::compareReportHtml(report);
  EXPECT_NE(html.find("<th class=\"n\">Benefit B2 vs A</th>"), std::string::npos);
}

TEST(CompareReportMarkdown, ThreeTargetsOpenModeHaveCapacityPerTarget) {
  const auto report = makeCompareReport3("cmp-three-open", "open");
  const std::string md = engine::compareReportMarkdown(report);
  EXPECT_NE(md.find("| B2: builtin:bulk_and=off | 1 | 1/1 pass"), std::string::npos) << md;
  EXPECT_EQ(count(md, "| 100/s offered, p50 latency"), 1u) << md;
  EXPECT_NE(md.find("Benefit B2 vs A"), std::string::npos);
  const auto j = nlohmann::json::parse(engine::compareReportJson(report));
  ASSERT_EQ(j["result_equality"].size(), 4u);
  EXPECT_EQ(j["result_equality"][1]["target"], 2);
  ASSERT_EQ(j["capacity"].size(), 3u);
  EXPECT_EQ(j["capacity"][2]["target"], "B2");
}

}  // namespace
}  // namespace wandscope::test
