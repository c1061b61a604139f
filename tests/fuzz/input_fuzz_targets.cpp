// SPDX-License-Identifier: GPL-3.0-or-later
// The other files users hand the workbench: benchmark profiles, report.json (and the run store's
// stored documents, which are the same JSON), query sets, qrels and run files.
#include "engine/bench/bench_profile.h"
#include "engine/core/error.h"
#include "engine/corpus/qrels.h"
#include "engine/corpus/query_reader.h"
#include "engine/corpus/run_file.h"
#include "engine/store/run_codec.h"
#include "tests/fuzz/fuzz_support.h"
#include "tests/fuzz/fuzz_targets.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>

namespace wandscope::test {

int fuzzBenchProfile(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  engine::BenchProfile profile;
  try {
    profile = engine::parseBenchProfile(text, "profile.json", fuzzScratchDir());
  } catch (const engine::Error& e) {
    fuzzNote(std::string("refused: ") + e.what());
    if (e.kind() != engine::ErrorKind::BadInput && e.kind() != engine::ErrorKind::Usage) std::abort();
    return 0;
  }
  fuzzNote("valid profile");
  // A valid profile's canonical JSON (what reports record) reads back to the same profile.
  const std::string canonical = engine::benchProfileJson(profile);
  try {
    const auto again = engine::parseBenchProfile(canonical, "profile.json", fuzzScratchDir());
    if (engine::benchProfileJson(again) != canonical) {
      std::fprintf(stderr, "fuzz: profile JSON does not round-trip:\n%s\n", canonical.c_str());
      std::abort();
    }
  } catch (const engine::Error& e) {
    std::fprintf(stderr, "fuzz: canonical profile JSON is refused: %s\n%s\n", e.what(), canonical.c_str());
    std::abort();
  }
  for (const double rate : profile.ladder.rates) (void)engine::plannedRungRequests(profile, rate);
  return 0;
}

int fuzzRunCodec(const std::uint8_t* data, std::size_t size) {
  const auto j = nlohmann::json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return 0;
  using engine::RunCodec;
  try {
    (void)RunCodec::environmentFromJson(j, "report.json");
  } catch (const engine::Error&) {
  }
  try {
    (void)RunCodec::rungFromJson(j, "report.json");
  } catch (const engine::Error&) {
  }
  try {
    (void)RunCodec::headerFromJson(j, "report.json");
  } catch (const engine::Error&) {
  }
  engine::RunReport report;
  try {
    report = RunCodec::reportFromJson(j, "report.json");
  } catch (const engine::Error& e) {
    fuzzNote(std::string("refused: ") + e.what());
    if (e.kind() != engine::ErrorKind::BadInput) std::abort();
    return 0;
  }
  fuzzNote("valid report with " + std::to_string(report.rungs.size()) + " rungs");
  // What was read exports as text that reads back to the same text (the store's export relies on
  // it). Compared as text, as exported: a NaN is written as null and read back as NaN, and a NaN
  // in a JSON tree never compares equal to itself.
  const std::string written = RunCodec::toJson(report).dump();
  try {
    const auto reread = RunCodec::reportFromJson(nlohmann::json::parse(written), "export.json");
    const std::string again = RunCodec::toJson(reread).dump();
    if (again != written) {
      std::fprintf(stderr, "fuzz: report does not round-trip:\n%s\n%s\n", written.c_str(), again.c_str());
      std::abort();
    }
  } catch (const engine::Error& e) {
    std::fprintf(stderr, "fuzz: a written report is refused: %s\n", e.what());
    std::abort();
  }
  (void)RunCodec::rungsToCsv(report.rungs);
  return 0;
}

// First byte: 0 queries (JSON lines or TSV), 1 qrels (BEIR TSV or TREC), 2 run (TREC or dump).
int fuzzEvalFiles(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto path = fuzzScratchDir() / "eval-input";
  writeFuzzFile(path, data + 1, size - 1);
  try {
    switch (data[0] % 3) {
      case 0:
        (void)engine::readQueries(path);
        break;
      case 1:
        (void)engine::readQrels(path);
        break;
      default:
        (void)engine::readRun(path);
        break;
    }
  } catch (const engine::Error& e) {
    if (e.kind() != engine::ErrorKind::BadInput && e.kind() != engine::ErrorKind::Io) std::abort();
  }
  return 0;
}

}  // namespace wandscope::test
