// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bench/bench_profile.h"

#include "engine/core/error.h"
#include "engine/core/fs_util.h"
#include "engine/core/wording.h"
#include "engine/loadgen/builtin_target.h"
#include "engine/loadgen/open_loop_driver.h"
#include "engine/loadgen/plugin_target.h"
#include "engine/loadgen/synthetic_target.h"
#include "engine/loadgen/target_spec.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <set>

namespace wandscope::engine {
namespace {

using nlohmann::json;

// The shortest measured window (closed measure_s, ladder calibration_s and rung_duration_s) and
// drain timeout: the drivers count in whole nanoseconds, so rung_duration_s: 1e-300 became a
// window of 0 ns, refused by the driver with neither file nor field (review). A millisecond is
// far below anything that measures, and far above the clock's resolution.
constexpr double kMinWindowSeconds = 0.001;

// Reads one JSON object, remembering the path for messages and refusing unknown fields (a typo
// in a profile must not silently fall back to a default).
class ObjectReader {
 public:
  ObjectReader(const json& object, std::string path, const std::string& file)
      : m_object(object), m_path(std::move(path)), m_file(file) {
    if (!m_object.is_object()) fail(m_path.empty() ? "(top level)" : m_path, "must be an object");
  }

  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    throwBadInput(fmt::format("{}: {}: {}", m_file, path, what));
  }
  std::string at(const std::string& key) const { return m_path.empty() ? key : fmt::format("{}.{}", m_path, key); }
  bool has(const std::string& key) {
    m_known.insert(key);
    return m_object.contains(key) && !m_object.at(key).is_null();
  }
  const json& raw(const std::string& key) {
    m_known.insert(key);
    return m_object.at(key);
  }

  std::string string(const std::string& key, std::string fallback) {
    if (!has(key)) return fallback;
    const json& v = m_object.at(key);
    if (!v.is_string()) fail(at(key), "must be a string");
    return v.get<std::string>();
  }
  double number(const std::string& key, double fallback, double min, bool minExclusive, double max) {
    if (!has(key)) return fallback;
    return checkNumber(m_object.at(key), at(key), min, minExclusive, max);
  }
  std::uint64_t integer(const std::string& key, std::uint64_t fallback, std::uint64_t min, std::uint64_t max) {
    if (!has(key)) return fallback;
    return checkInteger(m_object.at(key), at(key), min, max);
  }
  bool boolean(const std::string& key, bool fallback) {
    if (!has(key)) return fallback;
    const json& v = m_object.at(key);
    if (!v.is_boolean()) fail(at(key), "must be true or false");
    return v.get<bool>();
  }
  double checkNumber(const json& v, const std::string& path, double min, bool minExclusive, double max) const {
    if (!v.is_number()) fail(path, "must be a number");
    const double d = v.get<double>();
    if (!std::isfinite(d)) fail(path, "must be finite");
    if (minExclusive ? d <= min : d < min) fail(path, fmt::format("must be {} {}", minExclusive ? ">" : ">=", significant(min)));
    if (d > max) fail(path, fmt::format("must be <= {}", significant(max)));  // "1,000,000", not "1e+06"
    return d;
  }
  std::uint64_t checkInteger(const json& v, const std::string& path, std::uint64_t min, std::uint64_t max) const {
    if (!v.is_number_integer() || (v.is_number_integer() && !v.is_number_unsigned() && v.get<std::int64_t>() < 0)) {
      if (v.is_number_integer()) fail(path, fmt::format("must be >= {}", min));
      fail(path, "must be an integer");
    }
    const auto u = v.get<std::uint64_t>();
    if (u < min) fail(path, fmt::format("must be >= {}", min));
    if (u > max) fail(path, fmt::format("must be <= {}", max));
    return u;
  }
  void finish() const {
    for (auto it = m_object.begin(); it != m_object.end(); ++it) {
      if (m_known.count(it.key()) == 0) fail(at(it.key()), "unknown field");
    }
  }

 private:
  const json& m_object;
  std::string m_path;
  const std::string& m_file;
  std::set<std::string> m_known;
};

std::filesystem::path resolve(const std::filesystem::path& base, const std::string& p) {
  const std::filesystem::path path(p);
  return path.is_absolute() || base.empty() ? path : base / path;
}

// Every rung must schedule at most kMaxRequestsPerRung requests. `option` is empty for the
// profile's own ladder (a bad input naming the file and field) or the command-line option that
// made the rung too big (a usage error naming the option, not the file).
void checkLadderBounds(const BenchProfile& p, const std::string& file, const std::string& option = {}) {
  const auto& l = p.ladder;
  for (std::size_t i = 0; i < l.rates.size(); ++i) {
    const std::uint64_t planned = plannedRungRequests(p, l.rates[i]);
    if (planned <= kMaxRequestsPerRung) continue;
    const std::string why = fmt::format("schedules {} requests in one rung, over the maximum of {} (per-request "
                                        "records are kept in memory); shorten the rung or lower the rate",
                                        grouped(planned), grouped(kMaxRequestsPerRung));
    if (option == "--rates") throwUsage(fmt::format("--rates: item {} ({}) {}", i, formatRate(l.rates[i]), why));
    if (!option.empty()) {
      throwUsage(fmt::format("{}: at ladder.rates[{}] ({}) of {} the rung {}", option, i, formatRate(l.rates[i]),
                             file, why));
    }
    throwBadInput(fmt::format("{}: ladder.rates[{}]: {} {}", file, i, formatRate(l.rates[i]), why));
  }
}

// `what` is the profile's field ("targets": a bad input naming the file) or the command line's
// option ("--target": a usage error, not the file's). A spec's options are checked here too, where
// that needs nothing loaded (built-in and synthetic): 'builtin:algo=nope' in a profile was a usage
// error naming neither file nor field, after the output directory was made (review, stop 32).
void validateTargets(const BenchProfile& p, const std::string& file, const char* what) {
  const bool option = std::string_view(what).starts_with("--");
  auto fail = [&](std::size_t i, const std::string& why) {
    if (option) throwUsage(fmt::format("{}: {}", what, why));
    throwBadInput(fmt::format("{}: {}[{}]: {}", file, what, i, why));
  };
  if (p.targets.empty()) throwBadInput(fmt::format("{}: {}: at least one target is required", file, what));
  for (std::size_t i = 0; i < p.targets.size(); ++i) {
    TargetSpec spec;
    try {
      spec = TargetSpec::parse(p.targets[i]);
      if (spec.kind == "builtin") {
        // On the profile's query, as BenchRunner applies it: a default-constructed (AND) query
        // refused `builtin:algo=bmw` on every OR profile.
        builtinQueryOptions(p).applySpec(spec);
      } else if (spec.kind == "synthetic") {
        (void)SyntheticTarget(spec);
      } else if (spec.kind == "plugin") {
        PluginQueryOptions{}.applySpec(spec);
      }
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::Usage && e.kind() != ErrorKind::BadInput) throw;
      fail(i, e.what());
    }
    if (spec.kind != "synthetic" && p.datasetKind == BenchProfile::DatasetKind::None) {
      throwBadInput(fmt::format("{}: {}[{}]: a {} target needs a dataset (\"dataset\": \"default\", ...)", file,
                                what, i, spec.kind));
    }
  }
}

}  // namespace

std::uint64_t plannedRungRequests(const BenchProfile& p, double rate) {
  const double settle = std::ceil(rate * p.ladder.settleSeconds);
  const double measured =
      p.ladder.requests > 0 ? static_cast<double>(p.ladder.requests) : std::ceil(rate * p.ladder.rungSeconds);
  const double total = settle + measured;
  return total > 1e18 ? static_cast<std::uint64_t>(1e18) : static_cast<std::uint64_t>(total);
}

BenchProfile parseBenchProfile(std::string_view text, const std::string& fileName, const std::filesystem::path& baseDir) {
  json root;
  try {
    root = json::parse(text);
  } catch (const json::exception& e) {  // parse_error, and out_of_range for a number too large (fuzzing)
    throwBadInput(fmt::format("{}: not valid JSON: {}", fileName, e.what()));
  }
  BenchProfile p;
  p.fileName = fileName;
  ObjectReader top(root, "", fileName);
  const auto version = top.integer("format_version", 1, 1, 1000);
  if (version != BenchProfile::kFormatVersion) {
    top.fail("format_version", fmt::format("unsupported version {} (this build reads {})", version,
                                           BenchProfile::kFormatVersion));
  }
  p.name = top.string("name", "");
  if (p.name.empty()) top.fail("name", "required (a non-empty string)");
  p.description = top.string("description", "");
  p.seed = top.integer("seed", 42, 0, ~std::uint64_t{0});

  // dataset
  if (top.has("dataset")) {
    const json& d = top.raw("dataset");
    if (d.is_string()) {
      const auto s = d.get<std::string>();
      if (s == "default") {
        p.datasetKind = BenchProfile::DatasetKind::Default;
      } else if (s == "none") {
        p.datasetKind = BenchProfile::DatasetKind::None;
      } else {
        top.fail("dataset", fmt::format("expected \"default\", \"none\" or an object, got \"{}\"", s));
      }
    } else {
      ObjectReader dr(d, "dataset", fileName);
      const bool isDefault = dr.has("default");
      const bool isIndex = dr.has("index");
      if (isDefault == isIndex) dr.fail("dataset", "exactly one of \"default\" or \"index\" is required");
      if (isDefault) {
        p.datasetKind = BenchProfile::DatasetKind::Default;
        ObjectReader def(dr.raw("default"), "dataset.default", fileName);
        p.defaultDocs = def.integer("docs", 200'000, 100, 100'000'000);
        def.finish();
      } else {
        p.datasetKind = BenchProfile::DatasetKind::Index;
        p.indexPath = resolve(baseDir, dr.string("index", ""));
        if (!dr.has("query_sets")) dr.fail("dataset.query_sets", "required with \"index\" (name -> query file)");
        ObjectReader qs(dr.raw("query_sets"), "dataset.query_sets", fileName);
        const json& obj = dr.raw("query_sets");
        for (auto it = obj.begin(); it != obj.end(); ++it) {
          const auto path = qs.string(it.key(), "");
          if (path.empty()) qs.fail(qs.at(it.key()), "must be a non-empty path");
          p.querySetFiles.emplace_back(it.key(), resolve(baseDir, path));
        }
        if (p.querySetFiles.empty()) dr.fail("dataset.query_sets", "must name at least one query file");
        qs.finish();
      }
      dr.finish();
    }
  }
  if (top.has("query_sets")) {
    const json& qs = top.raw("query_sets");
    if (!qs.is_array()) top.fail("query_sets", "must be an array of query-set names");
    std::set<std::string> seen;
    for (std::size_t i = 0; i < qs.size(); ++i) {
      if (!qs[i].is_string() || qs[i].get<std::string>().empty()) {
        top.fail(fmt::format("query_sets[{}]", i), "must be a non-empty string");
      }
      if (!seen.insert(qs[i].get<std::string>()).second) top.fail(fmt::format("query_sets[{}]", i), "duplicate");
      p.querySets.push_back(qs[i].get<std::string>());
    }
  }

  // query
  if (top.has("query")) {
    ObjectReader q(top.raw("query"), "query", fileName);
    try {
      p.op = parseOperator(q.string("op", "and"));
    } catch (const Error& e) {
      q.fail("query.op", e.what());
    }
    p.k = static_cast<std::size_t>(q.integer("k", 10, 1, kMaxK));
    try {
      p.algorithm = parseAlgorithm(q.string("algorithm", "auto"));
    } catch (const Error& e) {
      q.fail("query.algorithm", e.what());
    }
    p.searchOptions = q.string("options", "");
    try {
      SearchOptions o;
      o.apply(p.searchOptions);
    } catch (const Error& e) {
      q.fail("query.options", e.what());
    }
    try {
      p.order = parseWorkloadOrder(q.string("order", "cycle"));
    } catch (const Error& e) {
      q.fail("query.order", e.what());
    }
    if (!algorithmSupports(p.algorithm, p.op)) {
      q.fail("query.algorithm", fmt::format("{} does not evaluate {} queries ({})", algorithmName(p.algorithm),
                                            operatorName(p.op), algorithmsFor(p.op)));
    }
    q.finish();
  }

  // targets
  if (!top.has("targets")) top.fail("targets", "required (e.g. [\"builtin\"])");
  const json& targets = top.raw("targets");
  if (!targets.is_array()) top.fail("targets", "must be an array of target specs");
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (!targets[i].is_string()) top.fail(fmt::format("targets[{}]", i), "must be a string");
    p.targets.push_back(targets[i].get<std::string>());
  }
  validateTargets(p, fileName, "targets");

  // mode
  const std::string mode = top.string("mode", "");
  if (mode == "open") {
    p.runOpen = true;
  } else if (mode == "closed") {
    p.runClosed = true;
  } else if (mode == "both") {
    p.runOpen = p.runClosed = true;
  } else {
    top.fail("mode", fmt::format("expected \"open\", \"closed\" or \"both\", got \"{}\"", mode));
  }

  if (top.has("closed")) {
    ObjectReader c(top.raw("closed"), "closed", fileName);
    if (c.has("concurrency")) {
      const json& cj = c.raw("concurrency");
      if (!cj.is_array() || cj.empty()) c.fail("closed.concurrency", "must be a non-empty array of client counts");
      p.closed.concurrency.clear();
      for (std::size_t i = 0; i < cj.size(); ++i) {
        p.closed.concurrency.push_back(
            static_cast<unsigned>(c.checkInteger(cj[i], fmt::format("closed.concurrency[{}]", i), 1, 1024)));
      }
    }
    p.closed.warmupSeconds = c.number("warmup_s", 3, 0, false, 3600);
    p.closed.measureSeconds = c.number("measure_s", 12, kMinWindowSeconds, false, 3600);
    p.closed.passes = static_cast<unsigned>(c.integer("passes", 3, 1, 100));
    c.finish();
  } else if (p.runClosed) {
    top.fail("closed", "required when mode is closed or both");
  }

  if (top.has("ladder")) {
    ObjectReader l(top.raw("ladder"), "ladder", fileName);
    auto& ladder = p.ladder;
    try {
      ladder.arrivals = parseArrivalProcess(l.string("arrivals", "uniform"));
    } catch (const Error& e) {
      l.fail("ladder.arrivals", e.what());
    }
    const bool haveRates = l.has("rates");
    const bool haveMultiples = l.has("multiples");
    if (haveRates == haveMultiples) l.fail("ladder", "exactly one of \"rates\" or \"multiples\" is required");
    const char* key = haveRates ? "rates" : "multiples";
    const json& arr = l.raw(key);
    if (!arr.is_array() || arr.empty()) l.fail(l.at(key), "must be a non-empty array of numbers");
    auto& out = haveRates ? ladder.rates : ladder.multiples;
    for (std::size_t i = 0; i < arr.size(); ++i) {
      const std::string path = fmt::format("ladder.{}[{}]", key, i);
      const double v = l.checkNumber(arr[i], path, 0, true, haveRates ? ArrivalSchedule::kMaxRate : 1e6);
      if (haveRates && v < ArrivalSchedule::kMinRate) l.fail(path, "must be >= 0.001");
      if (!out.empty() && v <= out.back()) l.fail(path, fmt::format("must be greater than ladder.{}[{}]", key, i - 1));
      out.push_back(v);
    }
    ladder.calibrationSeconds = l.number("calibration_s", 5, kMinWindowSeconds, false, 3600);
    ladder.calibrationWarmupSeconds = l.number("calibration_warmup_s", 2, 0, false, 3600);
    ladder.calibrationMinRequests = l.integer("calibration_min_requests", 200, 1, 10'000'000);
    ladder.settleSeconds = l.number("settle_s", 2, 0, false, 3600);
    const bool haveSeconds = l.has("rung_duration_s");
    const bool haveRequests = l.has("requests");
    if (haveSeconds && haveRequests) l.fail("ladder", "give one of \"rung_duration_s\" or \"requests\", not both");
    ladder.rungSeconds = l.number("rung_duration_s", 10, kMinWindowSeconds, false, 86'400);
    ladder.requests = l.integer("requests", 0, 1, kMaxRequestsPerRung);
    ladder.workers = static_cast<unsigned>(l.integer("workers", 8, 1, 1024));
    ladder.inFlightCap = l.integer("in_flight_cap", 64, 1, kMaxRequestsPerRung);
    if (ladder.inFlightCap < ladder.workers) {
      l.fail("ladder.in_flight_cap", fmt::format("must be >= ladder.workers ({})", ladder.workers));
    }
    ladder.stopAfterFail = l.boolean("stop_after_fail", true);
    ladder.spinUs = l.number("spin_us", 100, 0, false, 100'000);
    ladder.drainTimeoutSeconds = l.number("drain_timeout_s", 30, kMinWindowSeconds, false, 3600);
    l.finish();
    checkLadderBounds(p, fileName);
  } else if (p.runOpen) {
    top.fail("ladder", "required when mode is open or both");
  }

  if (top.has("rule")) {
    ObjectReader r(top.raw("rule"), "rule", fileName);
    auto& rule = p.rule;
    rule.maxShedFraction = r.number("max_shed_fraction", rule.maxShedFraction, 0, false, 1);
    rule.minAchievedRatio = r.number("min_achieved_ratio", rule.minAchievedRatio, 0, false, 1);
    rule.maxLatencyRatio = r.number("max_latency_ratio", rule.maxLatencyRatio, 1, false, 1e6);
    rule.maxGrowth = r.number("max_growth", rule.maxGrowth, 0, true, 1e6);
    rule.lateDispatchUs = r.number("late_dispatch_us", rule.lateDispatchUs, 0, true, 1e9);
    rule.maxLateDispatchFraction = r.number("max_late_dispatch_fraction", rule.maxLateDispatchFraction, 0, false, 1);
    r.finish();
  }
  top.finish();
  return p;
}

BuiltinQueryOptions builtinQueryOptions(const BenchProfile& profile) {
  BuiltinQueryOptions o;
  o.op = profile.op;
  o.k = profile.k;
  o.algorithm = profile.algorithm;
  o.options.apply(profile.searchOptions);
  return o;
}

BenchProfile loadBenchProfile(const std::filesystem::path& file) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) {
    throwBadInput(fmt::format("profile {} is a directory, not a profile file", file.string()));
  }
  // A missing profile is a bad input file (exit 3), like a missing query or corpus file.
  if (!std::filesystem::is_regular_file(file, ec)) throwBadInput(fmt::format("profile {} does not exist", file.string()));
  return parseBenchProfile(readWholeFile(file), file.filename().string(), file.parent_path());
}

std::vector<double> parseRateList(std::string_view text) {
  std::vector<double> out;
  std::size_t index = 0;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    std::string item(text.substr(0, comma));
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    while (!item.empty() && item.front() == ' ') item.erase(item.begin());
    while (!item.empty() && item.back() == ' ') item.pop_back();
    double v = 0;
    const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || ec != std::errc() || ptr != item.data() + item.size() || !std::isfinite(v)) {
      throwUsage(fmt::format("--rates: item {} ('{}') is not a number", index, item));
    }
    if (v < ArrivalSchedule::kMinRate || v > ArrivalSchedule::kMaxRate) {
      // The item as typed: "{:g}" showed 12345678 as "1.23457e+07".
      throwUsage(fmt::format("--rates: item {} ('{}') must be between {} and {} requests/s", index, item,
                             significant(ArrivalSchedule::kMinRate), significant(ArrivalSchedule::kMaxRate)));
    }
    if (!out.empty() && v <= out.back()) {
      throwUsage(fmt::format("--rates: item {} ('{}') must be greater than the one before", index, item));
    }
    out.push_back(v);
    ++index;
  }
  if (out.empty()) throwUsage("--rates: give at least one rate");
  return out;
}

void applyOverrides(BenchProfile& profile, const BenchOverrides& o) {
  BenchProfile p = profile;  // all or nothing
  if (!o.targets.empty()) {
    p.targets = o.targets;
    try {
      validateTargets(p, p.fileName, "--target");
    } catch (const Error& e) {
      throwUsage(e.what());
    }
  }
  // Name only the options given: `compare` has --rates but neither --rung-duration-s nor --requests.
  std::vector<std::string> ladderOptions;
  if (!o.rates.empty()) ladderOptions.emplace_back("--rates");
  if (o.rungSeconds) ladderOptions.emplace_back("--rung-duration-s");
  if (o.requests) ladderOptions.emplace_back("--requests");
  if (!ladderOptions.empty() && !p.runOpen) {
    std::string options = ladderOptions[0];
    for (std::size_t i = 1; i < ladderOptions.size(); ++i) {
      options.append(i + 1 == ladderOptions.size() ? " and " : ", ").append(ladderOptions[i]);
    }
    throwUsage(fmt::format("{} {} to the open-loop ladder, and profile {} has none (mode is closed)", options,
                           ladderOptions.size() == 1 ? "applies" : "apply", p.fileName));
  }
  if (!o.rates.empty()) {
    p.ladder.rates = o.rates;
    p.ladder.multiples.clear();
  }
  if (o.rungSeconds) {
    if (!(*o.rungSeconds >= kMinWindowSeconds) || *o.rungSeconds > 86'400) {
      throwUsage(fmt::format("--rung-duration-s must be in [{}, 86400]", significant(kMinWindowSeconds)));
    }
    p.ladder.rungSeconds = *o.rungSeconds;
    p.ladder.requests = 0;
  }
  if (o.requests) {
    if (*o.requests == 0 || *o.requests > kMaxRequestsPerRung) {
      throwUsage(fmt::format("--requests must be in [1, {}]", kMaxRequestsPerRung));
    }
    p.ladder.requests = *o.requests;
  }
  // Blame the option that made a rung too big: the profile's own ladder was checked when it was read.
  if (!o.rates.empty()) {
    checkLadderBounds(p, p.fileName, "--rates");
  } else if (o.rungSeconds || o.requests) {
    checkLadderBounds(p, p.fileName, o.requests ? "--requests" : "--rung-duration-s");
  }
  profile = std::move(p);
}

std::string benchProfileJson(const BenchProfile& p) {
  json j;
  j["format_version"] = BenchProfile::kFormatVersion;
  j["name"] = p.name;
  if (!p.description.empty()) j["description"] = p.description;
  switch (p.datasetKind) {
    case BenchProfile::DatasetKind::None:
      j["dataset"] = "none";
      break;
    case BenchProfile::DatasetKind::Default:
      j["dataset"] = {{"default", {{"docs", p.defaultDocs}}}};
      break;
    case BenchProfile::DatasetKind::Index: {
      json sets = json::object();
      for (const auto& [name, path] : p.querySetFiles) sets[name] = path.string();
      j["dataset"] = {{"index", p.indexPath.string()}, {"query_sets", sets}};
      break;
    }
  }
  if (!p.querySets.empty()) j["query_sets"] = p.querySets;
  j["query"] = {{"op", operatorName(p.op)},
                {"k", p.k},
                {"algorithm", algorithmName(p.algorithm)},
                {"options", p.searchOptions},
                {"order", workloadOrderName(p.order)}};
  j["targets"] = p.targets;
  j["seed"] = p.seed;
  j["mode"] = p.runOpen && p.runClosed ? "both" : (p.runOpen ? "open" : "closed");
  if (p.runClosed) {
    j["closed"] = {{"concurrency", p.closed.concurrency},
                   {"warmup_s", p.closed.warmupSeconds},
                   {"measure_s", p.closed.measureSeconds},
                   {"passes", p.closed.passes}};
  }
  if (p.runOpen) {
    const auto& l = p.ladder;
    json lj = {{"arrivals", arrivalProcessName(l.arrivals)},
               {"settle_s", l.settleSeconds},
               {"workers", l.workers},
               {"in_flight_cap", l.inFlightCap},
               {"stop_after_fail", l.stopAfterFail},
               {"spin_us", l.spinUs},
               {"drain_timeout_s", l.drainTimeoutSeconds}};
    if (!l.rates.empty()) {
      lj["rates"] = l.rates;
    } else {
      lj["multiples"] = l.multiples;
      lj["calibration_s"] = l.calibrationSeconds;
      lj["calibration_warmup_s"] = l.calibrationWarmupSeconds;
      lj["calibration_min_requests"] = l.calibrationMinRequests;
    }
    if (l.requests > 0) {
      lj["requests"] = l.requests;
    } else {
      lj["rung_duration_s"] = l.rungSeconds;
    }
    j["ladder"] = lj;
  }
  j["rule"] = {{"max_shed_fraction", p.rule.maxShedFraction},
               {"min_achieved_ratio", p.rule.minAchievedRatio},
               {"max_latency_ratio", p.rule.maxLatencyRatio},
               {"max_growth", p.rule.maxGrowth},
               {"late_dispatch_us", p.rule.lateDispatchUs},
               {"max_late_dispatch_fraction", p.rule.maxLateDispatchFraction}};
  return j.dump(2);
}

}  // namespace wandscope::engine
