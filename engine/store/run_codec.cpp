// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/store/run_codec.h"

#include "engine/bench/environment.h"
#include "engine/core/error.h"
#include "engine/core/json_number.h"
#include "engine/core/text_escape.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <type_traits>
#include <variant>

namespace wandscope::engine {
namespace {

using nlohmann::json;

static_assert(std::is_same_v<std::uint32_t, unsigned>, "RungResult::index is handled as unsigned");

// ---- the field tables: one line per field, in report.json's order ----------------------------
// The names are those of the runner's report.json (benchprofiles/README.md, "Outputs").

// The Environment's fields: environmentFields() (engine/bench/environment.h), which the report
// writer uses too; Environment::fingerprints is written as "fingerprints": {name: hash}.

// A 95 % confidence interval, written as "<name>": [low, high] (null when both are absent); the
// CSV has one column per bound.
struct OptionalPair {
  std::optional<double> RungResult::*low;
  std::optional<double> RungResult::*high;
  const char* csvLow;
  const char* csvHigh;
};

using RungMember =
    std::variant<unsigned RungResult::*, std::uint64_t RungResult::*, double RungResult::*,
                 std::optional<double> RungResult::*, std::string RungResult::*, bool RungResult::*,
                 OptionalPair>;
struct RungField {
  const char* name;
  RungMember member;
};
const RungField kRungFields[] = {
    {"index", &RungResult::index},
    {"target", &RungResult::target},
    {"mode", &RungResult::mode},
    {"query_set", &RungResult::querySet},
    {"target_rate", &RungResult::targetRate},
    {"scheduled_rate", &RungResult::scheduledRate},
    {"offered_rate", &RungResult::offeredRate},
    {"arrivals", &RungResult::arrivals},
    {"concurrency", &RungResult::concurrency},
    {"achieved_rate", &RungResult::achievedRate},
    {"completed", &RungResult::completed},
    {"shed", &RungResult::shed},
    {"errors", &RungResult::errors},
    {"not_run", &RungResult::notRun},
    {"duration_s", &RungResult::durationSeconds},
    {"settle_s", &RungResult::settleSeconds},
    {"p50_ms", &RungResult::p50Ms},
    {"p90_ms", &RungResult::p90Ms},
    {"p99_ms", &RungResult::p99Ms},
    {"p999_ms", &RungResult::p999Ms},
    {"p50_ci_ms", OptionalPair{&RungResult::p50CiLowMs, &RungResult::p50CiHighMs, "p50_ci_low_ms", "p50_ci_high_ms"}},
    {"p99_ci_ms", OptionalPair{&RungResult::p99CiLowMs, &RungResult::p99CiHighMs, "p99_ci_low_ms", "p99_ci_high_ms"}},
    {"service_p50_ms", &RungResult::serviceP50Ms},
    {"service_p99_ms", &RungResult::serviceP99Ms},
    {"queue_wait_p50_ms", &RungResult::queueWaitP50Ms},
    {"queue_wait_p99_ms", &RungResult::queueWaitP99Ms},
    {"cpu_ms_per_query", &RungResult::cpuMsPerQuery},
    {"process_cpu_ms", &RungResult::processCpuMs},
    {"instrument_cpu_ms", &RungResult::instrumentCpuMs},
    {"thread_cpu_p50_ms", &RungResult::threadCpuP50Ms},
    {"thread_cpu_p99_ms", &RungResult::threadCpuP99Ms},
    {"thread_cpu_mean_ms", &RungResult::threadCpuMeanMs},
    {"rss_peak_mib", &RungResult::rssPeakMib},
    {"instrument_mib", &RungResult::instrumentMib},
    {"minflt", &RungResult::minflt},
    {"majflt", &RungResult::majflt},
    {"nvcsw", &RungResult::nvcsw},
    {"nivcsw", &RungResult::nivcsw},
    {"dispatch_lag_p99_us", &RungResult::dispatchLagP99Us},
    {"dispatch_lag_max_us", &RungResult::dispatchLagMaxUs},
    {"late_dispatch_fraction", &RungResult::lateDispatchFraction},
    {"latency_growth", &RungResult::latencyGrowth},
    {"workers", &RungResult::workers},
    {"in_flight_cap", &RungResult::inFlightCap},
    {"in_flight_high_water", &RungResult::inFlightHighWater},
    {"valid", &RungResult::valid},
    {"partial", &RungResult::partial},
    {"verdict", &RungResult::verdict},
    {"criterion", &RungResult::criterion},
};
// Also per rung: "shed_fraction" (derived: shed / (completed + shed + errors + not_run); written,
// never read), "counters" and "counters_p99" ({name: value}), "passes" and "events" (arrays).

using PassMember = std::variant<bool RungPass::*, std::uint64_t RungPass::*, double RungPass::*,
                                std::optional<double> RungPass::*>;
struct PassField {
  const char* name;
  PassMember member;
};
const PassField kPassFields[] = {
    {"reverse", &RungPass::reverse},
    {"completed", &RungPass::completed},
    {"seconds", &RungPass::seconds},
    {"cpu_ms_per_query", &RungPass::cpuMsPerQuery},
    {"p50_ms", &RungPass::p50Ms},
};

using EventMember = std::variant<std::string RungEvent::*, double RungEvent::*>;
struct EventField {
  const char* name;
  EventMember member;
};
const EventField kEventFields[] = {
    {"name", &RungEvent::name},
    {"start_s", &RungEvent::startSeconds},
    {"end_s", &RungEvent::endSeconds},
    {"detail", &RungEvent::detail},
};

// Run-level keys. The header document holds what is known before the first rung, the end
// document what is known when the run ends; report.json is both plus "rungs".
constexpr const char* kSchemaVersionKey = "schema_version";
constexpr const char* kRunIdKey = "run_id";
constexpr const char* kProfileNameKey = "profile";
constexpr const char* kProfileKey = "profile_json";
constexpr const char* kTargetsKey = "targets";
constexpr const char* kEnvironmentKey = "environment";
constexpr const char* kPartialKey = "partial";
constexpr const char* kCapacityKey = "capacity";
constexpr const char* kQuantileDefinitionKey = "quantile_definition";
constexpr const char* kSaturationRuleKey = "saturation_rule";
constexpr const char* kWarningsKey = "warnings";
constexpr const char* kCalibrationKey = "calibration";
constexpr const char* kRungsKey = "rungs";

// ---- writing ------------------------------------------------------------------------------------

template <typename T>
json valueToJson(const T& value) {
  if constexpr (std::is_same_v<T, std::optional<double>>) {
    return value ? json(*value) : json(nullptr);
  } else {
    return json(value);  // NaN and infinities are written as null by nlohmann::json's dump()
  }
}

template <typename Owner, typename Member>
void writeMember(json& j, const char* name, const Owner& owner, Member Owner::*member) {
  j[name] = valueToJson(owner.*member);
}

void writeMember(json& j, const char* name, const RungResult& rung, const OptionalPair& pair) {
  const auto& low = rung.*pair.low;
  const auto& high = rung.*pair.high;
  j[name] = !low && !high ? json(nullptr) : json::array({valueToJson(low), valueToJson(high)});
}

template <typename Owner, typename Fields>
json objectToJson(const Owner& owner, const Fields& fields) {
  json j = json::object();
  for (const auto& field : fields) {
    std::visit([&](const auto& member) { writeMember(j, field.name, owner, member); }, field.member);
  }
  return j;
}

// ---- reading ------------------------------------------------------------------------------------

// Reads the fields of one JSON object, naming `source` and the field path in every error.
class FieldReader {
 public:
  FieldReader(const json& object, const std::string& source, std::string prefix)
      : m_object(object), m_source(source), m_prefix(std::move(prefix)) {
    if (!m_object.is_object()) {
      fail(m_prefix.empty() ? std::string("the document") : m_prefix.substr(0, m_prefix.size() - 1),
           "must be a JSON object");
    }
  }

  // Missing fields keep the value `out` already has (the type's default).
  void read(const char* name, std::string& out) const {
    const json* v = find(name);
    if (v == nullptr) return;
    if (!v->is_string()) fail(name, "must be a string");
    out = v->get<std::string>();
  }
  void read(const char* name, bool& out) const {
    const json* v = find(name);
    if (v == nullptr) return;
    if (!v->is_boolean()) fail(name, "must be true or false");
    out = v->get<bool>();
  }
  void read(const char* name, unsigned& out) const {
    out = static_cast<unsigned>(readUnsigned(name, std::numeric_limits<unsigned>::max(), out));
  }
  void read(const char* name, std::uint64_t& out) const {
    out = readUnsigned(name, std::numeric_limits<std::uint64_t>::max(), out);
  }
  void read(const char* name, double& out) const {
    const json* v = find(name);
    if (v == nullptr) return;
    if (v->is_null()) {
      out = std::numeric_limits<double>::quiet_NaN();  // how a NaN was written
    } else if (v->is_number()) {
      out = v->get<double>();
    } else {
      fail(name, "must be a number");
    }
  }
  void read(const char* name, std::optional<double>& out) const {
    const json* v = find(name);
    if (v == nullptr) return;
    out = optionalNumber(*v, name);
  }
  // [low, high] (either may be null) or null for both.
  void readPair(const char* name, std::optional<double>& low, std::optional<double>& high) const {
    const json* v = find(name);
    if (v == nullptr) return;
    if (v->is_null()) {
      low.reset();
      high.reset();
      return;
    }
    if (!v->is_array() || v->size() != 2) fail(name, "must be [low, high] or null");
    low = optionalNumber((*v)[0], name);
    high = optionalNumber((*v)[1], name);
  }
  void read(const char* name, std::map<std::string, double>& out) const {
    const json* v = find(name);
    if (v == nullptr) return;
    if (!v->is_object()) fail(name, "must be an object of numbers");
    out.clear();
    for (const auto& [key, value] : v->items()) {
      if (value.is_null()) {
        out[key] = std::numeric_limits<double>::quiet_NaN();
      } else if (value.is_number()) {
        out[key] = value.get<double>();
      } else {
        fail(std::string(name).append(".").append(key), "must be a number");
      }
    }
  }
  void read(const char* name, std::map<std::string, std::string>& out) const {
    const json* v = find(name);
    if (v == nullptr) return;
    if (!v->is_object()) fail(name, "must be an object of strings");
    out.clear();
    for (const auto& [key, value] : v->items()) {
      if (!value.is_string()) fail(std::string(name).append(".").append(key), "must be a string");
      out[key] = value.get<std::string>();
    }
  }
  void read(const char* name, std::vector<std::string>& out) const {
    readArray(name, out, "must be an array of strings", [](const json& value) {
      return value.is_string() ? std::optional<std::string>(value.get<std::string>()) : std::nullopt;
    });
  }
  void read(const char* name, std::vector<double>& out) const {
    readArray(name, out, "must be an array of numbers", [](const json& value) -> std::optional<double> {
      if (value.is_null()) return std::numeric_limits<double>::quiet_NaN();  // how a NaN was written
      return value.is_number() ? std::optional<double>(value.get<double>()) : std::nullopt;
    });
  }
  void read(const char* name, std::vector<unsigned>& out) const {
    readArray(name, out, "must be an array of non-negative integers", [](const json& value) {
      const auto n = jsonUnsigned(value, std::numeric_limits<unsigned>::max());
      return n ? std::optional<unsigned>(static_cast<unsigned>(*n)) : std::nullopt;
    });
  }
  // An array whose every element `convert` turns into a T (nullopt: the wrong type).
  template <typename T, typename Convert>
  void readArray(const char* name, std::vector<T>& out, const char* what, Convert convert) const {
    const json* v = find(name);
    if (v == nullptr) return;
    if (!v->is_array()) fail(name, what);
    out.clear();
    for (const auto& value : *v) {
      std::optional<T> element = convert(value);
      if (!element) fail(name, what);
      out.push_back(std::move(*element));
    }
  }
  // An array of objects, each read with `readOne(reader, element)`.
  template <typename T, typename ReadOne>
  void readObjects(const char* name, std::vector<T>& out, ReadOne readOne) const {
    const json* v = find(name);
    if (v == nullptr) return;
    if (!v->is_array()) fail(name, "must be an array");
    out.clear();
    for (std::size_t i = 0; i < v->size(); ++i) {
      std::string prefix = path(name);
      prefix.append("[").append(std::to_string(i)).append("].");
      const FieldReader element((*v)[i], m_source, std::move(prefix));
      T value{};
      readOne(element, value);
      out.push_back(std::move(value));
    }
  }

  const json* find(const char* name) const {
    const auto it = m_object.find(name);
    return it == m_object.end() ? nullptr : &*it;
  }
  std::string path(const std::string& name) const {
    std::string p = m_prefix;
    p.append(name);
    return p;
  }

  [[noreturn]] void fail(const std::string& name, const char* what) const {
    std::string message = m_source;
    message.append(": ");
    message.append(m_prefix);
    message.append(name);
    message.append(" ");
    message.append(what);
    throwBadInput(message);
  }

 private:
  std::optional<double> optionalNumber(const json& v, const char* name) const {
    if (v.is_null()) return std::nullopt;
    if (!v.is_number()) fail(name, "must be a number or null");
    return v.get<double>();
  }

  std::uint64_t readUnsigned(const char* name, std::uint64_t max, std::uint64_t current) const {
    const json* v = find(name);
    if (v == nullptr) return current;
    if (const auto n = jsonUnsigned(*v, max)) return *n;
    fail(name, "must be a non-negative integer in range");
  }

  const json& m_object;
  const std::string& m_source;
  std::string m_prefix;
};

template <typename Owner, typename Member>
void readMember(const FieldReader& reader, const char* name, Owner& owner, Member Owner::*member) {
  reader.read(name, owner.*member);
}

void readMember(const FieldReader& reader, const char* name, RungResult& rung, const OptionalPair& pair) {
  reader.readPair(name, rung.*pair.low, rung.*pair.high);
}

template <typename Owner, typename Fields>
void objectFromJson(const FieldReader& reader, Owner& owner, const Fields& fields) {
  for (const auto& field : fields) {
    std::visit([&](const auto& member) { readMember(reader, field.name, owner, member); }, field.member);
  }
}

Environment environmentFrom(const json& j, const std::string& source, const std::string& prefix) {
  const FieldReader reader(j, source, prefix);
  Environment e;
  objectFromJson(reader, e, environmentFields());
  reader.read("fingerprints", e.fingerprints);
  return e;
}

RungResult rungFrom(const json& j, const std::string& source, const std::string& prefix) {
  const FieldReader reader(j, source, prefix);
  RungResult r;
  objectFromJson(reader, r, kRungFields);
  reader.read("counters", r.counters);
  reader.read("counters_p99", r.countersP99);
  reader.readObjects("passes", r.passes,
                     [](const FieldReader& element, RungPass& pass) { objectFromJson(element, pass, kPassFields); });
  reader.readObjects("events", r.events, [](const FieldReader& element, RungEvent& event) {
    objectFromJson(element, event, kEventFields);
  });
  return r;
}

RunHeader headerFrom(const json& j, const std::string& source, const std::string& prefix) {
  const FieldReader reader(j, source, prefix);
  RunHeader h;
  reader.read(kRunIdKey, h.runId);
  reader.read(kProfileNameKey, h.profileName);
  if (const json* profile = reader.find(kProfileKey); profile != nullptr && !profile->is_null()) {
    // The profile is embedded as JSON when it was valid JSON (see toJson), else kept as text.
    h.profileJson = profile->is_string() ? profile->get<std::string>() : profile->dump();
  }
  reader.read(kTargetsKey, h.targets);
  if (const json* environment = reader.find(kEnvironmentKey); environment != nullptr) {
    h.environment = environmentFrom(*environment, source, reader.path(kEnvironmentKey).append("."));
  }
  return h;
}

void runEndFrom(const json& j, const std::string& source, const std::string& prefix, RunReport& report) {
  const FieldReader reader(j, source, prefix);
  reader.read(kPartialKey, report.partial);
  reader.read(kQuantileDefinitionKey, report.quantileDefinition);
  reader.read(kSaturationRuleKey, report.saturationRule);
  reader.read(kWarningsKey, report.warnings);
  if (const json* capacity = reader.find(kCapacityKey); capacity != nullptr) {
    if (!capacity->is_object()) reader.fail(kCapacityKey, "must be an object");
    report.capacity.clear();
    for (const auto& [target, value] : capacity->items()) {
      const FieldReader c(value, source, reader.path(kCapacityKey).append(".").append(target).append("."));
      RunReport::Capacity cap;
      c.read("last_pass", cap.lastPass);
      c.read("first_fail", cap.firstFail);
      c.read("criterion", cap.criterion);
      report.capacity[target] = std::move(cap);
    }
  }
  if (const json* calibration = reader.find(kCalibrationKey); calibration != nullptr) {
    if (!calibration->is_object()) reader.fail(kCalibrationKey, "must be an object");
    report.calibration.clear();
    for (const auto& [target, value] : calibration->items()) {
      const FieldReader c(value, source, reader.path(kCalibrationKey).append(".").append(target).append("."));
      RunReport::Calibration cal;
      c.read("rate", cal.rate);
      c.read("requests", cal.requests);
      c.read("seconds", cal.seconds);
      report.calibration[target] = cal;
    }
  }
}

// ---- CSV ----------------------------------------------------------------------------------------

std::string csvText(const std::string& text) { return csvField(text); }

std::string csvNumber(double value) { return fmt::format("{}", value); }

template <typename T>
std::string csvCell(const T& value) {
  if constexpr (std::is_same_v<T, std::optional<double>>) {
    return value ? csvNumber(*value) : std::string();
  } else if constexpr (std::is_same_v<T, std::string>) {
    return csvText(value);
  } else if constexpr (std::is_same_v<T, bool>) {
    return value ? "true" : "false";
  } else if constexpr (std::is_same_v<T, double>) {
    return csvNumber(value);
  } else {
    return std::to_string(value);
  }
}

template <typename Member>
void csvHeader(std::vector<std::string>& cells, const char* name, Member) {
  cells.emplace_back(name);
}
void csvHeader(std::vector<std::string>& cells, const char*, const OptionalPair& pair) {
  cells.emplace_back(pair.csvLow);
  cells.emplace_back(pair.csvHigh);
}

template <typename Member>
void csvValue(std::vector<std::string>& cells, const RungResult& rung, Member RungResult::*member) {
  cells.push_back(csvCell(rung.*member));
}
void csvValue(std::vector<std::string>& cells, const RungResult& rung, const OptionalPair& pair) {
  cells.push_back(csvCell(rung.*pair.low));
  cells.push_back(csvCell(rung.*pair.high));
}

void appendCsvLine(std::string& out, const std::vector<std::string>& cells) {
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) out.push_back(',');
    out.append(cells[i]);
  }
  out.push_back('\n');
}

}  // namespace

json RunCodec::toJson(const Environment& environment) {
  json j = objectToJson(environment, environmentFields());
  j["fingerprints"] = environment.fingerprints;
  return j;
}

json RunCodec::toJson(const RungResult& rung) {
  json j = objectToJson(rung, kRungFields);
  // In doubles: the sum of four uint64 counts must not wrap.
  const double due = static_cast<double>(rung.completed) + static_cast<double>(rung.shed) +
                     static_cast<double>(rung.errors) + static_cast<double>(rung.notRun);
  j["shed_fraction"] = due > 0 ? static_cast<double>(rung.shed) / due : 0.0;
  j["counters"] = rung.counters;
  j["counters_p99"] = rung.countersP99;
  json passes = json::array();
  for (const auto& pass : rung.passes) passes.push_back(objectToJson(pass, kPassFields));
  j["passes"] = std::move(passes);
  json events = json::array();
  for (const auto& event : rung.events) events.push_back(objectToJson(event, kEventFields));
  j["events"] = std::move(events);
  return j;
}

json RunCodec::toJson(const RunHeader& header) {
  json j = json::object();
  j[kSchemaVersionKey] = RunReport::kSchemaVersion;
  j[kRunIdKey] = header.runId;
  j[kProfileNameKey] = header.profileName;
  // Embed the profile as JSON when it is a JSON object or array (readable reports); anything else
  // stays text so that it reads back exactly.
  json profile = json::parse(header.profileJson, nullptr, /*allow_exceptions=*/false);
  if (profile.is_object() || profile.is_array()) {
    j[kProfileKey] = std::move(profile);
  } else {
    j[kProfileKey] = header.profileJson;
  }
  j[kTargetsKey] = header.targets;
  j[kEnvironmentKey] = toJson(header.environment);
  return j;
}

json RunCodec::runEndToJson(const RunReport& report) {
  json capacity = json::object();
  for (const auto& [target, c] : report.capacity) {
    capacity[target] = {{"last_pass", valueToJson(c.lastPass)},
                        {"first_fail", valueToJson(c.firstFail)},
                        {"criterion", c.criterion}};
  }
  json calibration = json::object();
  for (const auto& [target, c] : report.calibration) {
    calibration[target] = {{"rate", c.rate}, {"requests", c.requests}, {"seconds", c.seconds}};
  }
  return {{kPartialKey, report.partial},
          {kCapacityKey, std::move(capacity)},
          {kCalibrationKey, std::move(calibration)},
          {kQuantileDefinitionKey, report.quantileDefinition},
          {kSaturationRuleKey, report.saturationRule},
          {kWarningsKey, report.warnings}};
}

json RunCodec::toJson(const RunReport& report) {
  json j = toJson(report.header);
  j.update(runEndToJson(report));
  json rungs = json::array();
  for (const auto& rung : report.rungs) rungs.push_back(toJson(rung));
  j[kRungsKey] = std::move(rungs);
  return j;
}

Environment RunCodec::environmentFromJson(const json& j, const std::string& source) {
  return environmentFrom(j, source, "");
}

RungResult RunCodec::rungFromJson(const json& j, const std::string& source) { return rungFrom(j, source, ""); }

RunHeader RunCodec::headerFromJson(const json& j, const std::string& source) {
  return headerFrom(j, source, "");
}

void RunCodec::runEndFromJson(const json& j, const std::string& source, RunReport& report) {
  runEndFrom(j, source, "", report);
}

RunReport RunCodec::reportFromJson(const json& j, const std::string& source) {
  const FieldReader reader(j, source, "");
  // Before schema_version: a compare report's (2) read as "newer than this build reads (1)".
  if (const json* kind = reader.find("kind"); kind != nullptr && *kind == "compare") {
    reader.fail("kind", "is \"compare\": this is a comparison report, not a run report");
  }
  if (const json* v = reader.find(kSchemaVersionKey); v != nullptr) {
    if (!v->is_number_integer()) reader.fail(kSchemaVersionKey, "must be an integer");
    // Version 1 is the only one so far: older documents need no conversion, newer are refused.
    if (v->get<std::int64_t>() > RunReport::kSchemaVersion) {
      std::string what = "is ";
      what.append(v->dump());
      what.append(": the report is newer than this build reads (");
      what.append(std::to_string(RunReport::kSchemaVersion));
      what.append(")");
      reader.fail(kSchemaVersionKey, what.c_str());
    }
  }
  RunReport report;
  report.header = headerFrom(j, source, "");
  runEndFrom(j, source, "", report);
  if (const json* rungs = reader.find(kRungsKey); rungs != nullptr) {
    if (!rungs->is_array()) reader.fail(kRungsKey, "must be an array");
    for (std::size_t i = 0; i < rungs->size(); ++i) {
      std::string prefix = kRungsKey;
      prefix.append("[").append(std::to_string(i)).append("].");
      report.rungs.push_back(rungFrom((*rungs)[i], source, prefix));
    }
  }
  return report;
}

std::string RunCodec::rungsToCsv(const std::vector<RungResult>& rungs) {
  std::set<std::string> counterNames;
  std::set<std::string> counterP99Names;
  for (const auto& rung : rungs) {
    for (const auto& [name, value] : rung.counters) counterNames.insert(name);
    for (const auto& [name, value] : rung.countersP99) counterP99Names.insert(name);
  }
  std::string out;
  std::vector<std::string> cells;
  for (const auto& field : kRungFields) {
    std::visit([&](const auto& member) { csvHeader(cells, field.name, member); }, field.member);
  }
  for (const auto& name : counterNames) cells.push_back(csvText(std::string("counters.").append(name)));
  for (const auto& name : counterP99Names) cells.push_back(csvText(std::string("counters_p99.").append(name)));
  appendCsvLine(out, cells);
  for (const auto& rung : rungs) {
    cells.clear();
    for (const auto& field : kRungFields) {
      std::visit([&](const auto& member) { csvValue(cells, rung, member); }, field.member);
    }
    for (const auto& name : counterNames) {
      const auto it = rung.counters.find(name);
      cells.push_back(it == rung.counters.end() ? std::string() : csvNumber(it->second));
    }
    for (const auto& name : counterP99Names) {
      const auto it = rung.countersP99.find(name);
      cells.push_back(it == rung.countersP99.end() ? std::string() : csvNumber(it->second));
    }
    appendCsvLine(out, cells);
  }
  return out;
}

namespace {

void resultDiffFrom(const FieldReader& r, ResultDiff& d) {
  r.read("queries", d.queries);
  r.read("row_set_diff", d.rowSetDiff);
  r.read("score_bit_diff", d.scoreBitDiff);
  r.read("order_diff", d.orderDiff);
  r.read("failed_queries", d.failed);
  std::optional<double> rank;
  r.read("first_diverging_rank", rank);
  if (rank) {
    if (*rank < 1 || *rank > std::numeric_limits<std::uint32_t>::max() || std::floor(*rank) != *rank) {
      r.fail("first_diverging_rank", "must be a positive integer or null");
    }
    d.firstDivergingRank = static_cast<std::uint32_t>(*rank);
  }
  r.read("differing_queries", d.differingQueries);
}

void scenarioFrom(const FieldReader& r, CompareScenario& s) {
  r.read("name", s.name);
  r.read("query_set", s.querySet);
  r.read("metric", s.metric);
  r.read("offered_rate", s.offeredRate);
  r.read("a", s.a);
  r.read("b", s.b);
  r.read("a_geomean", s.aGeomean);
  r.read("b_geomean", s.bGeomean);
  r.read("ratio", s.estimate.ratio);
  r.read("ci_low", s.estimate.ciLow);
  r.read("ci_high", s.estimate.ciHigh);
  r.read("noise_floor", s.estimate.noiseFloor);
  r.read("verdict", s.estimate.verdict);
  r.read("samples_per_query", s.samplesPerQuery);
  resultDiffFrom(r, s.diff);
  s.queries = s.diff.queries;
  r.read("target", s.target);  // schema 1 has none: its one B
}

void sideFrom(const json& j, const std::string& source, const char* name, CompareSide& side) {
  const auto it = j.find(name);
  if (it == j.end()) return;
  const FieldReader r(*it, source, std::string(name).append("."));
  r.read("spec", side.spec);
  r.read("build_id", side.buildId);
  r.read("detail", side.detail);
}

}  // namespace

CompareReport RunCodec::compareReportFromJson(const json& j, const std::string& source) {
  const FieldReader reader(j, source, "");
  if (const json* v = reader.find(kSchemaVersionKey); v != nullptr) {
    if (!v->is_number_integer()) reader.fail(kSchemaVersionKey, "must be an integer");
    if (v->get<std::int64_t>() > CompareReport::kSchemaVersion) {
      reader.fail(kSchemaVersionKey, "is newer than this build reads (compare report schema 2)");
    }
  }
  if (const json* kind = reader.find("kind"); kind != nullptr && *kind != "compare") {
    reader.fail("kind", "must be \"compare\" (this is not a compare report)");
  }
  CompareReport report;
  reader.read("run_id", report.runId);
  reader.read("profile", report.profileName);
  reader.read("profile_json", report.profileJson);
  sideFrom(j, source, "a", report.a);
  sideFrom(j, source, "b", report.b);
  // Schema 2: every target, A first (a and b repeat the first two); schema 1 has only a and b.
  if (const json* targets = reader.find("targets"); targets != nullptr) {
    if (!targets->is_array() || targets->size() < 2) reader.fail("targets", "must list at least two targets");
    for (std::size_t i = 0; i < targets->size(); ++i) {
      CompareSide side;
      const FieldReader t((*targets)[i], source, fmt::format("targets[{}].", i));
      t.read("spec", side.spec);
      t.read("build_id", side.buildId);
      t.read("detail", side.detail);
      if (i == 0) {
        report.a = std::move(side);
      } else if (i == 1) {
        report.b = std::move(side);
      } else {
        report.more.push_back(std::move(side));
      }
    }
  }
  if (const json* env = reader.find("environment"); env != nullptr) {
    report.environment = environmentFrom(*env, source, "environment.");
  }
  if (const json* method = reader.find("method"); method != nullptr) {
    const FieldReader m(*method, source, "method.");
    m.read("text", report.method);
    m.read("repetitions", report.repetitions);
    m.read("warmup_s", report.warmupSeconds);
    m.read("warm_passes", report.warmPasses);  // absent before stop 43: none were run
    m.read("bootstrap_samples", report.bootstrapSamples);
    m.read("noise_floor", report.noiseFloor);
    m.read("aa", report.aa);
  }
  reader.readObjects("scenarios", report.scenarios, scenarioFrom);
  reader.readObjects("aa_scenarios", report.aaScenarios, scenarioFrom);
  reader.read("warnings", report.warnings);
  reader.read("partial", report.partial);
  reader.read("mode", report.mode);
  reader.readObjects("capacity", report.capacity, [](const FieldReader& r, OpenCapacity& c) {
    r.read("target", c.target);
    r.read("spec", c.spec);
    r.read("ladders", c.ladders);
    r.read("rates", c.rates);
    r.read("passed", c.passed);
    r.read("shed_fraction", c.shedFraction);
    r.read("criteria", c.criteria);
    r.read("last_pass", c.lastPass);
    r.read("first_fail", c.firstFail);
    // The writer indexes these per rate: a document that disagrees is damaged, not renderable.
    if (c.passed.size() != c.rates.size() || c.shedFraction.size() != c.rates.size() ||
        c.criteria.size() != c.rates.size()) {
      r.fail("rates", "must have as many entries as passed, shed_fraction and criteria");
    }
  });
  reader.read("capacity_verdict", report.capacityVerdict);
  std::vector<SetResultDiff> diffs;
  reader.readObjects("result_equality", diffs, [](const FieldReader& r, SetResultDiff& d) {
    r.read("query_set", d.querySet);
    r.read("target", d.target);
    resultDiffFrom(r, d.diff);
  });
  report.diffs = std::move(diffs);
  // A row naming a target the report does not list cannot be rendered.
  const auto checkTarget = [&](std::size_t target, const char* field) {
    if (target == 0 || target >= report.targetCount()) {
      reader.fail(field, "names a target the report's targets do not list");
    }
  };
  for (const auto& s : report.scenarios) checkTarget(s.target, "scenarios");
  for (const auto& d : report.diffs) checkTarget(d.target, "result_equality");
  return report;
}

}  // namespace wandscope::engine
