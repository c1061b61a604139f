// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/codec/varint.h"

#include <gtest/gtest.h>

#include <limits>

namespace wandscope::test {
namespace {

using engine::codec::appendVarint;
using engine::codec::readVarint;

TEST(Varint, RoundTripsBoundaryValues) {
  const std::uint32_t values[] = {0, 1, 127, 128, 16383, 16384, (1u << 21) - 1, 1u << 21,
                                  (1u << 28) - 1, 1u << 28, std::numeric_limits<std::uint32_t>::max()};
  std::vector<std::uint8_t> bytes;
  for (auto v : values) appendVarint(bytes, v);
  const std::uint8_t* p = bytes.data();
  const std::uint8_t* end = p + bytes.size();
  for (auto v : values) {
    std::uint32_t got = 0;
    p = readVarint(p, end, got);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(got, v);
  }
  EXPECT_EQ(p, end);
}

TEST(Varint, SizesAreMinimal) {
  std::vector<std::uint8_t> bytes;
  appendVarint(bytes, 127);
  EXPECT_EQ(bytes.size(), 1u);
  bytes.clear();
  appendVarint(bytes, 128);
  EXPECT_EQ(bytes.size(), 2u);
  bytes.clear();
  appendVarint(bytes, std::numeric_limits<std::uint32_t>::max());
  EXPECT_EQ(bytes.size(), 5u);
}

TEST(Varint, RejectsTruncatedAndOverlongInput) {
  std::uint32_t v = 0;
  const std::uint8_t truncated[] = {0x80, 0x80};
  EXPECT_EQ(readVarint(truncated, truncated + 2, v), nullptr);
  const std::uint8_t tooBig[] = {0xFF, 0xFF, 0xFF, 0xFF, 0x1F};  // > 32 bits
  EXPECT_EQ(readVarint(tooBig, tooBig + 5, v), nullptr);
  const std::uint8_t tooLong[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x01};
  EXPECT_EQ(readVarint(tooLong, tooLong + 6, v), nullptr);
  EXPECT_EQ(readVarint(truncated, truncated, v), nullptr);
}

}  // namespace
}  // namespace wandscope::test
