// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace wandscope::engine {

// CRC-32 (zlib's polynomial), incremental: crc32Update(crc32Update(0, a), b) == crc32 of a+b.
std::uint32_t crc32Update(std::uint32_t crc, std::span<const std::byte> bytes) noexcept;

inline std::uint32_t crc32Of(std::span<const std::byte> bytes) noexcept {
  return crc32Update(0, bytes);
}

}  // namespace wandscope::engine
