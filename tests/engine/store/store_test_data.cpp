// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/engine/store/store_test_data.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace wandscope::test {

engine::RungResult makeRung(std::uint32_t index) {
  const double x = static_cast<double>(index);
  engine::RungResult r;
  r.index = index;
  r.target = index % 2 == 0 ? "builtin" : "synthetic:service_us=200,\"quoted\"";
  r.mode = index % 3 == 2 ? "closed" : "open";
  r.targetRate = 1000.0 + x * 250.0 + 0.1;  // 0.1: not exactly representable
  r.concurrency = index % 3 == 2 ? 8u + index : 0u;
  r.achievedRate = r.targetRate * (1.0 - 1.0 / 3.0 / (x + 1.0));
  r.completed = 1'000'000ull * (index + 1) + 7;
  r.shed = index == 4 ? std::numeric_limits<std::uint64_t>::max() : index * 11ull;  // beyond int64
  r.errors = index;
  r.durationSeconds = 30.000000000000004;
  if (index % 2 == 0) {
    r.p50Ms = 0.123456789012345 + x;
    r.p99Ms = 1.5e-300;  // tiny but normal
    r.p999Ms = 12345.678901234567;
    r.p50CiLowMs = 0.1 + x;
    r.p50CiHighMs = 0.2 + x;
    r.p99CiLowMs = 1.0;
    r.p99CiHighMs = 2.5;
    r.serviceP50Ms = -0.0;
    r.serviceP99Ms = 3.0 / 7.0;
    r.threadCpuP50Ms = 0.01;
    r.threadCpuP99Ms = 0.02;
    r.dispatchLagP99Us = 17.25;
  } else {
    r.p50Ms = 2.0;  // some present, the rest nullopt
    r.serviceP99Ms = 4.0;
  }
  r.cpuMsPerQuery = 0.3333333333333333;
  r.rssPeakMib = 512.75;
  r.minflt = 100 + index;
  r.majflt = index;
  r.nvcsw = 1ull << 40;
  r.nivcsw = 5;
  r.valid = index != 3;
  r.verdict = index == 3 ? "invalid" : (index >= 4 ? "fail" : "pass");
  r.criterion = index >= 3 ? "p99 > 10 ms, \"SLO\"\nsecond line; DROP TABLE rungs; --" : "";
  for (std::uint32_t c = 0; c <= index % 4; ++c) {
    r.counters[std::string("postings_decoded_") + std::to_string(c)] = 1234.5 * (c + 1) + x;
    r.countersP99[std::string("blocks_skipped_") + std::to_string(c)] = 7.0 * (c + 1);
  }
  if (index == 1) r.counters["naïve \"key\", with comma"] = 1e308;
  // The instrument's fields.
  r.querySet = index % 3 == 2 ? "mid-df" : "mixed";
  r.arrivals = index % 2 == 0 ? "poisson" : "uniform";
  r.scheduledRate = r.targetRate - 0.001;
  r.offeredRate = r.targetRate * 1.0001;
  r.settleSeconds = 2.5;
  r.workers = 4 + index;
  r.inFlightCap = 1024;
  r.inFlightHighWater = 17 + index;
  r.notRun = index;
  if (index % 2 == 0) {
    r.p90Ms = 0.75 + x;
    r.queueWaitP50Ms = 0.001;
    r.queueWaitP99Ms = 0.25;
    r.threadCpuMeanMs = 0.0125;
    r.dispatchLagMaxUs = 250.0;
    r.latencyGrowth = -0.03125;
  } else {
    r.p50CiLowMs = 1.75;  // one bound of an interval without the other
  }
  r.processCpuMs = 12345.5 + x;
  r.instrumentCpuMs = 321.25;
  r.instrumentMib = 48.5;
  r.lateDispatchFraction = 0.0015;
  r.partial = index == 4;
  for (std::uint32_t p = 0; p < index % 3; ++p) {
    engine::RungPass pass;
    pass.reverse = p % 2 == 1;
    pass.completed = 5000 + p;
    pass.seconds = 10.0 / 3.0;
    pass.cpuMsPerQuery = 0.2 + p;
    if (p == 0) pass.p50Ms = 0.3;
    r.passes.push_back(pass);
  }
  if (index == 2) {
    r.events.push_back({"writes", 1.5, 2.25, "100 docs, \"batch\""});
    r.events.push_back({"merge", 3.0, 3.0, ""});
  }
  return r;
}

engine::RunReport makeReport(const std::string& runId, std::size_t rungs) {
  engine::RunReport report;
  auto& h = report.header;
  h.runId = runId;
  h.profileName = std::string("ladder-") + runId.substr(0, 4);
  // Canonical (compact, sorted keys: what nlohmann::json::dump() writes), so it also survives
  // report.json's embedding unchanged; the store keeps any text verbatim (run_store_test).
  h.profileJson = R"({"name":"ladder","nested":{"k":10,"s":"x\"y"},"rates":[1000,2000.5]})";
  h.targets = {"builtin", "synthetic:service_us=200,\"quoted\"", "ünïcode target"};
  auto& e = h.environment;
  e.cpuModel = "AMD EPYC 7B13 64-Core Processor";
  e.cores = 64;
  e.kernel = "Linux 6.1.0-18-amd64";
  e.hostname = "bench-01";
  e.compiler = "g++ 12.2.0";
  e.compilerFlags = "-O2 -g -DNDEBUG";
  e.buildType = "Release";
  e.gitCommit = "0123456789abcdef0123456789abcdef01234567";
  e.gitDirty = true;
  e.simdTarget = "AVX2";
  e.wandscopeVersion = "0.1.0";
  e.guiAttached = true;
  e.startedUtc = "2024-05-01T12:34:56Z";
  e.fingerprints = {{"index", "crc32:deadbeef"}, {"queries:mid-df", "sha:0011"}, {"weird, \"key\"", "v"}};
  e.sanitizers = "address,undefined";
  e.governor = "performance";
  e.aslr = "2";
  e.loadAverage1m = 0.37;
  e.memTotalMib = 64312.25;
  e.steadyClockCallNs = 19.5;
  e.threadCpuClockCallNs = 201.75;
  e.syscallsFlushTlb = true;  // not the default: the round trip must carry it
  for (std::size_t i = 0; i < rungs; ++i) report.rungs.push_back(makeRung(static_cast<std::uint32_t>(i)));
  report.partial = false;
  report.capacity["builtin"] = {2000.1, 2250.1, "p99 > 10 ms"};
  report.capacity["synthetic:service_us=200,\"quoted\""] = {std::nullopt, 1000.1, "fails at the first rung"};
  report.capacity["never failed"] = {5000.0, std::nullopt, ""};
  report.quantileDefinition = "nearest rank (test)";
  report.saturationRule = "shed <= 0.1 %, achieved >= 97 % of the target, p99 <= 3 x p99 at the lowest rate";
  report.calibration["builtin"] = {2400.5, 12003, 5.0001};
  report.calibration["synthetic:service_us=200,\"quoted\""] = {4999.0, 25000, 5.0};
  report.warnings = {"Debug build: numbers are not comparable", "sanitizers: address,undefined"};
  return report;
}

namespace {

void expectSameOptional(const std::optional<double>& expected, const std::optional<double>& actual,
                        const char* name) {
  ASSERT_EQ(expected.has_value(), actual.has_value()) << name;
  if (expected) {
    EXPECT_EQ(*expected, *actual) << name;
    EXPECT_EQ(std::signbit(*expected), std::signbit(*actual)) << name;
  }
}

}  // namespace

void expectSameRung(const engine::RungResult& a, const engine::RungResult& b) {
  SCOPED_TRACE(std::string("rung ") + std::to_string(a.index));
  EXPECT_EQ(a.index, b.index);
  EXPECT_EQ(a.target, b.target);
  EXPECT_EQ(a.mode, b.mode);
  EXPECT_EQ(a.targetRate, b.targetRate);
  EXPECT_EQ(a.concurrency, b.concurrency);
  EXPECT_EQ(a.achievedRate, b.achievedRate);
  EXPECT_EQ(a.completed, b.completed);
  EXPECT_EQ(a.shed, b.shed);
  EXPECT_EQ(a.errors, b.errors);
  EXPECT_EQ(a.durationSeconds, b.durationSeconds);
  expectSameOptional(a.p50Ms, b.p50Ms, "p50Ms");
  expectSameOptional(a.p99Ms, b.p99Ms, "p99Ms");
  expectSameOptional(a.p999Ms, b.p999Ms, "p999Ms");
  expectSameOptional(a.p50CiLowMs, b.p50CiLowMs, "p50CiLowMs");
  expectSameOptional(a.p50CiHighMs, b.p50CiHighMs, "p50CiHighMs");
  expectSameOptional(a.p99CiLowMs, b.p99CiLowMs, "p99CiLowMs");
  expectSameOptional(a.p99CiHighMs, b.p99CiHighMs, "p99CiHighMs");
  expectSameOptional(a.serviceP50Ms, b.serviceP50Ms, "serviceP50Ms");
  expectSameOptional(a.serviceP99Ms, b.serviceP99Ms, "serviceP99Ms");
  EXPECT_EQ(a.cpuMsPerQuery, b.cpuMsPerQuery);
  expectSameOptional(a.threadCpuP50Ms, b.threadCpuP50Ms, "threadCpuP50Ms");
  expectSameOptional(a.threadCpuP99Ms, b.threadCpuP99Ms, "threadCpuP99Ms");
  EXPECT_EQ(a.rssPeakMib, b.rssPeakMib);
  EXPECT_EQ(a.minflt, b.minflt);
  EXPECT_EQ(a.majflt, b.majflt);
  EXPECT_EQ(a.nvcsw, b.nvcsw);
  EXPECT_EQ(a.nivcsw, b.nivcsw);
  expectSameOptional(a.dispatchLagP99Us, b.dispatchLagP99Us, "dispatchLagP99Us");
  EXPECT_EQ(a.valid, b.valid);
  EXPECT_EQ(a.verdict, b.verdict);
  EXPECT_EQ(a.criterion, b.criterion);
  EXPECT_EQ(a.counters, b.counters);
  EXPECT_EQ(a.countersP99, b.countersP99);
  EXPECT_EQ(a.querySet, b.querySet);
  EXPECT_EQ(a.arrivals, b.arrivals);
  EXPECT_EQ(a.scheduledRate, b.scheduledRate);
  EXPECT_EQ(a.offeredRate, b.offeredRate);
  EXPECT_EQ(a.settleSeconds, b.settleSeconds);
  EXPECT_EQ(a.workers, b.workers);
  EXPECT_EQ(a.inFlightCap, b.inFlightCap);
  EXPECT_EQ(a.inFlightHighWater, b.inFlightHighWater);
  EXPECT_EQ(a.notRun, b.notRun);
  expectSameOptional(a.p90Ms, b.p90Ms, "p90Ms");
  expectSameOptional(a.queueWaitP50Ms, b.queueWaitP50Ms, "queueWaitP50Ms");
  expectSameOptional(a.queueWaitP99Ms, b.queueWaitP99Ms, "queueWaitP99Ms");
  expectSameOptional(a.threadCpuMeanMs, b.threadCpuMeanMs, "threadCpuMeanMs");
  EXPECT_EQ(a.processCpuMs, b.processCpuMs);
  EXPECT_EQ(a.instrumentCpuMs, b.instrumentCpuMs);
  EXPECT_EQ(a.instrumentMib, b.instrumentMib);
  expectSameOptional(a.dispatchLagMaxUs, b.dispatchLagMaxUs, "dispatchLagMaxUs");
  EXPECT_EQ(a.lateDispatchFraction, b.lateDispatchFraction);
  expectSameOptional(a.latencyGrowth, b.latencyGrowth, "latencyGrowth");
  EXPECT_EQ(a.partial, b.partial);
  ASSERT_EQ(a.passes.size(), b.passes.size());
  for (std::size_t i = 0; i < a.passes.size(); ++i) {
    EXPECT_EQ(a.passes[i].reverse, b.passes[i].reverse);
    EXPECT_EQ(a.passes[i].completed, b.passes[i].completed);
    EXPECT_EQ(a.passes[i].seconds, b.passes[i].seconds);
    EXPECT_EQ(a.passes[i].cpuMsPerQuery, b.passes[i].cpuMsPerQuery);
    expectSameOptional(a.passes[i].p50Ms, b.passes[i].p50Ms, "passes.p50Ms");
  }
  ASSERT_EQ(a.events.size(), b.events.size());
  for (std::size_t i = 0; i < a.events.size(); ++i) {
    EXPECT_EQ(a.events[i].name, b.events[i].name);
    EXPECT_EQ(a.events[i].startSeconds, b.events[i].startSeconds);
    EXPECT_EQ(a.events[i].endSeconds, b.events[i].endSeconds);
    EXPECT_EQ(a.events[i].detail, b.events[i].detail);
  }
}

void expectSameHeader(const engine::RunHeader& a, const engine::RunHeader& b) {
  EXPECT_EQ(a.runId, b.runId);
  EXPECT_EQ(a.profileName, b.profileName);
  EXPECT_EQ(a.profileJson, b.profileJson);
  EXPECT_EQ(a.targets, b.targets);
  const auto& x = a.environment;
  const auto& y = b.environment;
  EXPECT_EQ(x.cpuModel, y.cpuModel);
  EXPECT_EQ(x.cores, y.cores);
  EXPECT_EQ(x.kernel, y.kernel);
  EXPECT_EQ(x.hostname, y.hostname);
  EXPECT_EQ(x.compiler, y.compiler);
  EXPECT_EQ(x.compilerFlags, y.compilerFlags);
  EXPECT_EQ(x.buildType, y.buildType);
  EXPECT_EQ(x.gitCommit, y.gitCommit);
  EXPECT_EQ(x.gitDirty, y.gitDirty);
  EXPECT_EQ(x.simdTarget, y.simdTarget);
  EXPECT_EQ(x.wandscopeVersion, y.wandscopeVersion);
  EXPECT_EQ(x.guiAttached, y.guiAttached);
  EXPECT_EQ(x.startedUtc, y.startedUtc);
  EXPECT_EQ(x.fingerprints, y.fingerprints);
  EXPECT_EQ(x.sanitizers, y.sanitizers);
  EXPECT_EQ(x.governor, y.governor);
  EXPECT_EQ(x.aslr, y.aslr);
  EXPECT_EQ(x.loadAverage1m, y.loadAverage1m);
  EXPECT_EQ(x.memTotalMib, y.memTotalMib);
  EXPECT_EQ(x.steadyClockCallNs, y.steadyClockCallNs);
  EXPECT_EQ(x.threadCpuClockCallNs, y.threadCpuClockCallNs);
  EXPECT_EQ(x.syscallsFlushTlb, y.syscallsFlushTlb);
}

void expectSameReport(const engine::RunReport& a, const engine::RunReport& b) {
  expectSameHeader(a.header, b.header);
  ASSERT_EQ(a.rungs.size(), b.rungs.size());
  for (std::size_t i = 0; i < a.rungs.size(); ++i) expectSameRung(a.rungs[i], b.rungs[i]);
  EXPECT_EQ(a.partial, b.partial);
  ASSERT_EQ(a.capacity.size(), b.capacity.size());
  for (const auto& [target, cap] : a.capacity) {
    SCOPED_TRACE(std::string("capacity ") + target);
    ASSERT_TRUE(b.capacity.count(target));
    const auto& other = b.capacity.at(target);
    expectSameOptional(cap.lastPass, other.lastPass, "lastPass");
    expectSameOptional(cap.firstFail, other.firstFail, "firstFail");
    EXPECT_EQ(cap.criterion, other.criterion);
  }
  EXPECT_EQ(a.quantileDefinition, b.quantileDefinition);
  EXPECT_EQ(a.saturationRule, b.saturationRule);
  EXPECT_EQ(a.warnings, b.warnings);
  ASSERT_EQ(a.calibration.size(), b.calibration.size());
  for (const auto& [target, cal] : a.calibration) {
    SCOPED_TRACE(std::string("calibration ") + target);
    ASSERT_TRUE(b.calibration.count(target));
    EXPECT_EQ(cal.rate, b.calibration.at(target).rate);
    EXPECT_EQ(cal.requests, b.calibration.at(target).requests);
    EXPECT_EQ(cal.seconds, b.calibration.at(target).seconds);
  }
}

}  // namespace wandscope::test
