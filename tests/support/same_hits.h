// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/query/search_result.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace wandscope::test {

// "doc:scorebits ..." for the first 12 hits (score bits in hex), for failure messages.
std::string describeHits(const std::vector<engine::Hit>& hits);

// Success when both lists hold the same doc ids in the same order with the same f32 score bits;
// otherwise names the first differing rank (or the sizes) and prints both lists.
::testing::AssertionResult sameHits(const std::vector<engine::Hit>& expected, const std::vector<engine::Hit>& actual);

}  // namespace wandscope::test
