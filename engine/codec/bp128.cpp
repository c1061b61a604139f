// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/codec/bp128.h"

namespace wandscope::engine::codec {

std::uint32_t requiredWidth(const std::uint32_t* values, std::size_t n) noexcept {
  std::uint32_t acc = 0;
  for (std::size_t i = 0; i < n; ++i) acc |= values[i];
  return acc == 0 ? 0u : 32u - static_cast<std::uint32_t>(__builtin_clz(acc));
}

void packBp128(const std::uint32_t* in, std::uint32_t width, std::uint32_t* out) noexcept {
  if (width == 0) return;
  for (std::size_t w = 0; w < bp128Words(width); ++w) out[w] = 0;
  for (std::uint32_t lane = 0; lane < 4; ++lane) {
    std::uint64_t bitPos = 0;
    for (std::uint32_t row = 0; row < 32; ++row, bitPos += width) {
      const std::uint64_t value = in[row * 4 + lane];
      const std::uint64_t word = bitPos / 32;
      const std::uint64_t shift = bitPos % 32;
      out[word * 4 + lane] |= static_cast<std::uint32_t>(value << shift);
      if (shift + width > 32) {
        out[(word + 1) * 4 + lane] |= static_cast<std::uint32_t>(value >> (32 - shift));
      }
    }
  }
}

void unpackBp128(const std::uint32_t* in, std::uint32_t width, std::uint32_t* out) noexcept {
  if (width == 0) {
    for (std::size_t i = 0; i < kBp128Values; ++i) out[i] = 0;
    return;
  }
  const std::uint64_t mask = width == 32 ? 0xFFFFFFFFull : ((1ull << width) - 1);
  for (std::uint32_t lane = 0; lane < 4; ++lane) {
    std::uint64_t bitPos = 0;
    for (std::uint32_t row = 0; row < 32; ++row, bitPos += width) {
      const std::uint64_t word = bitPos / 32;
      const std::uint64_t shift = bitPos % 32;
      std::uint64_t value = in[word * 4 + lane] >> shift;
      if (shift + width > 32) value |= static_cast<std::uint64_t>(in[(word + 1) * 4 + lane]) << (32 - shift);
      out[row * 4 + lane] = static_cast<std::uint32_t>(value & mask);
    }
  }
}

void unpackBp128PlusOne(const std::uint32_t* in, std::uint32_t width, std::uint32_t* out) noexcept {
  unpackBp128(in, width, out);
  for (std::size_t i = 0; i < kBp128Values; ++i) out[i] += 1u;
}

void unpackBp128Delta(const std::uint32_t* in, std::uint32_t width, std::uint32_t base,
                      std::uint32_t* out) noexcept {
  unpackBp128(in, width, out);
  std::uint32_t prev = base;
  for (std::size_t i = 0; i < kBp128Values; ++i) {
    prev = prev + out[i] + 1u;
    out[i] = prev;
  }
}

}  // namespace wandscope::engine::codec
