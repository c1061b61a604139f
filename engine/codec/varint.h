// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace wandscope::engine::codec {

// LEB128-style unsigned varints: 7 bits per byte, low groups first, high bit = more bytes follow.
// Used for the last (partial) block of a posting list and for small headers.
inline void appendVarint(std::vector<std::uint8_t>& out, std::uint32_t value) {
  while (value >= 0x80u) {
    out.push_back(static_cast<std::uint8_t>(value | 0x80u));
    value >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(value));
}

// Decodes one varint from [p, end). Returns the position after it, or nullptr if the input ends
// early or the value does not fit in 32 bits (a corrupt stream never reads out of bounds).
inline const std::uint8_t* readVarint(const std::uint8_t* p, const std::uint8_t* end,
                                      std::uint32_t& value) noexcept {
  std::uint32_t result = 0;
  for (unsigned shift = 0; shift < 35; shift += 7) {
    if (p == end) return nullptr;
    const std::uint32_t byte = *p++;
    if (shift == 28 && byte > 0x0Fu) return nullptr;
    result |= (byte & 0x7Fu) << shift;
    if ((byte & 0x80u) == 0) {
      value = result;
      return p;
    }
  }
  return nullptr;
}

// 64-bit variants (up to 10 bytes), for codes wider than 32 bits.
inline void appendVarint64(std::vector<std::uint8_t>& out, std::uint64_t value) {
  while (value >= 0x80u) {
    out.push_back(static_cast<std::uint8_t>(value | 0x80u));
    value >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(value));
}

inline const std::uint8_t* readVarint64(const std::uint8_t* p, const std::uint8_t* end,
                                        std::uint64_t& value) noexcept {
  std::uint64_t result = 0;
  for (unsigned shift = 0; shift < 70; shift += 7) {
    if (p == end) return nullptr;
    const std::uint64_t byte = *p++;
    if (shift == 63 && byte > 0x01u) return nullptr;
    result |= (byte & 0x7Fu) << shift;
    if ((byte & 0x80u) == 0) {
      value = result;
      return p;
    }
  }
  return nullptr;
}

}  // namespace wandscope::engine::codec
