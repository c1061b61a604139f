// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "tests/support/test_index.h"

#include <filesystem>
#include <string>
#include <vector>

namespace wandscope::test {

// One small index and query file shared by the plugin and compare tests (built once per process):
// 3,000 random documents, 60 random 1-3 word queries.
struct PluginFixture {
  std::unique_ptr<TestIndex> index;
  std::filesystem::path queries;      // BEIR JSON lines
  std::vector<std::string> texts;
  std::filesystem::path profile;      // a compare/bench profile over them (op or, k 10)
};

const PluginFixture& pluginFixture();

}  // namespace wandscope::test
