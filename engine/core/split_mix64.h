// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace wandscope::engine {

// SplitMix64 (Steele, Lea and Flood): advances `state` and returns the next 64 random bits. A
// tiny, seedable generator whose sequence is the same on every platform and library, which is
// what reproducible schedules and bootstrap resamples need (std::mt19937_64 is too, but costs
// 2.5 KiB of state per generator).
constexpr std::uint64_t splitMix64(std::uint64_t& state) noexcept {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace wandscope::engine
