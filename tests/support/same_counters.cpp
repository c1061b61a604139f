// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/support/same_counters.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace wandscope::test {

::testing::AssertionResult sameCounters(const engine::QueryCounters& expected, const engine::QueryCounters& actual) {
  std::vector<std::pair<const char*, std::uint64_t>> want;
  expected.forEach([&](const char* name, std::uint64_t v) { want.emplace_back(name, v); });
  std::string differing;
  std::size_t i = 0;
  actual.forEach([&](const char*, std::uint64_t v) {
    const auto& [name, w] = want[i++];
    if (v != w) differing += std::string(differing.empty() ? "" : ", ") + name + " " + std::to_string(w) + " vs " + std::to_string(v);
  });
  if (differing.empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "counters differ (expected vs actual): " << differing;
}

}  // namespace wandscope::test
