// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/bench/compare_types.h"

#include <filesystem>
#include <string>

namespace wandscope::engine {

// report.json of a comparison (CompareReport::kSchemaVersion): a, b, targets[] (every target, A
// first, with its label "A", "B", "B2", ...), environment, method, and scenarios[] {name,
// query_set, metric, offered_rate (open mode; else null), a, b, a_geomean, b_geomean, ratio,
// ci_low, ci_high, noise_floor, verdict, row_set_diff, score_bit_diff, first_diverging_rank (null
// when identical), differing_queries, results_differ, target (the B side: index into targets[])},
// plus aa_scenarios[] with the same fields. With n targets each query set (or rate) has a
// scenario per B; `b` and the figures are that B's.
std::string compareReportJson(const CompareReport& report);

// report.md in the first seed's format: environment and method, then per metric a table
// "Scenario / metric | A | B | Benefit vs A | 95 % CI | Verdict" (n targets: a column per target,
// then benefit, interval and verdict per B), a result-equality table and, with
// --aa, the A/A table. A scenario whose results differ is flagged in its row and above the table.
std::string compareReportMarkdown(const CompareReport& report);

// report.html: a self-contained page (no scripts, nothing loaded from elsewhere) with the same
// tables as report.md - environment and method, the ratio tables with verdicts, result equality,
// the A/A tables and, in open mode, capacity. Every text from the report is HTML-escaped.
std::string compareReportHtml(const CompareReport& report);

// report.csv: one row per scenario, A vs each B (section "ab") then A/A (section "aa"); in open mode
// one per offered rate and quantile. The columns after `section` are the scenario fields of
// report.json in its order; null is an empty cell, differing_queries are joined with ';', text is
// quoted as RFC 4180 requires.
std::string compareReportCsv(const CompareReport& report);

// Whether the A/A calibration raised a row's noise floor above the one the comparison asked for
// (`askedFloor`, fractional; NaN: none asked, never raised).
bool noiseFloorRaised(const RatioEstimate& estimate, double askedFloor);
// A row's verdict as report.md's verdict cell writes it: "faster", or "no-difference (floor
// ±3.5 %)" when the calibration raised the floor it was judged against.
std::string verdictText(const RatioEstimate& estimate, double askedFloor);

// Writes report.json, report.md, report.csv and report.html into `dir` (created), each atomically.
void writeCompareReportFiles(const std::filesystem::path& dir, const CompareReport& report);
// Checks, before a comparison, that writeCompareReportFiles can write each of its files into
// `dir` (which exists). Throws Error(Io) naming the file.
void checkCompareReportFilesWritable(const std::filesystem::path& dir);

}  // namespace wandscope::engine
