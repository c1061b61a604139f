// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// JSON (report.json's shape) and CSV forms of the run types, for the run store. Field names are
// those of the runner's report.json (benchprofiles/README.md, "Outputs"): schema_version, run_id,
// profile, profile_json, targets, environment{cpu_model, cores, ...}, partial, capacity{target:
// {last_pass, first_fail, criterion}}, calibration, quantile_definition, saturation_rule,
// warnings, rungs[]{index, target, mode, ..., p50_ci_ms: [low, high], ..., counters{},
// counters_p99{}, passes[], events[]}. Absent values (nullopt) are JSON null. Every field name
// lives in one table per type in run_codec.cpp, so writing, reading and the CSV columns cannot
// drift apart.
//
// Reading is lenient where it can be exact: a missing field keeps its default (documents written
// before a field existed still load), an unknown field is ignored (and survives an export from the
// store, which returns the stored documents). A field of the wrong type throws
// ErrorKind::BadInput naming `source` and the field: "report.json: rungs[3].p99_ms must be a
// number or null".

#include "engine/bench/compare_types.h"
#include "engine/bench/run_types.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace wandscope::engine {

class RunCodec {
 public:
  static nlohmann::json toJson(const Environment& environment);
  static nlohmann::json toJson(const RungResult& rung);
  // The run-level fields known before the first rung: schema_version, run_id, profile (the name),
  // profile_json (the profile as a JSON value when it is a JSON object or array, else its text),
  // targets and environment.
  static nlohmann::json toJson(const RunHeader& header);
  // The run-level fields known at its end: partial, capacity, calibration, quantile_definition,
  // saturation_rule, warnings.
  static nlohmann::json runEndToJson(const RunReport& report);
  // report.json: the header's fields, the end's fields and rungs[] in one object.
  static nlohmann::json toJson(const RunReport& report);

  static Environment environmentFromJson(const nlohmann::json& j, const std::string& source);
  static RungResult rungFromJson(const nlohmann::json& j, const std::string& source);
  static RunHeader headerFromJson(const nlohmann::json& j, const std::string& source);
  // Sets partial, capacity and quantileDefinition of `report` from a runEndToJson document.
  static void runEndFromJson(const nlohmann::json& j, const std::string& source, RunReport& report);
  // A whole report.json. A schema_version newer than RunReport::kSchemaVersion is refused.
  static RunReport reportFromJson(const nlohmann::json& j, const std::string& source);

  // A compare report.json (engine/bench/compare_report_writer.h), e.g. as the run store keeps it,
  // so it can be rendered again in every format. Lenient like the other readers; kind other than
  // "compare" or a schema_version newer than CompareReport::kSchemaVersion is refused.
  static CompareReport compareReportFromJson(const nlohmann::json& j, const std::string& source);

  // One line per rung with a header line: the scalar fields in table order (a confidence interval
  // as two columns, p50_ci_low_ms and p50_ci_high_ms), then one column per counter name seen in any
  // rung ("counters.<name>", "counters_p99.<name>"). Absent values are empty cells; text is quoted
  // when it needs to be (RFC 4180). Passes and events are not in the CSV.
  static std::string rungsToCsv(const std::vector<RungResult>& rungs);
};

}  // namespace wandscope::engine
