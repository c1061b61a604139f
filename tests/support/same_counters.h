// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/query/query_counters.h"

#include <gtest/gtest.h>

namespace wandscope::test {

// Success when every counter of the two sets is equal; otherwise names each differing counter
// with both values.
::testing::AssertionResult sameCounters(const engine::QueryCounters& expected, const engine::QueryCounters& actual);

}  // namespace wandscope::test
