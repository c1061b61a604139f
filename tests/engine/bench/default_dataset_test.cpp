// SPDX-License-Identifier: GPL-3.0-or-later
// The embedded default's cache: made once, reused while current, made again when a query file
// was emptied or cut (it was read as a set of 0 queries, and a run over it said nothing); a
// preparation stopped at any progress report leaves no part of a dataset behind.
#include "engine/bench/default_dataset.h"
#include "engine/corpus/query_reader.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace wandscope::test {
namespace {

TEST(DefaultDataset, ADamagedQueryFileMakesTheCacheAgain) {
  TempDir dir;
  auto d = engine::prepareDefaultDataset(engine::defaultDatasetSpec(dir.path(), 3000));
  EXPECT_TRUE(d.rebuilt);
  ASSERT_FALSE(d.querySets.empty());
  EXPECT_FALSE(engine::prepareDefaultDataset(engine::defaultDatasetSpec(dir.path(), 3000)).rebuilt) << "current";
  const std::filesystem::path victim = d.querySets.back().path;  // a copy: d is assigned below
  for (const char* damage : {"", "{\"_id\": \"q1\", \"text\": \"a b\"}\n"}) {  // emptied; cut to one query
    { std::ofstream(victim, std::ios::trunc) << damage; }
    ASSERT_LT(engine::readQueries(victim).size(), engine::kQueriesPerSet);
    d = engine::prepareDefaultDataset(engine::defaultDatasetSpec(dir.path(), 3000));
    EXPECT_TRUE(d.rebuilt) << "damage: '" << damage << "'";
    EXPECT_EQ(engine::readQueries(victim).size(), engine::kQueriesPerSet);
  }
}

struct StopHere {};

// Every file under dir (recursively), as paths relative to it.
std::vector<std::string> filesUnder(const std::filesystem::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) out.push_back(std::filesystem::relative(e.path(), dir).string());
  }
  return out;
}

// A stop arrives as the progress callback throwing (the bench runner's StoppedWhilePreparing).
// Thrown at the corpus generator's last report, just after the corpus was renamed into place, it
// left a complete corpus.jsonl in a dataset without its stamp (BenchRunner's
// AStopWhileTheDatasetIsPreparedEndsThePreparation failed so whenever 20,000 documents were made
// before the first in-loop report, 100 ms in). That report, then every report in turn until a
// preparation runs to its end (some reports are timed, so their number varies): nothing is left.
TEST(DefaultDataset, AStopAtAnyProgressReportLeavesNoPartOfTheDataset) {
  TempDir dir;
  const auto spec = engine::defaultDatasetSpec(dir.path(), 3000);
  auto leftOver = [&] {
    return std::filesystem::exists(spec.dir) ? filesUnder(spec.dir) : std::vector<std::string>{};
  };
  EXPECT_THROW((void)engine::prepareDefaultDataset(spec,
                                                   [](const engine::Progress& p) {
                                                     if (p.stage == "generating" && p.total != 0 && p.done == p.total) {
                                                       throw StopHere{};
                                                     }
                                                   }),
               StopHere);
  EXPECT_TRUE(leftOver().empty()) << "stopped at the corpus's last report: " << leftOver().front() << " left";
  int stopAt = 1;
  for (;; ++stopAt) {
    SCOPED_TRACE("stopped at report " + std::to_string(stopAt));
    int seen = 0;
    bool stopped = false;
    try {
      (void)engine::prepareDefaultDataset(spec, [&](const engine::Progress&) {
        if (++seen == stopAt) throw StopHere{};
      });
    } catch (const StopHere&) {
      stopped = true;
    }
    if (!stopped) break;  // made whole: the reports are used up
    const auto left = leftOver();
    EXPECT_TRUE(left.empty()) << left.size() << " file(s) left, the first " << left.front();
    std::filesystem::remove_all(spec.dir);
    ASSERT_LT(stopAt, 1000) << "a preparation that never ends";
  }
  EXPECT_GT(stopAt, 3) << "reports: generating, scanning, indexing at least";
  EXPECT_FALSE(leftOver().empty()) << "the last preparation ran to its end";
}

}  // namespace
}  // namespace wandscope::test
