// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/support/same_hits.h"

#include <bit>
#include <cstdint>
#include <cstdio>

namespace wandscope::test {

std::string describeHits(const std::vector<engine::Hit>& hits) {
  std::string s;
  for (std::size_t i = 0; i < hits.size() && i < 12; ++i) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%u:%08x ", hits[i].doc, std::bit_cast<std::uint32_t>(hits[i].score));
    s += buf;
  }
  return s;
}

::testing::AssertionResult sameHits(const std::vector<engine::Hit>& expected, const std::vector<engine::Hit>& actual) {
  if (expected.size() != actual.size()) {
    return ::testing::AssertionFailure() << "size " << actual.size() << " != " << expected.size() << "\nexpected "
                                         << describeHits(expected) << "\nactual   " << describeHits(actual);
  }
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (expected[i].doc != actual[i].doc ||
        std::bit_cast<std::uint32_t>(expected[i].score) != std::bit_cast<std::uint32_t>(actual[i].score)) {
      return ::testing::AssertionFailure() << "rank " << i + 1 << " differs\nexpected " << describeHits(expected)
                                           << "\nactual   " << describeHits(actual);
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace wandscope::test
