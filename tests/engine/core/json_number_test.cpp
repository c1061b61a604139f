// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/core/json_number.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>

namespace wandscope::test {
namespace {

using nlohmann::json;

TEST(JsonNumber, UnsignedTakesOnlyWholeNumbersInRange) {
  EXPECT_EQ(engine::jsonUnsigned(json::parse("0")), 0u);
  EXPECT_EQ(engine::jsonUnsigned(json::parse("18446744073709551615")), std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(engine::jsonUnsigned(json(std::int64_t{7})), 7u);  // a signed integer that is not negative
  EXPECT_EQ(engine::jsonUnsigned(json::parse("4294967295"), 4294967295u), 4294967295u);
  // Floats, even whole ones, and floats no integer type holds (nlohmann's get<> is undefined there).
  for (const char* text : {"2.0", "3e31", "1e300", "-0.0", "0.5"}) {
    EXPECT_EQ(engine::jsonUnsigned(json::parse(text)), std::nullopt) << text;
  }
  EXPECT_EQ(engine::jsonUnsigned(json::parse("-1")), std::nullopt);
  EXPECT_EQ(engine::jsonUnsigned(json::parse("4294967296"), 4294967295u), std::nullopt);
  EXPECT_EQ(engine::jsonUnsigned(json::parse("\"5\"")), std::nullopt);
  EXPECT_EQ(engine::jsonUnsigned(json::parse("true")), std::nullopt);
  EXPECT_EQ(engine::jsonUnsigned(json::parse("null")), std::nullopt);
}

TEST(JsonNumber, FiniteTakesIntegersAndFloatsButNotNonFiniteOrText) {
  EXPECT_EQ(engine::jsonFinite(json::parse("0.25")), 0.25);
  EXPECT_EQ(engine::jsonFinite(json::parse("-3")), -3.0);
  EXPECT_EQ(engine::jsonFinite(json::parse("18446744073709551615")), 18446744073709551615.0);
  EXPECT_EQ(engine::jsonFinite(json(std::nan(""))), std::nullopt);
  EXPECT_EQ(engine::jsonFinite(json(std::numeric_limits<double>::infinity())), std::nullopt);
  EXPECT_EQ(engine::jsonFinite(json::parse("\"1\"")), std::nullopt);
  EXPECT_EQ(engine::jsonFinite(json::parse("[1]")), std::nullopt);
}

TEST(JsonNumber, SnippetIsTheJsonTextCutTo40Characters) {
  EXPECT_EQ(engine::jsonSnippet(json::parse("3e31")), "3e+31");
  EXPECT_EQ(engine::jsonSnippet(json("200")), "\"200\"");
  const std::string cut = engine::jsonSnippet(json(std::string(100, 'x')));
  EXPECT_EQ(cut.size(), 40u);
  EXPECT_EQ(cut.substr(37), "...");
}

}  // namespace
}  // namespace wandscope::test
