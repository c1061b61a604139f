// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/bench/run_types.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>

namespace wandscope::engine {

// report.json: the whole run, versioned (RunReport::kSchemaVersion; benchprofiles/README.md
// documents every field). Absent quantiles are null.
std::string reportJson(const RunReport& report);

// The "environment" object of every report (run reports, compare reports), one definition.
nlohmann::json environmentJson(const Environment& environment);

// report.md: the environment, the warnings, the saturation rule and the quantile definition, then
// tables in the seeds' style ("Scenario / metric | target... "): closed-loop CPU ms/query and p50
// per concurrency, and per target an open-loop ladder table with its maximum sustainable rate.
std::string reportMarkdown(const RunReport& report);

// rungs.csv: one row per rung, every scalar of RungResult plus counters.<name> (means) and
// counters_p99.<name> columns (benchprofiles/README.md lists them).
std::string rungsCsv(const RunReport& report);

// A time in milliseconds as report.md writes it: "0.004468 ms", "12.35 ms", "1.5 s" from 1,000 ms
// up, an em dash when absent.
std::string msOrDash(const std::optional<double>& ms);

// Writes report.json, report.md and rungs.csv into `dir` (created), each atomically.
void writeReportFiles(const std::filesystem::path& dir, const RunReport& report);
// Checks, before a run, that writeReportFiles can write each of its files into `dir` (which
// exists): a report.json that was a directory failed the command after the whole run (review,
// stop 32). Throws Error(Io) naming the file.
void checkReportFilesWritable(const std::filesystem::path& dir);

}  // namespace wandscope::engine
