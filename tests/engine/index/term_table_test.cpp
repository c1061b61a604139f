// SPDX-License-Identifier: GPL-3.0-or-later
// TermTable: ids in first-seen order, lookups that never insert, and the boundary between terms
// kept in the slot and terms compared through the arena.
#include "engine/index/term_table.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace wandscope::test {
namespace {

using engine::TermTable;

// Terms of 'a' with byte `at` replaced by `c` (at >= length: none replaced).
std::string as(std::size_t length, std::size_t at = ~std::size_t{0}, char c = 'b') {
  std::string s(length, 'a');
  if (at < length) s[at] = c;
  return s;
}

TEST(TermTable, FindsWhatWasInternedAndNothingElse) {
  TermTable t;
  EXPECT_EQ(t.find(""), TermTable::kNotFound) << "an empty table";
  // The empty term first (it crashed intern: no arena block yet), then up to the longest term
  // kept in its slot (22 bytes) and past it (compared through the arena).
  const std::vector<std::string> terms = {"", "a", "ab", "abc", as(22), as(23), as(24, 23)};
  for (std::size_t i = 0; i < terms.size(); ++i) EXPECT_EQ(t.intern(terms[i]), i) << "'" << terms[i] << "'";
  for (std::size_t i = 0; i < terms.size(); ++i) EXPECT_EQ(t.find(terms[i]), i) << "'" << terms[i] << "'";
  EXPECT_EQ(t.intern("abc"), 3u) << "a second intern returns the first id";
  EXPECT_EQ(t.size(), terms.size());
  // Absent: a prefix, an extension, one byte changed at either end, at both kinds of length.
  const std::vector<std::string> absent = {"b", "abcd", as(21), as(25), as(22, 0), as(22, 21), as(23, 0),
                                           as(23, 22), as(24, 23, 'c'), as(24)};
  for (const std::string& s : absent) EXPECT_EQ(t.find(s), TermTable::kNotFound) << "'" << s << "'";
  EXPECT_EQ(t.size(), terms.size()) << "find never inserts";
}

// Slots whose hashes are equal are told apart by their bytes: terms interned under the hash of
// another (intern's hash argument) must not be found as that other, inline or through the arena.
TEST(TermTable, EqualHashesCompareTheWholeTerm) {
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"abc", "abd"},          // inline, same length, last byte differs
      {"ab", "abc"},           // inline, a prefix
      {as(23), as(23, 22)},    // through the arena, beyond the inline bytes
      {as(23), as(23, 0)},     // through the arena, first byte
      {as(22), as(23)},        // inline against arena, same first 22 bytes
  };
  for (const auto& [stored, other] : pairs) {
    TermTable one;
    ASSERT_EQ(one.intern(stored, TermTable::hashOf(other)), 0u);
    EXPECT_EQ(one.find(other), TermTable::kNotFound) << "'" << other << "' against '" << stored << "'";
    EXPECT_EQ(one.intern(other), 1u) << "'" << other << "' is a new term";
    EXPECT_EQ(one.find(other), 1u);
  }
}

// Random terms of 1-40 bytes over a 3-letter alphabet (many shared prefixes, long probe runs),
// through several growths of the table, against a std::set model.
TEST(TermTable, AgreesWithASetModelThroughGrowth) {
  const std::uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> length(1, 40);
  std::uniform_int_distribution<int> letter('a', 'c');
  auto randomTerm = [&] {
    std::string s(static_cast<std::size_t>(length(rng)), 'a');
    for (char& c : s) c = static_cast<char>(letter(rng));
    return s;
  };
  TermTable t;
  std::vector<std::string> order;
  std::set<std::string> model;
  for (int n = 0; n < 20000; ++n) {
    const std::string s = randomTerm();
    const std::uint32_t id = t.intern(s);
    if (model.insert(s).second) order.push_back(s);
    ASSERT_LT(id, order.size());
    ASSERT_EQ(order[id], s);
  }
  for (std::size_t i = 0; i < order.size(); ++i) ASSERT_EQ(t.find(order[i]), i) << order[i];
  for (int n = 0; n < 20000; ++n) {
    const std::string s = randomTerm();
    const std::uint32_t id = t.find(s);
    if (model.count(s) == 0) {
      ASSERT_EQ(id, TermTable::kNotFound) << s;
    } else {
      ASSERT_EQ(order[id], s);
    }
  }
  EXPECT_EQ(t.size(), model.size());
}

}  // namespace
}  // namespace wandscope::test
