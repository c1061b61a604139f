// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/bench/saturation_rule.h"
#include "engine/loadgen/arrival_schedule.h"
#include "engine/loadgen/builtin_target.h"
#include "engine/loadgen/workload.h"
#include "engine/query/search_request.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace wandscope::engine {

// A benchmark profile: what to measure and how (benchprofiles/README.md is the schema with
// examples). Loaded from JSON and validated completely before anything runs; every error names
// the file and the JSON path of the field: "smoke.json: ladder.rates[2]: must be > 0".
struct BenchProfile {
  static constexpr int kFormatVersion = 1;

  std::string name;
  std::string description;
  std::string fileName;                   // for messages ("smoke.json")

  enum class DatasetKind { None, Default, Index };
  DatasetKind datasetKind = DatasetKind::None;
  std::uint64_t defaultDocs = 200'000;    // "default": the embedded default dataset at this size
  std::filesystem::path indexPath;        // "index": an existing index...
  std::vector<std::pair<std::string, std::filesystem::path>> querySetFiles;  // ...and named query files
  std::vector<std::string> querySets;     // the sets to run, in order (empty: all of the dataset's)

  Operator op = Operator::And;
  std::size_t k = 10;
  Algorithm algorithm = Algorithm::Auto;
  std::string searchOptions;              // SearchOptions::apply syntax
  WorkloadOrder order = WorkloadOrder::Cycle;

  std::vector<std::string> targets;       // TargetSpec texts
  std::uint64_t seed = 42;
  bool runClosed = false;
  bool runOpen = false;

  struct Closed {
    std::vector<unsigned> concurrency{1};
    double warmupSeconds = 3;
    double measureSeconds = 12;
    unsigned passes = 3;
  } closed;

  struct Ladder {
    ArrivalProcess arrivals = ArrivalProcess::Uniform;
    std::vector<double> rates;            // absolute requests/s, ascending...
    std::vector<double> multiples;        // ...or multiples of the calibrated sequential rate
    double calibrationSeconds = 5;
    double calibrationWarmupSeconds = 2;
    std::uint64_t calibrationMinRequests = 200;
    double settleSeconds = 2;
    double rungSeconds = 10;              // measured window per rung...
    std::uint64_t requests = 0;           // ...or exactly this many measured requests per rung
    unsigned workers = 8;
    std::uint64_t inFlightCap = 64;
    bool stopAfterFail = true;
    double spinUs = 100;
    double drainTimeoutSeconds = 30;
  } ladder;

  SaturationRule rule;
};

// Reads and validates a profile. Errors: BadInput "<file name>: <json path>: <what>"; relative
// paths inside (dataset.index, dataset.query_sets.*) are resolved against the file's directory.
BenchProfile loadBenchProfile(const std::filesystem::path& file);
BenchProfile parseBenchProfile(std::string_view json, const std::string& fileName,
                               const std::filesystem::path& baseDir);

// Command-line overrides (`bench --target ... --rates ... --rung-duration-s ... --requests ...`).
struct BenchOverrides {
  std::vector<std::string> targets;       // replace the profile's targets
  std::vector<double> rates;              // replace the ladder (absolute rates)
  std::optional<double> rungSeconds;      // replace the measured window (clears requests)
  std::optional<std::uint64_t> requests;  // replace it by a request count
};
// Applies and re-validates; errors are Usage naming the option.
void applyOverrides(BenchProfile& profile, const BenchOverrides& overrides);
// "100,200.5,400" -> rates; Usage error naming the bad item.
std::vector<double> parseRateList(std::string_view text);

// The profile as it will run (after overrides), canonical JSON: recorded in every report.
std::string benchProfileJson(const BenchProfile& profile);

// The profile's query (op, k, algorithm, options) as a builtin target starts from before its
// spec's own options apply (BuiltinQueryOptions::applySpec): one source for the runner and for
// checking a profile's targets.
BuiltinQueryOptions builtinQueryOptions(const BenchProfile& profile);

// Requests one open-loop rung at `rate` schedules (settle included), for the per-rung bound.
std::uint64_t plannedRungRequests(const BenchProfile& profile, double rate);

}  // namespace wandscope::engine
