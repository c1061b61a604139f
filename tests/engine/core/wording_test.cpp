// SPDX-License-Identifier: GPL-3.0-or-later
// The shared wording of numbers: four significant digits, grouped from 1,000, never an exponent.
#include "engine/core/wording.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

namespace wandscope::test {
namespace {

TEST(Wording, SignificantNeverPrintsAnExponent) {
  EXPECT_EQ(engine::significant(10000), "10,000");     // was 1e+04
  EXPECT_EQ(engine::significant(102790.4), "102,790");
  EXPECT_EQ(engine::significant(1000), "1,000");
  EXPECT_EQ(engine::significant(999.96), "1000");      // rounds at four digits, as {:.4g} would
  EXPECT_EQ(engine::significant(150.44), "150.4");
  EXPECT_EQ(engine::significant(2538.6), "2,539");
  EXPECT_EQ(engine::significant(0.5), "0.5");
  EXPECT_EQ(engine::significant(0.02203), "0.02203");
  EXPECT_EQ(engine::significant(3e-05), "0.00003");    // was 3e-05
  EXPECT_EQ(engine::significant(0.00012346), "0.0001235");
  EXPECT_EQ(engine::significant(0), "0");
  EXPECT_EQ(engine::significant(-1234.5), "-1,235");
  EXPECT_EQ(engine::significant(2.0), "2");
  EXPECT_EQ(engine::significant(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(engine::formatRate(30000), "30,000/s");
  EXPECT_EQ(engine::formatRate(0.221), "0.221/s");
  EXPECT_EQ(engine::grouped(1234567), "1,234,567");
  EXPECT_EQ(engine::grouped(999), "999");
  EXPECT_EQ(engine::grouped(0), "0");
}

// The smoke run said "index ...: 1 segments" and "43460008 postings".
TEST(Wording, CountedTakesTheRightNounAndGroupsItsDigits) {
  EXPECT_EQ(engine::counted(1, "segment", "segments"), "1 segment");
  EXPECT_EQ(engine::counted(0, "segment", "segments"), "0 segments");
  EXPECT_EQ(engine::counted(43460008, "posting", "postings"), "43,460,008 postings");
}

// The CLI's explain printed idf 2.49991e-05 and scores to seven digits: every digit an f32 holds,
// none it does not, never an exponent, two f32 never alike.
// Shared by the CLI ("the 1,234th query of the file") and the trace narrative ("each list's
// 3rd-largest weight"; it read "3th" and "1000th").
TEST(Wording, OrdinalTakesTheEnglishSuffixAndGroupsItsDigits) {
  const std::pair<std::uint64_t, const char*> cases[] = {
      {0, "0th"},    {1, "1st"},     {2, "2nd"},     {3, "3rd"},     {4, "4th"},         {11, "11th"},
      {12, "12th"},  {13, "13th"},   {21, "21st"},   {22, "22nd"},   {101, "101st"},     {111, "111th"},
      {112, "112th"}, {1000, "1,000th"}, {1001, "1,001st"}, {1013, "1,013th"}};
  for (const auto& [n, text] : cases) EXPECT_EQ(engine::ordinal(n), text) << n;
}

TEST(Wording, ExactFigureIsTheShortestDecimalOfTheF32) {
  EXPECT_EQ(engine::exactFigure(1146.3198242f), "1146.3198");
  EXPECT_EQ(engine::exactFigure(2.49991e-05f), "0.0000249991");
  EXPECT_EQ(engine::exactFigure(3.0f), "3");
  EXPECT_EQ(engine::exactFigure(std::nextafter(3.0f, 4.0f)), "3.0000002");
  EXPECT_EQ(engine::exactFigure(-0.5f), "-0.5");
  EXPECT_EQ(engine::exactFigure(std::numeric_limits<float>::max()).find('e'), std::string::npos);
  EXPECT_EQ(engine::exactFigure(std::numeric_limits<float>::denorm_min()).find('e'), std::string::npos);
  EXPECT_EQ(engine::exactFigure(std::numeric_limits<float>::quiet_NaN()), "nan");
  EXPECT_EQ(engine::exactFigure(-std::numeric_limits<float>::infinity()), "-inf");
}

}  // namespace
}  // namespace wandscope::test
