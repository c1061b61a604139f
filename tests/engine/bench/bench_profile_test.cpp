// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bench/bench_profile.h"
#include "engine/core/error.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace wandscope::test {
namespace {

using engine::BenchProfile;
using engine::parseBenchProfile;

BenchProfile parse(const std::string& json) { return parseBenchProfile(json, "p.json", "/base"); }

// The message of the BadInput error parsing `json` throws (fails the test if it parses).
std::string profileErrorOf(const std::string& json) {
  try {
    (void)parse(json);
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::BadInput) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "parsed: " << json;
  return {};
}

const char* kOpen = R"({"name": "t", "targets": ["synthetic:service_us=10"], "mode": "open",
                        "ladder": {"rates": [10, 20, 40], "rung_duration_s": 1}})";

TEST(BenchProfile, ParsesAMinimalOpenProfileWithDefaults) {
  const auto p = parse(kOpen);
  EXPECT_EQ(p.name, "t");
  EXPECT_TRUE(p.runOpen);
  EXPECT_FALSE(p.runClosed);
  EXPECT_EQ(p.ladder.rates, (std::vector<double>{10, 20, 40}));
  EXPECT_EQ(p.ladder.workers, 8u);
  EXPECT_EQ(p.ladder.inFlightCap, 64u);
  EXPECT_TRUE(p.ladder.stopAfterFail);
  EXPECT_EQ(p.datasetKind, BenchProfile::DatasetKind::None);
  EXPECT_EQ(p.op, engine::Operator::And);
  EXPECT_EQ(p.rule.maxShedFraction, 0.001);
}

TEST(BenchProfile, ParsesDatasetsAndResolvesRelativePaths) {
  auto p = parse(R"({"name": "t", "dataset": {"default": {"docs": 5000}}, "query_sets": ["mid-df-2"],
                     "targets": ["builtin", "builtin:freq_prune=off"], "mode": "closed",
                     "closed": {"concurrency": [1, 8], "warmup_s": 0.5, "measure_s": 1, "passes": 3}})");
  EXPECT_EQ(p.datasetKind, BenchProfile::DatasetKind::Default);
  EXPECT_EQ(p.defaultDocs, 5000u);
  EXPECT_EQ(p.closed.concurrency, (std::vector<unsigned>{1, 8}));
  p = parse(R"({"name": "t", "dataset": {"index": "idx", "query_sets": {"a": "q/a.jsonl", "b": "/abs/b.tsv"}},
                "targets": ["builtin"], "mode": "closed", "closed": {}})");
  EXPECT_EQ(p.indexPath, std::filesystem::path("/base/idx"));
  ASSERT_EQ(p.querySetFiles.size(), 2u);
  EXPECT_EQ(p.querySetFiles[0].second, std::filesystem::path("/base/q/a.jsonl"));
  EXPECT_EQ(p.querySetFiles[1].second, std::filesystem::path("/abs/b.tsv"));
}

TEST(BenchProfile, ErrorsNameTheFileAndTheFieldPath) {
  EXPECT_EQ(profileErrorOf(R"({"name": "t", "targets": ["synthetic:service_us=1"], "mode": "open",
                        "ladder": {"rates": [10, 20, -1]}})"),
            "p.json: ladder.rates[2]: must be > 0");
  EXPECT_EQ(profileErrorOf(R"({"name": "t", "targets": ["synthetic:service_us=1"], "mode": "open",
                        "ladder": {"rates": [10, 5]}})"),
            "p.json: ladder.rates[1]: must be greater than ladder.rates[0]");
  EXPECT_EQ(profileErrorOf(R"({"name": "t", "targets": ["synthetic:service_us=1"], "mode": "open",
                        "ladder": {"rates": [10], "rung_duraton_s": 3}})"),
            "p.json: ladder.rung_duraton_s: unknown field");
  EXPECT_EQ(profileErrorOf(R"({"name": "t", "targets": ["synthetic:service_us=1"], "mode": "closed",
                        "closed": {"concurrency": [1, 0]}})"),
            "p.json: closed.concurrency[1]: must be >= 1");
  EXPECT_EQ(profileErrorOf(R"({"name": "t", "targets": ["builtin"], "mode": "closed", "closed": {}})"),
            "p.json: targets[0]: a builtin target needs a dataset (\"dataset\": \"default\", ...)");
  EXPECT_EQ(profileErrorOf(R"({"name": "t", "targets": ["warp"], "mode": "closed", "closed": {}})"),
            "p.json: targets[0]: target 'warp': unknown kind 'warp' (expected builtin, synthetic, xapian, sqlite-fts5 or plugin)");
  EXPECT_EQ(profileErrorOf(R"({"name": "t", "targets": ["synthetic:service_us=1"], "mode": "sideways"})"),
            "p.json: mode: expected \"open\", \"closed\" or \"both\", got \"sideways\"");
  EXPECT_EQ(profileErrorOf(R"({"targets": []})"), "p.json: name: required (a non-empty string)");
  EXPECT_EQ(profileErrorOf(R"({"name": "t", "targets": ["synthetic:service_us=1"], "mode": "open"})"),
            "p.json: ladder: required when mode is open or both");
  EXPECT_EQ(profileErrorOf(R"({"name": "t", "targets": ["synthetic:service_us=1"], "mode": "open",
                        "ladder": {"rates": [10], "multiples": [1]}})"),
            "p.json: ladder: exactly one of \"rates\" or \"multiples\" is required");
  EXPECT_EQ(profileErrorOf(R"({"name": "t", "targets": ["synthetic:service_us=1"], "mode": "open",
                        "ladder": {"rates": [10], "workers": 8, "in_flight_cap": 4}})"),
            "p.json: ladder.in_flight_cap: must be >= ladder.workers (8)");
  EXPECT_EQ(profileErrorOf(R"({"name": "t", "targets": ["synthetic:service_us=1"], "mode": "open",
                        "ladder": {"rates": ["fast"]}})"),
            "p.json: ladder.rates[0]: must be a number");
  EXPECT_EQ(profileErrorOf(R"({"name": "t", "query": {"op": "xor"}, "targets": ["synthetic:service_us=1"],
                        "mode": "closed", "closed": {}})"),
            "p.json: query.op: unknown operator 'xor' (expected or or and)");
  EXPECT_NE(profileErrorOf("{nope").find("p.json: not valid JSON"), std::string::npos);
}

TEST(BenchProfile, RefusesRungsTooLargeToKeepInMemory) {
  const auto e = profileErrorOf(R"({"name": "t", "targets": ["synthetic:service_us=0"], "mode": "open",
                             "ladder": {"rates": [1000, 1000000], "settle_s": 0, "rung_duration_s": 10}})");
  EXPECT_NE(e.find("p.json: ladder.rates[1]: 1,000,000/s schedules 10,000,000 requests in one rung, over the maximum of 2,000,000"),
            std::string::npos)
      << e;
}

TEST(BenchProfile, OverridesReplaceTheLadderAndRevalidate) {
  auto p = parse(kOpen);
  engine::BenchOverrides o;
  o.rates = engine::parseRateList("5, 50,500");
  o.requests = 100;
  o.targets = {"synthetic:service_us=3"};
  engine::applyOverrides(p, o);
  EXPECT_EQ(p.ladder.rates, (std::vector<double>{5, 50, 500}));
  EXPECT_EQ(p.ladder.requests, 100u);
  EXPECT_EQ(p.targets, std::vector<std::string>{"synthetic:service_us=3"});
  EXPECT_THROW(engine::parseRateList("5,x"), engine::Error);
  EXPECT_THROW(engine::parseRateList("5,4"), engine::Error);
  engine::BenchOverrides huge;
  huge.rates = {1e7};
  huge.rungSeconds = 100;
  try {
    engine::applyOverrides(p, huge);
    ADD_FAILURE();
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::Usage);
  }
  // The canonical JSON parses back to the same profile.
  const auto again = parseBenchProfile(engine::benchProfileJson(p), "p.json", "/base");
  EXPECT_EQ(again.ladder.rates, p.ladder.rates);
  EXPECT_EQ(again.ladder.requests, p.ladder.requests);
  EXPECT_EQ(again.targets, p.targets);
}

// The Usage message applyOverrides throws for `o` on `p` (fails the test if it applies).
std::string overrideErrorOf(BenchProfile p, const engine::BenchOverrides& o) {
  try {
    engine::applyOverrides(p, o);
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::Usage) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "applied";
  return {};
}

// Stop 37: a builtin target's options were checked on a default (AND) query, so
// `builtin:algo=bmw` was refused on every OR profile, in its targets and as a --target.
TEST(BenchProfile, BuiltinTargetsAreCheckedOnTheProfilesQuery) {
  const std::string orProfile = R"({"name": "t", "dataset": "default", "query": {"op": "or"},
    "targets": ["builtin:algo=bmw", "builtin:algo=maxscore"], "mode": "closed", "closed": {}})";
  auto p = parse(orProfile);
  EXPECT_EQ(p.targets.size(), 2u);
  engine::BenchOverrides o;
  o.targets = {"builtin:algo=exhaustive", "builtin:algo=wand"};
  EXPECT_NO_THROW(engine::applyOverrides(p, o));
  // On an AND profile the same target is refused, naming where the operator came from.
  auto andProfile = parse(R"({"name": "t", "dataset": "default", "query": {"op": "and"}, "targets": ["builtin"],
    "mode": "closed", "closed": {}})");
  const std::string why = overrideErrorOf(andProfile, o);
  EXPECT_NE(why.find("algorithm wand does not evaluate and queries"), std::string::npos) << why;
  EXPECT_NE(why.find("op=and comes from the profile"), std::string::npos) << why;
  // A target's own op overrides the profile's, both ways.
  o.targets = {"builtin", "builtin:op=or,algo=wand"};
  EXPECT_NO_THROW(engine::applyOverrides(andProfile, o));
  o.targets = {"builtin", "builtin:op=and,algo=wand"};
  EXPECT_NE(overrideErrorOf(p, o).find("the target's own op"), std::string::npos);
}

// Review: an oversized --rates was reported as "p.json: ladder.rates[0]: ...", blaming the file.
TEST(BenchProfile, AnOversizedRateOverrideNamesTheOptionNotTheFile) {
  engine::BenchOverrides o;
  o.rates = {5, 1e6};
  const auto e = overrideErrorOf(parse(kOpen), o);
  EXPECT_EQ(e.rfind("--rates: item 1 (1,000,000/s) schedules 3,000,000 requests in one rung, over the maximum of 2,000,000",
                    0),
            0u)
      << e;
  EXPECT_EQ(e.find("p.json"), std::string::npos) << e;
  engine::BenchOverrides longer;
  longer.rungSeconds = 86'400;
  const auto l = overrideErrorOf(parse(kOpen), longer);
  EXPECT_EQ(l.rfind("--rung-duration-s: ", 0), 0u) << l;
}

// Review: `compare --rates` on a closed profile named --rung-duration-s and --requests, which
// compare does not have. Only the options given are named.
TEST(BenchProfile, LadderOverridesOnAClosedProfileNameOnlyTheOptionsGiven) {
  const auto closed = parse(R"({"name": "t", "targets": ["synthetic:service_us=10"], "mode": "closed", "closed": {}})");
  engine::BenchOverrides rates;
  rates.rates = {10};
  EXPECT_EQ(overrideErrorOf(closed, rates),
            "--rates applies to the open-loop ladder, and profile p.json has none (mode is closed)");
  engine::BenchOverrides both;
  both.rates = {10};
  both.requests = 5;
  EXPECT_EQ(overrideErrorOf(closed, both),
            "--rates and --requests apply to the open-loop ladder, and profile p.json has none (mode is closed)");
}

// Limits and the user's rates read as people write them: "must be <= 1e+06" and "item 1
// (1.23457e+07)" (stop 34's review of {:g} in messages).
TEST(BenchProfile, LimitsAndRatesInMessagesHaveNoExponent) {
  EXPECT_EQ(profileErrorOf(R"({"name": "t", "targets": ["synthetic:service_us=10"], "mode": "open",
                              "ladder": {"rates": [10]}, "rule": {"max_latency_ratio": 2e6}})"),
            "p.json: rule.max_latency_ratio: must be <= 1,000,000");
  EXPECT_EQ(profileErrorOf(R"({"name": "t", "targets": ["synthetic:service_us=10"], "mode": "open",
                              "ladder": {"rates": [10], "rung_duration_s": 100000}})"),
            "p.json: ladder.rung_duration_s: must be <= 86,400");
  const auto rateError = [](const char* text) {
    try {
      (void)engine::parseRateList(text);
      return std::string("accepted");
    } catch (const engine::Error& e) {
      return std::string(e.what());
    }
  };
  EXPECT_EQ(rateError("5,12345678"), "--rates: item 1 ('12345678') must be between 0.001 and 10,000,000 requests/s");
  EXPECT_EQ(rateError("2e7"), "--rates: item 0 ('2e7') must be between 0.001 and 10,000,000 requests/s");
  EXPECT_EQ(rateError("500, 1e2"), "--rates: item 1 ('1e2') must be greater than the one before");
}

// Review: rung_duration_s 1e-300 passed "> 0" and became a window of 0 ns, refused by the driver
// as a usage error naming neither file nor field. Windows are read to a millisecond at least.
TEST(BenchProfile, WindowsTooShortToMeasureAreRefusedWhenRead) {
  EXPECT_EQ(profileErrorOf(R"({"name": "t", "targets": ["synthetic:service_us=10"], "mode": "open",
                              "ladder": {"rates": [10], "rung_duration_s": 1e-300}})"),
            "p.json: ladder.rung_duration_s: must be >= 0.001");
  EXPECT_EQ(profileErrorOf(R"({"name": "t", "targets": ["synthetic:service_us=10"], "mode": "closed",
                              "closed": {"measure_s": 1e-12}})"),
            "p.json: closed.measure_s: must be >= 0.001");
  EXPECT_EQ(profileErrorOf(R"({"name": "t", "targets": ["synthetic:service_us=10"], "mode": "open",
                              "ladder": {"multiples": [1], "calibration_s": 1e-300}})"),
            "p.json: ladder.calibration_s: must be >= 0.001");
  EXPECT_EQ(parse(R"({"name": "t", "targets": ["synthetic:service_us=10"], "mode": "open",
                      "ladder": {"rates": [10], "rung_duration_s": 0.001}})")
                .ladder.rungSeconds,
            0.001);
  engine::BenchOverrides tiny;
  tiny.rungSeconds = 1e-300;
  EXPECT_EQ(overrideErrorOf(parse(kOpen), tiny), "--rung-duration-s must be in [0.001, 86400]");
}

// Review: a directory given as --profile was reported as not existing.
TEST(BenchProfile, ADirectoryIsNotAProfile) {
  const auto dir = std::filesystem::path(WANDSCOPE_SOURCE_DIR) / "benchprofiles";
  try {
    (void)engine::loadBenchProfile(dir);
    FAIL() << "loaded a directory";
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::BadInput);
    EXPECT_NE(std::string(e.what()).find("is a directory, not a profile file"), std::string::npos) << e.what();
  }
}

// Every profile we ship parses and validates.
TEST(BenchProfile, ShippedProfilesAreValid) {
  const std::filesystem::path dir = std::filesystem::path(WANDSCOPE_SOURCE_DIR) / "benchprofiles";
  std::size_t n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    SCOPED_TRACE(entry.path().string());
    EXPECT_NO_THROW((void)engine::loadBenchProfile(entry.path()));
    ++n;
  }
  EXPECT_GE(n, 3u);
  for (const char* name : {"smoke.json", "bulk-and-seed.json", "open-ladder.json"}) {
    EXPECT_TRUE(std::filesystem::exists(dir / name)) << name;
  }
}

// Found by fuzzing: a number too large for a double made nlohmann throw out_of_range, which
// escaped as a non-engine exception. It is bad input like any other malformed JSON.
TEST(BenchProfile, ANumberTooLargeIsBadInputNotACrash) {
  const std::string text = "{\"name\": \"x\", \"seed\": 1" + std::string(400, '0') + "}";
  try {
    (void)engine::parseBenchProfile(text, "huge.json", ".");
    FAIL() << "accepted";
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::BadInput);
    EXPECT_NE(std::string(e.what()).find("huge.json: not valid JSON"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace wandscope::test
