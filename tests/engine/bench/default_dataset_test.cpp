// SPDX-License-Identifier: GPL-3.0-or-later
// The embedded default's cache: made once, reused while current, made again when a query file
// was emptied or cut (it was read as a set of 0 queries, and a run over it said nothing).
#include "engine/bench/default_dataset.h"
#include "engine/corpus/query_reader.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

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

}  // namespace
}  // namespace wandscope::test
